"""Users: the admin's list, Edit user and Create New SVL."""
