"""A league's home page and its sections (info and actions, registration, payments, bracket, edit form)."""
