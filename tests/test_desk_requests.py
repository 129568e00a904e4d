"""What the desk answers to each request, whoever sends it (issue 31): the deadline against the
time a request arrived, each answer's own version, per-client limits (429), the database down
or full (503), player names that look alike or hide controls, logout, links never taken from
``Host``, security headers on every answer. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from desk_support import (  # noqa: F401 - fixtures
    ADMIN,
    BEARER,
    FARIA_ILLEGAL,
    FARIA_LEGAL,
    Clock,
    client,
    clock,
    db_url,
    make_app,
    new_event,
)


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def register(client, event_id, player="Ann", decklist=FARIA_LEGAL, **kwargs):
    response = client.post(f"/api/events/{event_id}/registrations", json={"player": player, "decklist": decklist}, **kwargs)
    assert response.status_code == 201, response.text
    return response.json()


def log_in(client) -> None:
    page = client.get("/admin/login")
    response = client.post("/admin/login", data={"csrf": csrf_of(page.text), "token": ADMIN, "next": "/admin"}, follow_redirects=False)
    assert response.status_code == 303


# -- 3. the deadline is compared with the time the request arrived ----------------------------------
def test_a_request_that_arrived_before_the_deadline_counts_though_the_desk_got_to_it_after(client, clock, monkeypatch):
    """300 players pressed Submit 0.3 s before the deadline and 274 were refused: the desk read
    its clock when it got to each request. Here every request waits 1 s inside the desk (as
    behind a queue of checks) before its event is looked up: it arrived in time, so it counts,
    and its version says when it arrived."""
    event = new_event(client, clock, hours=1)
    early = register(client, event["id"], "Early")
    clock.advance(hours=1, seconds=-0.3)  # 0.3 s before the deadline
    store = client.app.state.desk.store
    real_event = store.event

    def slow_event(event_id):
        clock.advance(seconds=1)  # the desk gets to the request 0.7 s after the deadline
        return real_event(event_id)

    monkeypatch.setattr(store, "event", slow_event)
    arrived = clock.now
    body = register(client, event["id"], "Bob")
    assert body["submitted_at"] == arrived.isoformat()
    clock.now = arrived
    again = client.put(f"/api/registrations/{early['id']}", json={"player": "Early", "decklist": FARIA_ILLEGAL, "edit_token": early["edit_token"]})
    assert again.status_code == 200 and again.json()["version"] == 2
    page = client.get(f"/e/{event['id']}")
    clock.now = arrived
    form = client.post(f"/e/{event['id']}", data={"csrf": csrf_of(page.text), "player": "Cleo", "decklist": FARIA_LEGAL, "action": "submit"},
                       follow_redirects=False)
    assert form.status_code == 303
    # one that arrives after the deadline is refused, however fast the desk is
    monkeypatch.setattr(store, "event", real_event)
    clock.now = arrived + timedelta(seconds=0.31)
    late = client.post(f"/api/events/{event['id']}/registrations", json={"player": "Late", "decklist": FARIA_LEGAL})
    assert late.status_code == 409
    listed = client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()
    assert sorted(r["player"] for r in listed) == ["Bob", "Cleo", "Early"]


# -- 7. each answer names its own version ------------------------------------------------------------
def test_a_resubmission_answers_with_the_version_it_stored(client, clock, monkeypatch):
    """Ten edits at once: two answers said version 11. The answer was read back after the
    commit, when another edit could already have landed; here one lands just then."""
    event = new_event(client, clock)
    first = register(client, event["id"])
    store = client.app.state.desk.store
    real = store.registration
    calls = []

    def another_edit_lands_first(registration_id):
        calls.append(registration_id)
        if len(calls) == 2:  # the first read checks the edit token; the second read back the answer
            from forcecheck.web.storage import NewVersion

            deck = client.app.state.desk.check(client.app.state.desk.event(event["id"]), FARIA_ILLEGAL)
            store.add_version(registration_id, NewVersion("Ann", "decklist.txt", FARIA_ILLEGAL, deck, []), clock.now, "player")
        return real(registration_id)

    monkeypatch.setattr(store, "registration", another_edit_lands_first)
    answer = client.put(f"/api/registrations/{first['id']}", json={"player": "Ann", "decklist": FARIA_ILLEGAL.replace("4 Gawain", "3 Gawain"),
                                                                    "edit_token": first["edit_token"]})
    assert answer.status_code == 200
    monkeypatch.setattr(store, "registration", real)
    versions = client.get(f"/api/registrations/{first['id']}", headers=BEARER).json()["versions"]
    mine = [v for v in versions if v["fingerprint"] == answer.json()["fingerprint"]]
    assert [v["version"] for v in mine] == [answer.json()["version"]]


def test_ten_concurrent_edits_answer_ten_distinct_versions(client, clock):
    event = new_event(client, clock)
    first = register(client, event["id"])
    answers = []

    def edit(n):
        response = client.put(f"/api/registrations/{first['id']}", json={"player": "Ann", "decklist": FARIA_LEGAL + f"\n# edit {n}\n",
                                                                          "edit_token": first["edit_token"]})
        answers.append(response.json()["version"])

    threads = [threading.Thread(target=edit, args=(n,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == list(range(2, 12))


# -- 2. a per-client limit on checks and submissions ---------------------------------------------------
def test_a_client_over_its_limit_gets_429_with_retry_after_and_others_do_not(db_url, clock):  # noqa: F811
    from fastapi.testclient import TestClient

    app = make_app(db_url, clock, client_limit=10)
    with TestClient(app, client=("198.51.100.7", 40000)) as greedy, TestClient(app, client=("198.51.100.8", 40000)) as other:
        event = new_event(greedy, clock)
        answers = [greedy.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}) for _ in range(12)]
        assert [a.status_code for a in answers[:10]] == [200] * 10
        refused = answers[10]
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.json() == {"detail": f"too many checks and submissions from your address: try again in {refused.headers['retry-after']} s"}
        assert greedy.post(f"/api/events/{event['id']}/registrations", json={"player": "Ann", "decklist": FARIA_LEGAL}).status_code == 429
        # a browser (the page's session cookie) has an allowance of its own, within its address's room bound
        page = greedy.get(f"/e/{event['id']}")
        post = {"csrf": csrf_of(page.text), "player": "Ann", "decklist": FARIA_LEGAL, "action": "check"}
        forms = [greedy.post(f"/e/{event['id']}", data=post) for _ in range(11)]
        assert [f.status_code for f in forms] == [200] * 10 + [429] and "retry-after" in forms[-1].headers
        assert "Too many checks and submissions from this browser" in forms[-1].text and "4 Gawain, the Knight of the Sun" in forms[-1].text  # the list is kept
        assert other.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}).status_code == 200
        # a large list costs more of the allowance than a small one
        clock.advance(minutes=2)
        big = FARIA_LEGAL + "# " + "x" * (200 * 1024) + "\n"
        costs = [other.post(f"/api/events/{event['id']}/check", json={"decklist": big}).status_code for _ in range(3)]
        assert costs[0] == 200 and 429 in costs
        # time refills the allowance
        clock.advance(minutes=2)
        assert greedy.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}).status_code == 200
        # reading is not limited
        assert all(greedy.get(f"/api/events/{event['id']}").status_code == 200 for _ in range(15))


def _browser(app, address: str):
    """A player's phone behind ``address``: its own cookies (the page's session), the venue's
    address. Not entered (``with``): the test's one outer client runs the app's lifespan."""
    from fastapi.testclient import TestClient

    return TestClient(app, client=(address, 40000))


def test_a_room_behind_one_address_is_served_and_a_flood_of_sessions_from_it_is_not(db_url, clock):  # noqa: F811
    """Issue 41: 200 players behind a venue's one address, each checking then submitting, then
    120 of them checking and resubmitting, with the default limits: no refusal. Sessions made up
    by one address past its room bound (20 x the browser's 60 a minute): refused."""
    app = make_app(db_url, clock)  # the defaults: 60 a browser, 1,200 an address
    venue = "203.0.113.50"
    with _browser(app, venue) as phones:
        event = new_event(phones, clock)
        url = f"/e/{event['id']}"
        statuses, registered = [], {}
        for i in range(200):  # one client, its cookies cleared for each player: 200 phones to the desk
            phones.cookies.clear()
            page = phones.get(url)
            form = {"csrf": csrf_of(page.text), "player": f"Player {i}", "decklist": FARIA_LEGAL}
            statuses.append(phones.post(url, data=form | {"action": "check"}).status_code)
            submitted = phones.post(url, data=form | {"action": "submit"}, follow_redirects=False)
            statuses.append(submitted.status_code)
            registered[i] = (submitted.headers.get("location"), dict(phones.cookies))
            clock.advance(seconds=0.6)  # 200 players over two minutes
        for i in range(120):  # the last 30 s: 120 of them check and resubmit from their receipt
            receipt, jar = registered[i]
            phones.cookies.clear()
            for name, value in jar.items():
                phones.cookies.set(name, value)
            page = phones.get(receipt)
            form = {"csrf": csrf_of(page.text), "player": f"Player {i}", "decklist": FARIA_LEGAL}
            statuses.append(phones.post(receipt, data=form | {"action": "check"}).status_code)
            statuses.append(phones.post(receipt, data=form | {"action": "submit"}, follow_redirects=False).status_code)
            clock.advance(seconds=0.25)
        assert 429 not in statuses and len(statuses) == 640 and set(statuses) <= {200, 303}, sorted(set(statuses))
        listed = phones.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()
        assert len(listed) == 200 and sum(r["version"] == 2 for r in listed) == 120
        # a flood: made-up sessions from one address, a new cookie each time, past the room bound
        bot = _browser(app, "198.51.100.66")
        flood = []
        for i in range(1300):
            bot.cookies.set("fc_csrf", f"made-up-{i}")
            flood.append(bot.post(f"/api/events/{event['id']}/check", json={"decklist": "1 Faria"}).status_code)
        assert flood.count(200) in range(1200, 1205) and flood[-1] == 429, (flood.count(200), flood[-5:])
        assert bot.post(f"/api/events/{event['id']}/check", json={"decklist": "1 Faria"}).json()["detail"].startswith(
            "too many checks and submissions from your network's address: try again in ")


def test_a_live_check_while_typing_never_spends_the_submits_allowance(db_url, clock):  # noqa: F811
    app = make_app(db_url, clock, client_limit=5)
    with _browser(app, "203.0.113.51") as phone:
        event = new_event(phone, clock)
        page = phone.get(f"/e/{event['id']}")
        live = [phone.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}, headers={"X-Desk-Live": "1"}).status_code
                for _ in range(8)]
        assert live == [200] * 5 + [429] * 3  # typing has its own allowance; running out of it only skips a live check
        form = {"csrf": csrf_of(page.text), "player": "Ann", "decklist": FARIA_LEGAL, "action": "submit"}
        assert phone.post(f"/e/{event['id']}", data=form, follow_redirects=False).status_code == 303
        # without the header the same checks spend the browser's own allowance (5), and the Submit finds it spent
        spent = [phone.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}).status_code for _ in range(5)]
        assert spent == [200] * 4 + [429]


