"""Lists shipped in format files, by date (issue 40): a list last compared with its publisher's
long before the event's date says it may be out of date (FC604), and a fresh one says nothing."""

from __future__ import annotations

from conftest import SAMPLES

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache, check_file

DATED = """\
name: dated
title: Dated
game: fow
extends: bifrost
rules:
  - id: banned
    kind: banlist
    sections: [main]
    description: test
    recorded: 2024-11-29
    versions:
      - {name: V1, effective: 2022-05-27, source: tests, cards: {Viviane: 0}}
"""
DECK = SAMPLES / "bifrost" / "legal-faria-stranger.txt"


def stale_findings(tmp_path, as_of: str, text: str = DATED):
    (tmp_path / "dated.yaml").write_text(text, encoding="utf-8")
    report = check_file(DECK, sample_catalog(), FormatCache([tmp_path], catalog=sample_catalog(), as_of=as_of), "dated")
    assert [v.card for v in report.violations if v.code == "FC601"] == ["Viviane"]  # the list applies either way
    return [(v.code, v.rule, v.severity, v.message) for v in report.violations if v.code == "FC604"]


def test_a_list_recorded_more_than_twelve_months_before_the_event_may_be_stale(tmp_path):
    assert stale_findings(tmp_path, "2025-12-01") == []  # 12 months: still trusted
    (found,) = stale_findings(tmp_path, "2025-12-29")
    assert found == ("FC604", "banned", "warning",
                     "V1 is the newest list this forcecheck ships, recorded 2024-11-29, 13 months before 2025-12-29: the publisher may "
                     "have changed the list since; check the publisher's list, or name one with --banlist-file")


def test_the_shipped_wanderer_lists_are_the_publishers_updates_each_said_partial(tmp_path):
    """Wanderer ships fowsim's 2022-06-15 list, then the publisher's five updates, each partly
    known (FC603 says what is missing); recorded 2026-12-03, so FC604 from 2027-12-04 on."""
    from forcecheck.format_spec.loader import load_format

    rule = next(r for r in load_format("wanderer").rules if r.kind == "banlist")
    assert str(rule.recorded) == "2026-12-03"
    assert [str(v.effective) for v in rule.versions] == ["2022-06-15", "2022-08-26", "2023-02-24", "2023-09-08", "2023-12-01", "2024-11-29"]
    assert [v.record for v in rule.versions] == ["complete"] + ["partial"] * 5

    def findings(as_of):
        report = check_file(DECK, sample_catalog(), FormatCache(catalog=sample_catalog(), as_of=as_of), "wanderer")
        return [(v.code, v.severity) for v in report.violations], report

    assert findings("2022-07-01")[0] == []  # fowsim's own record: complete, and fresh
    codes, report = findings("2024-01-01")
    assert codes == [("FC603", "warning")] and report.legal
    assert report.violations[0].message.startswith("Wanderer banned list of December 2023 (effective day unknown) (in force from 2023-12-01) "
                                                   "is only partly known: Applied from 2023-12-01, the first day of the month the article names")
    assert findings("2027-12-03")[0] == [("FC603", "warning")]
    codes, report = findings("2027-12-04")
    assert codes == [("FC603", "warning"), ("FC604", "warning")]
    assert "recorded 2026-12-03, 12 months before 2027-12-04" in report.violations[1].message


def test_a_card_a_later_update_bans_is_judged_by_the_list_of_the_events_day(tmp_path, real_fow_catalog):
    """Ragnarok, Invading Dragon Lord: banned in December 2023 (only combination-banned with Wind
    Servant of Ragnarok before). With the 2022 list alone it passed in a 2026 event."""
    from conftest import faria

    deck = tmp_path / "d.txt"
    deck.write_text(faria(side=[(1, "Ragnarok, Invading Dragon Lord")]), encoding="utf-8")

    def banned(as_of):
        report = check_file(deck, real_fow_catalog, FormatCache(catalog=real_fow_catalog, as_of=as_of), "wanderer")
        assert report.error is None
        return [(v.code, v.card) for v in report.violations if v.code == "FC601"]

    assert banned("2023-11-01") == []
    assert banned("2024-01-01") == banned("2026-12-01") == [("FC601", "Ragnarok, Invading Dragon Lord")]


