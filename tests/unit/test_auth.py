"""Signup, login, sessions, logout and login throttling (spec sections 4, 5 and 8) on a real database."""

from __future__ import annotations

import datetime as dt
import itertools
import re
import threading
import time

import pytest
import sqlalchemy as sa
from sqlmodel import Session, SQLModel

import volley_app.models  # noqa: F401 - every table, for the "token never stored" scan
from tests.factories import PASSWORD, age_login_attempts, count, expire_logins, make_user, rows
from volley_app import db as dbmod
from volley_app.models import LoginAttempt, LoginSession, Role, User, utcnow
from volley_app.services.accounts import accounts, auth, passwords
from volley_app.services.core.actors import Actor, display_status
from volley_app.services.core.errors import BadRequest, Invalid, RateLimited, Unauthorized
from volley_app.settings import get_settings


def _signup(db, username="bob", email=None, password=PASSWORD, **kw):
    result = accounts.signup(
        db,
        username=username,
        password=password,
        email=email or f"{username.lower()}@example.com",
        first_name=kw.pop("first_name", "Bob"),
        last_name=kw.pop("last_name", "Smith"),
        region=kw.pop("region", "KY"),
        **kw,
    )
    db.commit()
    return result


def _fail(db, username="bob", client="10.0.0.1"):
    """One failed login (a wrong password, or an unknown user)."""
    with pytest.raises(Unauthorized):
        auth.login(db, username=username, password="wrong", client=client)
    db.rollback()


# --- settings the rules depend on ----------------------------------------------


def test_auth_limits_are_the_documented_ones(settings):
    assert settings.session_days_trusted == 30
    assert settings.session_hours_untrusted == 12
    assert settings.login_max_failures_per_account == 30
    assert (settings.login_free_failures, settings.login_max_delay_seconds) == (3, 900)
    assert settings.login_max_failures_per_client == 20
    assert settings.login_window_minutes == 15


# --- signup ----------------------------------------------------------------------


def test_signup_creates_a_player_and_logs_in(db):
    result = _signup(db, username="BobSmith", email="Bob.Smith@Example.COM", first_name=" Bob ")

    [user] = rows(db, User)
    assert user.username == "bobsmith"
    assert user.email == "bob.smith@example.com"
    assert user.roles == ["Player"]
    assert user.first_name == "Bob" and user.last_name == "Smith" and user.region == "KY"
    assert user.active is True and user.sub is False
    assert user.password_hash.startswith("$2b$") and passwords.verify_password(PASSWORD, user.password_hash)

    assert result.actor.user_id == user.id
    assert result.actor.username == "bobsmith"
    assert result.actor.roles == ("Player",)
    assert result.trusted is True
    actor = auth.resolve(db, result.token)
    assert actor is not None and actor.user_id == user.id and actor.status == "Player"


def test_signed_up_user_can_log_in_with_any_case_of_the_username(db):
    _signup(db, username="BobSmith")
    result = auth.login(db, username="BOBSMITH", password=PASSWORD)
    db.commit()
    assert auth.resolve(db, result.token).username == "bobsmith"


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"username": "BOB"}, "username"),
        ({"username": "Bob"}, "username"),
        ({"email": "BOB@EXAMPLE.COM"}, "email"),
        ({"email": "bob@Example.com"}, "email"),
    ],
)
def test_duplicate_username_or_email_is_refused_case_insensitively(db, kw, field):
    _signup(db, username="bob", email="bob@example.com")
    args = {"username": "other", "email": "other@example.com"} | kw
    with pytest.raises(Invalid) as caught:
        _signup(db, **args)
    db.rollback()
    assert field in caught.value.errors
    assert count(db, User) == 1
    assert count(db, LoginSession) == 1


def test_duplicate_username_and_email_are_both_reported(db):
    _signup(db, username="bob", email="bob@example.com")
    with pytest.raises(Invalid) as caught:
        _signup(db, username="Bob", email="Bob@example.com")
    db.rollback()
    assert set(caught.value.errors) == {"username", "email"}
    assert count(db, User) == 1


