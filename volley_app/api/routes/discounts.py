"""Discount codes: an SVL's codes for their leagues, sessions and venue (an admin: any venue's), and a player's code
and credit at checkout."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from pydantic import ConfigDict, Field
from pydantic.json_schema import JsonDict

from volley_app.api.routes import common
from volley_app.services.core.actors import Actor
from volley_app.services.money import discounts
from volley_app.services.teams import registration

router = APIRouter(prefix=common.PREFIX, tags=["discounts"])

_AMOUNT: JsonDict = {"type": "string", "pattern": r"^\$?[0-9]{1,5}(\.[0-9]{1,2})?$"}


class Terms(common.Body):
    percent: common.Received = Field(None, examples=[10], description="1 to 100; or give amount instead",
                              json_schema_extra={"type": "integer", "minimum": 1, "maximum": 100})  # fmt: skip
    amount: common.Received = Field(None, examples=["20.00"], description="Dollars off; or give percent instead",
                             json_schema_extra=_AMOUNT)  # fmt: skip
    max_uses: common.Received = Field(None, alias="maxUses", examples=[50], description="Left out: no limit",
                               json_schema_extra={"type": "integer", "minimum": 1, "maximum": 100000})  # fmt: skip
    per_player: common.Received = Field(1, alias="perPlayer", examples=[1], description="Uses by one player; null: no limit",
                                 json_schema_extra={"type": ["integer", "null"], "minimum": 1, "maximum": 1000})  # fmt: skip
    expires: common.Received = Field(None, description="The venue's wall-clock time; left out: never",
                              json_schema_extra=common.local_time())  # fmt: skip


class NewCode(Terms):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("code", "scope"))

    code: common.Received = Field(None, examples=["FALL10"],
                           json_schema_extra={"type": "string", "pattern": r"^[A-Za-z0-9_-]{3,40}$"})  # fmt: skip
    scope: common.Received = Field(None, examples=["league"], json_schema_extra=common.one_of(discounts.SCOPE_CHOICES))
    scope_id: common.Received = Field(None, alias="scopeId", examples=[3], json_schema_extra=common.IDENTIFIER,
                               description="The league or session; for a venue, an admin names the SVL")  # fmt: skip


class CodeEdit(Terms):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("active"))

    active: common.Received = Field(True, examples=[True], json_schema_extra=common.BOOLEAN, description="False: deactivated")


class CodeAtCheckout(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("code"))

    code: common.Received = Field(None, examples=["FALL10"], description="Empty: no code",
                           json_schema_extra={"type": "string", "maxLength": 40})  # fmt: skip


@router.get("/discount-codes", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def list_codes(request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """Discount codes, newest first: an SVL's own, every venue's for an admin; ``search`` (part of a code), ``page``
    (the bookmark of X-Next-Page / X-Previous-Page) and ``size``; the total in X-Total-Count."""
    p = common.list_params(request)
    found = common.call(discounts.codes_page, actor, filters={"q": p["search"]}, bookmark=p["bookmark"], size=p["size"])
    return common.paged(response, found)


@router.get("/discount-codes/{code_id}", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def get_code(code_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """One code of the caller's venue (an admin: any)."""
    return common.with_ids(common.call(discounts.code_screen, actor, code_id=code_id))


@router.post("/discount-codes", status_code=201, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def create_code(body: NewCode, actor: Actor = Depends(common.acting)) -> common.Row:
    """Make a code for a league, a session or the venue the caller runs (an admin: any venue's): a percent or an
    amount off, with optional max uses, uses per player (1 unless given) and expiry. Audited."""
    return common.with_ids(common.call(discounts.create_code, actor, code=body.code, scope=body.scope, scope_id=body.scope_id,
                         percent=body.percent, amount=body.amount, max_uses=body.max_uses, per_player=body.per_player,
                         expires=body.expires))  # fmt: skip


@router.patch("/discount-codes/{code_id}", openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def update_code(code_id: str, body: CodeEdit, actor: Actor = Depends(common.acting)) -> common.Row:
    """Change a code's terms, or deactivate it (``active`` false); its name and what it is for stay. The body is
    the code's terms as they are to be. Audited."""
    return common.with_ids(common.call(discounts.update_code, actor, code_id=code_id, percent=body.percent, amount=body.amount,
                         max_uses=body.max_uses, per_player=body.per_player, expires=body.expires,
                         active=body.active))  # fmt: skip


@router.post("/payments/{payment_id}/discount-code", openapi_extra=common.access(common.PLAYER), responses={**common.ERRORS})
def apply_code(payment_id: str, body: CodeAtCheckout, actor: Actor = Depends(common.acting)) -> common.Row:
    """Take a discount code off one's pending registration (an empty code takes it away): the checkout with its new
    price (``total`` what the card is charged, after the discount and the caller's credit). A code that may not be
    used here is 422 at ``code``, saying why."""
    out = common.call(registration.apply_code, actor, payment_id=payment_id, code=body.code)
    return common.with_ids({"id": out["payment_id"]} | out)


@router.post("/payments/{payment_id}/confirm", openapi_extra=common.access(common.PLAYER), responses={**common.ERRORS})
def confirm(payment_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """Take the place of one's registration whose discount and credit cover the whole price (``free``): no card.
    One with something left to pay by card is 422."""
    out = common.call(registration.confirm_free, actor, payment_id=payment_id)
    return common.with_ids({"id": out["payment_id"]} | out)
