"""What has been archived instead of deleted, for admins to look through and restore."""

from __future__ import annotations

import datetime as dt
import operator
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import League, LeagueSession, SubRequest, User
from volley_app.services.accounts import venues
from volley_app.services.core import paging, timefmt
from volley_app.services.core.actors import Actor, require_admin
from volley_app.services.core.errors import Invalid
from volley_app.services.money import refunds
from volley_app.services.operations import account_lifecycle
from volley_app.services.seasons import leagues, sessions

KINDS = {"session": sessions.restore_session, "league": leagues.restore_league, "user": account_lifecycle.restore_user}

# The filters of the Archive: free text (a name, the venue or the requestor) and the kind of record.
ARCHIVE_FILTERS = ("q", "kind")
ORDER_KINDS = (dt.datetime, str, int)  # a page's edge: archived at, kind, id
KIND_LABELS = {"session": "Sessions", "league": "Leagues", "user": "Accounts", "request": "Cancelled sub requests"}


def _branches(text: str) -> dict[str, tuple[type, sa.Select]]:
    """Per kind: its model and its archived rows as (archived_at, kind, id), matching ``text`` when one was typed."""
    def pick(model, kind: str) -> tuple[type, sa.Select]:
        query = sa.select(model.archived_at.label("at"), sa.literal(kind).label("kind"), model.id.label("id"))
        return model, query.where(model.archived_at.is_not(None))

    out = {"session": pick(LeagueSession, "session"), "league": pick(League, "league"), "user": pick(User, "user"),
           "request": pick(SubRequest, "request")}  # fmt: skip
    if not text:
        return out
    venue = sa.orm.aliased(User, name="venue")
    full = col(venue.first_name) + " " + col(venue.last_name)
    found = {
        "session": lambda q: q.join(venue, venue.id == LeagueSession.svl_id).where(
            paging.contains(text, col(LeagueSession.name), col(venue.first_name), col(venue.last_name), full)
        ),
        "league": lambda q: q.join(venue, venue.id == League.svl_id).where(
            paging.contains(text, col(League.court), col(venue.first_name), col(venue.last_name), full)
        ),
        "user": lambda q: q.where(
            paging.contains(text, col(User.username), col(User.email), col(User.first_name), col(User.last_name),
                            col(User.first_name) + " " + col(User.last_name))  # fmt: skip
        ),
        "request": lambda q: q.join(venue, venue.id == SubRequest.requestor_id).where(
            paging.contains(text, col(SubRequest.team), col(SubRequest.svl), col(venue.username), full)
        ),
    }
    return {kind: (model, found[kind](query)) for kind, (model, query) in out.items()}


def _top(kind: str, model, query: sa.Select, edge: tuple | None, backwards: bool, size: int) -> sa.Select:
    """The first ``size + 1`` rows of one kind past the page's ``edge`` (date, kind, id), in the page's direction.

    The Archive lists every kind newest first by (date, kind, id); within one kind the kind is fixed,
    so its rows past the edge are a range of (date, id) that its archived-date index reads in order.
    A page is then the merge of at most ``size + 1`` rows per kind, however many were archived.
    """
    before = operator.gt if backwards else operator.lt
    if edge is not None:
        at, edge_kind, rid = edge
        if kind == edge_kind:
            query = query.where(before(sa.tuple_(model.archived_at, model.id), sa.tuple_(at, rid)))
        elif before(kind, edge_kind):  # this kind sorts past the edge's kind: its rows of the same date come next
            query = query.where(sa.or_(before(model.archived_at, at), model.archived_at == at))
        else:
            query = query.where(before(model.archived_at, at))
    order = (model.archived_at.asc(), model.id.asc()) if backwards else (model.archived_at.desc(), model.id.desc())
    return sa.select(query.order_by(*order).limit(size + 1).subquery(f"top_{kind}"))