def test_bad_signup_reports_every_field_and_adds_nothing(db):
    with pytest.raises(Invalid) as caught:
        accounts.signup(db, username="x", password="a b", email="no", first_name="", last_name="", region="")
    db.rollback()
    assert set(caught.value.errors) == {"username", "password", "email", "first_name", "last_name", "region"}
    assert count(db, User) == 0
    assert count(db, LoginSession) == 0


# --- login -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("username", "password"),
    [("", PASSWORD), ("bob", ""), ("", ""), ("   ", PASSWORD), (None, PASSWORD), ("bob", None), (123, PASSWORD), ("bob", ["x"])],
)
def test_login_missing_username_or_password(db, username, password):
    make_user(db)
    with pytest.raises(BadRequest) as caught:
        auth.login(db, username=username, password=password)
    assert caught.value.message == "Missing Username or Password"
    assert caught.value.status_code == 400
    db.rollback()
    assert count(db, LoginAttempt) == 0


def test_unknown_user_and_wrong_password_answer_identically(db):
    make_user(db)
    with pytest.raises(Unauthorized) as unknown:
        auth.login(db, username="nobody", password=PASSWORD)
    db.rollback()
    with pytest.raises(Unauthorized) as wrong:
        auth.login(db, username="bob", password="wrong")
    db.rollback()
    assert unknown.value.message == wrong.value.message == "Unauthorized"
    assert unknown.value.status_code == wrong.value.status_code == 401
    assert type(unknown.value) is type(wrong.value)
    assert count(db, LoginSession) == 0


def test_inactive_user_is_refused_like_a_wrong_password(db):
    user = make_user(db)
    user.active = False
    db.add(user)
    db.commit()
    with pytest.raises(Unauthorized) as caught:
        auth.login(db, username="bob", password=PASSWORD)
    db.rollback()
    assert caught.value.message == "Unauthorized"
    assert count(db, LoginSession) == 0


def test_login_returns_a_token_that_resolves_to_the_user(db):
    user = make_user(db, "ann", Role.SVL)
    result = auth.login(db, username="  Ann ", password=PASSWORD, client="10.1.1.1")
    db.commit()
    assert result.actor.user_id == user.id
    assert result.token and len(result.token) >= 32
    actor = auth.resolve(db, result.token)
    assert isinstance(actor, Actor)
    assert (actor.user_id, actor.username, actor.roles, actor.status) == (user.id, "ann", ("SVL",), "SVL")
    assert actor.session_id == result.actor.session_id
    [row] = rows(db, LoginSession)
    assert row.user_id == user.id and row.client_ip == "10.1.1.1" and row.revoked_at is None


def test_each_login_is_its_own_session(db):
    make_user(db)
    a = auth.login(db, username="bob", password=PASSWORD)
    b = auth.login(db, username="bob", password=PASSWORD)
    db.commit()
    assert a.token != b.token
    assert auth.resolve(db, a.token).session_id != auth.resolve(db, b.token).session_id


def test_token_is_never_stored_in_clear(db):
    make_user(db)
    tokens = [auth.login(db, username="bob", password=PASSWORD, trusted=t).token for t in (True, False)]
    tokens.append(_signup(db, username="carl").token)
    db.commit()

    stored = rows(db, LoginSession)
    assert len(stored) == 3
    for row in stored:
        assert row.token_hash not in tokens
        assert len(row.token_hash) == 64
    assert sorted(r.token_hash for r in stored) == sorted(auth.hash_token(t) for t in tokens)

    # No column of any row of any table holds a token, or any part of one.
    with db.get_bind().connect() as conn:
        for table in SQLModel.metadata.sorted_tables:
            for row in conn.execute(sa.select(table)).all():
                for value in row:
                    text = str(value)
                    for token in tokens:
                        assert token not in text, f"{table.name} holds a session token"
                        assert token[:16] not in text


def test_token_hash_depends_on_the_secret_key(monkeypatch):
    before = auth.hash_token("abc")
    monkeypatch.setenv("SECRET_KEY", "another-secret-key-for-this-test")
    get_settings.cache_clear()
    try:
        assert auth.hash_token("abc") != before
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert auth.hash_token("abc") == before


