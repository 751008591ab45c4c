"""The profile screens: the profile links, My Info and the player contact form."""
