"""A submission sent again after a lost answer registers nobody twice (issue 41): the API's
``Idempotency-Key`` header and the pages' hidden key give the stored answer again and store
nothing; the same key with another list is 422. In process on SQLite and PostgreSQL, and
against a real desk killed between its commit and its answer."""

from __future__ import annotations

import os
import textwrap
import uuid

import pytest
from desk_support import (  # noqa: F401 - fixtures
    ADMIN,
    BEARER,
    FARIA_ILLEGAL,
    FARIA_LEGAL,
    client,
    clock,
    db_url,
    new_event,
)

KEY_TAKEN = "this Idempotency-Key came with another submission before (that one is stored): a new submission needs a new key"


def post(client, event_id, key=None, player="Ann Smith", decklist=FARIA_LEGAL):
    headers = {"Idempotency-Key": key.encode("utf-8")} if key is not None else {}  # bytes: a client may send UTF-8
    return client.post(f"/api/events/{event_id}/registrations", json={"player": player, "decklist": decklist}, headers=headers)


def stored(client, event_id) -> list[dict]:
    return client.get(f"/api/events/{event_id}/registrations", headers=BEARER).json()


def creations(client, event_id) -> int:
    return sum(1 for a in client.get(f"/api/events/{event_id}/audit", headers=BEARER).json() if a["action"] == "registration.create")


def test_the_same_key_twice_is_one_registration_and_the_same_answer(client, clock):
    event = new_event(client, clock)
    key = str(uuid.uuid4())
    first, again = post(client, event["id"], key), post(client, event["id"], key)
    assert first.status_code == again.status_code == 201
    assert "Idempotent-Replayed" not in first.headers and again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()  # id, version 1, the same edit token (it opens the registration)
    assert [r["id"] for r in stored(client, event["id"])] == [first.json()["id"]] and creations(client, event["id"]) == 1
    opened = client.get(f"/api/registrations/{first.json()['id']}", headers={"X-Edit-Token": again.json()["edit_token"]})
    assert opened.status_code == 200 and opened.json()["versions"][0]["version"] == 1


def test_without_a_key_each_post_is_a_registration(client, clock):
    """The behaviour a lost answer met before keys: the retry is a second registration."""
    event = new_event(client, clock)
    ids = {post(client, event["id"]).json()["id"], post(client, event["id"]).json()["id"]}
    assert len(ids) == 2 and creations(client, event["id"]) == 2


def test_the_same_key_with_another_list_is_refused_and_stores_nothing(client, clock):
    event = new_event(client, clock)
    key = str(uuid.uuid4())
    first = post(client, event["id"], key)
    other = post(client, event["id"], key, decklist=FARIA_ILLEGAL)
    renamed = post(client, event["id"], key, player="Bea Smith")
    assert other.status_code == renamed.status_code == 422
    assert other.json()["detail"] == KEY_TAKEN and "edit_token" not in other.text
    assert [r["id"] for r in stored(client, event["id"])] == [first.json()["id"]] and creations(client, event["id"]) == 1


def test_keys_are_kept_per_event(client, clock):
    one, two = new_event(client, clock, name="One"), new_event(client, clock, name="Two")
    key = str(uuid.uuid4())
    a, b = post(client, one["id"], key), post(client, two["id"], key)
    assert a.status_code == b.status_code == 201 and a.json()["id"] != b.json()["id"]
    assert a.json()["edit_token"] != b.json()["edit_token"]


def test_a_replay_after_the_deadline_is_the_stored_answer(client, clock):
    event = new_event(client, clock, hours=1)
    key = str(uuid.uuid4())
    first = post(client, event["id"], key)
    clock.advance(hours=2)
    assert post(client, event["id"], key).json() == first.json()
    late = post(client, event["id"], str(uuid.uuid4()))
    assert late.status_code == 409  # a new submission after the deadline is still refused


@pytest.mark.parametrize("key", ["short", "x" * 256, "ключ-" + "x" * 20, "with space " + "x" * 10, ""])
def test_a_key_that_could_be_guessed_or_is_not_ascii_is_400(client, clock, key):
    event = new_event(client, clock)
    response = post(client, event["id"], key)
    assert response.status_code == 400
    assert response.json()["detail"] == "an Idempotency-Key is 16 to 255 visible ASCII characters (a random UUID, say)"
    assert stored(client, event["id"]) == []


