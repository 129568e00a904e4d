"""Yu-Gi-Oh! as it is played today (ygo-tcg, ygo-ocg), the Edison and GOAT formats, ydke:// deck
codes and ``fmt --to``: every rule both ways, with its rule id, section, card and numbers."""

from __future__ import annotations

import json
import sqlite3

import pytest
from conftest import SAMPLES, SHARED, cli_runner, make_cdb, needs_shared

from forcecheck.banlists import Banlist, parse_lflist, pick, read_lflist
from forcecheck.canonical import fingerprint
from forcecheck.cards.catalog import MemoryCatalog, sample_catalog
from forcecheck.cards.model import Card
from forcecheck.checking import FormatCache, check_file
from forcecheck.cli import app
from forcecheck.decklists.readers import decklist_kind, parse_decklist
from forcecheck.decklists.ydke import encode, read_ydke
from forcecheck.engine import NO_BANLIST, check_decklist

runner = cli_runner()
CATALOG = sample_catalog()
LISTS = SHARED / "data" / "ygo" / "lflist"
EDISON_LIST = LISTS / "projectignis_EDISON_2010.3_whitelist.lflist.conf"
GOAT_LIST = LISTS / "projectignis_GOAT.lflist.conf"

EXPECTED = {
    "ygo-tcg": {
        "illegal-four-ash-blossom-alternate-art.ydk": [("FC201", "copy-limit", "main, side", "Ash Blossom & Joyous Spring", 7, 4, "at most 3")],
        "illegal-link-monster-in-main.ydk": [("FC302", "main-no-extra-deck-monsters", "main", "Linkuriboh", 43, 1, None)],
        "illegal-ocg-only-card.ydk": [("FC303", "card-pool", "extra", "Accesscode Talker", 55, 1, None)],
        "illegal-pendulum-monster-in-extra.txt": [("FC301", "extra-only-extra-deck-monsters", "extra", "Performapal Monkeyboard", 40, 1, None)],
        "illegal-ydke-bad-base64.txt": [("FC007", "invalid-entry", "main", None, 2, None, None), ("FC101", "main-size", "main", None, 2, 0, "40 to 60")],
        "illegal-ydke-cut-short.txt": [("FC007", "invalid-entry", None, None, 3, None, None)],
        "legal-odd-eyes-pendulum.txt": [],
        "legal-sky-striker-ydke.txt": [],
        "legal-sky-striker.ydk": [],
    },
    "ygo-ocg": {
        "illegal-tcg-only-card.txt": [("FC303", "card-pool", "main", "Monster Express", 12, 1, None)],
        "illegal-tcg-printing.ydk": [("FC303", "card-pool", "main", "Red-Eyes Darkness Metal Dragon", 6, 1, None)],
        "legal-red-eyes-darkness-metal-dragon-by-name.txt": [],
        "legal-sky-striker.ydk": [],
    },
    "ygo-edison": {
        "illegal-card-after-april-2010.txt": [("FC601", "forbidden-limited", "main", "Tour Guide From the Underworld", 12, 1, "0 (forbidden)")],
        "illegal-fusion-substitute.txt": [("FC601", "forbidden-limited", "main", "Fusion Substitute", 18, 1, "0 (forbidden)")],
        "illegal-two-limited-gale.ydk": [("FC601", "forbidden-limited", "main", "Blackwing - Gale the Whirlwind", 12, 2, "at most 1")],
        "legal-blackwings.ydk": [],
    },
    "ygo-goat": {
        "illegal-side-deck-of-10.txt": [("FC101", "side-size", "side", None, 48, 10, "exactly 0 or 15")],
        "illegal-synchro-in-fusion-deck.ydk": [
            ("FC302", "no-later-card-kinds", "extra", "Stardust Dragon", 51, 1, None),
            ("FC601", "forbidden-limited", "extra", "Stardust Dragon", 51, 1, "0 (forbidden)"),
        ],
        "legal-62-cards-fusion-deck-of-20.ydk": [],
        "legal-goat-control.txt": [],
    },
}
WHITELISTS = {"ygo-edison": EDISON_LIST, "ygo-goat": GOAT_LIST}


def test_every_new_sample_deck_has_an_expectation():
    for format_name, expected in EXPECTED.items():
        assert sorted(p.name for p in (SAMPLES / format_name).iterdir()) == sorted(expected), format_name


def _formats(format_name: str, catalog=CATALOG) -> FormatCache:
    if format_name in WHITELISTS:
        return FormatCache(banlist=pick(read_lflist(WHITELISTS[format_name])[0], None, "test"), catalog=catalog)
    return FormatCache(catalog=catalog)


@pytest.mark.parametrize("format_name,name", [(f, n) for f in ("ygo-tcg", "ygo-ocg") for n in sorted(EXPECTED[f])])
def test_sample_deck_today(format_name, name):
    report = check_file(SAMPLES / format_name / name, CATALOG, _formats(format_name), format_name)
    assert report.error is None
    assert [(v.code, v.rule, v.section, v.card, v.line, v.found, v.limit) for v in report.violations] == EXPECTED[format_name][name]
    assert report.legal == name.startswith("legal-")


