"""Banlists are never chosen silently (issue 29, item 4): a --banlist-file's lists are chosen by
the date and by the format's own lists (OCG or TCG, from the format's banlist rule), a date
before every list is an error (FC602: no verdict without the day's list), and every report names the list applied and why."""

from __future__ import annotations

import json

import pytest
from conftest import SAMPLES, cli_runner, make_cdb

from forcecheck.cli import app

runner = cli_runner()
DECK = SAMPLES / "ygo-5ds" / "legal-synchro.ydk"  # three Junk Synchron (63977008)

LISTS = """#[2011.3.1][2011.9.1][2011.9 TCG][2026.7]
!2026.7
63977008 3 --Junk Synchron
!2011.9 TCG
63977008 0 --Junk Synchron
!2011.9.1
63977008 2 --Junk Synchron
!2011.3.1
63977008 1 --Junk Synchron
"""

TCG_FORMAT = r"""name: ygo-tcg-test
title: A TCG format of the tests
game: ygo
extends: ygo-5ds
rules:
  - id: forbidden-limited
    kind: banlist
    sections: [main, extra, side]
    imported: '^\d{4}\.\d{1,2}(\.\d{1,2})? TCG$'
    description: The TCG list in force
"""


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output + (result.stderr or "")
    return result


@pytest.fixture
def lflist(tmp_path):
    path = tmp_path / "lflist.conf"
    path.write_text(LISTS)
    return path


def deck_of(result) -> dict:
    return json.loads(result.stdout)["decks"][0]


def banlist_findings(deck: dict) -> list[tuple]:
    return [(v["code"], v["card"], v["found"], v["limit"]) for v in deck["violations"] if v["code"] in ("FC601", "FC602")]


@pytest.mark.parametrize("as_of, name, cap", [("2011-10-01", "2011.9.1", "at most 2"), ("2011-06-01", "2011.3.1", "at most 1"), ("2026-12-01", "2026.7", None)])
def test_a_banlist_file_applies_the_list_in_force_on_the_date_not_its_first(lflist, as_of, name, cap):
    result = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--as-of", as_of, "-o", "json")
    deck = deck_of(result)
    assert deck["banlist"] == name
    assert deck["banlist_reason"] == f"in force on {as_of} in {lflist}"
    assert banlist_findings(deck) == ([("FC601", "Junk Synchron", 3, cap)] if cap else [])
    assert result.exit_code == (1 if cap else 0)
    summary = json.loads(result.stdout)["summary"]
    assert summary["banlists"] == [{"format": "ygo-5ds", "banlist": name, "reason": f"in force on {as_of} in {lflist}"}]


def test_the_region_comes_from_the_formats_banlist_rule(lflist, tmp_path):
    """A format whose banlist rule takes TCG lists gets the TCG list of the same file on the same
    day (the OCG format gets 2011.9.1): no format name is looked at."""
    (tmp_path / "formats").mkdir()
    (tmp_path / "formats" / "ygo-tcg-test.yaml").write_text(TCG_FORMAT)
    result = run("check", DECK, "-f", "ygo-tcg-test", "--formats-dir", tmp_path / "formats", "--banlist-file", lflist,
                 "--as-of", "2011-10-01", "-o", "json")
    deck = deck_of(result)
    assert deck["banlist"] == "2011.9 TCG" and banlist_findings(deck) == [("FC601", "Junk Synchron", 3, "0 (forbidden)")]
    result = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--as-of", "2011-10-01", "-o", "json")
    assert deck_of(result)["banlist"] == "2011.9.1"


NO_VERDICT = ("so the deck cannot be judged by the list of that day (an error: name a list with --banlist, "
              "or check the rest with --banlist none)")


