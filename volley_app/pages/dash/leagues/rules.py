"""A league's rules (/dash/leagues/{id}/LeagueRules): this league's roster and sub rules, the general rules and each
format's own."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import card_for, dash_screen, link_button, section_card
from volley_app.registry import page
from volley_app.services.seasons import leagues
from volley_app.services.teams import waivers
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action

GENERAL_RULES = [
    waivers.AGE_RULE,
    "A team that cannot play must give notice at least 2 hours before its match.",
    "A team has a 10 minute grace period after the scheduled time; after that the match is a forfeit.",
    "Matches are 3 sets: the first two to 21 (cap 23), the third to 15 (cap 17). Every set is won by two.",
    "One 30 second timeout per team per set.",
    "The play area is the court plus 10 feet on each side.",
    "Back row attackers must stay 10 feet from the net when attacking.",
    "The season ends with a single elimination tournament, seeded by record; tournament matches are best of 3.",
]

FORMAT_RULES: list[tuple[str, list[str]]] = [
    ("C Sixes", ["Six players on court; a team needs at least 4 players to play.",
                 "At least 2 men and 2 women on court; at most 4 men on court.",
                 "C level: recreational play, all general rules apply."]),
    ("C 5s", ["Five players on court; a team needs at least 3 players to play.",
              "At least 2 women on court; at most 3 men on court.",
              "C level: recreational play, all general rules apply."]),
    ("C Quads", ["Four players on court; a team needs at least 2 players to play.",
                 "C level: recreational play, all general rules apply."]),
    ("D Sixes", ["Six players on court; a team needs at least 4 players to play.",
                 "At least 2 men and 2 women on court; at most 4 men on court.",
                 "D level: beginners welcome, all general rules apply."]),
]  # fmt: skip


class LeagueRulesState(AuthState):
    back: rx.Field[str] = rx.field("")
    league_name: rx.Field[str] = rx.field("")
    league_rules: rx.Field[list[str]] = rx.field(default_factory=list)  # this league's roster and sub rules

    async def load(self):
        league_id = path_arg(self, "league_id")
        self.back = routes.league_path(league_id)
        found, _failure = await run_action(leagues.league_rules, actor=await self._actor(), league_id=league_id)
        self.league_name, self.league_rules = (found["name"], found["rules"]) if found else ("", [])


def _rule_list(rules: list[str]) -> rx.Component:
    return rx.unordered_list(*[rx.list_item(r) for r in rules])


@page(routes.LEAGUE_RULES, "League Rules", on_load=LeagueRulesState.load)
def rules_page() -> rx.Component:
    return dash_screen(
        "League Rules",
        card_for(
            LeagueRulesState.league_rules.length() > 0,
            "This League: " + LeagueRulesState.league_name,
            rx.unordered_list(rx.foreach(LeagueRulesState.league_rules, rx.list_item)),
        ),
        section_card("General Rules", _rule_list(GENERAL_RULES)),
        rx.accordion.root(
            *[rx.accordion.item(header=title, content=_rule_list(rules), value=title) for title, rules in FORMAT_RULES],
            type="multiple",
            collapsible=True,
            width="100%",
            variant="outline",
        ),
        link_button("Back to League", href=LeagueRulesState.back, variant="soft"),
    )