def test_a_resubmission_sent_again_is_one_version(client, clock):
    event = new_event(client, clock)
    made = post(client, event["id"]).json()
    key = str(uuid.uuid4())
    body = {"player": "Ann Smith", "decklist": FARIA_ILLEGAL, "edit_token": made["edit_token"]}
    first = client.put(f"/api/registrations/{made['id']}", json=body, headers={"Idempotency-Key": key})
    again = client.put(f"/api/registrations/{made['id']}", json=body, headers={"Idempotency-Key": key})
    assert first.status_code == again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert first.json()["version"] == again.json()["version"] == 2 and "edit_token" not in again.json()
    versions = client.get(f"/api/registrations/{made['id']}", headers=BEARER).json()["versions"]
    assert [v["version"] for v in versions] == [1, 2]
    changed = client.put(f"/api/registrations/{made['id']}", json=body | {"decklist": FARIA_LEGAL}, headers={"Idempotency-Key": key})
    assert changed.status_code == 422 and changed.json()["detail"] == KEY_TAKEN
    # a key is one submission: a registration's key is no resubmission's
    reg_key = str(uuid.uuid4())
    post(client, event["id"], reg_key, player="Cy")
    assert client.put(f"/api/registrations/{made['id']}", json=body, headers={"Idempotency-Key": reg_key}).status_code == 422
    # and another's edit token does not replay this one's version
    other = post(client, event["id"], player="Dee").json()
    assert client.put(f"/api/registrations/{made['id']}", json=body | {"edit_token": other["edit_token"]},
                      headers={"Idempotency-Key": key}).status_code == 403


def test_the_key_itself_is_never_stored(client, clock, db_url):
    import sqlalchemy as sa

    from forcecheck.web.storage import engine_url

    event = new_event(client, clock)
    key = "never-stored-" + uuid.uuid4().hex
    post(client, event["id"], key)
    engine = sa.create_engine(engine_url(db_url))
    with engine.connect() as conn:
        everything = [repr(row) for table in sa.inspect(conn).get_table_names()
                      for row in conn.execute(sa.text(f'SELECT * FROM "{table}"')).all()]
    engine.dispose()
    assert everything and not any(key in row for row in everything)


def test_the_page_sent_twice_is_one_registration(client, clock):
    """The event page's form carries a new key each time it is shown: pressing Submit again on
    the same page (its answer lost) is one registration; the same page with the list changed
    shows the registration that stands, the changed list in its form, not yet submitted."""
    import re

    event = new_event(client, clock)
    page = client.get(f"/e/{event['id']}")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    key = re.search(r'name="submission" value="([^"]+)"', page.text).group(1)
    assert key != re.search(r'name="submission" value="([^"]+)"', client.get(f"/e/{event['id']}").text).group(1)
    form = {"csrf": csrf, "submission": key, "player": "Ann Smith", "decklist": FARIA_LEGAL, "action": "submit"}
    first = client.post(f"/e/{event['id']}", data=form, follow_redirects=False)
    client.cookies.clear()  # the answer (and its cookie) never reached the browser
    client.cookies.set("fc_csrf", first.request.headers["cookie"].split("fc_csrf=")[1].split(";")[0])
    again = client.post(f"/e/{event['id']}", data=form, follow_redirects=False)
    assert first.status_code == again.status_code == 303 and first.headers["location"] == again.headers["location"]
    assert len(stored(client, event["id"])) == 1
    changed = client.post(f"/e/{event['id']}", data=form | {"decklist": FARIA_ILLEGAL}, follow_redirects=False)
    assert changed.status_code == 200 and "This page was submitted before, with another list" in changed.text
    assert "Gawain, the Knight of the Moon" in changed.text  # the list just sent, in the form
    assert len(stored(client, event["id"])) == 1
    registration_id = first.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/r/{registration_id}").status_code == 200  # the page set the edit token: the player can go on


# -- a real desk killed between its commit and its answer --------------------------------------------------
_DIE_AFTER_COMMIT = """
    import os, signal
    import forcecheck.web.storage as storage
    _original = storage.Store.add_registration
    def add_registration(self, event_id, registration_id, token_hash, first, *args, **kwargs):
        stored = _original(self, event_id, registration_id, token_hash, first, *args, **kwargs)
        if first.player.startswith("Lost"):
            os.kill(os.getpid(), signal.SIGKILL)  # committed; the answer is never written
        return stored
    storage.Store.add_registration = add_registration
"""


