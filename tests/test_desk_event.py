"""Issue 32: the desk runs a whole event (organiser controls, player IDs, published lists, deck
checks, the roster), each call on SQLite and PostgreSQL, with the bad input the issue names:
a clear 4xx with {"detail"} and nothing changed."""

from __future__ import annotations

import csv
import io

import pytest
from desk_support import (  # noqa: F401 - fixtures
    BEARER,
    FARIA_ILLEGAL,
    FARIA_LEGAL,
    client,
    clock,
    db_url,
)


def register(client, event_id, player="Ann Smith", decklist=FARIA_LEGAL, **extra):
    response = client.post(f"/api/events/{event_id}/registrations", json={"player": player, "decklist": decklist, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def event_with(client, clock, player_id="off", **kwargs):
    from datetime import timedelta

    body = {"name": kwargs.get("name", "Store Championship"), "format": "bifrost", "date": "2026-12-05",
            "deadline": (clock.now + timedelta(hours=1)).isoformat(), "player_id": player_id}
    response = client.post("/api/events", json=body, headers=BEARER)
    assert response.status_code == 201, response.text
    return response.json()


def audit(client, event_id):
    return client.get(f"/api/events/{event_id}/audit", headers=BEARER).json()


def versions(client, registration_id):
    return [v["version"] for v in client.get(f"/api/registrations/{registration_id}", headers=BEARER).json()["versions"]]


def refused(response, status: int, detail: str) -> None:
    assert response.status_code == status, response.text
    assert set(response.json()) == {"detail"} and detail in response.json()["detail"], response.json()


# -- PATCH the event ----------------------------------------------------------------------------------
def test_extending_the_deadline_reopens_registration_and_is_logged(client, clock):
    event = event_with(client, clock)
    ann = register(client, event["id"])
    clock.advance(hours=2)
    late = client.put(f"/api/registrations/{ann['id']}", json={"player": "Ann Smith", "decklist": FARIA_ILLEGAL, "edit_token": ann["edit_token"]})
    refused(late, 409, "closed at")
    new_deadline = (clock.now.replace(microsecond=0)).isoformat().replace("+00:00", "Z")
    response = client.patch(f"/api/events/{event['id']}", json={"deadline": (clock.now.replace(microsecond=0)).isoformat(),
                                                                 "reason": "the venue opened late", "by": "Kim"}, headers=BEARER)
    assert response.status_code == 200 and response.json()["open"] is False  # exactly now: closed
    response = client.patch(f"/api/events/{event['id']}", json={"deadline": "2099-01-01T10:00:00+00:00", "name": "Store Championship (Day 2)"},
                            headers=BEARER)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["open"] is True and body["name"] == "Store Championship (Day 2)" and body["deadline"] == "2099-01-01T10:00:00+00:00"
    again = client.put(f"/api/registrations/{ann['id']}", json={"player": "Ann Smith", "decklist": FARIA_ILLEGAL, "edit_token": ann["edit_token"]})
    assert again.status_code == 200 and again.json()["version"] == 2
    updates = [a for a in audit(client, event["id"]) if a["action"] == "event.update"]
    assert updates[0]["actor"] == "organiser" and updates[0]["detail"]["reason"] == "the venue opened late" and updates[0]["detail"]["by"] == "Kim"
    assert list(updates[0]["detail"]["changed"]) == ["deadline"] and new_deadline


def test_a_new_date_applies_its_banlist_and_checks_every_list_again(client, clock):
    event = event_with(client, clock)
    ann = register(client, event["id"])
    response = client.patch(f"/api/events/{event['id']}", json={"date": "2026-12-06", "reason": "moved a day"}, headers=BEARER)
    assert response.status_code == 200 and response.json()["date"] == "2026-12-06"
    assert versions(client, ann["id"]) == [1, 2]  # the same list, checked under the new date
    rechecked = [a for a in audit(client, event["id"]) if a["action"] == "registration.recheck"]
    assert rechecked[0]["registration"] == ann["id"] and rechecked[0]["detail"]["because"] == "event date changed to 2026-12-06"


@pytest.mark.parametrize("body, status, detail", [
    ({}, 422, "nothing to change"),
    ({"deadline": "soon"}, 422, "is not a date and time"),
    ({"date": "tomorrow"}, 422, "is not a date (YYYY-MM-DD)"),
    ({"name": "  "}, 422, "the event name is empty"),
    ({"name": "Cup", "reason": "x" * 501}, 422, "the reason is 501 characters long; at most 500"),
])
def test_bad_event_changes_are_refused_and_change_nothing(client, clock, body, status, detail):
    event = event_with(client, clock)
    refused(client.patch(f"/api/events/{event['id']}", json=body, headers=BEARER), status, detail)
    after = client.get(f"/api/events/{event['id']}").json()
    assert (after["name"], after["date"], after["deadline"]) == (event["name"], event["date"], event["deadline"])
    assert not [a for a in audit(client, event["id"]) if a["action"] == "event.update"]


def test_event_changes_need_the_organiser_and_a_real_event(client, clock):
    event = event_with(client, clock)
    refused(client.patch(f"/api/events/{event['id']}", json={"name": "Mine"}), 401, "organiser token")
    refused(client.patch("/api/events/nope", json={"name": "Mine"}, headers=BEARER), 404, "no event 'nope'")


# -- unlock, lock, and lists entered on the player's behalf -------------------------------------------
def test_unlock_lets_one_player_resubmit_after_the_deadline_until_locked(client, clock):
    event = event_with(client, clock)
    ann = register(client, event["id"])
    bob = register(client, event["id"], "Bob")
    clock.advance(hours=2)
    response = client.post(f"/api/registrations/{ann['id']}/unlock", json={"reason": "her phone died at the deadline", "by": "Head judge"},
                           headers=BEARER)
    assert response.status_code == 200 and response.json() == {"id": ann["id"], "event": event["id"], "player": "Ann Smith",
                                                               "player_id": None, "version": 1, "unlocked": True}
    put = client.put(f"/api/registrations/{ann['id']}", json={"player": "Ann Smith", "decklist": FARIA_ILLEGAL, "edit_token": ann["edit_token"]})
    assert put.status_code == 200 and put.json()["version"] == 2 and put.json()["legal"] is False
    refused(client.put(f"/api/registrations/{bob['id']}", json={"player": "Bob", "decklist": FARIA_ILLEGAL, "edit_token": bob["edit_token"]}),
            409, "the list is locked")
    table = {r["player"]: r["unlocked"] for r in client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()}
    assert table == {"Ann Smith": True, "Bob": False}
    assert client.post(f"/api/registrations/{ann['id']}/lock", json={"reason": "resubmitted"}, headers=BEARER).json()["unlocked"] is False
    refused(client.put(f"/api/registrations/{ann['id']}", json={"player": "Ann Smith", "decklist": FARIA_LEGAL, "edit_token": ann["edit_token"]}),
            409, "the list is locked")
    log = [(a["action"], a["actor"], a["detail"].get("reason"), a["detail"].get("by")) for a in audit(client, event["id"])
           if a["registration"] == ann["id"]]
    assert log == [("registration.create", "player", None, None), ("registration.unlock", "organiser", "her phone died at the deadline", "Head judge"),
                   ("registration.resubmit", "player", None, None), ("registration.lock", "organiser", "resubmitted", None)]


def test_the_organiser_enters_a_list_on_the_players_behalf(client, clock):
    event = event_with(client, clock)
    ann = register(client, event["id"], decklist=FARIA_ILLEGAL)
    clock.advance(hours=2)  # after the deadline: the organiser's entry is not bound by it
    response = client.put(f"/api/registrations/{ann['id']}", json={"player": "Ann Smith", "decklist": FARIA_LEGAL,
                                                                    "reason": "paper list handed in at the desk"}, headers=BEARER)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["version"] == 2 and body["legal"] is True and "edit_token" not in body
    entry = [a for a in audit(client, event["id"]) if a["action"] == "registration.edit"][0]
    assert entry["actor"] == "organiser" and entry["detail"]["reason"] == "paper list handed in at the desk" and entry["detail"]["version"] == 2
    # the player's own token still opens it, and still meets the deadline
    refused(client.put(f"/api/registrations/{ann['id']}", json={"player": "Ann", "decklist": FARIA_LEGAL, "edit_token": ann["edit_token"]}),
            409, "the list is locked")


@pytest.mark.parametrize("call", ["unlock", "lock", "edit"])
@pytest.mark.parametrize("reason, detail", [(None, "give a reason"), ("   ", "give a reason"),
                                            ("x" * 501, "the reason is 501 characters long; at most 500")])
def test_overrides_without_a_usable_reason_are_refused_and_change_nothing(client, clock, call, reason, detail):
    event = event_with(client, clock)
    ann = register(client, event["id"])
    body = {"reason": reason} if reason is not None else {}
    response = _override(client, call, ann["id"], body)
    refused(response, 422, detail)
    assert versions(client, ann["id"]) == [1]
    assert client.get(f"/api/registrations/{ann['id']}", headers=BEARER).json()["unlocked"] is False
    assert [a["action"] for a in audit(client, event["id"])] == ["event.create", "registration.create"]


def _override(client, call, registration_id, body, headers=BEARER):
    if call == "edit":
        return client.put(f"/api/registrations/{registration_id}", json={"player": "Ann Smith", "decklist": FARIA_ILLEGAL, **body},
                          headers=headers)
    return client.post(f"/api/registrations/{registration_id}/{call}", json=body, headers=headers)


@pytest.mark.parametrize("call", ["unlock", "lock", "edit"])
def test_overrides_of_another_events_or_an_unknown_registration_are_refused(client, clock, call):
    first = event_with(client, clock)
    other = event_with(client, clock, name="Other Cup")
    ann = register(client, first["id"])
    refused(_override(client, call, ann["id"], {"reason": "typo", "event": other["id"]}), 409,
            f"registration '{ann['id']}' is not in event '{other['id']}'")
    refused(_override(client, call, "nope", {"reason": "typo"}), 404, "no registration 'nope'")
    refused(_override(client, call, ann["id"], {"reason": "typo"}, headers={}), 401, "")
    assert versions(client, ann["id"]) == [1]
    assert [a["action"] for a in audit(client, first["id"])] == ["event.create", "registration.create"]


# -- player IDs -------------------------------------------------------------------------------------------
def test_a_required_player_id_is_required_and_shown_everywhere(client, clock):
    event = event_with(client, clock, player_id="required")
    assert event["player_id"] == "required"
    refused(client.post(f"/api/events/{event['id']}/registrations", json={"player": "Ann", "decklist": FARIA_LEGAL}), 422,
            "requires a player ID with each registration")
    refused(client.post(f"/api/events/{event['id']}/registrations", json={"player": "Ann", "decklist": FARIA_LEGAL, "player_id": "  "}), 422,
            "requires a player ID")
    ann = register(client, event["id"], "Ann", player_id="0012345678")
    bob = register(client, event["id"], "Bob", player_id="0098765432")
    eve = register(client, event["id"], "Eve", player_id="００１２-３４５６７８")  # Ann's ID, written with fullwidth digits and a hyphen
    table = {r["player"]: (r["player_id"], r["duplicate_player"]) for r in
             client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()}
    assert table == {"Ann": ("0012345678", True), "Bob": ("0098765432", False), "Eve": ("００１２-３４５６７８", True)}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/events/{event['id']}/export.csv", headers=BEARER).text)))
    assert {r["player"]: (r["player_id"], r["duplicate_player"]) for r in rows} == {
        "Ann": ("0012345678", "True"), "Bob": ("0098765432", "False"), "Eve": ("００１２-３４５６７８", "True")}
    exported = client.get(f"/api/events/{event['id']}/export.json", headers=BEARER).json()["registrations"]
    assert {r["player"]: r["player_id"] for r in exported} == {"Ann": "0012345678", "Bob": "0098765432", "Eve": "００１２-３４５６７８"}
    # a resubmission without the ID keeps it; one that clears it is refused
    kept = client.put(f"/api/registrations/{bob['id']}", json={"player": "Bob", "decklist": FARIA_LEGAL, "edit_token": bob["edit_token"]})
    assert kept.status_code == 200 and client.get(f"/api/registrations/{bob['id']}", headers=BEARER).json()["version"] == 2
    refused(client.put(f"/api/registrations/{bob['id']}", json={"player": "Bob", "decklist": FARIA_LEGAL, "edit_token": bob["edit_token"],
                                                                "player_id": ""}), 422, "requires a player ID")
    assert ann and eve


def test_player_ids_off_and_optional(client, clock):
    off = event_with(client, clock)
    refused(client.post(f"/api/events/{off['id']}/registrations", json={"player": "Ann", "decklist": FARIA_LEGAL, "player_id": "1"}), 422,
            "takes no player IDs")
    optional = event_with(client, clock, player_id="optional", name="Optional Cup")
    assert register(client, optional["id"], "Ann")["id"]
    assert register(client, optional["id"], "Bob", player_id="42")["id"]
    refused(client.post("/api/events", json={"name": "X", "format": "bifrost", "date": "2026-12-05", "deadline": "2099-01-01T00:00",
                                              "player_id": "sometimes"}, headers=BEARER), 422, "player_id")
    refused(client.post(f"/api/events/{optional['id']}/registrations", json={"player": "Cy", "decklist": FARIA_LEGAL, "player_id": "1" * 65}),
            422, "the player ID is 65 characters long; at most 64")


def test_the_roster_for_pairing_software(client, clock):
    event = event_with(client, clock, player_id="optional")
    register(client, event["id"], "bob", FARIA_ILLEGAL, player_id="7")
    ann = register(client, event["id"], "Ann")
    response = client.get(f"/api/events/{event['id']}/roster.csv", headers=BEARER)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert list(rows[0]) == ["player", "player_id", "legal", "registration"]
    assert [(r["player"], r["player_id"], r["legal"]) for r in rows] == [("Ann", "", "True"), ("bob", "7", "False")]
    assert rows[0]["registration"] == ann["id"]
    refused(client.get(f"/api/events/{event['id']}/roster.csv"), 401, "organiser token")


# -- published lists --------------------------------------------------------------------------------------
def test_publishing_lists(client, clock):
    event = event_with(client, clock)
    assert client.get(f"/api/events/{event['id']}/published").json() == {"event": event["id"], "name": event["name"], "registrations": []}
    ann = register(client, event["id"], "Ann", FARIA_ILLEGAL)
    bob = register(client, event["id"], "bob")
    response = client.post(f"/api/events/{event['id']}/publish", json={"registrations": [bob["id"]]}, headers=BEARER)
    assert response.status_code == 200, response.text
    public = client.get(f"/api/events/{event['id']}/published").json()["registrations"]  # anyone
    assert [(p["id"], p["player"], p["fingerprint"], p["version"]) for p in public] == [(bob["id"], "bob", bob["fingerprint"], 1)]
    assert public[0]["sections"] == bob["sections"] and public[0]["legal"] is True and "player_id" not in public[0]
    # the canonical list, as the library (forcecheck fmt) writes it
    from forcecheck.api import Checker

    assert public[0]["canonical"] == Checker().canonical_text(FARIA_LEGAL, "bifrost", "2026-12-05", comments=False)
    assert FARIA_LEGAL.startswith("# forcecheck sample") and "#" not in public[0]["canonical"]  # the player's notes are not published
    assert public[0]["canonical"].startswith("Ruler:\n1 Faria\n\nMain Deck:\n4 Avalon, Illusionary Home of Knights\n")
    client.post(f"/api/events/{event['id']}/publish", json={"registrations": "all"}, headers=BEARER)
    public = client.get(f"/api/events/{event['id']}/published").json()["registrations"]
    assert [p["player"] for p in public] == ["Ann", "bob"] and public[0]["fingerprint"] == ann["fingerprint"]
    assert [a["detail"]["registrations"] for a in audit(client, event["id"]) if a["action"] == "event.publish"] == [1, 2]


def test_bad_publish_requests_publish_nothing(client, clock):
    event = event_with(client, clock)
    other = event_with(client, clock, name="Other Cup")
    ann = register(client, event["id"])
    stranger = register(client, other["id"], "Eve")
    refused(client.post(f"/api/events/{event['id']}/publish", json={"registrations": [ann["id"], stranger["id"]]}, headers=BEARER),
            409, f"registration '{stranger['id']}' is not in event '{event['id']}'")
    refused(client.post(f"/api/events/{event['id']}/publish", json={"registrations": ["nope"]}, headers=BEARER), 404, "no registration 'nope'")
    refused(client.post(f"/api/events/{event['id']}/publish", json={"registrations": []}, headers=BEARER), 422, "name the registrations")
    refused(client.post(f"/api/events/{event['id']}/publish", json={"registrations": "some"}, headers=BEARER), 422, "registrations")
    refused(client.post(f"/api/events/{event['id']}/publish", json={"registrations": "all"}), 401, "organiser token")
    refused(client.get("/api/events/nope/published"), 404, "no event 'nope'")
    assert client.get(f"/api/events/{event['id']}/published").json()["registrations"] == []


# -- deck checks ------------------------------------------------------------------------------------------
def test_deck_check_picks_repeat_no_player_until_all_were_picked(client, clock):
    event = event_with(client, clock)
    ids = {register(client, event["id"], f"Player {n}")["id"] for n in range(5)}

    def pick(count, seed):
        response = client.post(f"/api/events/{event['id']}/deckchecks", json={"count": count, "seed": seed}, headers=BEARER)
        assert response.status_code == 200, response.text
        return response.json()["registrations"]

    first = pick(2, "round 1")
    second = pick(2, "round 2")
    third = pick(2, "round 3")  # one left of the first cycle, then a new cycle (never the same player twice in one call)
    picked = [p["registration"] for p in first + second]
    assert len(set(picked)) == 4 and set(picked) < ids
    assert third[0]["registration"] == (ids - set(picked)).pop() and third[0]["cycle"] == 1
    assert third[1]["cycle"] == 2 and third[1]["registration"] != third[0]["registration"]
    assert all(p["how"] == "random" and p["seed"] == "round 1" for p in first)
    assert first[0]["player"].startswith("Player ") and first[0]["url"].endswith(f"/admin/registrations/{first[0]['registration']}")
    listed = client.get(f"/api/events/{event['id']}/deckchecks", headers=BEARER).json()["registrations"]
    assert [p["id"] for p in listed] == [p["id"] for p in first + second + third]


def test_the_same_seed_picks_the_same_players(db_url, clock):
    """Two desks (databases) with the same registrations and the same seed pick alike."""
    from desk_support import make_app
    from fastapi.testclient import TestClient

    from forcecheck.web.desk import random_picks

    ids = [f"r{n:02d}" for n in range(30)]
    assert random_picks(ids, [], 5, "table 12") == random_picks(list(reversed(ids)), [], 5, "table 12")
    assert random_picks(ids, [], 5, "table 12") != random_picks(ids, [], 5, "table 13")
    with TestClient(make_app(db_url, clock)) as client:
        event = event_with(client, clock)
        for n in range(6):
            register(client, event["id"], f"P{n}")
        a = client.post(f"/api/events/{event['id']}/deckchecks", json={"count": 6}, headers=BEARER).json()["registrations"]
        assert len({p["registration"] for p in a}) == 6 and len(a[0]["seed"]) == 8  # a seed is made and given back


def test_adding_players_by_hand_and_recording_the_outcome(client, clock):
    event = event_with(client, clock)
    ann = register(client, event["id"], "Ann")
    bob = register(client, event["id"], "Bob")
    added = client.post(f"/api/events/{event['id']}/deckchecks", json={"registrations": [ann["id"]]}, headers=BEARER).json()["registrations"]
    assert [(p["registration"], p["how"], p["cycle"], p["outcome"]) for p in added] == [(ann["id"], "added", 1, None)]
    # a random pick now takes the one not yet checked
    picked = client.post(f"/api/events/{event['id']}/deckchecks", json={"count": 1, "seed": "s"}, headers=BEARER).json()["registrations"]
    assert picked[0]["registration"] == bob["id"]
    played = FARIA_LEGAL.replace("4 Viviane", "4 Miscalculation").replace("3 Miscalculation\n", "")
    response = client.post(f"/api/deckchecks/{added[0]['id']}/verify", json={"decklist": played}, headers=BEARER)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["verify"]["status"] == "different" and body["verify"]["ok"] is False
    assert body["deck_check"]["outcome"]["status"] == "different" and body["deck_check"]["outcome"]["version"] == 1
    same = client.post(f"/api/deckchecks/{picked[0]['id']}/verify", json={"decklist": FARIA_LEGAL}, headers=BEARER).json()
    assert same["deck_check"]["outcome"]["status"] == "identical" and same["deck_check"]["outcome"]["ok"] is True
    listed = client.get(f"/api/events/{event['id']}/deckchecks", headers=BEARER).json()["registrations"]
    assert [(p["player"], p["outcome"]["status"]) for p in listed] == [("Ann", "different"), ("Bob", "identical")]
    assert [a["detail"]["status"] for a in audit(client, event["id"]) if a["action"] == "deckcheck.verify"] == ["different", "identical"]


def test_bad_deck_check_requests_pick_nothing(client, clock):
    event = event_with(client, clock)
    other = event_with(client, clock, name="Other Cup")
    url = f"/api/events/{event['id']}/deckchecks"
    refused(client.post(url, json={"count": 1}, headers=BEARER), 422, "has no registrations to pick from")
    ann = register(client, event["id"])
    stranger = register(client, other["id"], "Eve")
    refused(client.post(url, json={"count": 0}, headers=BEARER), 422, "count must be a whole number from 1 to 1000")
    refused(client.post(url, json={"count": 1, "seed": "s" * 101}, headers=BEARER), 422, "the seed is 101 characters long")
    refused(client.post(url, json={"registrations": [stranger["id"]]}, headers=BEARER), 409, "is not in event")
    refused(client.post(url, json={"registrations": ["nope"]}, headers=BEARER), 404, "no registration 'nope'")
    refused(client.post(url, json={"count": 1, "registrations": [ann["id"]]}, headers=BEARER), 422, "either")
    refused(client.post(url, json={}, headers=BEARER), 422, "either")
    refused(client.post(url, json={"count": 1}), 401, "organiser token")
    refused(client.post("/api/deckchecks/999/verify", json={"decklist": FARIA_LEGAL}, headers=BEARER), 404, "no deck check '999'")
    refused(client.post("/api/deckchecks/x/verify", json={"decklist": FARIA_LEGAL}, headers=BEARER), 404, "no deck check 'x'")
    assert client.get(url, headers=BEARER).json() == {"registrations": []}


# -- the schema -------------------------------------------------------------------------------------------
def test_a_database_of_the_previous_schema_upgrades_in_place(db_url):  # noqa: F811
    """An event's database from before issue 32 (migration 0002, with a registration in it) is
    upgraded when the desk starts: its event takes no player IDs, its registration is locked by
    the deadline as before, and the new calls work on it."""
    from alembic import command
    from desk_support import Clock, make_app
    from fastapi.testclient import TestClient

    from forcecheck.web.storage import Store, alembic_config

    store = Store(db_url)
    with store.engine.connect() as conn:
        config = alembic_config()
        config.attributes["connection"] = conn
        command.upgrade(config, "0002")
        conn.commit()
    store.close()
    import sqlalchemy as sa

    from forcecheck.web.storage import engine_url

    engine = sa.create_engine(engine_url(db_url))
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO events (id, name, format, date, deadline, banlist, created_at) VALUES "
                             "('ev1', 'Old Cup', 'bifrost', '2026-12-05', '2000-01-01T00:00:00.000000+00:00', NULL, "
                             "'1999-12-01T00:00:00.000000+00:00')"))
        conn.execute(sa.text("INSERT INTO registrations (id, event_id, token_hash, version, created_at) VALUES "
                             "('reg1', 'ev1', :h, 1, '1999-12-02T00:00:00.000000+00:00')"), {"h": "0" * 64})
        conn.execute(sa.text("INSERT INTO registration_versions (registration_id, version, player, filename, decklist, legal, "
                             "fingerprint, deck_json, contents_json, submitted_at) VALUES ('reg1', 1, 'Ann', 'decklist.txt', :d, "
                             ":legal, 'fc1-x', :deck, '[]', '1999-12-02T00:00:00.000000+00:00')"),
                     {"d": FARIA_LEGAL, "legal": True, "deck": '{"legal": true, "violations": [], "sections": {"main": 40}}'})
    engine.dispose()
    clock = Clock()
    with TestClient(make_app(db_url, clock)) as client:
        assert client.get("/api/events/ev1").json()["player_id"] == "off"
        row = client.get("/api/events/ev1/registrations", headers=BEARER).json()[0]
        assert (row["id"], row["player"], row["player_id"], row["unlocked"]) == ("reg1", "Ann", None, False)
        assert client.post("/api/registrations/reg1/unlock", json={"reason": "old event"}, headers=BEARER).json()["unlocked"] is True
        assert client.post("/api/events/ev1/publish", json={"registrations": "all"}, headers=BEARER).status_code == 200
        assert [p["player"] for p in client.get("/api/events/ev1/published").json()["registrations"]] == ["Ann"]
