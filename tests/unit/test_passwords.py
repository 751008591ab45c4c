"""Password hashing: bcrypt, cost 12 by default, every character of a long password counts."""

from __future__ import annotations

import bcrypt
import pydantic
import pytest

from volley_app.services.accounts import passwords
from volley_app.settings import Settings, get_settings


@pytest.fixture
def fresh_settings(monkeypatch):
    """Lets a test change the environment; the cached settings are rebuilt before and after."""
    get_settings.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    get_settings.cache_clear()


def test_default_cost_is_12(fresh_settings):
    fresh_settings.delenv("BCRYPT_ROUNDS", raising=False)
    assert Settings(_env_file=None).bcrypt_rounds == 12
    assert Settings.model_fields["bcrypt_rounds"].default == 12


def test_default_settings_hash_at_cost_12(fresh_settings):
    fresh_settings.delenv("BCRYPT_ROUNDS", raising=False)
    get_settings.cache_clear()
    hashed = passwords.hash_password("pass1")
    assert hashed.startswith("$2b$12$")
    assert passwords.verify_password("pass1", hashed)


def test_explicit_cost_12():
    hashed = passwords.hash_password("pass1", rounds=12)
    assert hashed.startswith("$2b$12$")
    assert len(hashed) == 60
    assert passwords.verify_password("pass1", hashed)


def test_cost_comes_from_settings(fresh_settings):
    fresh_settings.setenv("BCRYPT_ROUNDS", "5")
    get_settings.cache_clear()
    assert passwords.hash_password("pass1").startswith("$2b$05$")


@pytest.mark.parametrize("rounds", ["3", "17"])
def test_cost_outside_4_to_16_is_refused(fresh_settings, rounds):
    fresh_settings.setenv("BCRYPT_ROUNDS", rounds)
    with pytest.raises(pydantic.ValidationError):
        Settings(_env_file=None)


def test_hash_is_bcrypt_salted_and_not_the_password():
    a = passwords.hash_password("pass1")
    b = passwords.hash_password("pass1")
    assert a.startswith("$2b$") and b.startswith("$2b$")
    assert a != b  # a fresh salt each time
    assert "pass1" not in a
    assert passwords.verify_password("pass1", a) and passwords.verify_password("pass1", b)


def test_wrong_password_fails():
    hashed = passwords.hash_password("pass1")
    for wrong in ("pass2", "Pass1", "pass1 ", "pass", "", "pass1pass1"):
        assert passwords.verify_password(wrong, hashed) is False


def test_100_character_password_verifies_and_every_character_counts():
    pw = "".join("abcdefghij"[i % 10] for i in range(100))
    hashed = passwords.hash_password(pw)
    assert passwords.verify_password(pw, hashed)
    for index in (0, 71, 72, 79, 80, 99):
        changed = pw[:index] + ("Z" if pw[index] != "Z" else "Y") + pw[index + 1 :]
        assert passwords.verify_password(changed, hashed) is False, index
    assert passwords.verify_password(pw[:72], hashed) is False
    assert passwords.verify_password(pw + "x", hashed) is False


def test_200_byte_non_ascii_password_is_not_truncated_at_72_bytes():
    pw = "é" * 100  # 100 characters, 200 bytes in UTF-8
    assert len(pw.encode("utf-8")) == 200
    hashed = passwords.hash_password(pw)
    assert passwords.verify_password(pw, hashed)
    for index in (79, 80, 90, 99):  # the 80th character and beyond: far past bcrypt's 72 bytes
        changed = pw[:index] + "è" + pw[index + 1 :]
        assert passwords.verify_password(changed, hashed) is False, index


def test_plain_bcrypt_would_truncate_so_the_check_above_is_meaningful():
    # bcrypt itself ignores everything after 72 bytes (or refuses it); the service must not.
    raw = ("é" * 100).encode("utf-8")
    try:
        truncating = bcrypt.checkpw(raw[:72] + b"x" * 128, bcrypt.hashpw(raw, bcrypt.gensalt(rounds=4)))
    except ValueError:
        truncating = True  # newer bcrypt refuses long input outright
    assert truncating


@pytest.mark.parametrize("pw", ["pässwörd", "пароль123", "密码密码", "🏐🏐🏐🏐", "\u00e9", "e\u0301"])
def test_non_ascii_passwords_round_trip(pw):
    hashed = passwords.hash_password(pw)
    assert passwords.verify_password(pw, hashed)
    assert passwords.verify_password(pw + "!", hashed) is False


def test_composed_and_decomposed_forms_are_different_passwords():
    hashed = passwords.hash_password("\u00e9")
    assert passwords.verify_password("e\u0301", hashed) is False


@pytest.mark.parametrize(
    "bad_hash",
    ["", "not-a-hash", "$2b$12$short", "$2b$04$" + "x" * 53, "pass1", "$1$abc$def", "é" * 60],
)
def test_malformed_hash_returns_false(bad_hash):
    assert passwords.verify_password("pass1", bad_hash) is False


def test_burn_time_returns_nothing_and_does_not_raise():
    assert passwords.burn_time("anything") is None
    assert passwords.burn_time("") is None
