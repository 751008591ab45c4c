"""About Us: who runs the leagues and how the sub network works."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import public_page
from volley_app.components.prose import column, fact, hero, link_row, section
from volley_app.registry import page


@page(routes.ABOUT, "About Us")
def about_page() -> rx.Component:
    return public_page(
        column(
            hero(
                "About Us",
                "We are players first. We started organizing leagues in Lexington, Kentucky because we wanted "
                "more nights on the court and fewer group texts asking who could fill in.",
            ),
            rx.grid(
                fact("Lexington, KY", "where our leagues play"),
                fact("Sixes to doubles", "sixes, 5s, quads, reverse quads and doubles"),
                fact("1-2 days", "our answer time on every message"),
                columns={"initial": "1", "sm": "3"},
                spacing="3",
                width="100%",
            ),
            section(
                "Our leagues",
                "Each season runs for a set number of weekly match nights followed by a single-elimination "
                "tournament seeded by record. Matches are best of three: two sets to 21 and a deciding set to 15, "
                "win by two. Leagues are split by skill level (A, B, C+, C and D) and by format, so a first-year "
                "rec team and a former college setter each find games that are fun and close.",
                "Our venues run the nights; we run everything around them: the schedule, standings, sign-ups, "
                "card payments and the waitlist when a league fills up. The next season starts September 8th, "
                "and registration is open now.",
            ),
            section(
                "The sub network",
                "Every team is one sprained ankle or one late shift away from playing short. Players who are "
                "happy to fill in join our sub list and rate their own hitting, passing and setting. A captain "
                "who needs someone posts a sub request with the date, court, format and level, either open to "
                "everyone on the list or sent to one sub they already know. Subs see open requests on their "
                "home page and accept with one tap, and the captain gets an email as soon as they do.",
                "It is also the easiest way for someone new to town to meet teams before committing to a whole season.",
            ),
            section(
                "How venues join",
                "Gyms, rec centers, churches, schools and sand-court bars all host our leagues. A venue operator "
                "gets an SVL account to open sessions, set up leagues with their own courts, nights, formats and "
                "prices, generate round-robin schedules, enter scores and promote teams off the waitlist. We fill "
                "the leagues through our player base and newsletter, and payments arrive with each registration.",
                link_row(("Host a League", routes.HOST, "solid"), ("Franchise in your city", routes.FRANCHISE, "outline")),
            ),
            section(
                "Stay in touch",
                "Our newsletter goes out on Friday mornings with league openings, venue news and tournament results.",
                link_row(("Get the newsletter", routes.NEWSLETTER, "soft"), ("Contact us", routes.CONTACT, "outline")),
            ),
        )
    )
