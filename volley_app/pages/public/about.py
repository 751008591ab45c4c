"""About us and Franchise: who runs the leagues, how the sub network works, how venues and cities join."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import link_button, public_page
from volley_app.pages.public.inquiries import FranchiseState, franchise_form
from volley_app.registry import page


def _section(title: str, *paragraphs: str | rx.Component) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="5", as_="h2"),
        *[rx.text(p, size="3", line_height="1.7") if isinstance(p, str) else p for p in paragraphs],
        spacing="3",
        width="100%",
    )


def _fact(value: str, label: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(value, size="6", weight="bold", color=rx.color("accent", 11)),
            rx.text(label, size="2", color_scheme="gray"),
            spacing="1",
        ),
        size="2",
    )


def _steps(*items: tuple[str, str]) -> rx.Component:
    return rx.el.ol(
        *[
            rx.el.li(rx.text(rx.text.strong(title), " ", text, size="3", line_height="1.7"), margin_bottom="0.6rem")
            for title, text in items
        ],
        style={"padding_left": "1.5rem", "margin": "0", "list_style_type": "decimal"},
    )


def _column(*children: rx.Component) -> rx.Component:
    return rx.vstack(*children, spacing="6", width="100%", max_width="46rem", margin="0 auto")


@page(routes.ABOUT, "About Us")
def about_page() -> rx.Component:
    return public_page(
        _column(
            rx.vstack(
                rx.heading("About Us", size={"initial": "8", "sm": "9"}, as_="h1"),
                rx.text(
                    "We are players first. We started organizing leagues in Lexington, Kentucky because we wanted "
                    "more nights on the court and fewer group texts asking who could fill in.",
                    size="4",
                    color_scheme="gray",
                ),
                spacing="3",
            ),
            rx.grid(
                _fact("Lexington, KY", "where our leagues play"),
                _fact("Sixes to doubles", "sixes, 5s, quads, reverse quads and doubles"),
                _fact("1-2 days", "our answer time on every message"),
                columns={"initial": "1", "sm": "3"},
                spacing="3",
                width="100%",
            ),
            _section(
                "Our leagues",
                "Each season runs for a set number of weekly match nights followed by a single-elimination "
                "tournament seeded by record. Matches are best of three: two sets to 21 and a deciding set to 15, "
                "win by two. Leagues are split by skill level (A, B, C+, C and D) and by format, so a first-year "
                "rec team and a former college setter each find games that are fun and close.",
                "Our venues run the nights; we run everything around them: the schedule, standings, sign-ups, "
                "card payments and the waitlist when a league fills up. The next season starts September 8th, "
                "and registration is open now.",
            ),
            _section(
                "The sub network",
                "Every team is one sprained ankle or one late shift away from playing short. Players who are "
                "happy to fill in join our sub list and rate their own hitting, passing and setting. A captain "
                "who needs someone posts a sub request with the date, court, format and level, either open to "
                "everyone on the list or sent to one sub they already know. Subs see open requests on their "
                "home page and accept with one tap, and the captain gets an email as soon as they do.",
                "It is also the easiest way for someone new to town to meet teams before committing to a whole season.",
            ),
            _section(
                "How venues join",
                "Gyms, rec centers, churches, schools and sand-court bars all host our leagues. A venue operator "
                "gets an SVL account to open sessions, set up leagues with their own courts, nights, formats and "
                "prices, generate round-robin schedules, enter scores and promote teams off the waitlist. We fill "
                "the leagues through our player base and newsletter, and payments arrive with each registration.",
                rx.flex(
                    link_button("Host a League", href=routes.HOST, size="3"),
                    link_button("Franchise in your city", href=routes.FRANCHISE, size="3", variant="outline"),
                    spacing="3",
                    wrap="wrap",
                ),
            ),
            _section(
                "Stay in touch",
                "Our newsletter goes out on Friday mornings with league openings, venue news and tournament results.",
                rx.flex(
                    link_button("Get the newsletter", href=routes.NEWSLETTER, size="3", variant="soft"),
                    link_button("Contact us", href=routes.CONTACT, size="3", variant="outline"),
                    spacing="3",
                    wrap="wrap",
                ),
            ),
        )
    )


@page(routes.FRANCHISE, "Franchise", on_load=FranchiseState.clear)
def franchise_page() -> rx.Component:
    return public_page(
        rx.grid(
            rx.vstack(
                rx.heading("Franchise", size={"initial": "8", "sm": "9"}, as_="h1"),
                rx.text(
                    "Bring our leagues and sub network to your city. You know the local players and the courts; "
                    "we bring a format that already works in Lexington and the software that runs it.",
                    size="4",
                    color_scheme="gray",
                ),
                _section(
                    "What you get",
                    rx.el.ul(
                        *[
                            rx.el.li(rx.text(t, size="3", line_height="1.7"), margin_bottom="0.4rem")
                            for t in (
                                "The complete league platform: player accounts, the sub network, team registration "
                                "with card payments and waitlists, schedules, scores and standings.",
                                "Accounts for each of your venues, so operators run their own nights.",
                                "Our season format, rules and tournament structure, tested over many seasons.",
                                "A newsletter and launch plan to fill your first leagues.",
                            )
                        ],
                        style={"padding_left": "1.5rem", "margin": "0", "list_style_type": "disc"},
                    ),
                ),
                _section(
                    "How it works",
                    _steps(
                        ("Tell us about your city.", "Send the form and we reply within 1-2 days to set up a call."),
                        ("Line up venues.", "We help you pick courts and nights and agree terms with each venue."),
                        ("Launch a season.", "We open registration, announce it to local players and help you run week one."),
                        ("Grow.", "Add formats, skill levels and venues as your player base grows."),
                    ),
                ),
                spacing="5",
                width="100%",
            ),
            rx.card(
                rx.vstack(
                    rx.heading("Start the conversation", size="5", as_="h2"),
                    franchise_form(),
                    spacing="4",
                    width="100%",
                ),
                size="3",
                width="100%",
            ),
            columns={"initial": "1", "md": "2"},
            spacing="6",
            width="100%",
            align="start",
        )
    )
