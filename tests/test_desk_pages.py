"""The desk's pages without JavaScript (plain form posts), the storage layer, and the façade."""

from __future__ import annotations

import re
import threading

from desk_support import (  # noqa: F401 - fixtures
    BEARER,
    FARIA_ILLEGAL,
    FARIA_LEGAL,
    SAMPLES,
    client,
    clock,
    db_url,
    new_event,
)

from forcecheck.api import Checker


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def test_player_pages_check_submit_reopen_and_resubmit(client, clock):
    event = new_event(client, clock)
    page = client.get(f"/e/{event['id']}")
    token = csrf_of(page.text)
    checked = client.post(f"/e/{event['id']}", data={"csrf": token, "player": "Ann", "decklist": FARIA_ILLEGAL, "action": "check"})
    assert checked.status_code == 200 and "Not legal: 1 problem, 1 warning." in checked.text
    row = re.search(r'<tr id="line-8".*?</tr>', checked.text, re.S).group(0)
    assert "unknown card &#39;Gawain, the Knight of the Moon&#39;" in row and "has-error" in row
    row = re.search(r'<tr id="line-9".*?</tr>', checked.text, re.S).group(0)
    # the correction is said once, by its finding; the line is marked as an assumption, not an error
    assert row.count("Perceval, the Seeker of Holy Grail") == 1 and 'class="correction"' not in row
    assert "read &#39;Perceval, the Seeker of Holy Grial&#39; as &#39;Perceval, the Seeker of Holy Grail&#39;" in row
    assert "has-warning" in row and "has-error" not in row
    assert client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json() == []  # a check stores nothing

    # upload a file through the form: it wins over the text box
    submitted = client.post(f"/e/{event['id']}", data={"csrf": token, "player": "Ann", "decklist": "", "action": "submit"},
                            files={"file": ("faria.txt", FARIA_LEGAL.encode(), "text/plain")}, follow_redirects=False)
    assert submitted.status_code == 303
    receipt_path = submitted.headers["location"]
    registration_id = receipt_path.rsplit("/", 1)[1]
    receipt = client.get(receipt_path)
    fingerprint = Checker().fingerprint_text(FARIA_LEGAL, "bifrost")
    assert f'<code class="fingerprint">{fingerprint}</code>' in receipt.text and "Legal in bifrost." in receipt.text
    code = re.search(r'<code class="token">([^<]+)</code>', receipt.text).group(1)

    # another browser (no cookie) needs the edit code; a wrong one is refused
    client.cookies.clear()
    assert "Edit code (on your receipt)" in client.get(receipt_path).text
    csrf = csrf_of(client.get(receipt_path).text)
    wrong = client.post(f"{receipt_path}/code", data={"csrf": csrf, "code": "nope"})
    assert wrong.status_code == 403 and "That edit code does not open this registration." in wrong.text
    opened = client.post(f"{receipt_path}/code", data={"csrf": csrf, "code": code})
    assert opened.status_code == 200 and fingerprint in opened.text

    again = client.post(receipt_path, data={"csrf": csrf, "player": "Ann", "decklist": FARIA_ILLEGAL, "action": "submit"})
    assert again.status_code == 200 and "Version 2" in again.text and "NOT legal" in again.text
    versions = client.get(f"/api/registrations/{registration_id}", headers=BEARER).json()["versions"]
    assert [(v["version"], v["legal"]) for v in versions] == [(1, True), (2, False)]

    clock.advance(days=2)
    locked = client.post(receipt_path, data={"csrf": csrf, "player": "Ann", "decklist": FARIA_LEGAL, "action": "submit"})
    assert locked.status_code == 409 and "the list is locked" in locked.text


def test_bad_names_are_refused_on_the_page(client, clock):
    event = new_event(client, clock)
    token = csrf_of(client.get(f"/e/{event['id']}").text)
    response = client.post(f"/e/{event['id']}", data={"csrf": token, "player": "   ", "decklist": FARIA_LEGAL, "action": "submit"})
    assert response.status_code == 422 and "the player name is empty" in response.text
    response = client.post(f"/e/{event['id']}", data={"csrf": token, "player": "x" * 201, "decklist": FARIA_LEGAL, "action": "submit"})
    assert response.status_code == 422 and "the player name is 201 characters long; at most 200" in response.text


