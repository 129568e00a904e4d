"""Every sample deck says in its first line what it is legal or illegal against, and it is.

Before (issue 39.5): the ``legal-*`` Yu-Gi-Oh! samples turned illegal once real lists were imported
(``ygo-5ds`` applies today's OCG list unless --as-of is given), and nothing in them said so. Now the
first line names the format, the verdict and what it is checked against; these tests hold each
claim with the embedded sample catalog and, where ../shared is beside the checkout, with the real
card data a user imports.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLES, SHARED

from forcecheck.banlists import pick, read_lflist
from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache, check_file
from forcecheck.engine import NO_BANLIST

CLAIM = re.compile(
    r"^(?:#|//) ?forcecheck sample for (?P<format>[a-z0-9-]+): (?P<verdict>legal|ILLEGAL) "
    r"(?:(?P<any>with any card data \((?P=format) has no banned list\))"
    r"|(?P<none>with no Forbidden/Limited list applied \(the sample catalog has none; once real lists are imported, add --banlist none\))"
    r"|on the (?P<list>\d{4}\.\d{1,2} [A-Z]+) list, imported first \(forcecheck banlist import (?P<file>[A-Z]+\.lflist\.conf)\))"
)
PASTED_FIRST = {"illegal-ydke-bad-base64.txt", "illegal-ydke-cut-short.txt", "legal-sky-striker-ydke.txt"}
"""Chat pastes whose own first line is the message: the claim is the line above it."""
LISTS = SHARED / "data" / "ygo" / "lflist"
DECKS = sorted(p for p in SAMPLES.glob("*/*") if p.is_file())


def claim_of(path: Path) -> re.Match:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    match = CLAIM.match(first)
    assert match, f"{path.name}: the first line does not say what the deck is legal against: {first!r}"
    return match


def formats_for(claim: re.Match, catalog) -> FormatCache:
    if claim["none"]:
        return FormatCache(banlist=NO_BANLIST, catalog=catalog)
    if claim["list"]:
        if not LISTS.is_dir():
            pytest.skip("../shared (the imported lists) is not beside this checkout; it is not shipped with the repo")
        lists = [b for f in sorted(LISTS.glob("*.conf")) for b in read_lflist(f)[0]]
        return FormatCache(banlist=pick(lists, claim["list"], "test"), catalog=catalog)
    return FormatCache(catalog=catalog)


def verdict(path: Path, catalog, claim: re.Match) -> bool:
    report = check_file(path, catalog, formats_for(claim, catalog), claim["format"])
    assert report.error is None, report.error
    return report.legal


def test_every_sample_deck_says_what_it_is_legal_against():
    assert len(DECKS) > 60
    for path in DECKS:
        claim = claim_of(path)
        assert claim["format"] == path.parent.name, path
        assert (claim["verdict"] == "legal") == path.name.startswith("legal-"), path


def test_a_sample_deck_without_its_claim_is_found(tmp_path):
    """The claim test can fail: a first line that names no list, or another format, is caught."""
    deck = tmp_path / "legal-x.txt"
    deck.write_text("# Sky Striker, expected legal\n3 Ash Blossom & Joyous Spring\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="does not say what the deck is legal against"):
        claim_of(deck)
    deck.write_text("# forcecheck sample for ygo-tcg: legal on today's list\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="does not say"):
        claim_of(deck)


def test_the_pasted_samples_keep_their_message_on_the_second_line():
    for name in PASTED_FIRST:
        lines = (SAMPLES / "ygo-tcg" / name).read_text(encoding="utf-8").split("\n")
        assert not lines[1].startswith("#") and ("ydke://" in lines[1] or "ydke://" in lines[2]), name


@pytest.mark.parametrize("path", DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_claim_holds_with_the_sample_catalog(path):
    claim = claim_of(path)
    assert verdict(path, sample_catalog(), claim) == (claim["verdict"] == "legal")


@pytest.mark.parametrize("path", DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_claim_holds_with_real_card_data(path, real_catalogs):
    """As a user who ran 'catalog fetch' sees it: the same verdict with the stated list."""
    claim = claim_of(path)
    catalog = real_catalogs["ygo" if claim["format"].startswith("ygo") else "fow"]
    assert verdict(path, catalog, claim) == (claim["verdict"] == "legal")


def test_with_real_lists_the_default_is_todays_list_and_the_claim_says_how_to_check_without(real_ygo_catalog, tmp_path):
    """Why the first line says --banlist none: with today's lists imported, the 5D's sample is
    checked against the latest OCG list, on which some of its cards are limited or forbidden."""
    if not LISTS.is_dir():
        pytest.skip("../shared (the imported lists) is not beside this checkout; it is not shipped with the repo")
    path = SAMPLES / "ygo-5ds" / "legal-synchro.ydk"
    (today,) = [b for b in read_lflist(LISTS / "projectignis_OCG_current.lflist.conf")[0]]
    report = check_file(path, real_ygo_catalog, FormatCache(banlist=today, catalog=real_ygo_catalog), "ygo-5ds")
    assert not report.legal and {v.code for v in report.violations} == {"FC601"}
    assert verdict(path, real_ygo_catalog, claim_of(path))
