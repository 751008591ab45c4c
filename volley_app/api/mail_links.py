"""Links in emails that act without logging in: an invitation's Accept and Decline (an ordered list's, or the
sub a request names), a game reminder's In, Out and Maybe, and bulk mail's unsubscribe.

The signed token in the address is the reader (``services.subs.invites``, ``services.mail.mail_lists``). Opening a link
(GET) changes nothing: it shows what the link does and one button, so a mail scanner that fetches links answers
nothing. The button (POST) acts. Unsubscribe also takes the mail client's one-click POST (RFC 8058). A forged,
expired or used link is refused with a page saying so and a link to the request.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from volley_app import db, routes
from volley_app.services.core.errors import DomainError
from volley_app.services.mail import mail_lists
from volley_app.services.subs import answers
from volley_app.services.teams import rsvps

# A link's route: its token in, its page out.
_Handler = Callable[[str], HTMLResponse]

_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer"}


def _page(title: str, *parts: str, status: int = 200) -> HTMLResponse:
    body = "\n".join(parts)
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
        f'<style>body{{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}}'
        f'button{{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#1f6feb;color:#fff;cursor:pointer}}'
        f'a{{color:#0b57d0}}</style></head>'
        f"<body><main><h1>{html.escape(title)}</h1>\n{body}\n</main></body></html>",
        status_code=status,
        headers=_HEADERS,
    )


def _p(text: str) -> str:
    return f"<p>{html.escape(text)}</p>"


def _link(label: str, href: str) -> str:
    return f'<p><a href="{html.escape(href)}">{html.escape(label)}</a></p>'


def _button(label: str, action: str) -> str:
    return f'<form method="post" action="{html.escape(action)}"><button type="submit">{html.escape(label)}</button></form>'


def _requests_link(request_id: int | None = None) -> str:
    if request_id:
        return _link("Open the sub request", routes.absolute(routes.sub_request_path(request_id)))
    return _link("Open My Sub Requests", routes.absolute(routes.MY_SUB_REQUESTS))


def _teams_link() -> str:
    return _link("Open My Teams", routes.absolute(routes.TEAMS))


def _request_of(token: str) -> int | None:
    """The request an invitation token names, when it is well formed (for the refusal's link)."""
    from volley_app.models import SubInvite

    head = token.split(".", 1)[0]
    if head.startswith("r") and head[1:].isdigit():  # the link of the sub a request names
        return int(head[1:])
    if not head.isdigit():
        return None
    found = db.call(lambda s: s.get(SubInvite, int(head)))
    return found.request_id if found else None


def _request_link_of(token: str) -> str:
    return _requests_link(_request_of(token))


def _refusing(title: str, *, way_on: Callable[[str], str] = lambda _token: _requests_link()) -> Callable[[_Handler], _Handler]:
    """A link's page, or when its token is refused, a page with ``title`` that says why, with the link ``way_on``
    gives for the token (My Sub Requests unless said)."""

    def refusing(handler: _Handler) -> _Handler:
        @functools.wraps(handler)
        def page(token: str) -> HTMLResponse:
            try:
                return handler(token)
            except DomainError as exc:
                return _page(title, _p(exc.message), way_on(token), status=exc.status_code)

        return page

    return refusing


def create_mail_links_api() -> FastAPI:
    """The email link routes, mounted in front of the app like the REST API."""
    api = FastAPI(docs_url=None, openapi_url=None, redoc_url=None, swagger_ui_oauth2_redirect_url=None)

    @api.get(routes.invite_answer_base + "/{token}", response_class=HTMLResponse)
    @_refusing("This link cannot be used", way_on=_request_link_of)
    def invite_answer_form(token: str) -> HTMLResponse:
        found = db.call(answers.read_answer_link, token)
        verb = "Accept" if found["action"] == "accept" else "Decline"
        return _page(
            f"{verb} the sub request?",
            _p(f"{found['team']}, {found['date']}, at {found['svl']}."),
            _button(verb, routes.invite_answer_path(token)),
            _requests_link(found["request_id"]),
        )

    @api.post(routes.invite_answer_base + "/{token}", response_class=HTMLResponse)
    @_refusing("Your answer was not recorded", way_on=_request_link_of)
    def invite_answer(token: str) -> HTMLResponse:
        done = db.call(answers.answer_by_link, token)
        verb = "accepted" if done["action"] == "accept" else "declined"
        return _page(f"You {verb} the sub request", _p("The requestor has been emailed."),
                     _requests_link(done["request_id"]))  # fmt: skip

    @api.get(routes.rsvp_answer_base + "/{token}", response_class=HTMLResponse)
    @_refusing("This link cannot be used", way_on=lambda _token: _teams_link())
    def rsvp_answer_form(token: str) -> HTMLResponse:
        found = db.call(rsvps.read_link, token)
        verb = {"In": "I'm in", "Out": "I'm out"}.get(found["answer"], "Maybe")
        return _page(
            f"{found['team']} v {found['opponent']}",
            _p(f"{found['when']}. Your answer: {found['answer']}."),
            _button(verb, routes.rsvp_answer_path(token)),
            _link("Open the team's games", routes.absolute(routes.team_games_path(found["team_id"]))),
        )

    @api.post(routes.rsvp_answer_base + "/{token}", response_class=HTMLResponse)
    @_refusing("Your answer was not recorded", way_on=lambda _token: _teams_link())
    def rsvp_answer(token: str) -> HTMLResponse:
        done = db.call(rsvps.answer_by_link, token)
        return _page(f"You answered {done['answer']}", _p(f"{done['team']} v {done['opponent']}, {done['when']}."),
                     _link("Open the team's games", routes.absolute(routes.team_games_path(done["team_id"]))))  # fmt: skip

    @api.get(routes.mail_unsubscribe_base + "/{token}", response_class=HTMLResponse)
    @_refusing("This link cannot be used")
    def unsubscribe_form(token: str) -> HTMLResponse:
        what = db.call(mail_lists.describe, token)
        return _page("Unsubscribe?", _p(f"Stop {what}."), _button("Unsubscribe", routes.mail_unsubscribe_path(token)))

    @api.post(routes.mail_unsubscribe_base + "/{token}", response_class=HTMLResponse)
    @_refusing("This link cannot be used")
    def unsubscribe(token: str) -> HTMLResponse:
        what = db.call(mail_lists.unsubscribe, token)
        return _page("Unsubscribed", _p(f"You will no longer get {what}."))

    return api
