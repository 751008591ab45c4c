"""Card payment providers behind one small interface.

* :class:`OfflineProvider`: the embedded default when no Stripe keys are set. No network: it
  checks the card like a card form would (Luhn, expiry, CVC) and answers like Stripe's test
  cards (4000 0000 0000 0002 declined, 4000 0000 0000 9995 insufficient funds, any other valid
  number succeeds).
* :class:`StripeProvider`: PaymentIntents created and retrieved on the server with the stripe SDK
  (``settings.stripe_api_base`` points it at another host, e.g. a local stand-in in tests), and
  webhook events verified on the raw body. Each call waits at most :data:`PROVIDER_TIMEOUT_SECONDS`
  and is not retried by the SDK: one that gets no answer in time raises :class:`ProviderUnavailable`.
  Callers hold no database lock or transaction while they wait (``services.teams.registration``,
  ``services.teams.league_places``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import re

import stripe
from sqlmodel import Session

from volley_app.models import Payment, utcnow
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import BadRequest, DomainError, Forbidden, Invalid
from volley_app.settings import Settings, get_settings

log = logging.getLogger(__name__)

DECLINED = "declined"
INSUFFICIENT_FUNDS = "insufficient_funds"
DECLINE_CARDS = {"4000000000000002": DECLINED, "4000000000009995": INSUFFICIENT_FUNDS}

# How long a call to the card provider may take (connecting, then each wait for its answer); no retry follows.
PROVIDER_TIMEOUT_SECONDS = 10.0
PROVIDER_SLOW = "The card service did not answer in time. Nothing was charged: please try again in a moment."
REFUND_SLOW = "The card service did not answer in time: the refund is still due and will be asked for again."


class ProviderUnavailable(DomainError):
    """The card provider did not answer in time (or could not be reached): nothing it was asked has been settled."""

    status_code = 503
    default_message = PROVIDER_SLOW


class RefundRefused(DomainError):
    """The card provider refused a refund (e.g. the payment was refunded in its own dashboard meanwhile)."""

    status_code = 409
    default_message = "The card service refused the refund"


@dataclasses.dataclass(frozen=True)
class ChargeResult:
    ok: bool
    provider_payment_id: str | None = None
    reason: str = ""


@dataclasses.dataclass(frozen=True)
class Intent:
    """What the server needs from a provider's payment to verify it."""

    id: str
    status: str
    amount: int
    currency: str
    metadata: dict[str, str]
    client_secret: str = ""


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 1:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return total % 10 == 0


def check_card(card_number: object, expiry: object, cvc: object, now: dt.datetime | None = None) -> str:
    """The card number's digits when number, expiry (MM/YY, not past) and CVC (3-4 digits) look right."""
    errors: dict[str, str] = {}
    number = re.sub(r"[\s-]", "", card_number) if isinstance(card_number, str) else ""
    if not number:
        errors["card_number"] = "Card number is required"
    elif not (number.isdigit() and 12 <= len(number) <= 19 and luhn_ok(number)):
        errors["card_number"] = "Card number is not valid"
    exp = expiry.strip().replace(" ", "") if isinstance(expiry, str) else ""
    m = re.fullmatch(r"(\d{1,2})/(\d{2}|\d{4})", exp)
    if not exp:
        errors["expiry"] = "Expiry is required"
    elif not m or not 1 <= int(m.group(1)) <= 12:
        errors["expiry"] = "Expiry must be MM/YY"
    else:
        month, year = int(m.group(1)), int(m.group(2))
        year = year + 2000 if year < 100 else year
        now = now or utcnow()
        if (year, month) < (now.year, now.month):
            errors["expiry"] = "This card has expired"
    code = cvc.strip() if isinstance(cvc, str) else ""
    if not code:
        errors["cvc"] = "CVC is required"
    elif not re.fullmatch(r"\d{3,4}", code):
        errors["cvc"] = "CVC must be 3 or 4 digits"
    if errors:
        raise Invalid(errors)
    return number


class OfflineProvider:
    """Charges nothing anywhere: a stand-in that behaves like Stripe's test cards."""

    name = "offline"

    def charge(
        self, *, amount_cents: int, idempotency_key: str, card_number: object, expiry: object, cvc: object
    ) -> ChargeResult:
        number = check_card(card_number, expiry, cvc)
        if amount_cents <= 0:
            return ChargeResult(ok=False, reason="error")
        reason = DECLINE_CARDS.get(number)
        if reason:
            return ChargeResult(ok=False, reason=reason)
        return ChargeResult(ok=True, provider_payment_id=f"offline_{idempotency_key}")


    def refund(self, provider_payment_id: str, *, amount_cents: int, idempotency_key: str,
               refund_id: int | None = None) -> str:  # fmt: skip
        """Nothing was charged anywhere: the refund is as notional as the charge."""
        return f"offline_refund_{idempotency_key}"


