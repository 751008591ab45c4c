"""Every file link of the league pages downloads on click (CSV exports, calendar file, tournament bracket)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import open_as, screenshot
from volley_app import db
from volley_app.settings import get_settings

pytestmark = pytest.mark.smoke  # also run on the second database (scripts/test.sh, E2E=smoke)

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _demo_league_with_a_bracket() -> int:
    """The demo's running league of lexsports, with a PDF tournament bracket uploaded by its operator."""
    from tests.factories import actor_of
    from volley_app.demo import seed
    from volley_app.models import Day, League, User
    from volley_app.services.seasons import leagues

    def build(s) -> int:
        seed(s)
        league = s.exec(select(League).where(League.court == "Court 1", League.day == Day.MONDAY)).one()
        svl = s.exec(select(User).where(User.username == "lexsports")).one()
        leagues.upload_bracket(s, actor_of(svl), league.id, data=PDF)
        return league.id

    return db.call(build)


def _download(page: Page, name: str, exact: bool = False):
    """Click the link named ``name`` the way a person does; the browser receives the file, the page stays."""
    before = page.url
    with page.expect_download() as got:
        page.get_by_role("link", name=name, exact=exact).click()
    download = got.value
    assert download.failure() is None, download.failure()
    assert page.url == before  # no navigation inside the app (no "Page Not Found")
    with open(download.path(), "rb") as f:
        return download.suggested_filename, f.read()


@pytest.mark.parametrize("width", [1280, 390])
def test_an_operator_downloads_every_file_of_a_league(new_page, width):
    lid = _demo_league_with_a_bracket()
    page = new_page(width=width, height=844)
    open_as(page, "lexsports", f"/dash/leagues/{lid}")
    origin = get_settings().public_url.rstrip("/")
    expect(page.get_by_role("link", name="Captain list (CSV)")).to_have_attribute(
        "href", re.compile("^" + re.escape(f"{origin}/api/exports/leagues/{lid}/teams.csv?"))
    )  # on the app's own address, where the pages are
    screenshot(page, f"league-files-{width}")

    for label in ("Captain list", "Payment list", "Record table", "Game list", "Roster list"):
        name, body = _download(page, f"{label} (CSV)")
        assert name.endswith(".csv"), name
        assert body.strip() and b"<html" not in body.lower(), body[:200]

    name, body = _download(page, "Download the tournament bracket")
    assert body == PDF and name == "tournament-bracket.pdf"  # saved with the kind of file it is

    page.goto(f"/dash/leagues/teams/schedule?league={lid}")
    expect(page.get_by_role("link", name="Add to calendar")).to_be_visible()
    screenshot(page, f"schedule-files-{width}")
    _name, body = _download(page, ".ics file", exact=True)
    assert body.startswith(b"BEGIN:VCALENDAR"), body[:200]
