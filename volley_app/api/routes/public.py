"""The forms anyone may send (/contact, /host, /promote, /franchise, /newsletter), password recovery,
paying a registration (/payment-intent) and the admin's mail (/newsletterTest, /emailAll)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, WithJsonSchema
from pydantic.json_schema import JsonDict
from typing_extensions import TypedDict

from volley_app.api.deps import client_ip
from volley_app.api.routes import common
from volley_app.models import REGIONS
from volley_app.services.accounts import recovery
from volley_app.services.core.actors import Actor
from volley_app.services.mail import email_all, inquiries, newsletter
from volley_app.services.teams import registration

router = APIRouter(prefix=common.PREFIX, tags=["forms, recovery, payments, mail"])


class Sent(BaseModel):
    id: int | None = None
    status: str = "Success"


def _inquiry(kind: str, data: dict, request: Request) -> JSONResponse:
    trap = data.pop(TRAP_FIELD, "")
    new_id = common.call(inquiries.submit, kind=kind, data=data, client=client_ip(request), trap=trap)
    return JSONResponse({"id": new_id, "_id": new_id, "status": "Success"}, status_code=201)


# The bot trap, as on the pages' public forms: a field people never fill; bots fill every field they find.
TRAP_FIELD = "website"


class Trapped(common.Body):
    website: common.Received = Field("", description="Ignored unless it is text: leave it empty. Filled with text, the form is "
                                         "answered like a success and dropped.")  # fmt: skip


PHONE: JsonDict = {"type": "string", "pattern": r"^[2-9][0-9]{2}-[0-9]{3}-[0-9]{4}$", "examples": ["859-555-0100"],
         "description": "A 10-digit US number (other punctuation is read too)"}  # fmt: skip
MESSAGE = common.text(5000, message=True)


REGION = common.one_of(sorted(REGIONS), description="A US state's code (or DC)")


class Contact(Trapped):
    model_config = ConfigDict(json_schema_extra=common.required("name", "email", "body"))

    name: common.Received = Field("", examples=["Pat Doe"], json_schema_extra=common.text(100))
    email: common.Received = Field("", examples=["pat@example.com"], json_schema_extra=common.EMAIL)
    body: common.Received = Field("", examples=["Do you have a league on Thursdays?"], json_schema_extra=MESSAGE)


class Host(Trapped):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required(
        "sVLName", "email", "phone", "address", "city", "region", "zip"))  # fmt: skip

    svl_name: common.Received = Field("", validation_alias=AliasChoices("sVLName", "svlName", "svl_name"), examples=["Downtown Gym"],
                              json_schema_extra=common.text(200))  # fmt: skip
    email: common.Received = Field("", examples=["gym@example.com"], json_schema_extra=common.EMAIL)
    phone: common.Received = Field("", json_schema_extra=PHONE)
    address: common.Received = Field("", examples=["1 Main St"], json_schema_extra=common.text(200))
    city: common.Received = Field("", examples=["Lexington"], json_schema_extra=common.text(100))
    region: common.Received = Field("", examples=["KY"], json_schema_extra=REGION)
    zip: common.Received = Field("", examples=["40507"], json_schema_extra={"type": "string", "pattern": r"^[0-9]{5}(-[0-9]{4})?$"})


class Promote(Trapped):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("why", "companyName", "phone",
                                                                                "email"))  # fmt: skip

    why: common.Received = Field("", examples=["We sell knee pads"], json_schema_extra=MESSAGE)
    company_name: common.Received = Field("", alias="companyName", examples=["Pads Inc"], json_schema_extra=common.text(200))
    phone: common.Received = Field("", json_schema_extra=PHONE)
    email: common.Received = Field("", examples=["pads@example.com"], json_schema_extra=common.EMAIL)


class Franchise(Trapped):
    model_config = ConfigDict(json_schema_extra=common.required("phone", "city", "region", "message", "name", "email"))

    phone: common.Received = Field("", json_schema_extra=PHONE)
    city: common.Received = Field("", examples=["Louisville"], json_schema_extra=common.text(100))
    region: common.Received = Field("", examples=["KY"], json_schema_extra=REGION)
    message: common.Received = Field("", examples=["I would like to run leagues here"], json_schema_extra=MESSAGE)
    name: common.Received = Field("", examples=["Sam Doe"], json_schema_extra=common.text(100))
    email: common.Received = Field("", examples=["sam@example.com"], json_schema_extra=common.EMAIL)


class Subscribed(TypedDict):
    id: int | None
    _id: int | None
    email: common.Received
    referral: str


class IssueSent(TypedDict):
    status: Literal["Success"]
    sent: int
    id: int | None
    _id: int | None


class Queued(TypedDict):
    status: Literal["Success"]
    id: int | None
    _id: int | None
    queued: int


class Done(TypedDict):
    status: Literal["Success"]


INQUIRY: dict[int | str, dict[str, Any]] = {201: {"description": "Kept, and the provider emailed", "model": Sent},
                                             422: common.ERRORS[422], 429: common.ERRORS[429]}  # fmt: skip


def _inquiry_route(kind: str, model: type[Trapped]) -> None:
    """POST /{kind}: the inquiry form ``kind``, its body checked as ``model``."""

    def receive(body: Trapped, request: Request) -> JSONResponse:
        return _inquiry(kind, body.model_dump(), request)

    receive.__annotations__["body"] = model  # the form's own fields, in the API document and checked on the way in
    router.add_api_route(f"/{kind}", receive, methods=["POST"], name=kind, status_code=201,
                         openapi_extra=common.access(common.ANYONE), responses=INQUIRY)  # fmt: skip


for _kind, _model in (("contact", Contact), ("host", Host), ("promote", Promote), ("franchise", Franchise)):
    _inquiry_route(_kind, _model)


# --- newsletter ------------------------------------------------------------------------------------------


Referral = Annotated[str | None, WithJsonSchema({}), common.only(str | None, "referral", "Referral must be text")]


class Subscription(Trapped):
    model_config = ConfigDict(json_schema_extra=common.required("email"))

    email: common.Received = Field("", examples=["fan@example.com"], json_schema_extra=common.EMAIL)
    referral: Referral = Field("", examples=["A friend"],
                               json_schema_extra={"anyOf": [common.text(200, optional=True), {"type": "null"}]})  # fmt: skip


@router.get("/newsletter", openapi_extra=common.access(common.ADMIN), responses={401: common.ERRORS[401], 403: common.ERRORS[403]})
def subscribers(request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """The subscribers, newest first, a page at a time (admins); total in X-Total-Count."""
    p = common.list_params(request)
    found = common.call(newsletter.subscribers_page, actor, filters={"q": p["search"]}, bookmark=p["bookmark"], size=p["size"])
    return common.paged(response, found)


@router.post("/newsletter", status_code=201, openapi_extra=common.access(common.ANYONE), responses=common.PUBLIC_ERRORS)
def subscribe(body: Subscription, request: Request) -> Subscribed:
    """Sign up for the newsletter (again with the same address changes nothing)."""
    row = common.call(newsletter.subscribe, email=body.email, referral=body.referral, client=client_ip(request),
               trap=body.website)  # fmt: skip
    if row is None:  # the bot trap: answered like a success, nothing kept
        return {"id": None, "_id": None, "email": body.email, "referral": body.referral or ""}
    return {"id": row.id, "_id": row.id, "email": row.email, "referral": row.referral or ""}


@router.delete("/newsletter", openapi_extra=common.access(common.ADMIN), responses={**common.ERRORS})
def unsubscribe(body: common.Deletion, actor: Actor = Depends(common.acting)) -> common.Removed:
    common.call(newsletter.delete_subscriber, actor, subscriber_id=body.id)
    return common.removed(body.id)


SPEC_SECTION_NAMES = {"svl_news1": "sVLNews1", "svl_news2": "sVLNews2", "vs1": "vS1", "vs2": "vS2"}


def _spec_name(field: str) -> str:
    """An issue field as the spec writes it: ``sVLNews1Link``, ``vS2Blurb``, ``headline1Link``."""
    section, part = field.rsplit("_", 1)
    return SPEC_SECTION_NAMES.get(section, section) + part.capitalize()


def _key(name: str) -> str:
    return name.replace("_", "").lower()


ISSUE_KEYS = {_key(f): f for f in newsletter.ISSUE_FIELDS}


def _issue_schema(schema: dict) -> None:
    """The sections by the spec's names: every blurb required, every link empty or an http(s) address."""
    for f in newsletter.ISSUE_FIELDS:
        if f.endswith("link"):
            schema["properties"][_spec_name(f)] = {"type": "string", "maxLength": 500, "pattern": r"^(https?://[!-~]+)?$",
                                                   "description": "An http(s) address, or empty"}  # fmt: skip
        else:
            schema["properties"][_spec_name(f)] = common.text(2000, message=True, description="Required")
    schema["required"] = [_spec_name(f) for f in newsletter.ISSUE_FIELDS if f.endswith("blurb")]
    schema["examples"] = [{"email": "fan@example.com", **{
        _spec_name(f): ("https://example.com" if f.endswith("link") else "News") for f in newsletter.ISSUE_FIELDS}}]