@needs_shared
@pytest.mark.parametrize("format_name,name", [(f, n) for f in ("ygo-edison", "ygo-goat") for n in sorted(EXPECTED[f])])
def test_sample_deck_with_its_card_pool(format_name, name):
    formats = _formats(format_name)
    report = check_file(SAMPLES / format_name / name, CATALOG, formats, format_name)
    assert report.error is None
    assert [(v.code, v.rule, v.section, v.card, v.line, v.found, v.limit) for v in report.violations] == EXPECTED[format_name][name]
    assert report.legal == name.startswith("legal-")
    assert report.banlist == {"ygo-edison": "2010.3 EDISON", "ygo-goat": "2005.4 GOAT"}[format_name]


# --- helpers ------------------------------------------------------------------------------------

def check(text: str, format_name: str = "ygo-tcg", suffix: str = ".txt", banlist=None, catalog=CATALOG):
    fmt = FormatCache(banlist=banlist, catalog=catalog).get(format_name)
    deck = parse_decklist(text, f"deck{suffix}", fmt.known_headers, suffix=suffix)
    return check_decklist(deck, fmt, catalog)


def found(text: str, format_name: str = "ygo-tcg", suffix: str = ".txt", banlist=None, catalog=CATALOG):
    report = check(text, format_name, suffix, banlist, catalog)
    return [(v.rule, v.card, v.found, v.limit) for v in report.violations]


SKY = (SAMPLES / "ygo-tcg" / "legal-sky-striker.ydk").read_text(encoding="utf-8")
ODD = (SAMPLES / "ygo-tcg" / "legal-odd-eyes-pendulum.txt").read_text(encoding="utf-8")


def ydk_with(main: list[str] = (), extra: list[str] = (), side: list[str] = (), base: str = SKY) -> str:
    text = base
    for marker, codes in (("#extra", main), ("!side", extra)):
        text = text.replace(marker, "".join(f"{c}\n" for c in codes) + marker, 1)
    return text + "".join(f"{c}\n" for c in side)


# --- today's Master Rule, each rule both ways -------------------------------------------------------

def test_main_deck_40_to_60():
    assert found(SKY, suffix=".ydk") == []
    lines = SKY.split("\n")
    first = lines.index("#main") + 1
    short = "\n".join(lines[:first] + lines[first + 1:])
    assert found(short, suffix=".ydk") == [("main-size", None, 39, "40 to 60")]
    twenty = ["12580477", "5318639", "14087893", "53129443", "83764718", "44095762", "41420027"] * 3
    assert found(ydk_with(main=twenty[:20]), suffix=".ydk") == []  # 60
    assert found(ydk_with(main=twenty), suffix=".ydk") == [("main-size", None, 61, "40 to 60")]


def test_extra_deck_at_most_15_of_fusion_synchro_xyz_link():
    assert found(ODD) == []  # Pendulum Fusion and Xyz monsters, Synchro, Xyz and Link monsters: 15
    assert found(ydk_with(extra=["21044178"]), suffix=".ydk") == [("extra-size", None, 16, "at most 15")]
    pendulum_normal = ODD.replace("1 Linkuriboh", "1 Dragonpit Magician")  # a Pendulum Normal monster: a Main Deck card
    assert found(pendulum_normal) == [("extra-only-extra-deck-monsters", "Dragonpit Magician", 1, None)]


def test_side_deck_at_most_15():
    five = ["12580477"] * 3 + ["5318639"] * 2
    assert found(ydk_with(side=five), suffix=".ydk") == []  # 15
    assert found(ydk_with(side=five + ["5318639"]), suffix=".ydk") == [("side-size", None, 16, "at most 15")]


def test_extra_deck_monsters_and_tokens_are_no_main_deck_cards():
    assert found(ydk_with(main=["41999284"]), suffix=".ydk") == [("main-no-extra-deck-monsters", "Linkuriboh", 1, None)]
    assert found(ydk_with(main=["45627618"]), suffix=".ydk") == [("main-no-extra-deck-monsters", "Odd-Eyes Rebellion Dragon", 1, None)]
    assert found(ydk_with(main=["16178681"]), suffix=".ydk") == []  # a Pendulum monster that is no Fusion/Synchro/Xyz: main deck
    assert found(ydk_with(main=["73915052"]), suffix=".ydk") == [("no-tokens", "Sheep Token", 1, None)]


def test_copies_are_counted_by_the_original_card():
    assert "14558128" in SKY and found(SKY, suffix=".ydk") == []  # 3 Ash Blossom, one by its alternate artwork's passcode
    assert found(ydk_with(side=["14558128"]), suffix=".ydk") == [("copy-limit", "Ash Blossom & Joyous Spring", 4, "at most 3")]


def test_the_region_card_pool_both_ways():
    tcg_only = ODD.replace("1 Dragonpulse Magician", "1 Monster Express")
    assert found(tcg_only, "ygo-tcg") == []
    assert found(tcg_only, "ygo-ocg") == [("card-pool", "Monster Express", 1, None)]
    ocg_only = SKY.replace("4280258", "86066372")  # Apollousa -> Accesscode Talker (OCG-only in the March 2020 data)
    assert found(ocg_only, "ygo-ocg", ".ydk") == []
    assert found(ocg_only, "ygo-tcg", ".ydk") == [("card-pool", "Accesscode Talker", 1, None)]
    report = check(ocg_only, "ygo-tcg", ".ydk")
    assert report.violations[0].message == (
        "Accesscode Talker is outside the TCG card pool: the imported card data marks it OCG-only (YGOPro's release field, ot; "
        "a card released since that data was made needs a newer import)")


