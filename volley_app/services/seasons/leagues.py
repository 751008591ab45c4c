"""Leagues: the fields of spec section 5, stage over time, who sees and manages which, the bracket."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Sequence
from typing import TypedDict
from urllib.parse import urlencode

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import (
    Day,
    Game,
    League,
    LeagueFormat,
    LeagueSession,
    LeagueStage,
    Payment,
    Ranking,
    Role,
    SkillLevel,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.models.leagues import CAPTAIN_PAYS, PAYMENT_MODES
from volley_app.services.accounts import auth, venues
from volley_app.services.core import audit, clock, paging, timefmt, uploads, validation
from volley_app.services.core.actors import Actor, load, require_actor, require_admin, require_role
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.seasons import fees, sessions
from volley_app.services.seasons.league_data import (
    FORMAT_LABELS,
    archive_notes,
    delete_children,
    display_name,
    paid_teams,
    played_games,
    tell_captains_archived,
)
from volley_app.settings import get_settings

log = logging.getLogger(__name__)

MAX_WEEKS = 52
MAX_TEAMS = 64
OFFER_HOURS = (1, 336)  # how long a place offered to a waitlisted team may be held: an hour to two weeks


def name_column() -> sa.ColumnElement[str]:
    """``display_name`` in SQL, for the search box ('Friday', 'Monday C 6s')."""
    fmt = sa.case({f.value: label for f, label in FORMAT_LABELS.items()}, value=sa.cast(League.format, sa.String(30)),
                  else_="")  # fmt: skip
    return sa.cast(League.day, sa.String(20)) + " " + sa.cast(League.skill_level, sa.String(20)) + " " + fmt


MAX_COURTS = 12


def court_names(league: League) -> list[str]:
    """The courts the league plays on, in the order games fill them (the first is ``league.court``)."""
    if league.courts:
        return [c for c in league.courts.split("\n") if c]
    return [league.court]


def _more_courts(value: object, first: str) -> list[str]:
    """The courts after the first, one a line (or separated by commas): trimmed, each once."""
    text = value if isinstance(value, str) else ""
    names: list[str] = []
    seen = {first.casefold()}
    for part in text.replace(",", "\n").split("\n"):
        name = " ".join(part.split())
        if not name or name.casefold() in seen:
            continue
        if len(name) > 100:
            raise Invalid({"more_courts": "Each court's name must be at most 100 characters"})
        seen.add(name.casefold())
        names.append(name)
    if len(names) + 1 > MAX_COURTS:
        raise Invalid({"more_courts": f"A league plays on at most {MAX_COURTS} courts"})
    return names


def _set_courts(row: League, first: str, more: list[str] | None) -> None:
    """Store the courts: ``more`` None keeps the other courts as they are (a form without the field)."""
    others = court_names(row)[1:] if more is None and row.court else (more or [])
    others = [c for c in others if c.casefold() != first.casefold()]
    row.court = first
    row.courts = "\n".join([first, *others]) if others else None


def zone(db: Session, league: League) -> str:
    """The time zone of the league's venue: its dates are entered and shown in it."""
    return venues.zone(db, league.svl_id)


def registration_closes(league: League) -> dt.datetime:
    """When registration and the waitlist close: the deadline the operator set, else the league's start."""
    return league.registration_deadline or league.start_at


def _deadline(value: object, start: dt.datetime, weeks: int, zone: str | None = None) -> dt.datetime | None:
    """The registration deadline field: blank means the league's start; no later than its last week."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    when = timefmt.parse_local(value, "registration_deadline", "Registration deadline", zone)
    if when > start + dt.timedelta(days=7 * max(weeks - 1, 0)):
        raise Invalid({"registration_deadline": "Registration must close by the league's last week"})
    return when


POLICY_FIELDS = ("refund_full_until", "refund_until", "refund_fee_cents")
POLICY_ORDER = "Refunds less the fee must run until after the full-refund date"


def _when(value: object, field: str, label: str, zone: str | None) -> dt.datetime | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return timefmt.parse_local(value, field, label, zone)


def _policy(fields: dict, zone: str | None, current: League | None) -> dict:
    """The refund policy's columns from a form that has them (one without them leaves them as they are)."""
    if not any(k in fields for k in ("refund_full_until", "refund_until", "refund_fee")):
        return {k: getattr(current, k) for k in POLICY_FIELDS} if current is not None else {}
    clean = validation.collect(
        refund_full_until=(_when, fields.get("refund_full_until"), "refund_full_until", "Full refund until", zone),
        refund_until=(_when, fields.get("refund_until"), "refund_until", "Refund less the fee until", zone),
        refund_fee_cents=(validation.money_cents, fields.get("refund_fee") or "0", "refund_fee", "Refund fee",
                          COST_MAX_DOLLARS),
    )  # fmt: skip
    full, until = clean["refund_full_until"], clean["refund_until"]
    if full is not None and until is not None and until <= full:
        raise Invalid({"refund_until": POLICY_ORDER})
    if until is None:
        clean["refund_fee_cents"] = 0
    return clean


SHARE_FIELDS = ("payment_mode", "deposit_cents", "shares_due_at")
BAD_MODE = "Choose who pays: the captain, or each player a share"
DEPOSIT_TOO_BIG = "The deposit must be less than the team's fee of {fee}"
SHARES_DUE_LATE = "Shares must be due by the league's last week"


