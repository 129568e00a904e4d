"""The organiser's door (issue 41): 500 wrong organiser tokens at 277/s and 300 wrong logins at
169/s were all answered 401 at once, for ever. Now, per client address and overall, a wait that
grows, then a lock-out (429 with Retry-After and the desk's own sentence), the right token still
let in from another address, and the audit log holding each wait and lock-out without the token
tried. In process (SQLite and PostgreSQL) and against a real server with two workers."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from desk_support import ADMIN, BEARER, Clock, clock, db_url, make_app  # noqa: F401 - fixtures

from forcecheck.web import door

NEEDS_TOKEN = "this call needs the organiser token: Authorization: Bearer <FORCECHECK_ADMIN_TOKEN>"
WAIT = "too many wrong organiser tokens from your address: try again in {s} s"
LOCKED = "too many wrong organiser tokens from your address: it is locked out of the organiser's calls for {m} min; try again in {s} s"
PAGE_WAIT = "Too many wrong organiser tokens from your address: wait {s} s and try again."
PAGE_LOCKED = ("Too many wrong organiser tokens from your address: it is locked out for {m} minutes (try again in {s} s). "
               "The organiser can still log in from another network.")
PAGE_LOCKED_JA = "このアドレスからは 15 分間ログインできません(900 秒後に再度お試しください)。主催者は別のネットワークからならログインできます。"
EVENT = {"name": "Cup", "format": "bifrost", "date": "2026-12-05", "deadline": "2031-01-01T00:00:00+00:00"}


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def guess(i: int) -> str:
    return f"guessed-Zq7-{i:03d}-organiser"


def _from(app, address: str):
    """A client at ``address`` (not entered: the test's outer client runs the app's lifespan)."""
    from fastapi.testclient import TestClient

    return TestClient(app, client=(address, 40000))


def _create(client, token: str):
    return client.post("/api/events", json=EVENT, headers={"Authorization": f"Bearer {token}"})


def _alert(html: str) -> str:
    return re.search(r'role="alert">([^<]*)<', html).group(1).replace("&#39;", "'")


def test_wrong_tokens_wait_then_lock_the_address_out_and_the_right_token_still_works_from_another(db_url, clock, caplog):  # noqa: F811
    app = make_app(db_url, clock)
    with _from(app, "198.51.100.7") as attacker:
        answers = [_create(attacker, guess(i)) for i in range(door.FREE_FAILURES)]
        assert [a.status_code for a in answers] == [401] * 5 and all(a.json()["detail"] == NEEDS_TOKEN for a in answers)
        waited = _create(attacker, guess(5))  # the 6th: a wait of 1 s
        assert waited.status_code == 429 and waited.headers["retry-after"] == "1"
        assert waited.json() == {"detail": WAIT.format(s=1)}
        clock.advance(seconds=1)
        doubled = _create(attacker, guess(6))  # waited, looked at, wrong: the wait doubles
        assert doubled.status_code == 429 and doubled.json() == {"detail": WAIT.format(s=2)}
        # tries that do not wait are not looked at (the right token too) and count as wrong ones
        impatient = [_create(attacker, guess(7)), _create(attacker, ADMIN)]
        assert [a.status_code for a in impatient] == [429, 429] and impatient[1].json() == {"detail": WAIT.format(s=2)}
        locked = _create(attacker, guess(9))  # the 10th
        assert locked.status_code == 429 and locked.headers["retry-after"] == "900"
        assert locked.json() == {"detail": LOCKED.format(m=15, s=900)}
        clock.advance(seconds=100)
        still = attacker.get("/api/events/x/registrations", headers=BEARER)  # the right token from the locked address: not looked at
        assert still.status_code == 429 and still.json() == {"detail": LOCKED.format(m=14, s=800)} and still.headers["retry-after"] == "800"
        # the organiser, from another address, is let in; that does not reset the attacker's lock-out
        organiser = _from(app, "203.0.113.20")
        assert _create(organiser, ADMIN).status_code == 201
        assert _create(attacker, guess(10)).json() == {"detail": LOCKED.format(m=14, s=800)}
        # after the lock-out the next wrong token locks the address again at once, for twice as long
        clock.advance(seconds=801)
        again = _create(attacker, guess(11))
        assert again.status_code == 429 and again.headers["retry-after"] == "1800" and again.json() == {"detail": LOCKED.format(m=30, s=1800)}
        # once that is over, the right token from the address is let in and clears its count
        clock.advance(seconds=1801)
        assert _create(attacker, ADMIN).status_code == 201
        assert _create(attacker, guess(12)).json() == {"detail": NEEDS_TOKEN}
        audit = app.state.desk.store.audit()
    door_entries = [a for a in audit if a.action.startswith("organiser.") and a.actor == "desk"]
    assert [(a.action, a.detail["address"], a.detail["failures"], a.detail["via"]) for a in door_entries] == [
        ("organiser.backoff", "198.51.100.7", 6, "api"), ("organiser.lockout", "198.51.100.7", 10, "api"),
        ("organiser.lockout", "198.51.100.7", 11, "api")]
    assert [a.detail.get("lockouts") for a in door_entries] == [None, 1, 2] and door_entries[2].detail["seconds"] == 1800
    everything = json.dumps([[a.actor, a.action, a.detail] for a in audit]) + caplog.text
    assert "organiser door: lockout address=198.51.100.7" in caplog.text
    assert "guessed-Zq7" not in everything and ADMIN not in everything


def test_a_right_token_clears_only_its_own_addresses_count(db_url, clock):  # noqa: F811
    app = make_app(db_url, clock)
    with _from(app, "198.51.100.30") as one:
        assert [_create(one, guess(i)).status_code for i in range(3)] == [401] * 3
        other = _from(app, "198.51.100.31")
        assert _create(other, guess(50)).status_code == 401
        assert _create(other, ADMIN).status_code == 201  # its own count cleared...
        assert [_create(one, guess(i)).status_code for i in range(3, 6)] == [401, 401, 429]  # ...not the other's
        assert [_create(other, guess(i)).status_code for i in range(51, 56)] == [401] * 5


def test_logins_on_the_page_wait_then_lock_out_in_english_and_japanese(db_url, clock):  # noqa: F811
    app = make_app(db_url, clock)
    with _from(app, "198.51.100.40") as browser:
        csrf = csrf_of(browser.get("/admin/login").text)

        def log_in(token: str, lang: str = "en"):
            return browser.post(f"/admin/login?lang={lang}", data={"csrf": csrf, "token": token, "next": "/admin"}, follow_redirects=False)

        wrong = [log_in(guess(i)) for i in range(5)]
        assert [w.status_code for w in wrong] == [401] * 5 and _alert(wrong[-1].text) == "That is not the organiser token."
        waited = log_in(guess(5))
        assert waited.status_code == 429 and waited.headers["retry-after"] == "1" and _alert(waited.text) == PAGE_WAIT.format(s=1)
        assert 'name="token"' in waited.text  # the form is there again
        assert log_in("").status_code == 401  # an empty form is no try
        statuses = [log_in(guess(i)).status_code for i in range(6, 10)]
        assert statuses == [429] * 4
        locked = log_in(ADMIN)
        assert locked.status_code == 429 and locked.headers["retry-after"] == "900" and _alert(locked.text) == PAGE_LOCKED.format(m=15, s=900)
        japanese = log_in(guess(10), "ja")
        assert japanese.status_code == 429 and PAGE_LOCKED_JA in _alert(japanese.text)
        assert browser.get("/admin", follow_redirects=False).status_code == 303  # no session was opened
        # the organiser's browser on another network logs in
        organiser = _from(app, "203.0.113.41")
        right = organiser.post("/admin/login", data={"csrf": csrf_of(organiser.get("/admin/login").text), "token": ADMIN, "next": "/admin"},
                               follow_redirects=False)
        assert right.status_code == 303 and organiser.get("/admin").status_code == 200
        # the page's form and the Bearer header are one door: the locked address is locked for both
        assert _create(browser, ADMIN).status_code == 429
        audit = app.state.desk.store.audit()
    door_entries = [(a.action, a.detail["address"], a.detail["via"]) for a in audit if a.actor == "desk"]
    assert door_entries == [("organiser.backoff", "198.51.100.40", "login"), ("organiser.lockout", "198.51.100.40", "login")]
    assert "guessed-Zq7" not in json.dumps([a.detail for a in audit])


def test_overall_many_addresses_each_lock_at_their_first_wrong_token_and_the_organiser_still_gets_in(db_url, clock):  # noqa: F811
    app = make_app(db_url, clock)
    with _from(app, "203.0.113.1") as first:
        statuses = []
        for n in range(door.OVERALL_ALARM // door.FREE_FAILURES):  # 10 addresses x 5 free wrong tokens: 50 overall
            client = first if n == 0 else _from(app, f"198.18.0.{n}")
            statuses += [_create(client, guess(n * 10 + i)).status_code for i in range(door.FREE_FAILURES)]
        assert statuses == [401] * 50
        fresh = _create(_from(app, "198.18.1.1"), guess(900))  # past the alarm: a new address's first wrong token locks it
        assert fresh.status_code == 429 and fresh.json() == {"detail": LOCKED.format(m=15, s=900)}
        # the door never shuts for everyone: the right token from an address not locked out is let in
        assert _create(_from(app, "198.18.1.2"), ADMIN).status_code == 201
        assert _create(first, ADMIN).status_code == 201  # five wrong tokens of its own, not locked
        audit = app.state.desk.store.audit()
    alarms = [a for a in audit if a.action == "organiser.alarm"]
    assert len(alarms) == 1 and alarms[0].detail["overall_failures"] == 51 and alarms[0].detail["threshold"] == door.OVERALL_ALARM
    locks = [a.detail for a in audit if a.action == "organiser.lockout"]
    assert locks == [{"address": "198.18.1.1", "failures": 1, "lockouts": 1, "seconds": 900, "overall_failures": 51,
                      "overall_alarm": True, "via": "api"}]


def test_other_schemes_are_no_try_and_an_ipv6_block_is_one_address(db_url, clock):  # noqa: F811
    app = make_app(db_url, clock)
    with _from(app, "198.51.100.60") as proxy:  # a proxy's own Basic login in front of the desk is not a guess
        assert {proxy.post("/api/events", json=EVENT, headers={"Authorization": f"Basic {guess(i)}"}).status_code for i in range(20)} == {401}
        assert _create(proxy, ADMIN).status_code == 201
        statuses = [_create(_from(app, f"2001:db8:5:7::{i + 1:x}"), guess(i)).status_code for i in range(7)]
        assert statuses == [401] * 5 + [429] * 2  # new addresses in one /64 are one client
        assert _create(_from(app, "2001:db8:5:8::1"), guess(99)).status_code == 401  # the next /64 is another
        audit = app.state.desk.store.audit()
    [backoff] = [a.detail for a in audit if a.action == "organiser.backoff"]
    assert backoff["address"] == "2001:db8:5:7::6" and backoff["counted_as"] == "2001:db8:5:7::/64"


def test_the_door_shared_by_worker_processes_and_told_apart_per_proxied_address(tmp_path):
    """A real `forcecheck serve` with two workers (the door's table shared by both), clients named
    by a proxy on this machine (X-Forwarded-For, trusted from 127.0.0.1): tokens on the API, then
    logins on the page; the guessed tokens are in neither the audit log nor the server's log."""
    httpx2 = pytest.importorskip("httpx2", reason='needs the web-test extra: pip install -e ".[test,web-test]"')
    from forcecheck.web.testing import DeskProcess

    log = tmp_path / "desk.log"
    database = tmp_path / "desk.sqlite3"
    with DeskProcess(str(database), ADMIN, log_path=str(log), args=["--workers", "2"]) as desk:
        def create(address: str, token: str):  # a new connection each time: the two processes share them
            return httpx2.post(desk.url + "/api/events", json=EVENT, timeout=30,
                               headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": address})

        answers = [create("203.0.113.7", guess(i)) for i in range(12)]
        assert [a.status_code for a in answers] == [401] * 5 + [429] * 7, [a.status_code for a in answers]
        assert answers[5].json() == {"detail": WAIT.format(s=1)}
        assert answers[-1].json() == {"detail": LOCKED.format(m=15, s=answers[-1].headers["retry-after"])}
        assert int(answers[-1].headers["retry-after"]) in range(898, 901)
        assert create("203.0.113.8", ADMIN).status_code == 201  # another address: let in
        assert create("203.0.113.7", ADMIN).status_code == 429
        with httpx2.Client(base_url=desk.url, timeout=30, headers={"X-Forwarded-For": "203.0.113.9"}) as browser:
            csrf = csrf_of(browser.get("/admin/login").text)
            pages = [browser.post("/admin/login", data={"csrf": csrf, "token": guess(100 + i), "next": "/admin"}) for i in range(12)]
            assert [p.status_code for p in pages] == [401] * 5 + [429] * 7
            assert _alert(pages[-1].text) == PAGE_LOCKED.format(m=15, s=pages[-1].headers["retry-after"])
        with httpx2.Client(base_url=desk.url, timeout=30, headers={"X-Forwarded-For": "203.0.113.10"}) as organiser:
            csrf = csrf_of(organiser.get("/admin/login").text)
            assert organiser.post("/admin/login", data={"csrf": csrf, "token": ADMIN, "next": "/admin"}, follow_redirects=False).status_code == 303
            assert "/admin/logout" in organiser.get("/admin").text
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT actor, action, detail FROM audit_log ORDER BY id").fetchall()
    door_rows = [(action, json.loads(detail)["address"], json.loads(detail)["via"]) for actor, action, detail in rows if actor == "desk"]
    assert door_rows == [("organiser.backoff", "203.0.113.7", "api"), ("organiser.lockout", "203.0.113.7", "api"),
                         ("organiser.backoff", "203.0.113.9", "login"), ("organiser.lockout", "203.0.113.9", "login")]
    written = log.read_text(encoding="utf-8", errors="replace")
    assert "organiser door: lockout address=203.0.113.7" in written and "organiser door: lockout address=203.0.113.9" in written
    assert "guessed-Zq7" not in written + json.dumps(rows) and ADMIN not in written + json.dumps(rows)
