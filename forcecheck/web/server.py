"""Running the desk: ``forcecheck serve`` calls :func:`serve` (uvicorn, one process).

One process is the design: checks run on one thread anyway (see ``forcecheck.api``), and SQLite
wants one writer process; an organisation that needs more puts PostgreSQL behind several desks.
"""

from __future__ import annotations

import os
import secrets
import sys

DEFAULT_DB = "forcecheck-desk.sqlite3"
"""The desk's SQLite file, in the folder the desk is started from (next to the event's files)."""

TOKEN_ENV = "FORCECHECK_ADMIN_TOKEN"


def admin_token() -> tuple[str, bool]:
    """(token, generated): FORCECHECK_ADMIN_TOKEN, or a fresh random token for this run."""
    given = os.environ.get(TOKEN_ENV, "").strip()
    if given:
        return given, False
    return secrets.token_urlsafe(24), True


def serve(db: str | None, host: str, port: int, catalog: str | None, format_dirs: tuple[str, ...],
          secure_cookies: bool = False, log_level: str = "info", access_log: bool = True) -> None:
    import uvicorn

    from forcecheck.web.app import DeskConfig, create_app
    from forcecheck.web.storage import StoreError

    problem = cannot_listen(host, port)
    if problem:
        raise StoreError(f"cannot listen on {host}:{port}: {problem}")
    token, generated = admin_token()
    app = create_app(DeskConfig(db_url=db or DEFAULT_DB, admin_token=token, catalog=catalog, format_dirs=format_dirs,
                                secure_cookies=secure_cookies))
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print(f"forcecheck registration desk on http://{shown}:{port}/  (database: {app.state.desk.store.describe()})", file=sys.stderr)
    print(f"organiser pages: http://{shown}:{port}/admin", file=sys.stderr)
    if generated:
        print(f"organiser token for this run (set {TOKEN_ENV} to choose one): {token}", file=sys.stderr)
    try:
        uvicorn.run(app, host=host, port=port, log_level=log_level, server_header=False, access_log=access_log)
    except SystemExit as done:  # uvicorn's exit 3: it could not start (its log above says why)
        if done.code not in (None, 0):
            raise StoreError(f"the desk could not start on {host}:{port} (see the lines above)") from None
        raise


def cannot_listen(host: str, port: int) -> str | None:
    """Why the desk could not listen on ``host``:``port`` (a name that does not resolve, an
    address in use or not this machine's), tried before anything is printed; None when it can.
    uvicorn would say so only after announcing the desk, and exit 3."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        return f"the address is not known ({getattr(exc, 'strerror', None) or exc})"
    family, kind, proto, _name, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind(address)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
