"""The Reflex app: every declared page, the REST API under /api, and the mail sender in the background."""

from __future__ import annotations

import logging

import reflex as rx

from volley_app import registry
from volley_app.api.app import create_api
from volley_app.services import mail

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

app = rx.App(
    api_transformer=create_api(),
    head_components=[rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml")],
    html_lang="en",
    stylesheets=["/theme.css"],
)
registry.add_pages(app)
app.register_lifespan_task(mail.run_sender_forever)