@pytest.mark.parametrize("with_key", [True, False], ids=["with-key", "without-key"])
def test_a_desk_killed_between_commit_and_answer_registers_the_retry_once(db_url, tmp_path, with_key):  # noqa: F811
    httpx2 = pytest.importorskip("httpx2", reason='needs the web-test extra: pip install -e ".[test,web-test]"')
    from forcecheck.web.testing import DeskProcess

    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(textwrap.dedent(_DIE_AFTER_COMMIT), encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH")) if p)}
    dying = DeskProcess(db_url, ADMIN, log_path=str(tmp_path / "dying.log"), args=["--workers", "1"], env=env).start()
    try:
        event = httpx2.post(dying.url + "/api/events", headers=BEARER, timeout=10, json={
            "name": "Kill", "format": "bifrost", "date": "2026-12-05", "deadline": "2031-01-01T00:00:00+00:00"}).json()
        headers = {"Idempotency-Key": str(uuid.uuid4())} if with_key else {}
        body = {"player": "Lost Answer", "decklist": FARIA_LEGAL}
        with pytest.raises(httpx2.HTTPError):
            httpx2.post(f"{dying.url}/api/events/{event['id']}/registrations", json=body, headers=headers, timeout=20)
    finally:
        dying.stop()
    with DeskProcess(db_url, ADMIN, log_path=str(tmp_path / "again.log")) as again:
        retry = httpx2.post(f"{again.url}/api/events/{event['id']}/registrations", json=body, headers=headers, timeout=20)
        assert retry.status_code == 201
        listed = httpx2.get(f"{again.url}/api/events/{event['id']}/registrations", headers=BEARER, timeout=10).json()
        audit = httpx2.get(f"{again.url}/api/events/{event['id']}/audit", headers=BEARER, timeout=10).json()
    if with_key:
        assert retry.headers["Idempotent-Replayed"] == "true"
        assert [r["id"] for r in listed] == [retry.json()["id"]]  # the one the killed desk committed
        assert len([a for a in audit if a["action"] == "registration.create"]) == 1
    else:
        assert len(listed) == 2  # without a key the player is registered twice (what issue 41 found)


def test_one_key_sent_at_once_to_two_desks_on_one_database_is_one_registration(db_url, tmp_path):  # noqa: F811
    """A retry while the first is in flight, through two desks (two machines behind a proxy) on
    one database: every answer is the one registration, stored once."""
    import threading

    httpx2 = pytest.importorskip("httpx2", reason='needs the web-test extra: pip install -e ".[test,web-test]"')
    from forcecheck.web.testing import DeskProcess

    a = DeskProcess(db_url, ADMIN, log_path=str(tmp_path / "a.log"), args=["--workers", "1"])
    b = DeskProcess(db_url, ADMIN, log_path=str(tmp_path / "b.log"), args=["--workers", "1"])
    try:
        a.start()
        b.start()
        event = httpx2.post(a.url + "/api/events", headers=BEARER, timeout=10, json={
            "name": "Two desks", "format": "bifrost", "date": "2026-12-05", "deadline": "2031-01-01T00:00:00+00:00"}).json()
        keys = [str(uuid.uuid4()) for _ in range(6)]
        answers: list[tuple[str, int, dict]] = []
        lock = threading.Lock()
        start = threading.Barrier(4 * len(keys))

        def send(desk, key: str, n: int) -> None:
            start.wait(30)
            response = httpx2.post(f"{desk.url}/api/events/{event['id']}/registrations", timeout=60,
                                   json={"player": f"Player {key[:8]}", "decklist": FARIA_LEGAL}, headers={"Idempotency-Key": key})
            with lock:
                answers.append((key, response.status_code, response.json()))

        threads = [threading.Thread(target=send, args=(desk, key, n)) for key in keys for n, desk in enumerate((a, b, a, b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        listed = httpx2.get(f"{a.url}/api/events/{event['id']}/registrations", headers=BEARER, timeout=10).json()
    finally:
        a.stop()
        b.stop()
    assert sorted(status for _, status, _ in answers) == [201] * len(threads)
    by_key = {key: {(body["id"], body["edit_token"], body["version"]) for k, _, body in answers if k == key} for key in keys}
    assert all(len(found) == 1 for found in by_key.values()), by_key
    assert sorted(r["id"] for r in listed) == sorted(next(iter(found))[0] for found in by_key.values())
