"""Demo data: enough people, sessions, leagues, teams and sub requests to click through every screen.

Dates are relative to today, so the demo always has a running session, one in
registration, and sub requests in the coming days.
"""

from __future__ import annotations

import datetime as dt
import logging
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import (
    Day,
    Game,
    GameRsvp,
    GameType,
    Gender,
    GenderNeeded,
    League,
    LeagueFormat,
    LeagueSession,
    LeagueStage,
    MemberRole,
    Payment,
    Position,
    Rating,
    Region,
    Role,
    RsvpAnswer,
    SessionStatus,
    SkillLevel,
    StandingAdjustment,
    SubFormat,
    SubOutcome,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    SubUnavailableDate,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.accounts.accounts import create_user
from volley_app.services.core.actors import Actor
from volley_app.services.subs import sub_records
from volley_app.services.teams import rosters
from volley_app.settings import get_settings

log = logging.getLogger(__name__)

DEMO_PASSWORD = "volley123"  # noqa: S105 - the published demo password
CHICAGO = "America/Chicago"

# username, first, last, roles, extra profile
DEMO_PEOPLE: list[tuple[str, str, str, tuple[Role, ...], dict]] = [
    ("admin", "Avery", "Admin", (Role.ADMIN,), {}),
    ("lexsports", "Lexington", "Sportsplex", (Role.SVL,), {"address": "2201 Regency Rd", "city": "Lexington"}),
    ("bluegrassbeach", "Bluegrass", "Beach", (Role.SVL,), {"address": "1400 Old Frankfort Pike", "city": "Lexington"}),
    # A venue in another time zone: its games show "6:30 PM CT" where Lexington's show "ET".
    ("windycity", "Windy City", "Volleyball", (Role.SVL,), {"address": "1200 W Fulton Market", "city": "Chicago",
        "region": "IL", "time_zone": CHICAGO}),
    ("alice", "Alice", "Nguyen", (Role.PLAYER,), {"gender": Gender.FEMALE}),
    ("ben", "Ben", "Carter", (Role.PLAYER,), {"gender": Gender.MALE, "sub": True,
        "hitter_skill_level": Rating.B, "passer_skill_level": Rating.C, "setter_skill_level": Rating.C,
        "sub_days": 0b0001101}),
    ("carmen", "Carmen", "Diaz", (Role.PLAYER,), {"gender": Gender.FEMALE, "sub": True,
        "hitter_skill_level": Rating.A, "passer_skill_level": Rating.B, "setter_skill_level": Rating.B}),
    ("dmitri", "Dmitri", "Ivanov", (Role.PLAYER,), {"gender": Gender.MALE}),
    ("erin", "Erin", "Walsh", (Role.PLAYER,), {"gender": Gender.FEMALE, "sub": True,
        "hitter_skill_level": Rating.C, "passer_skill_level": Rating.B, "setter_skill_level": Rating.A,
        "sub_days": 0b0011111, "sub_weekly_cap": 2}),
    ("frank", "Frank", "Osei", (Role.PLAYER,), {"gender": Gender.MALE}),
    ("gina", "Gina", "Park", (Role.PLAYER,), {"gender": Gender.FEMALE, "sub": True,
        "hitter_skill_level": Rating.C, "passer_skill_level": Rating.B, "setter_skill_level": Rating.B,
        "sub_days": 0b0001010, "sub_weekly_cap": 2}),
    ("hana", "Hana", "Sato", (Role.PLAYER,), {"gender": Gender.FEMALE, "sub": True,
        "hitter_skill_level": Rating.B, "passer_skill_level": Rating.A, "setter_skill_level": Rating.C}),
]  # fmt: skip

DEMO_LOGINS = [(u, "/".join(r.value for r in roles)) for u, _f, _l, roles, _p in DEMO_PEOPLE]


def is_empty(db: Session) -> bool:
    return db.exec(select(User.id)).first() is None


def _at(day: dt.date, hour: int, minute: int = 0, zone_name: str | None = None) -> dt.datetime:
    """A wall-clock time at the venue (in ``zone_name``, else the default zone), as UTC."""
    zone = ZoneInfo(zone_name or get_settings().time_zone)
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone).astimezone(dt.UTC)


