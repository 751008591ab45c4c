"""Stripe's Payment Element, wrapped once for Reflex.

The card fields are Stripe's own (``@stripe/stripe-js`` loads them from
Stripe's host, so card numbers never touch our servers). The server creates
the PaymentIntent and computes the amount; this component only mounts the
element for that intent's client secret and confirms it. Stripe then sends
the browser to ``return_url``, where the server verifies the payment before
anything is created; a card error goes to ``decline_url``.
"""

from __future__ import annotations

import reflex as rx
from reflex.utils.imports import ImportVar

STRIPE_REACT = "@stripe/react-stripe-js@7.0.1"
STRIPE_JS = "@stripe/stripe-js@10.2.1"
# The "pure" entry loads Stripe.js from Stripe's host only when loadStripe is called (the plain
# entry adds the script to every page that bundles it, keys or not).
STRIPE_JS_PURE = "@stripe/stripe-js/pure"

_CODE = """
const __stripePromises = {};
function __getStripe(key) {
  if (!__stripePromises[key]) {
    __stripePromises[key] = loadStripe(key).catch(() => null);
  }
  return __stripePromises[key];
}

function StripePayButton({ label, returnUrl, declineUrl }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    if (!stripe || !elements || busy) return;
    setBusy(true);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: new URL(returnUrl, window.location.origin).href },
    });
    if (result.error) {
      if (result.error.type === "validation_error") {
        setBusy(false);  // Stripe shows what is missing beside its fields
        return;
      }
      window.location.assign(declineUrl);
    }
  };
  return (
    <button type="button" onClick={pay} disabled={!stripe || busy} aria-busy={busy}
      className="rt-reset rt-BaseButton rt-r-size-3 rt-variant-solid rt-Button"
      style={{ width: "100%", marginTop: "1rem" }}>
      {busy ? "Paying…" : label}
    </button>
  );
}

function StripePaymentForm({ publishableKey, clientSecret, returnUrl, declineUrl, label }) {
  const [unavailable, setUnavailable] = useState(false);
  const stripePromise = publishableKey ? __getStripe(publishableKey) : null;
  useEffect(() => {
    if (stripePromise) stripePromise.then((s) => { if (!s) setUnavailable(true); });
  }, [stripePromise]);
  if (!publishableKey || !clientSecret) return null;
  if (unavailable) {
    return (
      <p role="alert" style={{ color: "var(--red-11)" }}>
        The card form could not load. Check your connection and reload this page.
      </p>
    );
  }
  return (
    <Elements stripe={stripePromise} options={{ clientSecret }}>
      <PaymentElement />
      <StripePayButton label={label} returnUrl={returnUrl} declineUrl={declineUrl} />
    </Elements>
  );
}
"""


class StripePaymentForm(rx.Component):
    """``<StripePaymentForm>``: Stripe's Payment Element for one PaymentIntent, and its Pay button."""

    tag = "StripePaymentForm"

    publishable_key: rx.Var[str]
    client_secret: rx.Var[str]
    return_url: rx.Var[str]
    decline_url: rx.Var[str]
    label: rx.Var[str]

    lib_dependencies: list[str] = [STRIPE_JS]

    def add_imports(self):
        return {
            "react": ["useState", "useEffect"],
            STRIPE_JS_PURE: [ImportVar(tag="loadStripe", install=False)],
            STRIPE_REACT: ["Elements", "PaymentElement", "useStripe", "useElements"],
        }

    def add_custom_code(self) -> list[str]:
        return [_CODE]


stripe_payment_form = StripePaymentForm.create
