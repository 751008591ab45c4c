"""Subs: sub requests and the places on them, invitations, suggested subs and their eligibility, players' availability, the records kept on subs, reminders, and the sub request's loader."""
