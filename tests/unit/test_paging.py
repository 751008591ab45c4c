"""Lists by the page: boundaries, order, search and filters of each list, on a real database session."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import sqlalchemy as sa

from tests.factories import actor_of, make_user
from volley_app.models import Gender, Rating, Role, SkillLevel, SubFormat, SubRequest, User, utcnow
from volley_app.services.accounts import accounts
from volley_app.services.core import paging
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.operations import clock_sweep, home
from volley_app.services.subs import request_lists, subs_list
from volley_app.services.teams import teams

DAY = dt.timedelta(days=1)


@pytest.fixture
def people(db):
    made = {
        "alice": make_user(db, "alice"),
        "ben": make_user(db, "ben"),
        "svl": make_user(db, "svl", Role.SVL),
        "root": make_user(db, "root", Role.ADMIN),
    }
    return {k: actor_of(v) for k, v in made.items()}


def _requests(db, requestor, n: int, *, start: dt.datetime | None = None, **over) -> list[int]:
    """``n`` open requests by ``requestor``, one a day from ``start`` (three days from now)."""
    start = start or (utcnow() + 3 * DAY).replace(microsecond=0)
    made = [
        SubRequest(requestor_id=requestor.user_id, svl=over.get("svl", "Sportsplex"), team=over.get("team", f"Team {i:03}"),
                   date=start + i * DAY, skill_level=SkillLevel.C, format=SubFormat.SIXES)
        for i in range(n)
    ]  # fmt: skip
    db.add_all(made)
    db.commit()
    return [r.id for r in made]


def _ids(page: paging.Page) -> list[int]:
    return [r["id"] if isinstance(r, dict) else r.id for r in page.rows]


def _all_pages(fetch) -> list[list[int]]:
    pages, mark = [], ""
    while True:
        page = fetch(mark)
        pages.append(_ids(page))
        if not page.next:
            return pages
        mark = page.next


# --- open requests ---------------------------------------------------------------------------------------------


def test_open_requests_empty_list_is_one_empty_page(db, people):
    page = request_lists.list_open(db, people["ben"])
    assert (page.rows, page.total, page.next, page.previous) == ([], 0, "", "")


def test_open_requests_one_page(db, people):
    ids = _requests(db, people["alice"], 3)
    page = request_lists.list_open(db, people["ben"])
    assert _ids(page) == ids and page.total == 3 and page.next == "" and page.previous == ""


def test_open_requests_exact_multiple_of_the_page_size(db, people):
    ids = _requests(db, people["alice"], 2 * paging.PAGE_SIZE)
    pages = _all_pages(lambda mark: request_lists.list_open(db, people["ben"], bookmark=mark))
    assert pages == [ids[:25], ids[25:]]  # no empty third page
    second = request_lists.list_open(db, people["ben"], bookmark=request_lists.list_open(db, people["ben"]).next)
    assert second.total == 50 and second.next == ""
    back = request_lists.list_open(db, people["ben"], bookmark=second.previous)
    assert _ids(back) == ids[:25] and back.previous == ""


def test_open_requests_last_page_holds_the_rest(db, people):
    ids = _requests(db, people["alice"], 60)
    pages = _all_pages(lambda mark: request_lists.list_open(db, people["ben"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 25, 10]
    assert sum(pages, []) == ids


def test_a_row_deleted_between_pages_neither_repeats_nor_skips_one(db, people):
    ids = _requests(db, people["alice"], 30)
    first = request_lists.list_open(db, people["ben"])
    assert _ids(first) == ids[:25]
    db.execute(sa.delete(SubRequest).where(SubRequest.id.in_([ids[3], ids[25]])))
    db.commit()
    second = request_lists.list_open(db, people["ben"], bookmark=first.next)
    assert _ids(second) == ids[26:]
    assert second.total == 28


def test_a_page_size_is_kept_between_one_and_fifty(db, people):
    _requests(db, people["alice"], 60)
    assert len(request_lists.list_open(db, people["ben"], size=500).rows) == paging.MAX_PAGE_SIZE
    assert len(request_lists.list_open(db, people["ben"], size=-3).rows) == 1
    assert len(request_lists.list_open(db, people["ben"], size="lots").rows) == paging.PAGE_SIZE


@pytest.mark.parametrize("mark", ["zzz", ">i:abc", ">s:x~s:y", ">i:1~i:2", ">dt:2030-01-01 00:00:00~i:1", "<" * 500, 7, None])
def test_a_bookmark_that_does_not_fit_the_list_opens_its_first_page(db, people, mark):
    ids = _requests(db, people["alice"], 30)
    assert _ids(request_lists.list_open(db, people["ben"], bookmark=mark)) == ids[:25]


def test_open_requests_search_team_location_or_requestor(db, people):
    nets = _requests(db, people["alice"], 2, team="Net Ninjas")
    gym = _requests(db, people["ben"], 1, team="Spikers", svl="Downtown Gym", start=utcnow() + 40 * DAY)
    _requests(db, people["alice"], 30, start=utcnow() + 80 * DAY)

    def found(**filters):
        return _ids(request_lists.list_open(db, people["root"], filters=filters))

    assert found(q="ninja") == nets
    assert found(q="DOWNTOWN") == gym
    assert found(q="ben") == gym  # the requestor's username
    assert found(venue="downtown") == gym
    assert found(q="100%") == []  # a wildcard matches itself only
    assert request_lists.list_open(db, people["root"], filters={"q": "team"}).total == 30


def test_open_requests_by_date_range(db, people):
    start = dt.datetime(2031, 3, 1, 23, 0, tzinfo=dt.UTC)  # 6 or 7 PM in Lexington
    ids = _requests(db, people["alice"], 10, start=start)
    page = request_lists.list_open(db, people["ben"], filters={"date_from": "2031-03-03", "date_to": "2031-03-05"})
    assert _ids(page) == ids[2:5]
    assert _ids(request_lists.list_open(db, people["ben"], filters={"date_from": "2031-03-09"})) == ids[8:]
    with pytest.raises(Invalid) as exc:
        request_lists.list_open(db, people["ben"], filters={"date_from": "March"})
    assert exc.value.errors == {"date_from": "From must be a date"}
    with pytest.raises(Invalid):
        request_lists.list_open(db, people["ben"], filters={"date_from": "2031-03-05", "date_to": "2031-03-01"})


def test_past_requests_leave_the_list_when_shown_and_are_saved_completed_by_the_sweep(db, people):
    past = _requests(db, people["alice"], 5, start=utcnow() - 10 * DAY)
    future = _requests(db, people["alice"], 2)
    statements: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)

    engine = db.get_bind()
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        page = request_lists.list_open(db, people["ben"])
        assert _ids(page) == future
        assert [s for s in statements if not s.lstrip().upper().startswith("SELECT")] == []  # a read writes nothing
        assert len(statements) <= 3  # the page (names by join), the count, the venues' time zones
        statements.clear()
        clock_sweep.save_reached(db)
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    assert sum(s.lstrip().upper().startswith("UPDATE SUB_REQUESTS") for s in statements) == 1  # one update for all
    db.expire_all()
    assert all(db.get(SubRequest, rid).completed for rid in past)
    assert not any(db.get(SubRequest, rid).completed for rid in future)


def test_my_requests_page_and_search(db, people):
    mine = _requests(db, people["alice"], 30)
    _requests(db, people["ben"], 5)
    first = request_lists.notifications(db, people["alice"])
    second = request_lists.notifications(db, people["alice"], bookmark=first.next)
    assert _ids(first) + _ids(second) == mine and first.total == 30
    assert _ids(request_lists.notifications(db, people["alice"], filters={"q": "team 029"})) == mine[-1:]
    with pytest.raises(Forbidden):
        request_lists.notifications(db, people["svl"])


# --- subs -------------------------------------------------------------------------------------------------------


def _subs(db, n: int, **over) -> list[int]:
    made = [
        User(username=f"sub{i:03}{over.get('tag', '')}", password_hash="x", email=f"sub{i:03}{over.get('tag', '')}@example.com",
             first_name=over.get("first_name", f"Sub{i:03}"), last_name=over.get("last_name", "Player"), sub=True,
             gender=over.get("gender", Gender.FEMALE), hitter_skill_level=over.get("hitter"),
             setter_skill_level=over.get("setter"))
        for i in range(n)
    ]  # fmt: skip
    db.add_all(made)
    db.commit()
    return [u.id for u in made]


def test_subs_page_by_name(db, people):
    ids = _subs(db, 55)
    pages = _all_pages(lambda mark: subs_list.list_subs(db, people["alice"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 25, 5] and sum(pages, []) == ids
    assert not any("email" in r for r in subs_list.list_subs(db, people["alice"]).rows)


def test_subs_empty(db, people):
    page = subs_list.list_subs(db, people["alice"])
    assert (page.rows, page.total, page.next) == ([], 0, "")


def test_subs_search_by_name_and_filter_by_gender_position_and_rating(db, people):
    _subs(db, 30)
    kim = _subs(db, 1, tag="k", first_name="Kim", last_name="Lee", gender=Gender.MALE, hitter=Rating.A)
    sam = _subs(db, 1, tag="s", first_name="Sam", last_name="Kimball", setter=Rating.A)

    def found(**filters):
        return _ids(subs_list.list_subs(db, people["alice"], filters=filters))

    assert found(q="kim") == kim + sam
    assert found(q="Kim Lee") == kim
    assert found(gender="Male") == kim
    assert found(rating="A") == kim + sam
    assert found(position="setter", rating="A") == sam
    assert found(position="setter") == sam
    assert found(position="passer", rating="A") == []
    assert len(found(gender="Robot", rating="Z", position="libero")) == 25  # an unknown filter is no filter


# --- users ------------------------------------------------------------------------------------------------------


def test_users_page_by_username_and_search(db, people):
    _subs(db, 40)
    first = accounts.list_users(db, people["root"])
    assert first.total == 44 and len(first.rows) == 25
    rest = accounts.list_users(db, people["root"], bookmark=first.next)
    names = [r["username"] for r in first.rows + rest.rows]
    assert names == sorted(names) and len(names) == 44 and rest.next == ""
    assert [r["username"] for r in accounts.list_users(db, people["root"], filters={"q": "ALICE@"}).rows] == ["alice"]
    assert [r["username"] for r in accounts.list_users(db, people["root"], filters={"q": "sub01"}).rows] == [
        f"sub01{i}" for i in range(10)
    ]
    with pytest.raises(Forbidden):
        accounts.list_users(db, people["alice"])


# --- home ------------------------------------------------------------------------------------------------------


def test_home_league_lists_show_the_nearest_few(db, people):
    from tests.factories import add_league, add_league_session

    svl = db.get(User, people["svl"].user_id)
    now = utcnow()
    sid = add_league_session(db, svl, "Long", now - 400 * DAY, now + 400 * DAY)
    started = [add_league(db, svl, sid, start=now - (i + 1) * DAY).id for i in range(15)]
    upcoming = [add_league(db, svl, sid, start=now + (i + 1) * DAY).id for i in range(15)]
    lists = home.home_leagues(db, people["alice"], now=now)
    assert [r["id"] for r in lists["registration"]] == upcoming[: home.HOME_LEAGUES]
    assert [r["id"] for r in lists["current"]] == list(reversed(started[: home.HOME_LEAGUES]))
    assert len(lists["all"]) == 2 * home.HOME_LEAGUES


# --- every list query reads by an index ---------------------------------------------------------------------------


def _statements(db, fn, engine=None) -> list[tuple[str, object]]:
    """The SELECTs ``fn`` sends through ``db``'s engine (or ``engine``: the app's, for work in sessions of its own)."""
    seen: list[tuple[str, object]] = []

    def record(_conn, _cursor, statement, parameters, *_args):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    engine = engine or db.get_bind()
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        fn()
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return seen


def _full_scans(db, statement: str, parameters, table: str) -> list[str]:
    """The plan's steps that read every row of ``table`` (none when an index serves the query)."""
    conn = db.connection()
    cursor = conn.connection.dbapi_connection.cursor()
    if conn.dialect.name == "sqlite":
        cursor.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
        steps = [row[-1] for row in cursor.fetchall()]
        return [s for s in steps if s.startswith(f"SCAN {table}") and "INDEX" not in s]
    cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table would be read whole anyway
    cursor.execute(f"EXPLAIN {statement}", parameters)
    steps = [row[0] for row in cursor.fetchall()]
    return [s for s in steps if f"Seq Scan on {table}" in s]


