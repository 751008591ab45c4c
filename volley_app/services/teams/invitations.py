"""Invitations to join a team: sent by the captain or a co-captain to an address or a username, opened by a
signed single-use link.

An invitation is a row (Pending for ``VALID_DAYS`` days) and an email with a link to the join page
(``routes.team_join_path``). The link carries the invitation's id, its expiry and a signature
(``signing.TEAM_INVITATION``): a person logged in joins in one tap; a person without an account signs up with
the address filled in and joins as the account is made; one with an account logs in and comes back. A link
used, expired or withdrawn, or for a full roster, says so. Joining twice at once makes one membership.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from volley_app import routes
from volley_app.models import InvitationStatus, League, Team, TeamInvitation, User, utcnow
from volley_app.services.accounts import accounts, auth
from volley_app.services.core import audit, ratelimit, signing, timefmt, validation
from volley_app.services.core.actors import Actor, record_id, require_actor
from volley_app.services.core.errors import BadRequest, DomainError, Forbidden, Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.seasons import leagues
from volley_app.services.teams import rosters

VALID_DAYS = 14

BAD_LINK = "This invitation link is not valid. Ask the team's captain to invite you again."
EXPIRED_LINK = "This invitation has expired. Ask the team's captain to invite you again."
USED_LINK = "This invitation has already been used."
WITHDRAWN_LINK = "The captain withdrew this invitation."
OTHER_ACCOUNT = "This invitation is for another account: log in as {username} to join."
NO_USERNAME = "No player has that username"
TO_REQUIRED = "Enter an email address or a username"
ALREADY_INVITED = "{email} already has an invitation waiting: withdraw it to send another"
NOT_PENDING = "This invitation is no longer waiting"
INVITATION_NOT_FOUND = "This invitation no longer exists"


def token(inv: TeamInvitation) -> str:
    """The invitation's link token: ``{id}.{expiry}.{signature}``, valid until it expires."""
    expiry = int(inv.expires_at.timestamp())
    return f"{inv.id}.{expiry}.{signing.sign(signing.TEAM_INVITATION, inv.id, inv.email, expiry)}"


def _read(db: Session, value: object, now: dt.datetime) -> TeamInvitation:
    """The invitation a token names when the signature is ours and it has not expired (the status is not checked)."""
    parts = value.split(".") if isinstance(value, str) and len(value) < 200 else []
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or len(parts[0]) > 10:
        raise NotFound(BAD_LINK)
    inv = db.get(TeamInvitation, int(parts[0]))
    expiry = int(parts[1])
    if inv is None or not signing.verify(signing.TEAM_INVITATION, parts[2], inv.id, inv.email, expiry):
        raise NotFound(BAD_LINK)
    if expiry <= now.timestamp() or inv.expires_at <= now:
        raise BadRequest(EXPIRED_LINK)
    return inv


def _team_and_league(db: Session, inv: TeamInvitation) -> tuple[Team, League]:
    team = db.get(Team, inv.team_id)
    league = db.get(League, team.league_id) if team is not None else None
    if team is None or league is None or league.archived_at is not None:
        raise NotFound(rosters.TEAM_NOT_FOUND)
    return team, league


def _closed(inv: TeamInvitation) -> str:
    """Why a link of this invitation no longer joins ('' while it is waiting)."""
    if inv.status == InvitationStatus.WITHDRAWN:
        return WITHDRAWN_LINK
    if inv.status != InvitationStatus.PENDING:
        return USED_LINK
    return ""


# --- sending and withdrawing --------------------------------------------------------------------------------


class SentInvitation(TypedDict):
    id: int
    team_id: int
    email: str
    status: str
    expires_at: str


def _sent(inv: TeamInvitation) -> SentInvitation:
    assert inv.id is not None
    return {"id": inv.id, "team_id": inv.team_id, "email": inv.email, "status": inv.status.value,
            "expires_at": inv.expires_at.isoformat()}  # fmt: skip


def _recipient(db: Session, to: object) -> tuple[str, User | None]:
    """The address and account (if any) of what was typed: an address, or a username (its account's address)."""
    text = to.strip() if isinstance(to, str) else ""
    if not text:
        raise Invalid({"to": TO_REQUIRED})
    if "@" in text:
        try:
            email = validation.email(text)
        except Invalid:
            raise Invalid({"to": "Enter a valid email address"}) from None
        user = db.exec(select(User).where(func.lower(col(User.email)) == email)).first()
        return email, user
    user = db.exec(select(User).where(func.lower(col(User.username)) == text.lower()[:50])).first()
    if user is None or user.archived_at is not None or not user.active:
        raise Invalid({"to": NO_USERNAME})
    return user.email.lower(), user


