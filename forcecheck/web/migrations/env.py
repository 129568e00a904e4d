"""Alembic environment for the desk's database: migrations run on the connection the desk's
Store hands over (``config.attributes["connection"]``), never on a URL of their own."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
