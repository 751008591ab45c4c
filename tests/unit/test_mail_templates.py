"""Every email template renders from sample values: a subject, a text part and an HTML part that carry the
links, with what people typed escaped in the HTML and no value left undefined."""

from __future__ import annotations

import html
import re

import jinja2
import pytest

from volley_app.services.mail import mail, mail_render

# What people type may hold markup: the HTML part must show it, never run it.
TYPED = '<b>Ann & "Co"</b>'
ESCAPED = html.escape(TYPED)
SITE = "https://volley.example"


def link(path: str) -> str:
    return f"{SITE}/{path}?a=1&b=2"


REQUEST = {
    "when": "Tue, Jun 3, 2031 6:30 PM", "svl": TYPED, "team": TYPED, "court": "Court 2", "skill_level": "B",
    "format": "Coed 6s", "players_needed": 2, "places_filled": 1, "text": TYPED,
}  # fmt: skip

SAMPLES: dict[str, dict[str, object]] = {
    "player_contact": {"username": "ann", "first_name": TYPED, "last_name": TYPED, "status": "Player",
                       "email": "ann@example.com", "message": f"{TYPED} see {link('contact')}"},
    "email_all": {"subject": "Season news", "body": f"{TYPED}\n\nMore: {link('news')}", "unsubscribe": link("off")},
    "sign_in_link": {"first_name": TYPED, "username": "ann", "minutes": 15, "link": link("signIn/1/tok"),
                     "forgot_password": link("forgotPassword")},
    "password_reset": {"first_name": TYPED, "username": "ann", "minutes": 60, "link": link("resetPassword/1/tok")},
    "password_changed": {"first_name": TYPED, "username": "ann", "forgot_password": link("forgotPassword")},
    "newsletter": {"subject": "This week in Lexington volleyball", "unsubscribe": link("unsubscribe/1/sig"),
                   "groups": [{"title": "Headlines", "entries": [{"blurb": TYPED, "link": link("story")},
                                                              {"blurb": "No link", "link": ""}]}]},
    "inquiry": {"title": "Contact", "sender": TYPED, "id": 7, "email": "ann@example.com",
                "fields": [{"label": "Name", "value": TYPED}, {"label": "Website", "value": link("site")}]},
    "received_request": {"who": TYPED, "first_name": TYPED, "request": REQUEST, "held_until": "Tue 4:30 PM",
                         "accept": link("api/invite-answers/1.a.1.sig"), "decline": link("api/invite-answers/1.d.1.sig"),
                         "page": link("dash/notes/1")},
    "invite_list_ended": {"first_name": TYPED, "request": REQUEST, "outcome": "is closed", "page": link("dash/notes/1")},
    "open_request": {"first_name": TYPED, "request": REQUEST, "day": "Tue, Jun 3", "page": link("dash/notes/1"),
                     "unsubscribe": link("api/unsubscribe/open.1.sig")},
    "request_answered": {"verb": "accepted", "first_name": TYPED, "who": TYPED, "when": "Tue 6:30 PM", "svl": TYPED,
                         "team": TYPED, "page": link("dash/notes/1")},
    "sub_withdrew": {"who": TYPED, "team": TYPED, "first_name": TYPED, "now_open": "The place is open to anyone again.",
                     "when": "Tue 6:30 PM", "svl": TYPED, "places_filled": 0, "players_needed": 1,
                     "page": link("dash/notes/1")},
    "playoff_sub_decided": {"first_name": TYPED, "verdict": "approved", "who": TYPED, "team": TYPED,
                            "then": "You play in this game.", "when": "Tue 6:30 PM", "svl": TYPED,
                            "page": link("dash/notes/1")},
    "playoff_sub_waiting": {"first_name": TYPED, "who": TYPED, "team": TYPED, "when": "Tue 6:30 PM", "svl": TYPED,
                            "page": link("dash/leagues/1/rosters")},
    "request_changed": {"team": TYPED, "first_name": TYPED, "requestor": TYPED, "changes": ["date and time", "court"],
                        "when": "Tue 6:30 PM", "svl": TYPED, "court": TYPED, "page": link("dash/notes/1")},
    "request_cancelled": {"team": TYPED, "first_name": TYPED, "requestor": TYPED, "when": "Tue 6:30 PM", "svl": TYPED,
                          "court": "", "page": link("dash/notes/1")},
    "sub_reminder_after_game": {"sub_names": TYPED, "team": TYPED, "first_name": TYPED, "when": "Tue 6:30 PM",
                                "page": link("dash/notes/1")},
    "sub_reminder_requestor": {"sub_names": TYPED, "subs": 1, "team": TYPED, "day": "Tue, Jun 3", "first_name": TYPED,
                               "when": "Tue 6:30 PM", "where": TYPED, "page": link("dash/notes/1")},
    "game_rsvp_reminder": {"first_name": TYPED, "team": TYPED, "opponent": TYPED, "when": "Tue 6:30 PM",
                           "court": ", Court 2", "answer_in": link("api/rsvp-answers/1.2.3.i.9.sig"),
                           "answer_out": link("api/rsvp-answers/1.2.3.o.9.sig"),
                           "answer_maybe": link("api/rsvp-answers/1.2.3.m.9.sig"), "page": link("dash/teams/2/games")},
    "sub_reminder_sub": {"team": TYPED, "day": "Tue, Jun 3", "first_name": TYPED, "requestor": TYPED,
                         "when": "Tue 6:30 PM", "where": TYPED, "skill_level": "B", "format": "Coed 6s",
                         "page": link("dash/notes/1")},
    "league_message": {"subject": f"{TYPED}: Rain", "first_name": TYPED, "body": TYPED, "sender": TYPED,
                       "league": TYPED, "page": link("dash/leagues/1")},
    "score_settled": {"game": TYPED, "first_name": TYPED, "score": "25-20, 25-23", "page": link("dash/games/1/score")},
    "score_reported": {"game": TYPED, "first_name": TYPED, "team": TYPED, "when": "Tue 6:30 PM", "sets": "25-20",
                       "page": link("dash/games/1/score")},
    "score_confirmed": {"game": TYPED, "first_name": TYPED, "team": TYPED, "sets": "25-20",
                        "page": link("dash/games/1/score")},
    "score_disputed": {"game": TYPED, "first_name": TYPED, "team": TYPED, "sets": "25-20", "note": TYPED,
                       "page": link("dash/games/1/score")},
    "score_dispute_to_operator": {"game": TYPED, "first_name": TYPED, "team": TYPED, "sets": "25-20", "note": "",
                                  "page": link("dash/games/1/score")},
    "schedule_changed": {"league": TYPED, "week": 3, "first_name": TYPED, "page": link("dash/leagues/1/schedule")},
    "game_moved": {"game": TYPED, "start": "Tue 6:30 PM", "first_name": TYPED, "league": TYPED,
                   "now_where": "Tue 6:30 PM on Court 2", "was": TYPED, "page": link("dash/leagues/1/schedule")},
    "game_changed": {"game": TYPED, "start": "Tue 6:30 PM", "first_name": TYPED, "now_where": "Tue 6:30 PM",
                     "was": TYPED, "page": link("dash/leagues/1/schedule")},
    "week_pushed": {"league": TYPED, "week": 4, "first_name": TYPED, "next_day": "Tue, Jun 10",
                    "page": link("dash/leagues/1/schedule")},
    "game_added": {"game": TYPED, "start": "Tue 6:30 PM", "first_name": TYPED, "league": TYPED, "where": TYPED,
                   "page": link("dash/leagues/1/schedule")},
    "game_cancelled": {"game": TYPED, "was": TYPED, "first_name": TYPED, "league": TYPED,
                       "page": link("dash/leagues/1/schedule")},
    "place_offered": {"league": TYPED, "team": TYPED, "deadline": "Tue 6:30 PM", "first_name": TYPED,
                      "amount": "$80.00", "page": link("dash/checkout/1")},
    "offer_lapsed": {"league": TYPED, "team": TYPED, "deadline": "Tue 6:30 PM", "first_name": TYPED,
                     "page": link("leagues/1")},
    "team_promoted": {"team": TYPED, "league": TYPED, "first_name": TYPED, "amount": "$80.00", "cash": True,
                      "league_cost": "$400.00", "first_day": "Tue, Jun 3", "page": link("leagues/1")},
    "payment_refunded": {"team": TYPED, "first_name": TYPED, "amount": "$80.00", "league": TYPED,
                         "page": link("leagues/1")},
    "refund_made": {"team": TYPED, "first_name": TYPED, "amount": "$20.00", "league": TYPED, "reason": TYPED,
                    "page": link("leagues/1")},
    "credit_issued": {"team": TYPED, "first_name": TYPED, "amount": "$20.00", "league": TYPED, "reason": TYPED,
                      "balance": "$35.00", "page": link("dash/leagues")},
    "team_registered": {"team": TYPED, "league": TYPED, "amount": "$80.00", "cash": False, "league_cost": "$0.00",
                        "first_day": "Tue, Jun 3", "shared": True, "page": link("dash/teams/1")},
    "team_paid_up": {"team": TYPED, "league": TYPED, "first_name": TYPED, "page": link("dash/teams/1")},
    "share_due": {"team": TYPED, "league": TYPED, "first_name": TYPED, "amount": "$45.00", "due_by": "Tue, Jun 3",
                  "link": link("pay/1.2.share.abc")},
    "share_overdue": {"team": TYPED, "league": TYPED, "first_name": TYPED, "amount": "$45.00",
                      "due_by": "Tue, Jun 3", "link": link("pay/1.2.share.abc")},
    "share_refund_proposed": {"team": TYPED, "league": TYPED, "first_name": TYPED, "player": TYPED,
                              "paid": "$45.00", "proposed": "$40.00", "why": "Less the $5 fee.",
                              "page": link("dash/payments/1")},
    "team_withdrawn": {"team": TYPED, "league": TYPED, "first_name": TYPED, "forfeited": True, "refund": "$300",
                       "page": link("leagues/1")},
    "league_archived": {"league": TYPED, "first_name": TYPED, "paid_teams": [TYPED, "Spikes"],
                        "page": link("dash/player/leagues")},
    "team_short": {"team": TYPED, "first_name": TYPED, "places": 2, "against": " (vs Spikes)", "day": "Tue, Jun 3",
                   "when": "Tue, Jun 3, 7:00 PM", "playing": 4, "out": 2, "unanswered": 0, "page": link("dash/teams/1")},
    "team_invitation": {"team": TYPED, "league": TYPED, "inviter": TYPED, "link": link("join/1.2.abc"),
                        "until": "Tue, Jun 3"},
    "roster_changed": {"team": TYPED, "first_name": TYPED, "change": TYPED, "page": link("dash/teams/1")},
    "agent_placed": {"team": TYPED, "league": TYPED, "first_name": TYPED, "page": link("dash/teams/1")},
    "agent_joined": {"team": TYPED, "league": TYPED, "player": TYPED, "first_name": TYPED,
                     "page": link("dash/teams/1")},
    "agent_given_back": {"league": TYPED, "reason": "Not placed on a team by the league's start", "first_name": TYPED,
                         "refund": "$40.00", "credit": "$10.00", "page": link("dash/leagues/1")},
}  # fmt: skip


