"""Leagues: the list, a new league, a league's home, its rules, standings, schedule and games, and the players' list."""
