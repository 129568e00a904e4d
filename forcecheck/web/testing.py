"""A desk in a child process, for the fault tests and the load benchmark: started with
``python -m forcecheck serve`` as an organiser would, on a free loopback port, and killed or
stopped by its process id (never by name); and a fresh PostgreSQL database for each."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DeskProcess:
    def __init__(self, db_url: str, admin_token: str, port: int | None = None, log_path: str | None = None,
                 args: tuple[str, ...] | list[str] = (), open_files: int | None = None, cwd: str | None = None,
                 env: dict[str, str] | None = None):
        self.db_url = db_url
        self.admin_token = admin_token
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or os.devnull
        self.args = list(args)
        """More ``forcecheck serve`` options (``--workers 2``, ``--request-timeout 2``)."""
        self.open_files = open_files
        """The process's open-file limit (soft and hard), as a service manager would set it."""
        self.cwd = cwd
        self.env = env or {}
        self.process: subprocess.Popen | None = None

    def _limits(self) -> None:  # in the child, before it runs forcecheck
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def start(self, timeout: float = 30.0) -> DeskProcess:
        env = dict(os.environ, FORCECHECK_ADMIN_TOKEN=self.admin_token, **self.env)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "forcecheck", "serve", "--db", self.db_url, "--host", "127.0.0.1", "--port", str(self.port),
             *self.args],
            env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL, cwd=self.cwd,
            preexec_fn=self._limits if self.open_files else None, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the desk exited with {self.process.returncode} (log: {self.log_path})")
            try:
                with urllib.request.urlopen(self.url + "/api/formats", timeout=1) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the desk did not answer within {timeout:.0f} s (log: {self.log_path})")

    def kill(self) -> None:
        """SIGKILL to the desk and its worker processes (its own process group, started here):
        no shutdown code runs, as when the machine dies."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process:
            try:  # a worker left behind by a desk that died
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def __enter__(self) -> DeskProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def fresh_postgres(url: str):
    """A new empty database next to the one ``url`` names (its role may create databases);
    returns (its URL, a function that drops it)."""
    import secrets as _secrets

    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(url.replace("postgresql+psycopg://", "postgresql://"))
    name = "fc_test_" + _secrets.token_hex(6)
    admin_dsn = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        """Drop it, waiting out the server's own workers: FORCE may not end an autovacuum
        worker that started on the fresh database (it belongs to another role), so a drop
        that meets one is tried again a moment later, as the worker finishes."""
        for attempt in range(40):
            try:
                with psycopg.connect(admin_dsn, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
                if attempt == 39:
                    raise
                time.sleep(0.25)

    return base.set(database=name).render_as_string(hide_password=False), drop