def test_refusals_are_spread_and_counted_on_the_organisers_page(db_url, clock):  # noqa: F811
    app = make_app(db_url, clock, client_limit=3)
    with _browser(app, "203.0.113.52") as organiser:
        event = new_event(organiser, clock)
        waits = []
        for i in range(30):  # 30 clients refused at once do not all come back in the same second
            client = _browser(app, f"10.0.0.{i}")
            answers = [client.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}) for _ in range(4)]
            assert [a.status_code for a in answers] == [200, 200, 200, 429]
            waits.append(int(answers[-1].headers["retry-after"]))
        assert min(waits) >= 1 and len(set(waits)) >= 2, waits
        login = organiser.get("/admin/login")
        organiser.post("/admin/login", data={"csrf": csrf_of(login.text), "token": ADMIN, "next": "/admin"}, follow_redirects=False)
        shown = organiser.get(f"/admin/events/{event['id']}").text
        assert "Requests the desk refused in the last 10 minutes" in shown and "30 too many (429), 0 busy (503)" in shown
        clock.advance(minutes=11)
        assert "Requests the desk refused" not in organiser.get(f"/admin/events/{event['id']}").text


def test_past_the_work_a_process_holds_a_check_is_busy_with_a_spread_wait(db_url, clock, monkeypatch):  # noqa: F811
    from forcecheck.web import deps

    app = make_app(db_url, clock)
    with _browser(app, "203.0.113.53") as client:
        event = new_event(client, clock)
        assert client.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}).status_code == 200
        assert deps.IN_FLIGHT == [0]  # each check gives its place back
        monkeypatch.setattr(deps, "MAX_IN_FLIGHT", 0)
        busy = [client.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}) for _ in range(12)]
        assert {b.status_code for b in busy} == {503} and len({b.headers["retry-after"] for b in busy}) >= 2
        assert busy[0].json()["detail"] == f"the desk is busy with other lists just now; nothing was done: try again in {busy[0].headers['retry-after']} s"
        page = client.get(f"/e/{event['id']}")
        form = client.post(f"/e/{event['id']}", data={"csrf": csrf_of(page.text), "player": "Ann", "decklist": FARIA_LEGAL, "action": "submit"})
        assert form.status_code == 503 and "The desk is busy with other players" in form.text and "Gawain" in form.text
        assert client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json() == []