# Emails with nothing to open (none now: the registration's receipt links the team's page).
NO_LINK: set[str] = set()


def _links(values: object) -> list[str]:
    """Every address among the sample values (nested ones too)."""
    if isinstance(values, dict):
        return [u for v in values.values() for u in _links(v)]
    if isinstance(values, list | tuple):
        return [u for v in values for u in _links(v)]
    return re.findall(r"https://\S+", values) if isinstance(values, str) else []


def test_every_email_template_has_a_sample():
    assert mail_render.names() == sorted(SAMPLES)
    assert len(SAMPLES) >= 30


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_sample_gives_exactly_what_its_template_asks_for(name):
    assert set(SAMPLES[name]) == mail_render.variables(name)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_template_renders_a_subject_text_and_html_with_its_links(name):
    values = SAMPLES[name]
    email = mail_render.render(name, values)
    assert email.subject and "\n" not in email.subject and "{" not in email.subject
    assert email.text.strip() and "{{" not in email.text and "{%" not in email.text
    # The HTML part that goes out: the template's own, else the one drawn from the text when sending.
    part = email.html if email.html is not None else mail.html_from_text(email.text)
    assert part.startswith("<!doctype html>") and part.endswith("</body></html>\n")
    links = _links(values)
    assert bool(links) == (name not in NO_LINK)
    for url in links:
        assert url in email.text
        assert f'href="{html.escape(url)}"' in part
        assert "&b=2" not in part  # an address's "&" is escaped too
    # What people typed is shown as text, never as markup.
    if TYPED in email.text:
        assert ESCAPED in part
    assert TYPED not in part and "<b>" not in part


