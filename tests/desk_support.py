"""Fixtures of the registration desk's tests: a database of each kind, the app, a live server.

PostgreSQL tests run when FORCECHECK_TEST_POSTGRES_URL names a database whose role may create
databases (each test gets a fresh one, dropped after); .ci/run starts Debian's PostgreSQL and sets
it. Browser tests use Debian's Chromium (FORCECHECK_TEST_CHROMIUM, default /usr/bin/chromium;
``none`` skips them). Without either, those tests skip and say why.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

for _module in ("fastapi", "sqlalchemy", "alembic", "jinja2", "multipart", "uvicorn"):
    pytest.importorskip(_module, reason='the registration desk needs the web extra: pip install -e ".[test,web-test]"')

from forcecheck.web.app import DeskConfig, create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_decks"
ARTIFACTS = Path(os.environ.get("FORCECHECK_TEST_ARTIFACTS", ROOT / "tests" / "artifacts"))
ADMIN = "organiser-test-token-" + "x" * 20
BEARER = {"Authorization": f"Bearer {ADMIN}"}
POSTGRES_ENV = "FORCECHECK_TEST_POSTGRES_URL"
CHROMIUM_ENV = "FORCECHECK_TEST_CHROMIUM"
POSTGRES_SKIP = (f"PostgreSQL tests need a server (Debian/Ubuntu: apt install postgresql) and {POSTGRES_ENV}, a postgresql:// "
                 "URL whose role may create databases; .ci/run installs, starts and sets both")

FARIA_ILLEGAL = (SAMPLES / "bifrost" / "illegal-unknown-card-name.txt").read_text(encoding="utf-8").replace(
    "4 Perceval, the Seeker of Holy Grail", "4 Perceval, the Seeker of Holy Grial")
"""A Bifrost list with an unknown card on line 8 ('Gawain, the Knight of the Moon': an error) and a
typo on line 9 that forcecheck reads as the card it clearly means (a correction, a warning)."""
FARIA_LEGAL = FARIA_ILLEGAL.replace("Knight of the Moon", "Knight of the Sun").replace("Holy Grial", "Holy Grail")


class Clock:
    """The server's clock in tests: starts now, moved by hand past a deadline."""

    def __init__(self):
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs) -> None:
        self.now += timedelta(**kwargs)


def postgres_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


def _fresh_postgres(url: str):
    """A new empty database next to the one ``url`` names; returns (its URL, dropper)."""
    from forcecheck.web.testing import fresh_postgres

    return fresh_postgres(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty desk database: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "desk.sqlite3")
        return
    url = postgres_url()
    if url is None:
        pytest.skip(POSTGRES_SKIP)
    fresh, drop = _fresh_postgres(url)
    try:
        yield fresh
    finally:
        drop()


def make_app(db_url: str, clock: Clock | None = None, **kwargs):
    return create_app(DeskConfig(db_url=db_url, admin_token=ADMIN, clock=clock, **kwargs))


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(db_url, clock):
    from fastapi.testclient import TestClient

    app = make_app(db_url, clock)
    with TestClient(app) as test_client:
        yield test_client


def new_event(client, clock: Clock | None = None, name="Store Championship", fmt="bifrost", date="2026-12-05", hours=24) -> dict:
    now = clock.now if clock else datetime.now(UTC)
    response = client.post("/api/events", json={"name": name, "format": fmt, "date": date,
                                                "deadline": (now + timedelta(hours=hours)).isoformat()}, headers=BEARER)
    assert response.status_code == 201, response.text
    return response.json()


def chromium_path() -> str | None:
    given = os.environ.get(CHROMIUM_ENV)
    if given == "none":
        return None
    if given:
        return given if Path(given).exists() else None
    return shutil.which("chromium") or (str(Path("/usr/bin/chromium")) if Path("/usr/bin/chromium").exists() else None)


CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """The desk served by uvicorn in a thread of the test process, on a free loopback port."""

    def __init__(self, app):
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the desk did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