def _shares(fields: dict, zone: str | None, current: League | None, start: dt.datetime, weeks: int,
            fee_cents: int) -> dict:  # fmt: skip
    """Who pays the team's fee, the deposit that holds a place and when the shares are due, from a form that has
    them (one without them leaves them as they are)."""
    if "payment_mode" not in fields:
        return {k: getattr(current, k) for k in SHARE_FIELDS} if current is not None else {}
    mode = fields.get("payment_mode") or CAPTAIN_PAYS
    if mode not in PAYMENT_MODES:
        raise Invalid({"payment_mode": BAD_MODE})
    if mode == CAPTAIN_PAYS:
        return {"payment_mode": mode, "deposit_cents": 0, "shares_due_at": None}
    clean = validation.collect(
        deposit_cents=(validation.money_cents, fields.get("deposit") or "0", "deposit", "Deposit", COST_MAX_DOLLARS),
        shares_due_at=(_when, fields.get("shares_due"), "shares_due", "Shares due by", zone),
    )  # fmt: skip
    if clean["deposit_cents"] >= fee_cents:
        raise Invalid({"deposit": DEPOSIT_TOO_BIG.format(fee=fees.money(fee_cents))})
    due = clean["shares_due_at"]
    if due is not None and due > start + dt.timedelta(days=7 * max(weeks - 1, 0)):
        raise Invalid({"shares_due": SHARES_DUE_LATE})
    return {"payment_mode": mode, **clean}


def _agent_fee(fields: dict, current: League | None) -> dict:
    """The free agents' fee from a form that has it (blank: the league takes no free agents; a form without it
    leaves it as it is)."""
    if "agent_fee" not in fields:
        return {"agent_fee_cents": current.agent_fee_cents} if current is not None else {}
    value = fields.get("agent_fee")
    if value is None or (isinstance(value, str) and not value.strip()):
        return {"agent_fee_cents": None}
    return {"agent_fee_cents": validation.money_cents(value, "agent_fee", "Free agent fee", COST_MAX_DOLLARS)}


def stage_at(league: League, now: dt.datetime) -> LeagueStage:
    """Spec section 4, from the dates each time: Active once the start has passed, Registration before
    it (a start moved back into the future moves the stage back too). Inactive is left alone."""
    if league.stage == LeagueStage.INACTIVE:
        return LeagueStage.INACTIVE
    return LeagueStage.ACTIVE if now > league.start_at else LeagueStage.REGISTRATION


def shown() -> sa.ColumnElement[bool]:
    """Leagues normal lists show: not archived."""
    return col(League.archived_at).is_(None)


def save_reached_stages(db: Session, now: dt.datetime | None = None) -> None:
    """Save the stage each league not Inactive has reached by ``now`` (the periodic sweep: reads compute the
    stage with :func:`stage_at` and write nothing)."""
    found = db.exec(select(League).where(League.stage != LeagueStage.INACTIVE, shown())).all()
    clock.save_reached(db, found, "stage", stage_at, now)


COST_MAX_DOLLARS = 10_000


def _int(value: object, field: str, label: str, low: int, high: int) -> int:
    return validation.whole_number(value, field, label, low, high)


def _dollars(value: object) -> int:
    """Cost entered in dollars ("300" or "299.50") as cents."""
    return validation.money_cents(value, "cost", "Cost", COST_MAX_DOLLARS)


SETS_CHOICES = [("", "Best of 3 (set 3 after a split)"), ("3", "Always 3 sets")]
"""How many sets a league's matches have (``League.sets_to_play``): blank a best of three, 3 always three sets."""


def _sets_to_play(value: object) -> int | None:
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else None
    by_value = {v: (int(v) if v else None) for v, _label in SETS_CHOICES}
    if text not in by_value:
        raise Invalid({"sets_to_play": "Choose how many sets a match has: " + " or ".join(label for _v, label in SETS_CHOICES)})
    return by_value[text]


# Players on court, and a roster's fewest and most members, by the league's format (a league may set its own sizes).
ON_COURT: dict[LeagueFormat, int] = {
    LeagueFormat.DOUBLES: 2, LeagueFormat.QUADS: 4, LeagueFormat.REVERSE_QUADS: 4, LeagueFormat.FIVES: 5,
    LeagueFormat.SIXES: 6,
}  # fmt: skip
ROSTER_SIZES: dict[LeagueFormat, tuple[int, int]] = {
    LeagueFormat.DOUBLES: (2, 4), LeagueFormat.QUADS: (4, 8), LeagueFormat.REVERSE_QUADS: (4, 8),
    LeagueFormat.FIVES: (5, 10), LeagueFormat.SIXES: (6, 12),
}  # fmt: skip
MAX_ROSTER = 30
MAX_TEAMS_PER_PLAYER = 10
SUB_LEVELS = 3  # ratings run A to D: three levels from top to bottom

RULE_FIELDS = ("roster_min", "roster_max", "teams_per_player", "women_on_court", "subs_from_other_teams",
               "sub_levels_below", "sub_levels_above", "playoff_min_games", "playoff_subs_approved")  # fmt: skip
"""A league's roster and sub rules: what the form's Rosters and subs part sets (a rule left out stays as it is)."""

# A new league's rules: the format's roster sizes, one team a player, no women-on-court rule, subs of any rating
# from anywhere, no playoff minimum, playoff subs without approval.
DEFAULT_RULES: dict[str, int | bool | None] = {
    "roster_min": None, "roster_max": None, "teams_per_player": 1, "women_on_court": None,
    "subs_from_other_teams": True, "sub_levels_below": None, "sub_levels_above": None, "playoff_min_games": None,
    "playoff_subs_approved": False,
}  # fmt: skip


