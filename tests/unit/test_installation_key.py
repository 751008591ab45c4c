"""The signing key and the push key (VAPID): each set by a setting, or this installation's own, written once under
VAR_DIR."""

from __future__ import annotations

import stat

import pytest

from volley_app.settings import SECRET_KEY_FILE, VAPID_KEY_FILE, Settings


def _settings(monkeypatch, var_dir) -> Settings:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("VAR_DIR", str(var_dir))
    return Settings(_env_file=None)


def test_the_first_start_writes_a_random_key_only_its_owner_may_read(monkeypatch, tmp_path):
    key = _settings(monkeypatch, tmp_path / "var").secret_key
    path = tmp_path / "var" / SECRET_KEY_FILE
    assert path.read_text().strip() == key
    assert len(key) >= 43  # 32+ random bytes, base64
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted((tmp_path / "var").iterdir()) == [path, tmp_path / "var" / VAPID_KEY_FILE]  # no draft left behind


def test_the_first_start_makes_a_push_key_only_its_owner_may_read_and_keeps_it(monkeypatch, tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    pem = _settings(monkeypatch, tmp_path).vapid_private_key
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey) and key.curve.name == "secp256r1"
    assert stat.S_IMODE((tmp_path / VAPID_KEY_FILE).stat().st_mode) == 0o600
    assert _settings(monkeypatch, tmp_path).vapid_private_key == pem
    assert _settings(monkeypatch, tmp_path / "other").vapid_private_key != pem


def test_a_set_push_key_is_used_and_nothing_is_written(monkeypatch, tmp_path):
    pem = _settings(monkeypatch, tmp_path / "made").vapid_private_key
    monkeypatch.setenv("VAPID_PRIVATE_KEY", pem)
    assert _settings(monkeypatch, tmp_path / "set").vapid_private_key == pem
    assert not (tmp_path / "set" / VAPID_KEY_FILE).exists()


def test_the_key_survives_a_restart(monkeypatch, tmp_path):
    first = _settings(monkeypatch, tmp_path).secret_key
    again = _settings(monkeypatch, tmp_path).secret_key
    assert again == first


def test_two_installations_have_different_keys(monkeypatch, tmp_path):
    one = _settings(monkeypatch, tmp_path / "one").secret_key
    two = _settings(monkeypatch, tmp_path / "two").secret_key
    assert one != two


def test_a_set_key_is_used_and_nothing_is_written(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "a-key-the-operator-chose-0123456789abcdef")
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    assert Settings(_env_file=None).secret_key == "a-key-the-operator-chose-0123456789abcdef"
    assert not (tmp_path / SECRET_KEY_FILE).exists()


def test_production_needs_a_key_of_its_own(monkeypatch, tmp_path):
    monkeypatch.setenv("APP_ENV", "production")
    with pytest.raises(ValueError, match="SECRET_KEY must be set"):
        _settings(monkeypatch, tmp_path)