class Issue(common.Body):
    """An issue: a link and a blurb for every section, by the spec's names (``sVLNews1Link``, ``vS1Blurb``...);
    the same names in any case, or with underscores (``svl_news1_link``), are read too."""

    model_config = ConfigDict(extra="allow", json_schema_extra=lambda schema: _issue_schema(schema))

    ERROR_NAMES: ClassVar[dict[str, str]] = {f: _spec_name(f) for f in newsletter.ISSUE_FIELDS}

    email: common.Received = Field(None, description="One subscriber: the issue goes to that address only; none: every subscriber",
                       json_schema_extra=common.EMAIL)  # fmt: skip

    def fields(self) -> dict[str, object]:
        """The issue's fields by the service's names, whatever names the body used."""
        data: dict[str, object] = {}
        for name, value in (self.model_extra or {}).items():
            field = ISSUE_KEYS.get(_key(name))
            if field is not None and field not in data:
                data[field] = value
        return data


@router.post("/newsletterTest", openapi_extra=common.access(common.ADMIN), responses={**common.ERRORS})
def send_newsletter(body: Issue, actor: Actor = Depends(common.acting)) -> IssueSent:
    """Send an issue (admins), through the outbox: to the subscriber ``email`` (the spec's client calls once per
    subscriber), or without ``email`` to every subscriber. The server composes each message."""
    data = body.fields()
    if body.email not in (None, ""):
        sub = common.call(newsletter.send_to_subscriber, actor, email=body.email, data=data)
        return {"status": "Success", "sent": 1, "id": sub.id, "_id": sub.id}
    issue, sent = common.call(newsletter.send_issue, actor, data=data)
    return {"status": "Success", "sent": sent, "id": issue.id, "_id": issue.id}