def invite(db: Session, actor: Actor | None, team_id: object, *, to: object, now: dt.datetime | None = None) -> SentInvitation:
    """Invite an address or a username to the team (its captain, a co-captain or the league's operator).

    Refused: a full roster, someone already on the team, an address with an invitation waiting, too many
    invitations today. The address is emailed a signed link valid ``VALID_DAYS`` days; audited.
    """
    now = now or utcnow()
    seat = rosters.access_roster(db, actor, team_id)
    if not seat.manages:
        raise Forbidden(rosters.MANAGE)
    team, league = seat.team, seat.league
    assert team.id is not None
    if team.withdrawn_at is not None:
        raise Invalid(rosters.WITHDRAWN)
    email, user = _recipient(db, to)
    if user is not None and user.id is not None and rosters.is_member(db, team.id, user.id):
        raise Invalid({"to": rosters.ALREADY_MEMBER.format(name=mail.full_name(user) or user.username,
                                                           team=team.team_name)})  # fmt: skip
    if why := rosters.full_message(db, team, league):
        raise Invalid(why)
    waiting = sa.and_(col(TeamInvitation.team_id) == team.id, col(TeamInvitation.email) == email,
                      col(TeamInvitation.status) == InvitationStatus.PENDING)  # fmt: skip
    old = db.exec(select(TeamInvitation).where(waiting)).first()
    if old is not None and old.expires_at > now:
        raise Invalid({"to": ALREADY_INVITED.format(email=email)})
    if old is not None:  # lapsed: closed so a new one can be sent
        old.status = InvitationStatus.DECLINED
        db.add(old)
        db.flush()
    ratelimit.team_invitation(db, seat.actor.user_id, email, now=now)
    inv = TeamInvitation(team_id=team.id, email=email, user_id=user.id if user else None,
                         invited_by_id=seat.actor.user_id, created_at=now,
                         expires_at=now + dt.timedelta(days=VALID_DAYS))  # fmt: skip
    try:
        with db.begin_nested():
            db.add(inv)
            db.flush()
    except sa.exc.IntegrityError:  # the same address invited a moment ago (a double click)
        raise Invalid({"to": ALREADY_INVITED.format(email=email)}) from None
    inviter = db.get(User, seat.actor.user_id)
    name = (mail.full_name(inviter) if inviter else "") or seat.actor.username
    zone = leagues.zone(db, league)
    mail.queue_email(db, "team_invitation", {
        "team": team.team_name, "league": leagues.display_name(league), "inviter": name,
        "link": routes.absolute(routes.team_join_path(token(inv))), "until": timefmt.day(inv.expires_at, zone),
    }, to=email)  # fmt: skip
    audit.record(db, seat.actor, action="invite", entity="team_invitation", entity_id=inv.id, league_id=league.id,
                 subject_user_id=inv.user_id, summary=f"{email} invited to {team.team_name}",
                 after={"team_id": team.id, "email": email})  # fmt: skip
    return _sent(inv)


def withdraw(db: Session, actor: Actor | None, team_id: object, invitation_id: object) -> SentInvitation:
    """Withdraw a waiting invitation (the captain, a co-captain or the league's operator): its link stops working."""
    seat = rosters.access_roster(db, actor, team_id)
    if not seat.manages:
        raise Forbidden(rosters.MANAGE)
    inv = db.get(TeamInvitation, record_id(invitation_id, INVITATION_NOT_FOUND))
    if inv is None or inv.team_id != seat.team.id:
        raise NotFound(INVITATION_NOT_FOUND)
    closed = db.connection().execute(
        sa.update(TeamInvitation).where(col(TeamInvitation.id) == inv.id,
                                        col(TeamInvitation.status) == InvitationStatus.PENDING)
        .values(status=InvitationStatus.WITHDRAWN, answered_at=utcnow())
    ).rowcount  # fmt: skip
    if closed != 1:
        raise Invalid(NOT_PENDING)
    db.refresh(inv)
    audit.record(db, seat.actor, action="withdraw", entity="team_invitation", entity_id=inv.id,
                 league_id=seat.league.id, subject_user_id=inv.user_id,
                 summary=f"Invitation of {inv.email} to {seat.team.team_name} withdrawn",
                 before={"status": InvitationStatus.PENDING.value}, after={"status": inv.status.value})  # fmt: skip
    return _sent(inv)


# --- opening the link ---------------------------------------------------------------------------------------

JOIN, LOGIN, SIGNUP, MEMBER = "join", "login", "signup", "member"


class JoinView(TypedDict):
    """What the join page shows: the team, its league, who invited, and what the reader does next."""

    team_id: int
    team_name: str
    league_name: str
    inviter: str
    email: str
    next: str  # JOIN (logged in), LOGIN (an account, logged out), SIGNUP (no account), MEMBER (on the team)


