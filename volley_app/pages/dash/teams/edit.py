"""One team (/dash/teams/{id}): its SVL and admins correct the record (admins also name and paid), withdraw or
delete it; its members read it. Its roster: the captain and co-captains invite and remove, the captain changes
roles, a member leaves."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.event import EventSpec
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import (
    confirm_delete,
    error_line,
    form_card,
    form_messages,
    record_form,
    select_field,
    stacked_form,
    submit_button,
    text_field,
)
from volley_app.components.layout import button_row, column, dash_page, link_button
from volley_app.components.team_cash import cash_section
from volley_app.components.team_fee import fee_section
from volley_app.registry import page
from volley_app.services.core.validation import TEAM_NAME_REQUIRED
from volley_app.services.teams import invitations, rosters, waivers
from volley_app.services.teams import teams as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, flag, flags, form_values, path_arg, run_action
from volley_app.state.teams import CashState, FeeState

ERROR_ID = "team-error"


def _to_teams(_result: object) -> EventSpec:
    return rx.redirect(routes.TEAMS)


def _shown(found: svc.TeamDetail, standing: str) -> dict[str, str]:
    """The team as the page shows it and its form's defaults."""
    return {
        "standing": standing,
        "standings_href": routes.standings_path(found["league_id"]),
        "id": str(found["id"]),
        "league_name": found["league_name"],
        "league_href": routes.league_path(found["league_id"]),
        "games_href": routes.team_games_path(found["id"]),
        "settings_href": routes.team_settings_path(found["id"]),
        "waiver_href": routes.team_waiver_path(found["id"]),
        "team_name": found["team_name"],
        "wins": str(found["wins"]),
        "losses": str(found["losses"]),
        "paid": "true" if found["paid"] else "false",
        "status": "Withdrawn" if found["withdrawn"] else "Waitlist" if found["waitlist"] else "Registered",
        "adjustment": f" (includes an adjustment of {found['adjustment']})" if found["adjustment"] else "",
        "history": found["history"],
    }


ROSTER_ERROR_ID = "roster-error"


class RosterState(FormState, AuthState):
    """The team's roster on its page: members, pending invitations, and the changes the reader may make."""

    _fields = ("to",)
    _error_id = ROSTER_ERROR_ID

    members: rx.Field[list[rosters.MemberRow]] = rx.field(default_factory=list)
    invitations: rx.Field[list[rosters.InvitationRow]] = rx.field(default_factory=list)
    size: rx.Field[str] = rx.field("")
    gender_note: rx.Field[str] = rx.field("")
    gender_ok: rx.Field[bool] = rx.field(True)
    full: rx.Field[bool] = rx.field(False)
    may: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)  # can_manage, can_leave
    shown: rx.Field[bool] = rx.field(False)
    notice: rx.Field[str] = rx.field("")

    def _id(self) -> str:
        return path_arg(self, "team_id")

    def _show(self, found: rosters.Roster | None) -> None:
        self._clear_messages()
        self.shown = found is not None
        self.members = list(found["members"]) if found else []
        self.invitations = list(found["invitations"]) if found else []
        self.size = found["size"] if found else ""
        self.gender_note = found["gender_note"] if found else ""
        self.gender_ok = bool(found and found["women"] >= found["women_needed"])
        self.full = bool(found and found["full"])
        self.may = flags(found, "can_manage", "can_leave")

    async def _reload(self) -> None:
        found, failure = await run_action(rosters.roster, actor=await self._actor(), team_id=self._id())
        self._show(found)
        if failure is not None:
            self.error = failure.message

    def _done(self, notice: str) -> Callable[[object], list[object]]:
        def after(_result: object) -> list[object]:
            self.notice = notice
            return [RosterState.refresh, rx.set_value("to", "")]

        return after

    @rx.event
    async def refresh(self) -> None:
        """The roster read again after a change."""
        notice = self.notice
        await self._reload()
        self.notice = notice

    @rx.event
    def invite(self, form_data: dict[str, object]):
        data = form_values(form_data, self._fields)
        self.notice = ""
        return self._submit(invitations.invite, done=self._done(f"Invitation sent to {data['to'].strip()}"),
                            team_id=self._id(), to=data["to"])  # fmt: skip

    @rx.event
    def withdraw(self, invitation_id: str):
        self.notice = ""
        return self._submit(invitations.withdraw, done=self._done("Invitation withdrawn"), team_id=self._id(),
                            invitation_id=invitation_id)  # fmt: skip

    @rx.event
    def remove(self, user_id: str):
        self.notice = ""
        return self._submit(rosters.remove_member, done=self._done("Taken off the roster"), team_id=self._id(),
                            user_id=user_id)  # fmt: skip

    @rx.event
    def change_role(self, user_id: str, role: str):
        self.notice = ""
        return self._submit(rosters.set_role, done=self._done("Role changed"), team_id=self._id(), user_id=user_id,
                            role=role)  # fmt: skip

    @rx.event
    def leave(self):
        return self._submit(rosters.leave, done=_to_teams, team_id=self._id())


