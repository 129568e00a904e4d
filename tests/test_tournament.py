"""Tournament workflow: registration batches, deck checks at the table, dated banlists."""

from __future__ import annotations

import csv
import json
import random

import pytest
from conftest import FARIA_MAIN, FARIA_STONES, FARIA_STRANGERS, SAMPLES, cli_runner, faria

from forcecheck.cli import app

runner = cli_runner()

HEADER_STYLES = [
    {"ruler": "Ruler:", "main": "Main Deck:", "stones": "Magic Stone Deck:", "stranger": "Stranger Deck:", "side": "Sideboard:"},
    {"ruler": "RULER", "main": "MAIN DECK:", "stones": "Magic Stones:", "stranger": "Strangers:", "side": "Side Deck:"},
    {"ruler": "ruler:", "main": "Main:", "stones": "stone deck:", "stranger": "stranger deck:", "side": "SB:"},
]


def write_text_deck(rng, player, sections):
    style = rng.choice(HEADER_STYLES)
    lines = [f"# Player: {player}", "// generated submission"]
    for key, entries in sections.items():
        if not entries:
            continue
        lines.append(style[key])
        entries = list(entries)
        rng.shuffle(entries)
        for count, name in entries:
            if count > 1 and rng.random() < 0.3:  # the same card on two lines sums
                lines.append(f"{count - 1} {name}")
                count = 1
            form = rng.choice(["{c} {n}", "{c}x {n}", "{c} x {n}", "{n} x{c}"])
            lines.append(form.format(c=count, n=rng.choice([name, name.upper(), name.lower()])))
    return "\n".join(lines) + "\n"


def write_yaml_deck(player, sections):
    titles = {"ruler": "Ruler", "main": "Main Deck", "stones": "Magic Stone Deck", "stranger": "Stranger Deck", "side": "Sideboard"}
    out = ["format: bifrost", f"player: {player}", "sections:"]
    for key, entries in sections.items():
        if entries:
            out.append(f"  {titles[key]}:")
            out += [f'    - "{c} {n}"' for c, n in entries]
    return "\n".join(out) + "\n"


DEFECTS = {
    "legal": (set(), lambda s: s),
    "five-copies": ({"FC201"}, lambda s: {**s, "side": [(1, "Viviane")]}),
    "short-main": ({"FC101"}, lambda s: {**s, "main": FARIA_MAIN[:-1] + [(3, "Viviane")]}),
    "misspelled": ({"FC001"}, lambda s: {**s, "main": FARIA_MAIN[:-1] + [(4, "Vivi of the Unknown Lake")]}),
    "stranger-in-main": ({"FC302"}, lambda s: {**s, "main": FARIA_MAIN[:-1] + [(3, "Viviane"), (1, "Red Wizard (Stranger)")]}),
    "too-many-stones": ({"FC101"}, lambda s: {**s, "stones": [(21, "Light Magic Stone")]}),
}