@pytest.mark.parametrize(
    ("trusted", "lifetime"),
    [(True, dt.timedelta(days=30)), (False, dt.timedelta(hours=12))],
)
def test_session_lifetime(db, trusted, lifetime):
    make_user(db)
    before = utcnow()
    result = auth.login(db, username="bob", password=PASSWORD, trusted=trusted)
    db.commit()
    after = utcnow()
    [row] = rows(db, LoginSession)
    assert row.trusted is trusted and result.trusted is trusted
    assert row.expires_at - row.created_at == lifetime
    assert before + lifetime <= row.expires_at <= after + lifetime
    assert result.expires_at == row.expires_at
    assert auth.session_expiry(db, result.token) == row.expires_at


def test_session_lifetimes_come_from_settings(db, monkeypatch):
    monkeypatch.setenv("SESSION_DAYS_TRUSTED", "2")
    monkeypatch.setenv("SESSION_HOURS_UNTRUSTED", "1")
    get_settings.cache_clear()
    try:
        make_user(db)
        auth.login(db, username="bob", password=PASSWORD, trusted=True)
        auth.login(db, username="bob", password=PASSWORD, trusted=False)
        db.commit()
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    stored = rows(db, LoginSession)
    assert [r.expires_at - r.created_at for r in stored] == [dt.timedelta(days=2), dt.timedelta(hours=1)]


# --- resolve and logout -------------------------------------------------------------


def test_resolve_refuses_an_expired_session(db):
    make_user(db)
    result = auth.login(db, username="bob", password=PASSWORD)
    db.commit()
    assert auth.resolve(db, result.token) is not None
    expire_logins(db)
    assert auth.resolve(db, result.token) is None


def test_resolve_refuses_a_session_of_a_deactivated_user(db):
    user = make_user(db)
    result = auth.login(db, username="bob", password=PASSWORD)
    user.active = False
    db.add(user)
    db.commit()
    assert auth.resolve(db, result.token) is None


def test_logout_ends_only_that_session(db):
    make_user(db)
    a = auth.login(db, username="bob", password=PASSWORD)
    b = auth.login(db, username="bob", password=PASSWORD)
    db.commit()
    assert auth.logout(db, a.token) is True
    db.commit()
    assert auth.resolve(db, a.token) is None
    assert auth.resolve(db, b.token) is not None
    assert auth.logout(db, a.token) is False  # already ended
    db.commit()
    by_hash = {r.token_hash: r for r in rows(db, LoginSession)}
    assert by_hash[auth.hash_token(a.token)].revoked_at is not None
    assert by_hash[auth.hash_token(b.token)].revoked_at is None


@pytest.mark.parametrize("token", ["", None, "garbage", "x" * 43, 12345, ["t"]])
def test_logout_of_an_unknown_token_changes_nothing(db, token):
    make_user(db)
    result = auth.login(db, username="bob", password=PASSWORD)
    db.commit()
    before = [(r.id, r.revoked_at, r.expires_at) for r in rows(db, LoginSession)]
    assert auth.logout(db, token) is False
    db.commit()
    assert [(r.id, r.revoked_at, r.expires_at) for r in rows(db, LoginSession)] == before
    assert auth.resolve(db, result.token) is not None


def test_revoke_all_sessions_ends_every_session_of_that_user_only(db):
    bob, ann = make_user(db, "bob"), make_user(db, "ann")
    bob_tokens = [auth.login(db, username="bob", password=PASSWORD).token for _ in range(3)]
    ann_token = auth.login(db, username="ann", password=PASSWORD).token
    db.commit()
    assert auth.revoke_all_sessions(db, bob.id) == 3
    db.commit()
    assert all(auth.resolve(db, t) is None for t in bob_tokens)
    assert auth.resolve(db, ann_token).user_id == ann.id
    assert auth.revoke_all_sessions(db, bob.id) == 0


@pytest.mark.parametrize(
    "token",
    [None, "", "garbage", "x" * 43, "x" * 201, "x" * 100_000, 12345, b"bytes", ["list"], {"t": 1}, "\x00", "é" * 50],
)
def test_resolve_refuses_garbage(db, token):
    make_user(db)
    auth.login(db, username="bob", password=PASSWORD)
    db.commit()
    assert auth.resolve(db, token) is None


