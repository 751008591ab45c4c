"""Seasons: league sessions, leagues, their schedules, games and scores, captains' score reports, standings, playoffs, the calendar feeds and the operator's email to captains."""
