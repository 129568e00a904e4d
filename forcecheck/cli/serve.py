"""``forcecheck serve``: the registration desk (needs the web extra: pip install "forcecheck[web]").

Nothing of the web stack is imported until the command runs, so other commands start as fast
as before.
"""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from forcecheck.cli.application import app
from forcecheck.cli.common import ConfigOpt, FormatsDirOpt
from forcecheck.cli.runtime import ClosedOutput, fail, session_from


@app.command("serve")
def serve_command(
    db: Annotated[
        Optional[str], typer.Option("--db", metavar="URL", help="The desk's database: a SQLite file (default ./forcecheck-desk.sqlite3) or a postgresql:// URL.")
    ] = None,
    host: Annotated[str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="N", min=1, max=65535, help="Port to listen on.")] = 8000,
    catalog: Annotated[Optional[Path], typer.Option("--catalog", metavar="PATH", help="Card catalog, as for check.")] = None,
    formats_dir: FormatsDirOpt = None,
    config_file: ConfigOpt = None,
    secure_cookies: bool = typer.Option(False, "--secure-cookies", help="Mark cookies Secure (when served over HTTPS)."),
) -> None:
    """Run the registration desk: players submit decklists at /e/EVENT, organisers run the
    event at /admin (token: $FORCECHECK_ADMIN_TOKEN, else one is made and printed)."""
    try:
        import alembic  # noqa: F401, E401 - the web extra
        import fastapi
        import jinja2
        import multipart
        import sqlalchemy
        import uvicorn

        from forcecheck.web.server import serve
    except ImportError as exc:
        fail(f"forcecheck serve needs the web extra ({exc.name} is not installed): pip install \"forcecheck[web]\" (in a checkout: pip install -e \".[web]\")")
    from forcecheck.web.storage import StoreError

    settings = session_from(config_file=config_file, catalog=catalog, formats_dir=formats_dir).config  # as check resolves them
    access_log = not isinstance(sys.stdout, ClosedOutput)  # uvicorn writes it to standard output
    if not access_log:
        print("forcecheck serve: standard output is closed, so requests are not logged", file=sys.stderr)
    try:
        serve(db, host, port, settings["catalog"], tuple(settings["format_dirs"]), secure_cookies, access_log=access_log)
    except StoreError as exc:
        fail(str(exc))
