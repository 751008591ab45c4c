"""Form pieces: labelled uncontrolled fields, selects, the one error widget, confirm dialog, spinner, cards.

Fields are uncontrolled: the browser keeps what is typed (``default_value``) and
the form is submitted whole. A field whose message is showing tells its state
``fixed(name)`` when it changes, so the message goes as soon as the value is
edited; while no message shows, typing sends nothing to the server.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import reflex as rx
from reflex.components.component import BaseComponent
from reflex.vars import ArrayVar, ObjectVar

from volley_app.components.layout import button_row, centered_card, column, dash_screen, page_heading
from volley_app.models import REGIONS
from volley_app.state.forms import TRAP_FIELD

if TYPE_CHECKING:
    from volley_app.state.forms import FormState

# What a component takes as an event: a state's handler, an event spec, or a function of the control's value.
Event: TypeAlias = object

# A select's choices: (value, label) pairs, or a Var of {value, label} rows.
Options: TypeAlias = list[tuple[str, str]] | ArrayVar[Sequence[Mapping[str, object]]]

NATIVE_CONTROL = {
    "width": "100%",
    "height": "2.5rem",
    "padding": "0 0.6rem",
    "border_radius": "var(--radius-3)",
    "border": f"1px solid {rx.color('gray', 7)}",
    "background": "white",
    "font_size": "16px",  # 16px keeps phones from zooming into the field
}

# Lower-cases the username in the browser as it is typed, keeping the caret where it was.
_LOWER_AS_TYPED: rx.Var[Callable[..., None]] = rx.Var(
    "(e) => { const t = e.target; const v = t.value.toLowerCase();"
    " if (v !== t.value) { const p = t.selectionStart; t.value = v; t.setSelectionRange(p, p); } }"
)



def error_of(state: type[FormState] | None, name: str) -> str | rx.Var[str]:
    """The message the last submit left at field ``name`` ('' without one)."""
    if state is None:
        return ""
    errors = cast(ObjectVar[dict[str, str]], state.errors)  # Reflex's Field stubs give mypy an ArrayVar for a dict
    return errors.get(name, "")


def _checked(state: type[FormState] | None, name: str, props: dict[str, Any]) -> dict[str, Any]:
    """Ties the control to its message (aria) and to the state's ``fixed`` event while a message shows."""
    if state is None:
        return props
    error = error_of(state, name)
    has_error = error != ""
    props.setdefault("aria_invalid", rx.cond(has_error, "true", "false"))
    props.setdefault("aria_describedby", rx.cond(has_error, f"{name}-error", ""))
    fixed = state.fixed(name)  # type: ignore[operator]  # mypy reads Reflex's rx.event as its namespace class
    props.setdefault("on_change", rx.cond(has_error | (state.error != ""), fixed, rx.noop()))
    return props


def field(
    label: str | rx.Var[str], control: rx.Component, *, field_id: str, error: str | rx.Var[str] = "",
    hint: str | rx.Var[str] = "", hint_props: dict[str, object] | None = None,
) -> rx.Component:
    """A label above its control, an optional hint (``hint_props``: its id and attributes), and the field's own
    error message (the hint steps aside when the message says the same words, so nothing is read twice)."""
    has_hint = isinstance(hint, rx.Var) or bool(hint)
    shown_hint = rx.text(hint, size="1", color_scheme="gray", **(hint_props or {})) if has_hint else rx.fragment()
    if has_hint and (isinstance(error, rx.Var) or isinstance(hint, rx.Var)):
        shown_hint = rx.cond(error == hint, rx.fragment(), shown_hint)
    elif has_hint and error == hint:
        shown_hint = rx.fragment()
    return rx.vstack(
        rx.el.label(label, html_for=field_id, style={"font_weight": "500", "font_size": "var(--font-size-2)"}),
        control,
        shown_hint,
        rx.cond(
            error != "",
            rx.text(error, size="2", color_scheme="red", id=f"{field_id}-error"),
            rx.fragment(),
        ),
        spacing="1",
        width="100%",
        align="stretch",
    )


def text_input(field_id: str, **props: Any) -> rx.Component:
    props.setdefault("size", "3")
    return rx.input(id=field_id, name=field_id, width="100%", **props)


def text_field(
    label: str, name: str, state: type[FormState] | None = None, *, hint: str | rx.Var[str] = "",
    hint_props: dict[str, object] | None = None, **props: Any,
) -> rx.Component:
    """A labelled text input of a form whose state is a ``FormState`` (``state`` None: no messages)."""
    return field(label, text_input(name, **_checked(state, name, props)), field_id=name, error=error_of(state, name),
                 hint=hint, hint_props=hint_props)  # fmt: skip