def _next_weekday(start: dt.date, weekday: int) -> dt.date:
    return start + dt.timedelta(days=(weekday - start.weekday()) % 7)


def seed(db: Session, *, now: dt.datetime | None = None) -> dict[str, int]:
    """Add the demo data to an empty database. Returns counts of what was added."""
    now = now or utcnow()
    today = now.astimezone(ZoneInfo(get_settings().time_zone)).date()
    people: dict[str, User] = {}
    for username, first, last, roles, extra in DEMO_PEOPLE:
        profile = dict(extra)
        people[username] = create_user(
            db,
            username=username,
            password=DEMO_PASSWORD,
            email=f"{username}@volley.example",
            first_name=first,
            last_name=last,
            region=profile.pop("region", "KY"),
            roles=roles,
            **profile,
        )

    lex, beach = people["lexsports"], people["bluegrassbeach"]
    running_start = _next_weekday(today - dt.timedelta(weeks=6), 0)
    upcoming_start = _next_weekday(today + dt.timedelta(weeks=5), 0)
    fall = LeagueSession(
        svl_id=_id(lex), name="Fall Session", status=SessionStatus.ACTIVE, created_by_id=_id(lex),
        start_at=_at(running_start, 0), end_at=_at(running_start + dt.timedelta(weeks=10), 23, 59),
    )  # fmt: skip
    winter = LeagueSession(
        svl_id=_id(lex), name="Winter Session", status=SessionStatus.REGISTRATION, created_by_id=_id(lex),
        start_at=_at(upcoming_start, 0), end_at=_at(upcoming_start + dt.timedelta(weeks=10), 23, 59),
    )  # fmt: skip
    beach_spring = LeagueSession(
        svl_id=_id(beach), name="Sand Spring Session", status=SessionStatus.REGISTRATION, created_by_id=_id(beach),
        start_at=_at(upcoming_start + dt.timedelta(weeks=12), 0),
        end_at=_at(upcoming_start + dt.timedelta(weeks=22), 23, 59),
    )  # fmt: skip
    db.add_all([fall, winter, beach_spring])
    db.flush()

    def league(session: LeagueSession, svl: User, day: Day, start: dt.date, **kw) -> League:
        row = League(
            session_id=_id(session), svl_id=_id(svl), day=day, start_at=_at(start, 18, 30),
            number_of_weeks=8, time_increment=50, address=svl.address, city=svl.city, region=Region("KY"), **kw,
        )  # fmt: skip
        db.add(row)
        return row

    c_sixes = league(fall, lex, Day.MONDAY, running_start, court="Court 1", courts="Court 1\nCourt 2", skill_level=SkillLevel.C,
                     format=LeagueFormat.SIXES, max_teams=8, cost_cents=30000, stage=LeagueStage.ACTIVE,
                     gender_requirement="Coed: at least 2 women on court")  # fmt: skip
    b_quads = league(winter, lex, Day.WEDNESDAY, upcoming_start + dt.timedelta(days=2), court="Court 2",
                     skill_level=SkillLevel.B, format=LeagueFormat.QUADS, max_teams=6, cost_cents=24000)  # fmt: skip
    d_sixes = league(winter, lex, Day.THURSDAY, upcoming_start + dt.timedelta(days=3), court="Court 3",
                     skill_level=SkillLevel.D, format=LeagueFormat.SIXES, max_teams=4, cost_cents=28000)  # fmt: skip
    league(beach_spring, beach, Day.SUNDAY, upcoming_start + dt.timedelta(weeks=12, days=6),
                     court="Sand 1", skill_level=SkillLevel.C_PLUS, format=LeagueFormat.DOUBLES, max_teams=10,
                     cost_cents=9000, cash=True)  # fmt: skip
    db.flush()

    captains = ["alice", "dmitri", "frank", "ben", "carmen", "erin"]
    teams = []
    for i, name in enumerate(["Net Ninjas", "Block Party", "Dig Deep", "Set to Kill", "Ace Ventura", "Side Out"]):
        teams.append(Team(league_id=_id(c_sixes), captain_id=_id(people[captains[i]]), team_name=name,
                          paid=True))  # fmt: skip
    for i, name in enumerate(["Spike Lee", "Bump Set Spike", "Pass Masters"]):
        teams.append(Team(league_id=_id(b_quads), captain_id=_id(people[captains[i]]), team_name=name, paid=i != 2))
    for i, name in enumerate(["Free Ballers", "Rally Cats", "Court Jesters", "Mintonettes"]):
        teams.append(Team(league_id=_id(d_sixes), captain_id=_id(people[captains[i]]), team_name=name, paid=True))
    teams.append(Team(league_id=_id(d_sixes), captain_id=_id(people["erin"]), team_name="Waiting Game", waitlist=True))
    db.add_all(teams)
    db.flush()
    _demo_schedule(db, c_sixes, now)
    _demo_history(db, c_sixes, league(fall, lex, Day.TUESDAY, running_start + dt.timedelta(days=1), court="Court 2",
                  skill_level=SkillLevel.A, format=LeagueFormat.QUADS, max_teams=4, cost_cents=20000,
                  stage=LeagueStage.ACTIVE), people, now)  # fmt: skip
    season = league(fall, lex, Day.FRIDAY, running_start + dt.timedelta(days=4), court="Court 4",
                    skill_level=SkillLevel.C_PLUS, format=LeagueFormat.QUADS, max_teams=4, cost_cents=22000,
                    stage=LeagueStage.ACTIVE)  # fmt: skip
    season.number_of_weeks = 3
    db.flush()
    finished = _demo_finished_season(db, season, people)
    _demo_dispute(db, c_sixes, now)
    chicago_teams = _demo_other_zone(db, people["windycity"], people, running_start, now)

    requests = [
        SubRequest(requestor_id=_id(people["alice"]), svl="Lexington Sportsplex", team="Net Ninjas",
                   date=_at(today + dt.timedelta(days=3), 19, 20), court="Court 1", skill_level=SkillLevel.C,
                   format=SubFormat.SIXES, text="Need a woman who can pass. We play at 7:20.",
                   position_needed=Position.PASSER, gender_needed=GenderNeeded.FEMALE, min_rating=Rating.C),
        SubRequest(requestor_id=_id(people["dmitri"]), svl="Lexington Sportsplex", team="Block Party",
                   date=_at(today + dt.timedelta(days=5), 20, 10), court="Court 2", skill_level=SkillLevel.C,
                   format=SubFormat.SIXES),
        SubRequest(requestor_id=_id(people["frank"]), svl="Bluegrass Beach",
                   team="Dig Deep", date=_at(today + dt.timedelta(days=4), 18, 30), court="Sand 1",
                   skill_level=SkillLevel.B, format=SubFormat.QUADS, text="Carmen, can you sub for us this week?"),
        SubRequest(requestor_id=_id(people["alice"]), recipient_id=_id(people["ben"]), status=SubStatus.ACCEPTED,
                   places_filled=1, svl="Lexington Sportsplex", team="Net Ninjas", date=_at(today + dt.timedelta(days=10), 19, 20),
                   court="Court 1", skill_level=SkillLevel.C, format=SubFormat.SIXES),
        SubRequest(requestor_id=_id(people["dmitri"]), svl="Lexington Sportsplex", team="Block Party",
                   date=_at(today - dt.timedelta(days=9), 20, 10), court="Court 2", skill_level=SkillLevel.C,
                   format=SubFormat.SIXES, completed=True),
        # past subs, marked by their requestors: the suggestions' reliability and "last subbed"
        SubRequest(requestor_id=_id(people["dmitri"]), recipient_id=_id(people["carmen"]), status=SubStatus.ACCEPTED,
                   svl="Lexington Sportsplex", team="Block Party", date=_at(today - dt.timedelta(days=16), 20, 10),
                   court="Court 2", skill_level=SkillLevel.C, format=SubFormat.SIXES, completed=True, places_filled=1),
        SubRequest(requestor_id=_id(people["frank"]), recipient_id=_id(people["gina"]), status=SubStatus.ACCEPTED,
                   svl="Lexington Sportsplex", team="Dig Deep", date=_at(today - dt.timedelta(days=23), 19, 20),
                   court="Court 1", skill_level=SkillLevel.C, format=SubFormat.SIXES, completed=True, places_filled=1),
        SubRequest(requestor_id=_id(people["ben"]), svl="Windy City Volleyball", team="Lake Effect",
                   date=_at(today + dt.timedelta(days=6), 18, 30, CHICAGO), court="Court A", skill_level=SkillLevel.C,
                   format=SubFormat.SIXES, text="Visiting Chicago? We play at 6:30 PM CT."),
    ]  # fmt: skip
    db.add_all(requests)
    # Hana cannot play the day of Alice's request: the suggestions list her as ineligible, with why.
    db.add(SubUnavailableDate(user_id=_id(people["hana"]), day=today + dt.timedelta(days=3)))
    db.flush()
    db.add(SubRequestPlace(request_id=_id(requests[3]), user_id=_id(people["ben"]), accepted_at=now - dt.timedelta(days=1)))
    for past, days in ((requests[5], 16), (requests[6], 23)):  # taken, and marked played the day after
        assert past.recipient_id is not None  # made taken, by its recipient
        db.add(SubRequestPlace(request_id=_id(past), user_id=past.recipient_id, accepted_at=past.date - dt.timedelta(days=2),
                               outcome=SubOutcome.PLAYED, outcome_at=now - dt.timedelta(days=days - 1)))  # fmt: skip
    _demo_invite_list(db, requests[2], people, now)
    _seed_outreach(db)
    sub_records.rebuild(db)
    _demo_rosters(db, c_sixes, teams[:6], people, now)
    counts = {"users": len(people) + len(ROSTER_PLAYERS) + len(SUB_POOL), "sessions": 4, "leagues": 7, "teams": len(teams) + 2 + finished + chicago_teams,
              "sub_requests": len(requests)}  # fmt: skip
    log.info("demo data seeded: %s", counts)
    return counts