# -- 5. the database down or full -----------------------------------------------------------------------
UNAVAILABLE = "the desk cannot reach or write its database just now; nothing was saved: try again in a moment"


def test_a_database_that_cannot_be_written_is_503_and_nothing_is_half_stored(client, clock, db_url):  # noqa: F811
    """The database refuses every write (a full disk, a server going away mid-transaction):
    503 with Retry-After, {"detail"} on the API and a page for people; nothing of the refused
    submission is stored; the next request after the fault is served without a restart."""
    import sqlalchemy as sa

    event = new_event(client, clock)
    register(client, event["id"], "Ann")
    engine = client.app.state.desk.store.engine
    failing = {"on": True}

    @sa.event.listens_for(engine, "before_cursor_execute")
    def disk_full(conn, cursor, statement, parameters, context, executemany):
        if failing["on"] and statement.lstrip().upper().startswith("INSERT INTO AUDIT_LOG"):
            raise sa.exc.OperationalError(statement, parameters, Exception("database or disk is full"))

    try:
        api = client.post(f"/api/events/{event['id']}/registrations", json={"player": "Bob", "decklist": FARIA_LEGAL})
        assert api.status_code == 503 and int(api.headers["retry-after"]) >= 1
        assert api.json() == {"detail": UNAVAILABLE}
        page = client.get(f"/e/{event['id']}")
        form = client.post(f"/e/{event['id']}", data={"csrf": csrf_of(page.text), "player": "Bob", "decklist": FARIA_LEGAL, "action": "submit"})
        assert form.status_code == 503 and form.headers["content-type"].startswith("text/html") and "retry-after" in form.headers
        assert "nothing was saved" in form.text and "Traceback" not in form.text
    finally:
        failing["on"] = False
        sa.event.remove(engine, "before_cursor_execute", disk_full)
    listed = client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()
    assert [r["player"] for r in listed] == ["Ann"]
    engine2 = sa.create_engine(__import__("forcecheck.web.storage", fromlist=["engine_url"]).engine_url(db_url))
    with engine2.connect() as conn:
        counts = [conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one() for t in ("registrations", "registration_versions")]
    engine2.dispose()
    assert counts == [1, 1]
    assert client.post(f"/api/events/{event['id']}/registrations", json={"player": "Bob", "decklist": FARIA_LEGAL}).status_code == 201