@pytest.mark.parametrize(
    ("table", "listing"),
    [
        ("sub_requests", lambda db, p, mark: request_lists.list_open(db, p["ben"], bookmark=mark)),
        ("users", lambda db, p, mark: subs_list.list_subs(db, p["alice"], bookmark=mark)),
        ("users", lambda db, p, mark: accounts.list_users(db, p["root"], bookmark=mark)),
    ],
    ids=["open requests", "subs", "users"],
)
def test_each_list_page_reads_by_an_index(db, people, table, listing):
    _requests(db, people["alice"], 30)
    _subs(db, 30)
    second_page = listing(db, people, "").next
    for statement, parameters in _statements(db, lambda: listing(db, people, second_page)):
        if f"FROM {table}" in statement and "count(" not in statement:
            assert _full_scans(db, statement, parameters, table) == [], statement


def _sorts(db, statement: str, parameters) -> list[str]:
    """The plan's steps that sort the rows: none when an index gives the list's order, so that reading a page
    stops at its last row whatever the table's size (a sort reads every row the filter lets through first)."""
    conn = db.connection()
    cursor = conn.connection.dbapi_connection.cursor()
    if conn.dialect.name == "sqlite":
        cursor.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
        return [row[-1] for row in cursor.fetchall() if "TEMP B-TREE FOR ORDER BY" in row[-1]]
    cursor.execute("SET LOCAL enable_seqscan = off")  # small test tables: ask for the plan a large table gets
    cursor.execute("SET LOCAL enable_sort = off")  # a sort that stays in the plan has no index to replace it
    cursor.execute(f"EXPLAIN {statement}", parameters)
    # (an incremental sort orders rows an index already gives in order of a first key: it stops with the page)
    return [row[0] for row in cursor.fetchall() if re.match(r"\s*(->\s*)?Sort\s+\(", row[0])]


