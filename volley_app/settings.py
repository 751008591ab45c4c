"""One typed settings object, read from the environment (and an optional .env).

The embedded default needs no configuration at all: a SQLite file, in-process
Reflex state, mail kept in the outbox and logged, the offline card provider.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
# The product's name, in every page title and the site's header.
SITE_NAME = "Bluegrass Volleyball"

SECRET_KEY_FILE = "secret_key"  # noqa: S105 - the file's name under VAR_DIR, not a key
SECRET_KEY_BYTES = 48
VAPID_KEY_FILE = "vapid_private_key.pem"
# The push services of the browsers people use (Chrome, Firefox, Edge, Safari): a device's subscription names one.
PUSH_SERVICES = ("fcm.googleapis.com", "updates.push.services.mozilla.com", "notify.windows.com", "push.apple.com")


def installation_key(var_dir: Path) -> str:
    """This installation's own signing key: read from ``var_dir/secret_key``, written there (random, mode 0600)
    on the first start."""
    return _installation_file(var_dir, SECRET_KEY_FILE, lambda: secrets.token_urlsafe(SECRET_KEY_BYTES) + "\n")


def installation_push_key(var_dir: Path) -> str:
    """This installation's own VAPID key (PEM of a P-256 private key) for push notifications: read from
    ``var_dir/vapid_private_key.pem``, made there on the first start."""
    def make() -> str:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        key = ec.generate_private_key(ec.SECP256R1())
        return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption()).decode()  # fmt: skip

    return _installation_file(var_dir, VAPID_KEY_FILE, make)


def _installation_file(var_dir: Path, name: str, make: Callable[[], str]) -> str:
    """The text of ``var_dir/name``, written there by ``make`` (mode 0600) when it is missing. Processes starting
    together agree: the file appears whole, once (a hard link)."""
    path = var_dir / name
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    var_dir.mkdir(parents=True, exist_ok=True)
    draft = var_dir / f".{name}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(make())
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process wrote it first: theirs is the one
    finally:
        draft.unlink(missing_ok=True)
    return path.read_text().strip()


class Settings(BaseSettings):
    """Every knob of the app, one place. Environment names are the field names in upper case."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    app_env: Literal["development", "production", "test"] = "development"
    # Signs tokens and keys their hashes. Unset: this installation's own random key, kept in VAR_DIR/secret_key.
    secret_key: str = ""
    # Keys used before SECRET_KEY (comma separated, newest first): what they signed still verifies (services/core/signing.py).
    secret_key_fallbacks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    var_dir: str = str(ROOT / "var")

    database_url: str = f"sqlite:///{ROOT / 'var' / 'volley.db'}"
    redis_url: str | None = None
    # Where the background loops run (mail, push, sweeps, reminders; services/core/background.py): "here", "one"
    # (one instance of those sharing REDIS_URL at a time) or "off". Empty: "one" with REDIS_URL, else "here".
    background_tasks: Literal["", "here", "one", "off"] = ""

    # Where people reach the app; links in email are built from this, never from a request.
    public_url: str = "http://localhost:3000"
    # The backend's own address, only where it is not PUBLIC_URL's origin (``reflex run --env dev`` serves the
    # backend on a port of its own); empty: PUBLIC_URL, as under ``make run`` and behind the shipped nginx.
    backend_url: str = ""
    # Browser origins allowed to call the backend; defaults to the app's own origin.
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Host names the app answers to besides those of the addresses above (a request with another Host is refused).
    allowed_hosts: Annotated[list[str], NoDecode] = Field(default_factory=list)

    # Passwords and sessions
    bcrypt_rounds: int = 12
    session_hours_untrusted: int = 12
    session_days_trusted: int = 30
    # Login throttling: per account and client a few free failures, then a doubling wait (capped);
    # ceilings per account and per client that a known device of the account is exempt from (services/accounts/auth.py).
    login_free_failures: int = 3
    login_max_delay_seconds: int = 900
    login_max_failures_per_account: int = 30
    login_max_failures_per_client: int = 20
    login_window_minutes: int = 15

    # Proxies: the client of a request whose direct peer is one of these addresses or networks (comma
    # separated, "*" for any) is the address it forwards in X-Forwarded-For; anyone else is their own address.
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(default_factory=lambda: ["127.0.0.1", "::1"])

    # Mail
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = False
    smtp_ssl: bool = False
    smtp_timeout_seconds: float = 10.0
    mail_from: str = "Volleyball Leagues <no-reply@volley.example>"
    provider_email: str = "hello@volley.example"
    outbox_interval_seconds: float = 5.0
    outbox_max_attempts: int = 8

    # Push notifications (Web Push, VAPID). The private key: a PEM; unset, this installation's own, made in
    # VAR_DIR/vapid_private_key.pem on the first start (instances on several machines must share one: set it).
    vapid_private_key: str = ""
    # Who runs the app, for the push services (a mailto: or https: address); unset: PROVIDER_EMAIL's mailto.
    vapid_subject: str = ""
    # The push services a device's subscription may name (a host or a parent domain of it; comma separated).
    push_service_hosts: Annotated[list[str], NoDecode] = Field(default_factory=lambda: list(PUSH_SERVICES))
    push_interval_seconds: float = 2.0
    push_max_attempts: int = 5

    # Card payments (used by the registration issue); empty keys mean the offline provider.
    stripe_secret_key: str | None = None
    stripe_publishable_key: str | None = None
    stripe_webhook_secret: str | None = None
    stripe_api_base: str | None = None

    # Product text and local conventions
    # The landing page's announcement; empty: when and where the next league in registration starts.
    banner_text: str = ""
    time_zone: str = "America/New_York"
    cash_only_svl: str | None = None

    # Private uploads (tournament brackets): outside any public folder, served only after a permission check.
    upload_dir: str = str(ROOT / "var" / "uploads")
    upload_max_bytes: int = 2 * 1024 * 1024

    @field_validator("cors_origins", "allowed_hosts", "forwarded_allow_ips", "secret_key_fallbacks", "push_service_hosts",
                     mode="before")
    @classmethod
    def _split_origins(cls, value):
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        return value

    @field_validator("redis_url", "smtp_host", "stripe_secret_key", mode="before")
    @classmethod
    def _blank_is_none(cls, value):
        return value or None

    @model_validator(mode="after")
    def _check(self) -> Settings:
        if not self.secret_key:
            if self.app_env == "production":
                raise ValueError("SECRET_KEY must be set when APP_ENV=production")
            self.secret_key = installation_key(Path(self.var_dir))
        if not self.vapid_private_key:
            self.vapid_private_key = installation_push_key(Path(self.var_dir))
        if not self.vapid_subject:
            self.vapid_subject = f"mailto:{self.provider_email}"
        for entry in self.forwarded_allow_ips:
            if entry != "*":
                ipaddress.ip_network(entry, strict=False)  # ValueError names the bad entry
        if not self.cors_origins:
            self.cors_origins = [self.public_url.rstrip("/")]
        if self.background_tasks == "one" and not self.redis_url:
            raise ValueError("BACKGROUND_TASKS=one needs REDIS_URL (the instances elect one there)")
        if self.bcrypt_rounds < 4 or self.bcrypt_rounds > 16:
            raise ValueError("BCRYPT_ROUNDS must be between 4 and 16")
        return self

    @model_validator(mode="after")
    def _backend_shares_the_public_origin(self) -> Settings:
        if not self.backend_url:
            self.backend_url = self.public_url.rstrip("/")
        return self

    @property
    def is_production(self) -> bool:
        return self.app_env == "production"

    @property
    def background_mode(self) -> str:
        """Where this process runs the background loops: ``background_tasks``, or its default."""
        return self.background_tasks or ("one" if self.redis_url else "here")

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def smtp_configured(self) -> bool:
        return bool(self.smtp_host)


@functools.cache
def get_settings() -> Settings:
    """The process-wide settings (cached; tests call ``get_settings.cache_clear()``)."""
    return Settings()
