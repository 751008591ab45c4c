"""Operations that span the domains: the archive and restoring from it, CSV exports, an account's end, and the player's home."""
