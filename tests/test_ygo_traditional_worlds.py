"""The TCG's Traditional Format and the World Championship format (issue 40), each checked with
its own list imported from ../shared (EDOPro's 2026.05 Traditional and 2026.05 Worlds lists) on
today's cards (``cards-2026.cdb``): Traditional reads the TCG's Forbidden cards as Limited;
Worlds takes only cards released in both regions, each at the stricter of its OCG and TCG status."""

from __future__ import annotations

import pytest
from conftest import cli_runner, needs_shared

from forcecheck.checking import FormatCache
from forcecheck.cli import app
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist

runner = cli_runner()
VANILLA = ["Prevent Rat", "Kojikocy", "Nekogal #1", "Uraby", "Hyosube", "Water Omotics", "Flame Viper", "Grappler", "Ryu-Ran",
           "Flying Kamakiri #2", "Takuhee", "White Duston", "Swordsman of Landstar"]
"""13 Normal Monsters released in both regions and on no list: 39 cards, three of each."""


def deck(*extra: str) -> str:
    """A 40-card Main Deck: the 39 vanilla cards and the lines given (each '1 Name' or '3 Name')."""
    return "Main Deck:\n" + "".join(f"3 {name}\n" for name in VANILLA) + "".join(f"{line}\n" for line in extra)


@pytest.fixture(scope="module")
def catalog(today_ygo_db):
    from forcecheck.cards.store import SqliteCatalog

    return SqliteCatalog(today_ygo_db)


def findings(catalog, text: str, format_name: str, as_of: str = "2026-08-01"):
    fmt = FormatCache(catalog=catalog, as_of=as_of).get(format_name)
    report = check_decklist(parse_decklist(text, "deck.txt", fmt.known_headers, suffix=".txt"), fmt, catalog)
    return fmt.banlist, [(v.code, v.rule, v.section, v.card, v.found, v.limit) for v in report.violations]


# --- Traditional ------------------------------------------------------------------------------------

def test_traditional_plays_a_tcg_forbidden_card_as_limited(catalog):
    one = deck("1 Pot of Greed")  # line 15: Forbidden on 2026.05 TCG, Limited on 2026.05 Traditional
    assert findings(catalog, one, "ygo-traditional") == ("2026.05 Traditional", [])
    assert findings(catalog, one, "ygo-tcg") == ("2026.05 TCG", [("FC601", "forbidden-limited", "main", "Pot of Greed", 1, "0 (forbidden)")])


def test_traditional_limits_a_forbidden_card_to_one_copy(catalog):
    two = deck("1 Pot of Greed").replace("3 Swordsman of Landstar", "2 Swordsman of Landstar\n1 Pot of Greed")
    assert findings(catalog, two, "ygo-traditional") == (
        "2026.05 Traditional", [("FC601", "forbidden-limited", "main", "Pot of Greed", 2, "at most 1")])


def test_traditional_keeps_the_tcg_card_pool(catalog):
    assert findings(catalog, deck("1 Doron"), "ygo-traditional")[1] == [("FC303", "card-pool", "main", "Doron", 1, None)]  # OCG-only


@needs_shared
def test_traditional_never_takes_the_tcg_list_in_place_of_its_own(tmp_path):
    """Without the Traditional list no list applies (the report says so); the TCG list, which
    forbids what Traditional limits, is never taken for it."""
    from conftest import SHARED

    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_banlists, import_files

    db = tmp_path / "c.db"
    import_files("ygopro", [SHARED / "data" / "ygo" / "cards-2026.cdb"], db)
    import_banlists([SHARED / "data" / "ygo" / "lflist" / "projectignis_TCG_current.lflist.conf"], db)
    assert findings(SqliteCatalog(db), deck("1 Pot of Greed"), "ygo-traditional") == (None, [])


# --- Worlds -----------------------------------------------------------------------------------------

def test_worlds_takes_the_stricter_status_of_the_two_regions(catalog):
    ash = deck("1 Ash Blossom & Joyous Spring").replace("3 Swordsman of Landstar", "1 Swordsman of Landstar\n2 Ash Blossom & Joyous Spring")
    # 3 Ash Blossom: unlimited in the TCG, semi-limited in the OCG and so at Worlds
    assert findings(catalog, ash, "ygo-tcg") == ("2026.05 TCG", [])
    assert findings(catalog, ash, "ygo-worlds") == (
        "2026.05 Worlds", [("FC601", "forbidden-limited", "main", "Ash Blossom & Joyous Spring", 3, "at most 2")])
    two = ash.replace("1 Ash Blossom & Joyous Spring\n", "1 Swordsman of Landstar\n")  # 2 Ash Blossom
    assert findings(catalog, two, "ygo-worlds") == ("2026.05 Worlds", [])


def test_worlds_takes_only_cards_released_in_both_regions(catalog):
    tyler = deck("1 Tyler the Great Warrior")  # TCG-only
    assert findings(catalog, tyler, "ygo-worlds")[1] == [("FC303", "card-pool-ocg", "main", "Tyler the Great Warrior", 1, None)]
    assert findings(catalog, tyler, "ygo-tcg")[1] == []
    fmt = FormatCache(catalog=catalog, as_of="2026-08-01").get("ygo-worlds")
    (finding,) = check_decklist(parse_decklist(tyler, "deck.txt", fmt.known_headers, suffix=".txt"), fmt, catalog).violations
    assert finding.line == 15 and finding.message.startswith(
        "Tyler the Great Warrior is outside the OCG card pool: the imported card data marks it TCG-only")
    assert findings(catalog, deck("1 Doron"), "ygo-worlds")[1] == [("FC303", "card-pool", "main", "Doron", 1, None)]  # OCG-only


def test_the_lists_are_imported_and_chosen_through_the_cli(today_ygo_db, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(deck("1 Pot of Greed"), encoding="utf-8")
    traditional = runner.invoke(app, ["check", str(path), "--format", "ygo-traditional", "--catalog", str(today_ygo_db), "--as-of", "2026-08-01"])
    assert traditional.exit_code == 0 and "banlist 2026.05 Traditional" in traditional.stdout
    worlds = runner.invoke(app, ["check", str(path), "--format", "ygo-worlds", "--catalog", str(today_ygo_db), "--as-of", "2026-08-01"])
    assert worlds.exit_code == 1 and "Pot of Greed is forbidden on 2026.05 Worlds: the deck has 1" in worlds.stdout
