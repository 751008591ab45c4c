"""Discount codes: a venue's operator makes them; a player enters one at checkout; and a player's credit, spent on a
registration after its discount.

A code belongs to a venue (an SVL's account) and is for one league, every league of one session, or every league of
the venue. Its uses are counted from the payments that name it: one that went through, or one still holding its place
(a hold that lapses frees its use). Every decision about a code's uses takes the code's lock first (:func:`_lock`: a
row lock on PostgreSQL, the database's write lock on SQLite), so ten players racing for its last use get one use
between them. The same goes for a player's credit: it is held by their pending payments (under the player's lock) and
spent, as a ledger row, when the payment is fulfilled.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import DiscountCode, League, LeagueSession, Payment, Role, User, utcnow
from volley_app.models.discounts import SCOPE_LEAGUE, SCOPE_SESSION, SCOPE_VENUE
from volley_app.models.ledger import CREDIT_SPENT, DISCOUNT
from volley_app.models.payments import PLACE
from volley_app.services.accounts import venues
from volley_app.services.core import audit, paging, timefmt, validation
from volley_app.services.core.actors import Actor, load, require_role
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.core.screens import Part, part
from volley_app.services.money import ledger
from volley_app.services.seasons import fees, leagues, sessions

CODE_NOT_FOUND = "Discount code not found"
# What the checkout says at the code's field.
UNKNOWN = "This code is not valid"
INACTIVE = "This code is no longer active"
EXPIRED = "This code has expired"
USED_UP = "This code has been used up"
USED_BY_YOU = "You have already used this code"
NOT_HERE = "This code is not for this league"
CODE_TAKEN = "You already have a code with this name"
CODE_RULE = "Code must be 3 to 40 letters, digits, - or _"
PERCENT_OR_AMOUNT = "Enter a percent or an amount, not both"
SCOPE_CHOICES = {SCOPE_LEAGUE: "One league", SCOPE_SESSION: "One session", SCOPE_VENUE: "Whole venue"}

# A payment that still counts its code's use: it went through, or it holds its place now.
_PENDING, _PROCESSING, _SUCCEEDED = "pending", "processing", "succeeded"


# --- the operator's codes -----------------------------------------------------------------------------------


class CodeRow(TypedDict):
    """A code as the operator's list and the API show it."""

    id: int
    code: str
    scope: str
    scope_id: int
    applies_to: str
    off: str
    percent: str
    amount: str
    max_uses: str
    per_player: str
    uses: str
    expires: str
    expires_input: str
    active: bool
    status: str
    venue: str


def _operator(actor: Actor | None) -> Actor:
    return require_role(actor, Role.SVL, Role.ADMIN)


def access_code(db: Session, actor: Actor | None, code_id: object, *, lock: bool = False) -> DiscountCode:
    """The code when the actor runs its venue (its SVL) or is an admin; else Unauthorized / Forbidden / NotFound."""
    actor = _operator(actor)
    row = load(db, DiscountCode, code_id, CODE_NOT_FOUND, lock=lock)
    if not actor.is_admin and row.svl_id != actor.user_id:
        raise Forbidden()
    return row


def _uses(db: Session, code_ids: list[int], now: dt.datetime) -> dict[int, int]:
    """Each code's uses taken: its payments that went through or hold their place at ``now``."""
    if not code_ids:
        return {}
    found = db.exec(
        select(Payment.discount_code_id, sa.func.count()).where(col(Payment.discount_code_id).in_(code_ids), _counts(now))
        .group_by(col(Payment.discount_code_id))
    ).all()  # fmt: skip
    return {cid: int(n) for cid, n in found if cid is not None}


def _counts(now: dt.datetime) -> sa.ColumnElement[bool]:
    """A payment whose code use counts: gone through, being charged, or holding its place."""
    status, expires = col(Payment.status), col(Payment.expires_at)
    return sa.or_(status.in_((_SUCCEEDED, _PROCESSING)),
                  sa.and_(status == _PENDING, expires.is_not(None), expires > now))  # fmt: skip


def _off(code: DiscountCode) -> str:
    return f"{code.percent}%" if code.percent is not None else fees.money(code.amount_cents or 0)


def _status(code: DiscountCode, used: int, now: dt.datetime) -> str:
    if not code.active:
        return "Inactive"
    if code.expires_at is not None and code.expires_at <= now:
        return "Expired"
    if code.max_uses is not None and used >= code.max_uses:
        return "Used up"
    return "Active"


