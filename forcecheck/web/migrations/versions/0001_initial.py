"""The desk's first schema: events, registrations, their append-only versions, the audit log.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "desk_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("format", sa.String(128), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("deadline", sa.String(32), nullable=False),
        sa.Column("banlist", sa.Text, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "registrations",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False, index=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "registration_versions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("filename", sa.Text, nullable=False),
        sa.Column("decklist", sa.Text, nullable=False),
        sa.Column("legal", sa.Boolean, nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=True),
        sa.Column("deck_json", sa.Text, nullable=False),
        sa.Column("contents_json", sa.Text, nullable=False),
        sa.Column("submitted_at", sa.String(32), nullable=False),
        sa.UniqueConstraint("registration_id", "version", name="uq_registration_version"),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("event_id", sa.String(32), nullable=True, index=True),
        sa.Column("registration_id", sa.String(32), nullable=True, index=True),
        sa.Column("detail", sa.Text, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("the desk keeps every registration: its schema is never downgraded")