@pytest.mark.parametrize(
    "listing",
    [
        lambda db, p, mark: request_lists.list_open(db, p["ben"], bookmark=mark),
        lambda db, p, mark: accounts.list_users(db, p["root"], bookmark=mark),
        lambda db, p, mark: accounts.list_users(db, p["root"], bookmark=mark, sort="name"),
        lambda db, p, mark: teams.teams_page(db, p["root"], bookmark=mark),
        lambda db, p, mark: teams.teams_page(db, p["root"], waitlist=True, bookmark=mark),
    ],
    ids=["open requests", "users", "users by name", "teams", "waitlist"],
)
def test_each_list_page_comes_in_order_from_an_index(db, people, listing):
    from tests.factories import add_league, add_league_session, add_teams

    _requests(db, people["alice"], 30)
    _subs(db, 30)
    svl = db.get(User, people["svl"].user_id)
    league = add_league(db, svl, add_league_session(db, svl, "Long", utcnow() - 40 * DAY, utcnow() + 400 * DAY))
    add_teams(db, league, 30)
    add_teams(db, league, 30, prefix="W", waitlist=True)
    second_page = listing(db, people, "").next
    assert second_page
    pages = [s for s in _statements(db, lambda: listing(db, people, second_page)) if "LIMIT" in s[0].upper()]
    assert pages
    for statement, parameters in pages:
        assert _sorts(db, statement, parameters) == [], statement


def test_a_sub_requests_venue_is_found_by_the_name_index(db, people):
    from volley_app.services.accounts import venues

    svl = db.get(User, people["svl"].user_id)
    svl.first_name, svl.last_name, svl.time_zone = "Windy City", "Volleyball", "America/Chicago"
    db.commit()
    _subs(db, 30)
    found = _statements(db, lambda: venues.zones_by_name(db, ["windy city volleyball", "Windy City", "Nowhere"]))
    assert venues.zones_by_name(db, ["windy city volleyball", "Windy City", "Nowhere"]) == {
        "windy city volleyball": "America/Chicago", "windy city": "America/Chicago"}
    (statement, parameters), = found
    conn = db.connection()
    cursor = conn.connection.dbapi_connection.cursor()
    if conn.dialect.name == "sqlite":
        cursor.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
    else:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {statement}", parameters)
    plan = " ".join(str(row[-1] if conn.dialect.name == "sqlite" else row[0]) for row in cursor.fetchall())
    assert "ix_users_lower_first_name" in plan, plan


# --- leagues ----------------------------------------------------------------------------------------------------


