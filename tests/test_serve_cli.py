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
