"""The public inquiry forms (contact, host, promote, franchise): validated, stored, mailed to the provider.

Each inquiry is stored, so a lead is never lost when mail fails, and a message
to ``settings.provider_email`` is queued in the same transaction. A filled-in
bot trap is answered like a success but nothing is kept or sent; a client that
sends too many inquiries is refused for a while.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import REGIONS, ContactInquiry, FranchiseInquiry, HostInquiry, Inquiry, PromoteInquiry
from volley_app.services.core import paging, ratelimit, validation
from volley_app.services.core.actors import Actor, require_admin
from volley_app.services.core.errors import BadRequest, Invalid
from volley_app.services.mail import mail
from volley_app.settings import get_settings

log = logging.getLogger(__name__)

# A person sends a handful of inquiries at most; a bot sends hundreds.
CLIENT_LIMIT = 5
CLIENT_WINDOW = dt.timedelta(hours=1)


@dataclasses.dataclass(frozen=True)
class FormSpec:
    """One inquiry form: its fields (name -> (label, check)), its table, and its mail subject."""

    kind: str
    title: str
    model: type[Inquiry]
    fields: dict[str, tuple[str, Callable[[object], object]]]
    subject_field: str


def _name(label: str, field: str, max_length: int = 100):
    return label, lambda v: validation.name(v, field, label, max_length)


def _text(label: str, field: str):
    return label, lambda v: validation.text(v, field, label)


def _region(field: str):
    def check(v):
        try:
            return validation.region(v)
        except Invalid as exc:
            raise Invalid({field: exc.message}) from None

    return "State", check


EMAIL = ("Email", validation.email)
PHONE = ("Phone", validation.phone)
REGION = _region("region")


def _form(kind: str, title: str, model: type[Inquiry], subject_field: str, **fields) -> FormSpec:
    return FormSpec(kind, title, model, fields, subject_field)


FORMS: dict[str, FormSpec] = {
    spec.kind: spec
    for spec in (
        _form("contact", "Contact", ContactInquiry, "name",
              name=_name("Name", "name"), email=EMAIL, body=_text("Message", "body")),
        _form("host", "Host a League", HostInquiry, "svl_name",
              svl_name=_name("Venue Name", "svl_name", 200), email=EMAIL, phone=PHONE,
              address=_name("Address", "address", 200), city=_name("City", "city"), region=REGION,
              zip=("Zip", validation.zip_code)),
        _form("promote", "Promote", PromoteInquiry, "company_name",
              company_name=_name("Company Name", "company_name", 200), email=EMAIL, phone=PHONE, why=_text("Why", "why")),
        _form("franchise", "Franchise", FranchiseInquiry, "name",
              name=_name("Name", "name"), email=EMAIL, phone=PHONE, city=_name("City", "city"), region=REGION,
              message=_text("Message", "message")),
    )
}  # fmt: skip


def clean(kind: str, data: dict) -> dict[str, Any]:
    """Check every field of form ``kind`` at once; return the clean values or raise Invalid (field -> message)."""
    spec = _spec(kind)
    data = data if isinstance(data, dict) else {}
    return validation.collect(**{name: (check, data.get(name)) for name, (_label, check) in spec.fields.items()})


def _spec(kind: object) -> FormSpec:
    spec = FORMS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise BadRequest("Unknown form")
    return spec


def submit(db: Session, *, kind: str, data: dict, client: str, trap: object = "") -> int | None:
    """Store an inquiry and queue its mail to the provider.

    Args:
        db: the session; the caller commits.
        kind: "contact", "host", "promote" or "franchise".
        data: the submitted values by field name.
        client: the client's address, for the rate limit.
        trap: the bot-trap field, empty for a person.

    Returns:
        The new inquiry's id, or None when the bot trap was filled (nothing kept or sent).

    Raises:
        Invalid: a field is missing or malformed (every such field is named).
        RateLimited: this client sent too many inquiries lately.
    """
    spec = _spec(kind)
    values = clean(kind, data)
    if isinstance(trap, str) and trap.strip():
        log.info("inquiry bot trap filled (form=%s client=%s): dropped", kind, client)
        return None
    ratelimit.hit(db, scope="inquiry", key=client or "unknown", limit=CLIENT_LIMIT, window=CLIENT_WINDOW)
    row = spec.model(**values)
    db.add(row)
    db.flush()
    fields = [
        {"label": label, "value": f"{REGIONS[values[name]]} ({values[name]})" if name == "region" else values[name]}
        for name, (label, _check) in spec.fields.items()
    ]
    mail.queue_email(
        db, "inquiry", {"title": spec.title, "sender": values[spec.subject_field], "id": row.id, "fields": fields,
                        "email": values["email"]},
        to=get_settings().provider_email, reply_to=values["email"], kind=f"inquiry_{kind}",
    )  # fmt: skip
    return row.id


# The filters of the inquiries list: a part of the address that sent one, and the form it came from.
INQUIRY_FILTERS = ("q", "kind")


def inquiries_page(
    db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "", size: object = paging.PAGE_SIZE
) -> paging.Page:
    """One page of every kind of inquiry, newest first (admin only).

    The four forms' tables are read as one list (their kind, id and time); the page's details are
    then read per form, at most one query each. ``filters``: ``q`` (email) and ``kind`` (a form's key).
    """
    require_admin(actor)
    f = filters if isinstance(filters, dict) else {}
    kind = paging.choice(f.get("kind"), tuple(FORMS))
    text = paging.search_text(f.get("q"))
    parts = []
    for spec in FORMS.values():
        if kind and spec.kind != kind:
            continue
        model = spec.model
        part: sa.Select = sa.select(sa.literal(spec.kind).label("kind"), col(model.id).label("id"), col(model.created_at).label("at"))
        if text:
            part = part.where(paging.contains(text, col(model.email)))
        parts.append(part)
    listed = sa.union_all(*parts).subquery("inquiries")
    query = sa.select(listed.c.kind, listed.c.id, listed.c.at).order_by(
        listed.c.at.desc(), listed.c.kind.desc(), listed.c.id.desc()
    )

    def project(found: list) -> list[dict]:
        by_kind: dict[str, list[int]] = {}
        for k, rid, _at in found:
            by_kind.setdefault(k, []).append(rid)
        rows = {}
        for k, ids in by_kind.items():
            spec = FORMS[k]
            for row in db.exec(select(spec.model).where(col(spec.model.id).in_(ids))):
                details = {label: str(getattr(row, name)) for name, (label, _c) in spec.fields.items()}
                rows[(k, row.id)] = {"kind": spec.title, "id": row.id, "created_at": row.created_at, "details": details}
        return [rows[(k, rid)] for k, rid, _at in found if (k, rid) in rows]

    return paging.keyset(
        db, query, kinds=(dt.datetime, str, int), project=project, bookmark=bookmark, size=paging.page_size(size)
    )


def list_recent(db: Session, actor: Actor | None, *, limit: int = 200) -> list[dict]:
    """Every kind of inquiry, newest first, for an admin."""
    require_admin(actor)
    found: list[dict] = []
    for spec in FORMS.values():
        model = spec.model
        for row in db.exec(select(model).order_by(col(model.created_at).desc()).limit(limit)):
            details = {label: str(getattr(row, name)) for name, (label, _c) in spec.fields.items()}
            found.append({"kind": spec.title, "id": row.id, "created_at": row.created_at, "details": details})
    found.sort(key=lambda r: r["created_at"], reverse=True)
    return found[:limit]