def test_organiser_creates_an_event_from_the_page(client):
    login = client.get("/admin/login")
    from desk_support import ADMIN

    client.post("/admin/login", data={"csrf": csrf_of(login.text), "token": ADMIN, "next": "/admin"})
    home = client.get("/admin")
    response = client.post("/admin/events", data={"csrf": csrf_of(home.text), "name": "Cup", "format": "abc",
                                                   "date": "2026-12-05", "deadline": "2031-01-01T10:00"}, follow_redirects=False)
    assert response.status_code == 303
    event_page = client.get(response.headers["location"])
    assert "Force of Will - ABC" in event_page.text and "No registrations yet." in event_page.text
    bad = client.post("/admin/events", data={"csrf": csrf_of(home.text), "name": "Cup", "format": "abc", "date": "soon", "deadline": "2031-01-01T10:00"})
    assert bad.status_code == 422 and "date &#39;soon&#39; is not a date (YYYY-MM-DD)" in bad.text and 'value="Cup"' in bad.text


def test_migrations_run_once_and_record_their_version(db_url):
    import sqlalchemy as sa

    from forcecheck.web.storage import Store, engine_url

    store = Store(db_url)
    store.migrate()
    store.migrate()  # a second start changes nothing
    engine = sa.create_engine(engine_url(db_url))
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == "0004"
        if engine.dialect.name == "sqlite":
            assert conn.execute(sa.text("PRAGMA journal_mode")).scalar_one() == "wal"
    engine.dispose()
    store.close()


def test_concurrent_resubmissions_get_distinct_versions(client, clock):
    event = new_event(client, clock)
    first = client.post(f"/api/events/{event['id']}/registrations", json={"player": "Ann", "decklist": FARIA_ILLEGAL}).json()
    statuses = []

    def resubmit():
        response = client.put(f"/api/registrations/{first['id']}", json={"player": "Ann", "decklist": FARIA_LEGAL, "edit_token": first["edit_token"]})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=resubmit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * 8
    versions = client.get(f"/api/registrations/{first['id']}", headers=BEARER).json()["versions"]
    assert [v["version"] for v in versions] == list(range(1, 10))


def test_facade_gives_the_cli_json_deck_object():
    """api.check_text gives the JSON deck of `forcecheck check -o json`, field for field."""
    import json

    from typer.testing import CliRunner

    from forcecheck.cli import app

    path = SAMPLES / "bifrost" / "illegal-five-copies-main-and-side.txt"
    cli = json.loads(CliRunner().invoke(app, ["check", str(path), "-f", "bifrost", "-o", "json"]).stdout)["decks"][0]
    mine = Checker().check_text(path.read_text(encoding="utf-8"), "bifrost", filename=str(path))
    assert mine == cli
    assert mine["sections"] == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10, "side": 7}
    assert mine["ruler"] is not None


def test_facade_unreadable_text_is_the_decks_error():
    deck = Checker().check_text("\n\n", "bifrost", filename="mine.txt")
    assert deck["legal"] is False and deck["error"] == "mine.txt: empty decklist: no sections and no cards" and deck["violations"] == []


def test_facade_refuses_oversized_text_and_unknown_uploads():
    import pytest

    from forcecheck.api import DecklistTooLarge
    from forcecheck.errors import InputFileError

    with pytest.raises(DecklistTooLarge, match=r"over the 1,048,576-byte limit"):
        Checker().check_text("x" * (1024 * 1024 + 1), "bifrost")
    with pytest.raises(InputFileError, match=r"^deck.pdf: not a decklist file \(.pdf\)"):
        Checker.decode_upload(b"%PDF", "deck.pdf")
    with pytest.raises(InputFileError, match=r"^deck.txt:1: not valid UTF-8 \(byte 0x83\); it looks like Shift_JIS"):
        Checker.decode_upload("デッキ".encode("shift_jis"), "deck.txt")


def test_a_correction_is_shown_on_its_line_once():
    """A name read as another card: the name-corrected finding says it; where that finding is
    ignored (a configuration's ``ignore: [FC012]``), the page still shows what was assumed."""
    from forcecheck.web.desk import annotate

    correction = {"line": 2, "written": "Perceval, the Seeker of Holy Grial", "read_as": "Perceval, the Seeker of Holy Grail"}
    finding = {"line": 2, "code": "FC012", "rule": "name-corrected", "severity": "warning",
               "message": "read 'Perceval, the Seeker of Holy Grial' as 'Perceval, the Seeker of Holy Grail' (typo)"}
    text = "Main Deck:\n4 Perceval, the Seeker of Holy Grial\n"
    said = annotate(text, {"violations": [finding], "corrections": [correction]})
    assert said.lines[1].findings == [finding] and said.lines[1].corrections == []
    assert said.lines[1].worst == "warning" and said.lines[0].worst is None
    ignored = annotate(text, {"violations": [], "corrections": [correction]})
    assert ignored.lines[1].corrections == [correction] and ignored.lines[1].worst is None
    error = {"line": 2, "code": "FC001", "rule": "unknown-card", "severity": "error", "message": "unknown card"}
    assert annotate(text, {"violations": [error], "corrections": [correction]}).lines[1].corrections == [correction]
    # the finding is matched by its rule, never by its wording: one finding says one correction
    other = {"line": 2, "written": "Gwain", "read_as": "Gawain"}
    reworded = dict(finding, message="spelling assumed")
    two = annotate(text, {"violations": [reworded], "corrections": [correction, other]})
    assert two.lines[1].corrections == [other]
    assert annotate(text, {"violations": [finding, error], "corrections": [correction]}).lines[1].worst == "error"