def test_resolve_refuses_the_stored_hash_used_as_a_token(db):
    make_user(db)
    auth.login(db, username="bob", password=PASSWORD)
    db.commit()
    [row] = rows(db, LoginSession)
    assert auth.resolve(db, row.token_hash) is None


def test_resolve_refreshes_last_seen_only_after_a_while(db):
    make_user(db)
    result = auth.login(db, username="bob", password=PASSWORD)
    db.commit()
    old = utcnow() - dt.timedelta(minutes=30)
    db.exec(sa.update(LoginSession).values(last_seen_at=old))
    db.commit()
    assert auth.resolve(db, result.token) is not None
    db.commit()
    [row] = rows(db, LoginSession)
    assert row.last_seen_at > old + dt.timedelta(minutes=25)

    recent = utcnow() - dt.timedelta(minutes=1)
    db.exec(sa.update(LoginSession).values(last_seen_at=recent))
    db.commit()
    assert auth.resolve(db, result.token) is not None
    db.commit()
    [row] = rows(db, LoginSession)
    assert row.last_seen_at == recent


# --- throttling --------------------------------------------------------------------


def _age(db, seconds: float, **where) -> None:
    """Move the recorded failures ``seconds`` into the past, as if that much time had gone by."""
    age_login_attempts(db, dt.timedelta(seconds=seconds), **where)


def _refused(db, username="bob", password=PASSWORD, client="10.0.0.1") -> RateLimited:
    with pytest.raises(RateLimited) as caught:
        auth.login(db, username=username, password=password, client=client)
    db.rollback()
    return caught.value


def test_failures_are_recorded_even_though_unauthorized_is_raised(db):
    make_user(db)
    _fail(db, "bob", client="10.0.0.1")
    _fail(db, "nobody", client="10.0.0.2")
    # Read through a different connection: the rows were committed, not just flushed.
    with db.get_bind().connect() as conn:
        recorded = conn.execute(sa.select(LoginAttempt.username, LoginAttempt.client).order_by(LoginAttempt.id)).all()
    assert [tuple(r) for r in recorded] == [("bob", "10.0.0.1"), ("nobody", "10.0.0.2")]


def test_the_delay_doubles_after_the_free_failures_up_to_a_ceiling():
    assert [auth.failure_delay(n).total_seconds() for n in range(0, 8)] == [0, 0, 0, 2, 4, 8, 16, 32]
    assert auth.failure_delay(12).total_seconds() == 900
    assert auth.failure_delay(10_000).total_seconds() == 900


def test_three_failures_are_free_then_the_pair_waits(db):
    make_user(db)
    for _ in range(3):
        _fail(db)
    refused = _refused(db)
    assert refused.status_code == 429
    assert "wait 2 seconds" in refused.message
    assert count(db, LoginSession) == 0
    # The wait over, the owner's right password gets in: no lockout.
    _age(db, 2.5)
    assert auth.login(db, username="bob", password=PASSWORD, client="10.0.0.1").token


def test_each_further_failure_doubles_the_wait(db):
    make_user(db)
    for _ in range(3):
        _fail(db)
    waits = []
    for _ in range(4):
        refused = _refused(db, password="wrong")
        waits.append(re.search(r"wait (\d+) (second|minute)", refused.message).group(0))
        # Let the wait pass and fail once more.
        _age(db, auth.failure_delay(count(db, LoginAttempt)).total_seconds() + 0.5)
        _fail(db)
    assert waits == ["wait 2 second", "wait 4 second", "wait 8 second", "wait 16 second"]


def test_a_wait_of_a_minute_or_more_is_said_in_minutes(db):
    make_user(db)
    for _ in range(9):  # the ninth failure is followed by a 128-second wait
        _age(db, 600)
        _fail(db)
    assert "wait 3 minutes" in _refused(db).message


def test_the_pair_throttle_holds_only_that_client(db):
    make_user(db)
    for _ in range(3):
        _fail(db, client="10.6.6.6")
    _refused(db, client="10.6.6.6")
    # The owner elsewhere is not held up by a guesser.
    assert auth.login(db, username="bob", password=PASSWORD, client="10.7.7.7").token


