"""The forms anyone may send (/contact, /host, /promote, /franchise, /newsletter), password recovery,
paying a registration (/payment-intent) and the admin's mail (/newsletterTest, /emailAll)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from volley_app.api.deps import client_ip
from volley_app.api.routes.common import (
    ADMIN,
    ANYONE,
    ERRORS,
    PLAYER,
    PREFIX,
    PUBLIC_ERRORS,
    access,
    acting,
    call,
    list_params,  # fmt: skip
    paged,
    with_ids,
)
from volley_app.services import email_all, inquiries, newsletter, recovery, registration
from volley_app.services.permissions import Actor

router = APIRouter(prefix=PREFIX, tags=["forms, recovery, payments, mail"])


class Sent(BaseModel):
    id: int | None = None
    status: str = "Success"


def _inquiry(kind: str, data: dict, request: Request) -> JSONResponse:
    new_id = call(inquiries.submit, kind=kind, data=data, client=client_ip(request))
    return JSONResponse({"id": new_id, "_id": new_id, "status": "Success"}, status_code=201)


class Contact(BaseModel):
    name: Any = Field("", examples=["Pat Doe"])
    email: Any = Field("", examples=["pat@example.com"])
    body: Any = Field("", examples=["Do you have a league on Thursdays?"])


class Host(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    svl_name: Any = Field("", validation_alias=AliasChoices("sVLName", "svlName", "svl_name"), examples=["Downtown Gym"])
    email: Any = Field("", examples=["gym@example.com"])
    phone: Any = Field("", examples=["859-555-0100"])
    address: Any = Field("", examples=["1 Main St"])
    city: Any = Field("", examples=["Lexington"])
    region: Any = Field("", examples=["KY"])
    zip: Any = Field("", examples=["40507"])


class Promote(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    why: Any = Field("", examples=["We sell knee pads"])
    company_name: Any = Field("", alias="companyName", examples=["Pads Inc"])
    phone: Any = Field("", examples=["859-555-0100"])
    email: Any = Field("", examples=["pads@example.com"])


class Franchise(BaseModel):
    phone: Any = Field("", examples=["859-555-0100"])
    city: Any = Field("", examples=["Louisville"])
    region: Any = Field("", examples=["KY"])
    message: Any = Field("", examples=["I would like to run leagues here"])
    name: Any = Field("", examples=["Sam Doe"])
    email: Any = Field("", examples=["sam@example.com"])


INQUIRY = {201: {"description": "Kept, and the provider emailed", "model": Sent}, 422: ERRORS[422], 429: ERRORS[429]}


@router.post("/contact", status_code=201, openapi_extra=access(ANYONE), responses=INQUIRY)
def contact(body: Contact, request: Request):
    return _inquiry("contact", body.model_dump(), request)


@router.post("/host", status_code=201, openapi_extra=access(ANYONE), responses=INQUIRY)
def host(body: Host, request: Request):
    return _inquiry("host", body.model_dump(), request)


@router.post("/promote", status_code=201, openapi_extra=access(ANYONE), responses=INQUIRY)
def promote(body: Promote, request: Request):
    return _inquiry("promote", body.model_dump(), request)


@router.post("/franchise", status_code=201, openapi_extra=access(ANYONE), responses=INQUIRY)
def franchise(body: Franchise, request: Request):
    return _inquiry("franchise", body.model_dump(), request)


# --- newsletter ------------------------------------------------------------------------------------------


class Subscription(BaseModel):
    email: Any = Field("", examples=["fan@example.com"])
    referral: Any = Field("", examples=["A friend"])


class Deletion(BaseModel):
    id: Any = Field(None, validation_alias=AliasChoices("id", "_id"), examples=[4])


@router.get("/newsletter", openapi_extra=access(ADMIN), responses={401: ERRORS[401], 403: ERRORS[403]})
def subscribers(request: Request, response: Response, actor: Actor = Depends(acting)) -> list[dict]:
    """The subscribers, newest first, a page at a time (admins); total in X-Total-Count."""
    p = list_params(request)
    found = call(newsletter.subscribers_page, actor, filters={"q": p["search"]}, bookmark=p["bookmark"], size=p["size"])
    return paged(response, found)


@router.post("/newsletter", status_code=201, openapi_extra=access(ANYONE), responses=PUBLIC_ERRORS)
def subscribe(body: Subscription, request: Request) -> dict:
    """Sign up for the newsletter (again with the same address changes nothing)."""
    row = call(newsletter.subscribe, email=body.email, referral=body.referral, client=client_ip(request))
    return {"id": row.id, "_id": row.id, "email": row.email, "referral": row.referral or ""}


@router.delete("/newsletter", openapi_extra=access(ADMIN), responses={**ERRORS})
def unsubscribe(body: Deletion, actor: Actor = Depends(acting)) -> dict:
    call(newsletter.delete_subscriber, actor, subscriber_id=body.id)
    return {"id": body.id, "_id": body.id}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


class Issue(BaseModel):
    """An issue's fields: ``<section>_link`` and ``<section>_blurb`` (or camelCase) for every section."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "email": "fan@example.com", **{f: ("https://example.com" if f.endswith("link") else "News")
                                      for f in newsletter.ISSUE_FIELDS}}]})  # fmt: skip

    email: Any = Field(None, description="One subscriber: the issue goes to that address only; none: every subscriber")