def test_a_printing_is_judged_by_its_own_region_and_a_name_by_any_printing():
    lines = SKY.split("\n")
    roze = lines.index("37351133")
    tcg_print = "\n".join(lines[:roze] + ["88264978"] + lines[roze + 1:])
    ocg_print = tcg_print.replace("88264978", "88264979")
    assert found(tcg_print, "ygo-tcg", ".ydk") == [] and found(ocg_print, "ygo-ocg", ".ydk") == []
    assert found(tcg_print, "ygo-ocg", ".ydk") == [("card-pool", "Red-Eyes Darkness Metal Dragon", 1, None)]
    assert found(ocg_print, "ygo-tcg", ".ydk") == [("card-pool", "Red-Eyes Darkness Metal Dragon", 1, None)]
    message = check(tcg_print, "ygo-ocg", ".ydk").violations[0].message
    assert "listed as 88264978, a printing outside the OCG card pool: the imported card data marks it TCG-only (YGOPro's release field, ot; a card released since that data was made needs a newer import); its OCG printing is 88264979" in message
    by_name = ODD.replace("1 Dragonpulse Magician", "1 Red-Eyes Darkness Metal Dragon")
    assert found(by_name, "ygo-ocg") == [] and found(by_name, "ygo-tcg") == []


def test_a_catalog_without_release_data_asks_for_a_new_import():
    """Never falsely legal: a catalog imported before forcecheck read releases cannot judge the pool."""
    old = MemoryCatalog([Card(c.name, c.game, c.types, printings=c.printings, aliases=c.aliases)
                         for c in CATALOG.cards("ygo")], "old catalog")
    report = check(SKY, "ygo-tcg", ".ydk", catalog=old)
    (finding,) = [v for v in report.violations if v.rule == "card-pool"]
    distinct = len({card for tally in report.resolution.deck.tallies.values() for card in tally})
    assert not report.legal and finding.code == "FC303" and finding.found == distinct == 36
    assert "import the card data again (forcecheck catalog import ygopro cards.cdb)" in finding.message
    assert check(SKY, "ygo-5ds", ".ydk", catalog=old).violations[0].rule == "no-later-card-kinds"  # no pool: no such finding


def test_the_region_list_in_force_is_chosen_by_name_and_date(tmp_path):
    """ygo-tcg applies TCG lists, ygo-ocg OCG lists: the region is data in the format files."""
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_banlists

    db = tmp_path / "catalog.sqlite3"
    make_cdb(tmp_path / "cards.cdb", [(55144522, 0, 0x2, 0, 0, 0, "Pot of Greed", 3)])
    from forcecheck.importers.pipeline import import_files

    import_files("ygopro", [tmp_path / "cards.cdb"], db)
    lists = tmp_path / "lflist.conf"
    lists.write_text("!2099.1 TCG\n55144522 0 --Pot of Greed\n!2099.2\n55144522 1 --Pot of Greed\n!2098.1 TCG\n", encoding="utf-8")
    import_banlists([lists], db)
    catalog = SqliteCatalog(db)
    chosen = {}
    for name in ("ygo-tcg", "ygo-ocg", "ygo-master-rule"):
        chosen[name] = FormatCache(catalog=catalog, as_of="2099-06-01").get(name).banlist
    assert chosen == {"ygo-tcg": "2099.1 TCG", "ygo-ocg": "2099.2", "ygo-master-rule": None}
    assert FormatCache(catalog=catalog, as_of="2098-06-01").get("ygo-tcg").banlist == "2098.1 TCG"


# --- lists and pools --------------------------------------------------------------------------------

def test_a_whitelist_admits_a_treated_as_card_only_when_it_lists_it():
    umi = CATALOG.by_name("ygo", "Umi")
    assert umi.printing_names["34103656"] == "Lemuria, the Forgotten City"
    pool = Banlist("test pool", "ygo", {code: 3 for card in CATALOG.cards("ygo") for code in card.printings[:1]}, whitelist=True)
    base = ODD.replace("1 Dragonpulse Magician", "1 Umi")
    assert found(base, "ygo-master-rule", banlist=pool) == []
    lemuria = ODD.replace("1 Dragonpulse Magician", "1 Lemuria, the Forgotten City")
    assert found(lemuria, "ygo-master-rule", banlist=pool) == [("forbidden-limited", "Lemuria, the Forgotten City", 1, "0 (forbidden)")]
    message = check(lemuria, "ygo-master-rule", banlist=pool).violations[0].message
    assert message == "Lemuria, the Forgotten City (treated as Umi) is not on the whitelist test pool (outside its card pool): the deck has 1"
    by_passcode = SKY.replace("37351133", "34103656")
    assert found(by_passcode, "ygo-master-rule", ".ydk", banlist=pool) == [("forbidden-limited", "Lemuria, the Forgotten City", 1, "0 (forbidden)")]
    pool.entries["22702055"] = 1  # Umi limited: its own copies are capped, Lemuria's are outside the pool
    both = ODD.replace("1 Dragonpulse Magician", "1 Lemuria, the Forgotten City").replace("1 Dark Hole", "2 Umi")
    assert sorted(found(both, "ygo-master-rule", banlist=pool)) == [
        ("forbidden-limited", "Lemuria, the Forgotten City", 1, "0 (forbidden)"), ("forbidden-limited", "Umi", 2, "at most 1")]
    pool.entries["34103656"] = 3
    assert found(lemuria, "ygo-master-rule", banlist=pool) == []