# Roster players (not subs): the Monday C 6s teams are full. username, first, last, gender.
ROSTER_PLAYERS = [
    ("ivy", "Ivy", "Moreau", Gender.FEMALE), ("jonah", "Jonah", "Reyes", Gender.MALE),
    ("kira", "Kira", "Holt", Gender.FEMALE), ("leo", "Leo", "Brandt", Gender.MALE),
    ("maya", "Maya", "Ortiz", Gender.FEMALE), ("nate", "Nate", "Fischer", Gender.MALE),
    ("olga", "Olga", "Petrov", Gender.FEMALE), ("pavel", "Pavel", "Novak", Gender.MALE),
    ("rosa", "Rosa", "Lima", Gender.FEMALE), ("sam", "Sam", "Okafor", Gender.MALE),
    ("tess", "Tess", "Quinlan", Gender.FEMALE), ("uri", "Uri", "Adler", Gender.MALE),
    ("vera", "Vera", "Lindqvist", Gender.FEMALE), ("wes", "Wes", "Duran", Gender.MALE),
    ("xena", "Xena", "Marsh", Gender.FEMALE), ("yusuf", "Yusuf", "Kaya", Gender.MALE),
    ("zara", "Zara", "Bell", Gender.FEMALE), ("abe", "Abe", "Lowe", Gender.MALE),
    ("bea", "Bea", "Santos", Gender.FEMALE), ("cal", "Cal", "Ferris", Gender.MALE),
    ("dina", "Dina", "Roth", Gender.FEMALE), ("eli", "Eli", "Grant", Gender.MALE),
    ("fern", "Fern", "Acosta", Gender.FEMALE), ("gus", "Gus", "Wiley", Gender.MALE),
    ("hope", "Hope", "Yates", Gender.FEMALE), ("ian", "Ian", "Cho", Gender.MALE),
    ("jada", "Jada", "Frost", Gender.FEMALE), ("kurt", "Kurt", "Mayer", Gender.MALE),
    ("lola", "Lola", "Vance", Gender.FEMALE),
]  # fmt: skip
# Subs on no roster, free every day: who a short team's request finds.
SUB_POOL = [
    ("quinn", "Quinn", "Hart", {"passer_skill_level": Rating.B, "hitter_skill_level": Rating.C,
                                "setter_skill_level": Rating.C}),
    ("rae", "Rae", "Lin", {"passer_skill_level": Rating.C, "setter_skill_level": Rating.B, "hitter_skill_level": Rating.C}),
    ("skye", "Skye", "Ward", {"passer_skill_level": Rating.B, "hitter_skill_level": Rating.B,
                              "setter_skill_level": Rating.D}),
]  # fmt: skip
WAIVER = ("I take part at my own risk. I release the league, its venue and its organisers from claims for injury "
          "or loss arising from play, and I agree to follow the league's rules and the referee's calls.")  # fmt: skip