def on_court(league: League) -> int:
    """The players one team has on court in the league's format."""
    return ON_COURT.get(league.format, 6)


def roster_size(league: League) -> tuple[int, int]:
    """The fewest and the most members a team of ``league`` may have: the league's own, else its format's."""
    low, high = ROSTER_SIZES.get(league.format, (2, 12))
    return (league.roster_min or low, league.roster_max or high)


def _optional_number(value: object, field: str, label: str, low: int, high: int) -> int | None:
    """A whole number within ``low``..``high``, or None when left blank."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return validation.whole_number(value, field, label, low, high)


def _yes_no(value: object, field: str, label: str) -> bool | None:
    """Yes or No as a select ("true"/"false") or JSON (true/false) sends it; None when left blank."""
    if isinstance(value, bool):
        return value
    text = value.strip().lower() if isinstance(value, str) else ""
    if value is None or (isinstance(value, str) and not text):
        return None
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise Invalid({field: f"{label}: choose Yes or No"})


def _rules(fields: dict, fmt: LeagueFormat, weeks: int, current: League | None) -> dict:
    """The roster and sub rules to store: those ``fields`` has, the others as ``current`` has them (a new league:
    the defaults), checked together against the league's format and weeks."""
    checks: dict[str, tuple[object, ...]] = {
        "roster_min": (_optional_number, "Roster minimum", 1, MAX_ROSTER),
        "roster_max": (_optional_number, "Roster maximum", 1, MAX_ROSTER),
        "teams_per_player": (_optional_number, "Teams per player", 1, MAX_TEAMS_PER_PLAYER),
        "women_on_court": (_optional_number, "Women on court", 0, max(ON_COURT.values())),
        "subs_from_other_teams": (_yes_no, "Subs from other teams"),
        "sub_levels_below": (_optional_number, "Sub levels below", 0, SUB_LEVELS),
        "sub_levels_above": (_optional_number, "Sub levels above", 0, SUB_LEVELS),
        "playoff_min_games": (_optional_number, "Playoff minimum games", 0, MAX_WEEKS),
        "playoff_subs_approved": (_yes_no, "Playoff subs need approval"),
    }
    given = validation.collect(**{
        name: (fn, fields[name], name, label, *bounds) for name, (fn, label, *bounds) in checks.items() if name in fields
    })  # fmt: skip
    rules = {k: getattr(current, k) for k in RULE_FIELDS} if current is not None else dict(DEFAULT_RULES)
    rules |= {k: v for k, v in given.items() if v is not None or checks[k][0] is not _yes_no}  # a blank choice: as it is
    rules["teams_per_player"] = rules["teams_per_player"] or 1
    rules["women_on_court"] = rules["women_on_court"] or None  # none needed: no rule
    rules["playoff_min_games"] = rules["playoff_min_games"] or None
    label, players = FORMAT_LABELS[fmt], ON_COURT.get(fmt, 6)
    low, high = ROSTER_SIZES.get(fmt, (2, 12))
    least, most = rules["roster_min"] or low, rules["roster_max"] or high
    errors: dict[str, str] = {}
    if least > most:
        errors["roster_min"] = (
            f"Roster minimum ({least}) is above the maximum ({most})" if rules["roster_max"]
            else f"Roster minimum ({least}) is above the most a {label} roster holds ({most}): set a maximum too"
        )  # fmt: skip
    if most < players:
        errors["roster_max"] = f"Roster maximum must be at least the {players} players a {label} team has on court"
    if (rules["women_on_court"] or 0) > players:
        errors["women_on_court"] = f"Women on court must be at most {players}: {label} puts {players} players on court"
    if (rules["playoff_min_games"] or 0) > weeks:
        errors["playoff_min_games"] = f"Playoff minimum games must be at most the league's {weeks} weeks"
    if errors:
        raise Invalid(errors)
    return rules