def test_an_entry_whose_passcode_the_data_lacks_applies_to_the_card_its_comment_names():
    """EDOPro's GOAT list names Sangan by its pre-errata version's passcode, which a YGOPro
    database lacks: the comment's name is the card."""
    (goat,), _warnings = parse_lflist("!test GOAT\n$whitelist\n504700178 1 --Sangan\n55144522 1 --Pot of Greed\n", "test")
    assert goat.labels == {"504700178": "Sangan", "55144522": "Pot of Greed"}
    deck = "Main Deck:\n1 Pot of Greed\n1 Sangan\n"
    fmt = FormatCache(banlist=goat, catalog=CATALOG).get("ygo-goat")
    assert fmt.notes == ["banlist test GOAT: 1 entry names passcodes that embedded sample catalog does not know (other versions of a card, "
                         "such as pre-errata ones); each applies to the card its comment names (Sangan)"]
    assert [v.rule for v in check(deck, "ygo-goat", banlist=goat).violations] == ["main-size"]
    assert found(deck + "1 Sangan\n", "ygo-goat", banlist=goat)[1:] == [("forbidden-limited", "Sangan", 2, "at most 1")]


def test_passcodes_no_card_has_are_skipped_with_one_note_per_list():
    (banlist,), _ = parse_lflist("!2099.1 TCG\n55144522 0 --Pot of Greed\n999000001 0 --A card of 2099\n999000002 1\n", "test")
    fmt = FormatCache(banlist=banlist, catalog=CATALOG).get("ygo-tcg")
    assert fmt.notes == ["banlist 2099.1 TCG: 2 entries name passcodes that embedded sample catalog does not know (999000001, 999000002: "
                         "it holds only the cards of the sample decks and tests); they are skipped"]
    assert FormatCache(banlist=banlist).get("ygo-tcg").notes == []  # no catalog, nothing to compare with


def test_a_card_pool_format_without_its_list_is_never_legal():
    goat = (SAMPLES / "ygo-goat" / "legal-goat-control.txt").read_text(encoding="utf-8")
    for name, file in (("ygo-goat", "GOAT.lflist.conf"), ("ygo-edison", "EDISON.lflist.conf")):
        report = check(goat, name)
        (missing,) = [v for v in report.violations if v.rule == "forbidden-limited"]
        assert not report.legal and missing.code == "FC601" and missing.line is None and missing.section is None
        # the file and the command that imports it, never the format's regular expression (issue 39.3)
        assert missing.message == (
            "no list to apply, so the card pool cannot be checked: the format's list is not imported: download "
            f"https://raw.githubusercontent.com/ProjectIgnis/LFLists/master/{file} and run 'forcecheck banlist import {file}', "
            "or name the file with --banlist-file FILE; --banlist none checks the structure alone")
        assert report.banlist is None
    assert [v.rule for v in check(goat, "ygo-goat", banlist=NO_BANLIST).violations] == []  # --banlist none: the structure alone


def test_goat_2005_deck_construction_both_ways():
    goat = (SAMPLES / "ygo-goat" / "legal-goat-control.txt").read_text(encoding="utf-8")
    assert found(goat, "ygo-goat", banlist=NO_BANLIST) == []
    assert found(goat.replace("1 Nimble Momonga\n", ""), "ygo-goat", banlist=NO_BANLIST) == [("main-size", None, 39, "at least 40")]
    side = goat.split("Side Deck:")[0]
    assert found(side, "ygo-goat", banlist=NO_BANLIST) == []  # no Side Deck at all
    assert found(side + "Side Deck:\n3 Smashing Ground\n", "ygo-goat", banlist=NO_BANLIST) == [("side-size", None, 3, "exactly 0 or 15")]
    assert found(goat.replace("1 Dark Blade the Dragon Knight", "1 Sangan"), "ygo-goat", banlist=NO_BANLIST) == [
        ("fusion-deck-only-fusion", "Sangan", 1, None)]
    big = (SAMPLES / "ygo-goat" / "legal-62-cards-fusion-deck-of-20.ydk").read_text(encoding="utf-8")
    assert found(big, "ygo-goat", ".ydk", banlist=NO_BANLIST) == []  # no maximum, no Fusion Deck limit in 2005
    assert [rule for rule, *_ in found(big, "ygo-5ds", ".ydk", banlist=NO_BANLIST)] == ["main-size", "extra-size"]
    fusion_in_main = goat.replace("1 Nimble Momonga", "1 Thousand-Eyes Restrict")
    assert ("main-no-extra-deck-monsters", "Thousand-Eyes Restrict", 1, None) in found(fusion_in_main, "ygo-goat", banlist=NO_BANLIST)


