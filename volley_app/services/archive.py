"""What has been archived instead of deleted, for admins to look through and restore."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app import routes
from volley_app.models import League, LeagueSession, SubRequest, User
from volley_app.services import accounts, leagues, paging, sessions, timefmt, venues
from volley_app.services.errors import Invalid
from volley_app.services.permissions import Actor, require_admin

KINDS = {"session": sessions.restore_session, "league": leagues.restore_league, "user": accounts.restore_user}

# The filters of the Archive: free text (a name, the venue or the requestor) and the kind of record.
ARCHIVE_FILTERS = ("q", "kind")
KIND_LABELS = {"session": "Sessions", "league": "Leagues", "user": "Accounts", "request": "Cancelled sub requests"}


def _branches(text: str) -> dict[str, sa.Select]:
    """Per kind: its archived rows as (archived_at, kind, id), matching ``text`` when one was typed."""
    def pick(model, kind: str) -> sa.Select:
        return sa.select(model.archived_at.label("at"), sa.literal(kind).label("kind"), model.id.label("id")).where(
            model.archived_at.is_not(None)
        )

    out = {"session": pick(LeagueSession, "session"), "league": pick(League, "league"), "user": pick(User, "user"),
           "request": pick(SubRequest, "request")}  # fmt: skip
    if text:
        venue = sa.orm.aliased(User, name="venue")
        full = venue.first_name + " " + venue.last_name
        out["session"] = out["session"].join(venue, venue.id == LeagueSession.svl_id).where(
            paging.contains(text, LeagueSession.name, venue.first_name, venue.last_name, full)
        )
        out["league"] = out["league"].join(venue, venue.id == League.svl_id).where(
            paging.contains(text, League.court, venue.first_name, venue.last_name, full)
        )
        out["user"] = out["user"].where(
            paging.contains(text, User.username, User.email, User.first_name, User.last_name,
                            User.first_name + " " + User.last_name)  # fmt: skip
        )
        out["request"] = out["request"].join(venue, venue.id == SubRequest.requestor_id).where(
            paging.contains(text, SubRequest.team, SubRequest.svl, venue.username, full)
        )
    return out


def _shown(db: Session, found: list) -> list[dict]:
    """The page's records (read by kind, one query each) as rows, in the page's order."""
    ids: dict[str, list[int]] = {}
    for _at, kind, rid in found:
        ids.setdefault(kind, []).append(rid)
    models = {"session": LeagueSession, "league": League, "user": User, "request": SubRequest}
    loaded = {
        kind: {r.id: r for r in db.exec(select(models[kind]).where(models[kind].id.in_(rids))).all()}
        for kind, rids in ids.items()
    }
    svl_ids = [r.svl_id for kind in ("session", "league") for r in loaded.get(kind, {}).values()]
    svls = venues.svl_names(db, svl_ids)
    requestors = {r.requestor_id for r in loaded.get("request", {}).values()}
    names = {u.id: u.username for u in db.exec(select(User).where(User.id.in_(requestors or {-1}))).all()}

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
    every = sa.union_all(*branches.values()).subquery("archived")
    every.c.at.nullable = False  # each branch keeps archived rows only, so keyset paging by it skips none
    query = sa.select(every.c.at, every.c.kind, every.c.id).order_by(every.c.at.desc(), every.c.kind.desc(),
                                                                     every.c.id.desc())  # fmt: skip
    return paging.keyset(db, query, kinds=(dt.datetime, str, int), project=lambda found: _shown(db, found),
                         bookmark=bookmark, size=paging.page_size(size))  # fmt: skip


def restore(db: Session, actor: Actor | None, *, kind: object, record_id: object) -> str:
    """Restore one archived session, league or account (admins only); returns its name."""
    require_admin(actor)
    action = KINDS.get(kind) if isinstance(kind, str) else None
    if action is None:
        raise Invalid("Only sessions, leagues and accounts can be restored")
    return action(db, actor, record_id)
