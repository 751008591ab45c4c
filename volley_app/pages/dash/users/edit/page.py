"""Edit user (/dash/users/{id}): a user's own record, or any record for an admin (then roles and active too).

Which fields show comes from the service (``accounts.edit_form``): SVLs and admins
see address and city, everyone but SVLs the last name, gender and sub info.
"""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.accounts import account_form_page, delete_account, picked_roles, ticked
from volley_app.components.forms import (
    checkbox_field,
    complete_button,
    complete_form,
    password_field,
    region_field,
    select_field,
    text_field,
    username_field,
)
from volley_app.components.layout import column
from volley_app.components.sub_matching import availability_section
from volley_app.models import Gender
from volley_app.registry import page
from volley_app.services.accounts import accounts, auth, venues
from volley_app.services.core.errors import DomainError
from volley_app.services.operations import account_lifecycle, profile
from volley_app.state.auth import AuthState, leave_for
from volley_app.state.forms import FormState, flag, flags, focus, form_values, path_arg, run_action
from volley_app.state.sub_matching import AvailabilityState

from .sections import ROLE_BOXES, admin_section, sub_section

ERROR_ID = "user-edit-error"
DELETE_QUESTION = "Are you sure you want to delete your account?"


def delete_question(own: bool, record: dict[str, str]) -> str:
    """What Delete Account asks: about one's own account, or (an admin on someone else's) about that person."""
    if own:
        return DELETE_QUESTION
    name = f"{record.get('first_name', '')} {record.get('last_name', '')}".strip()
    who = f"{name} ({record.get('username', '')})" if name else record.get("username", "")
    return f"Are you sure you want to delete the account of {who}? This cannot be undone."
TEXT_FIELDS = ("username", "email", "first_name", "last_name", "gender", "address", "city", "region",
               "hitter", "passer", "setter")  # fmt: skip
GENDERS = [(g.value, g.value) for g in Gender]


# what profile.edit_info says the form shows (the address, the player's fields, the roles card of an admin's view,
# the time zone of a venue's record) and allows (a locked last name; deleting one's own account)
_SHOWS = ("show_address", "show_player", "is_admin_view", "last_name_locked", "own_account", "show_time_zone")


class EditUserState(FormState, AuthState):
    _fields = (*TEXT_FIELDS, "password", "current_password", "roles", "time_zone", venues.ZONE_CONFIRM)
    _error_id = ERROR_ID

    record: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    roles: rx.Field[list[str]] = rx.field(default_factory=list)
    sub: rx.Field[bool] = rx.field(False)
    active: rx.Field[bool] = rx.field(True)
    shows: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)  # what the form shows and allows: _SHOWS
    time_zone: rx.Field[str] = rx.field("")
    time_zones: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    loaded: rx.Field[bool] = rx.field(False)
    delete_question: rx.Field[str] = rx.field(DELETE_QUESTION)

    def _target(self) -> str:
        return path_arg(self, "user_id")

    async def load(self):
        """The form in one read: the record as this viewer may edit it, and (below the form) the sub's days."""
        self._clear_messages()
        self.loaded = False
        found, failure = await run_action(profile.edit_info, actor=await self._actor(), user_id=self._target())
        days = await self.get_state(AvailabilityState)
        if failure is not None or found is None:
            self._show_form(None, failure)
            days._show_on_open(None, failure)
            return
        self._show_form(found.record.value, found.record.failure)
        days._show_on_open(found.availability.value, found.availability.failure)

    def _show_form(self, rec: dict | None, failure: DomainError | None) -> None:
        if failure is not None or rec is None:
            self.error, self.record, self.roles = failure.message if failure else "", {}, []
            self.shows = flags(None, *_SHOWS)
            self.time_zone, self.time_zones = "", []
            return
        self.record = {name: str(rec[name] or "") for name in TEXT_FIELDS}
        self.sub, self.active, self.roles = rec["sub"], rec["active"], list(rec["roles"])
        self.shows = flags(rec, *_SHOWS)
        self.time_zone = rec["time_zone"]
        self.time_zones = rec["time_zones"]
        self.delete_question = delete_question(self.shows["own_account"], self.record)
        self.loaded = True
        self._show_record()

    @rx.event
    def save(self, form_data: dict):
        typed = form_values(form_data, (*TEXT_FIELDS, "password", "current_password"))
        data: dict[str, object] = {**typed, "username": typed["username"].lower(), "sub": ticked(form_data, "sub")}
        if self.shows.get("show_time_zone"):  # a venue's record: the form had its time zone
            data["time_zone"] = form_values(form_data, ("time_zone",))["time_zone"]
            data["zone_confirmed"] = ticked(form_data, "zone_confirmed")  # ticked after the question of what moves
        if self.shows.get("is_admin_view"):  # the form had the roles card
            data["roles"] = picked_roles(form_data, ROLE_BOXES)
            data["active"] = ticked(form_data, "active")
        return self._submit(
            accounts.update_user, done=lambda _: rx.redirect(routes.PLAYER_INFO), user_id=self._target(), submitted=data
        )

    @rx.event
    async def delete(self):
        itself, failure = await run_action(account_lifecycle.delete_user, actor=await self._actor(), user_id=self._target())
        if failure:
            self.error = failure.message
            return focus(ERROR_ID)
        if itself:
            token = self._token()
            if token:
                await run_action(auth.logout, token=token)
            auth_state = await self.get_state(AuthState)
            await auth_state._clear_private()
            return leave_for(routes.HOME)
        return rx.redirect(routes.PLAYER_INFO)


