"""The admin screens: the newsletter composer, email all users and inquiries."""
