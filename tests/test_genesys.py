"""Yu-Gi-Oh! Genesys (issue 40): points by card from a $genesys list, a cap on the deck's total
(the format's 100, or the event's --points-cap / points_cap), no Link and no Pendulum monsters, no
Forbidden/Limited list; a points list is never read as copy caps, nor a copy-cap list as points."""

from __future__ import annotations

import pytest
from conftest import SAMPLES, SHARED, cli_runner, needs_shared

from forcecheck.banlists import Banlist, parse_lflist
from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache, check_file
from forcecheck.cli import app

runner = cli_runner()
SKY = SAMPLES / "ygo-tcg" / "legal-sky-striker.ydk"
"""A TCG deck of the sample catalog: 40 main, 15 extra (every one a Link monster but Abyss Dweller), 10 side."""
GENESYS_FILE = SHARED / "data" / "ygo" / "lflist" / "projectignis_Genesys_2026.06.08.lflist.conf"
LIST_TEXT = """\
#[2026.06.08 Genesys]
!2026.06.08 Genesys
$genesys
# 20 Points
14558127 20 -- Ash Blossom & Joyous Spring
94145021 20 -- Droll & Lock Bird
# 100 Points
21044178 100  - Abyss Dweller
"""
"""A small points list in EDOPro's form (the last entry's comment after a lone '-', as one line of
the published list has it)."""


def points_list() -> Banlist:
    (found,), warnings = parse_lflist(LIST_TEXT, "test")
    assert warnings == []
    return found


def findings(path=SKY, banlist=None, points_cap=None, format_name="ygo-genesys"):
    formats = FormatCache(banlist=points_list() if banlist is None else banlist, catalog=sample_catalog(), points_cap=points_cap)
    report = check_file(path, sample_catalog(), formats, format_name)
    assert report.error is None
    return report


def points_findings(report):
    return [(v.code, v.rule, v.card, v.line, v.found, v.limit) for v in report.violations if v.rule == "points-cap"]


# --- the list --------------------------------------------------------------------------------------------------

def test_a_genesys_list_is_a_points_list_with_any_number_of_points():
    found = points_list()
    assert found.points and not found.whitelist
    assert found.entries == {"14558127": 20, "94145021": 20, "21044178": 100}  # 100 kept: points, not a copy cap of 3
    assert found.labels["21044178"] == "Abyss Dweller"


def test_a_forbidden_limited_list_is_no_points_list_and_keeps_its_caps():
    (found,), warnings = parse_lflist("!2026.5 TCG\n14558127 1 --Ash Blossom\n55144522 7 --Pot of Greed\n", "test")
    assert not found.points and found.entries == {"14558127": 1}
    assert [w.message for w in warnings] == ["count 7 is over 3; skipped"]


def test_a_points_list_is_stored_and_listed_as_one(tmp_path):
    path = tmp_path / "Genesys.lflist.conf"
    path.write_text(LIST_TEXT, encoding="utf-8")
    db = tmp_path / "c.db"
    assert runner.invoke(app, ["banlist", "import", str(path), "--catalog", str(db)]).exit_code == 0
    listed = runner.invoke(app, ["banlist", "list", "--catalog", str(db)]).stdout
    assert "2026.06.08 Genesys" in listed and "  points  (" in listed
    shown = runner.invoke(app, ["banlist", "show", "2026.06.08 Genesys", "--catalog", str(db)]).stdout
    assert shown.startswith("2026.06.08 Genesys (points list, date 2026-06-08") and "  100 points (1):" in shown and "  20 points (2):" in shown
    from forcecheck.cards.store import SqliteCatalog

    stored = SqliteCatalog(db).banlist("2026.06.08 Genesys")
    assert stored.points and stored.entries["21044178"] == 100


# --- the cap ---------------------------------------------------------------------------------------------------

def test_over_the_cap_is_one_error_naming_the_total_the_cap_and_the_cards():
    report = findings()
    # Abyss Dweller 100 + Ash Blossom 3 x 20 + Droll & Lock Bird 3 x 20 = 220
    assert points_findings(report) == [("FC601", "points-cap", "Abyss Dweller", 58, 220, "at most 100")]
    (message,) = [v.message for v in report.violations if v.rule == "points-cap"]
    assert message == ("the deck carries 220 points on 2026.06.08 Genesys, over the cap of 100: Abyss Dweller 1 x 100, "
                       "Ash Blossom & Joyous Spring 3 x 20, Droll & Lock Bird 3 x 20")


