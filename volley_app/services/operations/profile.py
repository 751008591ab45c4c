"""The screens of a person's own record, each read in one call: My Info, and the Edit Info form."""

from __future__ import annotations

import dataclasses

from sqlmodel import Session

from volley_app.services.accounts import accounts
from volley_app.services.core.actors import Actor
from volley_app.services.core.screens import Part, part
from volley_app.services.mail import mail_lists, notices
from volley_app.services.money import credits
from volley_app.services.seasons import calendar
from volley_app.services.subs import availability


@dataclasses.dataclass(frozen=True)
class MyInfo:
    """What My Info shows: the record, the personal calendar feed, what the player is emailed about as a sub, and
    which kinds of notification are emailed to them."""

    info: Part[dict]  # accounts.my_info
    feed: Part[str]  # calendar.my_feed: the feed's address path, "" when it is off
    notifications: Part[dict[str, object]]  # mail_lists.notification_setting
    credit: Part[credits.Credit]  # credits.my_credit: what is left of the player's credit
    preferences: Part[list[notices.PreferenceRow]]  # notices.preferences


def my_info(db: Session, actor: Actor | None) -> MyInfo:
    return MyInfo(
        info=part(accounts.my_info, db, actor),
        feed=part(calendar.my_feed, db, actor),
        notifications=part(mail_lists.notification_setting, db, actor),
        credit=part(credits.my_credit, db, actor),
        preferences=part(notices.preferences, db, actor),
    )


@dataclasses.dataclass(frozen=True)
class EditInfo:
    """What the Edit Info form of a user starts with: the record as this viewer may edit it, and the user's days
    and dates as a sub."""

    record: Part[dict]  # accounts.edit_form
    availability: Part[dict]  # availability.get


def edit_info(db: Session, actor: Actor | None, *, user_id: object) -> EditInfo:
    return EditInfo(
        record=part(accounts.edit_form, db, actor, user_id=user_id),
        availability=part(availability.get, db, actor, user_id=user_id),
    )