def test_edison_follows_the_5ds_rules():
    bw = (SAMPLES / "ygo-edison" / "legal-blackwings.ydk").read_text(encoding="utf-8")
    assert found(bw, "ygo-edison", ".ydk", banlist=NO_BANLIST) == []
    xyz = bw.replace("#extra\n", "#extra\n84013237\n").replace("7391448\n", "", 1)  # Goyo Guardian -> Number 39: Utopia
    assert found(xyz, "ygo-edison", ".ydk", banlist=NO_BANLIST) == [("no-later-card-kinds", "Number 39: Utopia", 1, None)]


# --- ydke:// codes ----------------------------------------------------------------------------------

SKY_CODE = (SAMPLES / "ygo-tcg" / "legal-sky-striker-ydke.txt").read_text(encoding="utf-8").split("\n")[2]


def test_a_ydke_code_is_the_same_deck_as_the_ydk_and_the_text():
    fmt = FormatCache(catalog=CATALOG).get("ygo-tcg")
    as_ydk = parse_decklist(SKY, "d.ydk", fmt.known_headers, suffix=".ydk")
    as_code = parse_decklist(SKY_CODE, "d.txt", fmt.known_headers, suffix=".txt")
    in_message = parse_decklist(f"hi! my list:\n`{SKY_CODE}` (EDOPro)\nPlayer: Ann\n", "d.txt", fmt.known_headers, suffix=".txt")
    in_ydk_file = parse_decklist(SKY_CODE + "\n", "d.ydk", fmt.known_headers, suffix=".ydk")
    prints = {fingerprint(deck, fmt, CATALOG) for deck in (as_ydk, as_code, in_message, in_ydk_file)}
    assert len(prints) == 1
    assert in_message.metadata == {"player": "Ann"} and in_message.problems == []
    assert [n.text for n in in_message.notes] == ["hi! my list:", f"`{SKY_CODE}` (EDOPro)"]
    assert decklist_kind(SKY_CODE) == "ydke" and decklist_kind(SKY_CODE, ".yaml") == "yaml" and decklist_kind(SKY, ".ydk") == "ydk"


def test_encode_writes_passcodes_little_endian_in_base64():
    assert encode([89631139], [44508094, 44508094], []) == "ydke://o6lXBQ==!viOnAr4jpwI=!!"
    deck = read_ydke("ydke://o6lXBQ==!viOnAr4jpwI=!!", "d")
    assert [(s.title, [e.name for e in s.entries]) for s in deck.sections] == [("main", ["89631139"]), ("extra", ["44508094"] * 2), ("side", [])]


BAD_CODES = [
    ("ydke://o6lX-Q==!!!", "main", "ydke:// code: the main deck part is no base64: '-' at its character 5 is outside the base64 alphabet"),
    ("ydke://o6lXBQ=!!!", "main", "ydke:// code: the main deck part has 7 base64 characters, not a multiple of 4: the code was cut or changed"),
    ("ydke://o6lXBaOp!!!", "main", "ydke:// code: the main deck part decodes to 6 bytes, not whole passcodes (4 bytes each)"),
    ("ydke://o6=XBQ==!!!", "main", "ydke:// code: the main deck part is no base64: '=' (padding) at its character 3 comes before its end"),
    ("ydke://o6lXBQ==!viOnAg==", None, "ydke:// code: cut short: it has 1 of the 3 '!' that end its main, extra and side decks, so the extra deck and side deck are not whole"),
    ("ydke://o6lXBQ==", None, "ydke:// code: cut short: it has 0 of the 3 '!'"),
    ("ydke://o6lXBQ==!!!junk", None, "ydke:// code: 'junk' follows the '!' that ends the side deck"),
]


@pytest.mark.parametrize("code,section,message", BAD_CODES, ids=[c[0] for c in BAD_CODES])
def test_a_bad_code_is_a_finding_on_its_line_never_a_shorter_deck_in_silence(code, section, message):
    report = check(f"my deck:\n{code}\n")
    bad = [v for v in report.violations if v.rule == "invalid-entry"]
    assert len(bad) == 1 and bad[0].code == "FC007" and bad[0].line == 2 and bad[0].section == section
    assert bad[0].message.startswith(message), bad[0].message
    assert not report.legal and report.name is None  # never a title


def test_an_unknown_passcode_in_a_code_is_an_unknown_card():
    report = check(encode([99999999] + [int(c) for c in SKY.split("#main\n")[1].split("#extra")[0].split()][1:], [], []))
    assert [(v.rule, v.card, v.line) for v in report.violations] == [("unknown-card", "99999999", 1)]


def test_a_second_code_is_reported_not_merged():
    code = encode([55144522], [], [])
    report = check(f"{SKY_CODE}\n\n{code}\n")
    (second,) = [v for v in report.violations if v.rule == "invalid-entry"]
    assert second.line == 3 and "a second ydke:// code" in second.message and "only the first code (line 1) is read" in second.message


