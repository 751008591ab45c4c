"""No password is ever kept in a state var: not declared, not in what goes to the browser, not in what is stored."""

from __future__ import annotations

import pickle

import pytest
import reflex as rx

from tests.factories import PASSWORD, login_token, make_user
from tests.harness import call, drain, page_state, root_state, substate
from volley_app import registry
from volley_app.pages.auth.reset_password import ResetState
from volley_app.pages.auth.signup import SignupState
from volley_app.pages.dash.users.edit.page import EditUserState
from volley_app.pages.dash.users.new_svl import NewSVLState

TYPED = "Typo-Secret-1234"


def _all_states(cls=rx.State):
    yield cls
    for sub in cls.get_substates():
        yield from _all_states(sub)


def test_no_state_declares_a_password_var():
    registry.discover()
    found = [
        f"{cls.__name__}.{name}"
        for cls in _all_states()
        for name in (*cls.base_vars, *(cls._backend_vars or {}))
        if "password" in name.lower() or "secret" in name.lower()
    ]
    assert found == []


def _everywhere(root) -> bytes:
    """What the browser gets (the state's values) and what a state manager stores (the pickled tree)."""
    shown = repr(root.dict()).encode()
    return shown + pickle.dumps(root._serialize())


@pytest.mark.parametrize(
    ("cls", "path", "handler", "form"),
    [
        (SignupState, "/new", "signup", {"username": "x y", "password": TYPED, "email": "bad"}),
        (ResetState, "/resetPassword/1/nope", "save", {"password": TYPED, "confirm": TYPED + "x"}),
    ],
)
async def test_a_mistyped_password_is_nowhere_in_the_state(db, cls, path, handler, form):
    make_user(db, "bob")
    root = root_state(path)
    state = substate(root, cls)
    if hasattr(state, "on_load"):
        await call(state.on_load)
    await drain(getattr(state, handler)(form))
    assert state.error or state.errors  # refused, with a message
    assert TYPED.encode() not in _everywhere(root)


async def test_a_new_password_typed_on_the_edit_form_is_nowhere_in_the_state(db):
    user = make_user(db, "bob")
    token = login_token(db, "bob")
    root, state = page_state(EditUserState, f"/dash/users/{user.id}", token)
    await state.load()
    form = {"username": "bob", "email": "bob@example.com", "first_name": "Bob", "last_name": "T", "region": "KY",
            "password": TYPED, "current_password": PASSWORD + "x"}  # fmt: skip
    await call(state.save, form)
    assert state.errors == {"current_password": "The current password is not right"}
    assert TYPED.encode() not in _everywhere(root) and PASSWORD.encode() not in _everywhere(root)


def test_password_widgets_are_uncontrolled():
    """The forms send passwords once, inside the submitted form: no state var holds their value."""
    for cls in (SignupState, ResetState, EditUserState, NewSVLState):
        assert not [v for v in cls.base_vars if "pass" in v.lower()]
