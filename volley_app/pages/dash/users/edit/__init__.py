"""Edit user (/dash/users/[user_id]): the page and its sections."""
