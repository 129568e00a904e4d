"""The Wanderer banned list (fowsim's record) shipped as a dated version of wanderer's banlist rule,
and `forcecheck banlist import` reading the same JSON shape."""

from __future__ import annotations

import json

import pytest
from conftest import SHARED, cli_runner, faria, needs_shared, only, violations

from forcecheck.cli import app
from forcecheck.format_spec.loader import load_format

runner = cli_runner()

WANDERER = load_format("wanderer")
BANLIST = next(r for r in WANDERER.rules if r.id == "banlist")
VERSION = BANLIST.versions[0]
BANNED = sorted(VERSION.cards)
COMBINATIONS = VERSION.combinations
CANONICAL = {"Scheherazade of the Catastrophic Nights": "Speaker of Eternal Night"}
"""The list names one J-ruler side: the card is its ruler's."""


def test_the_shipped_version_cites_its_source_and_its_date_caveat():
    assert VERSION.name == "Wanderer banned list (fowsim, recorded 2022-06-15)"
    assert str(VERSION.effective) == "2022-06-15"
    assert "fowsim/constants.py" in VERSION.source and "no effective date" in VERSION.source
    assert len(BANNED) == 29 and set(VERSION.cards.values()) == {0}  # 31 printings, 29 names, 28 cards
    assert len(COMBINATIONS) == 24 and all(len(c) == 2 for c in COMBINATIONS)
    assert [r for r in load_format("bifrost").rules if r.kind == "banlist"] == []  # Bifrost keeps no banlist


@needs_shared
def test_the_shipped_list_is_the_shared_record():
    record = json.loads((SHARED / "data" / "fow" / "fowsim-wanderer-banlist.json").read_text(encoding="utf-8"))
    assert set(BANNED) == {item["name"] for item in record["banned"]}
    assert COMBINATIONS == [[a["name"], b["name"]] for a, b in record["combination_banned"]]


@pytest.mark.parametrize("name", BANNED)
def test_each_banned_card_fails_in_wanderer_and_passes_in_bifrost(name):
    text = faria(side=[(1, name)])  # the list covers every section; the sideboard holds any card
    v = only(text, "wanderer")
    card = CANONICAL.get(name, name)
    assert (v.code, v.rule, v.section, v.card, v.found, v.limit, v.line) == ("FC601", "banlist", "side", card, 1, "0 (forbidden)", 25)
    assert v.message == f"{card} is forbidden on {VERSION.name}: the deck has 1"
    assert violations(text, "bifrost") == []


def test_a_card_banned_by_one_printing_is_banned_in_every_printing():
    """Galahad is listed as TTW-006; the VS01-004 reprint is the same card, banned by name."""
    v = only(faria(side=[(1, "Galahad, the Son of the God (VS01-004)")]), "wanderer")
    assert (v.rule, v.card, v.found) == ("banlist", "Galahad, the Son of the God", 1)


def test_a_combination_ban_reports_both_cards_and_both_lines():
    a, b = "Rewriting Laws", "Melfee, Traveling Sorceress"
    assert [a, b] in COMBINATIONS
    found = violations(faria(side=[(1, a), (1, b)]), "wanderer")
    assert [(v.code, v.rule, v.section, v.card, v.line, v.found, v.limit) for v in found] == [
        ("FC601", "banlist", "side", a, 25, 2, "not together"),
        ("FC601", "banlist", "side", b, 26, 2, "not together"),
    ]
    assert found[0].message == f"{a} may not be used together with {b} (line 26) on {VERSION.name}"
    assert found[1].message == f"{b} may not be used together with {a} (line 25) on {VERSION.name}"
    assert violations(faria(side=[(1, a)]), "wanderer") == []  # one of the two alone is fine
    assert violations(faria(side=[(1, a), (1, b)]), "bifrost") == []


def test_a_combination_ban_on_two_tag_rulers():
    """Almerius and Moojdart may start together ([Tag] (Six Sages)), but not in Wanderer."""
    from conftest import FARIA_MAIN, FARIA_STONES, deck_text

    text = deck_text(ruler=[(1, "Almerius"), (1, "Moojdart")], main=FARIA_MAIN, stones=FARIA_STONES)
    assert violations(text, "bifrost") == []
    found = violations(text, "wanderer")
    assert [(v.rule, v.section, v.card, v.line) for v in found] == [
        ("banlist", "ruler", "Almerius", 2),
        ("banlist", "ruler", "Moojdart", 3),
    ]


def test_no_list_applies_before_it_is_known_in_use(tmp_path):
    deck = tmp_path / "d.txt"
    deck.write_text(faria(side=[(1, "Magical Dragon")]), encoding="utf-8")
    """Before the list is known in use no list applies: no verdict (FC602, an error), never legal by
    no list; from that day the list applies (Magical Dragon is banned)."""
    for as_of, codes, banlist in (("2022-06-14", ["FC602"], None), ("2022-06-15", ["FC601"], VERSION.name)):
        result = runner.invoke(app, ["check", str(deck), "-f", "wanderer", "--as-of", as_of, "-o", "json"])
        report = json.loads(result.stdout)["decks"][0]
        assert (report["legal"], report["banlist"]) == (False, banlist)
        assert [v["code"] for v in report["violations"] if v["severity"] == "error"] == codes


# --- banlist import: the same JSON shape --------------------------------------------------------------