def test_a_postgresql_server_that_goes_away_is_503_and_the_desk_recovers(clock):
    """The database server stops taking connections and ends the desk's: 503, then served
    again once it is back, with no restart of the desk."""
    import psycopg
    from desk_support import POSTGRES_SKIP, _fresh_postgres, postgres_url
    from fastapi.testclient import TestClient

    url = postgres_url()
    if url is None:
        pytest.skip(POSTGRES_SKIP)
    fresh, drop = _fresh_postgres(url)
    name = fresh.rsplit("/", 1)[1]
    admin = url.replace("postgresql+psycopg://", "postgresql://")
    try:
        with TestClient(make_app(fresh, clock)) as client:
            event = new_event(client, clock)
            register(client, event["id"], "Ann")
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
            down = client.post(f"/api/events/{event['id']}/registrations", json={"player": "Bob", "decklist": FARIA_LEGAL})
            assert down.status_code == 503 and down.headers["retry-after"]
            assert down.json() == {"detail": UNAVAILABLE}
            page = client.get(f"/e/{event['id']}")
            assert page.status_code == 503 and "<h1>" in page.text and "try again" in page.text
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            assert client.post(f"/api/events/{event['id']}/registrations", json={"player": "Bob", "decklist": FARIA_LEGAL}).status_code == 201
            listed = client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()
            assert sorted(r["player"] for r in listed) == ["Ann", "Bob"]
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        drop()


