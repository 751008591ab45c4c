"""sub records: a mark (played, no-show) per sub who took a place on a request; each sub's record kept on
``users`` (played, no-shows, the date of the latest request they took)

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-25 13:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The named sub of an accepted request whose place is missing (written before places existed, or a mark
# given to them): they took it, so it becomes their place, with the request's mark.
_MISSING_PLACES = """
INSERT INTO sub_request_places (request_id, user_id, accepted_at)
SELECT r.id, r.recipient_id, r.updated_at FROM sub_requests r
WHERE r.status = 'Accepted' AND r.recipient_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM sub_request_places p WHERE p.request_id = r.id AND p.user_id = r.recipient_id)
  AND (r.outcome IS NOT NULL
       OR (SELECT count(*) FROM sub_request_places p WHERE p.request_id = r.id) < r.places_filled
       OR NOT EXISTS (SELECT 1 FROM sub_request_places p WHERE p.request_id = r.id))
"""

_FILLED = """
UPDATE sub_requests SET places_filled = (SELECT count(*) FROM sub_request_places p WHERE p.request_id = sub_requests.id)
WHERE places_filled < (SELECT count(*) FROM sub_request_places p WHERE p.request_id = sub_requests.id)
"""

# The request's one mark was the named sub's: it moves to their place.
_MARKS = """
UPDATE sub_request_places SET
  outcome = (SELECT r.outcome FROM sub_requests r WHERE r.id = sub_request_places.request_id),
  outcome_at = (SELECT r.outcome_at FROM sub_requests r WHERE r.id = sub_request_places.request_id)
WHERE EXISTS (SELECT 1 FROM sub_requests r WHERE r.id = sub_request_places.request_id
              AND r.recipient_id = sub_request_places.user_id AND r.outcome IS NOT NULL)
"""

# Every sub's record from the places they took on requests not cancelled (as services/subs/sub_records.py keeps it).
_KEPT = "FROM sub_request_places p JOIN sub_requests r ON r.id = p.request_id WHERE p.user_id = users.id AND r.archived_at IS NULL"
_RECORDS = f"""
UPDATE users SET
  sub_played = (SELECT count(*) {_KEPT} AND p.outcome = 'Played'),
  sub_no_shows = (SELECT count(*) {_KEPT} AND p.outcome = 'No-show'),
  sub_last_date = (SELECT max(r.date) {_KEPT})
WHERE EXISTS (SELECT 1 FROM sub_request_places p WHERE p.user_id = users.id)
"""

# Down: the named sub's mark back on the request.
_BACK = """
UPDATE sub_requests SET
  outcome = (SELECT p.outcome FROM sub_request_places p WHERE p.request_id = sub_requests.id
             AND p.user_id = sub_requests.recipient_id),
  outcome_at = (SELECT p.outcome_at FROM sub_request_places p WHERE p.request_id = sub_requests.id
                AND p.user_id = sub_requests.recipient_id)
WHERE recipient_id IS NOT NULL
"""


def upgrade() -> None:
    op.add_column("sub_request_places", sa.Column("outcome", sa.String(length=15), nullable=True))
    op.add_column("sub_request_places", sa.Column("outcome_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("users", sa.Column("sub_played", sa.Integer(), server_default="0", nullable=False))
    op.add_column("users", sa.Column("sub_no_shows", sa.Integer(), server_default="0", nullable=False))
    op.add_column("users", sa.Column("sub_last_date", sa.DateTime(timezone=True), nullable=True))
    op.execute(_MISSING_PLACES)
    op.execute(_FILLED)
    op.execute(_MARKS)
    op.execute(_RECORDS)
    op.drop_column("sub_requests", "outcome_at")
    op.drop_column("sub_requests", "outcome")


def downgrade() -> None:
    op.add_column("sub_requests", sa.Column("outcome", sa.String(length=15), nullable=True))
    op.add_column("sub_requests", sa.Column("outcome_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(_BACK)
    op.drop_column("users", "sub_last_date")
    op.drop_column("users", "sub_no_shows")
    op.drop_column("users", "sub_played")
    op.drop_column("sub_request_places", "outcome_at")
    op.drop_column("sub_request_places", "outcome")
