"""The pages are built for the sources as they are: a process that starts the app finds the build current, or makes it."""

from __future__ import annotations

from tests.e2e.conftest import BUILD, _build_is_current


def test_the_app_serves_a_build_of_the_sources_as_they_are(app_url):
    assert _build_is_current()
    assert (BUILD / "index.html").is_file()
