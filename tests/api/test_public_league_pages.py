"""The home page and the public league pages over HTTP, through the whole backend: HTML drawn on the server with
what a link preview reads (title, description, Open Graph, schema.org JSON-LD), the site's security headers, a 404 page for a league a
visitor may not see, and nothing about a person."""

from __future__ import annotations

import html
import json
import re

import httpx
import pytest

from tests.api.test_security_headers import check_headers
from tests.factories import public_league_world
from volley_app import routes
from volley_app.models import League
from volley_app.settings import get_settings


@pytest.fixture
def world(db):
    return public_league_world(db)


def _meta(page: str, key: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)"', page)
    assert found, key
    return html.unescape(found.group(1))


def _json_ld(page: str) -> dict:
    found = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(found) == 1
    return json.loads(found[0])


def _drawn_on_the_server(response: httpx.Response, path: str) -> str:
    """The checks every public league page passes; its text."""
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "public, max-age=60"
    check_headers(response)
    page = response.text
    assert len(response.content) < 150_000
    assert _meta(page, "og:url") == get_settings().public_url.rstrip("/") + path
    assert _meta(page, "og:type") == "website"
    assert _meta(page, "og:title") and _meta(page, "og:description") and _meta(page, "description")
    assert "<main" in page and "<h1>" in page and '<html lang="en">' in page
    assert not re.search(r"<script(?![^>]*application/ld\+json)", page)  # no script runs: nothing needs one
    assert not re.search(r"[\w.+-]+@[\w-]+\.\w+", page)  # no email address anywhere
    return page


async def test_the_home_page_announces_the_next_league_and_leads_in(client, world, monkeypatch):
    monkeypatch.setattr(get_settings(), "banner_text", "")
    response = await client.get(routes.HOME)
    page = _drawn_on_the_server(response, routes.HOME)
    assert "<title>Bluegrass Volleyball</title>" in page
    assert "<h1>Play more volleyball.</h1>" in page
    announcement = re.search(r'role="region" aria-label="League announcement"><p>(.*?)</p>', page)
    assert announcement, page
    assert re.fullmatch(r"The next league starts [A-Z][a-z]+ \d{1,2}(st|nd|rd|th)\. Signups are open!", announcement.group(1))
    origin = get_settings().public_url.rstrip("/")
    for label, href in (("Sign Up", origin + routes.SIGNUP), ("Log In", origin + routes.LOGIN),
                        ("Browse Leagues", routes.public_leagues_base), ("Contact", origin + routes.CONTACT),
                        ("Franchise", origin + routes.FRANCHISE)):  # fmt: skip
        assert re.search(rf'<a [^>]*href="{re.escape(href)}"[^>]*>(<strong>)?{label}<', page), label

    monkeypatch.setattr(get_settings(), "banner_text", "Beach season opens May 1st!")
    page = (await client.get(routes.HOME)).text
    assert '<p>Beach season opens May 1st!</p>' in page


async def test_the_list_names_each_league_with_its_facts_and_structured_data(client, world):
    response = await client.get(routes.public_leagues_base)
    page = _drawn_on_the_server(response, routes.public_leagues_base)
    assert "<title>Volleyball leagues | Bluegrass Volleyball</title>" in page
    for key in ("open", "running"):
        assert f'href="{routes.public_league_path(world[key])}"' in page
    for hidden in world["hidden"].values():
        assert f'href="{routes.public_league_path(hidden)}"' not in page
    assert "5 of 8 places left" in page and "$330 a team" in page and "Sandbox Courts" in page
    listed = _json_ld(page)
    assert listed["@type"] == "ItemList"
    events = [item["item"] for item in listed["itemListElement"]]
    assert [e["@type"] for e in events] == ["SportsEvent", "SportsEvent"]
    assert events[1]["url"] == routes.absolute(routes.public_league_path(world["open"]))


