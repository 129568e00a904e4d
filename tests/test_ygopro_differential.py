"""forcecheck's Yu-Gi-Oh! verdicts against YGOPro's own deck check, on real and mutated decks.

The oracle below is a small implementation of ``DeckManager::CheckDeck`` written from the rules
YGOPro states in ``gframe/deck_manager.cpp`` (Fluorohydride/ygopro; EDOPro's
``CheckDeckContent`` in edo9300/edopro for whitelists), reading the YGOPro database and the
lflist files directly, without forcecheck's importer, catalog or rules:

* sizes: main 40-60, extra at most 15, side at most 15 (DECK_MIN_SIZE, DECK_MAX_SIZE,
  EXTRA_MAX_SIZE, SIDE_MAX_SIZE);
* ``checkAvail(ot, avail)``: in an OCG duel a card whose ``ot`` lacks AVAIL_OCG, in a TCG duel
  one that lacks AVAIL_TCG, is refused (DECKERROR_TCGONLY / OCGONLY / NOTAVAIL);
* the main deck holds no TYPES_EXTRA_DECK card (Fusion, Synchro, Xyz, Link) and no token; the
  extra deck only TYPES_EXTRA_DECK cards and no token; the side deck no token;
* copies counted under ``alias ? alias : code`` across the three, at most 3 (DECKERROR_CARDCOUNT);
* the list by that code: more copies than its count is DECKERROR_LFLIST; on an EDOPro
  ``$whitelist`` (``GetLimitationIterator``) a code is found by itself, else by its alias when
  it is an artwork of it (codes less than CARD_ARTWORK_VERSIONS_OFFSET = 10 apart), and a code
  not found is refused.

Where forcecheck's formats say more or other than CheckDeck, the oracle takes the format's
rule as a stated parameter, and the differences are named here (each is also tested on its own
in tests/test_ygo_today.py):

* YGOPro reads the deck it is given; it does not know eras. ``ygo-5ds`` and ``ygo-edison`` add
  the 5D's rules (no Xyz, Pendulum or Link monster; the extra deck only Fusion and Synchro),
  ``ygo-goat`` the 2005 rules (no Synchro either, the Fusion Deck only Fusion monsters, a deck of
  at least 40 with no maximum, no Fusion Deck limit, a Side Deck of 0 or 15).
* The deck is judged as written: YGOPro's ``LoadDeck`` silently drops unknown codes, tokens and
  lines that are no 32-bit code,
  moves a Fusion monster written under ``#main`` to the extra deck and cuts a deck past 60/15/15
  before ``CheckDeck`` sees it; here an unknown code or a token is an error, and the sections are
  the file's (unknown codes still count toward their section's size, as forcecheck counts them).
* Whitelists: two printings with one name are one card (an artwork listed admits the others,
  however far apart their codes: EDOPro's offset test refuses Polymerization's artwork 27847700);
  a list entry whose code the database lacks applies to the card its comment names (EDOPro's GOAT
  list names ~190 cards by their pre-errata versions' codes, which a YGOPro database lacks).

YGOPro stops at the first error; the oracle collects them all, and the test asserts that
forcecheck gives the same verdict and reports every kind of error the oracle finds, and no kind
it does not. The decks: every real ``.ydk`` under ``../shared`` and the sample decks, each in
every Yu-Gi-Oh! format with the list that format applies, then seeded mutations of them (a
card added, removed, copied, moved to another section, swapped for another printing; unknown
codes, tokens, OCG-only, TCG-only and extra deck cards among the cards added).
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from conftest import SAMPLES, SHARED, needs_shared

pytestmark = needs_shared

DATA = SHARED / "data" / "ygo"
LFLIST = DATA / "lflist"
REAL = sorted((DATA / "decks").rglob("*.ydk")) + sorted((SHARED / "data" / "real-decklists" / "ygo-ydk").glob("*.ydk"))
SAMPLE_YDK = sorted(SAMPLES.glob("ygo-*/*.ydk"))

FUSION, SYNCHRO, XYZ, PENDULUM, LINK, TOKEN = 0x40, 0x2000, 0x800000, 0x1000000, 0x4000000, 0x4000
TYPES_EXTRA_DECK = FUSION | SYNCHRO | XYZ | LINK
AVAIL = {"ocg": 0x1, "tcg": 0x2}
ARTWORK_OFFSET = 10


# --- the oracle ---------------------------------------------------------------------------------

class Database:
    """code -> (type, alias, ot, name), read from the YGOPro database itself."""

    def __init__(self, path: Path):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.cards = {code: (type_, alias, ot, name) for code, type_, alias, ot, name in
                      conn.execute("SELECT d.id, d.type, d.alias, d.ot, t.name FROM datas d JOIN texts t ON t.id = d.id")}
        conn.close()
        assert not any(self.cards.get(alias, (0, 0))[1] for _t, alias, _o, _n in self.cards.values() if alias), \
            "an alias of an alias: the oracle's one-step duel code would be wrong"

    def duel_code(self, code: int) -> int:
        return self.cards[code][1] or code


def read_lists(path: Path) -> dict[str, dict]:
    """Every list of an lflist file: name -> {"entries": {code: count}, "names": {code: comment}, "whitelist"}."""
    lists: dict[str, dict] = {}
    current = None
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        if line.startswith("!"):
            current = lists.setdefault(line[1:].strip(), {"entries": {}, "names": {}, "whitelist": False})
        elif line.startswith("$whitelist") and current is not None:
            current["whitelist"] = True
        elif current is not None and (m := re.match(r"^(\d+) (-?\d+)(?:\s*--\s*(.*))?", line)):
            code, count = int(m.group(1)), int(m.group(2))
            if count < 0:
                continue
            current["entries"][code] = count
            if m.group(3):
                current["names"][code] = re.split(r"\t|\s{2,}", m.group(3).strip())[0]
    return lists


class Format:
    """What a format asks of a deck, as oracle parameters: CheckDeck's, or an era's."""

    def __init__(self, name, avail=None, main=(40, 60), extra=15, side=(0, 15), side_exact=None,
                 era=0, main_kinds=TYPES_EXTRA_DECK, extra_kinds=TYPES_EXTRA_DECK):
        self.name, self.avail, self.main, self.extra, self.side, self.side_exact = name, avail, main, extra, side, side_exact
        self.era, self.main_kinds, self.extra_kinds = era, main_kinds, extra_kinds


FORMATS = {
    "ygo-tcg": Format("ygo-tcg", avail=AVAIL["tcg"]),
    "ygo-ocg": Format("ygo-ocg", avail=AVAIL["ocg"]),
    "ygo-5ds": Format("ygo-5ds", era=XYZ | PENDULUM | LINK, main_kinds=FUSION | SYNCHRO, extra_kinds=FUSION | SYNCHRO),
    "ygo-edison": Format("ygo-edison", era=XYZ | PENDULUM | LINK, main_kinds=FUSION | SYNCHRO, extra_kinds=FUSION | SYNCHRO),
    "ygo-goat": Format("ygo-goat", main=(40, None), extra=None, side_exact=(0, 15), era=SYNCHRO | XYZ | PENDULUM | LINK,
                       main_kinds=FUSION, extra_kinds=FUSION),
}


def oracle(deck: dict[str, list[int]], db: Database, fmt: Format, lflist: dict | None) -> list[tuple[str, int | None]]:
    """Every error CheckDeck's rules find in the deck as written, in CheckDeck's order:
    (kind, code). YGOPro would report the first one only."""
    errors: list[tuple[str, int | None]] = [("invalid", None)] if deck.get("invalid") else []
    low, high = fmt.main
    if len(deck["main"]) < low or (high is not None and len(deck["main"]) > high):
        errors.append(("main-size", None))
    if fmt.extra is not None and len(deck["extra"]) > fmt.extra:
        errors.append(("extra-size", None))
    if fmt.side_exact is not None and len(deck["side"]) not in fmt.side_exact:
        errors.append(("side-size", None))
    elif fmt.side_exact is None and len(deck["side"]) > fmt.side[1]:
        errors.append(("side-size", None))
    copies: Counter = Counter()
    entries = lflist["entries"] if lflist else {}
    for section in ("main", "extra", "side"):
        for code in deck[section]:
            if code not in db.cards:
                errors.append(("unknown", code))
                continue
            type_, alias, ot, name = db.cards[code]
            if fmt.avail is not None and (ot & fmt.avail) != fmt.avail:
                errors.append(("pool", code))
            if type_ & TOKEN:
                errors.append(("token", code))
            elif type_ & fmt.era:
                errors.append(("era", code))
            if not type_ & TOKEN:
                if section == "main" and type_ & fmt.main_kinds:
                    errors.append(("main-kind", code))
                if section == "extra" and not type_ & fmt.era and not type_ & fmt.extra_kinds:
                    errors.append(("extra-kind", code))
            key = db.duel_code(code)
            copies[key] += 1
            if copies[key] == 4:
                errors.append(("copies", code))
            if lflist is None:
                continue
            if lflist["whitelist"]:
                cap = _whitelisted(code, db, lflist)
                if cap is None:
                    errors.append(("list", code))
                    continue
            else:
                cap = entries.get(key)
            if cap is not None and copies[key] == cap + 1:
                errors.append(("list", code))
    return errors


def _whitelisted(code: int, db: Database, lflist: dict) -> int | None:
    """EDOPro's GetLimitationIterator on a whitelist, with the two differences the module docstring names."""
    entries = lflist["entries"]
    if code in entries:
        return entries[code]
    _type, alias, _ot, name = db.cards[code]
    if alias and abs(code - alias) < ARTWORK_OFFSET and alias in entries:
        return entries[alias]
    root = alias or code
    for other in [root] + [c for c, card in db.cards.items() if card[1] == root]:  # artworks: one name, one card
        if other in entries and db.cards[other][3] == name:
            return entries[other]
    for listed, comment in lflist["names"].items():  # a version the database lacks, named in the comment
        if listed not in db.cards and comment == name:
            return entries[listed]
    return None