def _demo_rosters(db: Session, league: League, teams: list[Team], people: dict[str, User], now: dt.datetime) -> None:
    """Every team's captain is its first member. The Monday C 6s teams have full rosters (the league's rule: two
    women on court), a waiver some have signed, and answers for their next game: Net Ninjas' is two short (Hana is
    out, Kira maybe, one has not answered; its reminders go a week ahead, so its next game is always near), so
    Alice sees "Find 2 subs"; the others have their six."""
    from volley_app.services.teams import waivers

    for team in db.exec(select(Team).where(col(Team.captain_id).is_not(None))).all():
        rosters.add_captain(db, team)
    league.women_on_court = 2
    db.add(league)
    teams[0].rsvp_reminder_days = 7
    db.add(teams[0])
    extra = [create_user(db, username=u, password=DEMO_PASSWORD, email=f"{u}@volley.example", first_name=first,
                         last_name=last, region=Region("KY"), roles=[Role.PLAYER], gender=g)
             for u, first, last, g in ROSTER_PLAYERS]  # fmt: skip
    for u, first, last, ratings in SUB_POOL:
        create_user(db, username=u, password=DEMO_PASSWORD, email=f"{u}@volley.example", first_name=first, last_name=last,
                    region=Region("KY"), roles=[Role.PLAYER], gender=Gender.FEMALE, sub=True, sub_days=0b1111111,
                    **ratings)  # fmt: skip
    # Net Ninjas: Alice, Gina, Hana and four more; every other team its captain and five more
    members = {_id(teams[0]): [people["gina"], people["hana"], *extra[:4]]}
    for i, team in enumerate(teams[1:]):
        members[_id(team)] = extra[4 + 5 * i : 9 + 5 * i]
    for team_id, users in members.items():
        db.add_all([TeamMember(team_id=team_id, user_id=_id(u), role=MemberRole.PLAYER, joined_at=now - dt.timedelta(days=20))
                    for u in users])  # fmt: skip
    db.flush()
    operator = db.get(User, league.svl_id)
    assert operator is not None
    waivers.save_waiver(db, _actor(operator), league_id=_id(league), text=WAIVER)
    for name in ("alice", "gina"):
        waivers.sign_waiver(db, _actor(people[name]), team_id=_id(teams[0]), adult=True, ip="203.0.113.7",
                            typed_name=f"{people[name].first_name} {people[name].last_name}", now=now)  # fmt: skip
    for team in teams:
        game = db.exec(select(Game).where(sa.or_(col(Game.team1_id) == team.id, col(Game.team2_id) == team.id),
                                          col(Game.start_at) > now).order_by(col(Game.start_at))).first()  # fmt: skip
        if game is None:
            continue
        roster = [_id(u) for u in (db.get(User, team.captain_id), *members[_id(team)]) if u is not None]
        answers = dict.fromkeys(roster, RsvpAnswer.IN)
        if team is teams[0]:  # two short: Hana out, Kira maybe, Jonah has not answered
            answers[_id(people["hana"])], answers[_id(extra[2])] = RsvpAnswer.OUT, RsvpAnswer.MAYBE
            del answers[_id(extra[1])]
        db.add_all([GameRsvp(game_id=_id(game), team_id=_id(team), user_id=uid, answer=a, answered_at=now)
                    for uid, a in answers.items()])  # fmt: skip
    db.flush()