@router.post("/newsletterTest", openapi_extra=access(ADMIN), responses={**ERRORS})
def send_newsletter(body: Issue, actor: Actor = Depends(acting)) -> dict:
    """Send an issue (admins), through the outbox: to the subscriber ``email`` (the spec's client calls once per
    subscriber), or without ``email`` to every subscriber. The server composes each message."""
    data = {_snake(k): v for k, v in (body.model_extra or {}).items()}
    if body.email not in (None, ""):
        sub = call(newsletter.send_to_subscriber, actor, email=body.email, data=data)
        return {"status": "Success", "sent": 1, "id": sub.id, "_id": sub.id}
    issue, sent = call(newsletter.send_issue, actor, data=data)
    return {"status": "Success", "sent": sent, "id": issue.id, "_id": issue.id}


# --- the admin's email to every user ------------------------------------------------------------------------


class EmailAll(BaseModel):
    subject: Any = Field("", examples=["Courts closed Monday"])
    body: Any = Field("", examples=["The gym is closed for repairs."])
    email: Any = Field(None, description="Ignored: the message goes to every active user")
    repeat_of: Any = Field(None, validation_alias=AliasChoices("repeatOf", "repeat_of"), examples=[None],
                           description="Within an hour of another send: that send's id, confirming a repeat")  # fmt: skip


@router.post("/emailAll", status_code=201, openapi_extra=access(ADMIN), responses={**ERRORS})
def email_everyone(body: EmailAll, actor: Actor = Depends(acting)) -> dict:
    """Queue one message to every active user (admins), through the outbox; the answer counts them."""
    job = call(email_all.send, actor, subject=body.subject, body=body.body, repeat_of=body.repeat_of)
    return {"status": "Success", "id": job.id, "_id": job.id, "queued": job.queued}


# --- password recovery ------------------------------------------------------------------------------------


class RecoveryEmail(BaseModel):
    recipient_email: Any = Field("", validation_alias=AliasChoices("recipient_email", "recipientEmail", "email"),
                                 examples=["pat@example.com"])  # fmt: skip


class NewPassword(BaseModel):
    password: Any = Field("", examples=["new-pass-1"])


@router.post("/send_recovery_email", openapi_extra=access(ANYONE),
             responses={404: {"description": "Email Not Found", "content": {"application/json": {
                 "example": {"status": "Not Found", "message": "A password reset could not be sent."}}}},
                 422: ERRORS[422], 429: ERRORS[429]})  # fmt: skip
def send_recovery_email(body: RecoveryEmail, request: Request):
    """Email a password reset link to the account with this address (status Success), or 404 when none has it."""
    found = call(recovery.request_reset, email=body.recipient_email, client=client_ip(request))
    if not found.found:
        return JSONResponse({"status": "Not Found", "message": "A password reset could not be sent."}, status_code=404)
    return {"status": "Success"}


@router.post("/resetPassword/{user_id}/{token}", openapi_extra=access(ANYONE), responses=PUBLIC_ERRORS)
def reset_password(user_id: str, token: str, body: NewPassword) -> dict:
    """Set a new password through the emailed link (once); every login of the account ends."""
    call(recovery.reset_password, user_id=user_id, token=token, password=body.password)
    return {"status": "Success"}


# --- paying a registration -----------------------------------------------------------------------------------


class PaymentIntent(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    payment_id: Any = Field(None, validation_alias=AliasChoices("paymentId", "payment_id", "id"), examples=[12],
                            description="The registration (POST /teams answers it)")  # fmt: skip
    amount: Any = Field(None, examples=[12000], description="Cents; refused when it differs from the league's price")
    currency: Any = Field(None, examples=["usd"])
    svl: Any = Field(None, description="Ignored: a label only")


class Card(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    card_number: Any = Field("", alias="cardNumber", examples=["4242424242424242"])
    expiry: Any = Field("", examples=["12/30"])
    cvc: Any = Field("", examples=["123"])


@router.post("/payment-intent", openapi_extra=access(PLAYER), responses={**ERRORS})
def payment_intent(body: PaymentIntent, actor: Actor = Depends(acting)) -> dict:
    """Start paying one's pending registration: the amount is the server's (from the league). With Stripe
    ``clientSecret`` confirms the card; with the offline provider pay at /payments/{id}/card."""
    out = call(registration.payment_intent, actor, payment_id=body.payment_id, amount=body.amount,
               currency=body.currency)  # fmt: skip
    return with_ids({"id": out["payment_id"]} | out)


@router.post("/payments/{payment_id}/card", openapi_extra=access(PLAYER), responses={**ERRORS})
def pay_by_card(payment_id: str, body: Card, actor: Actor = Depends(acting)) -> dict:
    """Pay a pending registration by card with the offline provider (no Stripe keys configured)."""
    out = call(registration.pay_offline, actor, payment_id=payment_id, card_number=body.card_number,
               expiry=body.expiry, cvc=body.cvc)  # fmt: skip
    return with_ids({"id": out["payment_id"]} | out)