def _clean(fields: dict, zone: str | None = None, current: League | None = None) -> dict:
    """Check the required set of spec section 5 (dates on the wall clock of the venue's ``zone``) and the roster and
    sub rules (those ``fields`` leaves out stay as ``current`` has them); returns the columns to store."""
    hold: dict[str, tuple[object, ...]] = {}  # a form without the field leaves the hold window as it is (48 hours for a new league)
    if "offer_hold_hours" in fields:
        hold["offer_hold_hours"] = (_int, fields["offer_hold_hours"], "offer_hold_hours", "Offer hold", *OFFER_HOURS)
    if fields.get("ranking") not in (None, ""):  # without it the order stays (the standard one for a new league)
        hold["ranking"] = (validation.choice, fields["ranking"], Ranking, "ranking", "Standings order")
    clean = validation.collect(
        gender_requirement=(validation.optional, fields.get("gender_requirement"), "gender_requirement",
                            "Gender requirement", 100),
        court=(validation.name, fields.get("court"), "court", "Court"),
        start_at=(timefmt.parse_local, fields.get("start"), "start", "Start date and time", zone),
        number_of_weeks=(_int, fields.get("number_of_weeks"), "number_of_weeks", "Number of weeks", 1, MAX_WEEKS),
        time_increment=(_int, fields.get("time_increment"), "time_increment", "Time increment", 1, 600),
        skill_level=(validation.choice, fields.get("skill_level"), SkillLevel, "skill_level", "Skill level"),
        format=(validation.choice, fields.get("format"), LeagueFormat, "format", "Format"),
        day=(validation.choice, fields.get("day"), Day, "day", "Day"),
        max_teams=(_int, fields.get("max_teams"), "max_teams", "Max teams", 2, MAX_TEAMS),
        cost_cents=(_dollars, fields.get("cost")),
        **hold,
    )
    clean["gender_requirement"] = clean["gender_requirement"] or None
    if "sets_to_play" in fields:  # without it the number of sets stays (a best of three for a new league)
        clean["sets_to_play"] = _sets_to_play(fields["sets_to_play"])
    if "registration_deadline" in fields:
        clean["registration_deadline"] = _deadline(
            fields["registration_deadline"], clean["start_at"], clean["number_of_weeks"], zone
        )
    clean["more_courts"] = _more_courts(fields["more_courts"], clean["court"]) if "more_courts" in fields else None
    weekday = timefmt.local(clean["start_at"], zone).strftime("%A")
    if clean["day"].value != weekday:
        raise Invalid({"day": f"Day must match the start date, a {weekday}"})
    fee = fees.priced(clean["cost_cents"], clean["format"], validation.flag(fields.get("cash"))).total_cents
    shared = _shares(fields, zone, current, clean["start_at"], clean["number_of_weeks"], fee)
    rules = _rules(fields, clean["format"], clean["number_of_weeks"], current)
    return clean | rules | _policy(fields, zone, current) | shared | _agent_fee(fields, current)


def cash_allowed(db: Session, svl_id: int) -> bool:
    """The cash-only choice exists only for the one SVL named in settings (CASH_ONLY_SVL)."""
    name = get_settings().cash_only_svl
    if not name:
        return False
    svl = db.get(User, svl_id)
    return svl is not None and svl.username == name.strip().lower()


ARCHIVED = "This league is archived. An admin can restore it first."


def managed(db: Session, actor: Actor | None, league_id: object) -> League:
    """The league when the actor is its SVL or an admin; else Unauthorized/Forbidden/NotFound."""
    return access_league(db, actor, league_id, manage=True)


def changeable(db: Session, actor: Actor | None, league_id: object) -> League:
    """A league its SVL or an admin may change: managed, and not archived."""
    row = managed(db, actor, league_id)
    if row.archived_at is not None:
        raise Invalid(ARCHIVED)
    return row


LEAGUE_FIELDS = (
    "court", "start_at", "number_of_weeks", "time_increment", "skill_level", "format", "day", "max_teams",
    "cost_cents", "cash", "gender_requirement", "active", "offer_hold_hours", "ranking", "courts", "registration_deadline",
    "sets_to_play", *RULE_FIELDS, *POLICY_FIELDS, *SHARE_FIELDS, "agent_fee_cents",
)  # fmt: skip


def create_league(db: Session, actor: Actor | None, *, session_id: object, **fields) -> League:
    """A new league in a session the actor manages; venue address from the session's SVL."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    session_row = sessions.managed(db, actor, session_id)[1]
    clean = _clean(fields, venues.zone(db, session_row.svl_id))
    more = clean.pop("more_courts")
    svl = db.get(User, session_row.svl_id)
    clean["cash"] = validation.flag(fields.get("cash")) and cash_allowed(db, session_row.svl_id)
    assert session_row.id is not None  # a stored session
    row = League(
        session_id=session_row.id, svl_id=session_row.svl_id, stage=LeagueStage.REGISTRATION, active=True,
        schedule_generated=False, address=svl.address if svl else None, city=svl.city if svl else None,
        region=svl.region if svl else None, **clean,
    )  # fmt: skip
    _set_courts(row, row.court, more or [])
    db.add(row)
    db.flush()
    audit.record(
        db, actor, action="create", entity="league", entity_id=row.id, league_id=row.id,
        summary=f"League {display_name(row)} created in {session_row.name}", after=audit.snapshot(row, LEAGUE_FIELDS),
    )  # fmt: skip
    return row


def _roster_fits(db: Session, league: League, clean: dict) -> None:
    """Refuse a roster maximum below a current roster of the league's teams (members are never removed by it)."""
    most = clean.get("roster_max") or ROSTER_SIZES.get(clean.get("format", league.format), (2, 12))[1]
    largest = db.exec(
        select(Team.team_name, sa.func.count()).join(TeamMember, col(TeamMember.team_id) == Team.id)
        .where(Team.league_id == league.id, col(TeamMember.left_at).is_(None), col(Team.withdrawn_at).is_(None))
        .group_by(col(Team.id), col(Team.team_name)).order_by(sa.func.count().desc(), col(Team.id)).limit(1)
    ).first()  # fmt: skip
    if largest is not None and largest[1] > most:
        raise Invalid({"roster_max": f"Roster maximum ({most}) is below {largest[0]}'s {largest[1]} members"})


def update_league(db: Session, actor: Actor | None, league_id: object, **fields) -> League:
    """Change a league (its SVL or an admin): the same required set, plus the active flag. Audited."""
    row = changeable(db, actor, league_id)
    before = audit.snapshot(row, LEAGUE_FIELDS)
    clean = _clean(fields, zone(db, row), row)
    _roster_fits(db, row, clean)
    more = clean.pop("more_courts")
    first = clean.pop("court")
    for key, value in clean.items():
        setattr(row, key, value)
    _set_courts(row, first, more)
    row.cash = validation.flag(fields.get("cash")) and cash_allowed(db, row.svl_id)
    if "active" in fields:
        row.active = validation.flag(fields.get("active"))
    audit.save_change(
        db, actor, entity="league", row=row, before=before, fields=LEAGUE_FIELDS, league_id=row.id,
        summary=f"League {display_name(row)} changed",
    )  # fmt: skip
    return row


