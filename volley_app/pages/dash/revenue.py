"""Revenue (/dash/revenue): what a venue, a session or a league took in and gave back over venue days, with a
chart and a table by day and the CSV file (SVLs their own venue; admins any venue, or all of them)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line, field, native_select, text_input
from volley_app.components.layout import column, file_link, section_card
from volley_app.components.paging import page_bar
from volley_app.components.tables import cell, table
from volley_app.registry import Body, screen
from volley_app.services.money import revenue
from volley_app.services.seasons import fees
from volley_app.state.auth import AuthState
from volley_app.state.files import backend_address
from volley_app.state.forms import form_values, path_arg, run_action

DAYS_PER_PAGE = 14
ASKED = ("venue", "session", "league", "start", "end")
# The figures the screen shows, in its words, in its order.
SHOWN = (("collected", "Collected"), ("refunded", "Refunded"), ("net", "Net"),
         ("credits_outstanding", "Credits outstanding"), ("discounts", "Discounts given"),
         ("cash_expected", "Cash expected"))  # fmt: skip
DAY_COLUMNS = ("Day", "Collected", "Refunded", "Net", "Credits outstanding", "Discounts", "Cash expected")
_DAY_KEYS = ("collected", "refunded", "net", "credits_outstanding", "discounts", "cash_expected")


def _money(cents: int) -> str:
    return ("-" if cents < 0 else "") + fees.money(abs(cents))


class RevenueState(AuthState):
    asked: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    figures: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    chart: rx.Field[list[dict[str, Any]]] = rx.field(default_factory=list)
    day_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    day_page: rx.Field[int] = rx.field(0)
    day_pages: rx.Field[int] = rx.field(0)
    day_count: rx.Field[int] = rx.field(0)
    venues: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    sessions: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    leagues: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    scope_name: rx.Field[str] = rx.field("")
    span: rx.Field[str] = rx.field("")
    csv_link: rx.Field[str] = rx.field("")
    error: rx.Field[str] = rx.field("")
    _days: list[dict[str, str]] = []

    async def load(self):
        asked = {k: path_arg(self, k).strip() for k in ASKED}
        found = await run_action(revenue.screen, actor=await self._actor(), **asked)
        if found.failure is not None:
            self.asked, self.figures, self.chart, self._days, self.csv_link = asked, [], [], [], ""
            self.venues, self.sessions, self.leagues, self.scope_name, self.span = [], [], [], "", ""
            self.error = found.failure.message
            self._turn(0)
            return
        shown = found.value
        report = shown["report"]
        self.error = ""
        # what the report is of, as the pickers show it: a league's session and venue picked with it
        self.asked = {"venue": str(report["venue_id"] or "") if report["scope"] != "all" else "",
                      "session": str(report["session_id"] or ""), "league": str(report["league_id"] or ""),
                      "start": report["start"], "end": report["end"]}  # fmt: skip
        self.venues = [{"value": c["value"], "label": c["label"]} for c in shown["venues"]]
        self.sessions = [{"value": c["value"], "label": c["label"]} for c in shown["sessions"]]
        self.leagues = [{"value": c["value"], "label": c["label"]} for c in shown["leagues"]]
        self.scope_name, self.span = report["scope_name"], f"{report['start']} to {report['end']} ({report['zone']})"
        totals = report["totals"]
        self.figures = [{"key": k, "label": label, "value": _money(totals[k])} for k, label in SHOWN]  # type: ignore[literal-required]
        self.chart = [{"day": d["date"], "Collected": d["collected"] / 100, "Refunded": d["refunded"] / 100}
                      for d in report["days"] if d["collected"] or d["refunded"]]  # fmt: skip
        self._days = [{"date": d["date"], **{k: _money(d[k]) for k in _DAY_KEYS}}  # type: ignore[literal-required]
                      for d in reversed(report["days"])]  # fmt: skip
        self.csv_link = backend_address(shown["csv_link"])
        self._turn(0)

    def _turn(self, page: int) -> None:
        self.day_count = len(self._days)
        self.day_pages = (self.day_count + DAYS_PER_PAGE - 1) // DAYS_PER_PAGE
        self.day_page = max(0, min(page, self.day_pages - 1))
        self.day_rows = self._days[self.day_page * DAYS_PER_PAGE:(self.day_page + 1) * DAYS_PER_PAGE]

    @rx.event
    def show(self, form_data: dict):
        data = form_values(form_data, ASKED)
        return rx.redirect(routes.revenue_path(**{k: v.strip() for k, v in data.items()}))

    @rx.event
    def next_days(self):
        self._turn(self.day_page + 1)

    @rx.event
    def previous_days(self):
        self._turn(self.day_page - 1)


def _pick(label: str, name: str, options: Any, blank: str) -> rx.Component:
    return rx.box(
        field(label, native_select(name, options, placeholder=blank, required=False,
                                   default_value=RevenueState.asked.to(dict[str, str])[name]), field_id=name),  # fmt: skip
        min_width="12rem",
        flex="1",
    )


def _date(label: str, name: str) -> rx.Component:
    return rx.box(field(label, text_input(name, type="date", default_value=RevenueState.asked.to(dict[str, str])[name], size="2"),
                        field_id=name), min_width="10rem")  # fmt: skip


def _form() -> rx.Component:
    s = RevenueState
    return rx.form(
        rx.flex(
            rx.cond(s.venues.length() > 0, _pick("Venue", "venue", s.venues, "All venues")),
            _pick("Session", "session", s.sessions, "Every session"),
            _pick("League", "league", s.leagues, "Every league"),
            _date("From", "start"),
            _date("To", "end"),
            rx.button("Show", type="submit", size="3"),
            spacing="3",
            align="end",
            wrap="wrap",
            width="100%",
        ),
        rx.text("A league is shown over its session, a session over its venue.", size="1", color_scheme="gray"),
        on_submit=s.show,
        key=s.asked.to_string(),
        method="post",
        width="100%",
    )


def _figure(f: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(f["label"], size="2", color_scheme="gray"),
            rx.text(f["value"], size="6", weight="bold", custom_attrs={"data-figure": f["key"]}),
            spacing="1",
        ),
        min_width="10rem",
        flex="1",
    )


def _chart() -> rx.Component:
    s = RevenueState
    return rx.cond(
        s.chart.length() > 0,
        rx.box(
            rx.recharts.bar_chart(
                rx.recharts.cartesian_grid(stroke_dasharray="3 3"),
                rx.recharts.x_axis(data_key="day"),
                rx.recharts.y_axis(),
                rx.recharts.tooltip(),
                rx.recharts.legend(),
                rx.recharts.bar(data_key="Collected", fill="#1f6f43", is_animation_active=False),
                rx.recharts.bar(data_key="Refunded", fill="#b42318", is_animation_active=False),
                data=s.chart,
                width="100%",
                height=280,
            ),
            width="100%",
            role="img",
            aria_label="Chart of money collected and refunded by day (the table below holds the same figures)",
        ),
        rx.text("Nothing was collected or refunded on these days.", color_scheme="gray"),
    )


def _day(d: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.table.row(cell("Day", d["date"]), *[cell(label, d[k]) for label, k in zip(DAY_COLUMNS[1:], _DAY_KEYS, strict=True)])


def _days() -> rx.Component:
    s = RevenueState
    return column(
        rx.cond(
            s.day_rows.length() > 0,
            table(list(DAY_COLUMNS), rx.foreach(s.day_rows, _day)),
            rx.text("No money moved on these days.", color_scheme="gray"),
        ),
        rx.cond(
            s.day_pages > 1,
            page_bar(rx.text("Page ", s.day_page + 1, " of ", s.day_pages, " (", s.day_count, " days)", size="2",
                             color_scheme="gray", role="status", aria_live="polite"),
                     "days", s.previous_days, s.next_days, s.day_page > 0, s.day_page + 1 < s.day_pages),
        ),
        spacing="2",
    )


@screen(routes.REVENUE, "Revenue", RevenueState)
def revenue_page(s: type[RevenueState]) -> Body:
    return (
        _form(),
        error_line(s.error),
        rx.cond(
            s.csv_link != "",
            column(
                rx.flex(
                    rx.text(rx.text.strong(s.scope_name), " · ", s.span, size="2"),
                    file_link("Download CSV", href=s.csv_link, size="2"),
                    justify="between", align="center", wrap="wrap", gap="2", width="100%",
                ),  # fmt: skip
                rx.flex(rx.foreach(s.figures, _figure), spacing="3", wrap="wrap", width="100%"),
                section_card("Collected and refunded by day", _chart()),
                section_card("By day", _days()),
            ),
        ),
    )