def test_a_date_before_every_list_is_an_error_and_the_report_says_none_applied(lflist):
    """Issue 38: a date before every list applied none and said legal with a warning; a deck
    checked by no list at all has no verdict (FC602 error), as a format whose pool is a list."""
    result = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--as-of", "2010-01-01", "-o", "json")
    deck = deck_of(result)
    assert result.exit_code == 1 and not deck["legal"] and deck["banlist"] is None
    assert deck["banlist_reason"] == f"none: no list in {lflist} was in force on 2010-01-01"
    [error] = [v for v in deck["violations"] if v["code"] == "FC602"]
    assert error["severity"] == "error" and error["rule"] == "forbidden-limited"
    assert error["message"] == (f"no Forbidden/Limited list in {lflist} was in force on 2010-01-01 (the earliest, 2011.3.1, "
                                f"took effect on 2011-03-01); {NO_VERDICT}")
    text = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--as-of", "2010-01-01", "--color", "never").stdout
    assert f"banlist for ygo-5ds: none: no list in {lflist} was in force on 2010-01-01" in text
    # the day a list took effect, it applies: no FC602, the deck is judged by it
    judged = deck_of(run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--as-of", "2011-03-01", "-o", "json"))
    assert judged["banlist"] == "2011.3.1" and not [v for v in judged["violations"] if v["code"] == "FC602"]
    # --banlist none says the structure alone is meant: no FC602
    alone = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--banlist", "none", "--as-of", "2010-01-01", "-o", "json")
    assert alone.exit_code == 0 and deck_of(alone)["legal"]


def test_a_list_named_by_banlist_and_none_say_so(lflist):
    result = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--banlist", "2011.3.1", "--as-of", "2026-12-01", "-o", "json")
    deck = deck_of(result)
    assert deck["banlist"] == "2011.3.1" and deck["banlist_reason"] == "named by --banlist"
    assert banlist_findings(deck) == [("FC601", "Junk Synchron", 3, "at most 1")]  # named: the date does not choose
    deck = deck_of(run("check", DECK, "-f", "ygo-5ds", "--banlist", "none", "-o", "json"))
    assert deck["banlist"] is None and deck["banlist_reason"] == "none, as --banlist says"
    text = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--banlist", "2011.3.1", "--color", "never").stdout
    assert "banlist for ygo-5ds: 2011.3.1 (named by --banlist)" in text


def test_several_undated_lists_are_a_choice_for_the_user(tmp_path):
    path = tmp_path / "two.conf"
    path.write_text("!GOAT\n55144522 0\n!Edison\n55144522 1\n")
    result = run("check", DECK, "-f", "ygo-5ds", "--banlist-file", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{path} holds 2 lists and none with a date to choose one by for format ygo-5ds; name one with --banlist (lists: GOAT, Edison)" in result.stderr
    path.write_text("!GOAT\n63977008 1\n")  # one undated list is the one meant
    deck = deck_of(run("check", DECK, "-f", "ygo-5ds", "--banlist-file", path, "-o", "json"))
    assert deck["banlist"] == "GOAT" and deck["banlist_reason"] == f"the only list in {path} (no list there is named as the format's lists are)"


@pytest.fixture
def catalog_with_lists(tmp_path, lflist):
    cdb = make_cdb(tmp_path / "cards.cdb", [(63977008, 0, 0x1 | 0x20 | 0x1000, 3, 0x8, 0x8, "Junk Synchron")])
    db = tmp_path / "c.db"
    assert run("catalog", "import", "ygopro", cdb, "--catalog", db).exit_code == 0
    assert run("banlist", "import", lflist, "--catalog", db).exit_code == 0
    deck = tmp_path / "d.txt"
    deck.write_text("Main Deck:\n3 Junk Synchron\n")
    return db, deck


def test_imported_lists_latest_in_force_and_a_date_before_them_is_an_error(catalog_with_lists):
    db, deck = catalog_with_lists
    found = deck_of(run("check", deck, "-f", "ygo-5ds", "--catalog", db, "--as-of", "2011-10-01", "-o", "json"))
    assert found["banlist"] == "2011.9.1" and found["banlist_reason"] == "the latest imported list in force on 2011-10-01"
    found = deck_of(run("check", deck, "-f", "ygo-5ds", "--catalog", db, "--as-of", "2009-01-01", "-o", "json"))
    assert found["banlist"] is None and found["banlist_reason"] == "none: no imported list was in force on 2009-01-01"
    assert [v["message"] for v in found["violations"] if v["code"] == "FC602"] == [
        "no imported Forbidden/Limited list of the format was in force on 2009-01-01 (the earliest, 2011.3.1, took effect on "
        f"2011-03-01); {NO_VERDICT}"]


def test_no_list_imported_is_said_and_no_warning(tmp_path):
    deck = deck_of(run("check", DECK, "-f", "ygo-5ds", "-o", "json"))  # the sample catalog holds no lists
    assert deck["banlist"] is None and deck["legal"] and not [v for v in deck["violations"] if v["code"] == "FC602"]
    assert deck["banlist_reason"].startswith("none: no list of the format is imported ('forcecheck catalog fetch ygo'")


def test_a_format_without_a_banlist_rule_has_no_reason():
    deck = deck_of(run("check", SAMPLES / "bifrost" / "legal-faria-stranger.txt", "-f", "bifrost", "-o", "json"))
    assert deck["banlist"] is None and deck["banlist_reason"] is None
    assert json.loads(run("check", SAMPLES / "bifrost" / "legal-faria-stranger.txt", "-f", "bifrost", "-o", "json").stdout)["summary"]["banlists"] == []


def test_the_wanderer_lists_own_versions_say_why_and_refuse_a_date_before_the_first():
    deck_path = SAMPLES / "bifrost" / "legal-faria-stranger.txt"
    deck = deck_of(run("check", deck_path, "-f", "wanderer", "--as-of", "2024-01-01", "-o", "json"))
    assert deck["banlist"].startswith("Wanderer banned list") and deck["banlist_reason"] == "the format's own version in force on 2024-01-01"
    deck = deck_of(run("check", deck_path, "-f", "wanderer", "--as-of", "2020-01-01", "-o", "json"))
    assert deck["banlist"] is None and not deck["legal"]
    assert [(v["code"], v["severity"]) for v in deck["violations"]] == [("FC602", "error")]


def test_verify_names_the_list_and_why(lflist):
    result = run("verify", DECK, DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--as-of", "2026-12-01", "-o", "json")
    doc = json.loads(result.stdout)
    assert doc["banlist"] == "2026.7" and doc["banlist_reason"] == f"in force on 2026-12-01 in {lflist}"
    text = run("verify", DECK, DECK, "-f", "ygo-5ds", "--banlist-file", lflist, "--as-of", "2026-12-01").stdout
    assert f"banlist: 2026.7 (in force on 2026-12-01 in {lflist})" in text
