"""Screens read in one call: each part is what its own service reads, a part refused keeps its message, and a
viewer the screen is not for is refused whole."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from tests.factories import demo_actors
from volley_app.models import League, Payment, utcnow
from volley_app.services.accounts import accounts
from volley_app.services.core.errors import DomainError, Forbidden, Invalid
from volley_app.services.core.screens import part
from volley_app.services.mail import email_all, mail_lists, newsletter
from volley_app.services.money import credits
from volley_app.services.operations import exports, home, league_home, profile
from volley_app.services.seasons import calendar, leagues, playoffs, score_reports
from volley_app.services.subs import availability, request_lists
from volley_app.services.subs.request_lists import REQUEST_FILTERS
from volley_app.services.teams import registration


def _listing_refusing(db, actor, **args):
    raise Invalid({"q": "Not a search"})


def test_a_part_refused_keeps_its_message_and_nothing_else_fails(db):
    refused = part(_listing_refusing, db, None)
    assert refused.value is None and isinstance(refused.failure, Invalid)
    assert refused.failure.errors == {"q": "Not a search"}
    fine = part(lambda _db, actor, **a: (actor, a), db, "me", x=1)
    assert fine.value == ("me", {"x": 1}) and fine.failure is None


@pytest.fixture
def demo_people(db):
    return demo_actors(db, "alice", "ben", "admin", "lexsports")


def test_the_player_home_is_what_its_parts_read(db, demo_people):
    ben = demo_people["ben"]
    screen = home.player_home(db, ben, filters=dict.fromkeys(REQUEST_FILTERS, ""))
    page = request_lists.list_open(db, ben, filters=dict.fromkeys(REQUEST_FILTERS, ""))
    assert screen.open_requests.failure is None and screen.open_requests.value is not None
    assert [r["id"] for r in screen.open_requests.value.rows] == [r["id"] for r in page.rows] != []
    assert screen.leagues == home.home_leagues(db, ben)
    assert screen.is_sub is accounts.is_sub(db, ben) is True
    assert screen.team_cards == score_reports.team_cards(db, ben)
    assert screen.commitments == home.commitments(db, ben)


def test_a_search_the_home_list_refuses_leaves_the_rest_of_the_home(db, demo_people):
    alice = demo_people["alice"]
    screen = home.player_home(db, alice, filters={"date_from": "not a date"})
    assert screen.open_requests.value is None and isinstance(screen.open_requests.failure, Invalid)
    assert screen.leagues["all"] and screen.leagues == home.home_leagues(db, alice)


def test_email_all_and_the_newsletter_screens_are_for_admins_only(db, demo_people):
    admin = demo_people["admin"]
    sent = email_all.screen(db, admin)
    assert sent.audience == email_all.audience_count(db, admin) > 0
    assert sent.recent == email_all.recent_send(db, admin)
    assert sent.jobs.value is not None and sent.jobs.failure is None
    news = newsletter.setup_screen(db, admin)
    assert news.total == newsletter.subscriber_total(db, admin)
    assert news.subscribers.value is not None and news.subscribers.value.total == news.total
    for who in ("alice", "lexsports"):
        with pytest.raises(Forbidden):
            email_all.screen(db, demo_people[who])
        with pytest.raises(Forbidden):
            newsletter.setup_screen(db, demo_people[who])


def test_my_info_and_edit_info_are_what_their_parts_read(db, demo_people):
    ben = demo_people["ben"]
    mine = profile.my_info(db, ben)
    assert mine.info.value == accounts.my_info(db, ben)
    assert mine.feed.value == calendar.my_feed(db, ben)
    assert mine.notifications.value == mail_lists.notification_setting(db, ben)
    assert mine.credit.value == credits.my_credit(db, ben)
    edit = profile.edit_info(db, ben, user_id=ben.user_id)
    assert edit.record.value == accounts.edit_form(db, ben, ben.user_id)
    assert edit.availability.value == availability.get(db, ben, ben.user_id)


def test_edit_info_of_another_player_is_refused_part_by_part(db, demo_people):
    alice, ben = demo_people["alice"], demo_people["ben"]
    edit = profile.edit_info(db, alice, user_id=ben.user_id)
    assert edit.record.value is None and edit.record.failure is not None
    assert edit.availability.value is None and edit.availability.failure is not None
    admin_view = profile.edit_info(db, demo_people["admin"], user_id=ben.user_id)
    assert admin_view.record.value is not None and admin_view.record.value["username"] == "ben"


def test_a_svl_reads_my_info_too(db, demo_people):
    mine = profile.my_info(db, demo_people["lexsports"])
    assert mine.info.value is not None and mine.info.value["username"] == "lexsports"


def _paid_league(db) -> int:
    """A league with payments (in the demo, an archived one: only admins read it)."""
    found = db.exec(select(League.id).join(Payment, col(Payment.league_id) == League.id)).first()
    assert found is not None
    return found


def _open_league(db) -> int:
    """A league everyone logged in reads."""
    found = db.exec(
        select(League.id).where(col(League.active).is_(True), col(League.archived_at).is_(None)).order_by(League.id)
    ).first()
    assert found is not None
    return found


def test_the_league_home_is_what_its_parts_read(db, demo_people):
    admin, now = demo_people["admin"], utcnow()
    lid = _paid_league(db)
    screen = league_home.league_home(db, admin, league_id=lid, payment_filters={"q": ""}, now=now)
    assert screen.league == leagues.get_league(db, admin, lid, now) and screen.league["show_payments"]
    assert screen.registration.value == league_home.registration_offer(db, admin, league_id=lid)
    assert screen.bracket_link.value == ""  # no bracket uploaded
    assert screen.bracket_generated.value is playoffs.generated(db, admin, lid)
    assert screen.my_games.value == score_reports.my_games(db, admin, lid, now=now)
    assert screen.disputed.value == score_reports.disputed(db, admin, lid)
    assert screen.export_links.value == exports.export_links(db, admin, lid, now=now) != {}
    page = registration.payments_page(db, admin, league_id=lid, filters={"q": ""})
    assert screen.payments is not None and screen.payments.failure is None and screen.payments.value is not None
    assert screen.payments.value.rows == page.rows != []
    found = league_home.league_home(db, admin, league_id=lid, payment_filters={"q": "no such team"}, now=now)
    assert found.payments is not None and found.payments.value is not None and found.payments.value.rows == []
    # after an action on the league the payments are not read again
    assert league_home.league_home(db, admin, league_id=lid, now=now).payments is None


def test_a_player_reads_the_league_home_without_the_operators_parts(db, demo_people):
    lid = _open_league(db)
    screen = league_home.league_home(db, demo_people["ben"], league_id=lid, payment_filters={"q": ""})
    assert not screen.league["can_manage"] and not screen.league["show_payments"]
    assert screen.payments is None  # not read at all
    assert screen.disputed.value == [] and screen.export_links.value == {}
    assert screen.registration.value is not None and screen.my_games.failure is None
    with pytest.raises(DomainError):
        league_home.league_home(db, None, league_id=lid)  # the league is the screen's own: refused whole


def test_a_league_home_part_refused_leaves_the_rest(db, demo_people, monkeypatch):
    svl = demo_people["lexsports"]
    lid = _open_league(db)

    def refused(*_a, **_k):
        raise Forbidden("Not for you")

    monkeypatch.setattr(score_reports, "my_games", refused)
    monkeypatch.setattr(registration, "payments_page", refused)
    screen = league_home.league_home(db, svl, league_id=lid, payment_filters={"q": ""})
    assert screen.my_games.value is None and isinstance(screen.my_games.failure, Forbidden)
    assert screen.payments is not None and screen.payments.value is None
    assert isinstance(screen.payments.failure, Forbidden)
    assert screen.league["id"] == lid and screen.export_links.value and screen.registration.value is not None
