"""Field rules of spec section 5, one function a rule. Each returns the clean value or raises Invalid."""

from __future__ import annotations

import datetime as dt
import math
import re
import string
import unicodedata
from typing import Any

from email_validator import EmailNotValidError, validate_email

from volley_app.models import REGIONS
from volley_app.services.core.errors import Invalid

# Letters, digits and . ! @ # $ % ^ _ + { } : ; " ' < > / ? ~ ` & * ( ) -
ACCOUNT_SYMBOLS = ".!@#$%^_+{}:;\"'<>/?~`&*()-"
_ACCOUNT_CHARS = set(string.ascii_letters + string.digits + ACCOUNT_SYMBOLS)

USERNAME_MIN, USERNAME_MAX = 3, 50
PASSWORD_MIN, PASSWORD_MAX = 4, 100

USERNAME_RULE = f"Username must be {USERNAME_MIN} to {USERNAME_MAX} characters: letters, numbers or {' '.join(ACCOUNT_SYMBOLS)}"
PASSWORD_RULE = f"Password must be {PASSWORD_MIN} to {PASSWORD_MAX} characters: letters, numbers or {' '.join(ACCOUNT_SYMBOLS)}"


# --- plain text: one rule for every one-line field, one for every multi-line field ------------------

# Characters that reorder how text is shown (a name that reads differently from what it is).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_LINE_BREAKS = frozenset("\n\t")


def _refused(ch: str, multi_line: bool) -> bool:
    if multi_line and ch in _LINE_BREAKS:
        return False
    # Cc: C0/C1 controls (NUL, CR, LF, ESC...); Cs: lone surrogates; Zl/Zp: Unicode line and paragraph breaks.
    return unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in BIDI_CONTROLS or ch == "\ufeff"


def one_line_message(label: str) -> str:
    return f"{label} must be one line of text, without control characters"


def multi_line_message(label: str) -> str:
    return f"{label} must be text without control characters"


def has_control_chars(text: str, *, multi_line: bool = False) -> bool:
    """True when ``text`` holds a character no one-line field (or, with ``multi_line``, no message) takes."""
    return any(_refused(ch, multi_line) for ch in text)


def plain(value: str, field: str, label: str, *, multi_line: bool = False) -> str:
    """``value`` when it is plain text: one line, or (``multi_line``) lines; Invalid at ``field`` otherwise.

    A message's CR LF and lone CR become LF; tabs stay. Everywhere else every control
    character (NUL, CR, LF, ESC...), Unicode line separators and the bidirectional
    overrides are refused with a message at the field.
    """
    if multi_line:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    if has_control_chars(value, multi_line=multi_line):
        raise Invalid({field: multi_line_message(label) if multi_line else one_line_message(label)})
    return value


def _required(value: object, field: str, label: str) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise Invalid({field: f"{label} is required"})
    return plain(text, field, label)


def username(value: object) -> str:
    """Signup username: lower-cased, 3-50 characters from the allowed set."""
    text = _required(value, "username", "Username").lower()
    if not (USERNAME_MIN <= len(text) <= USERNAME_MAX) or not set(text) <= _ACCOUNT_CHARS:
        raise Invalid({"username": USERNAME_RULE})
    return text


def _password(value: object, chars: set[str], rule: str) -> str:
    """A password of 4-100 characters from ``chars`` (not stripped: spaces are refused); ``rule`` says why not."""
    if not isinstance(value, str) or not value:
        raise Invalid({"password": "Password is required"})
    if not (PASSWORD_MIN <= len(value) <= PASSWORD_MAX) or not set(value) <= chars:
        raise Invalid({"password": rule})
    return value


def password(value: object) -> str:
    """Signup password: 4-100 characters from the allowed set."""
    return _password(value, _ACCOUNT_CHARS, PASSWORD_RULE)


