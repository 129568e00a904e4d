"""Killing the desk mid-submission loses nothing it acknowledged, on SQLite and PostgreSQL.

Four clients submit registrations to a desk in a child process (``forcecheck serve``); after 40
acknowledgements the process is killed with SIGKILL, while requests are in flight. Every
acknowledged registration must be in the database with the fingerprint the client was given,
and no registration may be there without its list (each is one transaction).
"""

from __future__ import annotations

import threading
import time

import pytest
from desk_support import ADMIN, BEARER, FARIA_ILLEGAL, FARIA_LEGAL, db_url  # noqa: F401 - fixture

httpx2 = pytest.importorskip("httpx2", reason='needs the web-test extra: pip install -e ".[test,web-test]"')

from forcecheck.web.testing import DeskProcess  # noqa: E402


def test_kill_mid_submission_loses_nothing_acknowledged(db_url, tmp_path):  # noqa: F811
    import sqlalchemy as sa

    from forcecheck.web.storage import Store, engine_url

    desk = DeskProcess(db_url, ADMIN, log_path=str(tmp_path / "desk.log")).start()
    try:
        event = httpx2.post(desk.url + "/api/events", headers=BEARER, timeout=10,
                            json={"name": "Kill test", "format": "bifrost", "date": "2026-12-05", "deadline": "2031-01-01T00:00:00+00:00"}).json()
        acknowledged: dict[str, tuple[str, str]] = {}
        lock = threading.Lock()
        stop = threading.Event()

        def client(number: int) -> None:
            with httpx2.Client(base_url=desk.url, timeout=5) as http:
                for i in range(200):  # bounded: stops by itself even if the kill never came
                    if stop.is_set():
                        return
                    player = f"player {number}-{i}"
                    try:
                        response = http.post(f"/api/events/{event['id']}/registrations",
                                             json={"player": player, "decklist": FARIA_LEGAL if i % 2 else FARIA_ILLEGAL})
                    except httpx2.HTTPError:
                        return  # the desk is gone: this one was never acknowledged
                    if response.status_code == 201:
                        body = response.json()
                        with lock:
                            acknowledged[body["id"]] = (player, body["fingerprint"])

        threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        give_up = time.monotonic() + 60
        while len(acknowledged) < 40 and time.monotonic() < give_up:
            time.sleep(0.01)
        desk.kill()
        stop.set()
        for t in threads:
            t.join(30)
        assert len(acknowledged) >= 40
    finally:
        desk.stop()

    store = Store(db_url)
    stored = {r.id: (r.player, r.latest.fingerprint) for r in store.registrations(event["id"])}
    store.close()
    for registration_id, expected in acknowledged.items():
        assert stored.get(registration_id) == expected
    engine = sa.create_engine(engine_url(db_url))
    with engine.connect() as conn:
        registrations = conn.execute(sa.text("SELECT count(*) FROM registrations")).scalar_one()
        versions = conn.execute(sa.text("SELECT count(*) FROM registration_versions")).scalar_one()
        created = conn.execute(sa.text("SELECT count(*) FROM audit_log WHERE action = 'registration.create'")).scalar_one()
    engine.dispose()
    assert registrations == versions == created == len(stored) >= len(acknowledged)

    # the desk starts again on the same database and serves what it had
    with DeskProcess(db_url, ADMIN, log_path=str(tmp_path / "desk2.log")) as again:
        listed = httpx2.get(f"{again.url}/api/events/{event['id']}/registrations", headers=BEARER, timeout=10).json()
        assert {r["id"] for r in listed} == set(stored)