# --- the admin's email to every user ------------------------------------------------------------------------


class EmailAll(common.Body):
    model_config = ConfigDict(json_schema_extra=common.required("subject", "body"))

    subject: common.Received = Field("", examples=["Courts closed Monday"], json_schema_extra=common.text(200))
    body: common.Received = Field("", examples=["The gym is closed for repairs."], json_schema_extra=MESSAGE)
    email: common.Received = Field(None, description="Ignored: the message goes to every active user")
    repeat_of: common.Received = Field(None, validation_alias=AliasChoices("repeatOf", "repeat_of"), examples=[None],
                           description="Within an hour of another send: that send's id, confirming a repeat",
                           json_schema_extra={"anyOf": [common.IDENTIFIER, {"type": "null"}]})  # fmt: skip


@router.post("/emailAll", status_code=201, openapi_extra=common.access(common.ADMIN), responses={**common.ERRORS})
def email_everyone(body: EmailAll, actor: Actor = Depends(common.acting)) -> Queued:
    """Queue one message to every active user (admins), through the outbox; the answer counts them."""
    job = common.call(email_all.send, actor, subject=body.subject, body=body.body, repeat_of=body.repeat_of)
    return {"status": "Success", "id": job.id, "_id": job.id, "queued": job.queued}


# --- password recovery ------------------------------------------------------------------------------------