def test_the_text_part_keeps_what_people_typed_as_typed():
    email = mail_render.render("player_contact", SAMPLES["player_contact"])
    assert email.text.startswith(f"From: {TYPED} {TYPED} (ann, Player)\nEmail: ann@example.com\n\n")
    assert email.subject == "Player contact from ann"


def test_the_invitation_draws_accept_and_decline_as_buttons_under_its_paragraphs():
    email = mail_render.render("received_request", SAMPLES["received_request"])
    assert "Accept: https://" in email.text and "Decline: https://" in email.text
    assert email.html is not None
    assert ">Accept</a>" in email.html and ">Decline</a>" in email.html and "display:inline-block" in email.html
    assert "Accept: " not in email.html  # the answers are buttons, not lines of text
    assert email.html.index("Or answer on the request") < email.html.index(">Accept</a>")
    assert f"Hi {ESCAPED}," in email.html


def test_a_missing_value_is_an_error_not_an_empty_gap():
    values = dict(SAMPLES["password_reset"])
    del values["link"]
    with pytest.raises(jinja2.UndefinedError):
        mail_render.render("password_reset", values)


def test_an_unknown_template_is_an_error():
    with pytest.raises(jinja2.TemplateNotFound):
        mail_render.render("no_such_email", {})


def test_html_from_text_links_and_escapes_each_line():
    text = f"Hi {TYPED},\n\nAccept: {link('a')}\nSee {link('b')} now.\n"
    part = mail.html_from_text(text)
    assert f'<a href="{html.escape(link("a"))}" style="overflow-wrap:anywhere;word-break:break-word">Accept</a>' in part
    assert f'See <a href="{html.escape(link("b"))}"' in part
    assert f"<p>Hi {ESCAPED},</p>" in part
