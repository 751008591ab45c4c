"""Teams: the list (/dash/teams), one team (/dash/teams/{id}), and the waitlist with Promote."""
