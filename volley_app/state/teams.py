"""What the screens of one team (/dash/teams/[team_id]/...) share."""

from __future__ import annotations

import secrets

import reflex as rx

from volley_app.services.money import credits
from volley_app.services.teams import rosters, shares
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg


class TeamScreen(rx.State, mixin=True):
    """A screen of one team: the team its address names, the team's name and its league's, as last read."""

    team_name: rx.Field[str] = rx.field("")
    league_name: rx.Field[str] = rx.field("")

    def _team_id(self) -> str:
        return path_arg(self, "team_id")


FEE_ERROR_ID = "fee-error"
FEE_TEXTS = ("price", "paid", "due", "due_by", "cover_link")


class FeeState(FormState, AuthState):
    _fields = ()
    _error_id = FEE_ERROR_ID

    shared: rx.Field[bool] = rx.field(False)
    notice: rx.Field[str] = rx.field("")
    confirmed: rx.Field[bool] = rx.field(False)
    fee: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    rows: rx.Field[list[shares.ShareRow]] = rx.field(default_factory=list)

    def _show(self, found: shares.TeamShares | None) -> None:
        self.shared = bool(found and found["shared"])
        self.confirmed = bool(found and found["confirmed"])
        self.fee = {k: str(found[k]) for k in FEE_TEXTS} if found else {}  # type: ignore[literal-required]
        self.rows = found["rows"] if found and found["shared"] else []

    @rx.event
    def send_links(self):
        """Email each member who owes a share their own pay link."""
        return self._submit(rosters.send_share_links, done=self._sent, team_id=path_arg(self, "team_id"))

    def _sent(self, sent: int) -> None:
        self.notice = f"Pay links sent to {sent} player{'s' if sent != 1 else ''}." if sent else "Nobody owes a share."


CASH_ERROR_ID = "cash-error"


class CashState(FormState, AuthState):
    """Cash the league's operator took in person from the team: recorded in the ledger (``credits.record_cash``)."""

    _fields = ("amount", "note")
    _error_id = CASH_ERROR_ID

    notice: rx.Field[str] = rx.field("")
    # One key per filled-in form: a second submit of the same form (a double click, a resend) records it once.
    key: rx.Field[str] = rx.field("")

    def _new_form(self) -> None:
        self.key, self.notice = secrets.token_hex(12), ""
        self.form_key += 1

    @rx.event
    def record(self, form_data: dict[str, object]):
        data = form_values(form_data, ("amount", "note", "key"))
        return self._submit(credits.record_cash, done=self._recorded, team_id=path_arg(self, "team_id"),
                            amount=data["amount"], note=data["note"], key=data["key"])  # fmt: skip

    def _recorded(self, out: credits.CashRecorded) -> None:
        self._new_form()
        self.notice = out["message"]
