"""Running the desk: ``forcecheck serve`` calls :func:`serve` (uvicorn).

**Several server processes, not check processes.** ``--workers N`` (default: the machine's cores)
starts N copies of the whole desk on one listening socket and one database, uvicorn's
supervisor restarting any that dies. Measured before choosing: a check is ~1 ms of the ~8 ms a
submission costs the server; the rest (HTTP, JSON, the framework, pages, the database's round
trips) is Python too, so moving only checks into worker processes would leave one process doing
most of the work, while whole desks scale with cores. It is also the shape of a large event's
desks on several machines (stateless apart from the database), tested the same way. Inside each
process checks run on two threads (``desk.Desk``: large lists on their own lane), the event
loop stays free for connections, and the per-client allowance is one table shared by the
processes (``limits``).

**Stalled connections and floods.** The HTTP protocol is uvicorn's h11 one with a request
timeout (:class:`DeskH11Protocol`): a connection that has not sent a whole request (headers and
body) within ``--request-timeout`` seconds of its first byte is closed (a stalled body is told
408). When the process runs out of file descriptors, the event loop's accept errors are counted
and reported in one line a minute (:func:`count_refused_connections`), not a traceback each;
every log line passes a rate limit (:class:`FloodGate`) that says how many it held back. The
soft open-file limit is raised to the hard one at start.
"""

from __future__ import annotations

import json
import os
import secrets
import sys

from forcecheck.web.floods import logging_config

DEFAULT_DB = "forcecheck-desk.sqlite3"
"""The desk's SQLite file, in the folder the desk is started from (next to the event's files)."""
DEFAULT_REQUEST_TIMEOUT = 20.0
TOKEN_ENV = "FORCECHECK_ADMIN_TOKEN"
WORKER_ENV = "FORCECHECK_DESK_WORKER"
"""How the serving process hands its settings to the worker processes it starts (JSON)."""


MIN_TOKEN_LENGTH = 16
MIN_TOKEN_DISTINCT = 6


def weak_token(token: str) -> str | None:
    """Why an organiser token is guessable (``admin``, ``1``, ``aaaaaaaaaaaaaaaaaaaa``), or None:
    shorter than 16 characters, or fewer than 6 different characters in it."""
    if len(token) < MIN_TOKEN_LENGTH:
        return f"it has {len(token)} character{'s' if len(token) != 1 else ''} (at least {MIN_TOKEN_LENGTH})"
    if len(set(token)) < MIN_TOKEN_DISTINCT:
        return f"it repeats {len(set(token))} different character{'s' if len(set(token)) != 1 else ''} (at least {MIN_TOKEN_DISTINCT})"
    return None


def admin_token(allow_weak: bool = False) -> tuple[str, bool]:
    """(token, generated): FORCECHECK_ADMIN_TOKEN, or a fresh random token for this run. A guessable
    one stops the desk before it serves (issue 41: ``admin`` started it without a word), unless
    ``allow_weak`` (``--allow-weak-token``) says the organiser means it."""
    given = os.environ.get(TOKEN_ENV, "").strip()
    if given:
        why = weak_token(given)
        if why and not allow_weak:
            from forcecheck.web.storage import StoreError

            raise StoreError(f"{TOKEN_ENV} is guessable: {why}; set a long random one (python3 -c 'import secrets; "
                             "print(secrets.token_urlsafe(24))'), leave it unset for one made for this run, or start with "
                             "--allow-weak-token to accept it")
        return given, False
    return secrets.token_urlsafe(24), True


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def serve(db: str | None, host: str, port: int, session_options: dict, secure_cookies: bool = False, log_level: str = "info",
          access_log: bool = True, workers: int | None = None, request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
          client_limit: int | None = None, address_limit: int | None = None, public_url: str | None = None, forwarded_allow_ips: str | None = None,
          allow_weak_token: bool = False) -> None:
    """Open (and migrate) the database, check the settings, then serve in ``workers`` processes.
    ``session_options`` are ``cli.runtime.session_from``'s keywords (the desk's Session)."""
    import tempfile

    import uvicorn

    from forcecheck.web.app import DEFAULT_CLIENT_LIMIT
    from forcecheck.web.storage import Store, StoreError

    problem = cannot_listen(host, port)
    if problem:
        raise StoreError(f"cannot listen on {host}:{port}: {problem}")
    raise_open_file_limit()
    workers = workers or default_workers()
    token, generated = admin_token(allow_weak_token)
    os.environ[TOKEN_ENV] = token  # the worker processes read it as this process did
    store = Store(db or DEFAULT_DB)
    store.migrate()
    shown_db = store.describe()
    store.close()
    build_session(session_options)  # a configuration that cannot be used stops here, in one line
    limits_dir = tempfile.mkdtemp(prefix="forcecheck-desk-")
    settings = {"db": db or DEFAULT_DB, "session": session_options, "secure_cookies": secure_cookies, "public_url": public_url,
                "client_limit": DEFAULT_CLIENT_LIMIT if client_limit is None else client_limit, "address_limit": address_limit,
                "limits_path": os.path.join(limits_dir, "clients") if workers > 1 else None,
                "door_path": os.path.join(limits_dir, "door") if workers > 1 else None}
    if settings["limits_path"]:
        from forcecheck.web.door import Door
        from forcecheck.web.limits import ClientLimits

        ClientLimits.create_shared(settings["limits_path"])
        Door.create_shared(settings["door_path"])
    os.environ[WORKER_ENV] = json.dumps(settings)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print(f"forcecheck registration desk on http://{shown}:{port}/  (database: {shown_db}; {workers} worker process"
          f"{'es' if workers != 1 else ''})", file=sys.stderr)
    print(f"organiser pages: http://{shown}:{port}/admin", file=sys.stderr)
    if generated:
        print(f"organiser token for this run (set {TOKEN_ENV} to choose one): {token}", file=sys.stderr)
    config = uvicorn.Config("forcecheck.web.server:worker_app", factory=True, host=host, port=port, workers=workers,
                            http=DeskH11Protocol, log_level=log_level, server_header=False, access_log=access_log,
                            log_config=logging_config(), timeout_graceful_shutdown=10,
                            **({"forwarded_allow_ips": forwarded_allow_ips} if forwarded_allow_ips else {}))
    config.desk_request_timeout = request_timeout  # read by DeskH11Protocol, in every worker (the config is pickled)
    try:
        server = uvicorn.Server(config)
        if workers == 1:
            server.run()
        else:
            import inspect

            from uvicorn.supervisors import Multiprocess

            sock = config.bind_socket()
            older = "target" in inspect.signature(Multiprocess).parameters  # uvicorn before 0.36 named the target
            Multiprocess(config, target=server.run, sockets=[sock]).run() if older else Multiprocess(config, sockets=[sock]).run()
    except SystemExit as done:  # uvicorn's exit 3: it could not start (its log above says why)
        if done.code not in (None, 0):
            raise StoreError(f"the desk could not start on {host}:{port} (see the lines above)") from None
        raise
    finally:
        import shutil

        shutil.rmtree(limits_dir, ignore_errors=True)


