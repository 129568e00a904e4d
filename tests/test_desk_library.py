"""One library behind every front door (issue 31): the desk checks through the same Session as
`forcecheck check` (configuration, environment and flags), the web layer decides each question
once, and the schema is written once (Alembic's metadata is the storage's, with no drift)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from desk_support import BEARER, ROOT, SAMPLES, Clock, db_url, make_app, new_event  # noqa: F401 - fixture

WEB = ROOT / "forcecheck" / "web"
SHORT = (SAMPLES / "bifrost" / "illegal-39-main-cards.txt").read_text(encoding="utf-8")
"""A Bifrost list one card short of its Main Deck: FC101 section-size, its only finding."""


def _cli_json(cwd: Path, *args: str) -> dict:
    result = subprocess.run([sys.executable, "-m", "forcecheck", "check", *args, "-o", "json"], capture_output=True, text=True,
                            cwd=cwd, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    return json.loads(result.stdout)["decks"][0]


def test_the_desk_applies_the_projects_configuration_as_check_does(tmp_path, db_url):  # noqa: F811
    """`ignore: [FC101]` in .forcecheck.yaml: `forcecheck check` called the deck legal and the
    desk illegal. Both now give the same deck object (the desk checks through the Session that
    `serve` builds from flags, environment and configuration)."""
    from fastapi.testclient import TestClient

    from forcecheck.api import Checker
    from forcecheck.session import Session

    (tmp_path / ".forcecheck.yaml").write_text("ignore: [FC101]\n", encoding="utf-8")
    (tmp_path / "decklist.txt").write_text(SHORT, encoding="utf-8")
    cli = _cli_json(tmp_path, "decklist.txt", "-f", "bifrost", "--as-of", "2026-12-05")
    assert cli["legal"] is True and cli["violations"] == []
    session = Session.from_options({}, cwd=tmp_path, config_file=tmp_path / ".forcecheck.yaml")
    clock = Clock()
    with TestClient(make_app(db_url, clock, checker=Checker(session))) as client:
        event = new_event(client, clock, date="2026-12-05")
        checked = client.post(f"/api/events/{event['id']}/check", json={"decklist": SHORT}).json()
        registered = client.post(f"/api/events/{event['id']}/registrations", json={"player": "Ann", "decklist": SHORT}).json()
    assert checked == cli
    assert registered["legal"] is True and registered["violations"] == [] and registered["fingerprint"] == cli["fingerprint"]
    # without the configuration, both call it illegal, with the same finding
    plain = _cli_json(tmp_path.parent, str(tmp_path / "decklist.txt"), "-f", "bifrost", "--as-of", "2026-12-05")
    assert [v["code"] for v in plain["violations"]] == ["FC101"]
    assert [v["code"] for v in Checker().check_text(SHORT, "bifrost", "2026-12-05")["violations"]] == ["FC101"]


def test_serve_builds_the_desks_session_from_flags_environment_and_configuration(tmp_path):
    """`forcecheck serve` in a folder whose .forcecheck.yaml ignores FC101, with FORCECHECK_SELECT
    from the environment: the desk's check answers as `check` does there."""
    import httpx2

    from forcecheck.web.testing import DeskProcess

    (tmp_path / ".forcecheck.yaml").write_text("ignore: [FC101]\n", encoding="utf-8")
    (tmp_path / "decklist.txt").write_text(SHORT, encoding="utf-8")
    cli = _cli_json(tmp_path, "decklist.txt", "-f", "bifrost", "--as-of", "2026-12-05")
    token = "library-test-organiser-token-9Kq"  # a guessable one ("t" * 30) stops the desk: tests/test_serve_cli.py
    with DeskProcess(str(tmp_path / "desk.sqlite3"), token, cwd=str(tmp_path), args=["--workers", "1"],
                     env={"PYTHONPATH": str(ROOT)}) as desk:
        event = httpx2.post(desk.url + "/api/events", headers={"Authorization": "Bearer " + token}, timeout=30, json={
            "name": "Cup", "format": "bifrost", "date": "2026-12-05", "deadline": "2031-01-01T00:00:00+00:00"}).json()
        checked = httpx2.post(f"{desk.url}/api/events/{event['id']}/check", json={"decklist": SHORT}, timeout=30).json()
    assert checked == cli and checked["legal"] is True


# -- the web layer decides each question once -----------------------------------------------------------
def _imports(path: Path) -> set[str]:
    """Every forcecheck.web module a module imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("forcecheck.web"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("forcecheck.web")}
    return found


def test_no_import_cycle_in_the_web_package():
    graph = {f"forcecheck.web.{p.stem}": _imports(p) for p in WEB.glob("*.py") if p.stem != "__init__"}

    def reaches(start: str, goal: str, seen: set) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    cycles = [m for m in graph if reaches(m, m, {m})]
    assert cycles == [], {m: sorted(graph[m]) for m in cycles}


def _source(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


def test_one_organiser_guard_one_csrf_check_one_cookie_name_one_json_or_page_decision():
    sources = {p.name: p.read_text(encoding="utf-8") for p in WEB.glob("*.py")}
    assert [n for n, s in sources.items() if "session_ok(" in s and "def session_ok" not in s] == ["deps.py"]
    assert [n for n, s in sources.items() if "csrf.ok(" in s or "csrf_ok(" in s] == ["deps.py"]
    assert [n for n, s in sources.items() if '"fc_organiser"' in s] == ["security.py"]
    assert [n for n, s in sources.items() if 'startswith("/api' in s] == ["deps.py"]
    for name in ("routes_api.py", "routes_pages.py"):
        assert "def require_organiser" not in sources[name] and "def _organiser" not in sources[name]


@pytest.mark.parametrize("path, wants_json", [("/api/events", True), ("/api", True), ("/apiary", False), ("/e/x", False), ("/", False)])
def test_json_or_page_is_decided_in_one_place(path, wants_json):
    from forcecheck.web.deps import wants_json as decide

    assert decide({"type": "http", "path": path}) is wants_json


# -- the schema is written once -------------------------------------------------------------------------
def test_the_migrations_build_exactly_the_storages_tables(db_url):  # noqa: F811
    """Alembic's target_metadata is the storage's metadata; after every migration, comparing
    the database with the models finds nothing to change (`alembic check`, through the desk's
    own env.py, on SQLite and PostgreSQL)."""
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from forcecheck.web.storage import Store, alembic_config, metadata

    store = Store(db_url)
    store.migrate()
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        config = alembic_config()
        config.attributes["connection"] = conn
        command.check(config)  # raises when env.py has no metadata or finds any difference
    store.close()
