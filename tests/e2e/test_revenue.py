"""An operator opens Revenue: the figures are the ledger's, the chart and the table by day are there, the CSV
downloads with numeric amounts whose total is the same; at desktop and phone width, checked by axe."""

from __future__ import annotations

import csv
import io
import re

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import col

from tests.e2e.helpers import add_open_league, expect_path, log_in, make_user, screenshot
from tests.e2e.test_axe import _check
from volley_app import db
from volley_app.models import League, LedgerEntry, Role
from volley_app.models.ledger import CASH, CHARGE, CREDIT_ISSUED, CREDIT_SPENT, REFUND
from volley_app.services.money import ledger


def _seed_ledger(league_id: int) -> ledger.Totals:
    """Card payments, cash, a refund and credit on the league, written as the app writes them; the league's sums."""

    def _add(s) -> ledger.Totals:
        league = s.get(League, league_id)
        for i, (kind, cents) in enumerate(((CHARGE, 30500), (CHARGE, 26000), (CASH, 30000), (REFUND, 7550),
                                           (CREDIT_ISSUED, 2500))):  # fmt: skip
            ledger.record(s, kind=kind, amount_cents=cents, key=f"e2e-revenue-{league_id}-{i}", league=league,
                          team_name=f"Team {i}")  # fmt: skip
        s.flush()
        return ledger.totals(s, col(LedgerEntry.league_id) == league_id)

    return db.call(_add)


def _dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}".replace(".00", "")


def _download(page: Page, name: str) -> tuple[str, bytes]:
    before = page.url
    with page.expect_download() as got:
        page.get_by_role("link", name=name).click()
    download = got.value
    assert download.failure() is None, download.failure()
    assert page.url == before
    with open(download.path(), "rb") as f:
        return download.suggested_filename, f.read()


def test_an_operator_sees_the_ledger_s_revenue_and_downloads_it(new_page):
    make_user("revvenue", Role.SVL)
    lid = add_open_league("revvenue")
    t = _seed_ledger(lid)
    page = new_page(width=390, height=844)  # on a phone; the axe pass below looks at desktop width too
    log_in(page, "revvenue")
    expect_path(page, "/dash/sessions")  # an operator's home
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Revenue").click()
    expect_path(page, "/dash/revenue")
    expect(page.get_by_role("heading", name="Revenue", level=1)).to_be_visible()
    # the venue's figures, then the league's
    expect(page.locator("[data-figure=collected]")).to_have_text(_dollars(t.collected))
    page.get_by_label("League").select_option(str(lid))
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(rf"[?&]league={lid}(&|$)"))
    for key, cents in (("collected", t.collected), ("refunded", t[REFUND]), ("net", t.net),
                       ("credits_outstanding", t[CREDIT_ISSUED] - t[CREDIT_SPENT]), ("cash_expected", 0)):  # fmt: skip
        expect(page.locator(f"[data-figure={key}]")).to_have_text(_dollars(cents))
    expect(page.get_by_role("img", name="Chart of money collected and refunded by day")).to_be_visible()
    expect(page.locator(".recharts-bar-rectangle").first).to_be_attached()
    table = page.get_by_role("region", name="Table: Day, Collected, Refunded …")
    expect(table.get_by_role("row")).to_have_count(2)  # the header and today
    screenshot(page, "revenue-league-390")

    # The league's figures may be the venue's (its one league holds the money): its link says which was read.
    expect(page.get_by_role("link", name="Download CSV")).to_have_attribute("href", re.compile(rf"[?&]league={lid}&"))
    name, body = _download(page, "Download CSV")
    assert name.startswith(f"revenue-league-{lid}-") and name.endswith(".csv"), name
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    header, total = rows[0], rows[-1]
    assert total[0] == "Total" and total[1] == "USD"
    assert total[header.index("Collected")] == f"{t.collected / 100:.2f}"
    assert total[header.index("Refunded")] == f"{t[REFUND] / 100:.2f}"
    assert total[header.index("Net")] == f"{t.net / 100:.2f}"
    assert sum(float(r[header.index("Collected")]) for r in rows[1:-1]) == pytest.approx(t.collected / 100)
    assert "$" not in body.decode("utf-8-sig")

    failures = _check(page, "svl", page.url.replace(page.url.split("/dash")[0], ""))
    assert failures == [], "\n".join(failures)
