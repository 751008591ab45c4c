"""Every form of every page is sent with POST: a page whose scripts fail to load cannot put what was typed in a URL."""

from __future__ import annotations

import re

from volley_app import registry, routes

_FORM_OPEN = re.compile(r"jsx\((RadixFormRoot|\"form\"),\{")


def _props(rendered: str, start: int) -> str:
    """The props object literal opening at ``start`` (a ``{``), strings skipped when matching braces."""
    depth, quote, i = 0, "", start
    while i < len(rendered):
        c = rendered[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return rendered[start : i + 1]
        i += 1
    raise AssertionError("unbalanced props")


def forms_of(rendered: str) -> list[str]:
    return [_props(rendered, m.end() - 1) for m in _FORM_OPEN.finditer(rendered)]


def test_every_form_of_every_page_posts():
    seen = 0
    without_post: list[str] = []
    for p in registry.discover():
        for props in forms_of(str(p.component())):
            seen += 1
            if 'method:"post"' not in props:
                without_post.append(f"{p.route}: {props[:120]}")
    assert seen >= 20  # the signup, profile, request... forms were all found
    assert without_post == []


def test_the_pages_with_passwords_are_among_those_checked():
    pages = {p.route: str(p.component()) for p in registry.discover()}
    for route in (routes.SIGNUP, routes.RESET_PASSWORD_ROUTE):
        rendered = pages[route]
        assert 'type:"password"' in rendered, route
        assert forms_of(rendered) and all('method:"post"' in f for f in forms_of(rendered)), route


def test_a_form_without_method_is_caught():
    import reflex as rx

    rendered = str(rx.form(rx.input(name="password", type="password")))
    assert forms_of(rendered) and 'method:"post"' not in forms_of(rendered)[0]