# --- forcecheck's side ----------------------------------------------------------------------------

KIND_OF_RULE = {
    "unknown-card": "unknown", "main-size": "main-size", "extra-size": "extra-size", "side-size": "side-size",
    "card-pool": "pool", "no-tokens": "token", "no-later-card-kinds": "era", "main-no-extra-deck-monsters": "main-kind",
    "extra-only-extra-deck-monsters": "extra-kind", "extra-only-fusion-synchro": "extra-kind", "fusion-deck-only-fusion": "extra-kind",
    "copy-limit": "copies", "forbidden-limited": "list", "invalid-entry": "invalid",
}


def read_ydk(text: str) -> dict[str, list]:
    """A .ydk's sections as written; a line that is no 32-bit code (YGOPro's strtoul skips it
    in silence) is kept apart, under ``invalid``."""
    deck: dict[str, list] = {"main": [], "extra": [], "side": [], "invalid": []}
    section = None
    for line in text.splitlines():
        line = line.strip()
        if line.lower() in ("#main", "#extra", "!side"):
            section = line[1:].lower()
        elif line and not line.startswith(("#", "!")) and section:
            if line.isdigit() and int(line) <= 0xFFFFFFFF:
                deck[section].append(int(line))
            else:
                deck["invalid"].append(line)
    return deck


