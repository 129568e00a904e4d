"""`forcecheck serve`: the command is there, its errors are one line, and the rest of the CLI
does not load the web stack."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("fastapi", reason='needs the web extra: pip install -e ".[test,web-test]"')

STRONG = "organiser-token-for-the-serve-tests-7Hq2"
"""An organiser token the desk accepts (a guessable one stops it: test at the end)."""


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
    result = forcecheck("serve", "--db", url, "--port", "1", env={"FORCECHECK_ADMIN_TOKEN": STRONG})
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
    env = dict(os.environ, FORCECHECK_ADMIN_TOKEN=STRONG, FORCECHECK_CACHE_DIR=str(tmp_path / "cache"))
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


def test_serve_where_it_cannot_listen_says_so_before_announcing_the_desk(tmp_path):
    """A port in use, a host name that does not resolve: one line, exit 2, before the desk's
    address and token are printed (uvicorn would announce the desk, then exit 3)."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = forcecheck("serve", "--db", str(tmp_path / "desk.sqlite3"), "--port", str(port), env={"FORCECHECK_ADMIN_TOKEN": STRONG})
    assert result.returncode == 2 and result.stderr.startswith(f"forcecheck: error: cannot listen on 127.0.0.1:{port}: ")
    assert len(result.stderr.strip().splitlines()) == 1 and "registration desk on" not in result.stderr
    result = forcecheck("serve", "--db", str(tmp_path / "desk.sqlite3"), "--host", "no-such-host.invalid", "--port", "8000",
                        env={"FORCECHECK_ADMIN_TOKEN": STRONG})
    assert result.returncode == 2 and result.stderr.startswith("forcecheck: error: cannot listen on no-such-host.invalid:8000: the address is not known")


def test_serve_never_writes_into_a_database_that_is_not_the_desks(tmp_path):
    """A card catalog (or any SQLite file with other tables) named as the desk's database is
    refused and left as it was; a file that is no database is one line."""
    import sqlite3

    other = tmp_path / "cards.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE cards (id INTEGER PRIMARY KEY, facts TEXT)")
    before = other.read_bytes()
    result = forcecheck("serve", "--db", str(other), "--port", "1", env={"FORCECHECK_ADMIN_TOKEN": STRONG})
    assert result.returncode == 2 and "is not a registration desk database (it holds other tables: cards)" in result.stderr
    assert other.read_bytes() == before
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    result = forcecheck("serve", "--db", str(text), "--port", "1", env={"FORCECHECK_ADMIN_TOKEN": STRONG})
    assert result.returncode == 2 and result.stderr.startswith(f"forcecheck: error: cannot open the database sqlite:///{text}: ")
    assert "internal error" not in result.stderr


def test_tables_an_extension_puts_in_every_database_are_not_another_applications():
    """A new PostgreSQL database with PostGIS installed holds ``spatial_ref_sys``: still empty
    for the desk. A table of anything else is another application's."""
    from forcecheck.web.storage import StoreError, _refuse_foreign_tables

    _refuse_foreign_tables(["spatial_ref_sys"], "postgresql://x/desk")
    _refuse_foreign_tables(["alembic_version", "events", "spatial_ref_sys"], "postgresql://x/desk")
    with pytest.raises(StoreError, match="is not a registration desk database"):
        _refuse_foreign_tables(["spatial_ref_sys", "cards"], "postgresql://x/desk")



@pytest.mark.parametrize("token, why", [
    ("admin", "it has 5 characters (at least 16)"),
    ("1", "it has 1 character (at least 16)"),
    ("aaaaaaaaaaaaaaaaaaaaaaaa", "it repeats 1 different character (at least 6)"),
])
def test_a_guessable_organiser_token_stops_the_desk_before_it_serves(tmp_path, token, why):
    """Issue 41: FORCECHECK_ADMIN_TOKEN=admin started the desk without a word."""
    db = tmp_path / "desk.sqlite3"
    result = forcecheck("serve", "--db", str(db), "--port", str(_free_port()), env={"FORCECHECK_ADMIN_TOKEN": token})
    assert result.returncode == 2
    assert result.stderr.strip() == (f"forcecheck: error: FORCECHECK_ADMIN_TOKEN is guessable: {why}; set a long random one "
                                     "(python3 -c 'import secrets; print(secrets.token_urlsafe(24))'), leave it unset for one made "
                                     "for this run, or start with --allow-weak-token to accept it")
    assert not db.exists()  # refused before the database is made


def test_a_strong_token_or_the_flag_passes_the_door():
    from forcecheck.web.server import weak_token

    assert weak_token(STRONG) is None and weak_token("Kq3-vX9_pL2mN8rT") is None  # 16 characters, 16 different
    assert weak_token("abcabcabcabcabcabc") == "it repeats 3 different characters (at least 6)"
    help_text = forcecheck("serve", "--help", env={"COLUMNS": "200"}).stdout
    assert "--allow-weak-token" in help_text