def contents(db: Session, league: League) -> dict[str, int]:
    """What a league holds that history needs: teams (and how many paid), played games, payments."""
    assert league.id is not None  # a stored league
    teams = db.exec(select(Team).where(Team.league_id == league.id)).all()
    payments = db.exec(select(sa.func.count()).select_from(Payment).where(Payment.league_id == league.id)).one()
    return {
        "teams": len(teams),
        "paid_teams": sum(1 for t in teams if t.paid),
        "played_games": played_games(db, league.id),
        "payments": payments,
    }


def removal_question(db: Session, league: League) -> str:
    """The delete confirmation: what will be archived, or that the empty league is deleted."""
    held = contents(db, league)
    assert league.id is not None  # a stored league
    if not any(held.values()):
        return f"Are you sure you want to delete League: {display_name(league)}? It has no teams or payments."
    parts = [timefmt.plural(held["teams"], "team")]
    if held["paid_teams"]:
        parts[0] += f" ({held['paid_teams']} paid)"
    if held["played_games"]:
        parts.append(timefmt.plural(held["played_games"], "game") + " with results")
    if held["payments"]:
        parts.append(timefmt.plural(held["payments"], "payment"))
    question = (
        f"League: {display_name(league)} has {', '.join(parts)}. It will be archived: hidden from every list, "
        f"with its teams, games and payments kept. An admin can restore it."
    )
    return question + archive_notes(paid_teams(db, league.id), held["teams"])


def delete_league(db: Session, actor: Actor | None, league_id: object) -> str:
    """Remove a league (its SVL or an admin); returns its display name.

    A league holding teams, results or payments is archived (kept whole, restorable by an admin);
    only an empty one is deleted.
    """
    row = changeable(db, actor, league_id)
    assert actor is not None and row.id is not None  # changeable: a stored league, for its SVL or an admin
    name = display_name(row)
    held = contents(db, row)
    if any(held.values()):
        row.archived_at, row.archived_by_id = utcnow(), actor.user_id
        db.add(row)
        db.flush()
        audit.record(
            db, actor, action="archive", entity="league", entity_id=row.id, league_id=row.id,
            summary=f"League {name} archived", after=held,
        )  # fmt: skip
        tell_captains_archived(db, row)
        return name
    delete_children(db, row.id)
    audit.record(db, actor, action="delete", entity="league", entity_id=row.id, league_id=row.id,
                 summary=f"League {name} deleted (it had no teams or payments)")  # fmt: skip
    return name


def restore_league(db: Session, actor: Actor | None, league_id: object) -> str:
    """Bring an archived league back (admins only); its session comes back with it."""
    actor = require_admin(actor)
    row = managed(db, actor, league_id)
    if row.archived_at is None:
        raise Invalid("This league is not archived")
    row.archived_at, row.archived_by_id = None, None
    db.add(row)
    session_row = db.get(LeagueSession, row.session_id)
    if session_row is not None and session_row.archived_at is not None:
        session_row.archived_at, session_row.archived_by_id = None, None
        db.add(session_row)
    db.flush()
    audit.record(db, actor, action="restore", entity="league", entity_id=row.id, league_id=row.id,
                 summary=f"League {display_name(row)} restored")  # fmt: skip
    return display_name(row)


def _session_names(db: Session, ids: Iterable[int]) -> dict[int, str]:
    wanted = set(ids)
    if not wanted:
        return {}
    found = db.exec(select(LeagueSession).where(col(LeagueSession.id).in_(wanted))).all()
    return {s.id: s.name for s in found if s.id is not None}


class LeagueSummary(TypedDict):
    """A league as lists show it."""

    id: int
    name: str
    session_id: int
    session_name: str
    svl_name: str
    court: str
    day: str
    skill_level: str
    format: str
    start_at: dt.datetime
    zone: str
    stage: str
    active: bool
    cost_cents: int
    cash: bool
    max_teams: int
    archived: bool


class LeagueDetail(LeagueSummary):
    """A league's home: the summary, its other fields, and what the reader may do there."""

    number_of_weeks: int
    first_court: str
    registration_deadline: dt.datetime | None
    registration_closes: dt.datetime
    more_courts: str
    time_increment: int
    gender_requirement: str
    raw_format: str
    schedule_generated: bool
    address: str
    city: str
    region: str
    team_count: int
    waitlist_count: int
    can_manage: bool
    can_restore: bool
    show_audit: bool
    show_payments: bool
    delete_question: str
    cash_allowed: bool
    show_cash: bool
    offer_hold_hours: int
    ranking: str
    sets_to_play: str
    has_bracket: bool
    bracket_type: str
    roster_min: int | None
    roster_max: int | None
    teams_per_player: int
    refund_full_until: dt.datetime | None
    refund_until: dt.datetime | None
    refund_fee_cents: int
    payment_mode: str
    deposit_cents: int
    shares_due_at: dt.datetime | None
    agent_fee_cents: int | None  # free agents' fee (None: the league takes none)
    women_on_court: int | None
    subs_from_other_teams: bool
    sub_levels_below: int | None
    sub_levels_above: int | None
    playoff_min_games: int | None
    playoff_subs_approved: bool
    rules: list[str]


