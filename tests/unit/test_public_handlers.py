"""Public-page state handlers called directly, as any browser could call them: wrong callers change nothing."""

from __future__ import annotations

import re

from tests.factories import PASSWORD, count, login_token, make_user, rows
from tests.harness import drain, redirect_target, root_state, substate
from volley_app.models import (
    ContactInquiry,
    LoginSession,
    NewsletterSubscriber,
    OutboxMessage,
    User,
)
from volley_app.pages.auth.forgot_password import ForgotState
from volley_app.pages.auth.reset_password import ResetState
from volley_app.pages.public.inquiries import ContactState, HostState
from volley_app.pages.public.newsletter import NewsletterSignupState
from volley_app.pages.public.unsubscribe import UnsubscribeState
from volley_app.services.accounts import passwords
from volley_app.services.mail import newsletter


async def test_contact_handler_stores_and_redirects_to_sent(db):
    state = substate(root_state("/contact"), ContactState)
    events = await drain(state.submit({"name": "Ann", "email": "ann@example.com", "body": "Hi there"}))
    assert redirect_target(events) == "/sent"
    assert count(db, ContactInquiry) == 1 and count(db, OutboxMessage) == 1


async def test_contact_handler_keeps_field_errors_and_stores_nothing(db):
    state = substate(root_state("/contact"), HostState)
    events = await drain(state.submit({"svl_name": "Gym", "email": "bad", "phone": "123"}))
    assert redirect_target(events) is None
    assert {"email", "phone", "address", "city", "region", "zip"} <= set(state.errors)
    assert "svl_name" not in state.errors
    assert count(db, OutboxMessage) == 0


async def test_contact_handler_bot_trap_pretends_success(db):
    state = substate(root_state("/contact"), ContactState)
    events = await drain(state.submit({"name": "Bot", "email": "bot@example.com", "body": "buy", "website": "x"}))
    assert redirect_target(events) == "/sent"
    assert count(db, ContactInquiry) == 0 and count(db, OutboxMessage) == 0


async def test_contact_handler_rate_limit_message(db):
    root = root_state("/contact")
    state = substate(root, ContactState)
    for _ in range(5):
        await drain(state.submit({"name": "Ann", "email": "ann@example.com", "body": "Hi"}))
    events = await drain(state.submit({"name": "Ann", "email": "ann@example.com", "body": "Hi"}))
    assert redirect_target(events) is None and "Too many requests" in state.error
    assert count(db, ContactInquiry) == 5


async def test_forgot_handler_routes_found_and_not_found(db):
    make_user(db, "ann")
    state = substate(root_state("/forgotPassword"), ForgotState)
    assert redirect_target(await drain(state.send({"email": "ann@example.com"}))) == "/forgotPasswordSent"
    assert redirect_target(await drain(state.send({"email": "zed@example.com"}))) == "/forgotPasswordNotFound"
    assert redirect_target(await drain(state.send({"email": "nope"}))) is None and state.errors["email"]


async def test_reset_handlers_check_then_save_then_refuse_reuse(db):
    user = make_user(db, "ann")
    token = login_token(db, "ann")
    state = substate(root_state("/forgotPassword"), ForgotState)
    await drain(state.send({"email": "ann@example.com"}))
    [msg] = rows(db, OutboxMessage)
    found = re.search(r"(/resetPassword/\d+/\S+)", msg.body_text)
    assert found is not None
    path = found.group(1)
    reset = substate(root_state(path), ResetState)
    await reset.check()
    assert reset.status == "ok"
    events = await drain(reset.save({"password": "abc", "confirm": "abc"}))
    assert redirect_target(events) is None and reset.errors["password"]
    events = await drain(reset.save({"password": "fresh!1", "confirm": "fresh!2"}))
    assert redirect_target(events) is None and reset.errors["confirm"] == "The passwords do not match"
    events = await drain(reset.save({"password": "fresh!1", "confirm": "fresh!1"}))
    assert redirect_target(events) == "/passwordUpdated"
    assert passwords.verify_password("fresh!1", rows(db, User, User.id == user.id)[0].password_hash)
    assert all(s.revoked_at is not None for s in rows(db, LoginSession)) and token
    again = substate(root_state(path), ResetState)
    await again.check()
    assert again.status == "invalid" and "ask for a new one" in again.link_error


async def test_reset_handler_with_a_forged_link_changes_nothing(db):
    user = make_user(db, "ann")
    reset = substate(root_state(f"/resetPassword/{user.id}/forgedtokenforgedtoken"), ResetState)
    await reset.check()
    assert reset.status == "invalid"
    await drain(reset.save({"password": "fresh!1", "confirm": "fresh!1"}))
    assert reset.status == "invalid"
    assert passwords.verify_password(PASSWORD, rows(db, User, User.id == user.id)[0].password_hash)


async def test_newsletter_signup_and_unsubscribe_handlers(db):
    state = substate(root_state("/newsletter"), NewsletterSignupState)
    assert redirect_target(await drain(state.subscribe({"email": "fan@example.com", "referral": ""}))) == "/subscribed"
    assert redirect_target(await drain(state.subscribe({"email": "fan@example.com"}))) == "/subscribed"
    assert redirect_target(await drain(state.subscribe({"email": "fan@"}))) is None and state.errors["email"]
    bot = {"email": "bot@example.com", "website": "http://spam.example"}  # the bot trap: a success, nothing kept
    assert redirect_target(await drain(state.subscribe(bot))) == "/subscribed"
    [sub] = rows(db, NewsletterSubscriber)
    link = newsletter.unsubscribe_link(sub)
    path = link[link.index("/unsubscribe/") :]
    bad = substate(root_state(path[:-2] + "00"), UnsubscribeState)
    await bad.unsubscribe()
    assert bad.status == "invalid" and count(db, NewsletterSubscriber) == 1
    good = substate(root_state(path), UnsubscribeState)
    await good.unsubscribe()
    assert good.status == "done" and count(db, NewsletterSubscriber) == 0


async def test_reset_link_ignores_a_forged_host_header(db):
    """The page's URL and Host header say evil.example; the emailed link still points at the configured public URL."""
    from reflex.istate.data import HeaderData, ReflexURL, RouterData, SessionData

    from volley_app.settings import get_settings

    make_user(db, "ann")
    root = root_state("/forgotPassword")
    state = substate(root, ForgotState)
    forged = RouterData(
        session=SessionData(client_token="t", client_ip="203.0.113.66", session_id="s"),
        headers=HeaderData(host="evil.example", origin="http://evil.example"),
        url=ReflexURL("http://evil.example/forgotPassword"),
    )
    state.router = forged
    assert redirect_target(await drain(state.send({"email": "ann@example.com"}))) == "/forgotPasswordSent"
    [msg] = rows(db, OutboxMessage)
    assert "evil.example" not in msg.body_text
    assert f"{get_settings().public_url.rstrip('/')}/resetPassword/" in msg.body_text


def test_purge_sessions_command_also_purges_old_rate_limit_records(db):
    import datetime as dt

    from volley_app import cli
    from volley_app.models import RateLimitHit, utcnow

    db.add(RateLimitHit(scope="inquiry", key="old", at=utcnow() - dt.timedelta(days=3)))
    db.add(RateLimitHit(scope="inquiry", key="new", at=utcnow()))
    db.commit()
    assert cli.main(["purge-sessions"]) == 0
    assert [r.key for r in rows(db, RateLimitHit)] == ["new"]