def _rows(db: Session, found: list[DiscountCode]) -> list[CodeRow]:
    now = utcnow()
    ids = [c.id for c in found if c.id is not None]
    used = _uses(db, ids, now)
    league_ids = {c.league_id for c in found if c.league_id is not None}
    session_ids = {c.session_id for c in found if c.session_id is not None}
    league_names = {lg.id: leagues.display_name(lg)
                    for lg in db.exec(select(League).where(col(League.id).in_(league_ids or {-1})))}  # fmt: skip
    session_names = {s.id: s.name for s in db.exec(select(LeagueSession).where(col(LeagueSession.id).in_(session_ids or {-1})))}
    svl_ids = {c.svl_id for c in found}
    owners = {u.id: u.username for u in db.exec(select(User).where(col(User.id).in_(svl_ids or {-1})))}
    zones = venues.zones(db, svl_ids)
    out: list[CodeRow] = []
    for c in found:
        assert c.id is not None  # stored
        n = used.get(c.id, 0)
        zone = zones.get(c.svl_id) or timefmt.default_name()
        if c.scope == SCOPE_LEAGUE:
            where, scope_id = f"League: {league_names.get(c.league_id, '')}", c.league_id or 0
        elif c.scope == SCOPE_SESSION:
            where, scope_id = f"Session: {session_names.get(c.session_id, '')}", c.session_id or 0
        else:
            where, scope_id = "Every league of the venue", c.svl_id
        out.append({
            "id": c.id, "code": c.code, "scope": c.scope, "scope_id": scope_id, "applies_to": where, "off": _off(c),
            "percent": str(c.percent or ""), "amount": f"{(c.amount_cents or 0) / 100:.2f}" if c.amount_cents else "",
            "max_uses": str(c.max_uses or ""), "per_player": str(c.per_player or ""),
            "uses": f"{n} of {c.max_uses}" if c.max_uses is not None else str(n),
            "expires": timefmt.date_time(c.expires_at, zone, labelled=True) if c.expires_at else "Never",
            "expires_input": timefmt.input_value(c.expires_at, zone),
            "active": bool(c.active), "status": _status(c, n, now), "venue": owners.get(c.svl_id, ""),
        })  # fmt: skip
    return out


CODE_FILTERS = ("q",)


def codes_page(db: Session, actor: Actor | None, *, filters: dict[str, Any] | None = None, bookmark: object = "",
               size: object = paging.PAGE_SIZE) -> paging.Page:  # fmt: skip
    """One page of discount codes, newest first: an SVL's own, every venue's for an admin (``q``: part of the code)."""
    actor = _operator(actor)
    query = select(DiscountCode)
    if not actor.is_admin:
        query = query.where(DiscountCode.svl_id == actor.user_id)
    q = paging.search_text((filters or {}).get("q"))
    if q:
        query = query.where(paging.contains(q, col(DiscountCode.code)))
    query = query.order_by(col(DiscountCode.id).desc())
    return paging.keyset(db, query, kinds=(int,), bookmark=bookmark, size=paging.page_size(size),
                         project=lambda rows: _rows(db, [r[0] if isinstance(r, tuple | sa.Row) else r for r in rows]))  # fmt: skip


def code_screen(db: Session, actor: Actor | None, *, code_id: object) -> CodeRow:
    """One code as its operator sees it."""
    return _rows(db, [access_code(db, actor, code_id)])[0]


def _code_text(value: object) -> str:
    text = value.strip().upper() if isinstance(value, str) else ""
    if not text:
        raise Invalid({"code": "Code is required"})
    if not re.fullmatch(r"[A-Z0-9_-]{3,40}", text):
        raise Invalid({"code": CODE_RULE})
    return text


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


@dataclasses.dataclass
class _Terms:
    percent: int | None
    amount_cents: int | None
    max_uses: int | None
    per_player: int | None
    expires_at: dt.datetime | None


