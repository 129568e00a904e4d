"""``forcecheck serve``: the registration desk (needs the web extra: pip install "forcecheck[web]").

Nothing of the web stack is imported until the command runs, so other commands start as fast
as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from forcecheck.cli.app import app
from forcecheck.cli.common import FormatsDirOption, _fail


@app.command("serve")
def serve_command(
    db: Optional[str] = typer.Option(None, "--db", help="Database: a SQLite file (default ./forcecheck-desk.sqlite3) or a postgresql:// URL."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="Port to listen on."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="Card catalog, as for check."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
    secure_cookies: bool = typer.Option(False, "--secure-cookies", help="Mark cookies Secure (when served over HTTPS)."),
) -> None:
    """Run the registration desk: players submit decklists at /e/EVENT, organisers run the
    event at /admin (token: $FORCECHECK_ADMIN_TOKEN, else one is made and printed)."""
    try:
        import alembic, fastapi, jinja2, multipart, sqlalchemy, uvicorn  # noqa: F401, E401 - the web extra

        from forcecheck.web.server import serve
    except ImportError as exc:
        _fail(f"forcecheck serve needs the web extra ({exc.name} is not installed): pip install \"forcecheck[web]\"")
    from forcecheck.web.storage import StoreError

    try:
        serve(db, host, port, str(catalog) if catalog else None, tuple(str(d) for d in formats_dir or []), secure_cookies)
    except StoreError as exc:
        _fail(str(exc))
