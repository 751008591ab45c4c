"""Public pages in Chromium: inquiry form, password recovery by email, newsletter signup and send; public page layout."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import PASSWORD, expect_path, log_in, make_user, screenshot
from volley_app import db
from volley_app.models import EmailAllJob, Role
from volley_app.services.mail import newsletter
from volley_app.settings import get_settings


def test_contact_form_keeps_values_on_bad_input_then_goes_to_sent_and_mails_the_provider(page, mailbox):
    page.goto("/contact")
    page.get_by_label("Name").fill("Ann Lee")
    page.get_by_label("Email").fill("ann@example")  # the browser accepts it; the server does not
    page.get_by_label("Message").fill("Is there a C league on Tuesdays?")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#email-error")).to_contain_text("valid email")
    expect(page.get_by_label("Email")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Name")).to_have_attribute("aria-invalid", "false")
    expect(page.get_by_label("Name")).to_have_value("Ann Lee")
    expect(page.get_by_label("Message")).to_have_value("Is there a C league on Tuesdays?")
    expect(page.get_by_label("Email")).to_be_focused()  # focus on the field; its message is read with it
    expect(page.get_by_role("alert").filter(has_text=re.compile(r"\S"))).to_have_count(0)  # shown once, not twice
    page.get_by_label("Email").fill("ann@example.com")
    expect(page.get_by_label("Email")).to_have_attribute("aria-invalid", "false")  # corrected: the message goes
    expect(page.locator("#email-error")).to_have_count(0)
    page.get_by_role("button", name="Send").click()
    expect_path(page, "/sent")
    expect(page.get_by_role("heading", name="Sent Successfully")).to_be_visible()
    expect(page.get_by_text("1-2 days")).to_be_visible()
    [msg] = mailbox.wait_for(1, timeout=20)
    assert msg["To"] == get_settings().provider_email
    assert msg["Reply-To"] == "ann@example.com"
    assert msg["Subject"] == "Contact inquiry from Ann Lee"
    assert "Is there a C league on Tuesdays?" in msg.get_body(("plain",)).get_content()
    page.get_by_role("link", name="Back to Home").click()
    expect_path(page, "/")


def test_forgot_password_email_link_sets_a_new_password(page, mailbox):
    make_user("resetme")
    page.goto("/forgotPassword")
    page.get_by_label("Email").fill("nobody@example.com")
    page.get_by_role("button", name="Send Reset Link").click()
    expect_path(page, "/forgotPasswordNotFound")
    expect(page.get_by_role("heading", name="Email Not Found")).to_be_visible()
    expect(page.get_by_text("A password reset could not be sent.")).to_be_visible()
    expect(page.get_by_text("Please check the email you used or create a new account.")).to_be_visible()

    page.goto("/forgotPassword")
    page.get_by_label("Email").fill("resetme@example.com")
    page.get_by_role("button", name="Send Reset Link").click()
    expect_path(page, "/forgotPasswordSent")
    [msg] = mailbox.wait_for(1, timeout=20)
    assert msg["To"] == "resetme@example.com" and msg["Subject"] == "Reset your password"
    origin = get_settings().public_url.rstrip("/")
    link = re.search(re.escape(origin) + r"/resetPassword/\d+/[A-Za-z0-9_-]+", msg.get_body(("plain",)).get_content()).group(0)

    page.goto(link)
    page.get_by_label("New Password", exact=True).fill("n3w!pass")
    page.get_by_label("Confirm New Password").fill("n3w!pass")
    page.get_by_role("button", name="Set New Password").click()
    expect_path(page, "/passwordUpdated")
    changed = mailbox.wait_for(2, timeout=20)[1]
    assert changed["Subject"] == "Your password was changed" and changed["To"] == "resetme@example.com"

    page.goto(link)  # used once: refused, with the way to a new one
    expect(page.get_by_text("invalid or has expired")).to_be_visible()
    expect(page.get_by_role("link", name="Ask for a New Link")).to_be_visible()

    log_in(page, "resetme", PASSWORD)
    expect(page.get_by_role("alert")).to_contain_text("Unauthorized")
    log_in(page, "resetme", "n3w!pass")
    expect_path(page, "/dash")


def test_newsletter_signup_goes_to_subscribed(page):
    page.goto("/newsletter")
    page.get_by_label("Email").fill("fan@example.com")
    page.get_by_label("How did you hear about us? (optional)").fill("a teammate")
    page.get_by_role("button", name="Subscribe").click()
    expect_path(page, "/subscribed")
    expect(page.get_by_role("heading", name="You're Subscribed")).to_be_visible()
    assert [s.email for s in db.call(lambda s: newsletter.list_subscribers(s, _admin()))] == ["fan@example.com"]


def _admin():
    from volley_app.services.core.actors import Actor

    return Actor(user_id=0, username="x", roles=(Role.ADMIN.value,))


def test_admin_sends_a_newsletter_to_three_subscribers(page, new_page, mailbox):
    make_user("boss", Role.ADMIN, first_name="Boss")
    for i in range(3):
        db.call(newsletter.subscribe, email=f"reader{i}@example.com", client=f"10.1.1.{i}")
    log_in(page, "boss")
    expect_path(page, "/dash/profile")  # an admin's home
    page.goto("/dash/newsletterSetup")
    expect(page.get_by_role("heading", name="New Newsletter")).to_be_visible()
    expect(page.get_by_role("cell", name="reader2@example.com", exact=True)).to_be_visible()
    for section in newsletter.NEWSLETTER_SECTIONS:
        label = newsletter.SECTION_LABELS[section]
        page.get_by_label(f"{label} Blurb").fill(f"Story for {label}")
    page.get_by_label("Headline 1 Link").fill("https://example.com/fall")
    expect(page.get_by_label("Newsletter preview")).to_contain_text("Story for vS 2")
    page.get_by_label("Send it to 3 subscribers").check()  # the confirmation names how many get it
    page.get_by_role("button", name="Send Newsletter").click()
    expect_path(page, "/dash/profile")
    msgs = mailbox.wait_for(3, timeout=30)
    assert sorted(m["To"] for m in msgs) == [f"reader{i}@example.com" for i in range(3)]
    for m in msgs:
        body = m.get_body(("plain",)).get_content()
        assert m["Subject"] == newsletter.SUBJECT
        assert "Story for Headline 1" in body and "https://example.com/fall" in body
        assert re.search(r"/unsubscribe/\d+/\w+", body)
    # One click on the emailed link unsubscribes, with no login (a fresh browser).
    reader = next(m for m in msgs if m["To"] == "reader1@example.com")
    link = re.search(re.escape(get_settings().public_url.rstrip("/")) + r"/unsubscribe/\d+/\w+", reader.get_body(("plain",)).get_content()).group(0)
    visitor = new_page(width=390, height=800)
    visitor.goto(link)
    expect(visitor.get_by_text("You are unsubscribed")).to_be_visible()
    expect(visitor.get_by_text("reader1@example.com will get no more newsletters.")).to_be_visible()
    left = db.call(lambda s: [x.email for x in newsletter.list_subscribers(s, _admin())])
    assert sorted(left) == ["reader0@example.com", "reader2@example.com"]


PUBLIC_PAGES = [
    "/contact", "/host", "/promote", "/franchise", "/aboutUs", "/sent", "/forgotPassword",
    "/forgotPasswordSent", "/forgotPasswordNotFound", "/resetPassword/1/not-a-real-token-at-all",
    "/passwordUpdated", "/newsletter", "/subscribed", "/unsubscribe/1/nope",
]  # fmt: skip


@pytest.mark.parametrize("width", [1280, 390])
def test_public_pages_fit_the_screen(new_page, width):
    """Every public page renders its heading and never scrolls sideways (pictures of them with ``SCREENSHOTS=1``)."""
    page = new_page(width=width, height=900)
    for path in PUBLIC_PAGES:
        page.goto(path)
        expect(page.get_by_role("heading", level=1).first).to_be_visible()
        page.wait_for_load_state("networkidle")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
        name = path.strip("/").split("/")[0] or "home"
        screenshot(page, f"{name}-{width}")


def test_admin_emails_all_users_and_sees_queued_then_sent(new_page, mailbox):
    make_user("chief", Role.ADMIN, first_name="Chief")
    for name in ("amy", "ben"):
        make_user(name)
    page = new_page()
    log_in(page, "chief")
    expect_path(page, "/dash/profile")  # an admin's home
    page.goto("/dash/emailAll")
    page.get_by_label("Subject").fill("Courts closed Friday")
    page.get_by_label("Body").fill("The gym is closed this Friday; games move to Saturday.")
    page.get_by_label("Send it to 3 people: every active user").check()
    page.get_by_role("button", name="Send to All Users").click()
    expect(page.get_by_role("status").filter(has_text="Queued 3 messages")).to_be_visible()
    msgs = mailbox.wait_for(3, timeout=30)
    assert sorted(m["To"] for m in msgs) == ["amy@example.com", "ben@example.com", "chief@example.com"]
    assert all(m["Subject"] == "Courts closed Friday" for m in msgs)
    row = page.get_by_role("row").filter(has_text="Courts closed Friday")
    for _ in range(20):  # the sender records each result just after the server accepted it
        page.get_by_role("button", name="Refresh").click()
        if row.get_by_role("cell").nth(3).inner_text() == "3":
            break
        page.wait_for_timeout(500)
    expect(row.get_by_role("cell").nth(3)).to_have_text("3")
    # Sending again within the hour asks first: the server refuses until "Send it again" is ticked.
    expect(page.locator("#repeat-question")).to_contain_text('("Courts closed Friday")')
    page.get_by_role("textbox", name="Subject").fill("Courts closed Friday")
    page.get_by_role("textbox", name="Body").fill("Again.")
    page.get_by_label("Send it to 3 people: every active user").check()
    screenshot(page, "dash-emailAll-repeat-1280")
    page.get_by_role("button", name="Send to All Users").click()
    expect(page.locator("#repeat-error")).to_contain_text("Send it again")
    assert db.call(lambda s: len(s.exec(select(EmailAllJob)).all())) == 1
    page.goto("/dash/users")
    expect(page.get_by_role("status").filter(has_text="Showing 1–3 of 3")).to_be_visible()  # the list has opened
    page.get_by_label("Search users").fill("nobody-here")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_text("No users match “nobody-here”.")).to_be_visible()
    screenshot(page, "dash-users-nomatch-1280")
    page.set_viewport_size({"width": 390, "height": 900})
    screenshot(page, "dash-users-nomatch-390")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/dash/emailAll")
    screenshot(page, "dash-emailAll-1280")
    page.set_viewport_size({"width": 390, "height": 900})
    screenshot(page, "dash-emailAll-390")
    page.goto("/dash/newsletterSetup")
    page.get_by_label("Headline 1 Blurb").fill("Fall leagues open Monday")
    expect(page.get_by_label("Newsletter preview")).to_contain_text("Fall leagues open Monday")
    screenshot(page, "dash-newsletterSetup-390")
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "dash-newsletterSetup-1280")
    page.goto("/dash/inquiries")
    expect(page.get_by_role("heading", name="Inquiries")).to_be_visible()


def test_non_admin_on_admin_screens_is_told_whom_they_are_for(page):
    make_user("plain")
    log_in(page, "plain")
    expect_path(page, "/dash")
    for path in ("/dash/newsletterSetup", "/dash/emailAll", "/dash/inquiries", "/dash/users"):
        page.goto(path)
        expect(page.get_by_role("heading", name="This page is for administrators", level=1)).to_be_visible()
        expect(page.get_by_role("link", name="Go to my home page")).to_have_attribute("href", "/dash")
        expect(page.get_by_role("link", name="Create New SVL")).to_have_count(0)
        expect_path(page, path)
