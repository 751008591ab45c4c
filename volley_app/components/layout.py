"""Page frames: the public header and footer, and the dashboard shell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import reflex as rx

from volley_app import routes
from volley_app.settings import SITE_NAME
from volley_app.state.auth import AuthState, NotificationBell

# What a component shows: another component, a text, or a Var of the state's.
Content: TypeAlias = rx.Component | str | rx.Var[object]

MAX_WIDTH = "72rem"

# The year is the browser's, so a page built once still shows the current year.
CURRENT_YEAR: rx.Var[int] = rx.Var("new Date().getFullYear()", _var_type=int)


def _to(href: str | rx.Var[str], backend: bool = False) -> dict[str, Any]:
    """A link's address and how it is followed: a page the backend draws (the home page, the login, the public
    leagues) is loaded by the browser itself, where the app's router would look for it among its own pages.
    ``backend``: ``href`` is a state's address of such a page, already made with ``routes.backend_page``."""
    if isinstance(href, str) and routes.drawn_by_backend(href):
        return {"href": routes.backend_page(href), "reload_document": True}
    return {"href": href, "reload_document": True} if backend else {"href": href}


def link_button(*children: Content, href: str | rx.Var[str], backend: bool = False, **props: Any) -> rx.Component:
    """A link that looks like a button (one <a>, no button nested inside a link); ``backend`` as for ``page_link``."""
    return rx.button(rx.link(*children, underline="none", **_to(href, backend)), as_child=True, **props)


def page_link(*children: Content, href: str | rx.Var[str], backend: bool = False, **props: Any) -> rx.Component:
    """A link to a page: the app's own, or one the backend draws (by its path, or by a state's address of it with
    ``backend``), which the browser loads itself."""
    return rx.link(*children, **_to(href, backend), **props)


def file_link(*children: Content, href: str | rx.Var[str], download: bool | str = True,
              **props: Any) -> rx.Component:
    """A link to a file the backend serves (a CSV export, a calendar feed, a bracket): the browser fetches it.

    The app's router keeps every other link on its own origin inside the app; a file is not one of its pages,
    so this link always loads the document itself and the browser saves it (``download``) or opens it.
    """
    return rx.link(*children, href=href, download=download, reload_document=True, **props)


def logo(href: str) -> rx.Component:
    return rx.link(
        rx.hstack(
            rx.image(src="/logo.svg", alt="", width="2.25rem", height="2.25rem"),
            rx.text(SITE_NAME, weight="bold", size="5", color=rx.color("gray", 12)),
            align="center",
            spacing="2",
        ),
        underline="none",
        aria_label=f"{SITE_NAME} home",
        **_to(href),
    )


def _band(element: Callable[..., rx.Component], *children: rx.Component, flex: dict[str, object],
          **props: Any) -> rx.Component:  # fmt: skip
    """A full-width band (header, footer) whose content keeps to the page's column."""
    return element(rx.flex(*children, max_width=MAX_WIDTH, margin="0 auto", width="100%", **flex), width="100%", **props)


def footer(*extra: rx.Component) -> rx.Component:
    return _band(
        rx.el.footer,
        *extra,
        rx.text("© ", CURRENT_YEAR, f" {SITE_NAME}. All rights reserved.", size="2", color_scheme="gray"),
        flex={"direction": {"initial": "column", "sm": "row"}, "justify": "between",
              "align": {"initial": "start", "sm": "center"}, "spacing": "3"},
        padding="1.25rem 1rem",
        border_top=f"1px solid {rx.color('gray', 5)}",
        background=rx.color("gray", 2),
    )  # fmt: skip


def _header(*right: rx.Component, home: str) -> rx.Component:
    return _band(
        rx.el.header,
        logo(home),
        rx.flex(*right, spacing="2", align="center", wrap="wrap", justify="end"),
        flex={"justify": "between", "align": "center", "spacing": "3", "wrap": "wrap"},
        padding="0.75rem 1rem",
        border_bottom=f"1px solid {rx.color('gray', 5)}",
        background="white",
        # Sticky from tablet width up; on a phone the header scrolls away and covers nothing.
        position={"initial": "static", "sm": "sticky"},
        top="0",
        z_index="10",
    )


def _frame(header: rx.Component, banner: rx.Component, content: rx.Component, foot: rx.Component, *,
           main_height: str | None = None) -> rx.Component:  # fmt: skip
    """Header, optional banner, the centred content column (at least ``main_height`` tall), footer: every page's
    frame."""
    return rx.flex(
        header,
        banner,
        rx.el.main(content, width="100%", max_width=MAX_WIDTH, margin="0 auto", padding="1.5rem 1rem 3rem", flex="1",
                   **({"min_height": main_height} if main_height else {})),  # fmt: skip
        foot,
        direction="column",
        min_height="100vh",
        background=rx.color("gray", 1),
    )


