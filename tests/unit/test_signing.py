"""One signing module: a key per purpose, key rotation by setting, links signed before it still verify."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from volley_app.services.core import signing
from volley_app.settings import get_settings

OLD_KEY = "the-key-this-installation-used-before-0123456789"
NEW_KEY = "the-key-this-installation-uses-now-abcdefghijkl"


def _legacy(key: str, message: str, length: int = 40) -> str:
    """A signature as links were signed before keys were derived per purpose: the key itself over the message."""
    return hmac.new(key.encode(), message.encode(), hashlib.sha256).hexdigest()[:length]


LINK_PURPOSES = [p for p in signing.PURPOSES if p not in (signing.STORED_TOKEN, signing.API_ACCESS_TOKEN)]


@pytest.mark.parametrize("purpose", signing.PURPOSES)
def test_a_signature_verifies_for_its_purpose_and_fields(purpose):
    sig = signing.sign(purpose, 12, "ann@example.com")
    assert len(sig) == signing.SIGNATURE_LENGTH
    assert signing.verify(purpose, sig, 12, "ann@example.com")


@pytest.mark.parametrize("purpose", signing.PURPOSES)
def test_a_signature_for_one_purpose_is_refused_for_every_other(purpose):
    sig = signing.sign(purpose, 12, "ann@example.com")
    for other in signing.PURPOSES:
        if other != purpose:
            assert not signing.verify(other, sig, 12, "ann@example.com"), (purpose, other)
    assert signing.digest("a-token", purpose) not in {
        signing.digest("a-token", o) for o in signing.PURPOSES if o != purpose
    }
    assert signing.jwt_key(purpose) not in {signing.jwt_key(o) for o in signing.PURPOSES if o != purpose}


def test_tampering_is_refused():
    sig = signing.sign(signing.INVITE_ANSWER, 5, 9, "accept", 1790000000)
    assert not signing.verify(signing.INVITE_ANSWER, sig, 5, 9, "decline", 1790000000)  # another answer
    assert not signing.verify(signing.INVITE_ANSWER, sig, 5, 9, "accept", 1790003600)  # a later expiry
    assert not signing.verify(signing.INVITE_ANSWER, sig, 6, 9, "accept", 1790000000)  # another invite
    flipped = ("0" if sig[0] != "0" else "1") + sig[1:]
    assert not signing.verify(signing.INVITE_ANSWER, flipped, 5, 9, "accept", 1790000000)
    for bad in (sig[:-1], sig + "0", sig.upper(), "é" * 40, "", None, 12, ["x"]):
        assert not signing.verify(signing.INVITE_ANSWER, bad, 5, 9, "accept", 1790000000)


def test_fields_cannot_be_shifted_from_one_into_the_next():
    sig = signing.sign(signing.LIST_UNSUBSCRIBE, "news", 12, "ann@example.com")
    assert not signing.verify(signing.LIST_UNSUBSCRIBE, sig, "news", "12", "ann@example.com", "")
    assert not signing.verify(signing.LIST_UNSUBSCRIBE, sig, "news:12", "ann@example.com")


def test_an_unknown_purpose_is_an_error():
    with pytest.raises(ValueError, match="unknown signing purpose"):
        signing.sign("reset-everything", 1)
    with pytest.raises(ValueError, match="unknown signing purpose"):
        signing.verify("reset-everything", "0" * 40, 1)


def test_rotation_old_signatures_verify_new_ones_use_the_new_key(keys):
    keys(OLD_KEY)
    old_sig = signing.sign(signing.FILE_LINK, 3, "bracket:7", 1790000000)
    old_digest = signing.digest("a-session-token")
    old_jwt_key = signing.jwt_key()

    keys(NEW_KEY, OLD_KEY)
    assert signing.verify(signing.FILE_LINK, old_sig, 3, "bracket:7", 1790000000)
    assert old_digest in signing.digests("a-session-token")
    assert old_jwt_key in signing.jwt_keys()
    new_sig = signing.sign(signing.FILE_LINK, 3, "bracket:7", 1790000000)
    assert new_sig != old_sig
    assert signing.digest("a-session-token") != old_digest
    assert signing.digests("a-session-token")[0] == signing.digest("a-session-token")  # the current key's first
    assert signing.jwt_key() != old_jwt_key and signing.jwt_keys()[0] == signing.jwt_key()

    keys(NEW_KEY)  # the old key retired: what it signed is refused
    assert not signing.verify(signing.FILE_LINK, old_sig, 3, "bracket:7", 1790000000)
    assert old_digest not in signing.digests("a-session-token")
    assert old_jwt_key not in signing.jwt_keys()
    assert signing.verify(signing.FILE_LINK, new_sig, 3, "bracket:7", 1790000000)


def test_fallback_keys_are_read_comma_separated(keys):
    keys(NEW_KEY, OLD_KEY, "an-even-older-key-0123456789abcdefghijklmn")
    assert get_settings().secret_key_fallbacks == [OLD_KEY, "an-even-older-key-0123456789abcdefghijklmn"]
    assert signing.secrets_in_use() == [NEW_KEY, OLD_KEY, "an-even-older-key-0123456789abcdefghijklmn"]


def test_a_signature_under_a_key_never_configured_is_refused(keys):
    keys("somebody-elses-key-0123456789abcdefghijklmnop")
    foreign = signing.sign(signing.NEWSLETTER_UNSUBSCRIBE, 1, "ann@example.com")
    keys(NEW_KEY, OLD_KEY)
    assert not signing.verify(signing.NEWSLETTER_UNSUBSCRIBE, foreign, 1, "ann@example.com")


@pytest.mark.parametrize(
    ("purpose", "fields", "message"),
    [
        (signing.NEWSLETTER_UNSUBSCRIBE, (4, "ann@example.com"), "unsubscribe:4:ann@example.com"),
        (signing.LIST_UNSUBSCRIBE, ("news", 4, "ann@example.com"), "list-unsubscribe:news:4:ann@example.com"),
        (signing.INVITE_ANSWER, (8, 4, "accept", 1790000000), "invite-answer:8:4:accept:1790000000"),
        (signing.NAMED_ANSWER, (8, 4, "decline", 1790000000), "named-answer:8:4:decline:1790000000"),
        (signing.FILE_LINK, (4, "export:2:teams", 1790000000), "file:4:export:2:teams:1790000000"),
    ],
)
def test_links_signed_before_keys_were_derived_still_verify(keys, purpose, fields, message):
    keys(NEW_KEY, OLD_KEY)
    for key in (NEW_KEY, OLD_KEY):
        assert signing.verify(purpose, _legacy(key, message), *fields)
    assert not signing.verify(purpose, _legacy("a-key-never-used-0123456789abcdefghijklmn", message), *fields)
    # Such a link is for its own purpose only.
    for other in LINK_PURPOSES:
        if other != purpose:
            assert not signing.verify(other, _legacy(NEW_KEY, message), *fields)


def test_token_hashes_kept_before_keys_were_derived_are_still_found(keys):
    keys(NEW_KEY, OLD_KEY)
    found = signing.digests("a-session-token")
    assert _legacy(NEW_KEY, "a-session-token", 64) in found and _legacy(OLD_KEY, "a-session-token", 64) in found
    assert signing.digest("a-session-token") not in (_legacy(NEW_KEY, "a-session-token", 64),)
    assert NEW_KEY.encode() in signing.jwt_keys() and OLD_KEY.encode() in signing.jwt_keys()
