"""Newsletter subscribers and issues."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from volley_app.models.base import fk, utc_field

# The issue's sections, in the order the composer and the email show them.
NEWSLETTER_SECTIONS = (
    "headline1", "headline2", "headline3", "ad1", "ad2",
    "svl_news1", "svl_news2", "vs1", "vs2",
)  # fmt: skip


def _text():
    return Field(default="", sa_column=sa.Column(sa.Text, nullable=False, server_default=""))


class NewsletterSubscriber(SQLModel, table=True):
    __tablename__ = "newsletter_subscribers"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(sa_column=sa.Column(sa.String(254), nullable=False, unique=True))
    referral: str | None = Field(default=None, sa_column=sa.Column(sa.String(200)))
    created_at: dt.datetime = utc_field(default_now=True)


class NewsletterIssue(SQLModel, table=True):
    __tablename__ = "newsletter_issues"

    id: int | None = Field(default=None, primary_key=True)
    headline1_link: str = _text()
    headline1_blurb: str = _text()
    headline2_link: str = _text()
    headline2_blurb: str = _text()
    headline3_link: str = _text()
    headline3_blurb: str = _text()
    ad1_link: str = _text()
    ad1_blurb: str = _text()
    ad2_link: str = _text()
    ad2_blurb: str = _text()
    svl_news1_link: str = _text()
    svl_news1_blurb: str = _text()
    svl_news2_link: str = _text()
    svl_news2_blurb: str = _text()
    vs1_link: str = _text()
    vs1_blurb: str = _text()
    vs2_link: str = _text()
    vs2_blurb: str = _text()
    created_by_id: int | None = fk("users.id", nullable=True, ondelete="SET NULL")
    created_at: dt.datetime = utc_field(default_now=True)
    sent_at: dt.datetime | None = utc_field(nullable=True, default=None)
