"""Email players (/dash/leagues/{id}/message): a league's operator writes to its captains (of every team or one),
every player on its rosters, or one team's members.

Write, then preview: the email as it reads and how many people get it; Send confirms that number.
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import area_field, error_line, select_field, submit_button, text_field
from volley_app.components.layout import button_row, column
from volley_app.components.leagues import back_to_league
from volley_app.registry import Body, screen
from volley_app.services.seasons import league_messages
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "league-message-error"
FIELDS = ("audience", "team", "subject", "body")


class LeagueMessageState(FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID

    league_name: rx.Field[str] = rx.field("")
    back: rx.Field[str] = rx.field("")
    team_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    audience_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    audience: rx.Field[str] = rx.field(league_messages.CAPTAINS)  # the audience chosen: the team field follows it
    denied: rx.Field[bool] = rx.field(False)
    draft: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    preview: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    notice: rx.Field[str] = rx.field("")

    async def load(self):
        self._clear_messages()
        self.preview, self.draft, self.notice, self.audience = {}, {}, "", league_messages.CAPTAINS
        found, failure = await run_action(
            league_messages.teams, actor=await self._actor(), league_id=path_arg(self, "league_id")
        )
        if found is None:
            self.league_name, self.back, self.team_options, self.denied = "", "", [], True
            self.error = failure.message if failure else ""
            return
        self.denied = False
        self.league_name, self.back = found["name"], routes.league_path(found["id"])
        self.team_options = [{"value": t["value"], "label": t["label"]} for t in found["teams"]]
        self.audience_options = [{"value": a["value"], "label": a["label"]} for a in found["audiences"]]

    @rx.event
    def choose_audience(self, audience: str):
        """Show the team field as the audience needs it (the service checks the audience when the form is sent)."""
        self.audience = audience if isinstance(audience, str) else league_messages.CAPTAINS
        self._clear_messages()

    def _previewed(self, found: league_messages.MessagePreview):
        self.preview = {k: str(v) for k, v in found.items()}

    @rx.event
    def review(self, form_data: dict):
        self.notice, self.preview = "", {}
        self.draft = form_values(form_data, FIELDS)
        self.audience = self.draft["audience"] or league_messages.CAPTAINS
        return self._submit(
            league_messages.preview, done=self._previewed, as_actor=True, league_id=path_arg(self, "league_id"),
            submitted=self.draft,
        )  # fmt: skip

    @rx.event
    def edit_again(self):
        self.preview = {}
        self.audience = self.draft.get("audience") or league_messages.CAPTAINS
        self._show_record()

    def _sent(self, count: int):
        self.preview, self.draft, self.audience = {}, {}, league_messages.CAPTAINS
        self.notice = f"Queued to {count} {'person' if count == 1 else 'people'}."
        self._show_record()

    @rx.event
    def send(self):
        if not self.preview:
            return None
        return self._submit(
            league_messages.send, done=self._sent, as_actor=True, league_id=path_arg(self, "league_id"),
            confirmed=self.preview.get("count", ""), submitted=self.draft,
        )  # fmt: skip


def _form() -> rx.Component:
    s = LeagueMessageState
    draft = s.draft.to(dict[str, str])
    return rx.form(
        column(
            select_field("Send to", "audience", s.audience_options, s, value=s.audience, on_change=s.choose_audience),
            rx.match(
                s.audience,
                (league_messages.PLAYERS, rx.fragment()),
                (league_messages.TEAM, select_field("Team", "team", s.team_options, s, placeholder="Choose a team",
                                                    default_value=draft.get("team", ""))),
                select_field("Team", "team", s.team_options, s, placeholder="Every team's captain", required=False,
                             default_value=draft.get("team", "")),
            ),
            text_field("Subject", "subject", s, required=True, max_length=league_messages.SUBJECT_MAX,
                       default_value=draft.get("subject", "")),
            area_field("Message", "body", s, rows="8", required=True, max_length=league_messages.BODY_MAX,
                       default_value=draft.get("body", "")),
            submit_button("Preview", s),
        ),
        key=s.form_key,
        on_submit=s.review,
        width="100%",
        method="post",
    )  # fmt: skip


def _preview() -> rx.Component:
    s = LeagueMessageState
    p = s.preview.to(dict[str, str])
    return column(
        rx.callout(
            "This email goes to " + p["count"] + " " + rx.cond(p["count"] == "1", "person", "people") + ": " + p["who"] + ".",
            icon="info", role="status",
        ),
        rx.text("To: ", p["names"], size="2", color_scheme="gray"),
        rx.text("Subject: ", rx.text.strong(p["subject"])),
        rx.box(rx.text(p["body"], white_space="pre-wrap", size="2"), padding="3", border="1px solid var(--gray-6)",
               border_radius="6px", width="100%"),
        button_row(
            rx.button("Send to ", p["count"], rx.cond(p["count"] == "1", " person", " people"), on_click=s.send,
                      loading=s.busy, size="3"),
            rx.button("Edit", on_click=s.edit_again, variant="soft", color_scheme="gray", size="3"),
            spacing="3",
        ),
    )  # fmt: skip


@screen(routes.LEAGUE_MESSAGE, "Email Players", LeagueMessageState, heading=lambda s: f"Email Players: {s.league_name}")
def league_message_page(s: type[LeagueMessageState]) -> Body:
    return (
        error_line(s.error, ERROR_ID),
        rx.cond(s.notice != "", rx.callout(s.notice, color_scheme="green", role="status")),
        back_to_league(s.back),
        rx.cond(
            s.denied,
            rx.fragment(),
            rx.card(rx.cond(s.preview.length() > 0, _preview(), _form()), size="3", width="100%", max_width="46rem"),
        ),
    )