class TeamEditState(FormState, AuthState):
    _fields = ("team_name", "paid", "wins", "losses", "reason")
    _error_id = ERROR_ID

    team: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    may: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)  # can_manage, can_edit_name, can_delete
    denied: rx.Field[bool] = rx.field(False)
    # the league's waiver: "" when it has none; who has not signed it; whether the reader still has to
    waiver: rx.Field[str] = rx.field("")
    unsigned: rx.Field[str] = rx.field("")
    must_sign: rx.Field[bool] = rx.field(False)
    # Just withdrawn with a paid place: the refund the league's policy proposes and its payment's page.
    refund: rx.Field[str] = rx.field("")
    refund_href: rx.Field[str] = rx.field("")
    _refund_team: str = ""

    def _id(self) -> str:
        return path_arg(self, "team_id")

    def _show_waiver(self, summary: waivers.TeamWaiverSummary | None, me: int) -> None:
        if summary is None or summary["version"] is None:
            self.waiver, self.unsigned, self.must_sign = "", "", False
            return
        self.waiver = f"Waiver (version {summary['version']}): {summary['signed']} of {summary['members']} signed"
        self.unsigned = ", ".join(m["name"] for m in summary["unsigned"])
        self.must_sign = any(m["user_id"] == me for m in summary["unsigned"])

    async def load(self) -> None:
        if self._refund_team != self._id():  # the notice belongs to the team just withdrawn, shown once
            self.refund, self.refund_href = "", ""
        self._refund_team = ""
        screen: svc.TeamScreen | None = await self._read_record(svc.team_screen, team_id=self._id())
        found = screen["team"] if screen else None
        standing = screen["standing"] if screen else ""
        self.team, self.denied = ({}, True) if found is None else (_shown(found, standing), False)
        roster = await self.get_state(RosterState)
        roster._show(screen["roster"] if screen else None)
        fee = await self.get_state(FeeState)
        fee._show(screen["shares"] if screen else None)
        (await self.get_state(CashState))._new_form()
        actor = await self._actor()
        self._show_waiver(screen["waiver"] if screen else None, actor.user_id if actor else 0)
        self.may = flags(found, "can_manage", "can_edit_name", "can_delete")

    @rx.event
    async def save(self, form_data: dict[str, object]):
        data = form_values(form_data, self._fields)
        submit = self._submit(svc.update_team, done=_to_teams, team_id=self._id(), team_name=data["team_name"],
                              paid=data["paid"], wins=data["wins"], losses=data["losses"], reason=data["reason"])  # fmt: skip
        async for event in submit:
            yield event
        if self.errors.get("team_name") == TEAM_NAME_REQUIRED:
            yield rx.window_alert(TEAM_NAME_REQUIRED)

    @rx.event
    def delete(self):
        return self._submit(svc.delete_team, done=_to_teams, team_id=self._id())

    @rx.event
    def withdraw(self, remaining: str):
        return self._submit(svc.withdraw_team, done=self._withdrawn, team_id=self._id(), remaining=remaining)

    def _withdrawn(self, out: svc.Withdrawn):
        """Back to the teams; with a refund proposed, the team's page says so and links to its payment."""
        if not out["refund"]:
            return _to_teams(out)
        self.refund, self.refund_href, self._refund_team = out["refund"], out["refund_href"], self._id()
        return TeamEditState.load


def _team() -> ObjectVar[dict[str, str]]:
    """The team's texts, by name."""
    return TeamEditState.team.to(ObjectVar, dict[str, str])