# --- a venue in another time zone: a running league with its schedule and scores -----------------


def _demo_other_zone(db: Session, svl: User, people: dict[str, User], running_start: dt.date, now: dt.datetime) -> int:
    """Windy City Volleyball (Chicago, Central time) runs a Tuesday C Sixes league on two courts at 6:30 PM its time.
    Returns how many teams it has."""
    session = LeagueSession(
        svl_id=_id(svl), name="Chicago Fall Session", status=SessionStatus.ACTIVE, created_by_id=_id(svl),
        start_at=_at(running_start, 0, 0, CHICAGO), end_at=_at(running_start + dt.timedelta(weeks=10), 23, 59, CHICAGO),
    )  # fmt: skip
    db.add(session)
    db.flush()
    row = League(
        session_id=_id(session), svl_id=_id(svl), day=Day.TUESDAY,
        start_at=_at(running_start + dt.timedelta(days=1), 18, 30, CHICAGO), number_of_weeks=8, time_increment=50,
        address=svl.address, city=svl.city, region=Region("IL"), court="Court A", courts="Court A\nCourt B", skill_level=SkillLevel.C,
        format=LeagueFormat.SIXES, max_teams=4, cost_cents=26000, stage=LeagueStage.ACTIVE,
    )  # fmt: skip
    db.add(row)
    db.flush()
    names = ["Lake Effect", "Deep Dish Diggers", "Windy Spikers", "The Loop"]
    for captain, name in zip(["ben", "carmen", "erin", "frank"], names, strict=True):
        db.add(Team(league_id=_id(row), captain_id=_id(people[captain]), team_name=name, paid=True))
    db.flush()
    _demo_schedule(db, row, now, CHICAGO)
    return len(names)