def _terms(values: dict[str, object], zone: str) -> _Terms:
    """What a code takes off and its limits, as the form or the API sent them; every field's message at once."""
    errors: dict[str, str] = {}
    out = _Terms(None, None, None, 1, None)

    def check(field: str, read):
        try:
            return read()
        except Invalid as exc:
            errors.update(exc.errors or {field: exc.message})
            return None

    percent, amount = values.get("percent"), values.get("amount")
    if not _blank(percent) and not _blank(amount):
        errors["percent"] = PERCENT_OR_AMOUNT
    elif _blank(percent) and _blank(amount):
        errors["percent"] = "Enter a percent (1 to 100) or an amount"
    elif not _blank(percent):
        out.percent = check("percent", lambda: validation.whole_number(percent, "percent", "Percent", 1, 100))
    else:
        cents = check("amount", lambda: validation.money_cents(amount, "amount", "Amount"))
        if cents is not None and cents <= 0:
            errors["amount"] = "Amount must be more than $0"
        out.amount_cents = cents
    if not _blank(values.get("max_uses")):
        out.max_uses = check("max_uses", lambda: validation.whole_number(values["max_uses"], "max_uses", "Max uses", 1, 100000))
    if "per_player" in values:
        out.per_player = None if _blank(values["per_player"]) else check(
            "per_player", lambda: validation.whole_number(values["per_player"], "per_player", "Uses per player", 1, 1000))
    if not _blank(values.get("expires")):
        out.expires_at = check("expires", lambda: timefmt.parse_local(values["expires"], "expires", "Expires", zone))
    if errors:
        raise Invalid(errors)
    return out


def _scope(db: Session, actor: Actor, scope: object, scope_id: object) -> tuple[str, int, int | None, int | None]:
    """The scope asked for: (scope, venue, league, session), each checked against what the actor runs."""
    kind = scope if isinstance(scope, str) and scope in SCOPE_CHOICES else ""
    if not kind:
        raise Invalid({"scope": "Choose what the code is for"})
    if kind == SCOPE_LEAGUE:
        if _blank(scope_id):
            raise Invalid({"scope_id": "Choose the league"})
        league = leagues.changeable(db, actor, scope_id)
        return kind, league.svl_id, league.id, None
    if kind == SCOPE_SESSION:
        if _blank(scope_id):
            raise Invalid({"scope_id": "Choose the session"})
        found = sessions.access_session(db, actor, scope_id)
        return kind, found.svl_id, None, found.id
    if not actor.is_admin:  # an SVL's venue is their own account
        return kind, actor.user_id, None, None
    if _blank(scope_id):
        raise Invalid({"scope_id": "Choose the venue"})
    venue = load(db, User, scope_id, "Venue not found")
    if Role.SVL.value not in (venue.roles or []):
        raise Invalid({"scope_id": "Choose a venue"})
    assert venue.id is not None  # stored
    return kind, venue.id, None, None


_AUDITED = ("code", "scope", "league_id", "session_id", "percent", "amount_cents", "max_uses", "per_player",
            "expires_at", "active")  # fmt: skip


def create_code(db: Session, actor: Actor | None, *, code: object, scope: object, scope_id: object = None,
                percent: object = None, amount: object = None, max_uses: object = None, per_player: object = 1,
                expires: object = None) -> CodeRow:  # fmt: skip
    """A new code for a league, a session or a venue the actor runs (an admin: any); audited."""
    actor = _operator(actor)
    text = _code_text(code)
    kind, svl_id, league_id, session_id = _scope(db, actor, scope, scope_id)
    terms = _terms({"percent": percent, "amount": amount, "max_uses": max_uses, "per_player": per_player,
                    "expires": expires}, venues.zone(db, svl_id))  # fmt: skip
    if db.exec(select(DiscountCode.id).where(DiscountCode.svl_id == svl_id, DiscountCode.code == text)).first():
        raise Invalid({"code": CODE_TAKEN})
    row = DiscountCode(code=text, svl_id=svl_id, scope=kind, league_id=league_id, session_id=session_id,
                       created_by_id=actor.user_id, **dataclasses.asdict(terms))  # fmt: skip
    db.add(row)
    db.flush()
    audit.record(db, actor, action="create", entity="discount_code", entity_id=row.id, league_id=league_id,
                 summary=f"Discount code {text} ({_off(row)} off) made", after=audit.snapshot(row, _AUDITED))  # fmt: skip
    return _rows(db, [row])[0]


