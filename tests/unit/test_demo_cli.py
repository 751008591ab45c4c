"""The demo seed and the operator commands (python -m volley_app.cli ...)."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import count, rows
from volley_app import cli, demo
from volley_app.models import (
    Game,
    League,
    LeagueSession,
    LoginSession,
    Payment,
    Role,
    SessionStatus,
    SubRequest,
    SubStatus,
    Team,
    User,
    utcnow,
)
from volley_app.services.accounts import auth, passwords
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import results, sessions

# The demo's people: the ones to log in as, the full rosters' players, the subs on no roster.
USERS = len(demo.DEMO_PEOPLE) + len(demo.ROSTER_PLAYERS) + len(demo.SUB_POOL)


@pytest.fixture
def seeded(db):
    now = utcnow()
    counts = demo.seed(db, now=now)
    db.commit()
    return db, counts, now


# --- the seed --------------------------------------------------------------------


def test_seed_reports_what_it_added(seeded):
    db, counts, _now = seeded
    assert counts == {"users": USERS, "sessions": 4, "leagues": 7, "teams": 24, "sub_requests": 8}
    assert count(db, User) == USERS
    assert count(db, LeagueSession) == 4
    assert count(db, League) == 7
    assert count(db, Team) == 24
    assert count(db, SubRequest) == 8


def test_seed_creates_an_admin_three_svls_and_players_some_of_them_subs(seeded):
    db, _counts, _now = seeded
    people = {u.username: u for u in rows(db, User)}
    by_role = {role: sorted(n for n, u in people.items() if u.roles == [role]) for role in ("Admin", "SVL", "Player")}
    assert by_role["Admin"] == ["admin"]
    assert by_role["SVL"] == ["bluegrassbeach", "lexsports", "windycity"]
    assert len(by_role["Player"]) == USERS - 4
    assert sum(len(v) for v in by_role.values()) == USERS  # nobody has a mixed or empty role list
    subs = sorted(n for n, u in people.items() if u.sub)
    assert subs == ["ben", "carmen", "erin", "gina", "hana", "quinn", "rae", "skye"]
    assert set(subs) <= set(by_role["Player"])
    for name in subs:
        u = people[name]
        assert u.hitter_skill_level and u.passer_skill_level and u.setter_skill_level
    assert all(u.email == f"{u.username}@volley.example" and u.active for u in people.values())
    assert all(people[n].address and people[n].city for n in by_role["SVL"])


def test_seed_sessions_leagues_and_teams_hang_together(seeded):
    db, _counts, now = seeded
    people = {u.id: u for u in rows(db, User)}
    svl_ids = {uid for uid, u in people.items() if "SVL" in u.roles}
    seeded_sessions = rows(db, LeagueSession)
    assert {s.svl_id for s in seeded_sessions} == svl_ids
    # Each status already matches its dates, so showing a list changes nothing.
    for s in seeded_sessions:
        assert sessions.status_at(s, now) == s.status, s.name
    assert sorted(s.status for s in seeded_sessions) == sorted(
        [SessionStatus.ACTIVE, SessionStatus.ACTIVE, SessionStatus.REGISTRATION, SessionStatus.REGISTRATION]
    )

    by_session = {s.id: s for s in seeded_sessions}
    leagues = rows(db, League)
    for league in leagues:
        assert league.svl_id == by_session[league.session_id].svl_id
        assert league.start_at.tzinfo is not None

    teams = rows(db, Team)
    waitlisted = [t for t in teams if t.waitlist]
    assert [t.team_name for t in waitlisted] == ["Waiting Game"]
    # The waitlisted team is in a league that is full without it (spec section 4).
    full = next(lg for lg in leagues if lg.id == waitlisted[0].league_id)
    assert sum(1 for t in teams if t.league_id == full.id and not t.waitlist) == full.max_teams
    for league in leagues:
        names = [t.team_name for t in teams if t.league_id == league.id]
        assert len(names) == len(set(names))
    assert all(t.captain_id in people and "Player" in people[t.captain_id].roles for t in teams)


def test_seed_sub_requests(seeded):
    db, _counts, now = seeded
    people = {u.id: u for u in rows(db, User)}
    requests = rows(db, SubRequest)
    assert all("Player" in people[r.requestor_id].roles for r in requests)
    open_to_anyone = [r for r in requests if r.recipient_id is None and r.status == SubStatus.OPEN and not r.completed]
    assert len(open_to_anyone) >= 2
    assert all(r.date > now for r in open_to_anyone)
    targeted = [r for r in requests if r.recipient_id is not None]
    assert targeted and all(people[r.recipient_id].sub for r in targeted)
    assert any(r.status == SubStatus.ACCEPTED for r in requests)
    past = [r for r in requests if r.date < now]
    assert past and all(r.completed for r in past)


@pytest.mark.parametrize(("username", "roles"), demo.DEMO_LOGINS)
def test_every_demo_login_works(seeded, username, roles):
    db, _counts, _now = seeded
    result = auth.login(db, username=username, password=demo.DEMO_PASSWORD)
    db.commit()
    actor = auth.resolve(db, result.token)
    assert actor is not None and actor.username == username
    assert "/".join(actor.roles) == roles


def test_demo_passwords_are_hashed(seeded):
    db, _counts, _now = seeded
    for user in rows(db, User):
        assert user.password_hash != demo.DEMO_PASSWORD
        assert passwords.verify_password(demo.DEMO_PASSWORD, user.password_hash)


def test_seed_twice_is_refused_and_adds_nothing(seeded):
    db, _counts, _now = seeded
    with pytest.raises(Invalid):
        demo.seed(db)
    db.rollback()
    assert count(db, User) == USERS and count(db, LeagueSession) == 4


def test_is_empty(db):
    assert demo.is_empty(db)
    demo.seed(db)
    db.commit()
    assert not demo.is_empty(db)


def test_seed_relative_to_a_given_day(db):
    now = dt.datetime(2026, 9, 1, 16, 0, tzinfo=dt.UTC)
    demo.seed(db, now=now)
    db.commit()
    fall = next(s for s in rows(db, LeagueSession) if s.status == SessionStatus.ACTIVE)
    assert fall.start_at < now < fall.end_at


# --- the commands --------------------------------------------------------------------


def test_seed_demo_if_empty_twice_seeds_once(db, capsys):
    assert cli.main(["seed-demo", "--if-empty"]) == 0
    first = capsys.readouterr().out
    assert f"demo data added: {USERS} users" in first
    assert cli.main(["seed-demo", "--if-empty"]) == 0
    second = capsys.readouterr().out
    assert "skipped" in second
    assert count(db, User) == USERS
    assert count(db, LeagueSession) == 4
    assert count(db, Team) == 24


def test_seed_demo_without_if_empty_on_a_seeded_database_fails_cleanly(db, capsys):
    assert cli.main(["seed-demo"]) == 0
    capsys.readouterr()
    assert cli.main(["seed-demo"]) == 2
    assert "error:" in capsys.readouterr().err
    assert count(db, User) == USERS and count(db, LeagueSession) == 4


def test_seed_demo_if_empty_leaves_a_database_with_users_alone(db, monkeypatch, capsys):
    monkeypatch.setenv("ADMIN_PASSWORD", "Adm1n!pass")
    assert cli.main(["create-admin", "--username", "boss", "--email", "boss@example.com", "--first-name", "Bo"]) == 0
    assert cli.main(["seed-demo", "--if-empty"]) == 0
    assert "skipped" in capsys.readouterr().out
    assert [u.username for u in rows(db, User)] == ["boss"]


def test_create_admin(db, monkeypatch, capsys):
    monkeypatch.setenv("ADMIN_PASSWORD", "Adm1n!pass")
    code = cli.main(
        ["create-admin", "--username", "Boss", "--email", "Boss@Example.com", "--first-name", "Bo", "--state", "oh"]
    )
    assert code == 0
    assert "admin 'boss' created" in capsys.readouterr().out
    [user] = rows(db, User)
    assert (user.username, user.email, user.roles, user.region) == ("boss", "boss@example.com", ["Admin"], "OH")
    assert user.last_name == "Admin"
    result = auth.login(db, username="boss", password="Adm1n!pass")
    db.commit()
    resolved = auth.resolve(db, result.token)
    assert resolved is not None and resolved.status == Role.ADMIN.value


@pytest.mark.parametrize("username", ["ab", "bad name", "x" * 51, "naïve"])
def test_create_admin_with_a_bad_username_fails_with_code_2(db, monkeypatch, capsys, username):
    monkeypatch.setenv("ADMIN_PASSWORD", "Adm1n!pass")
    code = cli.main(["create-admin", "--username", username, "--email", "boss@example.com", "--first-name", "Bo"])
    assert code == 2
    assert "error: Username must be" in capsys.readouterr().err
    assert count(db, User) == 0
    assert count(db, LoginSession) == 0


@pytest.mark.parametrize("password", ["abc", "has space", "p" * 101])
def test_create_admin_with_a_bad_password_fails_with_code_2(db, monkeypatch, capsys, password):
    monkeypatch.setenv("ADMIN_PASSWORD", password)
    code = cli.main(["create-admin", "--username", "boss", "--email", "boss@example.com", "--first-name", "Bo"])
    assert code == 2
    assert "error: Password must be" in capsys.readouterr().err
    assert count(db, User) == 0


def test_create_admin_with_a_taken_username_fails_with_code_2(db, monkeypatch, capsys):
    monkeypatch.setenv("ADMIN_PASSWORD", "Adm1n!pass")
    args = ["create-admin", "--username", "boss", "--email", "boss@example.com", "--first-name", "Bo"]
    assert cli.main(args) == 0
    args[4] = "other@example.com"
    assert cli.main(args) == 2
    assert "error:" in capsys.readouterr().err
    assert count(db, User) == 1


def test_create_admin_reports_every_bad_field(db, monkeypatch, capsys):
    monkeypatch.setenv("ADMIN_PASSWORD", "a")
    code = cli.main(["create-admin", "--username", "b", "--email", "nope", "--first-name", " ", "--state", "ZZ"])
    assert code == 2
    assert capsys.readouterr().err.count("error:") == 5
    assert count(db, User) == 0


def test_demo_logins_lists_every_demo_account(capsys):
    assert cli.main(["demo-logins"]) == 0
    out = capsys.readouterr().out
    assert demo.DEMO_PASSWORD in out
    for username, roles in demo.DEMO_LOGINS:
        assert username in out and roles in out


def test_seed_has_history_to_show(seeded):
    """An archived league with its payments, a withdrawn team whose later games were forfeited, an adjustment."""
    db, _counts, _now = seeded
    (archived,) = [lg for lg in rows(db, League) if lg.archived_at is not None]
    paid = rows(db, Payment, Payment.league_id == archived.id)
    assert len(paid) == 2 and all(p.status == "succeeded" and p.league_name == "Tuesday A Quads" for p in paid)
    (withdrawn,) = [t for t in rows(db, Team) if t.withdrawn_at is not None]
    forfeits = rows(db, Game, Game.forfeit_team_id == withdrawn.id)
    assert forfeits and all(g.start_at > withdrawn.withdrawn_at for g in forfeits)
    table = results.standings(db, auth.resolve(db, auth.login(db, username="admin", password=demo.DEMO_PASSWORD).token),
                              forfeits[0].league_id)["teams"]  # fmt: skip
    assert any(t["adjustment"] for t in table) and any(t["withdrawn"] and t["forfeits"] for t in table)
    # Every game gives one win and one loss; the correction turned one loss into a win (+1 W, -1 L).
    assert sum(t["wins"] for t in table) - sum(t["losses"] for t in table) == 2


def test_the_demo_has_a_finished_season_a_champion_and_a_disputed_score(seeded):
    from volley_app.models import League as LeagueRow
    from volley_app.models import ScoreReport
    from volley_app.services.core.actors import Actor
    from volley_app.services.seasons import playoffs, results, score_reports

    db, _counts, _now = seeded
    lex = next(u for u in rows(db, User) if u.username == "lexsports")
    actor = Actor(user_id=lex.id, username=lex.username, roles=tuple(lex.roles), first_name=lex.first_name)
    friday = next(lg for lg in rows(db, LeagueRow) if lg.court == "Court 4")
    table = results.standings(db, actor, friday.id)["teams"]
    assert [t["team_name"] for t in table[:2]] == ["Kill Shots", "Float Serve"]
    assert table[0]["tiebreak"] == "head-to-head" and table[0]["win_pct"] == table[1]["win_pct"]
    assert table[1]["set_pct"] > table[0]["set_pct"]  # the sets alone would have put Float Serve first
    assert playoffs.bracket(db, actor, friday.id)["champion"] == "Float Serve"
    [waiting] = rows(db, ScoreReport)
    assert waiting.status == "disputed"
    monday = db.get(LeagueRow, db.get(Game, waiting.game_id).league_id)
    assert score_reports.disputed(db, actor, monday.id)[0]["note"].startswith("We won")


def test_seed_has_a_venue_in_another_time_zone_with_its_games_and_an_open_request(seeded):
    db, _counts, now = seeded
    chicago = db.exec(select(User).where(User.username == "windycity")).one()
    assert chicago.time_zone == "America/Chicago" and "SVL" in chicago.roles
    assert {u.time_zone for u in rows(db, User) if u.username != "windycity"} == {"America/New_York"}
    league = db.exec(select(League).where(League.svl_id == chicago.id)).one()
    games = db.exec(select(Game).where(Game.league_id == league.id)).all()
    # two matches a week, side by side on two courts
    assert games and {timefmt.clock(g.start_at, chicago.time_zone, labelled=True) for g in games} == {"6:30 PM CT"}
    assert {g.court for g in games} == {"Court A", "Court B"}
    request = db.exec(select(SubRequest).where(SubRequest.svl == "Windy City Volleyball")).one()
    assert request.status == SubStatus.OPEN and request.date > now
    assert timefmt.clock(request.date, chicago.time_zone, labelled=True) == "6:30 PM CT"


@pytest.mark.parametrize("days_on", range(7))
def test_the_demo_has_three_female_setters_for_a_thursday_night(db, days_on):
    """The README's walk-through: alice asks for 1 female setter, B or better, next Thursday at 7 pm, and is offered
    at least three subs to invite in order, whatever the day the demo was seeded."""
    from volley_app.services.subs import matching, request_changes

    now = utcnow() + dt.timedelta(days=days_on)
    demo.seed(db, now=now)
    db.commit()
    alice = auth.actor_of(rows(db, User, User.username == "alice")[0])
    day = timefmt.local(now).date() + dt.timedelta(days=1)
    thursday = day + dt.timedelta(days=(3 - day.weekday()) % 7)
    rid = request_changes.create(db, alice, now=now, team="Net Ninjas", date=f"{thursday.isoformat()}T19:00",
                              svl="Lexington Sportsplex", skill_level="B", format="6s", players_needed="1",
                              position_needed="Setter", gender_needed="Female", min_rating="B")  # fmt: skip
    found = matching.suggestions(db, alice, rid, now=now).rows
    assert len(found) >= 3, found
    assert all(r["reason"].startswith(("Setter B", "Setter A")) and "free Thursdays" in r["reason"] for r in found)


# --- links in the demo's mail ------------------------------------------------------


def test_every_link_the_demo_seed_mails_is_on_the_public_url(db, monkeypatch):
    from tests.links import foreign, outbox_links
    from volley_app.models import OutboxMessage
    from volley_app.settings import get_settings

    monkeypatch.setenv("PUBLIC_URL", "http://localhost:4321")
    monkeypatch.delenv("BACKEND_URL", raising=False)
    get_settings.cache_clear()
    try:
        demo.seed(db, now=utcnow())
        db.flush()
        rows = db.exec(select(OutboxMessage)).all()
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    found = [link for row in rows for link in outbox_links(row)]
    assert rows and any("/api/invite-answers/" in link for link in found)  # the invitation's Accept and Decline
    assert foreign(found, "http://localhost:4321") == []


def test_make_run_sets_the_public_url_before_the_demo_is_seeded():
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[2] / "scripts" / "run.sh").read_text().splitlines()
    public_url = next(i for i, line in enumerate(lines) if line.startswith("export PUBLIC_URL="))
    seeding = next(i for i, line in enumerate(lines) if "seed-demo" in line)
    assert public_url < seeding


def test_the_demo_has_full_rosters_a_waiver_answers_and_a_team_two_short(seeded):
    from volley_app.models import Team
    from volley_app.services.core.actors import Actor
    from volley_app.services.operations import game_requests
    from volley_app.services.subs import matching
    from volley_app.services.teams import rsvps, waivers

    db, _counts, now = seeded
    alice = rows(db, User, User.username == "alice")[0]
    actor = Actor(user_id=alice.id, username="alice", roles=tuple(alice.roles), first_name="Alice")
    ninjas = rows(db, Team, Team.team_name == "Net Ninjas")[0]
    monday = rows(db, Team, Team.league_id == ninjas.league_id)
    assert all(len(rsvps.current_members(db, t.id)) >= 6 for t in monday)
    summary = waivers.team_summary(db, ninjas.id)
    assert summary["version"] == 1 and summary["signed"] == 2 and summary["unsigned"]
    shown = rsvps.team_games(db, actor, team_id=ninjas.id, now=now)
    coming = [g for g in shown.games.rows if not g["past"]]
    assert shown.runs and coming[0]["short"] and coming[0]["lacking"] == 2
    assert (coming[0]["out_count"], coming[0]["maybe_count"], coming[0]["none_count"]) == (1, 1, 1)
    rid = game_requests.find_subs(db, actor, game_id=coming[0]["game_id"], team_id=ninjas.id, now=now)
    assert len(matching.suggestions(db, actor, rid, now=now).rows) >= 2  # subs to invite in order
