"""The Stripe Payment Element wrapper: pinned packages, the props the checkout passes, one definition."""

from __future__ import annotations

from volley_app.components.react.stripe import STRIPE_JS, STRIPE_JS_PURE, STRIPE_REACT, stripe_payment_form


def test_the_wrapper_pins_stripes_react_and_js_packages():
    form = stripe_payment_form(publishable_key="pk_test_1", client_secret="pi_1_secret_x", return_url="/r",
                               decline_url="/d", label="Pay $10.00")  # fmt: skip
    imports = form._get_all_imports()
    assert STRIPE_REACT == "@stripe/react-stripe-js@7.0.1" and STRIPE_REACT in imports
    assert STRIPE_JS == "@stripe/stripe-js@10.2.1" and STRIPE_JS in form._get_dependencies_imports()
    # loadStripe from the "pure" entry: Stripe.js is fetched only when a checkout with keys calls it.
    assert [i.tag for i in imports[STRIPE_JS_PURE]] == ["loadStripe"]
    names = {i.tag for i in imports[STRIPE_REACT]}
    assert {"Elements", "PaymentElement", "useStripe", "useElements"} <= names


def test_the_checkout_props_reach_the_element_and_the_code_confirms_with_stripe():
    form = stripe_payment_form(publishable_key="pk_test_1", client_secret="pi_1_secret_x",
                               return_url="/dash/leagues/teams/success?payment=1",
                               decline_url="/dash/leagues/teams/decline?league=2", label="Pay $10.00")  # fmt: skip
    rendered = str(form)
    for text in ('publishableKey:"pk_test_1"', 'clientSecret:"pi_1_secret_x"', "success?payment=1", "decline?league=2"):
        assert text in rendered
    [code] = form._get_all_custom_code()
    assert "stripe.confirmPayment" in code and "loadStripe(key)" in code
    assert code.count("function StripePaymentForm(") == 1
