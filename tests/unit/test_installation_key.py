"""The signing key: set by SECRET_KEY, or this installation's own random key, written once under VAR_DIR."""

from __future__ import annotations

import stat

import pytest

from volley_app.settings import SECRET_KEY_FILE, Settings


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
    assert list((tmp_path / "var").iterdir()) == [path]  # no draft left behind


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
