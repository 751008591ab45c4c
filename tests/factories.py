"""Builders and readers shared by the unit and API tests, all on the ``db`` fixture's session.

Each builder commits what it adds. Each reader expires the session first, so it sees what the
database holds now rather than the session's cached copies, and commits afterwards, so no read
transaction stays open. The loaded rows keep their values, because the session does not expire them on commit.
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import (
    Day,
    Game,
    League,
    LeagueFormat,
    LeagueSession,
    LeagueStage,
    LoginAttempt,
    LoginSession,
    MemberRole,
    Notification,
    OutboxMessage,
    Rating,
    Refund,
    Role,
    SessionStatus,
    SkillLevel,
    SubRequest,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.accounts import accounts, auth
from volley_app.services.core.actors import Actor
from volley_app.services.money import ledger
from volley_app.services.subs import request_changes
from volley_app.services.teams import rosters, waivers

PASSWORD = "pass1"
"""The password of every user that ``make_user`` creates, unless a test gives another one."""

LOGIN_CLIENT = "192.0.2.1"
"""The client address that ``login_token`` logs in from."""


# --- builders ------------------------------------------------------------------------


def make_user(db: Session, username: str = "bob", *roles: Role, password: str = PASSWORD, **profile) -> User:
    """Create a user through ``accounts.create_user`` and commit it.

    The email is ``<username>@example.com``, the first name is ``username.title()``, the last
    name is "Tester" and the region is "KY". ``roles`` defaults to a Player. ``profile`` can
    override any of those fields (for example ``email=``) or add other columns (for example ``sub=True``).
    """
    fields = {"email": f"{username}@example.com", "first_name": username.title(), "last_name": "Tester", "region": "KY"}
    user = accounts.create_user(
        db, username=username, password=password, roles=roles or (Role.PLAYER,), **(fields | profile)
    )
    db.commit()
    return user


def login_token(db: Session, username: str, *, trusted: bool = True, client: str = LOGIN_CLIENT) -> str:
    """A new login session of ``username``, as ``auth.login`` opens one once the password is right (the password's
    check has tests of its own), committed; its token."""
    user = db.exec(select(User).where(User.username == username.lower())).one()
    result = auth.start_session(db, user, trusted=trusted, client=client)
    db.commit()
    return result.token


def tampered(token: str) -> str:
    """``token`` with its last character (its signature's) changed to another."""
    return token[:-1] + ("0" if token[-1] != "0" else "1")


def actor_of(user: User) -> Actor:
    """Build the ``Actor`` that stands for ``user`` in service calls. It has no login session."""
    return Actor(user_id=user.id, username=user.username, roles=tuple(user.roles), first_name=user.first_name)


def add_league_session(
    db: Session,
    svl: User,
    name: str,
    start: dt.datetime,
    end: dt.datetime,
    status: SessionStatus = SessionStatus.REGISTRATION,
) -> int:
    """Add a league session run by ``svl`` and commit it. Return its id."""
    row = LeagueSession(svl_id=svl.id, name=name, status=status, start_at=start, end_at=end)
    db.add(row)
    db.commit()
    return row.id


LEAGUE_START = dt.datetime(2026, 9, 7, 22, 30, tzinfo=dt.UTC)
"""The start ``add_league`` gives a league unless a test gives another: a Monday 6:30 PM in New York."""


def add_league(db: Session, svl: User, session_id: int, *, start: dt.datetime = LEAGUE_START, weeks: int = 8,
               increment: int = 50, **columns) -> League:  # fmt: skip
    """Add a Monday C 6s league on Court 1 (8 teams at most, $300) in ``session_id``, run by ``svl``, and commit it.

    ``columns`` sets or overrides any other column (for example ``max_teams=2`` or ``active=False``).
    """
    defaults = {"court": "Court 1", "skill_level": SkillLevel.C, "format": LeagueFormat.SIXES, "day": Day.MONDAY,
                "max_teams": 8, "cost_cents": 30000}  # fmt: skip
    row = League(
        session_id=session_id, svl_id=svl.id, start_at=start, number_of_weeks=weeks, time_increment=increment,
        **(defaults | columns),
    )
    db.add(row)
    db.commit()
    return row


def add_teams(db: Session, league: League, n: int, prefix: str = "T", **columns) -> list[int]:
    """Add ``n`` teams named ``{prefix}1``, ``{prefix}2``, ... to ``league``, committing each. Return their ids."""
    ids = []
    for i in range(n):
        team = Team(league_id=league.id, team_name=f"{prefix}{i + 1}", **columns)
        db.add(team)
        db.flush()
        rosters.add_captain(db, team)
        db.commit()
        ids.append(team.id)
    return ids


def add_member(db: Session, team_id: int, user: User | int, role: MemberRole = MemberRole.PLAYER) -> TeamMember:
    """Put ``user`` on the team now (a current member) and commit; one already on it (a captain) stays as they are."""
    user_id = user if isinstance(user, int) else user.id
    on = db.exec(select(TeamMember).where(TeamMember.team_id == team_id, TeamMember.user_id == user_id,
                                          col(TeamMember.left_at).is_(None))).first()  # fmt: skip
    if on is not None:
        return on
    row = TeamMember(team_id=team_id, user_id=user_id, role=role)
    db.add(row)
    db.commit()
    return row


def remove_member(db: Session, team_id: int, user_id: int) -> None:
    """End the user's membership of the team (they left) and commit."""
    for m in db.exec(select(TeamMember).where(TeamMember.team_id == team_id, TeamMember.user_id == user_id,
                                              col(TeamMember.left_at).is_(None))):  # fmt: skip
        m.left_at = utcnow()
    db.commit()


def add_game(db: Session, league_id: int, team1: int, team2: int | None, start: dt.datetime, **columns) -> Game:
    """Add a game between two teams (``team2`` None: a bye) of the league and commit it."""
    row = Game(league_id=league_id, team1_id=team1, team2_id=team2, start_at=start, **columns)
    db.add(row)
    db.commit()
    return row


WAIVER_TEXT = "I play at my own risk and release the league from claims."


def add_waiver(db: Session, operator: Actor, league_id: int, text: str = WAIVER_TEXT) -> waivers.WaiverVersion:
    """A new version of the league's waiver, saved by ``operator`` (its SVL or an admin)."""
    found = waivers.save_waiver(db, operator, league_id=league_id, text=text)
    db.commit()
    return found


def league_world(db: Session) -> dict:
    """Two SVLs (svla, svlb), a player (pat) and an admin (root), and SVL A's session "A fall" with one league.

    The session starts in 3 days, the league in 4. Returns the actors by key ("a", "b", "p", "admin"),
    the session id ("sid"), the league ("lg") and SVL A's user row ("svla").
    """
    a, b = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    p, adm = make_user(db, "pat"), make_user(db, "root", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, a, sid, start=now + dt.timedelta(days=4))
    return {"db": db, "a": actor_of(a), "b": actor_of(b), "p": actor_of(p), "admin": actor_of(adm), "sid": sid,
            "lg": lg, "svla": a}  # fmt: skip


def expire_logins(db: Session, ago: dt.timedelta = dt.timedelta(seconds=1)) -> None:
    """Set every login session to have expired ``ago`` before now, and commit."""
    db.exec(sa.update(LoginSession).values(expires_at=utcnow() - ago))
    db.commit()


def age_login_attempts(db: Session, ago: dt.timedelta, **where) -> None:
    """Move the recorded login failures ``ago`` into the past, and commit.

    Pass ``where`` (for example ``client="10.0.0.1"``) to move only the attempts that match.
    """
    stmt = sa.update(LoginAttempt).values(at=utcnow() - ago)
    for name, value in where.items():
        stmt = stmt.where(getattr(LoginAttempt, name) == value)
    db.exec(stmt)
    db.commit()


# --- readers -------------------------------------------------------------------------


def count(db: Session, model, *where) -> int:
    """Return how many rows of ``model`` the database holds now that match every ``where`` clause."""
    db.expire_all()
    n = db.exec(select(sa.func.count()).select_from(model).where(*where)).one()
    db.commit()
    return n


def rows(db: Session, model, *where) -> list:
    """Return the rows of ``model`` that match every ``where`` clause, as the database holds them now, ordered by id."""
    db.expire_all()
    found = list(db.exec(select(model).where(*where).order_by(model.id)))
    db.commit()
    return found


def notified(db: Session, kind: str) -> list[tuple[str, str]]:
    """Who was told of ``kind`` (their address) and the page it links to, as the database holds them now, sorted."""
    db.expire_all()
    found = db.exec(select(User.email, Notification.link).join(User, col(User.id) == Notification.user_id)
                    .where(Notification.kind == kind)).all()  # fmt: skip
    db.commit()
    return sorted((str(e), str(link)) for e, link in found)


def refund_statuses(db: Session, payment_id: int) -> list[str]:
    """The statuses of the payment's refunds ("due", "made", "failed"), oldest first."""
    return [r.status for r in rows(db, Refund, Refund.payment_id == payment_id)]


def ledger_problems(db: Session) -> list[str]:
    """Where the ledger does not add up now (``ledger.check``): nothing when it balances."""
    db.expire_all()
    found = ledger.check(db)
    db.commit()
    return found


def session_statuses(db: Session) -> dict[str, SessionStatus]:
    """Map the name of every league session to the status that is stored for it now."""
    return {s.name: s.status for s in rows(db, LeagueSession)}


PLAYERS_WORLD = ["alice", "ben", "svl", "root"]
_DAY = dt.timedelta(days=1)


def player_world(db: Session) -> dict:
    """Players alice and ben (an active sub, hitter A), an SVL, an admin, and two of alice's requests.

    Alice's requests are open to anyone ("open") and an invite of ben ("targeted"), three days
    ahead. Returns the login tokens by username ("tokens"), the user ids ("ids") and the requests.
    """
    make_user(db, "alice")
    ben = make_user(db, "ben", sub=True, hitter_skill_level=Rating.A)
    make_user(db, "svl", Role.SVL, address="1 Court St", city="Lexington")
    make_user(db, "root", Role.ADMIN)
    alice = rows(db, User, User.username == "alice")[0]
    when = utcnow() + dt.timedelta(days=3)
    common = {"team": "Net Ninjas", "date": when, "svl": "Sportsplex", "skill_level": "C", "format": "6s"}
    open_id = request_changes.create(db, actor_of(alice), **common)
    targeted_id = request_changes.create(db, actor_of(alice), recipient_id=ben.id, **common)
    db.commit()
    return {
        "tokens": {name: login_token(db, name) for name in PLAYERS_WORLD},
        "ids": {u.username: u.id for u in rows(db, User)},
        "requests": {"open": open_id, "targeted": targeted_id},
    }


def public_league_world(db: Session) -> dict:
    """The public leagues' world: venue "Sandbox Courts" with a league in registration ("open", Monday C 6s: teams Open1
    and Open2 and Waiting1 on the waitlist, of eight places) and one running ("running", Monday B 6s: Spikers1-4 of six
    places, week 1 played, week 2 to come, registration open for a few weeks more), both captained by casey (casey.captain@example.com); and leagues a visitor must not see ("hidden", by why),
    one of them of another venue whose account is archived. Returns the league ids and the running league's teams."""
    now = utcnow()
    # Monday evenings, 6:30 PM in New York, as LEAGUE_START: the next one at least four days ahead, and eight days ago.
    start = LEAGUE_START + dt.timedelta(weeks=max(0, (now - LEAGUE_START).days // 7 + 1))
    start += dt.timedelta(weeks=1) if start < now + 4 * _DAY else dt.timedelta()
    started = start - dt.timedelta(weeks=2)
    venue = make_user(db, "sandbox", Role.SVL, first_name="Sandbox", last_name="Courts")
    gone = make_user(db, "oldgym", Role.SVL, first_name="Old", last_name="Gym")
    captain = make_user(db, "casey", first_name="Casey", email="casey.captain@example.com")
    sid = add_league_session(db, venue, "Fall", now - 10 * _DAY, now + 80 * _DAY)
    open_ = add_league(db, venue, sid, start=start, max_teams=8)
    add_teams(db, open_, 2, prefix="Open", captain_id=captain.id)
    add_teams(db, open_, 1, prefix="Waiting", waitlist=True)
    running = add_league(db, venue, sid, start=started, stage=LeagueStage.ACTIVE, max_teams=6, skill_level=SkillLevel.B,
                         registration_deadline=started + dt.timedelta(weeks=3))  # late registration: 2 places left
    t1, t2, t3, t4 = add_teams(db, running, 4, prefix="Spikers", captain_id=captain.id)
    add_game(db, running.id, t1, t2, running.start_at, court="Court 1", team1_game1_score=21, team2_game1_score=15,
             team1_game2_score=21, team2_game2_score=18)  # fmt: skip
    add_game(db, running.id, t3, t4, running.start_at, court="Court 2", team1_game1_score=10, team2_game1_score=21,
             team1_game2_score=12, team2_game2_score=21)  # fmt: skip
    add_game(db, running.id, t1, t3, running.start_at + 7 * _DAY)
    hidden = {
        "draft": add_league(db, venue, sid, start=now + 5 * _DAY, active=False).id,
        "ended": add_league(db, venue, sid, start=now - 20 * _DAY, stage=LeagueStage.INACTIVE).id,
        "archived": add_league(db, venue, sid, start=now + 6 * _DAY, archived_at=now).id,
    }
    old_sid = add_league_session(db, venue, "Spring", now - 200 * _DAY, now - 100 * _DAY)
    hidden["past session"] = add_league(db, venue, old_sid, start=now - 190 * _DAY).id
    archived_sid = add_league_session(db, venue, "Winter", now - 5 * _DAY, now + 60 * _DAY)
    hidden["archived session"] = add_league(db, venue, archived_sid, start=now + 7 * _DAY).id
    db.get(LeagueSession, archived_sid).archived_at = now
    gone_sid = add_league_session(db, gone, "Fall", now - 10 * _DAY, now + 80 * _DAY)
    hidden["archived venue"] = add_league(db, gone, gone_sid, start=now + 3 * _DAY).id
    db.get(User, gone.id).archived_at = now
    db.commit()
    return {"open": open_.id, "running": running.id, "hidden": hidden, "teams": (t1, t2, t3, t4)}


def snapshot(db) -> tuple:
    """Everything a refused call must leave alone."""
    reqs = [(r.id, r.status, r.recipient_id, r.team, r.completed) for r in rows(db, SubRequest)]
    users = [
        (u.id, u.username, u.email, u.first_name, u.last_name, tuple(u.roles), u.sub, u.active, u.password_hash)
        for u in rows(db, User)
    ]
    mails = [(m.to_addr, m.kind) for m in rows(db, OutboxMessage)]
    return reqs, users, mails


def demo_actors(db: Session, *usernames: str) -> dict[str, Actor]:
    """Seed the demo data (``make run``'s), commit, and return the named demo people as actors, by username."""
    from volley_app import demo

    demo.seed(db)
    db.commit()
    found = db.exec(select(User).where(User.username.in_(usernames))).all()
    return {u.username: actor_of(u) for u in found}