def email(value: object) -> str:
    """A deliverable-looking address, lower-cased (one address is one account)."""
    text = _required(value, "email", "Email")
    try:
        result = validate_email(text, check_deliverability=False)
    except EmailNotValidError:
        raise Invalid({"email": "Enter a valid email address"}) from None
    return result.normalized.lower()


def name(value: object, field: str, label: str, max_length: int = 100) -> str:
    text = _required(value, field, label)
    if len(text) > max_length:
        raise Invalid({field: f"{label} must be at most {max_length} characters"})
    return text


def region(value: object) -> str:
    text = _required(value, "region", "State").upper()
    if text not in REGIONS:
        raise Invalid({"region": "Choose a US state"})
    return text


def collect(**checks) -> dict[str, Any]:
    """Run several ``field=(fn, *args)`` checks and report every failure at once; each clean value is its check's."""
    clean: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field, (fn, *args) in checks.items():
        try:
            clean[field] = fn(*args)
        except Invalid as exc:
            errors.update(exc.errors)
    if errors:
        raise Invalid(errors)
    return clean


def choice(value: object, enum_cls, field: str, label: str):
    """One of ``enum_cls``'s values: '{label} is required' when empty, 'Choose a {label}' when unknown."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise Invalid({field: f"{label} is required"})
    try:
        return enum_cls(text)
    except ValueError:
        raise Invalid({field: f"Choose a {label.lower()}"}) from None


def optional_choice(value: object, enum_cls, field: str, label: str):
    """One of ``enum_cls``'s values, or None when empty."""
    if value in (None, ""):
        return None
    try:
        return enum_cls(value)
    except ValueError:
        raise Invalid({field: f"Choose a {label}"}) from None


def flag(value: object) -> bool:
    """A checkbox or switch as a form sends it: True, 'on', 'true', 'yes', '1'."""
    return value is True or (isinstance(value, str) and value.strip().lower() in ("true", "on", "yes", "1"))


TEAM_NAME_REQUIRED = "team name required"
TEAM_NAME_MAX = 100


def team_name(value: object, field: str = "team_name") -> str:
    """A team's name: required, at most 100 characters."""
    name = value.strip() if isinstance(value, str) else ""
    if not name:
        raise Invalid({field: TEAM_NAME_REQUIRED})
    plain(name, field, "Team name")
    if len(name) > TEAM_NAME_MAX:
        raise Invalid({field: f"Team name must be at most {TEAM_NAME_MAX} characters"})
    return name


# --- SVL accounts and password reset: the shorter character set of spec section 5 ------------------

SHORT_SYMBOLS = "!@#$%"
_SHORT_CHARS = set(string.ascii_letters + string.digits + SHORT_SYMBOLS)
SHORT_PASSWORD_RULE = f"Password must be {PASSWORD_MIN} to {PASSWORD_MAX} characters: letters, numbers or {' '.join(SHORT_SYMBOLS)}"
RESET_PASSWORD_RULE = SHORT_PASSWORD_RULE
SVL_USERNAME_RULE = "Username must be 3 to 20 letters"
_PHONE_PUNCTUATION = set(" ()-.+")


def short_password(value: object) -> str:
    """The reset-password and Create SVL rule: 4-100 characters from letters, digits and ! @ # $ %."""
    return _password(value, _SHORT_CHARS, SHORT_PASSWORD_RULE)


reset_password = short_password