def test_check_reads_a_code_from_standard_input():
    result = runner.invoke(app, ["check", "-", "-f", "ygo-tcg", "-o", "json"], input=f"list for Saturday: {SKY_CODE}\n")
    doc = json.loads(result.stdout)
    assert result.exit_code == 0, result.stderr
    assert doc["decks"][0]["path"] == "-" and doc["decks"][0]["legal"] and doc["decks"][0]["sections"] == {"main": 40, "extra": 15, "side": 10}


# --- fmt --to -------------------------------------------------------------------------------------------

def _fmt(*args, input=None):
    return runner.invoke(app, ["fmt", *map(str, args)], input=input)


def test_fmt_to_converts_between_the_three_forms_and_keeps_the_deck(tmp_path):
    ydk = tmp_path / "sky.ydk"
    ydk.write_text(SKY, encoding="utf-8")
    as_code = _fmt(ydk, "--to", "ydke", "-f", "ygo-tcg")
    assert as_code.exit_code == 0, as_code.stderr
    assert as_code.stdout.strip() == SKY_CODE and ydk.read_text(encoding="utf-8") == SKY  # the file is not changed
    (tmp_path / "code.txt").write_text(as_code.stdout, encoding="utf-8")
    as_text = _fmt(tmp_path / "code.txt", "--to", "text", "-f", "ygo-tcg")
    assert as_text.exit_code == 0 and as_text.stdout.startswith("Main Deck:\n3 Sky Striker Ace - Raye\n1 Sky Striker Ace - Roze\n3 Ash Blossom")
    (tmp_path / "list.txt").write_text(as_text.stdout, encoding="utf-8")
    back = _fmt(tmp_path / "list.txt", "--to", "ydk", "-f", "ygo-tcg")
    assert back.exit_code == 0 and back.stdout.startswith("#created by forcecheck\n#main\n26077387\n")
    (tmp_path / "back.ydk").write_text(back.stdout, encoding="utf-8")
    prints = {runner.invoke(app, ["fingerprint", str(p), "-f", "ygo-tcg"]).stdout for p in tmp_path.iterdir()}
    assert len(prints) == 1
    from_stdin = _fmt("-", "--to", "ydk", "-f", "ygo-tcg", input=SKY_CODE)
    assert from_stdin.exit_code == 0 and from_stdin.stdout == "#created by forcecheck\n" + SKY.split("\n", 1)[1]  # every passcode kept


def test_fmt_to_keeps_a_treated_as_card_and_an_artwork_by_their_passcodes(tmp_path):
    text = ODD.replace("1 Dragonpulse Magician", "1 Lemuria, the Forgotten City")
    (tmp_path / "odd.txt").write_text(text, encoding="utf-8")
    out = _fmt(tmp_path / "odd.txt", "--to", "ydk", "-f", "ygo-tcg")
    assert out.exit_code == 0 and "\n34103656\n" in out.stdout  # Lemuria's own passcode, not Umi's
    (tmp_path / "odd.ydk").write_text(out.stdout, encoding="utf-8")
    again = _fmt(tmp_path / "odd.ydk", "--to", "text", "-f", "ygo-tcg")
    assert "1 Lemuria, the Forgotten City\n" in again.stdout


def test_fmt_to_stops_at_an_unknown_name_with_its_line_and_writes_nothing(tmp_path):
    (tmp_path / "bad.txt").write_text("Main Deck:\n3 Pot of Greed\n3 No Such Card At All\n", encoding="utf-8")
    result = _fmt(tmp_path / "bad.txt", "--to", "ydke", "-f", "ygo-tcg")
    assert result.exit_code == 2 and result.stdout == ""
    assert "bad.txt:3: not converted to ydke: 'No Such Card At All' is no card embedded sample catalog knows" in result.stderr
    (tmp_path / "unknown.ydk").write_text("#main\n55144522\n99999999\n", encoding="utf-8")
    result = _fmt(tmp_path / "unknown.ydk", "--to", "text", "-f", "ygo-tcg")
    assert result.exit_code == 2 and result.stdout == "" and "unknown.ydk:3: not converted to text: '99999999' is no card" in result.stderr
    ydke = _fmt(tmp_path / "unknown.ydk", "--to", "ydke", "-f", "ygo-tcg")  # a passcode form carries an unknown passcode as it is
    assert ydke.exit_code == 0 and ydke.stdout == encode([55144522, 99999999], [], []) + "\n"
    (tmp_path / "typo.txt").write_text("Main Deck:\n3 Pot of Greedy\n", encoding="utf-8")
    typo = _fmt(tmp_path / "typo.txt", "--to", "ydk", "-f", "ygo-tcg")
    assert typo.exit_code == 0 and "typo.txt:2: read 'Pot of Greedy' as 'Pot of Greed'" in typo.stderr


