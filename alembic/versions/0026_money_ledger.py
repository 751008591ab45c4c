"""money ledger: every movement of money or credit as a row nobody edits, refunds asked of the card provider, and
a league's refund policy

Revision ID: 0031
Revises: 0030
Create Date: 2026-11-26 19:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op


revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A table SQLite copies to alter it keeps counting ids with AUTOINCREMENT (no id is ever reused).
KEEP_IDS = {"sqlite_autoincrement": True}


def _fk(column: str, table: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"),
                                   ondelete=ondelete)  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "refunds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=300), server_default="", nullable=False),
        sa.Column("requested_by_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), server_default="due", nullable=False),
        sa.Column("provider_refund_id", sa.String(length=255), nullable=True),
        sa.Column("error", sa.String(length=300), nullable=True),
        sa.Column("idempotency_key", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("amount_cents > 0", name=op.f("ck_refunds_amount_positive")),
        _fk("payment_id", "refunds", "payments", "RESTRICT"),
        _fk("requested_by_id", "refunds", "users", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_refunds")),
        sa.UniqueConstraint("idempotency_key", name=op.f("uq_refunds_idempotency_key")),
        sa.UniqueConstraint("provider_refund_id", name=op.f("uq_refunds_provider_refund_id")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_refunds_payment_id", "refunds", ["payment_id"])
    due = sa.text("status = 'due'")
    op.create_index("ix_refunds_due", "refunds", ["id"], sqlite_where=due, postgresql_where=due)
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), server_default="usd", nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("payer_name", sa.String(length=200), server_default="", nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=True),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("svl_id", sa.Integer(), nullable=True),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("team_name", sa.String(length=100), server_default="", nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=True),
        sa.Column("refund_id", sa.Integer(), nullable=True),
        sa.Column("recorded_by_id", sa.Integer(), nullable=True),
        sa.Column("provider", sa.String(length=20), server_default="", nullable=False),
        sa.Column("provider_ref", sa.String(length=255), nullable=True),
        sa.Column("idempotency_key", sa.String(length=100), nullable=False),
        sa.Column("reason", sa.String(length=300), server_default="", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("amount_cents > 0", name=op.f("ck_ledger_entries_amount_positive")),
        _fk("user_id", "ledger_entries", "users", "SET NULL"),
        _fk("league_id", "ledger_entries", "leagues", "RESTRICT"),
        _fk("session_id", "ledger_entries", "league_sessions", "RESTRICT"),
        _fk("svl_id", "ledger_entries", "users", "SET NULL"),
        _fk("team_id", "ledger_entries", "teams", "SET NULL"),
        _fk("payment_id", "ledger_entries", "payments", "RESTRICT"),
        _fk("refund_id", "ledger_entries", "refunds", "RESTRICT"),
        _fk("recorded_by_id", "ledger_entries", "users", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
        sa.UniqueConstraint("idempotency_key", name=op.f("uq_ledger_entries_idempotency_key")),
        sa.UniqueConstraint("provider_ref", name=op.f("uq_ledger_entries_provider_ref")),
        sqlite_autoincrement=True,
    )
    for column in ("user_id", "session_id", "svl_id", "team_id", "payment_id", "refund_id"):
        op.create_index(f"ix_ledger_entries_{column}", "ledger_entries", [column])
    op.create_index("ix_ledger_entries_league_id_created_at", "ledger_entries", ["league_id", "created_at"])
    with op.batch_alter_table("leagues", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.add_column(sa.Column("refund_full_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("refund_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("refund_fee_cents", sa.Integer(), server_default="0", nullable=False))
    _ledger_from_payments()


def _ledger_from_payments() -> None:
    """Every payment that went through before the ledger gets its charge row; one refunded since, its refund."""
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT p.id, p.status, p.error, p.amount_cents, p.currency, p.user_id, p.payer_name, p.league_id, "
        "l.session_id, l.svl_id, p.team_id, p.team_name, p.provider, p.provider_payment_id, p.idempotency_key, "
        "p.updated_at FROM payments p JOIN leagues l ON l.id = p.league_id "
        "WHERE p.status IN ('succeeded', 'refunded') AND p.provider_payment_id IS NOT NULL ORDER BY p.id"
    )).all()  # fmt: skip
    entries = sa.table(
        "ledger_entries", *(sa.column(c) for c in (
            "kind", "amount_cents", "currency", "user_id", "payer_name", "league_id", "session_id", "svl_id",
            "team_id", "team_name", "payment_id", "refund_id", "provider", "provider_ref", "idempotency_key",
            "reason", "created_at",
        )),
    )  # fmt: skip
    refunds = sa.table("refunds", *(sa.column(c) for c in (
        "id", "payment_id", "amount_cents", "reason", "status", "idempotency_key", "created_at", "updated_at",
    )))  # fmt: skip
    for r in rows:
        base = {"amount_cents": r.amount_cents, "currency": r.currency, "user_id": r.user_id,
                "payer_name": r.payer_name, "league_id": r.league_id, "session_id": r.session_id,
                "svl_id": r.svl_id, "team_id": r.team_id, "team_name": r.team_name, "payment_id": r.id,
                "provider": r.provider, "created_at": r.updated_at}  # fmt: skip
        bind.execute(entries.insert().values(
            kind="charge", provider_ref=r.provider_payment_id, idempotency_key=f"charge-{r.idempotency_key}",
            reason="Registration", refund_id=None, **base,
        ))  # fmt: skip
        if r.status != "refunded":
            continue
        due = r.error == "place no longer held; refund due"
        key = f"refund-{r.idempotency_key}"
        bind.execute(refunds.insert().values(
            payment_id=r.id, amount_cents=r.amount_cents, reason="Its place was no longer held",
            status="due" if due else "made", idempotency_key=key, created_at=r.updated_at, updated_at=r.updated_at,
        ))  # fmt: skip
        if not due:
            refund_id = bind.execute(sa.text("SELECT id FROM refunds WHERE idempotency_key = :k"), {"k": key}).scalar()
            bind.execute(entries.insert().values(
                kind="refund", provider_ref=None, idempotency_key=key, reason="Its place was no longer held",
                refund_id=refund_id, **base,
            ))  # fmt: skip


def downgrade() -> None:
    with op.batch_alter_table("leagues", schema=None, table_kwargs=KEEP_IDS) as batch_op:
        batch_op.drop_column("refund_fee_cents")
        batch_op.drop_column("refund_until")
        batch_op.drop_column("refund_full_until")
    op.drop_index("ix_ledger_entries_league_id_created_at", table_name="ledger_entries")
    for column in ("user_id", "session_id", "svl_id", "team_id", "payment_id", "refund_id"):
        op.drop_index(f"ix_ledger_entries_{column}", table_name="ledger_entries")
    op.drop_table("ledger_entries")
    op.drop_index("ix_refunds_due", table_name="refunds")
    op.drop_index("ix_refunds_payment_id", table_name="refunds")
    op.drop_table("refunds")