# -- 6. player names ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("lookalike", [
    "\u0410na",        # Cyrillic capital A
    "A\u200bna",       # zero-width space
    "An\u00ada",       # soft hyphen
    "\ufeffAna",       # byte order mark
    "\uff21\uff2e\uff21",  # fullwidth ANA
    "ana",
])
def test_lookalike_names_are_flagged_as_the_same_player(client, clock, lookalike):
    event = new_event(client, clock)
    register(client, event["id"], "Ana")
    register(client, event["id"], lookalike, FARIA_ILLEGAL)
    register(client, event["id"], "Anna")
    listed = client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()
    flags = {r["player"]: r["duplicate_player"] for r in listed}
    assert flags == {"Ana": True, lookalike: True, "Anna": False}  # stored as typed, flagged as one player


@pytest.mark.parametrize("name, shown", [
    ("Ana\u202eevil", "U+202E RIGHT-TO-LEFT OVERRIDE (a bidirectional override)"),
    ("Ana\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING (a bidirectional override)"),
    ("\u2067Ana\u2069", "U+2067 RIGHT-TO-LEFT ISOLATE (a bidirectional isolate)"),
    ("Ana\u2028Bob", "U+2028 LINE SEPARATOR (a line separator)"),
    ("Ana\u2029", "U+2029 PARAGRAPH SEPARATOR (a line separator)"),
    ("Ana\u0085", "U+0085 (a control character)"),
    ("Ana\x07", "U+0007 (a control character)"),
    ("Ana\x9b", "U+009B (a control character)"),
])
def test_names_hiding_controls_or_direction_changes_are_refused_naming_the_character(client, clock, name, shown):
    event = new_event(client, clock)
    response = client.post(f"/api/events/{event['id']}/registrations", json={"player": name, "decklist": FARIA_LEGAL})
    assert response.status_code == 422
    assert response.json() == {"detail": f"the player name contains {shown}: type the name as plain text"}
    page = client.get(f"/e/{event['id']}")
    form = client.post(f"/e/{event['id']}", data={"csrf": csrf_of(page.text), "player": name, "decklist": FARIA_LEGAL, "action": "submit"})
    assert form.status_code == 422 and shown.replace("(", "").split(" ")[0] in form.text
    assert client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json() == []
    bad_event = client.post("/api/events", headers=BEARER, json={"name": name, "format": "bifrost", "date": "2026-12-05",
                                                                 "deadline": "2031-01-01T10:00"})
    assert bad_event.status_code == 422 and bad_event.json()["detail"] == f"the event name contains {shown}: type the name as plain text"


# -- 8. logout ends the session ----------------------------------------------------------------------------
def test_logging_out_ends_the_session_on_the_server(client, clock):
    log_in(client)
    copied = client.cookies.get("fc_organiser")
    home = client.get("/admin")
    assert home.status_code == 200
    out = client.post("/admin/logout", data={"csrf": csrf_of(home.text)}, follow_redirects=False)
    assert out.status_code == 303
    client.cookies.clear()
    client.cookies.set("fc_organiser", copied)  # a copy of the cookie taken before the logout
    assert client.get("/admin", follow_redirects=False).status_code == 303
    assert client.get("/api/events/x/registrations").status_code == 401
    log_in(client)  # a new login works
    assert client.get("/admin", follow_redirects=False).status_code == 200