# --- newsletter subscribers and an inquiry for the admin screens -----------------------------


def _seed_outreach(db: Session) -> None:
    """A few newsletter subscribers and one contact inquiry (not in the seed's counts)."""
    from volley_app.models import ContactInquiry, NewsletterSubscriber

    db.add_all(
        [
            NewsletterSubscriber(email="fan1@example.com", referral="A teammate"),
            NewsletterSubscriber(email="fan2@example.com", referral="Instagram"),
            NewsletterSubscriber(email="alice@volley.example"),
            ContactInquiry(name="Jordan Miles", email="jordan@example.com", body="Do you run any leagues on Sundays?"),
        ]
    )
    db.flush()
# --- the running league has its schedule, with scores for the weeks played ---------------------


def _demo_schedule(db: Session, league: League, now: dt.datetime, zone: str | None = None) -> int:
    """Generate the running league's schedule and enter scores for the games already played."""
    from volley_app.services.seasons import leagues, scheduling

    courts = leagues.court_names(league)
    ids = [_id(t) for t in db.exec(select(Team).where(Team.league_id == _id(league)).order_by(col(Team.id))).all()]
    made = 0
    played = [((21, 17), (19, 21), (15, 11)), ((21, 12), (21, 18), (None, None)), ((23, 21), (18, 21), (17, 15))]
    for week_index, week in enumerate(scheduling.pairings(ids, league.number_of_weeks)):
        for match_index, ((a, b), (slot_index, court)) in enumerate(zip(week, scheduling.placements(week, courts), strict=True)):
            at = scheduling.slot(league.start_at, week_index, slot_index, league.time_increment, zone)
            game = Game(league_id=_id(league), team1_id=a, team2_id=b, start_at=at, type=GameType.LEAGUE,
                        round=week_index + 1, match=match_index + 1, court=court)  # fmt: skip
            if at < now and b is not None:
                sets = played[(week_index + match_index) % len(played)]
                for i, (x, y) in enumerate(sets):
                    setattr(game, f"team1_game{i + 1}_score", x)
                    setattr(game, f"team2_game{i + 1}_score", y)
            db.add(game)
            made += 1
    league.schedule_generated = True
    db.add(league)
    db.flush()
    return made


# --- history to look at: a withdrawn team, a corrected record, an archived league with payments ----