def public_page(*children: rx.Component, banner: str | rx.Var[str] | None = None) -> rx.Component:
    """Frame of every public page: header with Log In / Sign Up, the ``banner`` announcement if given, content, footer."""
    return _frame(
        _header(
            link_button("Leagues", href=routes.public_leagues_base, variant="ghost"),
            link_button("Log In", href=routes.LOGIN, variant="soft"),
            link_button("Sign Up", href=routes.SIGNUP),
            home=routes.HOME,
        ),
        announcement_banner(banner) if banner is not None else rx.fragment(),
        rx.fragment(*children),
        footer(),
    )


def announcement_banner(text: str | rx.Var[str]) -> rx.Component:
    """The league announcement under the header: dark text on the brand orange (nothing while it loads)."""
    return rx.box(
        rx.text(text, weight="bold", size="4", align="center", min_height="1.5em"),
        role="region",
        aria_label="League announcement",
        background="var(--brand-orange)",
        color=rx.color("gray", 12),
        padding="0.9rem 1rem",
        width="100%",
    )


def _nav_link(label: str, href: str) -> rx.Component:
    """A header link, 44 px tall, marked as the current page when it is."""
    path = AuthState.router.url.path
    here = (path == href) | (path == href + "/")
    return link_button(label, href=href, variant="ghost", size="2", class_name="nav-link",
                       aria_current=rx.cond(here, "page", "false"))  # fmt: skip


def notification_bell() -> rx.Component:
    """The bell: a link to the person's notifications, with how many are unread (nothing when none)."""
    b = NotificationBell
    path = AuthState.router.url.path
    here = (path == routes.NOTIFICATIONS) | (path == routes.NOTIFICATIONS + "/")
    return link_button(
        rx.icon("bell", size=18, aria_hidden="true"),
        rx.cond(b.unread_text != "", rx.badge(b.unread_text, color_scheme="red", variant="solid", radius="full",
                                              size="1", aria_hidden="true"), rx.fragment()),  # fmt: skip
        href=routes.NOTIFICATIONS, variant="ghost", size="2", class_name="nav-link", aria_label=b.bell_label,
        aria_current=rx.cond(here, "page", "false"), custom_attrs={"data-testid": "bell"},
    )  # fmt: skip


def dash_nav() -> rx.Component:
    """Header links by role (spec section 2, dashboard layout), and the notifications' bell."""
    return rx.flex(
        rx.cond(
            AuthState.is_svl_view,
            rx.fragment(
                _nav_link("Home", routes.SVL_HOME),
                _nav_link("Sessions", routes.SESSIONS),
                _nav_link("Revenue", routes.REVENUE),
                _nav_link("Discounts", routes.DISCOUNTS),
            ),
            rx.fragment(
                _nav_link("Home", routes.DASH),
                _nav_link("Teams", routes.TEAMS),
                _nav_link("Leagues", routes.DASH_LEAGUES),
                _nav_link("Subs", routes.DASH_SUBS),
                _nav_link("Profile", routes.DASH_PROFILE),
                rx.cond(AuthState.status == "Admin", _nav_link("Revenue", routes.REVENUE)),
                rx.cond(AuthState.status == "Admin", _nav_link("Discounts", routes.DISCOUNTS), rx.fragment()),
            ),
        ),
        notification_bell(),
        rx.button("Logout", on_click=AuthState.logout, variant="soft", color_scheme="gray", size="2",
                  class_name="nav-link"),  # fmt: skip
        spacing="2",
        align="center",
        wrap="wrap",
        role="navigation",
        aria_label="Main",
    )


def dash_footer() -> rx.Component:
    path = AuthState.router.url.path
    on_home = (path == routes.DASH) | (path == routes.DASH + "/")
    return footer(
        rx.cond(
            AuthState.logged_in,
            rx.flex(
                rx.text("Current user: ", rx.text.strong(AuthState.username), size="2"),
                rx.text("Status: ", rx.text.strong(AuthState.status), size="2"),
                rx.cond(
                    on_home,
                    rx.fragment(),
                    link_button(rx.icon("house", size=16), "Home", href=routes.DASH, size="1", variant="outline"),
                ),
                spacing="4",
                align="center",
                wrap="wrap",
            ),
            rx.fragment(),
        ),
    )