def test_leagues_page_by_start_and_filter_by_day_format_and_skill(db, people):
    from tests.factories import add_league, add_league_session
    from volley_app.models import Day, LeagueFormat
    from volley_app.services.seasons import leagues

    svl = db.get(User, people["svl"].user_id)
    now = utcnow()
    sid = add_league_session(db, svl, "Winter Season", now - 40 * DAY, now + 400 * DAY)
    made = [add_league(db, svl, sid, start=now + (i + 1) * DAY, day=list(Day)[i % 7]).id for i in range(30)]
    quads = add_league(db, svl, sid, start=now + 90 * DAY, format=LeagueFormat.QUADS, skill_level=SkillLevel.A).id
    add_league(db, svl, sid, start=now + 95 * DAY, active=False)
    pages = _all_pages(lambda mark: leagues.leagues_page(db, people["alice"], bookmark=mark))
    assert sum(pages, []) == [*made, quads] and [len(p) for p in pages] == [25, 6]
    assert _ids(leagues.leagues_page(db, people["alice"], filters={"day": "Tuesday"})) == made[1::7]
    assert _ids(leagues.leagues_page(db, people["alice"], filters={"format": "quads", "skill": "A"})) == [quads]
    assert _ids(leagues.leagues_page(db, people["alice"], filters={"q": "winter", "day": "Monday"})) == [*made[0::7], quads]
    assert leagues.leagues_page(db, people["alice"], filters={"q": "summer"}).rows == []
    assert leagues.leagues_page(db, people["alice"]).rows[0]["name"].startswith("Monday C")


def test_the_leagues_search_finds_a_league_by_its_own_name(db, people):
    from tests.factories import add_league, add_league_session
    from volley_app.models import Day, LeagueFormat
    from volley_app.services.seasons import leagues

    svl = db.get(User, people["svl"].user_id)
    now = utcnow()
    sid = add_league_session(db, svl, "Winter Season", now - 40 * DAY, now + 400 * DAY)
    monday = add_league(db, svl, sid, start=now + DAY).id  # Monday C 6s
    friday = add_league(db, svl, sid, start=now + 2 * DAY, day=Day.FRIDAY, format=LeagueFormat.QUADS,
                        skill_level=SkillLevel.A).id  # fmt: skip

    def found(q: str) -> list[int]:
        return _ids(leagues.leagues_page(db, people["alice"], filters={"q": q}))

    assert found("Friday") == [friday]
    assert found("Monday C 6s") == [monday]
    assert found("monday c 6S") == [monday]
    assert found("A Quads") == [friday]
    assert found("Sunday") == []


# --- admin lists: inquiries, newsletter subscribers ---------------------------------------------------------------