def _demo_history(db: Session, running: League, archived: League, people: dict[str, User], now: dt.datetime) -> None:
    """Side Out withdrew two weeks ago (its later games forfeited); Block Party's record was corrected;
    an A Quads league with two paid teams was archived by its venue three days ago."""
    from volley_app.services.core import audit
    from volley_app.services.seasons import fees, leagues

    lex = people["lexsports"]
    teams = {t.team_name: t for t in db.exec(select(Team).where(Team.league_id == _id(running))).all()}
    quit_at = now - dt.timedelta(weeks=2)
    side_out = teams["Side Out"]
    side_out.withdrawn_at = quit_at
    db.add(side_out)
    for game in db.exec(select(Game).where(Game.league_id == _id(running))).all():
        if _id(side_out) in (game.team1_id, game.team2_id) and game.start_at > quit_at and game.team2_id is not None:
            for i in (1, 2, 3):
                setattr(game, f"team1_game{i}_score", None)
                setattr(game, f"team2_game{i}_score", None)
            game.forfeit_team_id = _id(side_out)
            db.add(game)
    db.add(StandingAdjustment(team_id=_id(teams["Block Party"]), wins=1, losses=-1, created_by_id=_id(lex),
                              created_at=now - dt.timedelta(days=10),
                              reason="Week 1 corrected: the scoresheet had the sets swapped"))  # fmt: skip
    archived.archived_at, archived.archived_by_id = now - dt.timedelta(days=3), _id(lex)
    db.add(archived)
    db.flush()
    total = fees.breakdown(archived).total_cents
    for i, (name, captain) in enumerate((("Quad Squad", "ben"), ("Four Play", "carmen"))):
        team = Team(league_id=_id(archived), captain_id=_id(people[captain]), team_name=name, paid=True)
        db.add(team)
        db.flush()
        db.add(Payment(league_id=_id(archived), team_id=_id(team), user_id=_id(people[captain]), team_name=name,
                       league_name=leagues.display_name(archived), payer_name=captain, amount_cents=total,
                       provider="offline", provider_payment_id=f"offline_demo_{i + 1}", status="succeeded",
                       idempotency_key=f"demo-{i + 1}", created_at=now - dt.timedelta(weeks=8),
                       updated_at=now - dt.timedelta(weeks=8)))  # fmt: skip
    actor = _actor(lex)
    audit.record(db, actor, action="withdraw", entity="team", entity_id=_id(side_out), league_id=_id(running),
                 summary="Team Side Out withdrawn from Monday C 6s; its remaining games forfeited")  # fmt: skip
    audit.record(db, actor, action="archive", entity="league", entity_id=_id(archived), league_id=_id(archived),
                 summary=f"League {leagues.display_name(archived)} archived")  # fmt: skip
    db.flush()


# --- a finished season: standings by sets and points, a tie broken by head-to-head, a champion ------

FINISHED_TEAMS = [("Kill Shots", "alice"), ("Float Serve", "ben"), ("Tip Drill", "carmen"), ("Pancake Digs", "dmitri")]
# Each pair met once: (team 1, team 2, sets). Kill Shots and Float Serve both finish 2-1; Float Serve has
# the better sets and points, but Kill Shots beat it, so head-to-head puts Kill Shots first.
FINISHED_GAMES = [
    ("Kill Shots", "Pancake Digs", ((19, 21), (18, 21))),
    ("Float Serve", "Tip Drill", ((21, 10), (21, 12))),
    ("Kill Shots", "Tip Drill", ((21, 19), (19, 21), (15, 13))),
    ("Pancake Digs", "Float Serve", ((11, 21), (13, 21))),
    ("Kill Shots", "Float Serve", ((22, 20), (18, 21), (16, 14))),
    ("Tip Drill", "Pancake Digs", ((21, 17), (21, 19))),
]


