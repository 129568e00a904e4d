"""The desk's JSON API contract (README "Registration desk"), on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json

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

CONTRACT = {"id", "legal", "violations", "sections", "fingerprint", "edit_token"}


def register(client, event_id, player="Ann Smith", decklist=FARIA_ILLEGAL):
    response = client.post(f"/api/events/{event_id}/registrations", json={"player": player, "decklist": decklist})
    assert response.status_code == 201, response.text
    return response.json()


def test_create_event_returns_it_with_its_id(client, clock):
    event = new_event(client, clock, date="2026-12-05")
    assert event["id"] and event["name"] == "Store Championship" and event["format"] == "bifrost" and event["date"] == "2026-12-05"
    public = client.get(f"/api/events/{event['id']}").json()
    assert public["id"] == event["id"] and public["open"] is True


def test_registration_returns_the_contract_and_the_cli_verdict(client, clock):
    event = new_event(client, clock)
    body = register(client, event["id"])
    assert CONTRACT <= set(body)
    assert body["legal"] is False
    assert [(v["code"], v["severity"], v["line"], v["card"], v["section"]) for v in body["violations"]] == [
        ("FC001", "error", 8, "Gawain, the Knight of the Moon", "main"), ("FC012", "warning", 9, "Perceval, the Seeker of Holy Grail", "main")]
    assert body["corrections"] == [{"line": 9, "written": "Perceval, the Seeker of Holy Grial", "read_as": "Perceval, the Seeker of Holy Grail"}]
    assert body["ruler"] == "Faria"
    assert body["sections"] == {"ruler": 1, "main": 40, "stones": 10, "stranger": 10, "side": 6}
    # the same deck object as the library (and so the CLI) gives for this text
    same = Checker().check_text(FARIA_ILLEGAL, "bifrost", "2026-12-05")
    assert body["fingerprint"] == same["fingerprint"] and body["violations"] == same["violations"]
    assert len(body["edit_token"]) >= 40


def test_multipart_upload_of_a_ydk_file(client, clock):
    event = new_event(client, clock, fmt="ygo-5ds", date="2011-06-01")
    data = (SAMPLES / "ygo-5ds" / "legal-synchro.ydk").read_bytes()
    response = client.post(f"/api/events/{event['id']}/registrations", data={"player": "Yusei"},
                           files={"file": ("legal-synchro.ydk", data, "application/octet-stream")})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["legal"] is True and body["player"] == "Yusei"
    assert body["sections"] == {"main": 40, "extra": 14, "side": 5}


def test_upload_of_another_kind_of_file_is_refused_with_its_name(client, clock):
    event = new_event(client, clock)
    response = client.post(f"/api/events/{event['id']}/registrations", data={"player": "Ann"},
                           files={"file": ("deck.png", b"\x89PNG\r\n", "image/png")})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("deck.png: not a decklist file (.png)")


def test_resubmission_makes_a_new_version_and_keeps_the_old(client, clock):
    event = new_event(client, clock)
    first = register(client, event["id"])
    response = client.put(f"/api/registrations/{first['id']}", json={"player": "Ann Smith", "decklist": FARIA_LEGAL, "edit_token": first["edit_token"]})
    assert response.status_code == 200
    second = response.json()
    assert second["id"] == first["id"] and second["version"] == 2 and second["legal"] is True and second["violations"] == []
    assert second["fingerprint"] != first["fingerprint"] and "edit_token" not in second
    mine = client.get(f"/api/registrations/{first['id']}", headers={"X-Edit-Token": first["edit_token"]}).json()
    assert [(v["version"], v["legal"]) for v in mine["versions"]] == [(1, False), (2, True)]


def test_another_players_token_is_refused(client, clock):
    event = new_event(client, clock)
    ann = register(client, event["id"], "Ann")
    bob = register(client, event["id"], "Bob", FARIA_LEGAL)
    response = client.put(f"/api/registrations/{ann['id']}", json={"player": "Ann", "decklist": FARIA_LEGAL, "edit_token": bob["edit_token"]})
    assert response.status_code == 403
    assert response.json() == {"detail": "this edit token does not open this registration"}
    assert client.get(f"/api/registrations/{ann['id']}", headers={"X-Edit-Token": bob["edit_token"]}).status_code == 403
    listed = client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()
    assert {r["player"]: r["legal"] for r in listed} == {"Ann": False, "Bob": True}  # Ann's list unchanged


def test_organiser_list_illegal_first_with_duplicates_flagged(client, clock):
    event = new_event(client, clock)
    register(client, event["id"], "Bob", FARIA_LEGAL)
    register(client, event["id"], "Ann")
    register(client, event["id"], "ann ", FARIA_LEGAL)
    listed = client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json()
    assert [(r["player"], r["legal"]) for r in listed] == [("Ann", False), ("ann", True), ("Bob", True)]
    assert {r["player"]: r["duplicate_player"] for r in listed} == {"Ann": True, "ann": True, "Bob": False}
    assert {r["player"]: r["duplicate_deck"] for r in listed} == {"Ann": False, "ann": True, "Bob": True}
    assert all(r["fingerprint"].startswith("fc1-") for r in listed)


def test_export_is_the_register_table(client, clock):
    from forcecheck.register import COLUMNS
    from forcecheck.web.exports import DESK_COLUMNS

    event = new_event(client, clock)
    ann = register(client, event["id"], "Ann")
    bob = register(client, event["id"], "Bob", FARIA_LEGAL)
    response = client.get(f"/api/events/{event['id']}/export.csv", headers=BEARER)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert list(rows[0]) == COLUMNS + DESK_COLUMNS == COLUMNS + ["player_id", "unlocked"]  # register's columns keep their places
    assert [(r["status"], r["file"], r["player"], r["codes"], r["fingerprint"]) for r in rows] == [
        ("illegal", ann["id"], "Ann", "FC001 FC012", ann["fingerprint"]), ("legal", bob["id"], "Bob", "", bob["fingerprint"])]
    doc = json.loads(client.get(f"/api/events/{event['id']}/export.json", headers=BEARER).text)
    assert doc["summary"]["legal"] == 1 and doc["summary"]["illegal"] == 1 and doc["summary"]["as_of"] == "2026-12-05"
    assert [r["player"] for r in doc["registrations"]] == ["Ann", "Bob"]


def test_verify_played_list(client, clock):
    event = new_event(client, clock)
    reg = register(client, event["id"], "Ann", FARIA_LEGAL)
    played = FARIA_LEGAL.replace("4 Viviane", "4 Miscalculation").replace("3 Miscalculation\n", "")
    answer = client.post(f"/api/registrations/{reg['id']}/verify", json={"decklist": played}, headers=BEARER).json()
    assert answer["status"] == "different" and answer["ok"] is False
    assert answer["reasons"] == ["Sideboard has 3 cards, registered with 6", "not from the registered list: 1 Miscalculation",
                                 "missing from the played list: 4 Viviane"]
    same = client.post(f"/api/registrations/{reg['id']}/verify", json={"decklist": FARIA_LEGAL}, headers=BEARER).json()
    assert same["status"] == "identical" and same["ok"] is True
    audit = client.get(f"/api/events/{event['id']}/audit", headers=BEARER).json()
    assert [a["action"] for a in audit] == ["event.create", "registration.create", "verify", "verify"]


def test_unreadable_list_is_refused_with_its_error_and_nothing_stored(client, clock):
    event = new_event(client, clock)
    response = client.post(f"/api/events/{event['id']}/registrations", json={"player": "Ann", "decklist": "\n\n"})
    assert response.status_code == 422
    assert response.json()["detail"] == "decklist.txt: empty decklist: no sections and no cards"
    assert client.get(f"/api/events/{event['id']}/registrations", headers=BEARER).json() == []


def test_bad_event_requests(client, clock):
    bad = {"name": "X", "format": "no-such-format", "date": "2026-12-05", "deadline": "2030-01-01T10:00"}
    response = client.post("/api/events", json=bad, headers=BEARER)
    assert response.status_code == 422 and response.json()["detail"].startswith("format 'no-such-format' cannot be used")
    response = client.post("/api/events", json=bad | {"format": "bifrost", "date": "5/12/2026"}, headers=BEARER)
    assert response.status_code == 422 and response.json()["detail"] == "date '5/12/2026' is not a date (YYYY-MM-DD)"
    response = client.post("/api/events", json={"name": "X"}, headers=BEARER)
    assert response.status_code == 422 and response.json()["detail"].startswith("invalid request: format:")
    assert client.get("/api/events/nope").status_code == 404


def test_event_date_picks_the_banlist_in_force(client, clock):
    """ygo-5ds takes the imported list in force; the sample catalog has none, so none applies,
    and the event says so rather than inventing one."""
    event = new_event(client, clock, fmt="ygo-5ds", date="2011-06-01")
    assert event["banlist"] is None
    assert client.get(f"/api/events/{event['id']}").json()["date"] == "2011-06-01"


def test_openapi_documents_the_contract(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert {"/api/events", "/api/events/{event_id}/registrations", "/api/registrations/{registration_id}",
            "/api/events/{event_id}/export.csv"} <= set(paths)
    content = paths["/api/events/{event_id}/registrations"]["post"]["requestBody"]["content"]
    assert {"application/json", "multipart/form-data"} <= set(content)