def test_at_the_cap_passes_and_the_events_cap_replaces_the_formats():
    assert points_findings(findings(points_cap=220)) == []  # exactly the cap: allowed
    assert points_findings(findings(points_cap=219)) == [("FC601", "points-cap", "Abyss Dweller", 58, 220, "at most 219")]
    lighter = points_list()
    lighter.entries["21044178"] = 0  # Abyss Dweller worth nothing: 120 points
    assert points_findings(findings(banlist=lighter, points_cap=120)) == []
    assert [f[4:] for f in points_findings(findings(banlist=lighter))] == [(120, "at most 100")]


def test_a_cap_of_zero_allows_only_cards_worth_nothing():
    unpointed = Banlist(name="2026.06.08 Genesys", game="ygo", entries={"14558127": 0}, points=True)
    assert points_findings(findings(banlist=unpointed, points_cap=0)) == []
    assert [f[4:] for f in points_findings(findings(points_cap=0))] == [(220, "at most 0")]


def test_link_and_pendulum_monsters_are_errors_whatever_their_points():
    report = findings(points_cap=10_000)
    banned = {(v.code, v.card) for v in report.violations if v.rule == "no-link-or-pendulum"}
    assert ("FC302", "Linkuriboh") in banned and ("FC302", "Sky Striker Ace - Kagari") in banned
    assert ("FC302", "Abyss Dweller") not in banned  # an Xyz monster
    odd = findings(SAMPLES / "ygo-tcg" / "legal-odd-eyes-pendulum.txt", points_cap=10_000)
    assert ("FC302", "Odd-Eyes Pendulum Dragon") in {(v.code, v.card) for v in odd.violations if v.rule == "no-link-or-pendulum"}


def test_no_forbidden_limited_list_applies_but_three_copies_do(tmp_path):
    report = findings(points_cap=10_000)
    assert not [v for v in report.violations if v.rule == "forbidden-limited"]
    four = tmp_path / "four.ydk"
    four.write_text(SKY.read_text(encoding="utf-8").replace("!side\n", "!side\n14558127\n", 1), encoding="utf-8")  # a 4th Ash Blossom
    copies = [(v.rule, v.card, v.found) for v in findings(four, points_cap=10_000).violations if v.rule == "copy-limit"]
    assert copies == [("copy-limit", "Ash Blossom & Joyous Spring", 4)]


# --- the wrong kind of list, and none --------------------------------------------------------------------------

def test_a_points_list_named_for_a_forbidden_limited_format_is_refused():
    report = findings(format_name="ygo-tcg")
    (refused,) = [v for v in report.violations if v.rule == "forbidden-limited"]
    assert refused.code == "FC601" and refused.message.startswith("2026.06.08 Genesys is a points list (Genesys), not a Forbidden/Limited list")
    assert not report.legal


def test_a_forbidden_limited_list_named_for_genesys_is_refused():
    tcg = Banlist(name="2026.5 TCG", game="ygo", entries={"14558127": 1})
    report = findings(banlist=tcg)
    (refused,) = [v for v in report.violations if v.rule == "points-cap"]
    assert refused.message.startswith("2026.5 TCG is a Forbidden/Limited list, not a points list")
    assert not report.legal


def test_without_its_list_genesys_gives_no_verdict_and_says_where_the_list_is():
    report = check_file(SKY, sample_catalog(), FormatCache(catalog=sample_catalog()), "ygo-genesys")
    (missing,) = [v for v in report.violations if v.rule == "points-cap"]
    assert "no list to apply, so the deck's points cannot be counted" in missing.message
    assert "Genesys.lflist.conf" in missing.message and "forcecheck banlist import" in missing.message
    assert not report.legal