def summary(
    league: League, session_names: dict[int, str], svl_names: dict[int, str], zones: dict[int, str] | None = None,
    now: dt.datetime | None = None,
) -> LeagueSummary:
    """A league as lists show it, its stage as of ``now``; ``zone`` is its venue's time zone (from ``zones``,
    read once per list)."""
    assert league.id is not None  # a stored league
    return {
        "id": league.id,
        "name": display_name(league),
        "session_id": league.session_id,
        "session_name": session_names.get(league.session_id, ""),
        "svl_name": svl_names.get(league.svl_id, ""),
        "court": ", ".join(court_names(league)),
        "day": league.day.value,
        "skill_level": league.skill_level.value,
        "format": FORMAT_LABELS[league.format],
        "start_at": league.start_at,
        "zone": (zones or {}).get(league.svl_id) or timefmt.default_name(),
        "stage": stage_at(league, now or utcnow()).value,
        "active": league.active,
        "cost_cents": league.cost_cents,
        "cash": league.cash,
        "max_teams": league.max_teams,
        "archived": league.archived_at is not None,
    }


def summaries(db: Session, found: Sequence[League], now: dt.datetime | None = None) -> list[LeagueSummary]:
    """Leagues as lists show them (their sessions', venues' names and time zones read once for all)."""
    snames = _session_names(db, [lg.session_id for lg in found])
    vnames = venues.svl_names(db, [lg.svl_id for lg in found])
    vzones = venues.zones(db, [lg.svl_id for lg in found])
    return [summary(lg, snames, vnames, vzones, now) for lg in found]


def list_leagues(
    db: Session, actor: Actor | None, *, session_id: object = None, now: dt.datetime | None = None
) -> list[LeagueSummary]:
    """Active leagues (stages as of ``now``). SVLs: only those in their current sessions; others: all active.

    With ``session_id`` (SVL/admin): every league of that one session, active or not.
    """
    actor = require_actor(actor)
    now = now or utcnow()
    stmt = select(League).where(shown()).order_by(col(League.start_at), col(League.id))
    if session_id not in (None, ""):
        session_row = sessions.managed(db, actor, session_id)[1]
        stmt = stmt.where(League.session_id == session_row.id)
    else:
        stmt = stmt.where(col(League.active).is_(True))
        if actor.is_svl and not actor.is_admin:
            current = sessions.current_session_ids(db, actor.user_id, now)
            stmt = stmt.where(League.svl_id == actor.user_id, col(League.session_id).in_(current or [-1]))
    return summaries(db, db.exec(stmt).all(), now)


# The filters of the leagues list: free text (league name, venue, session, court), the day, the format, the skill level.
LEAGUE_FILTERS = ("q", "day", "format", "skill")


# The orders of the leagues list: by start (the default) or latest start first.
LEAGUE_ORDERS = {
    "start": paging.Order((col(League.start_at), col(League.id)), (dt.datetime, int)),
    "-start": paging.Order((col(League.start_at).desc(), col(League.id).desc()), (dt.datetime, int)),
}


def leagues_page(
    db: Session,
    actor: Actor | None,
    *,
    filters: dict | None = None,
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
    now: dt.datetime | None = None,
    session_id: object = None,
    sort: object = "",
) -> paging.Page:
    """One page of the active leagues by start (``sort`` "-start": latest first), as ``list_leagues`` picks them
    for the actor (stages as of ``now``).

    ``filters``: ``q`` (the league's name such as 'Monday C 6s', the venue's name, the session's name or the court),
    ``day``, ``format`` and ``skill``.
    With ``session_id`` (its SVL or an admin): every league of that one session, active or not.
    """
    actor = require_actor(actor)
    order = paging.sort_order(sort, LEAGUE_ORDERS)
    now = now or utcnow()
    f = filters if isinstance(filters, dict) else {}
    if session_id not in (None, ""):
        where = [shown(), col(League.session_id) == sessions.managed(db, actor, session_id)[1].id]
    else:
        where = [shown(), col(League.active).is_(True)]
    if session_id in (None, "") and actor.is_svl and not actor.is_admin:
        current = sessions.current_session_ids(db, actor.user_id, now)
        where += [col(League.svl_id) == actor.user_id, col(League.session_id).in_(current or [-1])]
    if day := paging.choice(f.get("day"), Day.values()):
        where.append(col(League.day) == Day(day))
    if fmt := paging.choice(f.get("format"), LeagueFormat.values()):
        where.append(col(League.format) == LeagueFormat(fmt))
    if skill := paging.choice(f.get("skill"), SkillLevel.values()):
        where.append(col(League.skill_level) == SkillLevel(skill))
    query = select(League)
    if text := paging.search_text(f.get("q")):
        venue = col(User.first_name) + " " + col(User.last_name)
        query = query.join(User, col(User.id) == League.svl_id).join(LeagueSession, col(LeagueSession.id) == League.session_id)
        where.append(paging.contains(text, venue, col(LeagueSession.name), col(League.court), name_column()))
    query = query.where(*where).order_by(*order.columns)

    def project(found: list) -> list[LeagueSummary]:
        return summaries(db, [r[0] for r in found], now)

    return paging.keyset(
        db, query, kinds=order.kinds, project=project, bookmark=bookmark, size=paging.page_size(size)
    )


