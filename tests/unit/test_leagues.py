"""Leagues: stage over time, the required fields, the cash-only rule, who sees and manages which, the bracket."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import LEAGUE_START as T0
from tests.factories import add_league, league_world, make_user, rows
from volley_app.models import League, LeagueStage, Role, StoredFile
from volley_app.services.accounts import venues
from volley_app.services.core import uploads
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.operations import clock_sweep
from volley_app.services.seasons import leagues
from volley_app.services.seasons.leagues import access_league
from volley_app.settings import get_settings

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 40
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture
def world(db):
    return league_world(db)


@pytest.fixture
def cash_svla(monkeypatch):
    monkeypatch.setenv("CASH_ONLY_SVL", "svla")
    get_settings.cache_clear()
    yield
    monkeypatch.delenv("CASH_ONLY_SVL")
    get_settings.cache_clear()


# --- stage over time ---------------------------------------------------------------------


def test_league_stage_boundaries():
    lg = League(start_at=T0, stage=LeagueStage.REGISTRATION)
    assert leagues.stage_at(lg, T0) == LeagueStage.REGISTRATION
    assert leagues.stage_at(lg, T0 + dt.timedelta(microseconds=1)) == LeagueStage.ACTIVE
    lg.stage = LeagueStage.INACTIVE
    assert leagues.stage_at(lg, T0 + dt.timedelta(days=1)) == LeagueStage.INACTIVE


def test_listing_leagues_shows_the_stage_and_the_sweep_saves_it(world):
    db, lg = world["db"], world["lg"]
    later = lg.start_at + dt.timedelta(seconds=1)
    listed = leagues.list_leagues(db, world["a"], now=later)
    db.commit()
    assert [x["stage"] for x in listed] == ["Active"]
    assert rows(db, League)[0].stage == LeagueStage.REGISTRATION  # a read saves nothing
    clock_sweep.save_reached(db, later)
    db.commit()
    db.expire_all()
    assert rows(db, League)[0].stage == LeagueStage.ACTIVE


# --- leagues --------------------------------------------------------------------------

LEAGUE_FIELDS = {
    "court": "Court 4", "start": "2027-03-01T18:30", "number_of_weeks": "8", "time_increment": "45",
    "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "299.50",
}  # fmt: skip


def test_league_created_with_cost_in_cents_and_a_display_name(world):
    db = world["db"]
    row = leagues.create_league(db, world["a"], session_id=world["sid"], **LEAGUE_FIELDS, cash="true")
    db.commit()
    assert row.cost_cents == 29950 and row.stage == LeagueStage.REGISTRATION and row.active
    assert row.cash is False  # cash-only is for the one SVL in settings
    assert leagues.display_name(row) == "Monday C 6s"


def test_cash_only_for_the_svl_named_in_settings(world, monkeypatch):
    monkeypatch.setenv("CASH_ONLY_SVL", "svla")
    get_settings.cache_clear()
    try:
        row = leagues.create_league(world["db"], world["a"], session_id=world["sid"], **LEAGUE_FIELDS, cash="true")
        assert row.cash is True
    finally:
        monkeypatch.delenv("CASH_ONLY_SVL")
        get_settings.cache_clear()


@pytest.mark.parametrize("missing", sorted(LEAGUE_FIELDS))
def test_each_required_league_field(world, missing):
    with pytest.raises(Invalid):
        leagues.create_league(world["db"], world["a"], session_id=world["sid"], **(LEAGUE_FIELDS | {missing: ""}))


@pytest.mark.parametrize("who", ["b", "p"])
def test_others_cannot_add_edit_or_delete_leagues(world, who):
    db, lg = world["db"], world["lg"]
    with pytest.raises(Forbidden):
        leagues.create_league(db, world[who], session_id=world["sid"], **LEAGUE_FIELDS)
    with pytest.raises(Forbidden):
        leagues.update_league(db, world[who], lg.id, **LEAGUE_FIELDS)
    with pytest.raises(Forbidden):
        leagues.delete_league(db, world[who], lg.id)
    db.rollback()
    assert [x.court for x in rows(db, League)] == ["Court 1"]


def test_svls_see_only_leagues_of_their_current_session_players_all_active(world):
    db = world["db"]
    add_league(db, world["svla"], world["sid"], active=False)
    assert len(leagues.list_leagues(db, world["a"])) == 1
    assert leagues.list_leagues(db, world["b"]) == []
    assert len(leagues.list_leagues(db, world["p"])) == 1
    assert leagues.get_league(db, world["p"], world["lg"].id)["can_manage"] is False
    assert leagues.get_league(db, world["a"], world["lg"].id)["can_manage"] is True


# --- uploads --------------------------------------------------------------------------


@pytest.fixture
def upload_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


@pytest.mark.parametrize(("data", "ctype"), [(PNG, "image/png"), (PDF, "application/pdf")])
def test_real_png_and_pdf_are_accepted(world, upload_dir, data, ctype):
    db = world["db"]
    leagues.upload_bracket(db, world["a"], world["lg"].id, data=data)
    db.commit()
    saved = rows(db, League)[0]
    assert saved.tournament_content_type == ctype
    stored = db.exec(select(StoredFile).where(StoredFile.name == saved.tournament_file)).one()  # in the database: every instance reads it
    assert (bytes(stored.data), stored.content_type, stored.size) == (data, ctype, len(data))
    assert not upload_dir.exists() or list(upload_dir.iterdir()) == []  # nothing on this machine's disk
    served = leagues.bracket_file(db, world["p"], saved.id)
    assert served["data"] == data and served["content_type"] == ctype and served["etag"].startswith('"')
    assert served["filename"] == "tournament-bracket" + {"image/png": ".png", "application/pdf": ".pdf"}[ctype]
    assert leagues.bracket_link(db, world["p"], saved.id).startswith(f"/api/leagues/{saved.id}/bracket?u=")


def test_html_renamed_png_is_rejected(world, upload_dir):
    with pytest.raises(Invalid, match="PNG, PDF, DOC or JPEG"):
        leagues.upload_bracket(world["db"], world["a"], world["lg"].id, data=b"<!doctype html><script>x</script>")
    assert list(upload_dir.iterdir()) == [] and world["db"].exec(select(StoredFile)).all() == []


def test_oversized_file_is_rejected_with_nothing_written(world, upload_dir):
    big = PNG + b"\x00" * get_settings().upload_max_bytes
    with pytest.raises(Invalid, match="too large"):
        leagues.upload_bracket(world["db"], world["a"], world["lg"].id, data=big)
    assert list(upload_dir.iterdir()) == [] and world["db"].exec(select(StoredFile)).all() == []
    assert rows(world["db"], League)[0].tournament_file is None


@pytest.mark.parametrize("data", [b"", b"<!doctype html>", PNG + b"\x00" * (2 * 1024 * 1024)])
def test_every_upload_refusal_names_the_allowed_kinds_and_the_size_limit(world, upload_dir, data):
    with pytest.raises(Invalid) as err:
        leagues.upload_bracket(world["db"], world["a"], world["lg"].id, data=data)
    limit = get_settings().upload_max_bytes // (1024 * 1024)
    assert "PNG, PDF, DOC or JPEG" in err.value.errors["file"] and f"at most {limit} MB" in err.value.errors["file"]


def test_another_svl_cannot_upload(world, upload_dir):
    with pytest.raises(Forbidden):
        leagues.upload_bracket(world["db"], world["b"], world["lg"].id, data=PNG)
    assert list(upload_dir.iterdir()) == [] and world["db"].exec(select(StoredFile)).all() == []


def test_a_replaced_bracket_is_forgotten_and_the_new_one_served(world, upload_dir):
    db = world["db"]
    first = leagues.upload_bracket(db, world["a"], world["lg"].id, data=PNG).tournament_file
    leagues.upload_bracket(db, world["a"], world["lg"].id, data=PDF)
    db.commit()
    assert [f.content_type for f in db.exec(select(StoredFile)).all()] == ["application/pdf"]
    assert db.exec(select(StoredFile).where(StoredFile.name == first)).first() is None
    assert leagues.bracket_file(db, world["p"], world["lg"].id)["data"] == PDF


def test_a_bracket_stored_in_the_upload_folder_before_is_still_served(world, upload_dir):
    """A file from before the storage held files is read from UPLOAD_DIR where the migration could not copy it."""
    db = world["db"]
    (upload_dir / "0123456789abcdef0123456789abcdef.pdf").write_bytes(PDF)
    lg = db.get(League, world["lg"].id)
    lg.tournament_file, lg.tournament_content_type = "0123456789abcdef0123456789abcdef.pdf", "application/pdf"
    db.add(lg)
    db.commit()
    assert leagues.bracket_file(db, world["p"], lg.id)["data"] == PDF


def test_sniff_knows_jpeg_and_doc():
    assert uploads.sniff(b"\xff\xd8\xff\xe0rest")[0] == "image/jpeg"
    assert uploads.sniff(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest")[0] == "application/msword"


# --- the cash-only choice: one rule for the forms and the stored flag -----------------------


def test_the_new_league_form_shows_cash_only_as_the_service_allows_it(world, cash_svla):
    assert leagues.new_league_form(world["db"], world["a"])["show_cash"] is True
    assert [s["name"] for s in leagues.new_league_form(world["db"], world["a"])["sessions"]] == ["A fall"]
    assert leagues.new_league_form(world["db"], world["admin"])["show_cash"] is True  # A's session is offered
    assert leagues.new_league_form(world["db"], world["b"]) == {"sessions": [], "show_cash": False}


def test_the_new_league_form_hides_cash_only_for_other_svls(world):
    assert leagues.new_league_form(world["db"], world["a"])["show_cash"] is False
    with pytest.raises(Forbidden):
        leagues.new_league_form(world["db"], world["p"])


def test_the_edit_form_shows_cash_only_to_managers_of_the_cash_svls_league(world, cash_svla):
    db, lg = world["db"], world["lg"]
    assert leagues.get_league(db, world["a"], lg.id)["show_cash"] is True
    assert leagues.get_league(db, world["admin"], lg.id)["show_cash"] is True
    assert leagues.get_league(db, world["p"], lg.id)["show_cash"] is False


# --- loading a league by the id a browser sent ---------------------------------------------


def test_access_league_reads_for_everyone_logged_in_and_manages_for_its_svl(world):
    db, lg = world["db"], world["lg"]
    for who in ("a", "b", "p", "admin"):
        assert access_league(db, world[who], str(lg.id)).id == lg.id
    assert access_league(db, world["a"], lg.id, manage=True).id == lg.id
    for who in ("b", "p"):
        with pytest.raises(Forbidden):
            access_league(db, world[who], lg.id, manage=True)
    with pytest.raises(Unauthorized):
        access_league(db, None, lg.id)
    for bad in ("", "x", "0", str(lg.id + 999), True, None, "1e3"):
        with pytest.raises(NotFound, match="This league no longer exists"):
            access_league(db, world["a"], bad)


def test_an_inactive_league_is_found_only_by_those_who_manage_it(world):
    db = world["db"]
    hidden = add_league(db, world["svla"], world["sid"], active=False)
    assert leagues.get_league(db, world["a"], hidden.id)["can_manage"] is True
    for who in ("b", "p"):
        with pytest.raises(NotFound):
            leagues.get_league(db, world[who], hidden.id)
        with pytest.raises(NotFound):
            leagues.bracket_link(db, world[who], hidden.id)
        with pytest.raises(NotFound):
            leagues.bracket_file(db, world[who], hidden.id)


def test_svl_names_are_full_names_by_id(db):
    svl = make_user(db, "venue", Role.SVL, first_name="Gym", last_name="Town")
    assert venues.svl_names(db, [svl.id, svl.id]) == {svl.id: "Gym Town"}
    assert venues.svl_names(db, []) == {}
