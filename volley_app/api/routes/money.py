"""Money: one payment of a league with what it gave back, refunding it or giving credit, a league's totals, cash, a
player's credit, and the shares of a team's fee (read by the team, paid by each player's signed link)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Header
from pydantic import ConfigDict, Field

from volley_app.api.routes import common
from volley_app.services.core.actors import Actor
from volley_app.services.money import credits, refunds
from volley_app.services.teams import rosters, shares

router = APIRouter(prefix=common.PREFIX, tags=["money"])


class GiveBack(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("reason"))

    amount: common.Received = Field(None, examples=["20.00"],
                             description="Dollars to give back; left out, all that is left of the payment",
                             json_schema_extra={"type": "string", "pattern": r"^\$?[0-9]{1,5}(\.[0-9]{1,2})?$"})  # fmt: skip
    reason: common.Received = Field(None, examples=["Left the team before the first game"], json_schema_extra=common.text(300))
    as_credit: common.Received = Field(None, alias="asCredit", examples=[False], json_schema_extra=common.BOOLEAN,
                                description="True: credit for a later registration instead of a refund to the card")  # fmt: skip


@router.get("/payments/{payment_id}", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def get_payment(payment_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """A payment of a league the caller runs (its SVL or an admin): what it brought in and gave back, row by row,
    what is left to give back, and what the league's refund policy proposes now."""
    found = common.call(refunds.payment_screen, actor, payment_id=payment_id)
    return common.with_ids({**found, "history": [common.with_ids(h) for h in found["history"]]})


@router.post("/payments/{payment_id}/refunds", status_code=201, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def give_back(payment_id: str, body: GiveBack, actor: Actor = Depends(common.acting),
              idempotency_key: str | None = Header(None, description="The same key twice is one refund")) -> common.Row:  # fmt: skip
    """Refund a payment of a league the caller runs, in full or in part, or give the payer credit instead: never
    more than is left of it (422). ``status`` made, due (the card service did not answer in time: it is asked again),
    failed (the card service refused it) or credit. The payer is emailed."""
    return common.with_ids(common.call(refunds.give_back, actor, payment_id=payment_id, amount=body.amount, reason=body.reason,
                         as_credit=body.as_credit, key=idempotency_key))  # fmt: skip


@router.get("/leagues/{league_id}/money", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def league_money(league_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """What a league's payments brought in and gave back, summed from the ledger (its SVL or an admin)."""
    return common.with_ids(common.call(refunds.league_money, actor, league_id=league_id))


class Cash(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("amount"))

    amount: common.Received = Field(None, examples=["300"], description="Dollars taken in person",
                             json_schema_extra={"type": "string", "pattern": r"^\$?[0-9]{1,5}(\.[0-9]{1,2})?$"})  # fmt: skip
    note: common.Received = Field(None, examples=["Paid at the first game"], json_schema_extra=common.text(300, optional=True))


@router.post("/teams/{team_id}/cash", status_code=201, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def record_cash(team_id: str, body: Cash, actor: Actor = Depends(common.acting),
                idempotency_key: str | None = Header(None, description="The same key twice records it once")) -> common.Row:  # fmt: skip
    """Record cash the league's SVL (or an admin) took in person from a team: a row of the ledger, audited."""
    return common.with_ids(common.call(credits.record_cash, actor, team_id=team_id, amount=body.amount, note=body.note,
                         key=idempotency_key))  # fmt: skip


@router.get("/me/credit", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def my_credit(actor: Actor = Depends(common.acting)) -> common.Row:
    """The caller's credit left to spend on a registration, and every row that gave or spent it."""
    found = common.call(credits.my_credit, actor)
    return common.with_ids({**found, "rows": [common.with_ids(r) for r in found["rows"]]})


@router.get("/teams/{team_id}/shares", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def team_shares(team_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """Who paid what of a team's shared fee, for its members and the league's SVL or an admin: the captain,
    co-captains and the operator get every member's pay link, a member their own."""
    found = common.call(rosters.team_shares, actor, team_id=team_id)
    return {**found, "rows": [common.with_ids(r) for r in found["rows"]]}


@router.post("/teams/{team_id}/shares/links", openapi_extra=common.access(common.LOGGED_IN), responses={**common.ERRORS})
def send_share_links(team_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """Email each member who owes a share their pay link (the captain, a co-captain, the league's SVL or an admin);
    ``sent`` says how many."""
    return {"sent": common.call(rosters.send_share_links, actor, team_id=team_id)}


@router.get("/shares/{token}", openapi_extra=common.access(common.ANYONE), responses=common.PUBLIC_ERRORS)
def share(token: str) -> common.Row:
    """A player's pay link, no login needed: the team's fee, what is paid, and what this player pays now
    (``paymentId``, the payment to pay; 0 with ``notice`` saying why nothing is to pay)."""
    return common.with_ids(common.call(shares.screen, token=token))


class ShareCard(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("paymentId"))

    payment_id: common.Received = Field(None, alias="paymentId", examples=[12], json_schema_extra=common.IDENTIFIER)
    card_number: common.Received = Field(None, alias="cardNumber", examples=["4242424242424242"],
                                  json_schema_extra=common.text(23, optional=True))
    expiry: common.Received = Field(None, examples=["12/30"], json_schema_extra=common.text(7, optional=True))
    cvc: common.Received = Field(None, examples=["123"], json_schema_extra=common.text(4, optional=True))


@router.post("/shares/{token}/pay", openapi_extra=common.access(common.ANYONE), responses=common.PUBLIC_ERRORS)
def pay_share(token: str, body: ShareCard) -> common.Row:
    """Pay the link's share by card (the offline provider; credit that covers it needs no card). A second call for
    the same payment answers what the first did; a share that changed since it was read is refused (422)."""
    return dict(common.call(shares.pay_offline, token=token, payment_id=body.payment_id, card_number=body.card_number,
                            expiry=body.expiry, cvc=body.cvc))  # fmt: skip
