"""The admin screens' handlers (New Newsletter, Email All Users, Inquiries), called as any browser could call them.

Anyone but an admin is refused and nothing is queued, stored or deleted.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from tests.factories import count, login_token, make_user, rows
from tests.harness import drain, page_state, redirect_target
from volley_app.models import AuditEntry, EmailAllJob, NewsletterIssue, NewsletterSubscriber, OutboxMessage, Role
from volley_app.pages.dash.admin.email_all import EmailAllState
from volley_app.pages.dash.admin.inquiries import InquiriesState
from volley_app.pages.dash.admin.newsletter_setup import NewsletterSetupState
from volley_app.services.mail import newsletter

ISSUE = {f"{s}_{p}": (f"https://example.com/{s}" if p == "link" else f"Blurb {s}") for s in newsletter.NEWSLETTER_SECTIONS for p in ("link", "blurb")}


def _admin_state(cls, path: str, token: str | None):
    return page_state(cls, path, token)[1]


@pytest.mark.parametrize("who", [None, "pat", "svl", "forged"])
async def test_non_admins_calling_newsletter_handlers_are_refused_and_nothing_is_queued(db, who):
    make_user(db, "pat")
    make_user(db, "svl", Role.SVL)
    sub = newsletter.subscribe(db, email="fan@example.com", client="c")
    assert sub is not None
    db.commit()
    token = {"pat": lambda: login_token(db, "pat"), "svl": lambda: login_token(db, "svl"), "forged": lambda: "forged"}.get(who, lambda: None)()
    state = _admin_state(NewsletterSetupState, "/dash/newsletterSetup", token)
    await state.load()
    assert state.subscribers == [] and state.error in ("No access", "Unauthorized")
    events = await drain(state.send(ISSUE))
    assert redirect_target(events) is None and state.error in ("No access", "Unauthorized")
    await state.delete_subscriber(str(sub.id))
    assert count(db, OutboxMessage) == 0 and count(db, NewsletterIssue) == 0 and count(db, NewsletterSubscriber) == 1


@pytest.mark.parametrize("who", [None, "pat", "svl", "forged"])
async def test_non_admins_calling_email_all_handlers_are_refused_and_nothing_is_queued(db, who):
    make_user(db, "pat")
    make_user(db, "svl", Role.SVL)
    token = {"pat": lambda: login_token(db, "pat"), "svl": lambda: login_token(db, "svl"), "forged": lambda: "forged"}.get(who, lambda: None)()
    state = _admin_state(EmailAllState, "/dash/emailAll", token)
    await drain(state.load())
    assert state.jobs == []
    events = await drain(state.send({"subject": "Spam", "body": "Spam"}))
    assert redirect_target(events) is None and state.error in ("No access", "Unauthorized")
    assert count(db, OutboxMessage) == 0 and count(db, EmailAllJob) == 0
    inq = _admin_state(InquiriesState, "/dash/inquiries", token)
    await inq.load()
    assert inq.rows == [] and inq.error in ("No access", "Unauthorized")


async def test_admin_newsletter_and_email_all_handlers(db):
    make_user(db, "root", Role.ADMIN)
    make_user(db, "pat")
    for i in range(3):
        newsletter.subscribe(db, email=f"fan{i}@example.com", client="c")
    db.commit()
    token = login_token(db, "root")
    state = _admin_state(NewsletterSetupState, "/dash/newsletterSetup", token)
    await state.load()
    assert len(state.subscribers) == 3
    state.edit("headline1_blurb", "Big news")
    assert "Big news" in state.preview
    state.edit("__class__", "x")
    assert "__class__" not in state.values
    events = await drain(state.send(ISSUE | {"ad1_blurb": ""}))
    assert redirect_target(events) is None and "ad1_blurb" in state.errors
    state.subscriber_total = 2  # the page showed another number than the one it goes to now
    events = await drain(state.send(ISSUE | {"confirmed": "true"}))
    assert redirect_target(events) is None and "3 subscribers now" in state.error and count(db, OutboxMessage) == 0
    assert state.subscriber_total == 3
    events = await drain(state.send(ISSUE | {"confirmed": "true"}))
    assert redirect_target(events) == "/dash/profile"
    assert count(db, OutboxMessage) == 3 and count(db, NewsletterIssue) == 1
    assert count(db, AuditEntry, AuditEntry.entity == "newsletter_issue", AuditEntry.actor_name == "root") == 1
    await state.load()
    gone = state.subscribers[0]
    await state.delete_subscriber(gone["id"])
    assert len(state.subscribers) == 2 and count(db, NewsletterSubscriber) == 2
    deleted = rows(db, AuditEntry, AuditEntry.entity == "newsletter_subscriber")
    assert [(e.action, e.entity_id, e.actor_name, e.before["email"]) for e in deleted] == [
        ("delete", int(gone["id"]), "root", gone["email"])
    ]

    mail_state = _admin_state(EmailAllState, "/dash/emailAll", token)
    await drain(mail_state.load())
    assert mail_state.audience == "2"
    await drain(mail_state.send({"subject": "Hello all", "body": "Courts open"}))  # the box not ticked
    assert "confirmed" in mail_state.errors and count(db, OutboxMessage) == 3
    mail_state.audience = "3"  # the page showed another number than the one it goes to now
    await drain(mail_state.send({"subject": "Hello all", "body": "Courts open", "confirmed": "true"}))
    assert "2 people now" in mail_state.errors["confirmed"] and count(db, OutboxMessage) == 3
    assert mail_state.audience == "2"
    await drain(mail_state.send({"subject": "Hello all", "body": "Courts open", "confirmed": "true"}))
    assert mail_state.notice.startswith("Queued 2 messages")
    sent = rows(db, AuditEntry, AuditEntry.entity == "email_all")
    assert [(e.action, e.actor_name, e.after) for e in sent] == [("send", "root", {"subject": "Hello all", "recipients": 2})]
    assert mail_state.jobs[0]["queued"] == "2" and mail_state.jobs[0]["pending"] == "2"


async def test_email_all_twice_within_the_hour_asks_first_and_a_double_click_sends_once(db):
    make_user(db, "root", Role.ADMIN)
    make_user(db, "pat")
    db.commit()
    state = _admin_state(EmailAllState, "/dash/emailAll", login_token(db, "root"))
    await drain(state.load())
    assert state.repeat_id == ""
    form = {"subject": "Courts closed", "body": "No games Friday.", "confirmed": "true"}
    await drain(state.send(form))
    await drain(state.send(form))  # the second click of a double-click
    assert count(db, EmailAllJob) == 1 and count(db, OutboxMessage) == 2
    assert "Send it again" in state.errors["repeat"] and state.repeat_id and "Courts closed" in state.repeat_question
    await drain(state.send(form | {"repeat": state.repeat_id}))  # the operator ticks "Send it again"
    assert count(db, EmailAllJob) == 2 and count(db, OutboxMessage) == 4 and state.notice.startswith("Queued 2")
    stale = form | {"repeat": str(min(j.id for j in db.exec(select(EmailAllJob)).all()))}
    await drain(state.send(stale))  # the same ticked form again: refused, it names a send that is not the latest
    assert count(db, EmailAllJob) == 2 and "repeat" in state.errors


async def test_newsletter_preview_keeps_only_the_issue_fields(db):
    make_user(db, "root", Role.ADMIN)
    db.commit()
    state = _admin_state(NewsletterSetupState, "/dash/newsletterSetup", login_token(db, "root"))
    await state.load()
    for name, value in (("__class__", "x"), ("busy", "x"), ("error", "x"), ("headline1_blurb", 7), (None, "x")):
        state.edit(name, value)
    assert state.values == {} and state.busy is False and state.error == ""
    state.edit("headline1_blurb", "x" * 9000)
    assert len(state.values["headline1_blurb"]) == 5000


async def test_newsletter_field_messages_and_the_blurb_hint(db):
    make_user(db, "root", Role.ADMIN)
    db.commit()
    state = _admin_state(NewsletterSetupState, "/dash/newsletterSetup", login_token(db, "root"))
    await state.load()
    events = await drain(state.send(ISSUE | {"ad1_blurb": "", "ad2_link": "not a link"}))
    assert redirect_target(events) is None and state.error == ""
    assert set(state.errors) == {"ad1_blurb", "ad2_link"}
    state.edit("ad1_blurb", "Now filled")  # typing in a marked field takes its message away
    assert set(state.errors) == {"ad2_link"}
    assert count(db, OutboxMessage) == 0 and count(db, NewsletterIssue) == 0


async def test_email_all_field_messages_queue_nothing(db):
    make_user(db, "root", Role.ADMIN)
    db.commit()
    state = _admin_state(EmailAllState, "/dash/emailAll", login_token(db, "root"))
    await drain(state.load())
    await drain(state.send({"subject": "", "body": ""}))
    assert state.errors.keys() == {"subject", "body"} and state.notice == ""
    assert count(db, OutboxMessage) == 0 and count(db, EmailAllJob) == 0
