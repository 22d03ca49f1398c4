"""Alembic's environment for the server's database: run on the connection it is handed.

The server (``Store.migrate``) and the tests open the connection and pass it in
``config.attributes["connection"]``; no URL is read from a file.
"""

from __future__ import annotations

from alembic import context

from karavan_net.serve.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