def _member_of(db: Session, team: Team, user_id: int) -> bool:
    assert team.id is not None
    return rosters.is_member(db, team.id, user_id)


def preview(db: Session, actor: Actor | None, join_token: object, *, now: dt.datetime | None = None) -> JoinView:
    """The join page of a link, for anyone holding it; changes nothing.

    Raises NotFound (a forged link) or BadRequest (expired, used, withdrawn, a full roster, another account's).
    """
    now = now or utcnow()
    inv = _read(db, join_token, now)
    team, league = _team_and_league(db, inv)
    assert team.id is not None
    joined = actor is not None and inv.joined_user_id == actor.user_id
    if actor is not None and (joined or _member_of(db, team, actor.user_id)):
        nxt = MEMBER
    else:
        if why := _closed(inv):
            raise BadRequest(why)
        if team.withdrawn_at is not None:
            raise BadRequest(rosters.WITHDRAWN)
        if why := rosters.full_message(db, team, league):
            raise BadRequest(why)
        account = db.get(User, inv.user_id) if inv.user_id else db.exec(
            select(User).where(func.lower(col(User.email)) == inv.email)).first()  # fmt: skip
        if actor is not None:
            if inv.user_id is not None and actor.user_id != inv.user_id and account is not None:
                raise BadRequest(OTHER_ACCOUNT.format(username=account.username))
            nxt = JOIN
        else:
            nxt = LOGIN if account is not None else SIGNUP
    inviter = db.get(User, inv.invited_by_id) if inv.invited_by_id else None
    return {"team_id": team.id, "team_name": team.team_name, "league_name": leagues.display_name(league),
            "inviter": (mail.full_name(inviter) or inviter.username) if inviter else "", "email": inv.email,
            "next": nxt}  # fmt: skip


def join(db: Session, actor: Actor | None, join_token: object, *, now: dt.datetime | None = None) -> int:
    """The logged-in reader joins the team of the link; returns the team's id.

    One link makes one membership: a second tap by the same person answers the same team; anyone else's
    is told the link was used.
    """
    actor = require_actor(actor)
    now = now or utcnow()
    inv = _read(db, join_token, now)
    team, league = _team_and_league(db, inv)
    assert team.id is not None
    if inv.joined_user_id == actor.user_id or (inv.status != InvitationStatus.WITHDRAWN
                                               and _member_of(db, team, actor.user_id)):  # fmt: skip
        return team.id
    if why := _closed(inv):
        raise BadRequest(why)
    if inv.user_id is not None and inv.user_id != actor.user_id:
        other = db.get(User, inv.user_id)
        if other is not None:
            raise Forbidden(OTHER_ACCOUNT.format(username=other.username))
    claimed = db.connection().execute(
        sa.update(TeamInvitation).where(col(TeamInvitation.id) == inv.id,
                                        col(TeamInvitation.status) == InvitationStatus.PENDING)
        .values(status=InvitationStatus.ACCEPTED, answered_at=now, joined_user_id=actor.user_id)
    ).rowcount  # fmt: skip
    db.refresh(inv)
    if claimed != 1:
        if inv.joined_user_id == actor.user_id:
            return team.id
        raise BadRequest(_closed(inv) or USED_LINK)
    user = db.get(User, actor.user_id)
    if user is None:
        raise NotFound(BAD_LINK)
    rosters.add_member(db, team, league, user, by=actor)
    return team.id


@dataclasses.dataclass(frozen=True)
class SignedUp:
    """A new account made from an invitation's link: its login, and the team it joined (None: why not)."""

    login: auth.LoginResult
    team_id: int | None
    message: str = ""


def signup_and_join(db: Session, *, join_token: object, trusted: bool = True, client: str = "",
                    **form: object) -> SignedUp:  # fmt: skip
    """Sign up (as ``accounts.signup``) and join the team of the link at once. The account stays when the link
    no longer joins (expired, full): ``message`` says why."""
    user = accounts.register_player(db, client=client, **form)
    login = auth.start_session(db, user, trusted=bool(trusted), client=client)
    try:
        with db.begin_nested():
            team_id = join(db, login.actor, join_token)
    except DomainError as exc:
        return SignedUp(login, None, exc.message)
    return SignedUp(login, team_id)


def invited_email(db: Session, join_token: object, *, now: dt.datetime | None = None) -> str:
    """The address of a waiting invitation (the sign-up form fills it in); '' for any link that does not join."""
    try:
        inv = _read(db, join_token, now or utcnow())
    except DomainError:
        return ""
    return inv.email if inv.status == InvitationStatus.PENDING and inv.user_id is None else ""