def write_ydk(deck: dict[str, list]) -> str:
    return "#main\n" + "".join(f"{c}\n" for c in deck["main"] + deck.get("invalid", [])) + "#extra\n" + \
        "".join(f"{c}\n" for c in deck["extra"]) + "!side\n" + "".join(f"{c}\n" for c in deck["side"])


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The real catalog (cards.cdb imported), the lists each format applies, the oracle's database."""
    from forcecheck.banlists import read_lflist
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_files

    db_path = tmp_path_factory.mktemp("differential") / "catalog.sqlite3"
    import_files("ygopro", [DATA / "cards.cdb"], db_path)
    lists = {}
    oracle_lists = {}
    for file_name, list_name in [
        ("fluorohydride_ygopro_HEAD_lflist.conf", "2026.5 TCG"), ("fluorohydride_ygopro_HEAD_lflist.conf", "2026.7"),
        ("fluorohydride_ygopro_HEAD_lflist.conf", "2017.3 TCG"), ("fluorohydride_ygopro_HEAD_lflist.conf", "2017.4"),
        ("projectignis_EDISON_2010.3_whitelist.lflist.conf", "2010.3 EDISON"), ("projectignis_GOAT.lflist.conf", "2005.4 GOAT"),
        ("fluorohydride_ygopro_47d1185_2012-02-17_lflist.conf", "2011.3.1"),
    ]:
        lists[list_name] = next(b for b in read_lflist(LFLIST / file_name)[0] if b.name == list_name)
        oracle_lists[list_name] = read_lists(LFLIST / file_name)[list_name]
    return SqliteCatalog(db_path), lists, oracle_lists, Database(DATA / "cards.cdb")


RUNS = [  # (format, list): every format with lists it applies, and none
    ("ygo-tcg", "2026.5 TCG"), ("ygo-tcg", "2017.3 TCG"), ("ygo-tcg", None),
    ("ygo-ocg", "2026.7"), ("ygo-ocg", "2017.4"), ("ygo-ocg", None),
    ("ygo-5ds", "2011.3.1"), ("ygo-5ds", None),
    ("ygo-edison", "2010.3 EDISON"), ("ygo-goat", "2005.4 GOAT"),
]