def _name_and_paid() -> rx.Component:
    s = TeamEditState
    t = _team()
    return rx.cond(
        flag(s.may, "can_edit_name"),
        rx.fragment(
            text_field("Team Name", "team_name", s, max_length=100, default_value=t["team_name"]),
            select_field("Paid", "paid", [("true", "Yes"), ("false", "No")], s, default_value=t["paid"]),
        ),
        rx.fragment(
            rx.heading(t["team_name"], size="5", as_="h2"),
            rx.text("Paid: ", rx.cond(t["paid"] == "true", "Yes", "No")),
        ),
    )


def _edit_form() -> rx.Component:
    s = TeamEditState
    t = _team()
    record = rx.grid(
        text_field("Wins", "wins", s, type="number", min=0, max=999, required=True, default_value=t["wins"]),
        text_field("Losses", "losses", s, type="number", min=0, max=999, required=True, default_value=t["losses"]),
        columns="2",
        spacing="3",
        width="100%",
    )
    reason = text_field("Reason for a record change", "reason", s, max_length=300,
                        hint="Needed when you change wins or losses: it shows in the standings.")  # fmt: skip
    return record_form(s, _name_and_paid(), record, reason, _actions())


def _actions() -> rx.Component:
    s = TeamEditState
    t = _team()
    forfeit, remove = s.withdraw(svc.FORFEIT), s.withdraw(svc.REMOVE)  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    withdraw = confirm_delete(
        "Withdraw Team",
        "Withdraw " + t["team_name"] + " from the league? Its played games and payments are kept. "
        "What happens to its remaining games?",
        choices=(("Forfeit remaining games", forfeit), ("Remove remaining games", remove)),
    )
    delete = confirm_delete(
        "Delete Team", "Are you sure you want to delete " + t["team_name"] + "? It has no payments or results.", s.delete
    )
    return button_row(
        submit_button("Update Team", s, size="2", width="auto"), withdraw, rx.cond(flag(s.may, "can_delete"), delete, rx.fragment()),
        spacing="3",
    )  # fmt: skip


def _member(m: ObjectVar[rosters.MemberRow]) -> rx.Component:
    s = RosterState
    uid = m["user_id"].to_string()
    remove = confirm_delete("Remove", "Take " + m["name"].to(str) + " off the roster?",
                            s.remove(uid), confirm_label="Remove")  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    captain = confirm_delete("Make captain", "Hand the captaincy to " + m["name"].to(str) + "? You become a player.",
                             s.change_role(uid, "Captain"), confirm_label="Make captain")  # type: ignore[operator]  # as above
    co = rx.button("Make co-captain", variant="soft", size="2", type="button",
                   on_click=s.change_role(uid, "Co-captain"))  # type: ignore[operator]  # as above
    player = rx.button("Make player", variant="soft", size="2", type="button",
                       on_click=s.change_role(uid, "Player"))  # type: ignore[operator]  # as above
    facts = rx.text(
        rx.cond(m["gender"] != "", m["gender"].to(str) + " · ", ""), rx.cond(m["position"] != "", m["position"].to(str) + " · ", ""),
        "Joined ", m["joined"], size="2", color_scheme="gray",
    )  # fmt: skip
    playoff = rx.cond(m["playoff"] != "", rx.text(m["playoff"], size="2", color_scheme=rx.cond(m["playoff_eligible"], "gray", "red"),
                                                  custom_attrs={"data-testid": "playoff-standing"}), rx.fragment())  # fmt: skip
    return rx.card(
        rx.vstack(
            rx.flex(rx.text(m["name"], weight="medium"), rx.badge(m["role"]), spacing="2", align="center", wrap="wrap"),
            facts,
            playoff,
            button_row(
                rx.cond(m["can_make_co_captain"], co, rx.fragment()),
                rx.cond(m["can_make_player"], player, rx.fragment()),
                rx.cond(m["can_make_captain"], captain, rx.fragment()),
                rx.cond(m["can_remove"], remove, rx.fragment()),
                spacing="2",
            ),
            spacing="1",
            width="100%",
        ),
        width="100%",
        custom_attrs={"data-testid": "roster-member"},
    )


