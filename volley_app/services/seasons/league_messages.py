"""League messages: an operator emails a league's captains, every player on its rosters, or one team's captain or
members, through the outbox.

Two steps, both checked here: ``preview`` shows the email as it will read and how many people get it;
``send`` is given the count the operator confirmed and refuses when it no longer holds (a team joined
in between), so nobody is mailed without the operator having seen the number. Audited.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import TypedDict

from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import OutboxMessage, Team, TeamMember, User, utcnow
from volley_app.services.core import audit, validation
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Invalid
from volley_app.services.mail import mail, mail_render
from volley_app.services.seasons import leagues

SUBJECT_MAX = 200
BODY_MAX = 10_000
NOBODY = "No captain to email: no team of this league has a captain with an email address."
NO_MEMBER = "No one to email: nobody on these rosters has an email address."
COUNT_CHANGED = "The number of people this goes to changed to {n}. Check the preview and confirm again."
JUST_SENT = "This message was just sent to these people."
RESEND_MINUTES = 10

CAPTAINS, PLAYERS, TEAM = "captains", "players", "team"
AUDIENCES: list[tuple[str, str]] = [
    (CAPTAINS, "Captains only"),
    (PLAYERS, "All players on the league's rosters"),
    (TEAM, "One team's members"),
]
"""Who a league message goes to: the captains (of every team, or of the team chosen), every rostered player of
the league's teams (not the waitlist), or the members of the team chosen."""


def _kind(audience: object) -> str:
    text = audience.strip() if isinstance(audience, str) else ""
    if not text:
        return CAPTAINS
    if text not in dict(AUDIENCES):
        raise Invalid({"audience": "Choose who gets this: " + ", ".join(label for _v, label in AUDIENCES)})
    return text


def _team(db: Session, league_id: int, team: object) -> Team | None:
    """The league's team (not withdrawn) that ``team`` names; None when it names none."""
    team_text = str(team).strip() if isinstance(team, str | int) and not isinstance(team, bool) else ""
    if not team_text:
        return None
    found = None
    if team_text.isdigit() and len(team_text) < 12:
        found = db.exec(select(Team).where(Team.id == int(team_text), Team.league_id == league_id,
                                           col(Team.withdrawn_at).is_(None))).first()  # fmt: skip
    if found is None:
        raise Invalid({"team": "Choose a team of this league"})
    return found


def _audience(db: Session, league_id: int, audience: object, team: object) -> tuple[list[User], str, int | None]:
    """The people to email (each once, with an email address, their account open), who they are in words, and the
    team's id when one team's people get it."""
    kind = _kind(audience)
    chosen = _team(db, league_id, team)
    if kind == TEAM and chosen is None:
        raise Invalid({"team": "Choose the team whose members get this"})
    if kind == PLAYERS and chosen is not None:
        raise Invalid({"team": "All players goes to every team: leave the team blank, or choose One team's members"})
    if chosen is not None:
        teams = [chosen]
        who = f"the captain of {chosen.team_name}" if kind == CAPTAINS else f"the members of {chosen.team_name}"
    else:
        teams = list(db.exec(select(Team).where(Team.league_id == league_id, col(Team.withdrawn_at).is_(None),
                                                 col(Team.waitlist).is_(False))).all())  # fmt: skip
        who = "the captains of every team in the league" if kind == CAPTAINS else "every player on the league's rosters"
    if kind == CAPTAINS:
        ids = {t.captain_id for t in teams if t.captain_id}
    else:
        ids = set(db.exec(select(TeamMember.user_id).where(
            col(TeamMember.team_id).in_([t.id for t in teams] or [-1]), col(TeamMember.left_at).is_(None))).all())  # fmt: skip
    users = db.exec(select(User).where(col(User.id).in_(ids or {-1}), col(User.active).is_(True)).order_by(col(User.id))).all()
    return [u for u in users if u.email], who, chosen.id if chosen is not None else None


def _clean(subject: object, body: object) -> dict:
    clean = validation.collect(
        subject=(validation.name, subject, "subject", "Subject", SUBJECT_MAX),
        body=(validation.text, body, "body", "Message", BODY_MAX),
    )
    if any(ch in clean["subject"] for ch in "\r\n"):
        raise Invalid({"subject": "The subject must be one line"})
    return clean


def _letter(league_name: str, sender: str, subject: str, body: str, link: str, first_name: str) -> dict[str, object]:
    """What the league_message template shows one recipient."""
    return {"league": league_name, "sender": sender, "subject": subject, "body": body, "page": link,
            "first_name": first_name}  # fmt: skip


class MessagePreview(TypedDict):
    """The email as its recipients will read it, and who gets it."""

    count: int
    who: str
    subject: str
    body: str
    names: str