def password_field(label: str, name: str, state: type[FormState] | None = None, *, new: bool = True,
                   **props: Any) -> rx.Component:  # fmt: skip
    """A password input: its value goes to the server only inside the submitted form, never into a state var."""
    props.setdefault("auto_complete", "new-password" if new else "current-password")
    props.setdefault("max_length", 100)
    return text_field(label, name, state, type="password", **props)


def username_field(state: type[FormState] | None = None, *, label: str = "Username", hint: str = "",
                   **props: Any) -> rx.Component:  # fmt: skip
    """The username box: lower-cased in the browser as typed, never auto-capitalised or spell-checked."""
    props.setdefault("auto_complete", "username")
    props.setdefault("max_length", 50)
    return text_field(
        label,
        "username",
        state,
        hint=hint,
        auto_capitalize="none",
        spell_check=False,
        custom_attrs={"onInput": _LOWER_AS_TYPED},
        **props,
    )


def area_field(label: str, name: str, state: type[FormState] | None = None, *, rows: str = "5", hint: str = "",
               **props: Any) -> rx.Component:  # fmt: skip
    props.setdefault("max_length", 5000)
    return field(
        label,
        rx.text_area(id=name, name=name, width="100%", rows=rows, size="3", **_checked(state, name, props)),
        field_id=name,
        error=error_of(state, name),
        hint=hint,
    )


def native_select(field_id: str, options: Options, *, default_value: str | rx.Var[str] | None = None,
                  placeholder: str = "", required: bool = True, **props: Any) -> rx.Component:  # fmt: skip
    """A native select (best on phones). ``options``: (value, label) pairs, or a Var of {value, label} dicts."""
    children = [rx.el.option(placeholder, value="")] if placeholder else []
    if isinstance(options, rx.Var):
        children.append(rx.foreach(options, lambda o: rx.el.option(o["label"], value=o["value"])))
    else:
        children.extend(rx.el.option(label, value=value) for value, label in options)
    if default_value is not None:
        props["default_value"] = default_value
    return rx.el.select(*children, id=field_id, name=field_id, required=required, style=NATIVE_CONTROL, **props)


def select_field(label: str | rx.Var[str], name: str, options: Options, state: type[FormState] | None = None, *,
                 placeholder: str = "", **props: Any) -> rx.Component:  # fmt: skip
    """A labelled native select of a form."""
    return field(label, native_select(name, options, placeholder=placeholder, **_checked(state, name, props)),
                 field_id=name, error=error_of(state, name))  # fmt: skip


def region_field(state: type[FormState] | None = None, *, name: str = "region", **props: Any) -> rx.Component:
    """The state picker: the 50 states plus DC."""
    props.setdefault("default_value", "")
    return select_field("State", name, list(REGIONS.items()), state, placeholder="Choose a state", **props)


def checkbox_field(label: str | rx.Var[str], name: str, *, default_checked: rx.Var[bool] | bool = False,
                   **props: Any) -> rx.Component:  # fmt: skip
    """A labelled checkbox that sends 'on' in the form when checked."""
    return rx.el.label(
        rx.el.input(type="checkbox", id=name, name=name, default_checked=default_checked,
                    style={"width": "1.25rem", "height": "1.25rem"}, **props),
        rx.text(label, size="2"),
        html_for=name,
        style={"display": "flex", "gap": "0.5rem", "align_items": "center", "min_height": "44px"},
    )  # fmt: skip


def trap_field() -> rx.Component:
    """Off-screen and out of the tab order; a person never fills it."""
    return rx.box(
        rx.el.label("Leave this field empty", html_for=TRAP_FIELD),
        rx.el.input(id=TRAP_FIELD, name=TRAP_FIELD, type="text", tab_index=-1, auto_complete="off", default_value=""),
        aria_hidden="true",
        style={"position": "absolute", "left": "-10000px", "top": "auto", "width": "1px", "height": "1px", "overflow": "hidden"},
    )


def error_line(message: str | rx.Var[str], element_id: str | None = None) -> rx.Component:
    """The one error widget: an assertive live region always in the page, so screen readers hear each new message.

    Give ``element_id`` where focus moves to the message after a failed submit.
    """
    return rx.box(
        rx.cond(
            message != "",
            rx.callout(message, icon="triangle_alert", color_scheme="red", size="1"),
            rx.fragment(),
        ),
        id=element_id or None,
        role="alert",
        aria_live="assertive",
        tab_index=-1,
        width="100%",
        outline="none",
        scroll_margin_top="5rem",
    )