async def test_a_running_league_shows_its_standings_table_schedule_and_a_sports_event(client, world):
    path = routes.public_league_path(world["running"])
    page = _drawn_on_the_server(await client.get(path), path)
    assert "<title>Monday B 6s volleyball league at Sandbox Courts | Bluegrass Volleyball</title>" in page
    assert "Monday B 6s" in _meta(page, "og:title") and "Sandbox Courts" in _meta(page, "og:description")
    event = _json_ld(page)
    assert event["@context"] == "https://schema.org" and event["@type"] == "SportsEvent"
    assert event["url"] == routes.absolute(path) and event["location"]["name"] == "Sandbox Courts"
    assert event["startDate"].endswith("Z") and event["offers"]["price"] == "330.00"
    assert event["offers"]["availability"] == "https://schema.org/InStock"  # late registration: 2 places left
    standings = page[page.index('<caption id="standings-caption"'):]
    standings = standings[: standings.index("</table>")]
    assert '<th scope="col">Team</th>' in standings and standings.count('<th scope="row">') == 4
    assert "Spikers1 v Spikers2" in page and "21-15, 21-18" in page and "Week 2" in page
    assert "Casey" not in page and "Waiting1" not in page
    assert "2 of 6 places left" in page and "Register a team</a>" in page


async def test_a_league_whose_registration_closed_offers_none(client, db, world):
    db.get(League, world["running"]).registration_deadline = None  # closed at the start, now past
    db.commit()
    page = (await client.get(routes.public_league_path(world["running"]))).text
    assert "Registration for this league has closed" in page and "Register a team</a>" not in page
    assert _json_ld(page)["offers"]["availability"] == "https://schema.org/SoldOut"


async def test_a_league_in_registration_leads_to_its_registration_through_login_or_signup(client, world):
    path = routes.public_league_path(world["open"])
    page = _drawn_on_the_server(await client.get(path), path)
    registration = routes.new_team_path(world["open"])
    assert f'href="{html.escape(routes.absolute(routes.login_with_next(registration)))}"' in page
    assert f'href="{html.escape(routes.absolute(routes.signup_with_next(registration)))}"' in page
    assert routes.safe_next(routes.login_with_next(registration).split("next=", 1)[1]) == registration
    assert "Standings" not in page
    assert _json_ld(page)["offers"]["availability"] == "https://schema.org/InStock"


async def test_a_league_a_visitor_may_not_see_or_none_is_a_404_page(client, world):
    for league_id in [*world["hidden"].values(), 999_999, "not-a-number"]:
        response = await client.get(routes.public_league_path(league_id))
        assert response.status_code == 404, league_id
        assert response.headers["content-type"].startswith("text/html")
        assert "<h1>League not found</h1>" in response.text and 'href="/leagues"' in response.text
        check_headers(response)


async def test_head_answers_as_get_does(client, world):
    for path in (routes.public_leagues_base, routes.public_leagues_base + "/", routes.public_league_path(world["open"])):
        response = await client.head(path)
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
        check_headers(response)
    assert (await client.head(routes.public_league_path(999_999))).status_code == 404


async def test_the_policy_needs_no_inline_script_for_the_structured_data(client, world):
    response = await client.get(routes.public_league_path(world["open"]))
    script_src = next(p for p in response.headers["content-security-policy"].split(";") if p.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script_src and "sha256-" not in script_src


async def test_a_long_list_is_paged_on_the_server(client, world):
    first = await client.get(routes.public_leagues_base, params={"page": "not-a-bookmark"})
    assert first.status_code == 200 and "More leagues" not in first.text  # two leagues: one page



async def test_a_browser_that_takes_gzip_gets_the_page_gzipped(client, world):
    path = routes.public_league_path(world["running"])
    plain = await client.get(path, headers={"Accept-Encoding": "identity"})
    packed = await client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert "content-encoding" not in plain.headers and packed.headers["content-encoding"] == "gzip"
    assert packed.text == plain.text  # the same page, a fraction of the bytes on the line
    assert int(packed.headers["content-length"]) < len(plain.content) / 3
    assert "Accept-Encoding" in packed.headers["vary"]
    check_headers(packed)