def _demo_finished_season(db: Session, league: League, people: dict[str, User]) -> int:
    """Friday C+ Quads played its three weeks and its playoffs: the bracket was generated from the
    standings by its venue, and Float Serve won the final. Returns how many teams it has."""
    from volley_app.services.seasons import playoffs, scheduling

    teams = {}
    for name, captain in FINISHED_TEAMS:
        teams[name] = Team(league_id=_id(league), captain_id=_id(people[captain]), team_name=name, paid=True)
        db.add(teams[name])
    db.flush()
    for i, (one, two, sets) in enumerate(FINISHED_GAMES):
        week, match = divmod(i, 2)
        game = Game(league_id=_id(league), team1_id=_id(teams[one]), team2_id=_id(teams[two]), type=GameType.LEAGUE,
                    round=week + 1, match=match + 1,
                    start_at=scheduling.slot(league.start_at, week, match, league.time_increment))  # fmt: skip
        for n, (x, y) in enumerate(sets):
            setattr(game, f"team1_game{n + 1}_score", x)
            setattr(game, f"team2_game{n + 1}_score", y)
        db.add(game)
    league.schedule_generated = True
    db.add(league)
    db.flush()
    svl = db.get(User, league.svl_id)
    assert svl is not None  # the league was just made by its venue
    lex = _actor(svl)
    playoffs.generate(db, lex, _id(league))
    semi1, semi2, final = db.exec(
        select(Game).where(Game.league_id == _id(league), Game.type == GameType.TOURNAMENT).order_by(col(Game.round), col(Game.match))
    ).all()
    first = {"team1_game1_score": 21, "team2_game1_score": 16, "team1_game2_score": 21, "team2_game2_score": 18}
    playoffs.record_result(db, lex, _id(semi1), **first)
    playoffs.record_result(db, lex, _id(semi2), **first)
    playoffs.record_result(db, lex, _id(final), team1_game1_score=19, team2_game1_score=21, team1_game2_score=21,
                           team2_game2_score=17, team1_game3_score=13, team2_game3_score=15)  # fmt: skip
    db.flush()
    return len(teams)


def _demo_dispute(db: Session, league: League, now: dt.datetime) -> None:
    """The running league's latest game: its home captain reported a score, the other captain disputed it,
    and it waits for the operator."""
    from volley_app.models import ReportStatus, ScoreReport

    game = db.exec(
        select(Game)
        .where(Game.league_id == _id(league), Game.start_at < now, col(Game.team2_id).is_not(None),
               col(Game.forfeit_team_id).is_(None))
        .order_by(col(Game.start_at).desc(), col(Game.match))
    ).first()  # fmt: skip
    if game is None:
        return
    one, two = db.get(Team, game.team1_id), db.get(Team, game.team2_id)
    if one is None or two is None:
        return
    for i in (1, 2, 3):
        setattr(game, f"team1_game{i}_score", None)
        setattr(game, f"team2_game{i}_score", None)
    db.add(game)
    db.add(ScoreReport(game_id=_id(game), team_id=_id(one), reported_by_id=one.captain_id, status=ReportStatus.DISPUTED,
                       team1_game1_score=21, team2_game1_score=18, team1_game2_score=21, team2_game2_score=19,
                       note="We won the second set 21-19, not them", answered_by_id=two.captain_id,
                       answered_at=now - dt.timedelta(days=1), created_at=now - dt.timedelta(days=2)))  # fmt: skip
    db.flush()


def _demo_invite_list(db: Session, req: SubRequest, people: dict[str, User], now: dt.datetime) -> None:
    """Frank's request asks Ben, Carmen and Erin in turn: Ben declined, Carmen holds it now, Erin waits."""
    from volley_app.services.subs import invites, request_replies

    order = [_id(people[n]) for n in ("ben", "carmen", "erin")]
    invites.invite_in_order(db, _actor(people["frank"]), _id(req), sub_ids=order, if_nobody="open",
                            now=now - dt.timedelta(minutes=40))  # fmt: skip
    request_replies.decline(db, _actor(people["ben"]), _id(req), now=now - dt.timedelta(minutes=25))


def _id(row: Team | User | League | LeagueSession | Game | SubRequest) -> int:
    """The id of a row the database has stored (the seed flushes before it reads one)."""
    assert row.id is not None
    return row.id


def _actor(user: User) -> Actor:
    return Actor(user_id=_id(user), username=user.username, roles=tuple(user.roles), first_name=user.first_name)
