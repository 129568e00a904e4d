"""Running a whole event: player IDs, unlocked registrations, published lists, deck checks.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02

Columns added to tables that may hold registrations have server defaults, so an event's
database from an earlier forcecheck upgrades in place (its events take no player IDs, its
registrations are locked by the deadline as before).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN on both databases (SQLite takes a constant default): no
    # table is rebuilt, so rows that other tables reference stay where they are
    op.add_column("events", sa.Column("player_ids", sa.String(16), nullable=False, server_default="off"))
    op.add_column("registrations", sa.Column("unlocked", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("registration_versions", sa.Column("player_id", sa.Text, nullable=True))
    op.create_table(
        "publications",
        sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), primary_key=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False, index=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("canonical", sa.Text, nullable=False),
        sa.Column("published_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "deck_checks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False, index=True),
        sa.Column("registration_id", sa.String(32), sa.ForeignKey("registrations.id"), nullable=False),
        sa.Column("cycle", sa.Integer, nullable=False),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("seed", sa.Text, nullable=True),
        sa.Column("picked_at", sa.String(32), nullable=False),
        sa.Column("outcome_json", sa.Text, nullable=True),
        sa.Column("outcome_at", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    raise NotImplementedError("the desk's schema is never downgraded")