def test_an_event_within_the_record_says_nothing(tmp_path):
    assert stale_findings(tmp_path, "2023-06-01") == []
    assert stale_findings(tmp_path, "2024-12-01") == []


def test_a_format_sets_how_long_its_list_is_trusted(tmp_path):
    strict = DATED.replace("    recorded: 2024-11-29\n", "    recorded: 2024-11-29\n    stale_after_months: 3\n")
    assert stale_findings(tmp_path, "2025-02-28", strict) == []
    assert [f[0] for f in stale_findings(tmp_path, "2025-03-29", strict)] == ["FC604"]


def test_a_list_without_a_recorded_date_or_named_by_the_user_says_nothing(tmp_path):
    assert stale_findings(tmp_path, "2030-01-01", DATED.replace("    recorded: 2024-11-29\n", "")) == []


def test_formats_list_says_which_list_each_format_applies_and_how_old_a_shipped_one_is():
    from conftest import cli_runner

    from forcecheck.cli import app
    from forcecheck.cli.formats import default_list
    from forcecheck.format_spec.loader import load_format

    listed = cli_runner().invoke(app, ["formats", "list"]).stdout.splitlines()
    after = {listed[i - 1].split()[0]: line.strip() for i, line in enumerate(listed) if line.strip().startswith("list: ")}
    assert "bifrost" not in after and "abc" not in after  # no banlist rule: nothing to say
    assert after["wanderer"].startswith("list: Wanderer banned list of 2024-11-29 (Reworking Protocol) (shipped; recorded 2026-12-03, ")
    assert "must be imported (https://raw.githubusercontent.com/ProjectIgnis/LFLists/master/GOAT.lflist.conf)" in after["ygo-goat"]
    assert after["ygo-genesys"].startswith("list: the format's own points list, which must be imported")
    assert after["ygo-tcg"] == "list: the latest imported list the format takes, in force on --as-of (default today); none imported: none"
    wanderer = load_format("wanderer")
    assert default_list(wanderer, "2027-01-20") == "Wanderer banned list of 2024-11-29 (Reworking Protocol) (shipped; recorded 2026-12-03, a month ago)"
    assert default_list(wanderer, "2028-02-03").endswith(
        "recorded 2026-12-03, 14 months ago, past the format's 12 months: checks warn it may be stale (FC604))")


def test_the_warning_starts_the_day_after_the_trusted_months(tmp_path):
    """Review: whole months were counted, so a list recorded 2024-11-29 warned only from 2025-12-29."""
    assert stale_findings(tmp_path, "2025-11-29") == []
    assert [f[0] for f in stale_findings(tmp_path, "2025-11-30")] == ["FC604"]


def test_a_boolean_is_no_points_cap_or_month_count(tmp_path):
    import pytest

    from forcecheck.errors import SpecError
    from forcecheck.format_spec.loader import load_format

    (tmp_path / "mine.yaml").write_text("name: mine\ntitle: Mine\nextends: ygo-genesys\nrules:\n  - id: points-cap\n    kind: banlist\n"
                                        "    sections: [main]\n    points_cap: true\n    description: x\n", encoding="utf-8")
    with pytest.raises(SpecError, match="points_cap"):
        load_format("mine", [tmp_path])
    (tmp_path / "dated.yaml").write_text(DATED.replace("    recorded: 2024-11-29\n", "    recorded: 2024-11-29\n    stale_after_months: true\n"),
                                         encoding="utf-8")
    with pytest.raises(SpecError, match="stale_after_months"):
        load_format("dated", [tmp_path])
