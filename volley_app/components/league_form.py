"""The league form's fields, shared by the new league form and the league home's edit form; a record's form."""

from __future__ import annotations

from collections.abc import Mapping

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.forms import area_field, select_field, text_field
from volley_app.models import Day, LeagueFormat, SkillLevel
from volley_app.services.seasons import leagues as svc
from volley_app.services.seasons import results
from volley_app.state.forms import FormState

SKILLS = [(s.value, s.value) for s in SkillLevel]
FORMATS = [(f.value, svc.FORMAT_LABELS[f]) for f in LeagueFormat]
DAYS = [(d.value, d.value) for d in Day]

LEAGUE_FIELDS = ("court", "start", "number_of_weeks", "time_increment", "skill_level", "format", "day",
                 "gender_requirement", "max_teams", "cost", "cash", "offer_hold_hours", "ranking", "more_courts",
                 "registration_deadline", "sets_to_play", *svc.RULE_FIELDS, "refund_full_until", "refund_until",
                 "refund_fee", "payment_mode", "deposit", "shares_due", "agent_fee")  # fmt: skip
"""What both forms send; the edit form sends ``active`` too."""


def _pair(*fields: rx.Component, columns: str) -> rx.Component:
    return rx.grid(*fields, columns={"initial": "1", "sm": columns}, spacing="3", width="100%")


YES_NO = [("true", "Yes"), ("false", "No")]


def _number(label: str, name: str, state: type[FormState], d: Mapping[str, str] | ObjectVar[dict[str, str]], low: int,
            high: int, hint: str = "") -> rx.Component:  # fmt: skip
    return text_field(label, name, state, type="number", min=low, max=high, required=False,
                      default_value=d.get(name, ""), hint=hint)  # fmt: skip


_GROUP = {"border": "none", "padding": "0", "margin": "0", "display": "flex", "flex_direction": "column",
          "gap": "var(--space-3)", "min_width": "0"}  # fmt: skip
_LEGEND = {"font_weight": "600", "font_size": "var(--font-size-4)", "margin_bottom": "var(--space-1)"}


def refund_fields(state: type[FormState], d: Mapping[str, str] | ObjectVar[dict[str, str]]) -> rx.Component:
    """The league's refund policy: in full until a date, then less a fee until a later one, then none."""
    return rx.el.fieldset(
        rx.el.legend("Refund policy", style=_LEGEND),
        rx.text("Shown at checkout, and proposed when you refund a payment. Blank dates: refunds are your call.",
                size="2", color_scheme="gray"),
        _pair(
            text_field("Full Refund Until (optional)", "refund_full_until", state, type="datetime-local",
                       required=False, default_value=d.get("refund_full_until", "")),
            text_field("Refund Less Fee Until (optional)", "refund_until", state, type="datetime-local",
                       required=False, default_value=d.get("refund_until", "")),
            columns="2",
        ),
        text_field("Refund Fee (dollars)", "refund_fee", state, inputmode="decimal", required=False,
                   default_value=d.get("refund_fee", ""), hint="Kept of a refund asked for between the two dates."),
        style=_GROUP,
    )  # fmt: skip


PAYMENT_MODES = [("captain", "The captain pays the whole fee at registration"),
                 ("shares", "Each player pays a share (the captain pays a deposit)")]


def payment_fields(state: type[FormState], d: Mapping[str, str] | ObjectVar[dict[str, str]]) -> rx.Component:
    """Who pays the team's fee: the captain, or each rostered player a share after the captain's deposit."""
    return rx.el.fieldset(
        rx.el.legend("Team fee", style=_LEGEND),
        select_field("Who Pays", "payment_mode", PAYMENT_MODES, state, default_value=d.get("payment_mode", "captain")),
        _pair(
            text_field("Deposit (dollars)", "deposit", state, inputmode="decimal", required=False,
                       default_value=d.get("deposit", ""), hint="Shared fee: the captain pays this to hold the place."),
            text_field("Shares Due By (optional)", "shares_due", state, type="datetime-local", required=False,
                       default_value=d.get("shares_due", ""), hint="Blank: by the league's start."),
            columns="2",
        ),
        text_field("Free Agent Fee (dollars, optional)", "agent_fee", state, inputmode="decimal", required=False,
                   default_value=d.get("agent_fee", ""),
                   hint="Players register alone for this fee and you place them on teams. Blank: no free agents."),
        style=_GROUP,
    )  # fmt: skip