def test_registration_of_200_generated_submissions(tmp_path):
    rng = random.Random(7)
    folder = tmp_path / "submissions"
    folder.mkdir()
    expected = {}
    base = {"ruler": [(1, "Faria")], "main": FARIA_MAIN, "stones": FARIA_STONES, "stranger": FARIA_STRANGERS, "side": []}
    for i in range(194):
        defect = rng.choice(list(DEFECTS))
        codes, change = DEFECTS[defect]
        player = f"Player {i:03d}"
        sections = change(dict(base))
        if i % 4 == 0:
            name, text = f"p{i:03d}.yaml", write_yaml_deck(player, sections)
        else:
            name, text = f"p{i:03d}.txt", write_text_deck(rng, player, sections)
        (folder / name).write_text(text, encoding="utf-8")
        expected[name] = ("legal" if not codes else "illegal", codes, player)
    # a player who registered twice, an unreadable file, files that are not decklists
    (folder / "p900.txt").write_text(write_text_deck(rng, "Player 001", base))
    expected["p900.txt"] = ("legal", set(), "Player 001")
    (folder / "p901.txt").write_bytes(b"\x00\x01\x02binary")
    expected["p901.txt"] = ("unreadable", set(), "p901")
    (folder / "p902.txt").write_bytes("Main Deck:\n4 ファリア\n".encode("shift_jis"))
    expected["p902.txt"] = ("unreadable", set(), "p902")
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4")
    expected["scan.pdf"] = ("not-a-decklist", set(), "scan")
    (folder / "notes.docx").write_bytes(b"PK")
    expected["notes.docx"] = ("not-a-decklist", set(), "notes")
    (folder / "p903.txt").write_text("")
    expected["p903.txt"] = ("unreadable", set(), "p903")
    assert len(expected) == 200

    out = tmp_path / "out"
    result = runner.invoke(app, ["register", str(folder), "--format", "bifrost", "--output", str(out), "--jobs", "2"])
    assert result.exit_code == 2, result.output  # unreadable submissions and non-decklists
    with open(out / "registrations.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 200
    by_file = {r["file"]: r for r in rows}
    for name, (status, codes, player) in expected.items():
        row = by_file[name]
        assert row["status"] == status, (name, row)
        assert set(row["codes"].split()) == codes, (name, row)
        assert row["player"] == player
        if status in ("legal", "illegal"):
            assert row["fingerprint"].startswith("fc1-")
    statuses = [r["status"] for r in rows]
    assert statuses == sorted(statuses, key=["illegal", "unreadable", "not-a-decklist", "legal"].index)  # illegal first
    assert {r["file"] for r in rows if r["duplicate_player"] == "True"} == {n for n, e in expected.items() if e[2] == "Player 001"}
    assert len({n for n, e in expected.items() if e[2] == "Player 001"}) == 2
    doc = json.loads((out / "registrations.json").read_text())
    summary = doc["summary"]
    assert summary["files"] == 200 and summary["not_decklists"] == 2 and summary["unreadable"] == 3
    assert summary["legal"] == sum(1 for e in expected.values() if e[0] == "legal")
    assert summary["illegal"] == sum(1 for e in expected.values() if e[0] == "illegal")
    assert summary["duplicate_players"] == ["Player 001"]
    # the same decks give the same fingerprints whatever their style
    legal_prints = {r["fingerprint"] for r in rows if r["status"] == "legal"}
    assert len(legal_prints) == 1


def test_register_jobs_1_and_2_agree(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    for _i, path in enumerate(sorted((SAMPLES / "bifrost").iterdir())):
        (folder / path.name).write_bytes(path.read_bytes())
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"o{jobs}"
        runner.invoke(app, ["register", str(folder), "-f", "bifrost", "--output", str(out), "--jobs", jobs])
        outs.append((out / "registrations.csv").read_text())
    assert outs[0] == outs[1]


def test_register_empty_folder_and_missing_folder(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["register", str(empty), "-f", "bifrost", "--output", str(tmp_path / "o")])
    assert result.exit_code == 2 and "0 decklists in 0 files" in result.stdout and "no submissions" in result.stderr
    assert json.loads((tmp_path / "o" / "registrations.json").read_text())["registrations"] == []
    result = runner.invoke(app, ["register", str(tmp_path / "nope"), "-f", "bifrost"])
    assert result.exit_code == 2 and "not a folder" in result.stderr


def test_register_all_legal_exits_0_and_duplicates_exit_1(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "a.txt").write_text("# Player: Ana\n" + faria())
    (folder / "b.txt").write_text("# Player: Bea\n" + faria())
    result = runner.invoke(app, ["register", str(folder), "-f", "bifrost", "--output", str(tmp_path / "o")])
    assert result.exit_code == 0
    (folder / "c.txt").write_text("# player:  ana \n" + faria())
    result = runner.invoke(app, ["register", str(folder), "-f", "bifrost", "--output", str(tmp_path / "o")])
    assert result.exit_code == 1 and "players registered twice: Ana" in result.stdout


def test_register_run_twice_in_its_folder_does_not_read_its_own_tables(tmp_path, monkeypatch):
    """``cd submissions && forcecheck register .`` writes its tables there; the next run reads
    the submissions again, not last run's tables (which would be "not a decklist" rows, exit 2)."""
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "a.txt").write_text("# Player: Ana\n" + faria())
    monkeypatch.chdir(folder)
    for run in range(2):
        result = runner.invoke(app, ["register", ".", "-f", "bifrost"])
        assert result.exit_code == 0, result.stdout + result.stderr
        rows = json.loads((folder / "registrations.json").read_text())["registrations"]
        assert [r["file"] for r in rows] == ["a.txt"]
        said = "registrations.csv, registrations.json: where this run writes its registration tables, read as the last run's tables"
        assert (said in result.stderr) is (run == 1)  # the second run says which files it passed over


def test_register_never_writes_its_report_over_a_submission(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "a.txt").write_text(faria())
    result = runner.invoke(app, ["register", str(folder), "-f", "bifrost", "--output", str(tmp_path / "o"),
                                 "--output-file", str(folder / "a.txt")])
    assert result.exit_code == 2 and "--output-file" in result.stderr and "which this run reads" in result.stderr
    assert (folder / "a.txt").read_text() == faria() and not (tmp_path / "o").exists()


def test_the_registration_csv_never_hands_a_spreadsheet_a_formula(tmp_path):
    """A player (or title, or file) written ``=HYPERLINK(...)``, ``+cmd``, ``@SUM(1)`` or ``-2+3``
    is text in the CSV (a leading ``'``, as spreadsheets show text); the JSON keeps it as written."""
    folder = tmp_path / "s"
    folder.mkdir()
    names = ['=HYPERLINK("http://evil","x")', "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3", "Plain Name"]
    for index, name in enumerate(names):
        (folder / f"p{index}.txt").write_text(f"# Player: {name}\n" + faria())
    result = runner.invoke(app, ["register", str(folder), "-f", "bifrost", "--output", str(tmp_path / "o")])
    assert result.exit_code == 0, result.stdout + result.stderr
    with open(tmp_path / "o" / "registrations.csv", newline="") as fh:
        players = {row["file"]: row["player"] for row in csv.DictReader(fh)}
    assert [players[f"p{i}.txt"] for i in range(len(names))] == ["'" + n for n in names[:4]] + ["Plain Name"]
    rows = json.loads((tmp_path / "o" / "registrations.json").read_text())["registrations"]
    assert sorted(r["player"] for r in rows) == sorted(names)


def test_a_player_registered_twice_in_full_width_letters_is_the_same_player(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "a.txt").write_text("# Player: \uff21\uff2e\uff21\n" + faria())  # ＡＮＡ
    (folder / "b.txt").write_text("# Player: Ana\n" + faria())
    result = runner.invoke(app, ["register", str(folder), "-f", "bifrost", "--output", str(tmp_path / "o")])
    assert result.exit_code == 1 and "players registered twice" in result.stdout
    rows = json.loads((tmp_path / "o" / "registrations.json").read_text())["registrations"]
    assert all(r["duplicate_player"] for r in rows)


# --- verify ------------------------------------------------------------------------------------

def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def verify(*args):
    return runner.invoke(app, ["verify", *args])


def test_verify_identical_in_another_form(tmp_path):
    reg = write(tmp_path, "reg.txt", faria(side=[(3, "Miscalculation")]))
    played = write(tmp_path, "played.txt", faria(side=[(3, "Miscalculation")]).replace("4 Viviane", "2 viviane\n2 VIVIANE"))
    result = verify(reg, played, "-f", "bifrost")
    assert result.exit_code == 0 and "identical to the registered list" in result.stdout


def test_verify_legal_sideboard_exchange_lists_the_swap(tmp_path):
    reg = write(tmp_path, "reg.txt", faria(side=[(3, "Miscalculation")]))
    swapped = faria(main=FARIA_MAIN[:-1] + [(2, "Viviane"), (2, "Miscalculation")], side=[(1, "Miscalculation"), (2, "Viviane")])
    played = write(tmp_path, "played.txt", swapped)
    result = verify(reg, played, "-f", "bifrost", "-o", "json")
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["status"] == "sideboard-exchange" and doc["ok"]
    changes = {c["section"]: (c["added"], c["removed"]) for c in doc["changes"]}
    assert changes == {
        "main": ({"Miscalculation": 2}, {"Viviane": 2}),
        "side": ({"Viviane": 2}, {"Miscalculation": 2}),
    }


@pytest.mark.parametrize(
    "played_changes,reason",
    [
        ({"ruler": "Melgis"}, "Ruler may not exchange cards with the sideboard"),
        ({"side": [(3, "Miscalculation"), (1, "Relief Aid")]}, "Sideboard has 4 cards, registered with 3"),
        ({"main": FARIA_MAIN[:-1] + [(4, "Jewel Step")], "side": [(3, "Miscalculation")]}, "not from the registered list: 4 Jewel Step"),
    ],
)
def test_verify_what_is_not_a_legal_exchange(tmp_path, played_changes, reason):
    reg = write(tmp_path, "reg.txt", faria(side=[(3, "Miscalculation")]))
    played = write(tmp_path, "played.txt", faria(**{"side": [(3, "Miscalculation")], **played_changes}))
    result = verify(reg, played, "-f", "bifrost")
    assert result.exit_code == 1 and "NOT the registered list" in result.stdout and reason in result.stdout


def test_verify_rune_deck_is_locked(tmp_path):
    from conftest import ATOM_RUNES, atom

    reg = write(tmp_path, "reg.txt", atom(side=[(1, "Mini Meteor")]))
    played = write(tmp_path, "played.txt", atom(rune=ATOM_RUNES[:4] + [(1, "Mini Meteor")], side=[(1, "Odin's Judgment")]))
    result = verify(reg, played, "-f", "bifrost")
    assert result.exit_code == 1 and "Rune Deck may not exchange cards with the sideboard" in result.stdout


def test_verify_decks_of_different_formats_is_a_clear_error(tmp_path):
    reg = write(tmp_path, "reg.yaml", "format: bifrost\nsections:\n  Ruler: Faria\n")
    played = write(tmp_path, "played.yaml", "format: ygo-5ds\nsections:\n  Main Deck: [3 Junk Synchron]\n")
    result = verify(reg, played)
    assert result.exit_code == 2 and "different formats" in result.stderr


def test_verify_abc_has_no_sideboard_so_any_change_differs(tmp_path):
    text = (SAMPLES / "abc" / "legal-official-wb-holy-protector.txt").read_text()
    reg = write(tmp_path, "reg.txt", text)
    played = write(tmp_path, "played.txt", text.replace("3 Light Magic Stone", "4 Light Magic Stone").replace("3 Water Magic Stone", "2 Water Magic Stone"))
    result = verify(reg, played, "-f", "abc")
    assert result.exit_code == 1 and "has no sideboard" in result.stdout


# --- dated banlists -----------------------------------------------------------------------------

DATED = """\
name: dated
title: Bifrost with a dated test banlist
game: fow
extends: bifrost
rules:
  - id: banned-cards
    kind: banlist
    sections: [main, extra, rune, stranger, side]
    description: Banned and combination-banned cards (test data, not an official list)
    versions:
      - name: Test list 2020-01
        effective: 2020-01-15
        source: forcecheck tests (made up)
        cards: {Viviane: 0}
      - name: Test list 2024-06
        effective: 2024-06-01
        source: forcecheck tests (made up)
        cards: {Excalibur: 1}
        combinations:
          - ["Kai, the Resonant Knight", "Perceval, the Seeker of Holy Grail"]
"""


def dated_check(tmp_path, as_of, deck=None):
    (tmp_path / "dated.yaml").write_text(DATED)
    path = write(tmp_path, "d.txt", deck or faria())
    result = runner.invoke(app, ["check", path, "-f", "dated", "--formats-dir", str(tmp_path), "--as-of", as_of, "-o", "json"])
    return result, json.loads(result.stdout)["decks"][0]


def test_dated_banlist_versions_by_date(tmp_path):
    result, deck = dated_check(tmp_path, "2019-12-31")
    assert result.exit_code == 1 and deck["banlist"] is None  # no version in force yet: no verdict (FC602)
    assert [(v["code"], v["severity"]) for v in deck["violations"]] == [("FC602", "error")]
    result, deck = dated_check(tmp_path, "2020-01-15")
    assert deck["banlist"] == "Test list 2020-01"
    assert [(v["code"], v["rule"], v["card"], v["found"], v["limit"]) for v in deck["violations"]] == [
        ("FC601", "banned-cards", "Viviane", 4, "0 (forbidden)")
    ]
    result, deck = dated_check(tmp_path, "2025-03-01")
    assert deck["banlist"] == "Test list 2024-06"
    found = [(v["rule"], v["card"], v["found"], v["limit"]) for v in deck["violations"]]
    assert ("banned-cards", "Excalibur", 4, "at most 1") in found
    # a combination ban is reported on each card's line, naming the other card and its line
    combos = [v for v in deck["violations"] if v["limit"] == "not together"]
    assert [(v["code"], v["card"], v["line"], v["found"]) for v in combos] == [
        ("FC601", "Perceval, the Seeker of Holy Grail", 5, 2),
        ("FC601", "Kai, the Resonant Knight", 7, 2),
    ]
    assert combos[1]["message"] == (
        "Kai, the Resonant Knight may not be used together with Perceval, the Seeker of Holy Grail (line 5) on Test list 2024-06"
    )


def test_combination_needs_every_card(tmp_path):
    deck = faria(main=[e for e in FARIA_MAIN if e[1] != "Kai, the Resonant Knight"] + [(4, "Jewel Step")])
    result, report = dated_check(tmp_path, "2025-03-01", deck)
    assert "not together" not in {v["limit"] for v in report["violations"]}


def test_a_spec_banlist_needs_a_cited_source(tmp_path):
    (tmp_path / "bad.yaml").write_text(DATED.replace("name: dated", "name: bad").replace("        source: forcecheck tests (made up)\n        cards: {Viviane: 0}\n", "        cards: {Viviane: 0}\n"))
    result = runner.invoke(app, ["formats", "show", "bad", "--formats-dir", str(tmp_path)])
    assert result.exit_code == 2 and "source" in result.stderr and "Field required" in result.stderr


def test_text_decklist_metadata_comments():
    from forcecheck.decklists.text import read_text_decklist

    deck = read_text_decklist("# Player: Jane Doe\n// Deck: Faria knights\n# Event: Regionals\nRuler: Faria\n", "d.txt", {"ruler"})
    assert (deck.metadata, deck.name) == ({"player": "Jane Doe", "event": "Regionals"}, "Faria knights")


def test_a_file_in_which_no_card_is_read_has_no_fingerprint_and_verifies_nothing(tmp_path):
    """Prose (every line read as a title or heading) would hash as the empty deck: any two such
    files would be "identical". fingerprint and verify stop instead (exit 2)."""
    essay = write(tmp_path, "essay.txt", "hello world\nthis is my essay\n")
    other = write(tmp_path, "other.txt", "outside secret\n")
    result = runner.invoke(app, ["fingerprint", str(essay), "-f", "bifrost"])
    assert result.exit_code == 2 and "essay.txt: no card read in it (is it a decklist?); nothing to fingerprint" in result.stderr
    result = verify(str(essay), str(other), "-f", "bifrost")
    assert result.exit_code == 2 and "nothing to compare" in result.stderr
    unknown = write(tmp_path, "unknown.txt", "Main Deck:\n4 Zorblax the Unseen\n")  # an unknown card is still a card
    assert runner.invoke(app, ["fingerprint", str(unknown), "-f", "bifrost"]).exit_code == 0
