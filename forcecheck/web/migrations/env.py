"""Alembic environment for the desk's database: migrations run on the connection the desk's
Store hands over (``config.attributes["connection"]``), never on a URL of their own. The
storage's tables are the target metadata, so ``alembic check`` (and the desk's drift test)
compares the migrated database with them."""

from alembic import context

from forcecheck.web.storage import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