def _file_input(component: BaseComponent) -> rx.Component | None:
    for child in component.children:
        if isinstance(child, rx.Component) and getattr(child, "tag", "") == "input":
            return child
        if (found := _file_input(child)) is not None:
            return found
    return None


def upload_field(label: str, upload_id: str, hint: str, error: str | rx.Var[str], *, accept: dict[str, list[str]],
                 **props: Any) -> rx.Component:  # fmt: skip
    """A file drop zone named ``label`` (its file input carries the name), with its own error right under it."""
    zone = rx.upload(rx.text(hint, size="2"), id=upload_id, multiple=False, max_files=1, accept=accept,
                     border=f"1px dashed {rx.color('gray', 8)}", padding="1rem", width="100%", **props)  # fmt: skip
    file_input = _file_input(zone)
    if file_input is not None:
        file_input.custom_attrs.update({"aria-label": label, "aria-describedby": f"{upload_id}-error"})
    return rx.vstack(
        rx.text(label, weight="medium", size="2", as_="div"),
        zone,
        rx.box(
            rx.cond(error != "", rx.text(error, size="2", color_scheme="red"), rx.fragment()),
            id=f"{upload_id}-error",
            role="alert",
            aria_live="assertive",
            width="100%",
        ),
        spacing="1",
        width="100%",
    )


def confirm_delete(button_label: str, question: str | rx.Var[str], on_confirm: Event = None, *,
                   confirm_label: str = "Delete",
                   choices: tuple[tuple[str, Event] | tuple[str, Event, rx.Var[bool]], ...] = ()) -> rx.Component:  # fmt: skip
    """A button that asks ``question`` before anything is deleted (or withdrawn, or archived).

    ``choices``: (label, event) pairs when the person chooses how, one confirming button each; a third item, a
    condition, shows that button only while it holds (the dialog stays open while what it offers changes).
    """
    actions = choices or ((confirm_label, on_confirm),)
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(rx.button(button_label, color_scheme="red", variant="soft", type="button")),
        rx.alert_dialog.content(
            rx.alert_dialog.title("Please confirm"),
            rx.alert_dialog.description(question),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray")),
                *(_choice(*action) for action in actions),
                spacing="3",
                justify="end",
                wrap="wrap",
                margin_top="1rem",
            ),
            max_width="26rem",
        ),
    )


def _choice(label: str, event: Event, when: rx.Var[bool] | None = None) -> rx.Component:
    button = rx.alert_dialog.action(rx.button(label, color_scheme="red", on_click=event))
    return button if when is None else rx.cond(when, button, rx.fragment())


def busy(label: str) -> rx.Component:
    return rx.center(
        rx.vstack(rx.spinner(size="3"), rx.text(label, color_scheme="gray"), align="center"),
        padding="2.5rem",
        role="status",
        aria_live="polite",
        width="100%",
    )


def submit_button(label: str | rx.Var[str] | rx.Component, state: type[FormState] | None = None, **props: Any) -> rx.Component:
    """The form's submit button: shows a spinner and takes no second click while the form is busy."""
    props.setdefault("size", "3")
    props.setdefault("width", "100%")
    if state is not None:
        props.setdefault("loading", state.busy)
    return rx.button(label, type="submit", **props)


# Enables the form's submit button only while the browser finds the form complete: every control
# valid (required, type, minlength...) and, for each name prefix in data-one-of whose boxes the form
# shows, one box ticked. While it is off, the form's [data-why] line says why (the first field that is
# not right, with the browser's own message). It runs in the browser on every change and when the form
# takes focus, so typing sends nothing to the server.
_FOLLOW_VALIDITY: rx.Var[Callable[..., None]] = rx.Var(
    "(e) => { const f = e.currentTarget; const b = f.querySelector('button[type=submit]'); if (!b) return;"
    " let why = '';"
    " const bad = f.querySelector('input:invalid, select:invalid, textarea:invalid');"
    " if (bad) { const l = bad.labels && bad.labels.length ? bad.labels[0].textContent.trim() : '';"
    "  why = (l ? l + ': ' : '') + bad.validationMessage; }"
    " for (const g of (f.dataset.oneOf || '').split(' ').filter(Boolean)) {"
    "  const boxes = [...f.querySelectorAll(`input[type=checkbox][name^='${g}']`)];"
    "  if (!why && boxes.length && !boxes.some((x) => x.checked)) why = f.dataset.oneOfWhy || 'Tick at least one box.'; }"
    " b.disabled = why !== '';"
    " const w = f.querySelector('[data-why]'); if (w) w.textContent = why ? 'To continue: ' + why : ''; }"
)
WHY_ID = "submit-why"
FILL_IN = "To continue: fill in every required field."


