"""Accounts: logging in and out, passwords, API tokens, password recovery, creating and editing users, and the venues (SVLs) with their clocks."""
