"""Every sample deck gives exactly the violations its comment promises: rule, code, section, card, numbers."""

from __future__ import annotations

import pytest
from conftest import SAMPLES

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache, check_file

EXPECTED = {
    "legal-faria-stranger.txt": [],
    "legal-speaker-grimoire.txt": [],
    "legal-atom-runes.yaml": [],
    "illegal-five-copies-main-and-side.txt": [
        ("FC201", "copy-limit", "main, side", "Gawain, the Knight of the Sun", 7, 5, "at most 4"),
    ],
    "illegal-stranger-in-main.txt": [
        ("FC302", "main-no-strangers", "main", "White Wizard (Stranger)", 17, 1, None),
    ],
    "illegal-21-magic-stones.txt": [
        ("FC101", "stones-size", "stones", None, 18, 21, "10 to 20"),
    ],
    "illegal-six-runes.yaml": [
        ("FC101", "rune-size", "rune", None, 20, 6, "at most 5"),
    ],
    "illegal-two-master-runes.yaml": [
        ("FC401", "rune-one-master-rune", "rune", None, 20, 2, "at most 1"),
    ],
    "illegal-extra-deck-without-grimoire.txt": [
        ("FC701", "extra-requires-grimoire", "extra", None, 18, 2, "0"),
    ],
    "illegal-39-main-cards.txt": [
        ("FC101", "main-size", "main", None, 6, 39, "at least 40"),
    ],
    "illegal-unknown-card-name.txt": [
        ("FC001", "unknown-card", "main", "Gawain, the Knight of the Moon", 8, None, None),
    ],
    # lists in the shapes players publish (issue 12): warnings say what was assumed
    "legal-headerless-blog-post.txt": [
        ("FC010", "deck-title", None, None, 6, None, None),
        ("FC011", "card-placed", "ruler", None, 10, None, None),
        ("FC011", "card-placed", "main", None, 12, None, None),
        ("FC012", "name-corrected", "main", "Traveler in Wonderland", 21, None, None),
        ("FC011", "card-placed", "stones", None, 24, None, None),
        ("FC011", "card-placed", "stranger", None, 28, None, None),
        ("FC011", "card-placed", "side", None, 34, None, None),
    ],
    "legal-type-groups-and-codes.txt": [],
    "legal-typo-corrected.txt": [
        ("FC012", "name-corrected", "main", "Gawain, the Knight of the Sun", 8, None, None),
    ],
}


def test_every_sample_deck_has_an_expectation():
    assert sorted(p.name for p in (SAMPLES / "bifrost").iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_deck(name):
    report = check_file(SAMPLES / "bifrost" / name, sample_catalog(), FormatCache(), "bifrost")
    assert report.error is None
    got = [(v.code, v.rule, v.section, v.card, v.line, v.found, v.limit) for v in report.violations]
    assert got == EXPECTED[name]
    assert report.legal == name.startswith("legal")


def test_an_unknown_name_suggests_the_real_card():
    report = check_file(SAMPLES / "bifrost" / "illegal-unknown-card-name.txt", sample_catalog(), FormatCache(), "bifrost")
    (violation,) = report.violations
    assert "did you mean 'Gawain, the Knight of the Sun'" in violation.message


def test_a_typo_is_read_as_the_card_meant_and_says_so():
    report = check_file(SAMPLES / "bifrost" / "legal-typo-corrected.txt", sample_catalog(), FormatCache(), "bifrost")
    (warning,) = report.violations
    assert warning.message == "read 'Gawain, the Knigt of the Sun' as 'Gawain, the Knight of the Sun' (typo)"
    assert report.resolution.corrections == [{"line": 8, "written": "Gawain, the Knigt of the Sun", "read_as": "Gawain, the Knight of the Sun"}]