def update_code(db: Session, actor: Actor | None, *, code_id: object, percent: object = None, amount: object = None,
                max_uses: object = None, per_player: object = 1, expires: object = None,
                active: object = True) -> CodeRow:  # fmt: skip
    """Change what a code takes off, its limits, its expiry, or deactivate it (its name and scope stay); audited.

    A use already held by a payment keeps the price it was given."""
    row = access_code(db, actor, code_id, lock=True)
    terms = _terms({"percent": percent, "amount": amount, "max_uses": max_uses, "per_player": per_player,
                    "expires": expires}, venues.zone(db, row.svl_id))  # fmt: skip
    before = audit.snapshot(row, _AUDITED)
    for name, value in dataclasses.asdict(terms).items():
        setattr(row, name, value)
    row.active = validation.flag(active)
    row.updated_at = utcnow()
    db.add(row)
    db.flush()
    audit.record_change(db, actor, entity="discount_code", row=row, before=before, fields=_AUDITED,
                        league_id=row.league_id, summary=f"Discount code {row.code} changed")  # fmt: skip
    return _rows(db, [row])[0]


class Choice(TypedDict):
    value: str
    label: str


class Scopes(TypedDict):
    """What the operator's form offers: their leagues and sessions (an admin's: every venue's), and the venues."""

    leagues: list[Choice]
    sessions: list[Choice]
    venues: list[Choice]


def _venues(db: Session) -> list[tuple[int, str]]:
    """Every active venue (SVL account): id and name, by name."""
    found = db.exec(select(User).where(col(User.active).is_(True)).order_by(col(User.username), col(User.id))).all()
    return [(u.id, f"{u.first_name} {u.last_name}".strip() or u.username) for u in found
            if u.id is not None and Role.SVL.value in (u.roles or [])]  # fmt: skip


def scope_choices(db: Session, actor: Actor | None) -> Scopes:
    """The leagues, sessions and venues a code may be made for by the actor (not archived)."""
    actor = _operator(actor)
    lq = select(League).where(col(League.archived_at).is_(None)).order_by(col(League.start_at).desc()).limit(200)
    sq = select(LeagueSession).where(col(LeagueSession.archived_at).is_(None)).order_by(col(LeagueSession.start_at).desc()).limit(100)
    if not actor.is_admin:
        lq, sq = lq.where(League.svl_id == actor.user_id), sq.where(LeagueSession.svl_id == actor.user_id)
    found_leagues, found_sessions = db.exec(lq).all(), db.exec(sq).all()
    names = {s.id: s.name for s in found_sessions}
    svls = _venues(db) if actor.is_admin else []
    return {
        "leagues": [{"value": str(lg.id), "label": f"{leagues.display_name(lg)} · {names.get(lg.session_id, '')}".rstrip(" ·")}
                    for lg in found_leagues],  # fmt: skip
        "sessions": [{"value": str(s.id), "label": s.name} for s in found_sessions],
        "venues": [{"value": str(uid), "label": name} for uid, name in svls],
    }


@dataclasses.dataclass(frozen=True)
class CodesScreen:
    """The operator's discount codes page: a page of codes and what a new code may be for."""

    codes: Part[paging.Page]
    scopes: Scopes


def screen(db: Session, actor: Actor | None, *, filters: dict[str, Any] | None = None,
           bookmark: object = "") -> CodesScreen:  # fmt: skip
    """The discount codes page for an SVL (their own) or an admin (every venue's), in one read."""
    return CodesScreen(codes=part(codes_page, db, actor, filters=filters, bookmark=bookmark),
                       scopes=scope_choices(db, actor))  # fmt: skip


# --- at checkout: a code's price, and the player's credit -------------------------------------------------------


def _lock(db: Session, table: Any, row_id: int) -> None:
    """The row's lock for the rest of the transaction (a write: PostgreSQL's row lock, SQLite's write lock)."""
    db.execute(sa.update(table).where(table.id == row_id).values(id=table.id))


def _in_scope(code: DiscountCode, league: League) -> bool:
    if code.svl_id != league.svl_id:
        return False
    if code.scope == SCOPE_LEAGUE:
        return code.league_id == league.id
    if code.scope == SCOPE_SESSION:
        return code.session_id == league.session_id
    return True