@page(routes.USER_EDIT, "Edit Info", on_load=EditUserState.load)
def edit_user_page() -> rx.Component:
    s = EditUserState
    # Reflex's Field stubs give mypy an ArrayVar for a dict field; these two are the record and its messages.
    rec = cast(ObjectVar[dict[str, str]], s.record)
    errors = cast(ObjectVar[dict[str, str]], s.errors)
    return account_form_page(
        "Edit Info",
        s,
        ERROR_ID,
        s.loaded,
        username_field(s, required=True, min_length=3, default_value=rec["username"]),
        text_field("Email", "email", s, type="email", required=True, default_value=rec["email"]),
        text_field("First Name", "first_name", s, required=True, default_value=rec["first_name"]),
        rx.cond(
            flag(s.shows, "show_player"),
            column(
                text_field("Last Name", "last_name", s, disabled=flag(s.shows, "last_name_locked"), default_value=rec["last_name"]),
                rx.cond(flag(s.shows, "last_name_locked"), rx.text("Admin edits do not change the last name.", size="1",
                                                    color_scheme="gray")),
                spacing="1",
            ),
        ),
        rx.cond(
            flag(s.shows, "show_player"),
            select_field("Gender", "gender", GENDERS, s, placeholder="Choose", required=False,
                         default_value=rec["gender"]),
        ),
        rx.cond(
            flag(s.shows, "show_address"),
            column(
                text_field("Address", "address", s, default_value=rec["address"]),
                text_field("City", "city", s, default_value=rec["city"]),
                spacing="3",
            ),
        ),
        region_field(s, default_value=rec["region"]),
        rx.cond(
            flag(s.shows, "show_time_zone"),
            column(
                select_field("Time Zone", "time_zone", s.time_zones, s, default_value=s.time_zone),
                rx.text("The venue's sessions, leagues, games and sub requests are entered and shown in it.",
                        size="1", color_scheme="gray"),
                rx.cond(
                    errors.get(venues.ZONE_CONFIRM, "") != "",
                    column(
                        rx.callout(errors.get(venues.ZONE_CONFIRM, ""), color_scheme="amber", role="alert",
                                   id=venues.ZONE_CONFIRM, tab_index=-1),
                        checkbox_field("Yes, change the time zone: move these times", "zone_confirmed"),
                        spacing="1",
                    ),
                ),
                spacing="1",
            ),
        ),
        rx.cond(flag(s.shows, "show_player"), sub_section(s)),
        rx.cond(flag(s.shows, "is_admin_view"), admin_section(s)),
        password_field("New Password", "password", s, min_length=4, hint="Leave blank to keep the current password"),
        rx.cond(
            flag(s.shows, "own_account"),
            password_field("Current Password", "current_password", s, new=False,
                           hint="Needed only to choose a new password; your other devices are then logged out"),
        ),
        # Save is enabled while a role is ticked, the username is valid and a new password, if typed, is
        # long enough: checked in the browser as the form changes; the server checks every rule again.
        complete_button("Save", starts_complete=True),
        rx.cond(s.busy, rx.text("Saving…", size="2", color_scheme="gray", role="status"), rx.fragment()),
        delete_account(s.delete_question, s.delete),
        on_submit=s.save,
        after=(rx.cond(flag(s.shows, "show_player") & s.loaded, availability_section()),),
        form=complete_form,
        one_of=("role-",),
        one_of_why="Tick at least one role.",
        key=s.form_key,
    )  # fmt: skip