def restore_failed() -> rx.Component:
    """A remembered login that no longer holds: the message as the page's heading, and the way back."""
    return centered_card(
        rx.box(page_heading(AuthState.restore_error), role="alert"),
        page_link("Please login again", href=routes.LOGIN, weight="bold"),
    )


def refused() -> rx.Component:
    """A logged-in user on a page their role may not open: who it is for, and the way to their own home."""
    return centered_card(
        rx.icon("lock", size=32, color=rx.color("gray", 11)),
        page_heading("This page is for ", AuthState.refused_for),
        rx.text("You are logged in as ", rx.text.strong(AuthState.username), " (", AuthState.status, ")."),
        link_button("Go to my home page", href=AuthState.home_path, size="3"),
    )


def dash_page(*children: rx.Component) -> rx.Component:
    """Frame of every /dash page. Content shows only once the server has confirmed the user: until then the content
    column fills the screen, so the footer waits below it instead of jumping down when the content comes."""
    return _frame(
        # The links take their room before the login is confirmed (unseen, out of the tab order): the page does not
        # move down when they show.
        _header(rx.box(dash_nav(), visibility=rx.cond(AuthState.logged_in, "visible", "hidden")), home=routes.DASH),
        rx.fragment(),
        rx.cond(
            AuthState.logged_in,
            rx.cond(AuthState.refused_for != "", refused(), rx.fragment(*children)),
            rx.cond(
                AuthState.restore_error != "",
                restore_failed(),
                rx.center(rx.spinner(size="3"), padding="4rem", role="status", aria_label="Loading"),
            ),
        ),
        dash_footer(),
        main_height="100vh",
    )


def page_heading(*text: Content) -> rx.Component:
    """The screen's one h1."""
    return rx.heading(*text, size="7", as_="h1")


def column(*children: rx.Component, spacing: str = "4", **props: Any) -> rx.Component:
    """Children one under the other across the whole width: the body of every screen and card."""
    return rx.vstack(*children, spacing=spacing, width="100%", **props)


def button_row(*buttons: rx.Component, **props: Any) -> rx.Component:
    """Buttons side by side, wrapping on a phone."""
    props.setdefault("spacing", "2")
    return rx.flex(*buttons, wrap="wrap", align="center", **props)


def title_row(title: str | rx.Var[str], *actions: rx.Component) -> rx.Component:
    """The screen's heading with its buttons on the right (under it on a phone)."""
    return rx.flex(page_heading(title), button_row(*actions), justify="between", align="center", width="100%",
                   wrap="wrap", spacing="3")  # fmt: skip


def dash_screen(title: str | rx.Var[str], *children: rx.Component, actions: tuple[rx.Component, ...] = ()) -> rx.Component:
    """A /dash screen: its title (with ``actions`` beside it), then ``children`` one under the other."""
    return dash_page(column(title_row(title, *actions) if actions else page_heading(title), *children))


def centered_card(*children: rx.Component, max_width: str = "28rem") -> rx.Component:
    """A card centred on the page: the form screens and the confirmation pages."""
    return rx.center(
        rx.card(column(*children), width="100%", max_width=max_width, size="3"),
        width="100%",
        padding_top={"initial": "0.5rem", "sm": "2rem"},
    )


def section_card(title: str | rx.Var[str], *children: rx.Component, max_width: str | None = None,
                 **props: Any) -> rx.Component:  # fmt: skip
    """A part of a screen in its own card under an h2."""
    return rx.card(
        column(rx.heading(title, size="4", as_="h2"), *children, spacing="3"), width="100%", max_width=max_width, **props
    )


def card_for(shown: rx.Var[bool] | bool, title: str | rx.Var[str], *children: rx.Component,
             **props: Any) -> rx.Component:  # fmt: skip
    """A section card shown only while ``shown`` (to some users, or once there is something in it)."""
    return rx.cond(shown, section_card(title, *children, **props))


def labelled(label: Content, value: Content) -> rx.Component:
    """One 'label: value' line of a record's details."""
    return rx.data_list.item(rx.data_list.label(label), rx.data_list.value(value))


def details(*items: rx.Component, **props: Any) -> rx.Component:
    """A record's details, ``labelled`` lines one under the other."""
    props.setdefault("size", "2")
    return rx.data_list.root(*items, orientation={"initial": "vertical", "sm": "horizontal"}, **props)


def message_page(title: str, *children: rx.Component, icon: str = "circle_check", tone: str = "green") -> rx.Component:
    """A centred card with a heading and a few lines: the confirmation and error pages."""
    return public_page(
        centered_card(rx.icon(icon, size=40, color=rx.color(tone, 9)), page_heading(title), *children,
                      max_width="32rem")  # fmt: skip
    )
