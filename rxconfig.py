"""Reflex configuration. Every URL and origin comes from volley_app.settings (the environment)."""

import reflex as rx

from volley_app.settings import get_settings

settings = get_settings()

config = rx.Config(
    app_name="volley_app",
    # The app's own tables and migrations (volley_app.db, alembic/) own the database;
    # Reflex's rx.Model helpers are not used.
    db_url=None,
    redis_url=settings.redis_url,
    cors_allowed_origins=settings.cors_origins,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    disable_plugins=[rx.plugins.SitemapPlugin],
    plugins=[
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(accent_color="orange", gray_color="slate", radius="large", appearance="light"),
        ),
    ],
)