def test_a_session_ends_after_its_day_and_when_the_organiser_token_changes(db_url, clock):  # noqa: F811
    from fastapi.testclient import TestClient

    with TestClient(make_app(db_url, clock)) as client:
        log_in(client)
        cookie = client.cookies.get("fc_organiser")
        assert client.get("/admin", follow_redirects=False).status_code == 200
        clock.advance(hours=12, seconds=1)
        assert client.get("/admin", follow_redirects=False).status_code == 303
        clock.advance(hours=-12, seconds=-1)
    from forcecheck.web.app import DeskConfig, create_app

    with TestClient(create_app(DeskConfig(db_url=db_url, admin_token="another-token", clock=clock))) as other:
        other.cookies.set("fc_organiser", cookie)
        assert other.get("/admin", follow_redirects=False).status_code == 303


# -- 9. links never come from Host ---------------------------------------------------------------------------
def test_links_are_relative_and_never_built_from_the_host_header(client, clock):
    evil = {"Host": "evil.example"}
    created = client.post("/api/events", headers=BEARER | evil, json={"name": "Cup", "format": "bifrost", "date": "2026-12-05",
                                                                       "deadline": "2031-01-01T10:00"})
    assert created.status_code == 201 and created.json()["url"] == f"/e/{created.json()['id']}"
    log_in(client)
    page = client.get(f"/admin/events/{created.json()['id']}", headers=evil)
    assert "evil.example" not in page.text
    assert re.search(r'<a class="share" href="/e/[^"]+">', page.text)


def test_public_url_builds_every_link(db_url, clock):  # noqa: F811
    from fastapi.testclient import TestClient

    with TestClient(make_app(db_url, clock, public_url="https://desk.example.org/cup/")) as client:
        created = client.post("/api/events", headers=BEARER | {"Host": "evil.example"}, json={
            "name": "Cup", "format": "bifrost", "date": "2026-12-05", "deadline": "2031-01-01T10:00"}).json()
        assert created["url"] == f"https://desk.example.org/cup/e/{created['id']}"
        page = client.get(f"/e/{created['id']}")
        links = re.findall(r'(?:href|src|action|data-check-url)="([^"]+)"', page.text)
        assert links and all(link.startswith("https://desk.example.org/cup/") for link in links), links
        log_in_page = client.get("/admin", follow_redirects=False)
        assert log_in_page.headers["location"].startswith("https://desk.example.org/cup/admin/login?next=")


# -- 10. security headers on every answer -----------------------------------------------------------------------
def _assert_security_headers(response, hsts: bool) -> None:
    headers = response.headers
    assert "default-src 'self'" in headers.get("content-security-policy", ""), (response.status_code, dict(headers))
    assert headers.get("x-content-type-options") == "nosniff" and headers.get("x-frame-options") == "DENY"
    assert headers.get("referrer-policy") == "no-referrer"
    assert ("strict-transport-security" in headers) is hsts
    if hsts:
        assert headers["strict-transport-security"] == "max-age=63072000"


@pytest.mark.parametrize("secure", [False, True])
def test_every_answer_carries_the_security_headers(db_url, clock, secure):  # noqa: F811
    from fastapi.testclient import TestClient

    with TestClient(make_app(db_url, clock, secure_cookies=secure, client_limit=2)) as client:
        event = new_event(client, clock)
        answers = [
            client.get("/"),
            client.get("/static/desk.css"),
            client.get("/static/nothing.css"),
            client.get("/no/such/page"),
            client.get("/api/events/nope"),
            client.post(f"/api/events/{event['id']}/registrations", content="x" * (2 * 1024 * 1024 + 1),
                        headers={"content-type": "application/json"}),
            client.post(f"/api/events/{event['id']}/registrations", content="{}",
                        headers={"content-type": "application/json", "content-length": "nope"}),
            client.post("/api/events", json={}),
        ]
        answers += [client.post(f"/api/events/{event['id']}/check", json={"decklist": FARIA_LEGAL}) for _ in range(3)]
        assert {a.status_code for a in answers} >= {200, 404, 413, 429}
        for answer in answers:
            _assert_security_headers(answer, secure)