def forcecheck_kinds(world, text: str, format_name: str, list_name: str | None, path: str = "deck.ydk"):
    from forcecheck.checking import FormatCache
    from forcecheck.decklists.readers import parse_decklist
    from forcecheck.engine import NO_BANLIST, check_decklist

    catalog, lists, _oracle_lists, _db = world
    formats = _caches.setdefault((id(catalog), list_name), FormatCache(banlist=lists[list_name] if list_name else NO_BANLIST, catalog=catalog))
    fmt = formats.get(format_name)
    report = check_decklist(parse_decklist(text, path, fmt.known_headers, suffix=Path(path).suffix), fmt, catalog)
    errors = [v for v in report.violations if v.severity == "error"]
    return report.legal, {KIND_OF_RULE.get(v.rule, v.rule) for v in errors}, report


_caches: dict = {}


def agree(world, deck: dict[str, list[int]], format_name: str, list_name: str | None, label: str) -> set[str]:
    _catalog, _lists, oracle_lists, db = world
    found = oracle(deck, db, FORMATS[format_name], oracle_lists[list_name] if list_name else None)
    legal, kinds, report = forcecheck_kinds(world, write_ydk(deck), format_name, list_name)
    ygopro = found[0] if found else None
    context = f"{label} in {format_name} with {list_name}: YGOPro's first error {ygopro}, forcecheck {[(v.rule, v.message) for v in report.violations][:6]}"
    assert legal == (not found), context
    assert kinds == {kind for kind, _code in found}, context
    return kinds or {"legal"}


# --- the tests ------------------------------------------------------------------------------------

def test_the_oracle_knows_ygopros_errors():
    """The oracle itself, on hand-made decks: each rule both ways (a test that cannot fail is a defect)."""
    db = Database(DATA / "cards.cdb")
    plain = [55144522] + [c for c, (t, a, o, _n) in db.cards.items() if t == 0x21 and not a and o == 3][:39]  # Pot of Greed + 39 effect monsters, one each
    fmt = FORMATS["ygo-tcg"]
    assert oracle({"main": plain, "extra": [], "side": []}, db, fmt, None) == []
    assert oracle({"main": plain[:39], "extra": [], "side": []}, db, fmt, None) == [("main-size", None)]
    assert ("copies", 55144522) in oracle({"main": plain + [55144522] * 3, "extra": [], "side": []}, db, fmt, None)
    ocg_only = next(c for c, (t, a, o, _n) in db.cards.items() if o == 1 and t & 1 and not t & TYPES_EXTRA_DECK)
    assert oracle({"main": plain[:39] + [ocg_only], "extra": [], "side": []}, db, fmt, None) == [("pool", ocg_only)]
    assert oracle({"main": plain[:39] + [ocg_only], "extra": [], "side": []}, db, FORMATS["ygo-ocg"], None) == []
    assert oracle({"main": plain, "extra": [41999284], "side": []}, db, fmt, None) == []  # Linkuriboh
    assert oracle({"main": plain + [41999284], "extra": [], "side": []}, db, fmt, None) == [("main-kind", 41999284)]
    assert oracle({"main": plain, "extra": [55144522], "side": []}, db, fmt, None) == [("extra-kind", 55144522)]
    lists = read_lists(LFLIST / "fluorohydride_ygopro_HEAD_lflist.conf")
    assert lists["2026.5 TCG"]["entries"][55144522] == 0
    assert ("list", 55144522) in oracle({"main": plain, "extra": [], "side": []}, db, fmt, lists["2026.5 TCG"])


@pytest.mark.parametrize("path", REAL + SAMPLE_YDK, ids=lambda p: p.name)
def test_real_decks_get_ygopros_verdict_in_every_format(world, path):
    deck = read_ydk(path.read_text(encoding="utf-8-sig"))
    for format_name, list_name in RUNS:
        _SEEN.update(agree(world, deck, format_name, list_name, path.name))


_SEEN: set[str] = set()


def test_the_real_decks_meet_legal_decks_and_every_kind_of_error():
    """The real decks (run above) are no one-sided sample: some pass somewhere, and together they
    break most of the rules."""
    if not _SEEN:
        pytest.skip("runs after the real decks' test")
    assert {"legal", "main-size", "era", "copies", "list", "pool", "unknown"} <= _SEEN, _SEEN