def test_failures_outside_the_window_are_forgotten(db):
    make_user(db)
    for _ in range(3):
        _fail(db)
    _age(db, 15 * 60 + 1)
    for _ in range(2):
        _fail(db)
    # Five failures, two inside the window: no wait.
    assert auth.login(db, username="bob", password=PASSWORD, client="10.0.0.1").token


def test_success_clears_that_pairs_failures_only(db):
    make_user(db)
    make_user(db, "ann")
    for _ in range(2):
        _fail(db, "bob", client="10.0.0.1")
    _fail(db, "bob", client="10.0.0.2")
    _fail(db, "ann", client="10.0.0.1")
    auth.login(db, username="bob", password=PASSWORD, client="10.0.0.1")
    db.commit()
    left = sorted((a.username, a.client) for a in rows(db, LoginAttempt))
    assert left == [("ann", "10.0.0.1"), ("bob", "10.0.0.2")]


def _spray(db, username: str, n: int, first: int = 0) -> None:
    """``n`` failures on ``username``, each from a different client (no pair reaches its wait)."""
    for i in range(first, first + n):
        _fail(db, username, client=f"10.1.{i // 250}.{i % 250}")


def _link_answer(db, username="bob", password=PASSWORD, client="10.9.9.9", device="") -> auth.SignInLinkSent:
    with pytest.raises(auth.SignInLinkSent) as caught:
        auth.login(db, username=username, password=password, client=client, device=device)
    db.rollback()
    return caught.value


def _link_mails(db) -> list:
    from volley_app.models import OutboxMessage

    return [m for m in rows(db, OutboxMessage) if m.kind == "sign_in_link"]


def _link_token(db, n: int = -1) -> tuple[int, str]:
    found = re.search(r"/signIn/(\d+)/([^\s/]+)", _link_mails(db)[n].body_text)
    return int(found.group(1)), found.group(2)


def test_account_ceiling_answers_the_right_password_from_a_new_client_with_an_emailed_link_not_a_wait(db, settings):
    from volley_app.models import SignInLink

    user = make_user(db)
    _spray(db, "bob", settings.login_max_failures_per_account)
    answer = _link_answer(db)
    assert answer.status_code == 202
    assert answer.message == auth.LINK_SENT
    assert "we emailed you a sign-in link" in answer.message
    assert "wait" not in answer.message
    assert count(db, LoginSession) == 0  # no session: the link is the way in
    [mail] = _link_mails(db)
    assert mail.to_addr == "bob@example.com"
    uid, token = _link_token(db)
    assert uid == user.id
    [link] = rows(db, SignInLink)
    assert link.token_hash == auth.hash_token(token) and token not in link.token_hash  # only its HMAC is kept
    assert link.expires_at - link.created_at == dt.timedelta(minutes=15)


def test_at_the_account_ceiling_a_wrong_password_gets_the_same_answer_no_email_and_counts(db, settings):
    make_user(db)
    _spray(db, "bob", settings.login_max_failures_per_account)
    assert _link_answer(db, password="wrong").message == auth.LINK_SENT  # a guesser learns nothing
    assert _link_mails(db) == []
    assert count(db, LoginAttempt) == settings.login_max_failures_per_account + 1
    # That client has failed now: it waits, right password or not.
    assert "minutes" in _refused(db, client="10.9.9.9").message
    assert _link_mails(db) == []


def test_at_the_account_ceiling_a_client_that_failed_on_the_account_waits(db, settings):
    make_user(db)
    _spray(db, "bob", settings.login_max_failures_per_account)
    refused = _refused(db, client="10.1.0.3")  # one of the guessers, with the right password
    assert "minutes" in refused.message
    assert _link_mails(db) == []


