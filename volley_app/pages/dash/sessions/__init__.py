"""League sessions (SVL and admin): the list, new, edit, and a session's leagues, one screen a module."""