@dataclasses.dataclass(frozen=True)
class _Draft:
    """A message an operator wrote to a league's people, checked: who sends it, to whom, and what it says."""

    actor: Actor
    league_id: int
    league_name: str
    subject: str
    body: str
    users: list[User]
    who: str
    team_id: int | None

    @property
    def sender(self) -> str:
        return self.actor.first_name or self.actor.username

    @property
    def full_subject(self) -> str:
        """The subject as the recipients read it: the league's name, then the operator's."""
        return f"{self.league_name}: {self.subject}"

    @property
    def link(self) -> str:
        return routes.absolute(routes.league_path(self.league_id))


def _draft(
    db: Session, actor: Actor | None, league_id: object, audience: object, team: object, subject: object, body: object
) -> _Draft:
    """The league's SVL or an admin, a league not archived, a subject and body that pass, someone to send to."""
    league = leagues.changeable(db, actor, league_id)
    assert actor is not None and league.id is not None  # changeable: a stored league, for its SVL or an admin
    clean = _clean(subject, body)
    users, who, team_id = _audience(db, league.id, audience, team)
    if not users:
        raise Invalid(NOBODY if _kind(audience) == CAPTAINS else NO_MEMBER)
    name = leagues.display_name(league)
    return _Draft(actor, league.id, name, clean["subject"], clean["body"], users, who, team_id)


def preview(
    db: Session, actor: Actor | None, league_id: object, *, audience: object = CAPTAINS, team: object = None,
    subject: object, body: object,
) -> MessagePreview:
    """The email as its recipients will read it and how many people get it (the league's SVL or an admin).

    ``audience``: "captains" (the default; with ``team``, that team's captain), "players" (every player on the
    league's rosters) or "team" (the members of ``team``)."""
    d = _draft(db, actor, league_id, audience, team, subject, body)
    users = d.users
    email = mail_render.render("league_message", _letter(d.league_name, d.sender, d.full_subject, d.body, d.link,
                                                         "(their first name)"))  # fmt: skip
    return {
        "count": len(users), "who": d.who, "subject": email.subject, "body": email.text,
        "names": ", ".join(f"{u.first_name} {u.last_name}".strip() for u in users[:20]) + (" …" if len(users) > 20 else ""),
    }  # fmt: skip


def send(
    db: Session, actor: Actor | None, league_id: object, *, audience: object = CAPTAINS, team: object = None,
    subject: object, body: object, confirmed: object, now: dt.datetime | None = None,
) -> int:
    """Queue the email to each person of ``audience`` (as in :func:`preview`) once, after the operator confirmed
    ``confirmed`` recipients. Returns how many."""
    d = _draft(db, actor, league_id, audience, team, subject, body)
    users = d.users
    if str(confirmed).strip() != str(len(users)):
        raise Invalid(COUNT_CHANGED.format(n=len(users)))
    now = now or utcnow()
    recent = db.exec(
        select(OutboxMessage.id).where(
            OutboxMessage.kind == "league_message", OutboxMessage.subject == d.full_subject,
            col(OutboxMessage.to_addr).in_([u.email for u in users]),
            OutboxMessage.created_at > now - dt.timedelta(minutes=RESEND_MINUTES),
        )
    ).first()  # fmt: skip
    if recent is not None:
        raise Invalid(JUST_SENT)
    sender = db.get(User, d.actor.user_id)
    for u in users:
        mail.queue_email(
            db, "league_message", _letter(d.league_name, d.sender, d.full_subject, d.body, d.link, mail.first_name(u)),
            to=u.email, reply_to=sender.email if sender else None,
        )  # fmt: skip
    audit.record(
        db, d.actor, action="message", entity="team" if d.team_id else "league", entity_id=d.team_id or d.league_id,
        league_id=d.league_id, summary=f"Email to {d.who}, {d.league_name} ({len(users)}): {d.subject}",
        after={"subject": d.subject, "recipients": len(users)},
    )  # fmt: skip
    return len(users)


class Choice(TypedDict):
    """One choice of a select field."""

    value: str
    label: str


class LeagueTeams(TypedDict):
    """The league an operator writes to, its teams to choose from, and the audiences."""

    id: int
    name: str
    teams: list[Choice]
    audiences: list[Choice]


def teams(db: Session, actor: Actor | None, league_id: object) -> LeagueTeams:
    """The league's name and the teams to choose from (the league's SVL or an admin)."""
    league = leagues.changeable(db, actor, league_id)
    assert league.id is not None  # a stored league
    rows = db.exec(
        select(Team).where(Team.league_id == league.id, col(Team.withdrawn_at).is_(None)).order_by(col(Team.team_name))
    ).all()
    return {"id": league.id, "name": leagues.display_name(league),
            "teams": [{"value": str(t.id), "label": t.team_name + (" (waitlist)" if t.waitlist else "")} for t in rows],
            "audiences": [{"value": v, "label": label} for v, label in AUDIENCES]}  # fmt: skip
