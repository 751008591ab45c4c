"""Signup field rules of spec section 5, checked one rule at a time and all together."""

from __future__ import annotations

import string

import pytest

from volley_app.services.core import validation
from volley_app.services.core.errors import Invalid

# The spec's set, typed here independently of the code under test.
SPEC_SYMBOLS = ". ! @ # $ % ^ _ + { } : ; \" ' < > / ? ~ ` & * ( ) -".split(" ")
REFUSED_CHARS = [" ", "\t", "\n", ",", "=", "[", "]", "|", "\\", "é", "ß", "ü", "€", "😀", "\u00a0", "\x00"]


def _field_error(fn, *args) -> dict[str, str]:
    with pytest.raises(Invalid) as caught:
        fn(*args)
    return caught.value.errors


def test_the_symbol_set_is_the_spec_set():
    assert len(SPEC_SYMBOLS) == 26
    assert sorted(validation.ACCOUNT_SYMBOLS) == sorted(SPEC_SYMBOLS)


# --- username ---------------------------------------------------------------


@pytest.mark.parametrize("length", [3, 4, 49, 50])
def test_username_lengths_inside_the_range_pass(length):
    assert validation.username("a" * length) == "a" * length


@pytest.mark.parametrize("length", [1, 2, 51, 52, 500])
def test_username_lengths_outside_the_range_are_refused(length):
    assert set(_field_error(validation.username, "a" * length)) == {"username"}


@pytest.mark.parametrize("value", ["", "   ", None, 123, ["bob"], {"u": "bob"}])
def test_username_missing_or_not_text_is_refused(value):
    assert set(_field_error(validation.username, value)) == {"username"}


def test_username_is_lower_cased():
    assert validation.username("BoB.Smith") == "bob.smith"
    assert validation.username("ADMIN") == "admin"


@pytest.mark.parametrize("symbol", SPEC_SYMBOLS)
def test_username_accepts_every_spec_symbol(symbol):
    assert validation.username(f"ab{symbol}") == f"ab{symbol}"


def test_username_accepts_letters_digits_and_all_symbols_together():
    value = "Az09" + "".join(SPEC_SYMBOLS)
    assert validation.username(value) == value.lower()
    assert validation.username(string.digits) == string.digits


@pytest.mark.parametrize("char", REFUSED_CHARS)
def test_username_refuses_characters_outside_the_set(char):
    assert set(_field_error(validation.username, f"bob{char}x")) == {"username"}


# --- password ---------------------------------------------------------------


@pytest.mark.parametrize("length", [4, 5, 99, 100])
def test_password_lengths_inside_the_range_pass(length):
    assert validation.password("p" * length) == "p" * length


@pytest.mark.parametrize("length", [1, 3, 101, 102, 1000])
def test_password_lengths_outside_the_range_are_refused(length):
    assert set(_field_error(validation.password, "p" * length)) == {"password"}


@pytest.mark.parametrize("value", ["", None, 1234, ["pass1"]])
def test_password_missing_or_not_text_is_refused(value):
    assert set(_field_error(validation.password, value)) == {"password"}


def test_password_keeps_its_case_and_is_not_trimmed():
    assert validation.password("PaSs") == "PaSs"
    assert set(_field_error(validation.password, " pass ")) == {"password"}


@pytest.mark.parametrize("symbol", SPEC_SYMBOLS)
def test_password_accepts_every_spec_symbol(symbol):
    assert validation.password(f"abc{symbol}") == f"abc{symbol}"


@pytest.mark.parametrize("char", REFUSED_CHARS)
def test_password_refuses_characters_outside_the_set(char):
    assert set(_field_error(validation.password, f"pass{char}word")) == {"password"}


def test_password_of_four_non_ascii_characters_is_refused():
    # Four characters, eight bytes: refused for the characters, not the length.
    assert set(_field_error(validation.password, "éééé")) == {"password"}


# --- email, names, state ----------------------------------------------------


@pytest.mark.parametrize(
    ("value", "clean"),
    [
        ("Bob@Example.COM", "bob@example.com"),
        ("  ann.lee+vb@Mail.Example.org ", "ann.lee+vb@mail.example.org"),
        ("x@volley.example", "x@volley.example"),
    ],
)
def test_email_is_normalised_to_lower_case(value, clean):
    assert validation.email(value) == clean


@pytest.mark.parametrize(
    "value",
    ["", "   ", None, 42, "bob", "bob@", "@example.com", "bob@@example.com", "bob smith@example.com",
     "bob@example", "bob@exa mple.com", "bob@example..com", "bob@example.com\nBcc: x@example.com"],
)  # fmt: skip
def test_invalid_email_is_refused(value):
    assert set(_field_error(validation.email, value)) == {"email"}


def test_names_are_required_and_trimmed():
    assert validation.name("  Ann ", "first_name", "First name") == "Ann"
    assert set(_field_error(validation.name, "", "first_name", "First name")) == {"first_name"}
    assert set(_field_error(validation.name, "   ", "last_name", "Last name")) == {"last_name"}
    assert set(_field_error(validation.name, None, "last_name", "Last name")) == {"last_name"}
    assert set(_field_error(validation.name, "x" * 101, "first_name", "First name")) == {"first_name"}
    assert validation.name("x" * 100, "first_name", "First name") == "x" * 100


@pytest.mark.parametrize(("value", "clean"), [("KY", "KY"), ("ky", "KY"), ("DC", "DC"), ("wy", "WY")])
def test_state_accepts_us_states_and_dc(value, clean):
    assert validation.region(value) == clean


@pytest.mark.parametrize("value", ["", None, "XX", "Kentucky", "PR", "K", 5])
def test_state_is_required_and_must_be_a_us_state(value):
    assert set(_field_error(validation.region, value)) == {"region"}


# --- collect ----------------------------------------------------------------


def _signup_checks(**values):
    base = {
        "username": "bob",
        "password": "pass1",
        "email": "bob@example.com",
        "first_name": "Bob",
        "last_name": "Smith",
        "region": "KY",
    } | values
    return {
        "username": (validation.username, base["username"]),
        "password": (validation.password, base["password"]),
        "email": (validation.email, base["email"]),
        "first_name": (validation.name, base["first_name"], "first_name", "First name"),
        "last_name": (validation.name, base["last_name"], "last_name", "Last name"),
        "region": (validation.region, base["region"]),
    }


def test_collect_returns_every_clean_value():
    clean = validation.collect(**_signup_checks(username="BOB", email="Bob@Example.com", region="ky"))
    assert clean == {
        "username": "bob",
        "password": "pass1",
        "email": "bob@example.com",
        "first_name": "Bob",
        "last_name": "Smith",
        "region": "KY",
    }


def test_collect_reports_every_failing_field_at_once():
    with pytest.raises(Invalid) as caught:
        validation.collect(
            **_signup_checks(username="x", password="abc", email="nope", first_name="", last_name=" ", region="ZZ")
        )
    errors = caught.value.errors
    assert set(errors) == {"username", "password", "email", "first_name", "last_name", "region"}
    assert all(isinstance(m, str) and m for m in errors.values())


def test_collect_reports_only_the_failing_fields():
    with pytest.raises(Invalid) as caught:
        validation.collect(**_signup_checks(password="pass word", region=""))
    assert set(caught.value.errors) == {"password", "region"}