def test_sqlite_group_commit_keeps_each_submission_apart(tmp_path):
    """Submissions that arrive while a commit is under way are committed together; one that
    fails (a registration id already taken) is refused alone, the others are stored, and each
    caller hears of its own write only."""
    import sqlalchemy as sa

    from forcecheck.web.storage import Event, NewVersion, Store, registrations, utc_now

    store = Store(str(tmp_path / "desk.sqlite3"))
    store.migrate()
    now = utc_now()
    store.create_event(Event("ev", "Cup", "bifrost", "2026-12-05", now, None, now), actor="organiser")
    deck = Checker().check_text(FARIA_LEGAL, "bifrost", "2026-12-05")
    new = NewVersion("Ann", "decklist.txt", FARIA_LEGAL, deck, [])
    store.add_registration("ev", "taken", "0" * 64, new, now, "player")
    inside, release = threading.Event(), threading.Event()
    real_insert = store._group._commit
    sizes = []

    def slow_first(batch):
        sizes.append(len(batch))
        if len(sizes) == 1:
            inside.set()
            release.wait(10)
        return real_insert(batch)

    store._group._commit = slow_first
    answers: dict[str, object] = {}

    def submit(registration_id):
        try:
            answers[registration_id] = store.add_registration("ev", registration_id, "0" * 64, new, now, "player").id
        except Exception as exc:  # noqa: BLE001 - the test looks at what each caller got
            answers[registration_id] = type(exc).__name__

    first = threading.Thread(target=submit, args=("first",))
    first.start()
    assert inside.wait(10)
    others = [threading.Thread(target=submit, args=(rid,)) for rid in ("second", "taken", "third")]
    for t in others:
        t.start()
    import time

    time.sleep(0.3)  # the three queue behind the commit under way
    release.set()
    for t in [first, *others]:
        t.join(10)
    assert sizes == [1, 3]
    assert answers == {"first": "first", "second": "second", "taken": "IntegrityError", "third": "third"}
    with store.engine.connect() as conn:
        stored = sorted(conn.execute(sa.select(registrations.c.id)).scalars())
        audit = conn.execute(sa.text("SELECT count(*) FROM audit_log WHERE action = 'registration.create'")).scalar_one()
    assert stored == ["first", "second", "taken", "third"] and audit == 4
    store.close()


def test_a_deck_check_of_an_illegal_list_says_so_beside_identical(client, clock):
    """The played deck is the registered list in both deck checks; the event page's outcome badge
    is red for the one whose list is illegal, and says why ("identical · illegal")."""
    from desk_support import ADMIN

    event = new_event(client, clock)
    ids = {}
    for player, decklist in (("Ann", FARIA_ILLEGAL), ("Bob", FARIA_LEGAL)):
        response = client.post(f"/api/events/{event['id']}/registrations", json={"player": player, "decklist": decklist})
        assert response.status_code == 201, response.text
        ids[player] = response.json()["id"]
    picks = client.post(f"/api/events/{event['id']}/deckchecks", json={"registrations": [ids["Ann"], ids["Bob"]]},
                        headers=BEARER).json()["registrations"]
    for pick, decklist in zip(picks, (FARIA_ILLEGAL, FARIA_LEGAL)):
        response = client.post(f"/api/deckchecks/{pick['id']}/verify", json={"decklist": decklist}, headers=BEARER)
        assert response.json()["verify"]["status"] == "identical"
    login = client.get("/admin/login")
    client.post("/admin/login", data={"csrf": csrf_of(login.text), "token": ADMIN, "next": "/admin"})
    page = client.get(f"/admin/events/{event['id']}").text
    table = page[page.index('class="deckchecks"'):]
    table = table[: table.index("</table>")]
    outcomes = {player: re.search(r'<span class="badge (\w+)">([^<]*)</span>', row).groups()
                for row in table.split("<tr")[2:] for player in ("Ann", "Bob") if f">{player}</a>" in row}
    assert outcomes == {"Ann": ("illegal", "identical · illegal"), "Bob": ("legal", "identical")}