def find_for(db: Session, text: object, league: League, user_id: int, *, leaving_out: int | None = None,
             now: dt.datetime | None = None) -> DiscountCode:  # fmt: skip
    """The code a player typed, when it may take something off this league's price for them now; else Invalid at
    ``code`` saying why. Takes the code's lock: the uses counted stay so until the caller's transaction ends.

    ``leaving_out``: the payment the code is for (its own use, if it holds one, is not counted against it).
    """
    now = now or utcnow()
    typed = text.strip().upper() if isinstance(text, str) else ""
    if not typed or len(typed) > 40:
        raise Invalid({"code": UNKNOWN})
    found = db.exec(select(DiscountCode).where(DiscountCode.code == typed).order_by(col(DiscountCode.id))).all()
    if not found:
        raise Invalid({"code": UNKNOWN})
    code = next((c for c in found if _in_scope(c, league)), None)
    if code is None:
        raise Invalid({"code": NOT_HERE})
    assert code.id is not None  # stored
    _lock(db, DiscountCode, code.id)
    db.refresh(code)
    if not code.active:
        raise Invalid({"code": INACTIVE})
    if code.expires_at is not None and code.expires_at <= now:
        raise Invalid({"code": EXPIRED})
    held = select(sa.func.count()).select_from(Payment).where(Payment.discount_code_id == code.id, _counts(now))
    if leaving_out is not None:
        held = held.where(col(Payment.id) != leaving_out)
    if code.max_uses is not None and db.exec(held).one() >= code.max_uses:
        raise Invalid({"code": USED_UP})
    if code.per_player is not None and db.exec(held.where(Payment.user_id == user_id)).one() >= code.per_player:
        raise Invalid({"code": USED_BY_YOU})
    return code


def amount_off(code: DiscountCode, price_cents: int) -> int:
    """What the code takes off ``price_cents`` (never more than the price; a percent rounds to the cent, down)."""
    if code.percent is not None:
        return price_cents * code.percent // 100
    return min(code.amount_cents or 0, price_cents)


def credit_free(db: Session, user_id: int, *, leaving_out: int | None = None, now: dt.datetime | None = None) -> int:
    """The player's credit not held by another of their payments now (takes the player's lock)."""
    now = now or utcnow()
    _lock(db, User, user_id)
    held = select(sa.func.coalesce(sa.func.sum(Payment.credit_cents), 0)).where(
        Payment.user_id == user_id, col(Payment.credit_cents) > 0, _counts(now), col(Payment.status) != _SUCCEEDED
    )  # fmt: skip
    if leaving_out is not None:
        held = held.where(col(Payment.id) != leaving_out)
    return max(ledger.credit_balance(db, user_id) - int(db.exec(held).one()), 0)


def price(db: Session, pay: Payment, league: League, code: DiscountCode | None) -> None:
    """Set the payment's discount, credit and card amount: its price (a place's from the league; a share's or a free
    agent's as it was set when the payment was made), less the code's discount, less the player's free credit (the
    caller holds the league's lock)."""
    full = fees.place_price(league) if pay.purpose == PLACE else pay.amount_cents + pay.discount_cents + pay.credit_cents
    pay.discount_code_id = code.id if code is not None else None
    pay.discount_cents = amount_off(code, full) if code is not None else 0
    left = full - pay.discount_cents
    pay.credit_cents = min(credit_free(db, pay.user_id, leaving_out=pay.id), left) if pay.user_id else 0
    pay.amount_cents = left - pay.credit_cents
    pay.updated_at = utcnow()
    db.add(pay)
    db.flush()


def take_credit(db: Session, pay: Payment) -> None:
    """A pending payment takes the player's credit that is free now (credit given since it was priced, say): its
    discount stays as it was given."""
    left = pay.amount_cents + pay.credit_cents
    credit = min(credit_free(db, pay.user_id, leaving_out=pay.id), left) if pay.user_id else 0
    if credit == pay.credit_cents:
        return
    pay.credit_cents, pay.amount_cents, pay.updated_at = credit, left - credit, utcnow()
    db.add(pay)
    db.flush()


def spend(db: Session, pay: Payment) -> None:
    """A fulfilled payment: its ledger rows for the discount and the credit it took off (each written once).

    The credit spent is never more than the player has left (a hold that lapsed and was paid late may find it
    spent meanwhile)."""
    if pay.discount_cents > 0:
        code = db.get(DiscountCode, pay.discount_code_id) if pay.discount_code_id else None
        ledger.record(db, kind=DISCOUNT, amount_cents=pay.discount_cents,
                      key=f"discount-{pay.idempotency_key}", payment=pay,
                      reason=f"Discount code {code.code}" if code else "Discount code")  # fmt: skip
    if pay.credit_cents > 0 and pay.user_id is not None:
        _lock(db, User, pay.user_id)
        cents = min(pay.credit_cents, ledger.credit_balance(db, pay.user_id))
        if cents > 0:
            ledger.record(db, kind=CREDIT_SPENT, amount_cents=cents, key=f"credit-{pay.idempotency_key}",
                          payment=pay, reason="Credit spent on a registration")  # fmt: skip
