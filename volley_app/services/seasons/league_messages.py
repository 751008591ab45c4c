"""League messages: an operator emails the captains of one league, or of one team, through the outbox.

Two steps, both checked here: ``preview`` shows the email as it will read and how many people get it;
``send`` is given the count the operator confirmed and refuses when it no longer holds (a team joined
in between), so nobody is mailed without the operator having seen the number. Audited.
"""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import OutboxMessage, Team, User, utcnow
from volley_app.services.core import audit, validation
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Invalid
from volley_app.services.mail import mail, mail_render
from volley_app.services.seasons import leagues

SUBJECT_MAX = 200
BODY_MAX = 10_000
NOBODY = "No captain to email: no team of this league has a captain with an email address."
COUNT_CHANGED = "The number of people this goes to changed to {n}. Check the preview and confirm again."
JUST_SENT = "This message was just sent to these captains."
RESEND_MINUTES = 10


def _audience(db: Session, league_id: int, team: object) -> tuple[list[User], str, int | None]:
    """The captains to email (each person once), who they are in words, and the team's id when one team."""
    stmt = select(Team).where(Team.league_id == league_id, col(Team.withdrawn_at).is_(None))
    team_text = str(team).strip() if isinstance(team, str | int) and not isinstance(team, bool) else ""
    team_id = None
    if team_text:
        try:
            team_id = int(team_text)
        except ValueError:
            team_id = -1
        stmt = stmt.where(col(Team.id) == team_id)
        found = db.exec(stmt).first()
        if found is None:
            raise Invalid({"team": "Choose a team of this league"})
        who = f"the captain of {found.team_name}"
    else:
        stmt = stmt.where(col(Team.waitlist).is_(False))
        who = "the captains of every team in the league"
    ids = {t.captain_id for t in db.exec(stmt).all() if t.captain_id}
    users = db.exec(select(User).where(col(User.id).in_(ids or {-1}), col(User.active).is_(True)).order_by(col(User.id))).all()
    return [u for u in users if u.email], who, team_id


def _clean(subject: object, body: object) -> dict:
    clean = validation.collect(
        subject=(validation.name, subject, "subject", "Subject", SUBJECT_MAX),
        body=(validation.text, body, "body", "Message", BODY_MAX),
    )
    if any(ch in clean["subject"] for ch in "\r\n"):
        raise Invalid({"subject": "The subject must be one line"})
    return clean


def _letter(league_name: str, sender: str, subject: str, body: str, link: str, first_name: str) -> dict[str, object]:
    """What the league_message template shows one captain."""
    return {"league": league_name, "sender": sender, "subject": subject, "body": body, "page": link,
            "first_name": first_name}  # fmt: skip


class MessagePreview(TypedDict):
    """The email as a captain will read it, and who gets it."""

    count: int
    who: str
    subject: str
    body: str
    names: str


def preview(
    db: Session, actor: Actor | None, league_id: object, *, team: object = None, subject: object, body: object
) -> MessagePreview:
    """The email as a captain will read it and how many people get it (the league's SVL or an admin)."""
    league = leagues.changeable(db, actor, league_id)
    assert actor is not None and league.id is not None  # changeable: a stored league, for its SVL or an admin
    clean = _clean(subject, body)
    users, who, _team_id = _audience(db, league.id, team)
    if not users:
        raise Invalid(NOBODY)
    name = leagues.display_name(league)
    link = routes.absolute(routes.league_path(league.id))
    email = mail_render.render("league_message", _letter(name, actor.first_name or actor.username,
                                                         f"{name}: {clean['subject']}", clean["body"], link,
                                                         "(captain's first name)"))  # fmt: skip
    return {
        "count": len(users), "who": who, "subject": email.subject, "body": email.text,
        "names": ", ".join(f"{u.first_name} {u.last_name}".strip() for u in users[:20]) + (" …" if len(users) > 20 else ""),
    }  # fmt: skip


def send(
    db: Session, actor: Actor | None, league_id: object, *, team: object = None, subject: object, body: object,
    confirmed: object, now: dt.datetime | None = None,
) -> int:
    """Queue the email to each captain once, after the operator confirmed ``confirmed`` recipients. Returns how many."""
    league = leagues.changeable(db, actor, league_id)
    assert actor is not None and league.id is not None  # changeable: a stored league, for its SVL or an admin
    clean = _clean(subject, body)
    users, who, team_id = _audience(db, league.id, team)
    if not users:
        raise Invalid(NOBODY)
    if str(confirmed).strip() != str(len(users)):
        raise Invalid(COUNT_CHANGED.format(n=len(users)))
    name = leagues.display_name(league)
    full_subject = f"{name}: {clean['subject']}"
    now = now or utcnow()
    recent = db.exec(
        select(OutboxMessage.id).where(
            OutboxMessage.kind == "league_message", OutboxMessage.subject == full_subject,
            col(OutboxMessage.to_addr).in_([u.email for u in users]),
            OutboxMessage.created_at > now - dt.timedelta(minutes=RESEND_MINUTES),
        )
    ).first()  # fmt: skip
    if recent is not None:
        raise Invalid(JUST_SENT)
    sender = db.get(User, actor.user_id)
    link = routes.absolute(routes.league_path(league.id))
    for u in users:
        mail.queue_email(
            db, "league_message",
            _letter(name, actor.first_name or actor.username, full_subject, clean["body"], link, mail.first_name(u)),
            to=u.email, reply_to=sender.email if sender else None,
        )  # fmt: skip
    audit.record(
        db, actor, action="message", entity="team" if team_id else "league", entity_id=team_id or league.id,
        league_id=league.id, summary=f"Email to {who} of {name} ({len(users)}): {clean['subject']}",
        after={"subject": clean["subject"], "recipients": len(users)},
    )  # fmt: skip
    return len(users)


class Choice(TypedDict):
    """One choice of a select field."""

    value: str
    label: str


class LeagueTeams(TypedDict):
    """The league an operator writes to the captains of, and its teams to choose from."""

    id: int
    name: str
    teams: list[Choice]


def teams(db: Session, actor: Actor | None, league_id: object) -> LeagueTeams:
    """The league's name and the teams to choose from (the league's SVL or an admin)."""
    league = leagues.changeable(db, actor, league_id)
    assert league.id is not None  # a stored league
    rows = db.exec(
        select(Team).where(Team.league_id == league.id, col(Team.withdrawn_at).is_(None)).order_by(col(Team.team_name))
    ).all()
    return {"id": league.id, "name": leagues.display_name(league),
            "teams": [{"value": str(t.id), "label": t.team_name + (" (waitlist)" if t.waitlist else "")} for t in rows]}  # fmt: skip