def rules_fields(state: type[FormState], d: Mapping[str, str] | ObjectVar[dict[str, str]]) -> rx.Component:
    """The league's roster and sub rules, grouped under their own heading; blank is the format's default or no rule."""
    return rx.el.fieldset(
        rx.el.legend("Rosters and subs", style=_LEGEND),
        rx.text("Leave a number blank for the format's default (roster sizes) or no rule.", size="2",
                color_scheme="gray"),
        _pair(
            _number("Roster Minimum (optional)", "roster_min", state, d, 1, svc.MAX_ROSTER),
            _number("Roster Maximum (optional)", "roster_max", state, d, 1, svc.MAX_ROSTER),
            columns="2",
        ),
        _pair(
            _number("Teams per Player", "teams_per_player", state, d, 1, svc.MAX_TEAMS_PER_PLAYER,
                    "How many of the league's teams one player may be on. Blank: one."),
            _number("Women on Court (optional)", "women_on_court", state, d, 0, max(svc.ON_COURT.values()),
                    "At least this many women on court. Blank: no rule."),
            columns="2",
        ),
        select_field("Subs from Other Teams", "subs_from_other_teams", YES_NO, state,
                     default_value=d.get("subs_from_other_teams", "true")),
        _pair(
            _number("Sub Levels Below (optional)", "sub_levels_below", state, d, 0, svc.SUB_LEVELS,
                    "How far under the league's skill a sub may be rated. Blank: any."),
            _number("Sub Levels Above (optional)", "sub_levels_above", state, d, 0, svc.SUB_LEVELS,
                    "How far over the league's skill. Blank: any."),
            columns="2",
        ),
        _number("Playoff Minimum Games (optional)", "playoff_min_games", state, d, 0, svc.MAX_WEEKS,
                "Regular-season games a rostered player needs to play in the playoffs. Blank: no minimum."),
        select_field("Playoff Subs Need Approval", "playoff_subs_approved", [("false", "No"), ("true", "Yes")], state,
                     default_value=d.get("playoff_subs_approved", "false")),
        style=_GROUP,
    )  # fmt: skip


def league_fields(
    state: type[FormState], d: Mapping[str, str] | ObjectVar[dict[str, str]], *, show_cash: rx.Var[bool], show_active: bool
) -> list[rx.Component]:
    """The fields with ``d`` as their defaults (a new league: none); Cash Only when ``show_cash``."""
    return [
        text_field("Court", "court", state, required=True, max_length=100, default_value=d.get("court", "")),
        area_field("More Courts (optional)", "more_courts", state, rows="2", default_value=d.get("more_courts", ""),
                   hint="One court a line, e.g. Court 2. Each week's games fill the courts, then the next time."),
        text_field("Start Date and Time", "start", state, type="datetime-local", required=True,
                   default_value=d.get("start", ""), hint="On the venue's clock (its time zone, in its Edit Info)."),
        text_field("Registration Deadline (optional)", "registration_deadline", state, type="datetime-local",
                   required=False, default_value=d.get("registration_deadline", ""),
                   hint="Registration and the waitlist close then. Blank: at the start."),
        _pair(
            text_field("Number of Weeks", "number_of_weeks", state, type="number", min=1, max=svc.MAX_WEEKS,
                       required=True, default_value=d.get("number_of_weeks", "")),
            text_field("Time Increment (minutes)", "time_increment", state, type="number", min=1, required=True,
                       default_value=d.get("time_increment", "")),
            columns="2",
        ),
        _pair(
            select_field("Skill Level", "skill_level", SKILLS, state, placeholder="Choose",
                         default_value=d.get("skill_level", "")),
            select_field("Format", "format", FORMATS, state, placeholder="Choose", default_value=d.get("format", "")),
            select_field("Day", "day", DAYS, state, placeholder="Choose", default_value=d.get("day", "")),
            columns="3",
        ),
        text_field("Gender Requirement (optional)", "gender_requirement", state, max_length=100,
                   default_value=d.get("gender_requirement", "")),
        _pair(
            text_field("Max Teams", "max_teams", state, type="number", min=2, max=svc.MAX_TEAMS, required=True,
                       default_value=d.get("max_teams", "")),
            text_field("Cost (dollars)", "cost", state, inputmode="decimal", required=True,
                       default_value=d.get("cost", "")),
            columns="2",
        ),
        text_field("Offer Hold (hours)", "offer_hold_hours", state, type="number", min=svc.OFFER_HOURS[0],
                   max=svc.OFFER_HOURS[1], required=True, default_value=d.get("offer_hold_hours", "48"),
                   hint="How long a place offered to a waitlisted team is held for its captain to pay."),
        select_field("Standings Order", "ranking", results.RANKING_CHOICES, state,
                     default_value=d.get("ranking", "standard")),
        select_field("Sets per Match", "sets_to_play", svc.SETS_CHOICES, state, required=False,
                     default_value=d.get("sets_to_play", "")),
        rx.cond(
            show_cash,
            select_field("Cash Only", "cash", [("false", "No"), ("true", "Yes")], state,
                         default_value=d.get("cash", "false")),
            rx.fragment(),
        ),
        select_field("Active", "active", [("true", "True"), ("false", "False")], state,
                     default_value=d.get("active", "true")) if show_active else rx.fragment(),
        rules_fields(state, d),
        payment_fields(state, d),
        refund_fields(state, d),
    ]  # fmt: skip
