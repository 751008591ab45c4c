"""Every link the app builds for email, mail headers and pages is on PUBLIC_URL (BACKEND_URL only when set)."""

from __future__ import annotations

import pytest

from tests.factories import make_user
from volley_app import routes
from volley_app.models import NewsletterSubscriber
from volley_app.services.mail import mail_lists, newsletter
from volley_app.settings import get_settings
from volley_app.state.files import backend_address

PUBLIC = "http://volley.example:8123"


@pytest.fixture
def public_url(monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", PUBLIC)
    monkeypatch.delenv("BACKEND_URL", raising=False)
    get_settings.cache_clear()
    yield PUBLIC
    monkeypatch.undo()
    get_settings.cache_clear()


def test_links_to_the_backend_are_on_the_public_url(db, public_url):
    user = make_user(db, "pat")
    subscriber = NewsletterSubscriber(email="fan@example.com")
    db.add(subscriber)
    db.flush()
    built = [
        routes.backend_absolute(routes.invite_answer_path("1.a.2.x")),  # an invitation's Accept / Decline
        mail_lists.unsubscribe_url(user, mail_lists.OPEN_NOTICES),  # "Stop these emails", List-Unsubscribe
        newsletter.one_click_unsubscribe(subscriber),  # the newsletter's List-Unsubscribe
        backend_address(routes.export_path(1, "teams")),  # a page's file link
        routes.absolute(routes.DASH),
    ]
    assert [link for link in built if not link.startswith(PUBLIC + "/")] == []


def test_a_backend_listening_elsewhere_is_named_by_backend_url(monkeypatch, public_url):
    monkeypatch.setenv("BACKEND_URL", "http://localhost:8000")
    get_settings.cache_clear()
    assert routes.backend_absolute("/api/x") == "http://localhost:8000/api/x"
    assert routes.absolute("/dash") == PUBLIC + "/dash"


def test_links_to_pages_the_backend_draws_stay_on_the_site_unless_it_listens_elsewhere(monkeypatch, public_url):
    assert routes.backend_page(routes.public_leagues_base) == "/leagues"  # make run, nginx: the same origin
    monkeypatch.setenv("BACKEND_URL", "http://localhost:8000")  # the dev server: the backend on a port of its own
    get_settings.cache_clear()
    assert routes.backend_page(routes.public_leagues_base) == "http://localhost:8000/leagues"