class RecoveryEmail(common.Body):
    model_config = ConfigDict(json_schema_extra=common.required("recipient_email"))

    recipient_email: common.Received = Field("", validation_alias=AliasChoices("recipient_email", "recipientEmail", "email"),
                                 examples=["pat@example.com"], json_schema_extra=common.EMAIL)  # fmt: skip


class NewPassword(common.Body):
    model_config = ConfigDict(json_schema_extra=common.required("password"))

    password: common.Received = Field("", examples=["newpass1"], json_schema_extra=common.PASSWORD)


@router.post("/send_recovery_email", openapi_extra=common.access(common.ANYONE),
             responses={404: {"description": "Email Not Found", "content": {"application/json": {
                 "example": {"status": "Not Found", "message": "A password reset could not be sent."}}}},
                 422: common.ERRORS[422], 429: common.ERRORS[429]})  # fmt: skip
def send_recovery_email(body: RecoveryEmail, request: Request) -> JSONResponse:
    """Email a password reset link to the account with this address (status Success), or 404 when none has it."""
    found = common.call(recovery.request_reset, email=body.recipient_email, client=client_ip(request))
    if not found.found:
        return JSONResponse({"status": "Not Found", "message": "A password reset could not be sent."}, status_code=404)
    return JSONResponse({"status": "Success"})


@router.post("/resetPassword/{user_id}/{token}", openapi_extra=common.access(common.ANYONE), responses=common.PUBLIC_ERRORS)
def reset_password(user_id: str, token: str, body: NewPassword) -> Done:
    """Set a new password through the emailed link (once); every login of the account ends."""
    common.call(recovery.reset_password, user_id=user_id, token=token, password=body.password)
    return {"status": "Success"}


# --- paying a registration -----------------------------------------------------------------------------------


class PaymentIntent(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("paymentId"))

    payment_id: common.Received = Field(None, validation_alias=AliasChoices("paymentId", "payment_id", "id"), examples=[12],
                            description="The registration (POST /teams answers it)", json_schema_extra=common.IDENTIFIER)  # fmt: skip
    amount: common.Received = Field(None, examples=[12000], description="Cents; refused when it differs from the league's price",
                        json_schema_extra={"type": "integer", "minimum": 0})  # fmt: skip
    currency: common.Received = Field(None, examples=["usd"], json_schema_extra={"type": "string", "enum": ["usd"]})
    svl: common.Received = Field(None, description="Ignored: a label only")


class Card(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("cardNumber", "expiry", "cvc"))

    card_number: common.Received = Field("", alias="cardNumber", examples=["4242424242424242"],
                             json_schema_extra={"type": "string", "pattern": r"^[0-9]{13,19}$"})  # fmt: skip
    expiry: common.Received = Field("", examples=["12/30"], json_schema_extra={"type": "string", "pattern": r"^(0[1-9]|1[0-2])/[0-9]{2}$"})
    cvc: common.Received = Field("", examples=["123"], json_schema_extra={"type": "string", "pattern": r"^[0-9]{3,4}$"})


@router.post("/payment-intent", openapi_extra=common.access(common.PLAYER), responses={**common.ERRORS, 503: common.CARD_SERVICE_SLOW})
def payment_intent(body: PaymentIntent, actor: Actor = Depends(common.acting)) -> common.Row:
    """Start paying one's pending registration: the amount is the server's (from the league). With Stripe
    ``clientSecret`` confirms the card; with the offline provider pay at /payments/{id}/card."""
    out = common.call(registration.payment_intent, actor, payment_id=body.payment_id, amount=body.amount,
               currency=body.currency)  # fmt: skip
    return common.with_ids({"id": out["payment_id"]} | out)


@router.post("/payments/{payment_id}/card", openapi_extra=common.access(common.PLAYER), responses={**common.ERRORS})
def pay_by_card(payment_id: str, body: Card, actor: Actor = Depends(common.acting)) -> common.Row:
    """Pay a pending registration by card with the offline provider (no Stripe keys configured)."""
    out = common.call(registration.pay_offline, actor, payment_id=payment_id, card_number=body.card_number,
               expiry=body.expiry, cvc=body.cvc)  # fmt: skip
    return common.with_ids({"id": out["payment_id"]} | out)
