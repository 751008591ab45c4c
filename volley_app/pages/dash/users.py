"""Users: the admin's list (/dash/users), Edit user (/dash/users/{id}) and Create New SVL (/dash/users/new)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, field, focus, form_card, region_select, text_input
from volley_app.components.layout import dash_page, link_button
from volley_app.models import Gender, Rating, Role
from volley_app.registry import page
from volley_app.services import accounts, auth, validation
from volley_app.services.errors import Invalid
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action

EDIT_ERROR_ID = "user-edit-error"
SVL_ERROR_ID = "svl-error"
DELETE_QUESTION = "Are you sure you want to delete your account?"
ROLE_NAMES = [r.value for r in Role]

_NATIVE = {
    "width": "100%",
    "height": "2.5rem",
    "padding": "0 0.6rem",
    "border_radius": "var(--radius-3)",
    "border": "1px solid var(--gray-7)",
    "background": "white",
    "font_size": "16px",
}


def _valid(fn, value) -> bool:
    try:
        fn(value)
    except Invalid:
        return False
    return True


def _str(value) -> str:
    return value if isinstance(value, str) else ""


# --- users list --------------------------------------------------------------------------


class UsersListState(AuthState):
    user_rows: list[dict[str, str]] = []
    users_error: str = ""

    async def load(self):
        found, failure = await run_action(accounts.list_users, actor=await self._actor())
        if failure:
            self.user_rows = []
            self.users_error = "Issue accessing player info. Please log out and log back in."
            return
        self.users_error = ""
        self.user_rows = [
            {"id": str(r["id"]), "username": r["username"], "roles": r["roles"], "href": routes.user_path(r["id"])}
            for r in found
        ]


@page(routes.USERS, "All Users", on_load=UsersListState.load)
def users_page() -> rx.Component:
    s = UsersListState
    return dash_page(
        rx.vstack(
            rx.flex(
                rx.heading("All Users", size="7", as_="h1"),
                link_button("Create New SVL", href=routes.USERS_NEW, size="2"),
                justify="between",
                align="center",
                width="100%",
                wrap="wrap",
                spacing="2",
            ),
            rx.cond(
                s.users_error != "",
                rx.callout(s.users_error, icon="triangle_alert", color_scheme="red", role="alert"),
                rx.box(
                    rx.table.root(
                        rx.table.header(
                            rx.table.row(
                                rx.table.column_header_cell("Username"),
                                rx.table.column_header_cell("Roles"),
                                rx.table.column_header_cell("Edit"),
                            )
                        ),
                        rx.table.body(
                            rx.foreach(
                                s.user_rows,
                                lambda r: rx.table.row(
                                    rx.table.cell(r["username"]),
                                    rx.table.cell(r["roles"]),
                                    rx.table.cell(
                                        link_button("Edit", href=r["href"], size="1", variant="soft",
                                                    aria_label="Edit " + r["username"])
                                    ),
                                ),  # fmt: skip
                            )
                        ),
                        width="100%",
                        variant="surface",
                        size="1",
                    ),
                    overflow_x="auto",
                    width="100%",
                ),
            ),
            spacing="4",
            width="100%",
        )
    )


# --- edit user ------------------------------------------------------------------------------------

EDIT_FIELDS = ("username", "email", "first_name", "last_name", "gender", "address", "city", "region",
               "hitter", "passer", "setter", "password")  # fmt: skip


class EditUserState(AuthState):
    f_username: str = ""
    f_email: str = ""
    f_first_name: str = ""
    f_last_name: str = ""
    f_gender: str = ""
    f_address: str = ""
    f_city: str = ""
    f_region: str = ""
    f_hitter: str = ""
    f_passer: str = ""
    f_setter: str = ""
    f_password: str = ""
    sub: bool = False
    active: bool = True
    picked_roles: list[str] = []
    show_address: bool = False
    show_player: bool = False
    admin_view: bool = False
    last_name_locked: bool = False
    loaded: bool = False
    edit_error: str = ""
    field_errors: dict[str, str] = dict.fromkeys((*EDIT_FIELDS, "roles"), "")
    saving: bool = False
    confirm_open: bool = False

    def _target(self) -> str:
        return path_arg(self, "user_id")

    def _clear_errors(self) -> None:
        self.edit_error = ""
        self.field_errors = dict.fromkeys((*EDIT_FIELDS, "roles"), "")

    async def load(self):
        self._clear_errors()
        self.f_password, self.saving, self.confirm_open, self.loaded = "", False, False, False
        rec, failure = await run_action(accounts.edit_form, actor=await self._actor(), user_id=self._target())
        if failure:
            self.edit_error = failure.message
            for name in EDIT_FIELDS:
                setattr(self, "f_" + name, "")
            self.picked_roles, self.show_address, self.show_player, self.admin_view = [], False, False, False
            return
        for name in EDIT_FIELDS:
            if name != "password":
                setattr(self, "f_" + name, rec[name] or "")
        self.sub, self.active, self.picked_roles = rec["sub"], rec["active"], list(rec["roles"])
        self.show_address, self.show_player = rec["show_address"], rec["show_player"]
        self.admin_view, self.last_name_locked = rec["is_admin_view"], rec["last_name_locked"]
        self.loaded = True

    def _edit(self, name: str, value) -> None:
        value = _str(value)[:254]
        if value != getattr(self, name):
            setattr(self, name, value)
            self._clear_errors()

    @rx.event
    def set_username(self, value: str):
        self._edit("f_username", _str(value).lower())

    @rx.event
    def set_email(self, value: str):
        self._edit("f_email", value)

    @rx.event
    def set_first_name(self, value: str):
        self._edit("f_first_name", value)

    @rx.event
    def set_last_name(self, value: str):
        self._edit("f_last_name", value)

    @rx.event
    def set_gender(self, value: str):
        self._edit("f_gender", value)

    @rx.event
    def set_address(self, value: str):
        self._edit("f_address", value)

    @rx.event
    def set_city(self, value: str):
        self._edit("f_city", value)

    @rx.event
    def set_region(self, value: str):
        self._edit("f_region", value)

    @rx.event
    def set_hitter(self, value: str):
        self._edit("f_hitter", value)

    @rx.event
    def set_passer(self, value: str):
        self._edit("f_passer", value)

    @rx.event
    def set_setter(self, value: str):
        self._edit("f_setter", value)

    @rx.event
    def set_password(self, value: str):
        self._edit("f_password", value)

    @rx.event
    def set_sub(self, value: bool):
        self.sub = value is True

    @rx.event
    def set_active(self, value: bool):
        self.active = value is True

    @rx.event
    def toggle_role(self, role: str, checked: bool):
        if role not in ROLE_NAMES:
            return
        roles = [r for r in self.picked_roles if r != role]
        if checked is True:
            roles.append(role)
        self.picked_roles = sorted(roles)
        self._clear_errors()

    @rx.var
    def has_admin(self) -> bool:
        return "Admin" in self.picked_roles

    @rx.var
    def has_svl(self) -> bool:
        return "SVL" in self.picked_roles

    @rx.var
    def has_player(self) -> bool:
        return "Player" in self.picked_roles

    @rx.var
    def can_save(self) -> bool:
        """Save is enabled only with a valid username, a valid password if one is typed, and a role."""
        ok = self.loaded and not self.saving and bool(self.picked_roles)
        ok = ok and _valid(validation.username, self.f_username)
        return ok and (self.f_password == "" or _valid(validation.password, self.f_password))

    async def save(self, form_data: dict | None = None):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        for name in EDIT_FIELDS:
            if isinstance(data.get(name), str):
                setattr(self, "f_" + name, data[name][:254])
        self.saving = True
        self._clear_errors()
        yield
        values = {name: getattr(self, "f_" + name) for name in EDIT_FIELDS}
        values |= {"sub": self.sub, "active": self.active, "roles": list(self.picked_roles)}
        _, failure = await run_action(accounts.update_user, actor=await self._actor(), user_id=self._target(), **values)
        self.saving = False
        if failure:
            self.edit_error = failure.message
            errors = getattr(failure, "errors", {}) or {}
            self.field_errors = {k: str(errors.get(k, "")) for k in (*EDIT_FIELDS, "roles")}
            yield focus(EDIT_ERROR_ID)
            return
        self.f_password = ""
        yield rx.redirect(routes.PLAYER_INFO)

    @rx.event
    def ask_delete(self):
        self.confirm_open = True

    @rx.event
    def cancel_delete(self):
        self.confirm_open = False

    async def delete(self):
        self.confirm_open = False
        actor = await self._actor()
        itself, failure = await run_action(accounts.delete_user, actor=actor, user_id=self._target())
        if failure:
            self.edit_error = failure.message
            return focus(EDIT_ERROR_ID)
        if itself:
            token = self._token()
            if token:
                await run_action(auth.logout, token=token)
            auth_state = await self.get_state(AuthState)
            await auth_state._clear_private()
            return rx.redirect(routes.HOME)
        return rx.redirect(routes.PLAYER_INFO)


def _select(field_id: str, placeholder: str, options: list[str], value, on_change) -> rx.Component:
    return rx.el.select(
        rx.el.option(placeholder, value=""),
        *[rx.el.option(o, value=o) for o in options],
        id=field_id,
        name=field_id,
        value=value,
        on_change=on_change,
        style=_NATIVE,
    )


def _check(field_id: str, label: str, checked, on_change) -> rx.Component:
    return rx.hstack(
        rx.checkbox(id=field_id, name=field_id, checked=checked, on_change=on_change),
        rx.el.label(label, html_for=field_id, style={"font_size": "var(--font-size-2)"}),
        align="center",
        spacing="2",
    )


@page(routes.USER_EDIT, "Edit Info", on_load=EditUserState.load)
def edit_user_page() -> rx.Component:
    s = EditUserState
    err = s.field_errors
    return dash_page(
        form_card(
            "Edit Info",
            error_line(s.edit_error, EDIT_ERROR_ID),
            rx.cond(
                s.loaded,
                rx.form(
                    rx.vstack(
                        field("Username", text_input("username", value=s.f_username, on_change=s.set_username,
                                                     required=True, auto_capitalize="none"),
                              field_id="username", error=err["username"]),
                        field("Email", text_input("email", type="email", value=s.f_email, on_change=s.set_email,
                                                  required=True), field_id="email", error=err["email"]),
                        field("First Name", text_input("first_name", value=s.f_first_name,
                                                       on_change=s.set_first_name, required=True),
                              field_id="first_name", error=err["first_name"]),
                        rx.cond(
                            s.show_player,
                            rx.vstack(
                                field("Last Name", text_input("last_name", value=s.f_last_name,
                                                              on_change=s.set_last_name, disabled=s.last_name_locked),
                                      field_id="last_name", error=err["last_name"]),
                                rx.cond(s.last_name_locked, rx.text("Admin edits do not change the last name.",
                                                                    size="1", color_scheme="gray")),
                                spacing="1",
                                width="100%",
                            ),
                        ),
                        rx.cond(
                            s.show_player,
                            field("Gender", _select("gender", "Choose", [g.value for g in Gender], s.f_gender,
                                                    s.set_gender), field_id="gender", error=err["gender"]),
                        ),
                        rx.cond(
                            s.show_address,
                            rx.vstack(
                                field("Address", text_input("address", value=s.f_address, on_change=s.set_address),
                                      field_id="address", error=err["address"]),
                                field("City", text_input("city", value=s.f_city, on_change=s.set_city),
                                      field_id="city", error=err["city"]),
                                spacing="3",
                                width="100%",
                            ),
                        ),
                        field("State", region_select("region", s.f_region, s.set_region), field_id="region",
                              error=err["region"]),
                        rx.cond(s.show_player, _sub_section()),
                        rx.cond(s.admin_view, _admin_section()),
                        field("New Password", text_input("password", type="password", value=s.f_password,
                                                         on_change=s.set_password, auto_complete="new-password"),
                              field_id="password", error=err["password"], hint="Leave blank to keep the current password"),
                        rx.button("Save", type="submit", size="3", width="100%", disabled=~s.can_save),
                        rx.button("Delete Account", type="button", size="3", width="100%", color_scheme="red",
                                  variant="soft", on_click=s.ask_delete),
                        spacing="3",
                        width="100%",
                    ),
                    on_submit=s.save,
                    width="100%",
                ),
            ),
            rx.alert_dialog.root(
                rx.alert_dialog.content(
                    rx.alert_dialog.title("Delete Account"),
                    rx.alert_dialog.description(DELETE_QUESTION),
                    rx.flex(
                        rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray",
                                                         on_click=s.cancel_delete)),
                        rx.alert_dialog.action(rx.button("Delete", color_scheme="red", on_click=s.delete)),
                        spacing="3",
                        justify="end",
                        margin_top="1rem",
                    ),
                ),
                open=s.confirm_open,
            ),
        )
    )  # fmt: skip


def _sub_section() -> rx.Component:
    s = EditUserState
    err = s.field_errors
    ratings = [r.value for r in Rating]
    return rx.card(
        rx.vstack(
            rx.heading("Sub Info", size="4", as_="h2"),
            _check("sub", "Active Sub", s.sub, s.set_sub),
            rx.grid(
                field("Hitter Rating", _select("hitter", "-", ratings, s.f_hitter, s.set_hitter), field_id="hitter",
                      error=err["hitter"]),
                field("Passer Rating", _select("passer", "-", ratings, s.f_passer, s.set_passer), field_id="passer",
                      error=err["passer"]),
                field("Setter Rating", _select("setter", "-", ratings, s.f_setter, s.set_setter), field_id="setter",
                      error=err["setter"]),
                columns={"initial": "1", "sm": "3"},
                spacing="3",
                width="100%",
            ),
            spacing="3",
            width="100%",
        ),
        width="100%",
        variant="surface",
    )  # fmt: skip


def _admin_section() -> rx.Component:
    s = EditUserState
    return rx.card(
        rx.vstack(
            rx.heading("Roles", size="4", as_="h2"),
            rx.flex(
                _check("role-player", "Player", s.has_player, lambda c: s.toggle_role("Player", c)),
                _check("role-svl", "SVL", s.has_svl, lambda c: s.toggle_role("SVL", c)),
                _check("role-admin", "Admin", s.has_admin, lambda c: s.toggle_role("Admin", c)),
                spacing="4",
                wrap="wrap",
            ),
            rx.cond(s.field_errors["roles"] != "", rx.text(s.field_errors["roles"], color_scheme="red", size="2")),
            _check("active", "Active", s.active, s.set_active),
            spacing="3",
            width="100%",
        ),
        width="100%",
        variant="surface",
    )


# --- create new SVL -----------------------------------------------------------------------------------

SVL_FIELDS = ("username", "password", "first_name", "email", "region")


class NewSVLState(AuthState):
    f_username: str = ""
    f_password: str = ""
    f_first_name: str = ""
    f_email: str = ""
    f_region: str = ""
    new_roles: list[str] = ["SVL"]
    svl_error: str = ""
    field_errors: dict[str, str] = dict.fromkeys((*SVL_FIELDS, "roles"), "")
    saving: bool = False

    allowed: bool = False

    async def load(self):
        self.f_username = self.f_password = self.f_first_name = self.f_email = self.f_region = ""
        self.new_roles, self.saving = ["SVL"], False
        self._clear_errors()
        actor = await self._actor()
        self.allowed = actor is not None and actor.is_admin
        if not self.allowed:
            self.svl_error = "No access"

    def _clear_errors(self) -> None:
        self.svl_error = ""
        self.field_errors = dict.fromkeys((*SVL_FIELDS, "roles"), "")

    def _edit(self, name: str, value) -> None:
        value = _str(value)[:254]
        if value != getattr(self, name):
            setattr(self, name, value)
            self._clear_errors()

    @rx.event
    def set_username(self, value: str):
        self._edit("f_username", _str(value).lower())

    @rx.event
    def set_password(self, value: str):
        self._edit("f_password", value)

    @rx.event
    def set_first_name(self, value: str):
        self._edit("f_first_name", value)

    @rx.event
    def set_email(self, value: str):
        self._edit("f_email", value)

    @rx.event
    def set_region(self, value: str):
        self._edit("f_region", value)

    @rx.event
    def toggle_new_role(self, role: str, checked: bool):
        if role not in ROLE_NAMES:
            return
        roles = [r for r in self.new_roles if r != role]
        if checked is True:
            roles.append(role)
        self.new_roles = sorted(roles)

    @rx.var
    def new_has_svl(self) -> bool:
        return "SVL" in self.new_roles

    @rx.var
    def new_has_admin(self) -> bool:
        return "Admin" in self.new_roles

    @rx.var
    def new_has_player(self) -> bool:
        return "Player" in self.new_roles

    async def create(self, form_data: dict | None = None):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        for name in SVL_FIELDS:
            if isinstance(data.get(name), str):
                setattr(self, "f_" + name, data[name][:254])
        self.saving = True
        self._clear_errors()
        yield
        values = {name: getattr(self, "f_" + name) for name in SVL_FIELDS}
        _, failure = await run_action(
            accounts.create_svl, actor=await self._actor(), roles=list(self.new_roles) or None, **values
        )
        self.saving = False
        if failure:
            self.svl_error = failure.message
            errors = getattr(failure, "errors", {}) or {}
            self.field_errors = {k: str(errors.get(k, "")) for k in (*SVL_FIELDS, "roles")}
            yield focus(SVL_ERROR_ID)
            return
        self.f_username = self.f_password = self.f_first_name = self.f_email = self.f_region = ""
        yield rx.redirect(routes.USERS)


@page(routes.USERS_NEW, "Create New SVL", on_load=NewSVLState.load)
def new_svl_page() -> rx.Component:
    s = NewSVLState
    err = s.field_errors
    return dash_page(
        form_card(
            "Create New SVL",
            error_line(s.svl_error, SVL_ERROR_ID),
            rx.cond(s.allowed, rx.form(
                rx.vstack(
                    field("Username", text_input("username", value=s.f_username, on_change=s.set_username,
                                                 required=True, auto_capitalize="none"),
                          field_id="username", error=err["username"], hint="3 to 20 letters"),
                    field("Password", text_input("password", type="password", value=s.f_password,
                                                 on_change=s.set_password, required=True, auto_complete="new-password"),
                          field_id="password", error=err["password"],
                          hint="4 to 100 characters: letters, numbers or ! @ # $ %"),
                    field("Name", text_input("first_name", value=s.f_first_name, on_change=s.set_first_name,
                                             required=True), field_id="first_name", error=err["first_name"]),
                    field("Email", text_input("email", type="email", value=s.f_email, on_change=s.set_email,
                                              required=True), field_id="email", error=err["email"]),
                    field("State", region_select("region", s.f_region, s.set_region), field_id="region",
                          error=err["region"]),
                    rx.vstack(
                        rx.text("Roles", weight="medium", size="2"),
                        rx.flex(
                            _check("new-role-svl", "SVL", s.new_has_svl, lambda c: s.toggle_new_role("SVL", c)),
                            _check("new-role-admin", "Admin", s.new_has_admin,
                                   lambda c: s.toggle_new_role("Admin", c)),
                            _check("new-role-player", "Player", s.new_has_player,
                                   lambda c: s.toggle_new_role("Player", c)),
                            spacing="4",
                            wrap="wrap",
                        ),
                        spacing="1",
                    ),
                    rx.button("Create SVL", type="submit", size="3", width="100%", disabled=s.saving),
                    spacing="3",
                    width="100%",
                ),
                on_submit=s.create,
                width="100%",
            )),
        )
    )  # fmt: skip