def _json_list(tmp_path, **changes):
    document = {
        "source": "made up for the tests",
        "first_seen_date": "2030-01-01",
        "format": "Wanderer",
        "banned": [{"id": "TTW-006", "name": "Galahad, the Son of the God"}, {"id": "CMF-029"}],
        "combination_banned": [[{"id": "X-1", "name": "Excalibur"}, {"id": "X-2", "name": "Viviane"}]],
    }
    document.update(changes)
    path = tmp_path / "list.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_banlist_import_reads_the_json_shape_and_check_applies_it(tmp_path):
    db = tmp_path / "c.db"
    result = runner.invoke(app, ["banlist", "import", str(_json_list(tmp_path)), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "imported 1 list(s)" in result.stdout
    listed = runner.invoke(app, ["banlist", "list", "--db", str(db)]).stdout
    assert "Wanderer banned list (2030-01-01)" in listed and "2 entries, 1 combination bans" in listed
    shown = runner.invoke(app, ["banlist", "show", "Wanderer banned list (2030-01-01)", "--db", str(db)]).stdout
    assert "Excalibur + Viviane" in shown
    deck = tmp_path / "d.txt"
    deck.write_text(faria(side=[(1, "Galahad, the Son of the God")]), encoding="utf-8")
    # the same file straight from --banlist-file (the catalog imported above holds a list but no cards)
    args = ["check", str(deck), "-f", "wanderer", "--banlist-file", str(_json_list(tmp_path)), "--as-of", "2030-06-01", "-o", "json"]
    report = json.loads(runner.invoke(app, args).stdout)["decks"][0]
    assert report["banlist"] == "Wanderer banned list (2030-01-01)"
    found = [(v["rule"], v["card"], v["limit"]) for v in report["violations"]]
    assert ("banlist", "Galahad, the Son of the God", "0 (forbidden)") in found
    assert sum(1 for v in report["violations"] if v["limit"] == "not together") == 2  # Excalibur and Viviane, both in Faria's deck


def test_a_json_file_with_an_entry_it_cannot_read_is_never_applied(tmp_path):
    """An entry with neither name nor id was skipped: the card it meant would go unchecked."""
    deck = tmp_path / "d.txt"
    deck.write_text(faria(side=[(1, "Galahad, the Son of the God")]), encoding="utf-8")
    path = _json_list(tmp_path, banned=[{"id": "TTW-006", "name": "Galahad, the Son of the God"}, {"note": "the card of CMF-029"}])
    result = runner.invoke(app, ["check", str(deck), "-f", "wanderer", "--banlist-file", str(path), "--as-of", "2030-06-01"])
    assert result.exit_code == 2 and result.stdout == ""
    assert (f"{path}: list 'Wanderer banned list (2030-01-01)' cannot be applied: banned[1]: no card name or printing id, and a card named on an entry "
            "that cannot be read would go unchecked") in result.stderr


def test_banlist_import_refuses_json_that_is_no_list(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"banned": [\n  {"id": "A-1",}\n]}', encoding="utf-8")
    result = runner.invoke(app, ["banlist", "import", str(bad), "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 2 and f"{bad}:2: not JSON" in result.stderr and "the catalog was not changed" in result.stderr
    other = tmp_path / "other.json"
    other.write_text('{"cards": []}', encoding="utf-8")
    result = runner.invoke(app, ["banlist", "import", str(other), "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 2 and 'not a banned-list JSON: expected an object with a "banned"' in result.stderr


def test_banlist_import_refuses_a_list_with_entries_it_cannot_read(tmp_path):
    """Imported without them, the cards they meant would go unchecked at every later check."""
    path = _json_list(tmp_path, banned=[{"id": "TTW-006", "name": "Galahad, the Son of the God"}, {"note": "?"}],
                      combination_banned=[[{"name": "Excalibur"}]])
    db = tmp_path / "c.db"
    result = runner.invoke(app, ["banlist", "import", str(path), "--db", str(db)])
    assert result.exit_code == 2 and result.stdout == ""
    assert (f"{path}: list 'Wanderer banned list (2030-01-01)' cannot be applied: banned[1]: no card name or printing id (and 1 more entry(s))"
            in result.stderr) and "(the catalog was not changed)" in result.stderr
    whole = _json_list(tmp_path)
    assert runner.invoke(app, ["banlist", "import", str(whole), "--db", str(db)]).exit_code == 0


@needs_shared
def test_import_the_shared_record_and_check_real_cards(tmp_path, real_fow_catalog):
    db = tmp_path / "c.db"
    result = runner.invoke(app, ["banlist", "import", str(SHARED / "data" / "fow" / "fowsim-wanderer-banlist.json"), "--db", str(db)])
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["banlist", "list", "--db", str(db)]).stdout
    assert "Wanderer banned list (2022-06-15)" in listed and "29 entries, 24 combination bans" in listed
    # every banned printing, written as a printing code, is banned by name on the real catalog
    record = json.loads((SHARED / "data" / "fow" / "fowsim-wanderer-banlist.json").read_text(encoding="utf-8"))
    for item in record["banned"]:
        found = [v for v in violations(faria(side=[(1, item["id"])]), "wanderer", catalog=real_fow_catalog) if v.rule == "banlist"]
        assert [(v.card, v.limit) for v in found] == [(CANONICAL.get(item["name"], item["name"]), "0 (forbidden)")], item
