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
    catalog: Annotated[Optional[Path], typer.Option("--catalog", metavar="PATH", help="Card catalog, as for check. [env: FORCECHECK_CATALOG]")] = None,
    formats_dir: FormatsDirOpt = None,
    config_file: ConfigOpt = None,
    secure_cookies: bool = typer.Option(False, "--secure-cookies",
                                        help="Served over HTTPS (directly or behind a proxy): cookies are Secure, and every answer sends Strict-Transport-Security."),
    public_url: Annotated[
        Optional[str], typer.Option("--public-url", metavar="URL", help="The address people open (https://desk.example.org/): every link and the share link are built from it. Without it links are relative; never taken from the request's Host header.")
    ] = None,
    workers: Annotated[
        Optional[int], typer.Option("--workers", metavar="N", min=1, max=256, help="Server processes on one socket and one database (default: the number of cores).")
    ] = None,
    request_timeout: Annotated[
        float, typer.Option("--request-timeout", metavar="S", min=0.5, max=3600, help="Close a connection that has not sent a whole request (headers and body) within S seconds.")
    ] = 20.0,
    client_limit: Annotated[
        Optional[int], typer.Option("--client-limit", metavar="N", min=0, help="Checks and submissions one browser (the desk's session cookie), or one client address without one, may make per minute (a large list counts more); over it 429 with Retry-After. 0: no limit. Default 60.")
    ] = None,
    address_limit: Annotated[
        Optional[int], typer.Option("--address-limit", metavar="N", min=1, help="Checks and submissions all the browsers behind one address (a venue's network) may make per minute together. Default 20 times --client-limit (1,200): a room of 200 players checking and submitting twice spends about 640.")
    ] = None,
    forwarded_allow_ips: Annotated[
        Optional[str], typer.Option("--forwarded-allow-ips", metavar="ADDRESSES", help="Proxies trusted to name the client in X-Forwarded-For (comma-separated; default 127.0.0.1).")
    ] = None,
    allow_weak_token: Annotated[
        bool, typer.Option("--allow-weak-token", help="Start even though FORCECHECK_ADMIN_TOKEN is guessable (under 16 characters, or fewer than 6 different ones): for a trial on your own machine only.")
    ] = False,
) -> None:
    """Run the registration desk: players submit decklists at /e/EVENT, organisers run the
    event at /admin (token: $FORCECHECK_ADMIN_TOKEN, else one is made and printed). Decks are
    checked with the settings `forcecheck check` uses here (flags, FORCECHECK_* variables,
    .forcecheck.yaml)."""
    try:
        import alembic  # noqa: F401, E401 - the web extra
        import fastapi  # noqa: F401
        import icu  # noqa: F401
        import jinja2  # noqa: F401
        import multipart  # noqa: F401
        import sqlalchemy  # noqa: F401
        import uvicorn  # noqa: F401

        from forcecheck.web.server import serve
    except ImportError as exc:
        from forcecheck.install_hint import install_extra

        fail(f"forcecheck serve needs the web extra ({exc.name} is not installed): {install_extra('web')}")
    from forcecheck.errors import ForcecheckError
    from forcecheck.web.storage import StoreError

    session_from(config_file=config_file, catalog=catalog, formats_dir=formats_dir)  # an unusable configuration stops here
    options = {"config_file": str(config_file) if config_file else None, "catalog": str(catalog) if catalog else None,
               "formats_dir": [str(d) for d in formats_dir or []]}
    access_log = not isinstance(sys.stdout, ClosedOutput)  # uvicorn writes it to standard output
    if not access_log:
        print("forcecheck serve: standard output is closed, so requests are not logged", file=sys.stderr)
    if public_url and not public_url.startswith(("http://", "https://")):
        fail(f"--public-url {public_url!r} is not an http:// or https:// address")
    try:
        serve(db, host, port, options, secure_cookies, access_log=access_log, workers=workers, request_timeout=request_timeout,
              client_limit=client_limit, address_limit=address_limit, public_url=public_url, forwarded_allow_ips=forwarded_allow_ips, allow_weak_token=allow_weak_token)
    except (StoreError, ForcecheckError) as exc:
        fail(str(exc))