def svl_username(value: object) -> str:
    """Create SVL's username: 3 to 20 letters, lower-cased."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if not re.fullmatch(r"[a-z]{3,20}", text):
        raise Invalid({"username": SVL_USERNAME_RULE})
    return text


def phone(value: object, field: str = "phone") -> str:
    """A 10-digit US number (an optional leading 1 is dropped), punctuation tolerated; shown as (859) 555-0123."""
    text = _required(value, field, "Phone")
    digits = "".join(ch for ch in text if ch.isdigit())
    if any(not ch.isdigit() and ch not in _PHONE_PUNCTUATION for ch in text):
        raise Invalid({field: "Enter a 10-digit US phone number"})
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10 or digits[0] in "01":
        raise Invalid({field: "Enter a 10-digit US phone number"})
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def zip_code(value: object, field: str = "zip") -> str:
    """A US ZIP code: 12345 or 12345-6789."""
    clean = _required(value, field, "Zip")
    if not re.fullmatch(r"\d{5}(-\d{4})?", clean):
        raise Invalid({field: "Enter a 5-digit ZIP code"})
    return clean


def text(value: object, field: str, label: str, max_length: int = 5000) -> str:
    """Required free text (a message, line breaks kept), at most ``max_length`` characters."""
    clean = value.strip() if isinstance(value, str) else ""
    if not clean:
        raise Invalid({field: f"{label} is required"})
    clean = plain(clean, field, label, multi_line=True)
    if len(clean) > max_length:
        raise Invalid({field: f"{label} must be at most {max_length} characters"})
    return clean


def optional(value: object, field: str, label: str, max_length: int = 200, multi_line: bool = False) -> str:
    """Optional text: '' when empty; one line unless ``multi_line``."""
    clean = plain(value.strip() if isinstance(value, str) else "", field, label, multi_line=multi_line)
    if len(clean) > max_length:
        raise Invalid({field: f"{label} must be at most {max_length} characters"})
    return clean


def link(value: object, field: str, label: str = "Link") -> str:
    """An optional http(s) link: '' when empty."""
    clean = value.strip() if isinstance(value, str) else ""
    if not clean:
        return ""
    plain(clean, field, label)
    low = clean.lower()
    if not (low.startswith("https://") or low.startswith("http://")) or any(ch.isspace() for ch in clean) or len(clean) > 500:
        raise Invalid({field: f"{label} must be a web address starting with https://"})
    return clean


# --- numbers and dates: every one range-checked, so no value reaches arithmetic that overflows --------

YEAR_MIN, YEAR_MAX = 2000, 2100
MONEY_MAX_DOLLARS = 100_000


def whole_number(value: object, field: str, label: str, low: int, high: int) -> int:
    """A whole number from a form ('12', 12) within ``low``..``high``; Invalid at ``field`` otherwise."""
    if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
        raise Invalid({field: f"{label} must be a whole number"})
    text = str(value).strip() if value is not None else ""
    if not text:
        raise Invalid({field: f"{label} is required"})
    if len(text) > 20 or not re.fullmatch(r"[+-]?[0-9]+(\.0+)?", text):
        raise Invalid({field: f"{label} must be a whole number"})
    number = int(float(text)) if "." in text else int(text)
    if not low <= number <= high:
        raise Invalid({field: f"{label} must be between {low} and {high}"})
    return number


def money_cents(value: object, field: str, label: str, max_dollars: int = MONEY_MAX_DOLLARS) -> int:
    """An amount in dollars ("300", "$299.50", 300) as cents, within $0..``max_dollars``."""
    text = str(value).strip().lstrip("$").replace(",", "") if value is not None and not isinstance(value, bool) else ""
    if not text:
        raise Invalid({field: f"{label} is required"})
    between = f"{label} must be between $0 and ${max_dollars:,}"
    if len(text) > 20 or not re.fullmatch(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)", text):
        raise Invalid({field: f"{label} must be an amount in dollars"})
    dollars = float(text)
    if not math.isfinite(dollars) or not 0 <= dollars <= max_dollars:
        raise Invalid({field: between})
    return round(dollars * 100)


def in_years(when: dt.datetime, field: str, label: str) -> dt.datetime:
    """``when`` if it falls within the years 2000 to 2100, else Invalid at ``field``."""
    if not YEAR_MIN <= when.year <= YEAR_MAX:
        raise Invalid({field: f"{label} must be between {YEAR_MIN} and {YEAR_MAX}"})
    return when