def get_league(db: Session, actor: Actor | None, league_id: object, now: dt.datetime | None = None) -> LeagueDetail:
    """A league's home: anyone logged in may read it; ``can_manage`` says whether the actions show."""
    row = access_league(db, actor, league_id)
    assert actor is not None  # access_league: someone logged in
    base = summaries(db, [row], now)[0]
    teams = db.exec(select(Team).where(Team.league_id == row.id, col(Team.withdrawn_at).is_(None))).all()
    managing = may_manage(actor, row)
    return {
        **base,
        "number_of_weeks": row.number_of_weeks,
        "first_court": row.court,
        "registration_deadline": row.registration_deadline,
        "registration_closes": registration_closes(row),
        "more_courts": "\n".join(court_names(row)[1:]),
        "time_increment": row.time_increment,
        "gender_requirement": row.gender_requirement or "",
        "raw_format": row.format.value,
        "schedule_generated": row.schedule_generated,
        "address": row.address or "",
        "city": row.city or "",
        "region": row.region.value if row.region else "",
        "team_count": sum(1 for t in teams if not t.waitlist),
        "waitlist_count": sum(1 for t in teams if t.waitlist),
        "can_manage": managing and row.archived_at is None,
        "can_restore": actor.is_admin and row.archived_at is not None,
        "show_audit": actor.is_admin,
        "show_payments": managing,
        "delete_question": removal_question(db, row) if managing and row.archived_at is None else "",
        "cash_allowed": cash_allowed(db, row.svl_id),
        "show_cash": managing and cash_allowed(db, row.svl_id),
        "offer_hold_hours": row.offer_hold_hours,
        "ranking": row.ranking.value,
        "sets_to_play": str(row.sets_to_play or ""),
        "has_bracket": bool(row.tournament_file),
        "bracket_type": row.tournament_content_type or "",
        "roster_min": row.roster_min, "roster_max": row.roster_max, "teams_per_player": row.teams_per_player,
        "women_on_court": row.women_on_court, "subs_from_other_teams": row.subs_from_other_teams,
        "sub_levels_below": row.sub_levels_below, "sub_levels_above": row.sub_levels_above,
        "playoff_min_games": row.playoff_min_games, "playoff_subs_approved": row.playoff_subs_approved,
        "rules": rules_in_words(row),
        "refund_full_until": row.refund_full_until, "refund_until": row.refund_until,
        "refund_fee_cents": row.refund_fee_cents, "payment_mode": row.payment_mode,
        "deposit_cents": row.deposit_cents, "shares_due_at": row.shares_due_at,
        "agent_fee_cents": row.agent_fee_cents,
    }


class LeagueRules(TypedDict):
    """A league's name and its roster and sub rules in words."""

    name: str
    rules: list[str]


def league_rules(db: Session, actor: Actor | None, league_id: object) -> LeagueRules:
    """The league's roster and sub rules as they apply, for anyone who may read the league."""
    row = access_league(db, actor, league_id)
    return {"name": display_name(row), "rules": rules_in_words(row)}


def _levels(n: int) -> str:
    return f"{'one' if n == 1 else n} level{'' if n == 1 else 's'}"


def _sub_levels(league: League) -> str:
    """'Subs rated at most one level below and not above C' (or 'Subs of any rating')."""
    below, above = league.sub_levels_below, league.sub_levels_above
    if below is None and above is None:
        return "Subs of any rating"
    parts = []
    if below is not None:
        parts.append(f"at most {_levels(below)} below" if below else "not below")
    if above is not None:
        parts.append(f"at most {_levels(above)} above" if above else "not above")
    return f"Subs rated {' and '.join(parts)} {league.skill_level.value}"


def rules_in_words(league: League) -> list[str]:
    """The league's roster and sub rules as they apply (its own, else its format's), one sentence each."""
    low, high = roster_size(league)
    teams = league.teams_per_player
    lines = [
        f"Rosters: {low}–{high} players",
        "A player may be on " + ("one team" if teams <= 1 else f"up to {teams} teams") + " in this league",
    ]
    if league.women_on_court:
        lines.append(f"At least {league.women_on_court} wom{'a' if league.women_on_court == 1 else 'e'}n on court")
    lines.append("Subs may be rostered on another of the league's teams" if league.subs_from_other_teams
                 else "Subs may not be rostered on another of the league's teams")  # fmt: skip
    lines.append(_sub_levels(league))
    if league.playoff_min_games:
        games = league.playoff_min_games
        lines.append(f"Playoffs: a rostered player needs {games} regular-season game{'' if games == 1 else 's'} played")
    if league.playoff_subs_approved:
        lines.append("Playoffs: a sub plays only with the operator's approval")
    return lines


def bracket_link(db: Session, actor: Actor | None, league_id: object, *, now: dt.datetime | None = None) -> str:
    """The address of the tournament bracket's file for this actor ("" when none): a link signed for them.

    Anyone who may read the league gets one; the file route checks the signature, and the league again.
    """
    row = access_league(db, actor, league_id)
    if not row.tournament_file or actor is None:
        return ""
    assert row.id is not None  # a stored league
    query = uploads.ticket(actor.user_id, _bracket_subject(row), now or utcnow())
    return f"{routes.bracket_file_path(row.id)}?{urlencode(query)}"


def _bracket_subject(row: League) -> str:
    return f"bracket:{row.id}:{row.tournament_file}"