def _invitation(i: ObjectVar[rosters.InvitationRow]) -> rx.Component:
    withdraw = confirm_delete("Withdraw", "Withdraw the invitation of " + i["email"].to(str) + "? Its link stops working.",
                              RosterState.withdraw(i["id"].to_string()), confirm_label="Withdraw")  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    return rx.flex(
        rx.text(i["email"], " · sent ", i["sent"], " · until ", i["expires"], size="2"),
        withdraw,
        justify="between", align="center", wrap="wrap", spacing="2", width="100%",
    )  # fmt: skip


def _invite_form() -> rx.Component:
    s = RosterState
    return stacked_form(
        text_field("Invite by email or username", "to", s, max_length=254, required=True,
                   hint="They get an email with a link to join the team."),  # fmt: skip
        submit_button("Send invitation", s, size="2", width="auto"),
        on_submit=s.invite,
        spacing="2",
    )


def roster_section() -> rx.Component:
    s = RosterState
    leave = confirm_delete("Leave team", "Leave this team? The captain can invite you again.", s.leave,
                           confirm_label="Leave team")  # fmt: skip
    return rx.cond(
        s.shown,
        column(
            rx.heading("Roster", size="4", as_="h2"),
            rx.text(s.size, size="2"),
            rx.cond(s.gender_note != "", rx.text(s.gender_note, size="2", color_scheme=rx.cond(s.gender_ok, "green", "red")),
                    rx.fragment()),  # fmt: skip
            form_messages(s, ROSTER_ERROR_ID),
            rx.vstack(rx.foreach(s.members, _member), spacing="2", width="100%"),
            rx.cond(
                flag(s.may, "can_manage"),
                column(
                    rx.cond(s.full, rx.text("The roster is full.", size="2"), _invite_form()),
                    rx.cond(
                        s.invitations.length() > 0,
                        column(rx.heading("Invitations waiting", size="3", as_="h3"),
                               rx.foreach(s.invitations, _invitation), spacing="2"),  # fmt: skip
                        rx.fragment(),
                    ),
                    spacing="3",
                ),
                rx.fragment(),
            ),
            rx.cond(flag(s.may, "can_leave"), leave, rx.fragment()),
            spacing="3",
        ),
        rx.fragment(),
    )


@page(routes.TEAM_EDIT, "Team", on_load=TeamEditState.load)
def team_edit_page() -> rx.Component:
    s = TeamEditState
    t = _team()
    read_only = column(
        rx.heading(t["team_name"], size="5", as_="h2"), rx.text("Record: ", t["wins"], "-", t["losses"], t["adjustment"])
    )
    team = column(
        rx.text("League: ", rx.link(t["league_name"], href=t["league_href"]), " · ", t["status"]),
        rx.cond(t["standing"] != "", rx.text("Standing: ", rx.link(t["standing"], href=t["standings_href"]),
                                             custom_attrs={"data-testid": "team-standing"})),  # fmt: skip
        rx.cond(flag(s.may, "can_manage"), _edit_form(), read_only),
    )
    back = link_button("Back to Teams", href=routes.TEAMS, variant="soft")
    links = button_row(
        link_button("Games and answers", href=t["games_href"], size="2"),
        rx.cond(flag(RosterState.may, "can_manage"), link_button("Team settings", href=t["settings_href"], size="2", variant="soft")),
        rx.cond(s.waiver != "", link_button(rx.cond(s.must_sign, "Sign the waiver", "Waiver"), href=t["waiver_href"],
                                            size="2", variant=rx.cond(s.must_sign, "solid", "soft"))),
    )  # fmt: skip
    waiver = rx.cond(s.waiver != "", rx.vstack(
        rx.text(s.waiver, size="2", weight="medium"),
        rx.cond(s.unsigned != "", rx.text("Not signed yet: ", s.unsigned, size="2", color_scheme="red")),
        spacing="1",
    ))  # fmt: skip
    refund = rx.cond(s.refund != "", rx.callout.root(
        rx.callout.icon(rx.icon("info")),
        rx.callout.text(t["team_name"], " is withdrawn. ", s.refund, ". ",
                        rx.link("Open the payment to refund it", href=s.refund_href), "."),
        color_scheme="amber", role="status", width="100%"))  # fmt: skip
    return dash_page(form_card("Team", error_line(s.error, ERROR_ID), refund,
                               rx.cond(s.denied, back, rx.cond(t["team_name"], column(team, links, waiver))),
                               fee_section(), rx.cond(flag(s.may, "can_manage"), cash_section()), roster_section(),
                               max_width="40rem"))  # fmt: skip
