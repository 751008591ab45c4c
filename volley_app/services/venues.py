"""Venues: the SVL accounts that host leagues, by the names pages show."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, select

from volley_app.models import Role, User


def svl_names(db: Session, ids: Iterable[int]) -> dict[int, str]:
    """Each SVL's full name by id (the venue name lists and league pages show)."""
    ids = set(ids)
    if not ids:
        return {}
    return {u.id: f"{u.first_name} {u.last_name}".strip() for u in db.exec(select(User).where(User.id.in_(ids))).all()}


def partner_venues(db: Session) -> list[dict]:
    """Every active SVL account with its address, by name (the players' list of partner venues)."""
    found = db.exec(select(User).where(User.active.is_(True)).order_by(User.first_name, User.id)).all()
    return [
        {"name": f"{u.first_name} {u.last_name}".strip(), "address": u.address or "", "city": u.city or "",
         "region": u.region.value if u.region else ""}
        for u in found
        if Role.SVL.value in u.roles
    ]  # fmt: skip