def test_fmt_to_refuses_what_it_cannot_carry(tmp_path):
    (tmp_path / "code.txt").write_text("ydke://o6lX-Q==!!!\n", encoding="utf-8")
    bad = _fmt(tmp_path / "code.txt", "--to", "ydk", "-f", "ygo-tcg")
    assert bad.exit_code == 2 and bad.stdout == "" and "code.txt:1: not converted to ydk: ydke:// code: the main deck part is no base64" in bad.stderr
    (tmp_path / "counted.txt").write_text("Main Deck (4):\n3 Pot of Greed\n", encoding="utf-8")
    counted = _fmt(tmp_path / "counted.txt", "--to", "ydke", "-f", "ygo-tcg")
    assert counted.exit_code == 2 and "not converted to ydke" in counted.stderr
    two = _fmt(tmp_path / "code.txt", tmp_path / "counted.txt", "--to", "ydk", "-f", "ygo-tcg")
    assert two.exit_code == 2 and "--to converts one list at a time" in two.stderr
    checking = _fmt(tmp_path / "code.txt", "--to", "ydk", "--check", "-f", "ygo-tcg")
    assert checking.exit_code == 2 and "--check and --diff do not go with it" in checking.stderr
    fow = _fmt(SAMPLES / "bifrost" / "legal-faria-stranger.txt", "--to", "ydk", "-f", "bifrost")
    assert fow.exit_code == 2 and "hold Yu-Gi-Oh! decks" in fow.stderr


def test_fmt_leaves_a_ydke_code_as_it_is(tmp_path):
    path = tmp_path / "code.txt"
    path.write_text(f"my list:\n{SKY_CODE}\n", encoding="utf-8")
    result = _fmt(path, "-f", "ygo-tcg")
    assert result.exit_code == 0 and path.read_text(encoding="utf-8") == f"my list:\n{SKY_CODE}\n"
    piped = _fmt("-", "-f", "ygo-tcg", input=SKY_CODE)
    assert piped.exit_code == 0 and piped.stdout == SKY_CODE  # standard input: the code, as it is, on standard output


# --- card data and catalog ------------------------------------------------------------------------------

def test_the_importer_reads_where_each_printing_was_released(tmp_path):
    from forcecheck.importers import ygopro

    cdb = make_cdb(tmp_path / "cards.cdb", [
        (1000, 0, 0x21, 4, 1, 1, "Both", 3), (2000, 0, 0x21, 4, 1, 1, "OCG Card", 1), (3000, 0, 0x21, 4, 1, 1, "TCG Card", 2),
        (4000, 0, 0x21, 4, 1, 1, "Split", 2), (4001, 4000, 0x21, 4, 1, 1, "Split", 1), (4050, 4000, 0x21, 4, 1, 1, "Split Twin", 2),
    ])
    cards = {c.name: c for c in ygopro.convert(ygopro.read_source(cdb))[0]}
    assert cards["Both"].regions == {"ocg", "tcg"} and cards["OCG Card"].regions == {"ocg"} and cards["TCG Card"].regions == {"tcg"}
    split = cards["Split"]
    assert split.regions == {"ocg", "tcg"} and split.printing_regions == {"4000": {"tcg"}, "4001": {"ocg"}, "4050": {"tcg"}}
    assert split.printing_names == {"4050": "Split Twin"}
    assert split.printings_meant("4001") == ("4001",) and split.printings_meant(None, "Split Twin") == ("4050",)
    assert split.printings_meant(None, "Split") == ("4000", "4001")
    old = [{k: v for k, v in record.items() if k != "ot"} for record in ygopro.read_source(cdb)]  # stored by an older forcecheck
    assert all(card.regions is None for card in ygopro.convert(old)[0])
    assert Card.from_dict(split.to_dict()).printing_regions == split.printing_regions