def complete_form(*children: rx.Component, one_of: tuple[str, ...] = (), one_of_why: str = "",
                  **props: Any) -> rx.Component:  # fmt: skip
    """A form whose submit button (``complete_button``) is enabled only while every field is filled in right.

    Args:
        one_of: checkbox name prefixes of which at least one box must be ticked (e.g. the roles).
        one_of_why: what the disabled button says while none of those boxes is ticked.
    """
    attrs: dict[str, str | rx.Var[Callable[..., None]]] = {"onInput": _FOLLOW_VALIDITY, "onChange": _FOLLOW_VALIDITY, "onFocus": _FOLLOW_VALIDITY}
    if one_of:
        attrs["data-one-of"] = " ".join(one_of)
    if one_of_why:
        attrs["data-one-of-why"] = one_of_why
    props.setdefault("method", "post")
    return rx.form(*children, custom_attrs=attrs, **props)


def complete_button(label: str, *, starts_complete: bool = False, **props: Any) -> rx.Component:
    """The submit button of a ``complete_form``: the browser enables it; it starts disabled on an empty form.

    Under it, a line says why it is off (read with the button). Its disabled state is the browser's
    alone (no state var drives it), so a redraw never overrides it; a second submit while one runs is
    refused by the form state.
    """
    props.setdefault("size", "3")
    props.setdefault("width", "100%")
    why = rx.text("" if starts_complete else FILL_IN, id=WHY_ID, size="2", color_scheme="gray",
                  custom_attrs={"data-why": ""}, aria_live="polite")  # fmt: skip
    button = rx.button(label, type="submit", disabled=not starts_complete, aria_describedby=WHY_ID, **props)
    return rx.vstack(button, why, spacing="1", width="100%")


def stacked_form(*children: rx.Component, on_submit: Event, spacing: str = "4", **props: Any) -> rx.Component:
    """A form across the whole width, its fields and buttons one under the other, sent whole to ``on_submit``."""
    props.setdefault("method", "post")
    return rx.form(column(*children, spacing=spacing), on_submit=on_submit, width="100%", **props)


def record_form(state, *children: rx.Component, on_submit: Event = None, spacing: str = "4") -> rx.Component:
    """The form of a loaded record, drawn again with new defaults when ``state`` shows another (its ``form_key``).

    Sent to ``on_submit`` (``state.save`` unless given).
    """
    submit = on_submit if on_submit is not None else state.save
    return stacked_form(*children, on_submit=submit, key=state.form_key, spacing=spacing)


def update_delete(state, update: str, delete: str, question: str | rx.Var[str]) -> rx.Component:
    """Update (submits the form) and Delete (``state.delete``, after ``question``) side by side."""
    save = submit_button(update, state, size="2", width="auto")
    return button_row(save, confirm_delete(delete, question, state.delete), spacing="3")


def form_messages(state, error_id: str | None = None) -> rx.Component:
    """A form screen's two lines over its content: what went wrong (``state.error``, focused at ``error_id``) and
    what the last action did (``state.notice``)."""
    return messages(state.error, error_id, state.notice)


def messages(error: rx.Var[str], error_id: str | None, notice: rx.Var[str]) -> rx.Component:
    """What went wrong (focused at ``error_id``) and what the last action did, as ``form_messages`` shows a state's."""
    return rx.fragment(error_line(error, error_id), notice_line(notice))


def notice_line(message: str | rx.Var[str]) -> rx.Component:
    """What an action just did (a team promoted, a request updated), read out politely when it appears."""
    return rx.cond(message != "", rx.callout(message, icon="check", color_scheme="green", role="status"), rx.fragment())


def form_card(title: str | rx.Var[str], *children: rx.Component, max_width: str = "28rem") -> rx.Component:
    """A screen that is one form: its title and the form in a card centred on the page."""
    return centered_card(page_heading(title), *children, max_width=max_width)





def record_screen(title: str, name: rx.Var, state: Any, error_id: str, shown: rx.Var, *body: rx.Component,
                  notices: bool = True) -> rx.Component:  # fmt: skip
    """The /dash screen of one record: "``title``: its ``name``" once read, what went wrong (and with ``notices``
    what the last change did), then ``body`` once the record is ``shown``."""
    lines = [error_line(state.error, error_id), *([notice_line(state.notice)] if notices else [])]
    return dash_screen(rx.cond(name, f"{title}: " + name.to(str), title), *lines, rx.cond(shown, column(*body)))
