"""The Subs page (/dash/subs): active subs with an Invite button, refreshed every 60 s.

The browser gets names, gender and ratings only; an invite names the sub by
id and the server looks up the address.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.layout import button_row, link_button
from volley_app.components.paging import filter_select, pager, search_form
from volley_app.components.sub_requests import item_row, my_sub_info, responsive_list
from volley_app.components.tables import card
from volley_app.models import Gender, Rating
from volley_app.registry import Body, screen
from volley_app.services.core import live
from volley_app.services.core.errors import DomainError
from volley_app.services.subs import subs_list
from volley_app.services.subs.subs_list import SubRatings, SubRow
from volley_app.state.auth import AuthState
from volley_app.state.paging import PolledList

LOAD_FAILED = "Issue accessing player info. Please log out and log back in."
NO_SUBS = "No subs available right now."
NO_MATCH = "No sub matches your search."
REFRESH_SECONDS = 60
HEADERS = ["First Name", "Last Name", "Gender", "Hitter", "Passer", "Setter", "Played", "No-shows", ""]
RATINGS = ("hitter", "passer", "setter")


class ShownSub(SubRatings):
    """A sub as the browser gets them: strings only, names, gender, ratings, record and the invite link (never an
    email); ``me`` "1" on one's own row."""

    id: str
    first_name: str
    last_name: str
    invite: str
    played: str
    no_shows: str
    me: str


def _shown(r: SubRow, me: int) -> ShownSub:
    """A sub as the browser gets it: names, gender, ratings and the invite link (never an email); "me": "1" on one's own row."""
    return {"id": str(r["id"]), "first_name": r["first_name"], "last_name": r["last_name"], "gender": r["gender"],
            "hitter": r["hitter"], "passer": r["passer"], "setter": r["setter"], "invite": routes.invite_path(r["id"]),
            "played": str(r["played"]), "no_shows": str(r["no_shows"]),
            "me": "1" if r["id"] == me else ""}  # fmt: skip


class SubsState(PolledList, AuthState):
    sub_rows: rx.Field[list[ShownSub]] = rx.field(default_factory=list)
    subs_error: rx.Field[str] = rx.field("")
    is_sub: rx.Field[bool] = rx.field(False)
    _poll_path: str = routes.DASH_SUBS
    _poll_seconds: float = REFRESH_SECONDS
    _live_tables = live.track("users")
    _filter_names = subs_list.SUB_FILTERS
    _me: int = 0  # the viewer, whose own row offers no Invite

    _listing = staticmethod(subs_list.list_subs)

    @rx.var
    def empty_text(self) -> str:
        """What an empty list says: nobody matches the search, or (no search) no sub at all."""
        return NO_MATCH if any(v for v in self.filters.values()) else NO_SUBS

    def _show(self, rows: list[SubRow], failure: DomainError | None) -> None:
        self.sub_rows = [_shown(r, self._me) for r in rows]
        self.subs_error = LOAD_FAILED if failure else ""

    async def load(self):
        actor = await self._actor()
        if target := subs_list.subs_elsewhere(actor):
            self.sub_rows = []
            return rx.redirect(target)
        self._me = actor.user_id if actor else 0
        found = await self._open_screen(subs_list.subs_screen, lambda screen: screen.subs, actor=actor)
        self.is_sub = bool(found and found.is_sub)
        return type(self).poll


def _rating(value: rx.Var) -> rx.Component:
    return rx.cond(value != "", value, "-")


def _invite(r: ObjectVar[ShownSub], size: str) -> rx.Component:
    """Invite this sub; on one's own row, no invite: "You"."""
    name = r["first_name"].to(str) + " " + r["last_name"].to(str)
    return rx.cond(
        r["me"] != "",
        rx.badge("You", color_scheme="gray", size=size),
        link_button("Invite", href=f"{r['invite']}", size=size, aria_label="Invite " + name),
    )


def _sub_card(r: ObjectVar[ShownSub]) -> rx.Component:
    return card(
        rx.flex(
            rx.vstack(
                rx.text(r["first_name"], " ", r["last_name"], weight="bold"),
                rx.text(r["gender"], size="2", color_scheme="gray"),
                rx.text(
                    "Hitter ", _rating(r["hitter"]), " · Passer ", _rating(r["passer"]), " · Setter ",
                    _rating(r["setter"]), size="2",
                ),  # fmt: skip
                rx.text("Played ", r["played"], " · No-shows ", r["no_shows"], size="2", color_scheme="gray"),
                spacing="1",
            ),
            _invite(r, "2"),
            justify="between",
            align="center",
            width="100%",
        ),
        test_id="sub-item",
    )


def _sub_row(r: ObjectVar[ShownSub]) -> rx.Component:
    ratings = [_rating(r[k]) for k in RATINGS]
    return item_row(r["first_name"], r["last_name"], r["gender"], *ratings, r["played"], r["no_shows"], _invite(r, "1"),
                    test_id="sub-item")  # fmt: skip


def _search() -> rx.Component:
    s = SubsState
    ratings = [(r, r) for r in Rating.values()]
    return search_form(
        s,
        "Search subs by name",
        filter_select("Gender", "gender", [(g, g) for g in Gender.values()], s),
        filter_select("Position", "position", [(p, p.title()) for p in subs_list.POSITIONS], s),
        filter_select("Rating", "rating", ratings, s),
        placeholder="First or last name",
    )


@screen(routes.DASH_SUBS, "Subs", SubsState)
def subs_page(s: type[SubsState]) -> Body:
    return (
        button_row(
            my_sub_info(s.is_sub, "View My Sub Info"),
            link_button("Create Sub Request", href=routes.SUB_REQUEST_NEW, size="2", variant="soft"),
            link_button("Open Sub Requests", href=routes.SUB_REQUESTS, size="2", variant="soft"),
        ),
        _search(),
        rx.cond(
            s.subs_error != "",
            rx.callout(s.subs_error, icon="triangle_alert", color_scheme="red", role="alert"),
            responsive_list(HEADERS, s.sub_rows, _sub_row, _sub_card, s.empty_text),
        ),
        pager(s, "subs"),
        rx.text("This list refreshes every minute.", size="1", color_scheme="gray"),
    )