def test_a_catalog_written_before_banlist_comments_reads_and_is_mended_by_an_import(tmp_path):
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_banlists

    db = tmp_path / "catalog.sqlite3"
    lflist = tmp_path / "lflist.conf"
    lflist.write_text("!2099.1 TCG\n55144522 0 --Pot of Greed\n", encoding="utf-8")
    import_banlists([lflist], db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE banlist_labels")  # as a catalog of schema 5 written before the table existed
    conn.commit()
    conn.close()
    assert SqliteCatalog(db).banlist("2099.1 TCG").labels == {}
    import_banlists([lflist], db)
    assert SqliteCatalog(db).banlist("2099.1 TCG").labels == {"55144522": "Pot of Greed"}
    lflist.write_text("!2099.1 TCG\n55144522 0 --Pot of Greed\n504700178 1 --Sangan\n", encoding="utf-8")
    import_banlists([lflist], db)
    shown = runner.invoke(app, ["banlist", "show", "2099.1 TCG", "--catalog", str(db)]).stdout
    assert "504700178  (not in the catalog; the list says Sangan)" in shown


def test_the_new_formats_are_listed_and_shown():
    listed = runner.invoke(app, ["formats", "list"]).stdout
    for name in ("ygo-tcg", "ygo-ocg", "ygo-master-rule", "ygo-edison", "ygo-goat"):
        assert name in listed
    shown = runner.invoke(app, ["formats", "show", "ygo-tcg"]).stdout
    assert "extends: ygo-master-rule" in shown and "card-pool [FC303 card-pool, error]" in shown
    assert "only cards released in the TCG" in shown
    goat = runner.invoke(app, ["formats", "show", "ygo-goat"]).stdout
    assert "exactly 0 or 15 cards" in goat and "at least 40 cards" in goat and "every deck is told so" in goat
    assert "extra-size" not in goat
    rule = runner.invoke(app, ["rules", "FC303"]).stdout
    assert "card-pool" in rule and "ygo-tcg" in rule and "ygo-ocg" in rule


@needs_shared
def test_the_real_data_each_format_with_its_list(tmp_path):
    """Import the real card data and every list, as a user would; check a sample in each format
    without naming a list: the region's list in force applies, the pool lists are found."""
    db = tmp_path / "catalog.sqlite3"
    data = SHARED / "data" / "ygo"
    assert runner.invoke(app, ["catalog", "import", "ygopro", str(data / "cards.cdb"), "--catalog", str(db)]).exit_code == 0
    assert runner.invoke(app, ["banlist", "import", *map(str, sorted(LISTS.glob("*.conf"))), "--catalog", str(db)]).exit_code == 0
    for format_name, sample, banlist in [
        ("ygo-tcg", "legal-sky-striker.ydk", "2026.5 TCG"), ("ygo-ocg", "legal-sky-striker.ydk", "2026.7"),
        ("ygo-edison", "legal-blackwings.ydk", "2010.3 EDISON"), ("ygo-goat", "legal-goat-control.txt", "2005.4 GOAT"),
    ]:
        result = runner.invoke(app, ["check", str(SAMPLES / format_name / sample), "-f", format_name, "--catalog", str(db),
                                     "--as-of", "2026-08-01", "-o", "json"])
        doc = json.loads(result.stdout)
        assert doc["decks"][0]["banlist"] == banlist, format_name
        notes = doc["summary"]["notes"]
        assert len([n for n in notes if n.startswith(f"banlist {banlist}:") and "skipped" in n]) <= 1, notes
        if format_name in ("ygo-edison", "ygo-goat"):
            assert doc["decks"][0]["legal"], (format_name, doc["decks"][0]["violations"])
    goat = runner.invoke(app, ["check", str(SAMPLES / "ygo-goat" / "legal-goat-control.txt"), "-f", "ygo-goat", "--catalog", str(db), "-o", "json"])
    assert any("each applies to the card its comment names" in n for n in json.loads(goat.stdout)["summary"]["notes"])


def test_catalog_show_says_where_a_card_and_its_printings_were_released():
    shown = runner.invoke(app, ["catalog", "show", "Red-Eyes Darkness Metal Dragon", "--game", "ygo"]).stdout
    assert "released:   OCG/TCG (88264978 TCG only; 88264979 OCG only)" in shown
    umi = runner.invoke(app, ["catalog", "show", "Umi", "--game", "ygo"]).stdout
    assert "34103656 (Lemuria, the Forgotten City)" in umi
    assert "released:   OCG\n" in runner.invoke(app, ["catalog", "show", "Accesscode Talker", "--game", "ygo"]).stdout


def test_a_treated_as_card_of_another_kind_goes_where_its_own_kind_goes():
    """Neo-Spacian Marine Dolphin is a Fusion monster whose name is treated as the Effect monster
    Neo-Spacian Aqua Dolphin: it counts as Aqua Dolphin for copies, and is judged as the Fusion
    monster it is (YGOPro judges a passcode by its own type)."""
    dolphin = CATALOG.by_name("ygo", "Neo-Spacian Aqua Dolphin")
    assert dolphin.printing_types["78734254"] >= {"fusion"} and "fusion" not in dolphin.types
    in_extra = SKY.replace("21044178", "78734254")  # Abyss Dweller -> Marine Dolphin, in the extra deck
    assert found(in_extra, suffix=".ydk") == []
    assert found(ODD.replace("1 Linkuriboh", "1 Neo-Spacian Marine Dolphin")) == []
    in_main = ydk_with(main=["78734254"])
    assert found(in_main, suffix=".ydk") == [("main-no-extra-deck-monsters", "Neo-Spacian Marine Dolphin", 1, None)]
    assert found(ydk_with(main=["17955766"]), suffix=".ydk") == []  # Aqua Dolphin itself: a Main Deck card
    aqua_in_extra = SKY.replace("21044178", "17955766")
    assert found(aqua_in_extra, suffix=".ydk") == [("extra-only-extra-deck-monsters", "Neo-Spacian Aqua Dolphin", 1, None)]
    four = ydk_with(main=["17955766", "17955766"], side=["78734254", "78734254"])
    assert found(four, suffix=".ydk") == [("copy-limit", "Neo-Spacian Aqua Dolphin", 4, "at most 3")]


def test_a_card_pool_rule_names_a_region_the_card_data_has(tmp_path):
    spec = tmp_path / "my-pool.yaml"
    spec.write_text("name: my-pool\ntitle: x\ngame: ygo\nextends: ygo-tcg\nrules:\n  - id: card-pool\n    kind: card-pool\n"
                    "    sections: [main]\n    region: tgc\n    description: x\n", encoding="utf-8")
    result = runner.invoke(app, ["check", str(SAMPLES / "ygo-tcg" / "legal-sky-striker.ydk"), "-f", str(spec)])
    assert result.exit_code == 2 and "my-pool.yaml:9: rules[0] (rule 'card-pool').region: 'tgc' is not one of 'ocg', 'tcg'; did you mean 'tcg'?" in result.stderr