def bracket_file(
    db: Session, actor: Actor | None, league_id: object, *, link: dict[str, str] | None = None, now: dt.datetime | None = None
) -> dict:
    """The tournament bracket's bytes, type and entity tag for the file route.

    The reader is ``actor`` (a bearer token), else the user a signed ``link`` was made for; either must
    still be allowed to read the league. A link to a replaced bracket no longer works.
    """
    row = load(db, League, league_id, LEAGUE_NOT_FOUND)
    if actor is None and link and row.tournament_file:
        uid = uploads.ticket_holder(link, _bracket_subject(row), now or utcnow())
        actor = auth.holder(db, uid) if uid is not None else None
    row = access_league(db, actor, row.id)
    name = row.tournament_file
    data = uploads.read(db, name)
    if data is None or not name or not row.tournament_content_type:
        raise NotFound("There is no tournament bracket for this league")
    return {"data": data, "content_type": row.tournament_content_type, "etag": uploads.etag(name),
            "filename": uploads.download_name("tournament-bracket", name)}


def upload_bracket(db: Session, actor: Actor | None, league_id: object, *, data: object) -> League:
    """Replace the league's tournament bracket (its SVL or an admin) after the content and size check."""
    row = changeable(db, actor, league_id)
    content_type, ext = uploads.check(data)
    assert isinstance(data, bytes | bytearray)  # check refuses anything else
    old = row.tournament_file
    row.tournament_file = uploads.store(db, bytes(data), ext, content_type)
    row.tournament_content_type = content_type
    db.add(row)
    db.flush()
    audit.record(db, actor, action="upload", entity="league", entity_id=row.id, league_id=row.id,
                 summary=f"Tournament bracket {'replaced' if old else 'uploaded'} for {display_name(row)}")  # fmt: skip
    uploads.remove(db, old)
    return row


class PlayerLeagues(TypedDict):
    """The player leagues page: the leagues open for registration, the current ones, the partner venues."""

    registration: list[LeagueSummary]
    current: list[LeagueSummary]
    venues: list[dict]


def player_leagues(db: Session, actor: Actor | None, now: dt.datetime | None = None) -> PlayerLeagues:
    """The player leagues page: open for registration, current, and the partner venues (SVL accounts)."""
    actor = require_actor(actor)
    if actor.is_admin or actor.is_svl:
        raise Forbidden()
    now = now or utcnow()
    found = db.exec(select(League).where(col(League.active).is_(True), shown()).order_by(col(League.start_at), col(League.id)))
    rows = summaries(db, found.all(), now)
    return {
        "registration": [r for r in rows if r["start_at"] > now],
        "current": [r for r in rows if r["start_at"] <= now],
        "venues": venues.partner_venues(db),
    }


def svl_sessions_for_new_league(db: Session, actor: Actor | None) -> list[sessions.SessionRow]:
    """The sessions a new league may go in: the actor's current ones (admins: every current one)."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    return [s for s in sessions.list_sessions(db, actor) if s["status"] != "Inactive"]


class NewLeagueForm(TypedDict):
    """What the new league form offers: the sessions to choose from, and whether the cash-only choice shows."""

    sessions: list[sessions.SessionRow]
    show_cash: bool


def new_league_form(db: Session, actor: Actor | None) -> NewLeagueForm:
    """What the new league form offers: the sessions to choose from, and whether the cash-only choice shows.

    The cash-only choice shows when a league in one of those sessions may be cash-only (``cash_allowed``).
    """
    found = svl_sessions_for_new_league(db, actor)
    return {
        "sessions": found,
        "show_cash": any(cash_allowed(db, svl_id) for svl_id in {s["svl_id"] for s in found}),
    }


# --- loading a league or a game by id -------------------------------------------------------------

LEAGUE_NOT_FOUND = "This league no longer exists"
GAME_NOT_FOUND = "This game no longer exists"


def may_manage_league(actor: Actor | None, league: League) -> bool:
    """A league is managed by its own SVL and by admins."""
    return actor is not None and (actor.is_admin or (actor.is_svl and league.svl_id == actor.user_id))


def access_league(db: Session, actor: Actor | None, league_id: object, *, manage: bool = False) -> League:
    """The league with that id for this actor.

    To read it: anyone logged in, but an inactive league only for those who manage it (NotFound for the
    others). With ``manage``: only its SVL or an admin (Unauthorized / Forbidden otherwise). An archived
    league exists only for admins (who may see its payments and restore it).
    """
    if manage:
        actor = require_role(actor, Role.SVL, Role.ADMIN)
        row = load(db, League, league_id, LEAGUE_NOT_FOUND)
        if not may_manage_league(actor, row):
            raise Forbidden()
    else:
        actor = require_actor(actor)
        row = load(db, League, league_id, LEAGUE_NOT_FOUND)
        if not row.active and not may_manage_league(actor, row):
            raise NotFound(LEAGUE_NOT_FOUND)
    if row.archived_at is not None and not actor.is_admin:
        raise NotFound(LEAGUE_NOT_FOUND)
    return row


may_manage = may_manage_league


def access_game(db: Session, actor: Actor | None, game_id: object, *, manage: bool = False) -> Game:
    """The game with that id when the actor may read (``manage``: change) its league."""
    game = load(db, Game, game_id, GAME_NOT_FOUND)
    access_league(db, actor, game.league_id, manage=manage)
    return game