def test_inquiries_of_every_form_by_the_page_newest_first(db, people):
    from volley_app.models import ContactInquiry, HostInquiry
    from volley_app.services.mail import inquiries

    start = utcnow() - 100 * DAY
    db.add_all(ContactInquiry(email=f"c{i:02}@example.com", name="C", body="Hi", created_at=start + 2 * i * DAY)
               for i in range(20))  # fmt: skip
    db.add_all(HostInquiry(email=f"h{i:02}@example.com", svl_name="Gym", phone="555", address="1 St", city="Lex",
                           region="KY", zip="40502", created_at=start + (2 * i + 1) * DAY) for i in range(15))  # fmt: skip
    db.commit()
    pages = _all_pages(lambda mark: inquiries.inquiries_page(db, people["root"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 10]
    first = inquiries.inquiries_page(db, people["root"])
    assert first.total == 35 and [r["kind"] for r in first.rows[:3]] == ["Contact", "Contact", "Contact"]
    assert first.rows[5]["details"]["Email"] == "h14@example.com"
    dates = [r["created_at"] for r in first.rows]
    assert dates == sorted(dates, reverse=True)
    assert inquiries.inquiries_page(db, people["root"], filters={"kind": "host"}).total == 15
    assert [r["id"] for r in inquiries.inquiries_page(db, people["root"], filters={"q": "h03@"}).rows] != []
    assert inquiries.inquiries_page(db, people["root"], filters={"q": "h03@", "kind": "contact"}).rows == []
    with pytest.raises(Forbidden):
        inquiries.inquiries_page(db, people["alice"])


def test_newsletter_subscribers_by_the_page_newest_first(db, people):
    from volley_app.models import NewsletterSubscriber
    from volley_app.services.mail import newsletter

    start = utcnow() - 100 * DAY
    db.add_all(NewsletterSubscriber(email=f"fan{i:02}@example.com", created_at=start + i * DAY) for i in range(30))
    db.commit()
    pages = _all_pages(lambda mark: newsletter.subscribers_page(db, people["root"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 5]
    first = newsletter.subscribers_page(db, people["root"])
    assert first.rows[0]["email"] == "fan29@example.com" and first.total == 30
    assert [r["email"] for r in newsletter.subscribers_page(db, people["root"], filters={"q": "FAN07"}).rows] == [
        "fan07@example.com"
    ]
    assert newsletter.subscriber_total(db, people["root"]) == 30
    with pytest.raises(Forbidden):
        newsletter.subscribers_page(db, people["alice"])


# --- teams and the waitlist ----------------------------------------------------------------------------------------


@pytest.fixture
def leagues_of_svl(db, people):
    from tests.factories import add_league, add_league_session

    svl = db.get(User, people["svl"].user_id)
    now = utcnow()
    sid = add_league_session(db, svl, "Spring", now + DAY, now + 200 * DAY)
    return [add_league(db, svl, sid, start=now + (i + 2) * DAY).id for i in range(2)]


def _teams(db, league_id: int, n: int, *, prefix: str = "Team", captain: int | None = None, waitlist: bool = False):
    from volley_app.models import Team

    made = [Team(league_id=league_id, team_name=f"{prefix} {i:03}", captain_id=captain, waitlist=waitlist)
            for i in range(n)]  # fmt: skip
    db.add_all(made)
    db.commit()
    return [t.id for t in made]


def test_teams_empty_one_page_and_the_boundaries(db, people, leagues_of_svl):
    from volley_app.services.teams import teams

    first, second = leagues_of_svl
    assert teams.teams_page(db, people["svl"]).rows == [] and teams.teams_page(db, people["svl"]).total == 0
    one = _teams(db, first, 3)
    page = teams.teams_page(db, people["svl"])
    assert _ids(page) == one and (page.total, page.next, page.previous) == (3, "", "")
    more = _teams(db, first, 22, prefix="More") + _teams(db, second, 25, prefix="Other")  # 50: an exact multiple
    pages = _all_pages(lambda mark: teams.teams_page(db, people["svl"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 25] and sum(pages, []) == one + more  # by league, then joined
    last = _teams(db, second, 7, prefix="Late")
    pages = _all_pages(lambda mark: teams.teams_page(db, people["svl"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 25, 7] and pages[-1] == last


def test_a_team_gone_between_pages_neither_repeats_nor_skips_one(db, people, leagues_of_svl):
    from volley_app.models import Team
    from volley_app.services.teams import teams

    ids = _teams(db, leagues_of_svl[0], 30)
    first = teams.teams_page(db, people["root"])
    db.execute(sa.delete(Team).where(Team.id.in_([ids[2], ids[25]])))
    db.commit()
    second = teams.teams_page(db, people["root"], bookmark=first.next)
    assert _ids(first) == ids[:25] and _ids(second) == ids[26:] and second.total == 28


def test_teams_search_by_team_or_captain_and_who_sees_which(db, people, leagues_of_svl):
    from volley_app.services.teams import teams

    lid = leagues_of_svl[0]
    _teams(db, lid, 30)
    alices = _teams(db, lid, 2, prefix="Aces", captain=people["alice"].user_id)
    late = _teams(db, leagues_of_svl[1], 3, prefix="Late", waitlist=True)

    def found(who="svl", **kw):
        return _ids(teams.teams_page(db, people[who], **kw))

    assert found(filters={"q": "aces"}) == alices
    assert found(filters={"q": "ALICE"}) == alices  # the captain's username
    assert found(filters={"q": "alice tester"}) == alices  # the captain's full name
    assert found(filters={"q": "%"}) == []
    assert found(waitlist=True) == late
    assert found(waitlist=True, filters={"q": "late 001"}) == late[1:2]
    assert found(league_id=str(leagues_of_svl[1])) == late
    assert found(league_id="nonsense") == []
    assert found("alice") == alices  # a player sees the teams they captain
    assert found("ben") == []
    assert teams.teams_page(db, people["root"]).total == 35


# --- sessions ------------------------------------------------------------------------------------------------------


def test_sessions_by_start_for_an_admin_and_the_svls_own_current_ones(db, people):
    from tests.factories import add_league_session
    from volley_app.services.seasons import sessions

    svl = db.get(User, people["svl"].user_id)
    other = make_user(db, "gym", Role.SVL, first_name="Downtown", last_name="Gym")
    now = utcnow().replace(microsecond=0)
    assert sessions.sessions_page(db, people["svl"]).rows == []
    mine = [add_league_session(db, svl, f"Season {i:02}", now + i * DAY, now + (i + 30) * DAY) for i in range(27)]
    over = add_league_session(db, svl, "Old", now - 90 * DAY, now - 60 * DAY)
    theirs = [add_league_session(db, other, f"Gym {i}", now + (i + 100) * DAY, now + (i + 130) * DAY) for i in range(3)]
    pages = _all_pages(lambda mark: sessions.sessions_page(db, people["svl"], bookmark=mark))
    assert pages == [mine[:25], mine[25:]]
    admin = _all_pages(lambda mark: sessions.sessions_page(db, people["root"], bookmark=mark))
    assert sum(admin, []) == [over, *mine, *theirs] and [len(p) for p in admin] == [25, 6]
    assert _ids(sessions.sessions_page(db, people["root"], filters={"q": "downtown"})) == theirs
    assert _ids(sessions.sessions_page(db, people["root"], filters={"q": "season 2"})) == mine[20:27]
    assert _ids(sessions.sessions_page(db, people["svl"], filters={"q": "gym"})) == []
    with pytest.raises(Forbidden):
        sessions.sessions_page(db, people["alice"])


def test_a_sessions_leagues_by_the_page_for_its_svl_only(db, people):
    from tests.factories import add_league, add_league_session
    from volley_app.models import Day
    from volley_app.services.core.errors import NotFound
    from volley_app.services.seasons import leagues

    svl = db.get(User, people["svl"].user_id)
    now = utcnow()
    sid = add_league_session(db, svl, "Long", now - DAY, now + 400 * DAY)
    made = [add_league(db, svl, sid, start=now + (i + 1) * DAY, day=list(Day)[i % 7], active=i % 2 == 0).id
            for i in range(28)]  # fmt: skip
    pages = _all_pages(lambda mark: leagues.leagues_page(db, people["svl"], session_id=str(sid), bookmark=mark))
    assert sum(pages, []) == made and [len(p) for p in pages] == [25, 3]  # active or not
    assert _ids(leagues.leagues_page(db, people["svl"], session_id=sid, filters={"day": "Wednesday"})) == made[2::7]
    with pytest.raises(Forbidden):
        leagues.leagues_page(db, people["alice"], session_id=sid)
    other = make_user(db, "other", Role.SVL)
    with pytest.raises((Forbidden, NotFound)):
        leagues.leagues_page(db, actor_of(other), session_id=sid)


# --- the sub picker of an invite ----------------------------------------------------------------------------------


def test_invite_choices_page_by_name(db, people):
    ids = _subs(db, 52)
    def choices(mark):
        page = subs_list.invite_choices(db, people["alice"], bookmark=mark)
        return paging.Page(rows=[{"id": int(o["value"])} for o in page.rows], next=page.next)

    pages = _all_pages(choices)
    assert [len(p) for p in pages] == [25, 25, 2] and sum(pages, []) == ids
    assert subs_list.invite_choices(db, people["alice"], filters={"q": "sub051"}).rows == [
        {"value": str(ids[51]), "label": "Sub051 Player"}
    ]


def _svl_lists(db, people, listing_id: str):
    from tests.factories import add_league, add_league_session
    from volley_app.services.seasons import leagues, sessions
    from volley_app.services.teams import teams

    svl = db.get(User, people["svl"].user_id)
    now = utcnow()
    sids = [add_league_session(db, svl, f"S{i:02}", now + i * DAY, now + (i + 60) * DAY) for i in range(30)]
    lg = add_league(db, svl, sids[0], start=now + 2 * DAY)
    for i in range(29):
        add_league(db, svl, sids[0], start=now + (i + 3) * DAY)
    _teams(db, lg.id, 30)
    _subs(db, 30)
    from volley_app.models import EmailAllJob, Payment
    from volley_app.services.mail import email_all
    from volley_app.services.teams import registration

    db.add_all(Payment(league_id=lg.id, team_name=f"P{i}", amount_cents=100, provider="test", status="paid",
                       idempotency_key=f"i-{i}") for i in range(30))  # fmt: skip
    db.add_all(EmailAllJob(subject=f"S{i}", body_text="Hi") for i in range(30))
    db.commit()
    return {
        "teams": lambda mark: teams.teams_page(db, people["root"], bookmark=mark),
        "waitlist": lambda mark: teams.teams_page(db, people["svl"], waitlist=False, bookmark=mark),
        "sessions": lambda mark: sessions.sessions_page(db, people["root"], bookmark=mark),
        "session leagues": lambda mark: leagues.leagues_page(db, people["svl"], session_id=sids[0], bookmark=mark),
        "sub picker": lambda mark: subs_list.invite_choices(db, people["alice"], bookmark=mark),
        "payments": lambda mark: registration.payments_page(db, people["svl"], league_id=lg.id, bookmark=mark),
        "sent emails": lambda mark: email_all.jobs_page(db, people["root"], bookmark=mark),
    }[listing_id]


@pytest.mark.parametrize(
    ("table", "listing_id"),
    [("teams", "teams"), ("teams", "waitlist"), ("league_sessions", "sessions"), ("leagues", "session leagues"),
     ("users", "sub picker"), ("payments", "payments"), ("email_all_jobs", "sent emails")],  # fmt: skip
)
def test_each_operator_list_page_reads_by_an_index(db, people, table, listing_id):
    listing = _svl_lists(db, people, listing_id)
    second_page = listing("").next
    assert second_page
    for statement, parameters in _statements(db, lambda: listing(second_page)):
        if f"FROM {table}" in statement and "count(" not in statement:
            assert _full_scans(db, statement, parameters, table) == [], statement


# --- the archive ---------------------------------------------------------------------------------------------------


def test_the_archive_pages_every_kind_newest_first_and_by_kind_and_name(db, people):
    from tests.factories import add_league, add_league_session
    from volley_app.models import League, LeagueSession
    from volley_app.services.operations import archive

    assert archive.archived_page(db, people["root"]).rows == []
    svl = db.get(User, people["svl"].user_id)
    start = utcnow() - 200 * DAY
    sids = [add_league_session(db, svl, f"Old {i:02}", start, start + DAY) for i in range(20)]
    lids = [add_league(db, svl, sids[0], court=f"Court {i}").id for i in range(20)]
    reqs = _requests(db, people["alice"], 10, team="Gone Team")
    users = _subs(db, 5, tag="x")
    stamp = iter(start + i * dt.timedelta(hours=1) for i in range(1000))
    for model, ids in ((LeagueSession, sids), (League, lids), (SubRequest, reqs), (User, users)):
        for rid in ids:
            db.get(model, rid).archived_at = next(stamp)
    db.commit()
    pages = _all_pages(lambda mark: archive.archived_page(db, people["root"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 25, 5]
    assert sum(pages, []) == list(reversed([*sids, *lids, *reqs, *users]))  # newest first
    first = archive.archived_page(db, people["root"])
    assert first.total == 55 and first.rows[0]["kind"] == "user" and first.rows[-1]["kind"] == "league"
    by_kind = _all_pages(lambda mark: archive.archived_page(db, people["root"], filters={"kind": "session"}, bookmark=mark))
    assert by_kind == [list(reversed(sids))]
    assert _ids(archive.archived_page(db, people["root"], filters={"q": "court 1"})) == list(reversed(lids[10:20])) + [lids[1]]
    assert _ids(archive.archived_page(db, people["root"], filters={"q": "gone", "kind": "request"})) == list(reversed(reqs))
    assert _ids(archive.archived_page(db, people["root"], filters={"q": "alice", "kind": "request"})) == list(reversed(reqs))
    assert archive.archived_page(db, people["root"], filters={"kind": "nothing"}).total == 55  # an unknown kind: all
    db.get(League, lids[-1]).archived_at = None  # restored between two pages
    db.commit()
    second = archive.archived_page(db, people["root"], bookmark=first.next)
    assert _ids(second) == list(reversed([*sids, *lids[:-1], *reqs, *users]))[24:49]
    with pytest.raises(Forbidden):
        archive.archived_page(db, people["svl"])


def test_the_archive_pages_both_ways_through_kinds_archived_at_the_same_moment(db, people):
    from tests.factories import add_league, add_league_session
    from volley_app.models import League, LeagueSession
    from volley_app.services.operations import archive

    svl = db.get(User, people["svl"].user_id)
    start = utcnow() - 100 * DAY
    made = {
        "session": (LeagueSession, [add_league_session(db, svl, f"Old {i:02}", start, start + DAY) for i in range(14)]),
        "request": (SubRequest, _requests(db, people["alice"], 14, team="Gone Team")),
        "user": (User, _subs(db, 14, tag="t")),
    }
    made["league"] = (League, [add_league(db, svl, made["session"][1][0], court=f"Court {i}").id for i in range(14)])
    moments = [start + i * dt.timedelta(minutes=1) for i in range(4)]  # 56 records archived at 4 moments
    expected = []
    for kind, (model, ids) in made.items():
        for n, rid in enumerate(ids):
            db.get(model, rid).archived_at = moments[n % 4]
            expected.append((moments[n % 4], kind, rid))
    db.commit()
    expected.sort(reverse=True)
    pages, mark = [], ""
    while True:
        page = archive.archived_page(db, people["root"], bookmark=mark, size=10)
        pages.append(page)
        if not page.next:
            break
        mark = page.next
    assert [(r["kind"], r["id"]) for p in pages for r in p.rows] == [(k, rid) for _at, k, rid in expected]
    back, mark = [], pages[-1].previous
    while mark:
        page = archive.archived_page(db, people["root"], bookmark=mark, size=10)
        back.insert(0, [(r["kind"], r["id"]) for r in page.rows])
        mark = page.previous
    assert back == [[(r["kind"], r["id"]) for r in p.rows] for p in pages[:-1]]
    assert archive.archived_page(db, people["root"], bookmark=pages[1].next, size=10).total == 56


def test_the_archive_reads_a_page_of_each_kind_not_every_archived_row(db, people):
    from volley_app.services.operations import archive

    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("rows read per plan node are reported by PostgreSQL's EXPLAIN ANALYZE")
    reqs = _requests(db, people["alice"], 300)
    for n, rid in enumerate(reqs):
        db.get(SubRequest, rid).archived_at = utcnow() - n * dt.timedelta(minutes=1)
    db.commit()
    second = archive.archived_page(db, people["root"]).next
    for statement, parameters in _statements(db, lambda: archive.archived_page(db, people["root"], bookmark=second)):
        if "archived_at IS NOT NULL" in statement and "count(" not in statement:
            cursor = db.connection().connection.dbapi_connection.cursor()
            cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table would be read whole anyway,
            cursor.execute("SET LOCAL enable_bitmapscan = off")  # or through a bitmap, unordered
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {statement}", parameters)
            read = _rows_read(cursor.fetchone()[0][0]["Plan"], "sub_requests")
            assert 0 < read <= paging.PAGE_SIZE + 1, read


def _rows_read(node: dict, table: str) -> int:
    """Rows the plan's scans of ``table`` returned (EXPLAIN ANALYZE's actual rows, over every loop)."""
    own = node["Actual Rows"] * node["Actual Loops"] if node.get("Relation Name") == table else 0
    return own + sum(_rows_read(child, table) for child in node.get("Plans", []))


def test_the_archive_reads_each_table_by_an_index(db, people):
    from volley_app.services.operations import archive

    users = _subs(db, 30)
    for rid in users:
        db.get(User, rid).archived_at = utcnow()
    db.commit()
    second = archive.archived_page(db, people["root"]).next
    assert second
    for statement, parameters in _statements(db, lambda: archive.archived_page(db, people["root"], bookmark=second)):
        for table in ("users", "league_sessions", "leagues", "sub_requests"):
            if "archived_at IS NOT NULL" in statement and "count(" not in statement:
                assert _full_scans(db, statement, parameters, table) == [], statement


# --- the background sweeps ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "sweep"),
    [("payments", "holds"), ("sub_requests", "reminders")],
)
def test_each_background_sweep_finds_its_rows_by_an_index(db, people, table, sweep):
    from tests.factories import add_league, add_league_session
    from volley_app.db import get_engine
    from volley_app.models import Payment
    from volley_app.services.subs import sub_reminders
    from volley_app.services.teams import league_places

    svl = db.get(User, people["svl"].user_id)
    league = add_league(db, svl, add_league_session(db, svl, "Long", utcnow() - 40 * DAY, utcnow() + 400 * DAY))
    db.add_all(Payment(league_id=league.id, team_name=f"P{i}", amount_cents=100, provider="test", status="succeeded",
                       idempotency_key=f"s-{i}") for i in range(30))  # fmt: skip
    lapsed = Payment(league_id=league.id, team_name="Late", amount_cents=100, provider="test", status="pending",
                     idempotency_key="late", expires_at=utcnow() - DAY)  # fmt: skip
    db.add(lapsed)
    db.commit()
    _requests(db, people["alice"], 30, start=utcnow() - 15 * DAY)
    run = {"holds": league_places.expire_holds, "reminders": sub_reminders.send_reminders}[sweep]
    found = [s for s in _statements(db, run, engine=get_engine()) if f"FROM {table}" in s[0]]
    assert found
    for statement, parameters in found:
        assert _full_scans(db, statement, parameters, table) == [], statement
        assert _whole_index_scans(db, statement, parameters, table) == [], statement
    if sweep == "holds":
        db.refresh(lapsed)
        assert lapsed.status == "expired"  # the index found the lapsed hold


def _whole_index_scans(db, statement: str, parameters, table: str) -> list[str]:
    """SQLite's steps that read all of one of ``table``'s indexes (an index of a few rows, a partial one, aside)."""
    conn = db.connection()
    if conn.dialect.name != "sqlite":
        return []
    cursor = conn.connection.dbapi_connection.cursor()
    partial = {row[1] for row in cursor.execute(f"PRAGMA index_list({table})").fetchall() if row[4]}
    cursor.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
    steps = [row[-1] for row in cursor.fetchall()]
    return [s for s in steps if s.startswith(f"SCAN {table} USING") and not any(f"INDEX {p}" in s for p in partial)]


# --- email-all jobs ------------------------------------------------------------------------------------------------


def test_email_jobs_by_the_page_newest_first_with_their_counts_in_one_query(db, people):
    from volley_app.models import EmailAllJob
    from volley_app.services.mail import email_all

    assert email_all.jobs_page(db, people["root"]).rows == []
    made = [EmailAllJob(subject=f"Notice {i:02}", body_text="Hi") for i in range(50)]
    db.add_all(made)
    db.commit()
    email_all.send(db, people["root"], subject="Courts closed", body="No games Friday.", repeat_of=made[-1].id)
    db.commit()
    pages = _all_pages(lambda mark: email_all.jobs_page(db, people["root"], bookmark=mark))
    assert [len(p) for p in pages] == [25, 25, 1]
    first = email_all.jobs_page(db, people["root"])
    assert first.rows[0].subject == "Courts closed" and first.rows[0].queued == 4 == first.rows[0].pending
    assert [j.subject for j in email_all.jobs_page(db, people["root"], filters={"q": "notice 4"}).rows] == [
        f"Notice 4{i}" for i in reversed(range(10))
    ]
    selects = _statements(db, lambda: email_all.jobs_page(db, people["root"], bookmark=first.next))
    assert len(selects) == 3  # the page, the counts of its jobs, the total
    with pytest.raises(Forbidden):
        email_all.jobs_page(db, people["svl"])


# --- a league's payments -------------------------------------------------------------------------------------------


def test_a_leagues_payments_by_the_page_newest_first_for_its_svl(db, people):
    from tests.factories import add_league, add_league_session
    from volley_app.models import Payment
    from volley_app.services.teams import registration

    svl = db.get(User, people["svl"].user_id)
    lg = add_league(db, svl, add_league_session(db, svl, "Pay", utcnow(), utcnow() + 90 * DAY))
    assert registration.payments_page(db, people["svl"], league_id=lg.id).rows == []
    made = [Payment(league_id=lg.id, user_id=people["alice"].user_id if i % 10 == 0 else None, team_name=f"Squad {i:02}",
                    amount_cents=4000, provider="test", status="succeeded", idempotency_key=f"pay-{i}") for i in range(50)]  # fmt: skip
    db.add_all(made)
    db.commit()
    ids = [p.id for p in reversed(made)]
    pages = _all_pages(lambda mark: registration.payments_page(db, people["svl"], league_id=lg.id, bookmark=mark))
    assert pages == [ids[:25], ids[25:]]  # an exact multiple: no empty third page
    found = registration.payments_page(db, people["root"], league_id=str(lg.id), filters={"q": "alice"})
    assert _ids(found) == [made[i].id for i in (40, 30, 20, 10, 0)] and found.rows[0]["user"] == "alice"
    assert found.rows[0]["time"].endswith((" ET", " CT", " MT", " PT"))  # the venue's zone, named
    assert _ids(registration.payments_page(db, people["svl"], league_id=lg.id, filters={"q": "squad 49"})) == ids[:1]
    with pytest.raises(Forbidden):
        registration.payments_page(db, people["alice"], league_id=lg.id)


def test_a_list_sort_is_one_of_its_orders_or_refused_by_the_field():
    assert paging.sort_order("", request_lists.REQUEST_ORDERS) is request_lists.REQUEST_ORDERS["date"]
    assert paging.sort_order(" -date ", request_lists.REQUEST_ORDERS) is request_lists.REQUEST_ORDERS["-date"]
    for bad in ("team", 3, ["date"], "DATE"):
        with pytest.raises(Invalid) as caught:
            paging.sort_order(bad, request_lists.REQUEST_ORDERS)
        assert set(caught.value.errors) == {"sort"}


# --- the total, counted up to a cap -----------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "total", "capped"), [(0, 0, False), (9, 9, False), (10, 10, False), (11, 10, True)])
def test_a_total_is_counted_up_to_the_cap(db, people, monkeypatch, rows, total, capped):
    monkeypatch.setattr(paging, "COUNT_CAP", 10)
    ids = _requests(db, people["alice"], rows)
    page = request_lists.list_open(db, people["ben"], size=4)
    assert (page.total, page.capped) == (total, capped)
    assert sum(_all_pages(lambda mark: request_lists.list_open(db, people["ben"], bookmark=mark, size=4)), []) == ids


def test_the_cap_boundaries_of_the_default_cap(db, people):
    query = sa.select(SubRequest.id).order_by(SubRequest.id)
    for made, expected in [(999, (999, False)), (1, (1000, False)), (1, (1000, True))]:
        _requests(db, people["alice"], made)
        assert paging.count_rows(db, query) == expected


def test_a_capped_count_reads_at_most_one_row_past_the_cap(db, people):
    _requests(db, people["alice"], 12)
    statements = _statements(db, lambda: paging.count_rows(db, sa.select(SubRequest.id), cap=5))
    assert len(statements) == 1 and "LIMIT" in statements[0][0].upper()
    assert paging.count_rows(db, sa.select(SubRequest.id), cap=5) == (5, True)


def test_a_total_already_known_is_not_counted_again(db, people):
    _requests(db, people["alice"], 30)
    first = request_lists.list_open(db, people["ben"])
    with paging.known_total(first.total, first.capped):
        statements = _statements(db, lambda: request_lists.list_open(db, people["ben"], bookmark=first.next))
        second = request_lists.list_open(db, people["ben"], bookmark=first.next)
    assert not any("count(" in s for s, _ in statements)
    assert (second.total, second.capped, len(second.rows)) == (30, False, 5)
    assert request_lists.list_open(db, people["ben"], bookmark=first.next).total == 30  # outside it: counted


@pytest.mark.parametrize(
    ("first", "count", "total", "capped", "text"),
    [(1, 25, 30, False, "Showing 1–25 of 30"), (1, 25, 1000, True, "Showing 1–25 of 1,000+"),
     (1001, 25, 1000, True, "Showing 1,001–1,025 of 1,025+"), (1, 0, 0, False, "")],  # fmt: skip
)
def test_where_a_list_stands_says_when_its_total_was_capped(first, count, total, capped, text):
    from volley_app.services.core.paging import summary

    assert summary(first, count, total, capped) == text
