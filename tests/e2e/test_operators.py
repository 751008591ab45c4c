"""Operators in Chromium: an SVL builds a league night end to end; a player only looks."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import add_teams, expect_path, make_user, open_as
from volley_app import db
from volley_app.models import League, Role

PHONE = {"width": 390, "height": 844}


def _league_id() -> int:
    return db.call(lambda s: s.exec(select(League.id)).one())


def test_svl_runs_a_league_and_a_player_only_looks(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("pia")
    page = new_page()
    open_as(page, "courtside", "/dash/sessions")
    expect(page.get_by_text("No Sessions Yet")).to_be_visible()

    page.get_by_role("link", name="Add Session").click()
    expect_path(page, "/dash/sessions/new")
    page.get_by_label("Name").fill("Spring Session")
    page.get_by_label("Start").fill("2031-03-01T18:00")
    page.get_by_label("End").fill("2031-02-01T18:00")
    page.get_by_role("button", name="Create Session").click()
    expect(page.get_by_text("End must be later than start").first).to_be_visible()
    page.get_by_label("End").fill("2031-05-30T22:00")
    page.get_by_role("button", name="Create Session").click()
    expect(page.get_by_role("heading", name="Spring Session")).to_be_visible()

    page.get_by_role("link", name="Add League").click()
    expect_path(page, "/dash/leagues/new")
    expect(page.get_by_label("Session")).to_have_value(re.compile(r"\d+"))
    expect(page.get_by_label("Cash Only")).to_have_count(0)
    page.get_by_label("Court", exact=True).fill("Court 2")
    page.get_by_label("Start Date and Time").fill("2031-03-03T18:30")
    page.get_by_label("Number of Weeks").fill("3")
    page.get_by_label("Time Increment (minutes)").fill("50")
    page.get_by_label("Skill Level").select_option("C")
    page.get_by_label("Format").select_option("6s")
    page.get_by_label("Day").select_option("Monday")
    page.get_by_label("Max Teams").fill("8")
    page.get_by_label("Cost (dollars)").fill("300")
    page.get_by_role("button", name="Create League").click()
    expect(page.get_by_role("heading", name="Monday C 6s")).to_be_visible()
    expect(page.get_by_text("Tournament Bracket not released yet. Check back later!")).to_be_visible()

    lid = _league_id()
    add_teams(lid, ["Net Ninjas", "Block Party", "Dig Deep", "Set to Kill"], captain="pia")
    page.get_by_role("link", name="Schedule").click()
    expect(page.get_by_text("No Schedule yet, try back later!")).to_be_visible()
    page.go_back()
    page.get_by_role("button", name="Generate Schedule").click()
    expect(page.get_by_text("Schedule generated: 6 games.")).to_be_visible()

    page.get_by_role("link", name="Schedule").click()
    expect(page.get_by_role("heading", name="Week 1 · Mon, Mar 3, 2031")).to_be_visible()
    page.get_by_label("Week", exact=True).select_option("3")  # the schedule shows a week at a time
    expect(page.get_by_role("heading", name="Week 3 · Mon, Mar 17, 2031")).to_be_visible()
    page.get_by_role("button", name="Previous week").click()
    expect(page.get_by_role("heading", name="Week 2 · Mon, Mar 10, 2031")).to_be_visible()
    page.get_by_role("button", name="Previous week").click()
    expect(page.get_by_role("heading", name="Week 1 · Mon, Mar 3, 2031")).to_be_visible()
    page.get_by_role("link", name="Edit").first.click()
    expect(page.get_by_role("heading", name="Edit Game")).to_be_visible()
    expect(page.get_by_label("Team 1", exact=True)).not_to_have_value("")
    page.get_by_label("Team 2 Set 1").fill("19")  # wait for the form to load its values first
    page.get_by_label("Team 1 Set 1").fill("21")
    page.get_by_label("Team 2 Set 1").fill("24")
    page.get_by_role("button", name="Update Game").click()
    expect(page.get_by_text("Set 1: play to 21").first).to_be_visible()
    page.get_by_label("Team 2 Set 1").fill("15")
    page.get_by_label("Team 1 Set 2").fill("21")
    page.get_by_label("Team 2 Set 2").fill("18")
    page.get_by_role("button", name="Update Game").click()
    expect(page.get_by_text("21\u201115, 21\u201118")).to_be_visible()  # non-breaking hyphens

    page.goto(f"/dash/leagues/{lid}/teams")
    first = page.get_by_role("row").nth(1)
    expect(first).to_contain_text("Net Ninjas")
    expect(first.get_by_role("cell").nth(2)).to_have_text("1")  # wins
    last = page.get_by_role("row").last
    expect(last).to_contain_text("Set to Kill")
    expect(last.get_by_role("cell").nth(3)).to_have_text("1")  # losses

    player = new_page(**PHONE)
    open_as(player, "pia", f"/dash/leagues/{lid}")
    expect(player.get_by_role("heading", name="Monday C 6s")).to_be_visible()
    expect(player.get_by_text("Court 2")).to_be_visible()
    for action in ("Generate Schedule", "Update League", "Delete League", "Upload Bracket"):
        expect(player.get_by_role("button", name=action)).to_have_count(0)
    player.goto(f"/dash/leagues/{lid}/teams")
    expect(player.get_by_role("row").nth(1)).to_contain_text("Net Ninjas")
    expect(player.get_by_role("link", name="Edit")).to_have_count(0)
    player.goto("/dash/playerleagues")
    expect(player.get_by_role("link", name="Monday C 6s")).to_be_visible()
    expect(player.get_by_role("heading", name="Partner Venues")).to_be_visible()
    expect(player.get_by_role("paragraph").filter(has_text="Courtside User")).to_be_visible()


def test_svl_deletes_its_session_after_confirming(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    page = new_page(**PHONE)
    open_as(page, "courtside", "/dash/sessions/new")
    page.get_by_label("Name").fill("Gone Soon")
    page.get_by_label("Start").fill("2031-03-01T18:00")
    page.get_by_label("End").fill("2031-05-30T22:00")
    page.get_by_role("button", name="Create Session").click()
    expect(page.get_by_role("heading", name="Gone Soon")).to_be_visible()
    page.get_by_role("button", name="Delete Session").click()
    expect(page.get_by_text("Are you sure you want to delete Session: Gone Soon?")).to_be_visible()
    page.get_by_role("button", name="Delete", exact=True).click()
    expect_path(page, "/dash/sessions")
    expect(page.get_by_text("No Sessions Yet")).to_be_visible()


def _tiny_png() -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\xff\x80\x00" * 8 for _ in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))  # fmt: skip


def test_bracket_upload_is_checked_and_shown_to_players(new_page, tmp_path):
    from volley_app.services.seasons import sessions as session_svc

    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("pia")

    def arrange(s):
        from tests.factories import actor_of
        from volley_app.models import User
        from volley_app.services.seasons import leagues as league_svc

        svl = s.exec(select(User).where(User.username == "courtside")).one()
        sess = session_svc.create_session(s, actor_of(svl), name="S", start="2031-03-01T18:00", end="2031-05-30T22:00")
        league_svc.create_league(s, actor_of(svl), session_id=sess.id, court="Court 5", start="2031-03-03T18:30",
                                 number_of_weeks="3", time_increment="50", skill_level="C", format="6s", day="Monday",
                                 max_teams="8", cost="300")  # fmt: skip

    db.call(arrange)
    lid = _league_id()
    fake = tmp_path / "bracket.png"
    fake.write_text("<!doctype html><script>alert(1)</script>")
    real = tmp_path / "real.png"
    real.write_bytes(_tiny_png())

    page = new_page()
    open_as(page, "courtside", f"/dash/leagues/{lid}")
    expect(page.get_by_text("Tournament Bracket not released yet. Check back later!")).to_be_visible()
    upload = page.get_by_label("Tournament bracket file")  # the file input has a name
    upload_error = page.locator("#bracket-upload-error")  # right under the upload, not at the top of the page
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a bracket")
    upload.set_input_files(str(text_file))  # refused by type in the browser
    expect(upload_error).to_have_text(re.compile(r"^Upload a PNG, PDF, DOC or JPEG file of at most \d+ MB$"))
    upload.set_input_files(str(fake))  # a .png name, but not a PNG inside: refused by the server
    # the browser's refusal above reads the same, so wait for the server's answer; a click while a file is still
    # going up is not sent again
    with page.expect_response(lambda r: "/_upload" in r.url) as answer:
        page.get_by_role("button", name="Upload Bracket").click()
    answer.value.finished()
    expect(upload_error).to_have_text(re.compile(r"^Upload a PNG, PDF, DOC or JPEG file of at most \d+ MB$"))
    expect(page.locator("#league-error")).to_have_text("")
    expect(page.get_by_text("Tournament Bracket not released yet. Check back later!")).to_be_visible()

    upload.set_input_files(str(real))
    page.get_by_role("button", name="Upload Bracket").click()
    expect(page.get_by_text("Tournament bracket uploaded.")).to_be_visible()
    expect(upload_error).to_have_text("")
    expect(page.get_by_role("img", name="Tournament bracket")).to_be_visible()

    player = new_page(**PHONE)
    open_as(player, "pia", f"/dash/leagues/{lid}")
    expect(player.get_by_role("img", name="Tournament bracket")).to_be_visible()
    expect(player.get_by_role("button", name="Upload Bracket")).to_have_count(0)


def test_svl_promotes_a_waitlisted_team_and_the_captain_gets_mail(new_page, mailbox):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("pia")

    def arrange(s):
        from tests.factories import actor_of
        from volley_app.models import Team, User
        from volley_app.services.seasons import leagues as league_svc
        from volley_app.services.seasons import sessions as session_svc

        svl = s.exec(select(User).where(User.username == "courtside")).one()
        pia = s.exec(select(User).where(User.username == "pia")).one()
        sess = session_svc.create_session(s, actor_of(svl), name="S", start="2031-03-01T18:00", end="2031-05-30T22:00")
        lg = league_svc.create_league(s, actor_of(svl), session_id=sess.id, court="Court 5", start="2031-03-03T18:30",
                                      number_of_weeks="3", time_increment="50", skill_level="D", format="6s",
                                      day="Monday", max_teams="8", cost="300")  # fmt: skip
        s.add(Team(league_id=lg.id, team_name="Waiting Game", captain_id=pia.id, waitlist=True))

    db.call(arrange)
    page = new_page(**PHONE)
    open_as(page, "courtside", "/dash/leagues/teams/waitlist")
    row = page.get_by_role("row").filter(has_text="Waiting Game")
    row.get_by_role("button", name="Promote").click()
    expect(page.get_by_text(re.compile(r"Waiting Game has been offered a place: the captain has been emailed"))).to_be_visible()
    expect(row).to_contain_text("Offered until")
    (msg,) = mailbox.wait_for(1)
    assert msg["To"] == "pia@example.com"
    assert "Waiting Game" in msg["Subject"] and "Monday D 6s" in msg["Subject"]