class StripeProvider:
    """PaymentIntents through the stripe SDK; the secret key never leaves the server."""

    name = "stripe"

    def __init__(self, settings: Settings):
        api_base = settings.stripe_api_base
        self.client = stripe.StripeClient(
            settings.stripe_secret_key or "",
            base_addresses={"api": api_base.rstrip("/")} if api_base else None,
            max_network_retries=0,
            http_client=stripe.RequestsClient(timeout=PROVIDER_TIMEOUT_SECONDS),
        )  # fmt: skip

    @staticmethod
    def _intent(pi) -> Intent:
        if hasattr(pi, "to_dict"):
            pi = pi.to_dict()
        meta = pi.get("metadata") or {}
        return Intent(
            id=str(pi.get("id") or ""),
            status=str(pi.get("status") or ""),
            amount=int(pi.get("amount") or 0),
            currency=str(pi.get("currency") or ""),
            metadata={str(k): str(v) for k, v in dict(meta).items()},
            client_secret=str(pi.get("client_secret") or ""),
        )

    def create_intent(
        self, *, amount_cents: int, currency: str, idempotency_key: str, description: str, metadata: dict[str, str]
    ) -> Intent:
        """The PaymentIntent of ``idempotency_key``: created once, the same one for every retry (ProviderUnavailable
        when the provider does not answer in time)."""
        try:
            pi = self.client.v1.payment_intents.create(
                params={
                    "amount": amount_cents,
                    "currency": currency,
                    "description": description,
                    "statement_descriptor_suffix": description[:22],
                    "metadata": metadata,
                    "automatic_payment_methods": {"enabled": True},
                },
                options={"idempotency_key": idempotency_key},
            )
        except stripe.APIConnectionError as exc:
            raise _unavailable("create a payment intent", exc) from None
        return self._intent(pi)

    def retrieve(self, intent_id: str) -> Intent:
        """The intent as the provider has it now (ProviderUnavailable when it does not answer in time)."""
        try:
            return self._intent(self.client.v1.payment_intents.retrieve(intent_id))
        except stripe.APIConnectionError as exc:
            raise _unavailable("retrieve a payment intent", exc) from None

    def cancel(self, intent_id: str) -> Intent:
        """Cancel the intent so it can no longer be paid; the intent as it is now.

        An intent that already succeeded (or was cancelled before) cannot be cancelled: it is
        answered as Stripe has it, so the caller sees the payment that went through.
        """
        try:
            return self._intent(self.client.v1.payment_intents.cancel(intent_id))
        except stripe.InvalidRequestError:
            try:
                return self.retrieve(intent_id)
            except ProviderUnavailable:
                return Intent(id=intent_id, status="unknown", amount=0, currency="", metadata={})
        except stripe.StripeError as exc:  # not reached: a later success is refunded if its place is gone
            log.warning("could not cancel payment intent %s: %s", intent_id, type(exc).__name__)
            return Intent(id=intent_id, status="unknown", amount=0, currency="", metadata={})

    def refund(self, intent_id: str, *, amount_cents: int, idempotency_key: str, refund_id: int | None = None) -> str:
        """Refund ``amount_cents`` of a succeeded intent (once, whatever retries); the refund's id.

        ProviderUnavailable when the provider does not answer in time: the refund may or may not have been
        made, and asking again with the same ``idempotency_key`` makes it once.
        """
        try:
            refund = self.client.v1.refunds.create(
                params={"payment_intent": intent_id, "amount": amount_cents,
                        "metadata": {"refund_id": str(refund_id or "")}},
                options={"idempotency_key": idempotency_key},
            )
        except stripe.APIConnectionError as exc:
            raise _unavailable("refund a payment", exc, REFUND_SLOW) from None
        except stripe.StripeError as exc:
            raise RefundRefused(str(getattr(exc, "user_message", "") or exc)[:300]) from None
        return str(refund.id or "")


def _unavailable(what: str, exc: Exception, message: str = PROVIDER_SLOW) -> ProviderUnavailable:
    log.warning("the card service did not answer in time to %s: %s", what, type(exc).__name__)
    return ProviderUnavailable(message)


def stripe_configured(settings: Settings | None = None) -> bool:
    settings = settings or get_settings()
    return bool(settings.stripe_secret_key and settings.stripe_publishable_key)


def provider_name(settings: Settings | None = None) -> str:
    return StripeProvider.name if stripe_configured(settings) else OfflineProvider.name


def stripe_provider() -> StripeProvider:
    return StripeProvider(get_settings())


def refund(provider: str, provider_payment_id: str, *, amount_cents: int, idempotency_key: str,
           refund_id: int | None = None) -> str:  # fmt: skip
    """Refund ``amount_cents`` of a payment made with ``provider`` (its name as stored on the payment); ``refund_id``,
    the app's refund, travels with it to come back in the provider's events."""
    chosen = stripe_provider() if provider == StripeProvider.name else OfflineProvider()
    return chosen.refund(provider_payment_id, amount_cents=amount_cents, idempotency_key=idempotency_key,
                         refund_id=refund_id)  # fmt: skip


def parse_webhook(payload: bytes, signature: str | None) -> dict:
    """The event when ``signature`` (the Stripe-Signature header) matches the raw ``payload``; else BadRequest."""
    secret = get_settings().stripe_webhook_secret
    if not secret:
        raise BadRequest("Webhooks are not configured")
    if not signature:
        raise BadRequest("Missing signature")
    try:
        event = stripe.Webhook.construct_event(payload, signature, secret)
    except (ValueError, stripe.SignatureVerificationError) as exc:
        log.warning("stripe webhook refused: %s", type(exc).__name__)
        raise BadRequest("Invalid signature") from None
    return event.to_dict() if hasattr(event, "to_dict") else dict(event)


# --- loading a registration payment by id ---------------------------------------------------------

PAYMENT_NOT_FOUND = "Registration not found"


def access_payment(db: Session, actor: Actor | None, payment_id: object, *, lock: bool = False) -> Payment:
    """The actor's own registration payment (locked for update with ``lock``); else Unauthorized / Forbidden / NotFound."""
    actor = require_actor(actor)
    row = load(db, Payment, payment_id, PAYMENT_NOT_FOUND, lock=lock)
    if row.user_id != actor.user_id:
        raise Forbidden()
    return row
