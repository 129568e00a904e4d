"""Idempotency keys of submissions: a submission sent again with its key (an answer lost to a
dropped connection, a desk killed between commit and answer) gets the stored answer, and nothing
is stored twice.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04

A new table only: an event's database from an earlier forcecheck upgrades in place.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "submission_keys",
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("the desk's schema is never downgraded")