def test_real_decks_as_ydke_codes_have_the_same_fingerprint_and_verdict(world):
    """Every real deck as a ydke:// code (inside a chat message) reads as the same deck: the same
    fingerprint as the .ydk, and the verdict of the .ydk."""
    from forcecheck.canonical import fingerprint
    from forcecheck.checking import FormatCache
    from forcecheck.decklists.readers import parse_decklist
    from forcecheck.decklists.ydke import encode

    catalog = world[0]
    fmt = FormatCache(banlist="none", catalog=catalog).get("ygo-tcg")
    for path in REAL:
        text = path.read_text(encoding="utf-8-sig")
        deck = read_ydk(text)
        message = f"my list for today:\n{encode(deck['main'], deck['extra'], deck['side'])}\ngood luck"
        as_ydk = parse_decklist(text, "d.ydk", fmt.known_headers, suffix=".ydk")
        as_ydke = parse_decklist(message, "d.txt", fmt.known_headers, suffix=".txt")
        assert fingerprint(as_ydke, fmt, catalog) == fingerprint(as_ydk, fmt, catalog), path.name
        assert forcecheck_kinds(world, message, "ygo-tcg", None, "d.txt")[:2] == forcecheck_kinds(world, text, "ygo-tcg", None)[:2], path.name


MUTATIONS = 400
"""Mutated decks per run of the suite (each checked in every format): bounded, seeded."""


def test_mutated_decks_get_ygopros_verdict(world):
    _catalog, _lists, _oracle_lists, db = world
    rng = random.Random(20260530)
    cards = db.cards
    pools = {
        "any": sorted(cards),
        "extra": sorted(c for c, (t, _a, _o, _n) in cards.items() if t & TYPES_EXTRA_DECK and not t & TOKEN),
        "pendulum": sorted(c for c, (t, _a, _o, _n) in cards.items() if t & PENDULUM),
        "token": sorted(c for c, (t, _a, _o, _n) in cards.items() if t & TOKEN),
        "ocg-only": sorted(c for c, (_t, _a, o, _n) in cards.items() if o == 1),
        "tcg-only": sorted(c for c, (_t, _a, o, _n) in cards.items() if o == 2),
        "printing": sorted(c for c, (_t, a, _o, _n) in cards.items() if a),  # alternate artworks, "treated as" cards
        "unknown": [99999999, 100912058, 123],
        "old": sorted(oracle_code for oracle_code in world[2]["2005.4 GOAT"]["entries"] if oracle_code in cards),
    }
    sources = [read_ydk(p.read_text(encoding="utf-8-sig")) for p in REAL + SAMPLE_YDK]
    seen: Counter = Counter()
    for number in range(MUTATIONS):
        deck = {k: list(v) for k, v in rng.choice(sources).items()}
        for _ in range(rng.randint(1, 3)):
            _mutate(deck, rng, pools, db)
        format_name, list_name = RUNS[number % len(RUNS)]
        seen.update(agree(world, deck, format_name, list_name, f"mutation {number}"))
    # the mutations reach every rule, and some decks stay legal: a differential that cannot disagree is no test
    assert set(KIND_OF_RULE.values()) - {"invalid"} <= set(seen), seen
    assert seen["legal"] >= 5, seen


def _mutate(deck: dict[str, list[int]], rng: random.Random, pools: dict, db: Database) -> None:
    section = rng.choice(("main", "main", "extra", "side"))
    cards = deck[section]
    move = rng.choice(("add", "add", "remove", "copy", "move", "printing", "trim", "pad"))
    if move == "add":
        cards.insert(rng.randint(0, len(cards)), rng.choice(pools[rng.choice(list(pools))]))
    elif move == "remove" and cards:
        cards.pop(rng.randrange(len(cards)))
    elif move == "copy" and cards:
        card = rng.choice(cards)
        cards.extend([card] * rng.randint(1, 3))
    elif move == "move" and cards:
        card = cards.pop(rng.randrange(len(cards)))
        deck[rng.choice(("main", "extra", "side"))].append(card)
    elif move == "printing" and cards:
        at = rng.randrange(len(cards))
        code = cards[at]
        if code in db.cards:
            root = db.duel_code(code)
            others = [c for c, card in db.cards.items() if card[1] == root] + [root]
            cards[at] = rng.choice(others)
    elif move == "trim":
        del cards[rng.randint(0, len(cards)):]
    elif move == "pad" and cards:
        cards.extend(rng.choice(cards) for _ in range(rng.randint(1, 25)))
