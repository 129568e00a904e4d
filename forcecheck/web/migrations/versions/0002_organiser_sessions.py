"""Organiser sessions kept in the database: logging out ends a session on every desk.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "organiser_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("admin", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.String(32), nullable=False),
        sa.Column("ended_at", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    raise NotImplementedError("the desk's schema is never downgraded")