def build_session(options: dict):
    """The desk's Session, as ``check`` resolves its settings (flags, environment, configuration)."""
    from pathlib import Path

    from forcecheck.cli.runtime import session_from

    return session_from(config_file=Path(options["config_file"]) if options.get("config_file") else None,
                        catalog=Path(options["catalog"]) if options.get("catalog") else None,
                        formats_dir=[Path(d) for d in options.get("formats_dir") or []] or None)


def worker_app():
    """The application of one worker process, from the settings the serving process left in
    the environment (uvicorn calls this in each process it starts)."""
    from forcecheck.api import Checker
    from forcecheck.web.app import DeskConfig, create_app

    settings = json.loads(os.environ[WORKER_ENV])
    raise_open_file_limit()
    checker = Checker(build_session(settings["session"]))
    return create_app(DeskConfig(db_url=settings["db"], admin_token=os.environ[TOKEN_ENV], checker=checker,
                                 secure_cookies=settings["secure_cookies"], public_url=settings["public_url"],
                                 client_limit=settings["client_limit"], address_limit=settings.get("address_limit"),
                                 limits_path=settings["limits_path"], door_path=settings.get("door_path")))


def raise_open_file_limit() -> None:
    """Soft open-file limit up to the hard one (1,024 is a common soft default; every open
    connection takes a file)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not permitted: keep the limit there is
        pass


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


# -- the HTTP protocol with a request timeout -----------------------------------------------------
def _protocol_base():
    from uvicorn.protocols.http.h11_impl import H11Protocol

    return H11Protocol


class DeskH11Protocol(_protocol_base()):
    """uvicorn's h11 protocol, which waits for ever for a request's headers and body, with a
    deadline: ``--request-timeout`` seconds from a connection's opening (or from the first byte
    of its next request) to the request read whole. Past it the connection is closed; a request
    whose body stalled is answered 408 first. Idle keep-alive connections are closed by
    uvicorn's own keep-alive timeout."""

    def __init__(self, config, server_state, app_state, _loop=None):
        super().__init__(config, server_state, app_state, _loop)
        self.request_timeout = getattr(config, "desk_request_timeout", DEFAULT_REQUEST_TIMEOUT)
        self._request_timer = None
        self._between_requests = False

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._between_requests:
            self._between_requests = False
            self._arm()
        super().data_received(data)

    def on_response_complete(self) -> None:
        self._disarm()
        self._between_requests = True
        super().on_response_complete()

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        from forcecheck.web.middleware import SECURITY_HEADERS

        self._write_refusal(400, msg.encode("ascii", "replace"), b"text/plain; charset=utf-8", SECURITY_HEADERS)

    def _arm(self) -> None:
        self._disarm()
        if self.request_timeout and self.request_timeout > 0:
            self._request_timer = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _too_slow(self) -> None:
        import h11

        self._request_timer = None
        if self.transport.is_closing() or self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            return  # the request is read whole: the application has it
        if self.conn.their_state is h11.SEND_BODY and self.conn.our_state is h11.SEND_RESPONSE and not (
                self.cycle and self.cycle.response_started):
            self._answer_408()
        self.transport.close()

    def _answer_408(self) -> None:
        from forcecheck.web.deps import wants_json
        from forcecheck.web.middleware import SECURITY_HEADERS

        text = f"the request was not sent whole within {self.request_timeout:g} s"
        if self.scope is not None and wants_json(self.scope):
            body, kind = json.dumps({"detail": text}).encode(), b"application/json"
        else:
            body, kind = f"<!doctype html><meta charset=utf-8><title>408</title><p>{text}.</p>".encode(), b"text/html; charset=utf-8"
        if self.cycle is not None:
            self.cycle.response_started = True  # the application, still waiting for the body, writes nothing more
        self._write_refusal(408, body, kind, SECURITY_HEADERS)

    def _write_refusal(self, status: int, body: bytes, kind: bytes, headers) -> None:
        import h11

        try:
            out = self.conn.send(h11.Response(status_code=status, headers=[
                (b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close"), *headers]))
            out += self.conn.send(h11.Data(data=body)) + self.conn.send(h11.EndOfMessage())
            self.transport.write(out)
        except h11.LocalProtocolError:
            pass
        self.transport.close()