def test_a_genesys_list_imported_as_copy_caps_is_asked_to_be_imported_again(tmp_path):
    """A catalog where the list was imported before forcecheck read $genesys: its rows say
    nothing of points. It is not used as points (nor as caps), and the finding says what to do."""
    import sqlite3

    path = tmp_path / "Genesys.lflist.conf"
    path.write_text(LIST_TEXT, encoding="utf-8")
    db = tmp_path / "c.db"
    assert runner.invoke(app, ["banlist", "import", str(path), "--catalog", str(db)]).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE banlist_points")  # as an older forcecheck left it
    from forcecheck.cards.store import SqliteCatalog

    catalog = SqliteCatalog(db)
    report = check_file(SKY, catalog, FormatCache(catalog=catalog), "ygo-genesys")
    (stale,) = [v for v in report.violations if v.rule == "points-cap"]
    assert "2026.06.08 Genesys was imported as a Forbidden/Limited list by a forcecheck that did not read points lists" in stale.message


# --- the cap from the command line, the environment and the configuration ------------------------------------

@pytest.mark.parametrize("how", ["flag", "env", "config"])
def test_the_events_cap_comes_from_the_flag_the_environment_or_the_configuration(tmp_path, monkeypatch, how):
    path = tmp_path / "Genesys.lflist.conf"
    path.write_text(LIST_TEXT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = ["check", str(SKY), "-f", "ygo-genesys", "--banlist-file", str(path), "-o", "json", "--select", "points-cap"]
    env = {}
    if how == "flag":
        args += ["--points-cap", "220"]
    elif how == "env":
        env = {"FORCECHECK_POINTS_CAP": "220"}
    else:
        (tmp_path / ".forcecheck.yaml").write_text("points_cap: 220\n", encoding="utf-8")
    assert runner.invoke(app, args, env=env).exit_code == 0  # 220 of 220
    lower = {"flag": ["--points-cap", "219"], "env": [], "config": []}[how]
    if how == "env":
        env = {"FORCECHECK_POINTS_CAP": "219"}
    if how == "config":
        (tmp_path / ".forcecheck.yaml").write_text("points_cap: 219\n", encoding="utf-8")
    result = runner.invoke(app, [a for a in args if a not in ("--points-cap", "220")] + lower, env=env)
    assert result.exit_code == 1 and '"limit": "at most 219"' in result.stdout


def test_a_bad_cap_is_a_usage_error_or_a_configuration_error(tmp_path, monkeypatch):
    result = runner.invoke(app, ["check", str(SKY), "-f", "ygo-genesys", "--points-cap", "-1"])
    assert result.exit_code == 2 and "--points-cap" in result.stderr
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".forcecheck.yaml").write_text("points_cap: lots\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(SKY), "-f", "ygo-genesys"])
    assert result.exit_code == 2 and ".forcecheck.yaml:1: " in result.stderr and "'lots' is not a points cap" in result.stderr


# --- the published list, on real card data ---------------------------------------------------------------------

@needs_shared
def test_the_published_list_counts_a_real_deck(tmp_path, real_ygo_catalog):
    deck = tmp_path / "d.txt"
    deck.write_text("Main Deck:\n3 Ash Blossom & Joyous Spring\n3 Pot of Greed\n3 Effect Veiler\n", encoding="utf-8")
    (published,), warnings = parse_lflist(GENESYS_FILE.read_text(encoding="utf-8"), str(GENESYS_FILE))
    assert published.points and warnings == []  # every line read, the one with a lone '-' too
    report = check_file(deck, real_ygo_catalog, FormatCache(banlist=published, catalog=real_ygo_catalog), "ygo-genesys")
    # Pot of Greed 30, Ash Blossom 20, Effect Veiler 8 points each: 3 x 58 = 174
    assert [(v.rule, v.found, v.limit) for v in report.violations if v.rule == "points-cap"] == [("points-cap", 174, "at most 100")]


# --- a version whose public record is incomplete (issue 40: Wanderer's updates) --------------------------------

PARTIAL = """\
name: dated
title: Dated
game: fow
extends: bifrost
rules:
  - id: banned
    kind: banlist
    sections: [main]
    description: test
    versions:
      - {name: V1, effective: 2020-01-01, source: tests, cards: {Viviane: 0}}
      - {name: V2, effective: 2021-01-01, source: tests, cards: {Viviane: 0}, record: partial, missing: "the second half of the announcement"}
"""


def test_a_partly_known_version_says_so_on_every_report_and_a_complete_one_does_not(tmp_path):
    (tmp_path / "dated.yaml").write_text(PARTIAL, encoding="utf-8")
    deck = SAMPLES / "bifrost" / "legal-faria-stranger.txt"

    def run(as_of):
        formats = FormatCache([tmp_path], catalog=sample_catalog(), as_of=as_of)
        return check_file(deck, sample_catalog(), formats, "dated")

    partial = run("2021-06-01")
    (warning,) = [v for v in partial.violations if v.code == "FC603"]
    assert (warning.rule, warning.severity) == ("banned", "warning")
    assert warning.message == ("V2 (in force from 2021-01-01) is only partly known: the second half of the announcement; "
                               "a card it changed may be judged by the list before it (--banlist-file names a complete list)")
    assert [v.card for v in partial.violations if v.code == "FC601"] == ["Viviane"]  # the list still applies
    assert not [v for v in run("2020-06-01").violations if v.code == "FC603"]


def test_a_partial_version_must_say_what_is_missing(tmp_path):
    from forcecheck.errors import SpecError
    from forcecheck.format_spec.loader import load_format

    (tmp_path / "dated.yaml").write_text(PARTIAL.replace(', missing: "the second half of the announcement"', ""), encoding="utf-8")
    with pytest.raises(SpecError, match="a partial version says what is missing"):
        load_format("dated", [tmp_path])


def test_every_report_shows_the_decks_points_legal_or_not(tmp_path):
    import json

    path = tmp_path / "Genesys.lflist.conf"
    path.write_text(LIST_TEXT, encoding="utf-8")
    base = ["check", str(SKY), "-f", "ygo-genesys", "--banlist-file", str(path), "--select", "points-cap"]
    shown = json.loads(runner.invoke(app, base + ["-o", "json", "--points-cap", "500"]).stdout)["decks"][0]
    assert shown["legal"] and shown["points"] == {
        "list": "2026.06.08 Genesys", "cap": 500, "total": 220,
        "cards": [{"card": "Abyss Dweller", "copies": 1, "points": 100}, {"card": "Ash Blossom & Joyous Spring", "copies": 3, "points": 20},
                  {"card": "Droll & Lock Bird", "copies": 3, "points": 20}],
    }
    text = runner.invoke(app, base + ["--color", "never"], env={"COLUMNS": "200"}).stdout
    assert "main 40, extra 15, side 10, points 220 of 100" in text
    other = json.loads(runner.invoke(app, ["check", str(SKY), "-f", "ygo-tcg", "-o", "json"]).stdout)["decks"][0]
    assert "points" not in other  # only a points format says points


def test_stats_show_the_points_in_text_and_json(tmp_path):
    import json

    path = tmp_path / "Genesys.lflist.conf"
    path.write_text(LIST_TEXT, encoding="utf-8")
    base = ["stats", str(SKY), "-f", "ygo-genesys", "--banlist-file", str(path)]
    text = runner.invoke(app, base + ["--color", "never"], env={"COLUMNS": "200"}).stdout
    assert ("  points    220 of 100 on 2026.06.08 Genesys: Abyss Dweller 1 x 100; Ash Blossom & Joyous Spring 3 x 20; "
            "Droll & Lock Bird 3 x 20") in text
    shown = json.loads(runner.invoke(app, base + ["-o", "json", "--points-cap", "300"]).stdout)["decks"][0]
    assert (shown["points"]["total"], shown["points"]["cap"]) == (220, 300)
    tcg = json.loads(runner.invoke(app, ["stats", str(SKY), "-f", "ygo-tcg", "-o", "json"]).stdout)["decks"][0]
    assert "points" not in tcg


def test_a_superscript_digit_is_no_points_cap(tmp_path, monkeypatch):
    """Review: '²' passed str.isdigit and int() failed: an internal error (exit 3)."""
    result = runner.invoke(app, ["check", str(SKY), "-f", "ygo-genesys"], env={"FORCECHECK_POINTS_CAP": "²"})
    assert result.exit_code == 2 and "'²' is not a points cap" in result.stderr
    result = runner.invoke(app, ["check", str(SKY), "-f", "ygo-genesys"], env={"FORCECHECK_JOBS": "²"})
    assert result.exit_code == 2 and "not a whole number from 1 to 64" in result.stderr


def test_a_list_survives_pickling_as_it_was():
    """Review: the fields were declared missing-then-points but taken points-then-missing, so a
    pickled list (sent to a worker process) came back with the two swapped."""
    import pickle

    found = pickle.loads(pickle.dumps(Banlist(name="x", game="ygo", points=True, missing="half of it", unread=["line 3: x"])))
    assert (found.points, found.missing, found.unread) == (True, "half of it", ["line 3: x"])


# --- a list file with lines that cannot be read is never applied (never falsely legal) ----------------------

@pytest.mark.parametrize("bad, said", [
    ("Ash Blossom & Joyous Spring 20", "not 'passcode count': 'Ash Blossom & Joyous Spring 20'"),  # a name for a passcode
    ("14558127 -20 -- Ash Blossom", "-20 points: a card's points are 0 or more"),
])
def test_a_points_file_with_a_line_it_cannot_read_is_refused_naming_the_line(tmp_path, bad, said):
    """Before: the line was skipped, Ash Blossom counted 0 points and the deck over the cap passed."""
    path = tmp_path / "Genesys.lflist.conf"
    path.write_text(LIST_TEXT.replace("14558127 20 -- Ash Blossom & Joyous Spring", bad), encoding="utf-8")
    base = ["check", str(SKY), "-f", "ygo-genesys", "--banlist-file", str(path), "--points-cap", "120"]
    result = runner.invoke(app, base)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (f"forcecheck: error: {path}:5: list '2026.06.08 Genesys' cannot be applied: {said}, and a card named "
                                      "on a line that cannot be read would go unchecked; write each entry as 'passcode points', or remove it")
    named = runner.invoke(app, base + ["--banlist", "2026.06.08 Genesys"])
    assert named.exit_code == 2 and f"{path}:5: list '2026.06.08 Genesys' cannot be applied" in named.stderr
    path.write_text(LIST_TEXT, encoding="utf-8")  # the same deck, the list whole: over the cap of 120 (220 points)
    whole = runner.invoke(app, base)
    assert whole.exit_code == 1 and "220 points" in whole.stdout


def test_a_points_file_that_gives_no_card_points_is_refused(tmp_path):
    path = tmp_path / "Genesys.lflist.conf"
    path.write_text("!2026.06.08 Genesys\n$genesys\n# 20 Points\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(SKY), "-f", "ygo-genesys", "--banlist-file", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{path}: points list '2026.06.08 Genesys' ($genesys) gives no card its points, so every deck would total 0" in result.stderr


def test_a_forbidden_limited_file_with_a_line_it_cannot_read_is_refused_but_another_lists_is_not(tmp_path):
    """A card name where the passcode goes: the card would be unlimited. A broken line in another
    list of the file (not the one applied) does not stop the run."""
    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n" + "14558127\n" * 3 + "\n".join(["81439173"] * 37) + "\n#extra\n!side\n", encoding="utf-8")
    path = tmp_path / "lflist.conf"
    path.write_text("!2026.5 TCG\nAsh Blossom & Joyous Spring 1\n!2020.1 TCG\n14558127 1\n", encoding="utf-8")
    base = ["check", str(deck), "-f", "ygo-tcg", "--banlist-file", str(path), "--select", "forbidden-limited", "-o", "json"]
    result = runner.invoke(app, base + ["--as-of", "2026-06-01"])
    assert result.exit_code == 2 and f"{path}:2: list '2026.5 TCG' cannot be applied: not 'passcode count': 'Ash Blossom & Joyous Spring 1'" in result.stderr
    import json

    older = json.loads(runner.invoke(app, base + ["--as-of", "2021-01-01"]).stdout)["decks"][0]
    assert [(v["code"], v["card"], v["found"]) for v in older["violations"]] == [("FC601", "Ash Blossom & Joyous Spring", 3)]

