"""The league home's Tournament Bracket card: the bracket for everyone, the upload for its SVL and admins."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import upload_field
from volley_app.components.layout import column, file_link, section_card
from volley_app.state.forms import flag

from .state import LeagueHomeState

UPLOAD_ID = "bracket-upload"
ACCEPT = {
    "image/png": [".png"],
    "image/jpeg": [".jpg", ".jpeg"],
    "application/pdf": [".pdf"],
    "application/msword": [".doc"],
}


def _upload() -> rx.Component:
    return column(
        upload_field(
            "Tournament bracket file",
            UPLOAD_ID,
            "Drop a PNG, PDF, DOC or JPEG here, or click to choose one",
            LeagueHomeState.upload_error,
            accept=ACCEPT,
            on_drop_rejected=LeagueHomeState.upload_rejected,
        ),
        rx.hstack(rx.foreach(rx.selected_files(UPLOAD_ID), lambda f: rx.text(f, size="2"))),
        rx.button(
            "Upload Bracket",
            on_click=LeagueHomeState.upload(rx.upload_files(upload_id=UPLOAD_ID)),  # type: ignore[operator]  # reflex's rx.event (its __new__) types a handler as EventNamespace
            variant="soft",
        ),
        spacing="3",
    )


def bracket_card() -> rx.Component:
    s = LeagueHomeState
    return section_card(
        "Tournament Bracket",
        rx.cond(
            s.bracket_generated,
            rx.link("See the playoff bracket", href=s.links.to(dict[str, str])["bracket"], weight="medium"),
        ),
        rx.cond(
            s.bracket_url != "",
            rx.cond(
                s.bracket_is_image,
                rx.image(src=s.bracket_url, alt="Tournament bracket", width="100%", max_width="48rem"),
                file_link("Download the tournament bracket", href=s.bracket_url, download="tournament-bracket"),
            ),
            rx.cond(
                s.bracket_generated,
                rx.fragment(),
                rx.text("Tournament Bracket not released yet. Check back later!", color_scheme="gray"),
            ),
        ),
        rx.cond(flag(s.shows, "can_manage"), _upload()),
    )  # fmt: skip