def test_a_known_device_signs_in_as_usual_at_the_ceiling(db, settings):
    make_user(db)
    device = auth.login(db, username="bob", password=PASSWORD, client="10.0.0.7", trusted=True).device
    db.commit()
    assert device
    _spray(db, "bob", settings.login_max_failures_per_account)
    # The same address without the device's token is a new device: a link, not a session.
    _link_answer(db, client="10.0.0.7")
    # The owner's own device still gets in, from any address: guessing elsewhere does not lock them out.
    result = auth.login(db, username="bob", password=PASSWORD, client="10.5.5.5", device=device)
    assert result.token and result.device == device
    db.commit()
    # Only the ceilings pass it by: its own failures still make it wait.
    for _ in range(3):
        with pytest.raises(Unauthorized):
            auth.login(db, username="bob", password="wrong", client="10.5.5.5", device=device)
        db.rollback()
    with pytest.raises(RateLimited):
        auth.login(db, username="bob", password=PASSWORD, client="10.5.5.5", device=device)
    db.rollback()
    # A device token of another account, or a made-up one, is not known to this one.
    make_user(db, "ann")
    other = auth.login(db, username="ann", password=PASSWORD, client="10.0.0.8").device
    db.commit()
    _link_answer(db, client="10.5.5.6", device=other)
    _link_answer(db, client="10.5.5.7", device="x" * 43)


def test_the_sign_in_link_signs_in_once_within_15_minutes(db, settings):
    from volley_app.models import SignInLink

    user = make_user(db)
    make_user(db, "ann")
    _spray(db, "bob", settings.login_max_failures_per_account)
    _link_answer(db)
    uid, token = _link_token(db)
    ann = rows(db, User, User.username == "ann")[0]
    for bad_uid, bad_token in ((ann.id, token), (uid, token[:-2] + "xx"), ("x", token), (uid, "")):
        with pytest.raises(auth.NotFound):
            auth.use_sign_in_link(db, user_id=bad_uid, token=bad_token, client="10.9.9.9")
        db.rollback()
    result = auth.use_sign_in_link(db, user_id=uid, token=token, client="10.9.9.9")
    db.commit()
    assert result.actor.user_id == user.id and auth.resolve(db, result.token).user_id == user.id
    assert result.device  # the device that opened it is known from now on
    assert auth.login(db, username="bob", password=PASSWORD, client="10.9.9.10", device=result.device).token
    with pytest.raises(auth.NotFound, match="invalid, used or expired"):
        auth.use_sign_in_link(db, user_id=uid, token=token, client="10.9.9.9")
    db.rollback()
    # A link older than 15 minutes signs nobody in.
    _link_answer(db, client="10.9.9.11")
    uid, token = _link_token(db)
    db.exec(sa.update(SignInLink).values(expires_at=utcnow() - dt.timedelta(seconds=1)))
    db.commit()
    with pytest.raises(auth.NotFound):
        auth.use_sign_in_link(db, user_id=uid, token=token, client="10.9.9.11")


def test_sign_in_links_sent_per_account_are_limited(db, settings):
    make_user(db)
    _spray(db, "bob", settings.login_max_failures_per_account)
    for i in range(5):
        _link_answer(db, client=f"10.8.8.{i}")
    assert len(_link_mails(db)) == auth.SIGN_IN_LINKS_PER_WINDOW


def test_one_below_the_account_ceiling_still_checks(db, settings):
    make_user(db)
    _spray(db, "bob", settings.login_max_failures_per_account - 1)
    assert auth.login(db, username="bob", password=PASSWORD, client="10.9.9.9").token


def test_account_ceiling_ends_when_the_window_passes(db, settings):
    make_user(db)
    _spray(db, "bob", settings.login_max_failures_per_account)
    _link_answer(db, client="10.9.9.9")
    _age(db, 15 * 60 + 1)
    assert auth.login(db, username="bob", password=PASSWORD, client="10.9.9.9").token


def test_a_password_reset_forgives_the_accounts_failures(db, settings):
    from volley_app.services.accounts import recovery

    user = make_user(db)
    _spray(db, "bob", settings.login_max_failures_per_account)
    _link_answer(db, client="10.9.9.9")
    recovery.request_reset(db, email="bob@example.com", client="10.9.9.9")
    db.commit()
    token = _reset_token_from_mail(db)
    recovery.reset_password(db, user_id=user.id, token=token, password="New1pass")
    db.commit()
    assert auth.login(db, username="bob", password="New1pass", client="10.9.9.9").token