def _shown(db: Session, found: list) -> list[dict]:
    """The page's records (read by kind, one query each) as rows, in the page's order."""
    ids: dict[str, list[int]] = {}
    for _at, kind, rid in found:
        ids.setdefault(kind, []).append(rid)
    models: dict[str, type[Any]] = {"session": LeagueSession, "league": League, "user": User, "request": SubRequest}
    loaded = {
        kind: {r.id: r for r in db.exec(select(models[kind]).where(models[kind].id.in_(rids))).all()}
        for kind, rids in ids.items()
    }
    svl_ids = [r.svl_id for kind in ("session", "league") for r in loaded.get(kind, {}).values()]
    svls = venues.svl_names(db, svl_ids)
    requestors = {r.requestor_id for r in loaded.get("request", {}).values()}
    names = {u.id: u.username for u in db.exec(select(User).where(col(User.id).in_(requestors or {-1}))).all()}

    def shown(kind: str, r) -> dict:
        if kind == "session":
            return {"name": r.name, "owner": svls.get(r.svl_id, ""), "href": routes.session_path(r.id)}
        if kind == "league":
            return {"name": leagues.display_name(r), "owner": svls.get(r.svl_id, ""), "href": routes.league_path(r.id)}
        if kind == "user":
            return {"name": r.username, "owner": f"{r.first_name} {r.last_name}".strip(), "href": routes.user_path(r.id)}
        return {"name": f"{r.team}, {timefmt.date_time(r.date)}", "owner": names.get(r.requestor_id, ""), "href": ""}

    out = []
    for _at, kind, rid in found:
        r = loaded[kind].get(rid)
        if r is not None:
            out.append({"kind": kind, "id": rid, "what": KIND_LABELS[kind], "archived": timefmt.date_time(r.archived_at),
                        **shown(kind, r)})  # fmt: skip
    return out


def archived_page(
    db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "", size: object = paging.PAGE_SIZE
) -> paging.Page:
    """One page of what was archived (sessions, leagues, accounts, cancelled sub requests), newest first (admins only).

    ``filters``: ``q`` (a session's, account's or team's name, the venue, the court or the requestor) and ``kind``.
    """
    require_admin(actor)
    f = filters if isinstance(filters, dict) else {}
    branches = _branches(paging.search_text(f.get("q")))
    if kind := paging.choice(f.get("kind"), tuple(KIND_LABELS)):
        branches = {kind: branches[kind]}
    size = paging.page_size(size)
    edge, backwards = paging.edge(bookmark, ORDER_KINDS)
    tops = sa.union_all(*(_top(k, model, q, edge, backwards, size) for k, (model, q) in branches.items()))
    every = tops.subquery("archived")
    # Each branch keeps archived rows only, so keyset paging by it skips none (sqlakeyset reads the attribute,
    # which a subquery's column does not declare).
    every.c.at.nullable = False  # type: ignore[attr-defined]
    query = sa.select(every.c.at, every.c.kind, every.c.id).order_by(every.c.at.desc(), every.c.kind.desc(),
                                                                     every.c.id.desc())  # fmt: skip
    count = sa.union_all(*(q for _model, q in branches.values()))
    return paging.keyset(db, query, kinds=ORDER_KINDS, project=lambda found: _shown(db, found), bookmark=bookmark,
                         size=size, count=count)  # fmt: skip


def restore(db: Session, actor: Actor | None, *, kind: object, record_id: object) -> str:
    """Restore one archived session, league or account (admins only); returns its name."""
    require_admin(actor)
    action = KINDS.get(kind) if isinstance(kind, str) else None
    if action is None:
        raise Invalid("Only sessions, leagues and accounts can be restored")
    return action(db, actor, record_id)


ARCHIVE_REFUND_REASON = "The league was archived"


def archive_and_refund(db: Session, actor: Actor | None, *, league_id: object) -> str:
    """Archive a league (``leagues.delete_league``) and refund its payments by its refund policy
    (``refunds.refund_by_policy``), in one go for its operator or an admin: the league's name."""
    league = leagues.changeable(db, actor, league_id)
    assert actor is not None  # changeable: the league's SVL or an admin
    name = leagues.delete_league(db, actor, league.id)
    if db.get(League, league.id) is not None:  # archived, not deleted: it had teams or payments
        refunds.refund_by_policy(db, actor, league, reason=ARCHIVE_REFUND_REASON)
    return name
