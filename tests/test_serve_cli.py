"""`forcecheck serve`: the command is there, its errors are one line, and the rest of the CLI
does not load the web stack."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("fastapi", reason='needs the web extra: pip install -e ".[test,web-test]"')


def forcecheck(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "forcecheck", *args], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, **(env or {})))


def test_the_cli_does_not_import_the_web_stack():
    code = ("import sys, forcecheck.cli; "
            "print(sorted(m for m in ('fastapi', 'starlette', 'sqlalchemy', 'uvicorn', 'jinja2', 'alembic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_serve_help_names_the_token_variable():
    result = forcecheck("serve", "--help")
    assert result.returncode == 0
    assert "FORCECHECK_ADMIN_TOKEN" in result.stdout and "--db" in result.stdout and "postgresql://" in result.stdout


@pytest.mark.parametrize("url, message", [
    ("mysql://x@localhost/db", "forcecheck: error: database 'mysql' is not supported: use a SQLite file or a postgresql:// URL"),
    ("postgresql://nobody:x@127.0.0.1:1/none", "forcecheck: error: cannot open the database postgresql+psycopg://nobody:***@127.0.0.1:1/none: "),
])
def test_serve_with_an_unusable_database_says_so_in_one_line(url, message):
    result = forcecheck("serve", "--db", url, "--port", "1", env={"FORCECHECK_ADMIN_TOKEN": "t"})
    assert result.returncode == 2
    assert result.stderr.startswith(message) and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_with_standard_output_closed_logs_no_requests_and_says_so(tmp_path):
    """``forcecheck serve >&-``: uvicorn writes its access log to stdout; closed, each request
    would print a logging traceback. The desk serves, logs no requests and says so once."""
    import os
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, FORCECHECK_ADMIN_TOKEN="t", FORCECHECK_CACHE_DIR=str(tmp_path / "cache"))
    server = subprocess.Popen([sys.executable, "-m", "forcecheck", "serve", "--db", str(tmp_path / "desk.sqlite3"), "--port", str(port)],
                              stderr=subprocess.PIPE, text=True, env=env, preexec_fn=lambda: os.close(1))
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the desk did not start"
                time.sleep(0.2)
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert "forcecheck serve: standard output is closed, so requests are not logged" in err
    assert "Traceback" not in err and "Logging error" not in err and "GET / " not in err