def _reset_token_from_mail(db) -> str:
    from volley_app.models import OutboxMessage

    [msg] = [m for m in rows(db, OutboxMessage) if "resetPassword" in m.body_text]
    return re.search(r"resetPassword/\d+/([^\s/]+)", msg.body_text).group(1)


def test_client_ceiling_across_usernames(db, settings):
    make_user(db)
    for i in range(settings.login_max_failures_per_client):
        _fail(db, f"guess{i}", client="10.6.6.6")
    _refused(db, client="10.6.6.6")
    # Another client is not held up by that one.
    assert auth.login(db, username="bob", password=PASSWORD, client="10.7.7.7").token
    db.commit()
    _age(db, 16 * 60, client="10.6.6.6")
    assert auth.login(db, username="bob", password=PASSWORD, client="10.6.6.6").token


def test_names_and_passwords_with_control_characters_are_refused_and_not_recorded(db):
    make_user(db)
    for username, password in (("bob\x00", PASSWORD), ("bob", "pa\x00ss"), ("bo\u202eb", PASSWORD), ("b" * 101, "x")):
        with pytest.raises(Unauthorized):
            auth.login(db, username=username, password=password, client="10.0.0.1")
        db.rollback()
    assert count(db, LoginAttempt) == 0


def test_concurrent_guesses_from_one_client_cannot_skip_the_wait(db, monkeypatch, settings):
    """Eight guesses sent at once from one client must not all be checked.

    Each guess that gets as far as the password check waits there until every
    guess has either arrived at the check or been refused; only then are the
    checks answered. With a race-free throttle at most the free failures arrive.
    """
    make_user(db)
    n = 8
    arrived, refused, results = [], [], []
    lock = threading.Lock()
    release = threading.Event()
    real_verify = passwords.verify_password

    def slow_verify(password, hashed):
        with lock:
            arrived.append(password)
        release.wait(30)
        return real_verify(password, hashed)

    monkeypatch.setattr(passwords, "verify_password", slow_verify)

    def guess(i: int) -> None:
        try:
            with Session(dbmod.get_engine(), expire_on_commit=False) as session:
                auth.login(session, username="bob", password=f"wrong{i}", client="10.0.1.1")
        except RateLimited:
            with lock:
                refused.append(i)
            results.append("limited")
        except Unauthorized:
            results.append("unauthorized")
        except Exception as exc:  # reported by the assertion below
            results.append(repr(exc))

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for _ in range(600):  # wait until every guess has reached the check or been refused
        with lock:
            if len(arrived) + len(refused) >= n:
                break
        time.sleep(0.05)
    release.set()
    for t in threads:
        t.join(60)

    assert len(results) == n and set(results) <= {"limited", "unauthorized"}, results
    free = settings.login_free_failures
    assert results.count("unauthorized") <= free, (
        f"{results.count('unauthorized')} concurrent password guesses were checked; {free} are free"
    )


def test_throttled_attempts_are_not_checked_and_not_counted(db):
    make_user(db)
    for _ in range(3):
        _fail(db)
    for _ in range(3):
        _refused(db, password="wrong")
    assert count(db, LoginAttempt) == 3


# --- display status ----------------------------------------------------------------


def _expected_status(roles: set[str]) -> str:
    if "Admin" in roles:
        return "Admin"
    if "SVL" in roles:
        return "SVL"
    return "Player"


ALL_ROLE_SETS = [set(c) for n in range(4) for c in itertools.combinations(["Player", "SVL", "Admin"], n)]


@pytest.mark.parametrize("roles", ALL_ROLE_SETS, ids=lambda r: "+".join(sorted(r)) or "none")
def test_display_status_admin_over_svl_over_player(roles):
    expected = _expected_status(roles)
    for order in itertools.permutations(sorted(roles)):
        assert display_status(list(order)) == expected
        assert Actor(user_id=1, username="x", roles=tuple(order)).status == expected


def test_display_status_examples():
    assert display_status(["Player", "SVL", "Admin"]) == "Admin"
    assert display_status(["Player", "Admin"]) == "Admin"
    assert display_status(["SVL", "Player"]) == "SVL"
    assert display_status(["Player"]) == "Player"
    assert display_status([Role.SVL, Role.ADMIN]) == "Admin"
