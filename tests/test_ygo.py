"""Yu-Gi-Oh! OCG, 5D's Master Rule: .ydk decks, YGOPro databases, Forbidden/Limited lists."""

from __future__ import annotations

import json
import sqlite3

import pytest
from conftest import ROOT, SAMPLES, SHARED, cli_runner, make_cdb, needs_shared

from forcecheck.banlists import date_of, parse_lflist
from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache, check_file
from forcecheck.cli import app
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist
from forcecheck.errors import ForcecheckError
from forcecheck.importers import pipeline, ygopro

runner = cli_runner()
LFLIST = ROOT / "tests" / "fixtures" / "test-lflist.conf"
YGO = SAMPLES / "ygo-5ds"

EXPECTED = {
    'illegal-16-extra-cards.ydk': [('FC101', 'extra-size', 'extra', None, 44, 16, 'at most 15')],
    'illegal-16-side-cards.txt': [('FC101', 'side-size', 'side', None, 39, 17, 'at most 15')],
    'illegal-39-main-cards.txt': [('FC101', 'main-size', 'main', None, 2, 39, '40 to 60')],
    'illegal-bad-lines.ydk': [('FC007', 'invalid-entry', 'main', None, 44, None, None), ('FC007', 'invalid-entry', 'main', None, 45, None, None)],
    'illegal-four-stardust-alternate-art.ydk': [('FC201', 'copy-limit', 'extra', 'Stardust Dragon', 56, 4, 'at most 3')],
    'illegal-fusion-in-main.ydk': [('FC302', 'main-no-extra-deck-monsters', 'main', 'Thousand-Eyes Restrict', 43, 1, None)],
    'illegal-token-in-main.ydk': [('FC302', 'no-tokens', 'main', 'Sheep Token', 43, 1, None)],
    'illegal-unknown-passcode.ydk': [('FC001', 'unknown-card', 'main', '99999999', 43, None, None)],
    'illegal-xyz-and-pendulum.ydk': [('FC302', 'no-later-card-kinds', 'main', 'Odd-Eyes Pendulum Dragon', 43, 1, None), ('FC302', 'no-later-card-kinds', 'extra', 'Number 39: Utopia', 59, 1, None)],
    'legal-synchro-by-name.txt': [],
    'legal-synchro-japanese.txt': [],
    'legal-synchro.ydk': [],
    # lists in the shapes players publish (issue 12): warnings say what was assumed
    'legal-headerless-coverage-style.txt': [
        ('FC010', 'deck-title', None, None, 6, None, None),
        ('FC011', 'card-placed', 'main', None, 8, None, None),
        ('FC012', 'name-corrected', 'main', 'Mystical Space Typhoon', 21, None, None),
        ('FC012', 'name-corrected', 'main', 'Solemn Judgment', 26, None, None),
        ('FC011', 'card-placed', 'extra', None, 32, None, None),
        ('FC011', 'card-placed', 'side', None, 44, None, None),
    ],
    'illegal-group-headers-17-side-cards.txt': [  # Mind Control, a spell, is written under 'Traps' as players do
        ('FC011', 'card-placed', 'main', 'Mind Control', 26, None, None),
        ('FC101', 'side-size', 'side', None, 40, 17, 'at most 15'),
    ],
}


def test_every_ygo_sample_has_an_expectation():
    assert sorted(p.name for p in YGO.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_ygo_sample_deck(name):
    report = check_file(YGO / name, sample_catalog(), FormatCache(), "ygo-5ds")
    assert report.error is None
    got = [(v.code, v.rule, v.section, v.card, v.line, v.found, v.limit) for v in report.violations]
    assert got == EXPECTED[name]
    assert report.legal == name.startswith("legal-")
    assert report.banlist is None


def ydk_violations(text: str, banlist=None):
    formats = FormatCache(banlist=banlist)
    fmt = formats.get("ygo-5ds")
    deck = parse_decklist(text, "d.ydk", fmt.known_headers, suffix=".ydk")
    return check_decklist(deck, fmt, sample_catalog()).violations


LEGAL = (YGO / "legal-synchro.ydk").read_text(encoding="utf-8")


def test_ydk_crlf_leading_zeros_no_trailing_newline_and_missing_sections():
    assert ydk_violations(LEGAL) == []  # the sample is CRLF with no final newline
    padded = LEGAL.replace("\n63977008", "\n0063977008")
    assert ydk_violations(padded) == []
    no_side = LEGAL.split("!side")[0]
    assert ydk_violations(no_side) == []
    main_only = "#main\n" + "\n".join(["63977008"] * 3 + ["23571046"] * 3 + ["9365703"] * 3 + ["85087012"] * 3 + ["14943837"] * 3
                                      + ["92676637"] * 2 + ["57421866"] * 2 + ["97268402"] * 2 + ["83011277"] * 2 + ["5318639"] * 2
                                      + ["14087893"] * 2 + ["41420027"] * 2 + ["29401950"] * 2 + ["70342110"] * 2 + ["423585"] * 3
                                      + ["15341821"] * 3 + ["26202165"] * 1)
    assert ydk_violations(main_only) == []


def test_a_thousand_copies_of_one_id():
    text = "#main\n" + "63977008\n" * 1000
    found = [(v.rule, v.card, v.found, v.limit) for v in ydk_violations(text)]
    assert found == [("main-size", None, 1000, "40 to 60"), ("copy-limit", "Junk Synchron", 1000, "at most 3")]


def test_a_fusion_in_main_stays_on_its_line_and_is_reported_there():
    text = LEGAL.replace("#extra", "63519819\n#extra", 1)
    (v,) = ydk_violations(text)  # 41 main cards is fine; the fusion is reported where it is, not moved
    assert (v.code, v.rule, v.section, v.card, v.line) == ("FC302", "main-no-extra-deck-monsters", "main", "Thousand-Eyes Restrict", 44)


def test_treated_as_cards_count_with_the_original():
    base = "\n".join(f"{c} {n}" for c, n in [(3, "Junk Synchron"), (3, "Quillbolt Hedgehog"), (3, "Speed Warrior"), (3, "Card Trooper"),
                                               (3, "Debris Dragon"), (2, "Tuningware"), (2, "Level Eater"), (2, "Effect Veiler"),
                                               (2, "Mystic Tomato"), (2, "Mystical Space Typhoon"), (2, "Book of Moon"), (2, "Solemn Judgment"),
                                               (2, "Bottomless Trap Hole"), (2, "Dimensional Prison"), (3, "Summoner Monk"), (2, "Dandylion")])
    fmt = FormatCache().get("ygo-5ds")

    def check(extra_lines):
        deck = parse_decklist("Main Deck:\n" + base + "\n" + extra_lines, "d.txt", fmt.known_headers)
        return [(v.rule, v.card, v.found) for v in check_decklist(deck, fmt, sample_catalog()).violations]

    assert check("2 Umi\n1 A Legendary Ocean\n") == []
    assert check("2 Umi\n2 A Legendary Ocean\n") == [("copy-limit", "Umi", 4)]


def test_text_decklists_by_card_name():
    report = check_file(YGO / "legal-synchro-by-name.txt", sample_catalog(), FormatCache(), "ygo-5ds")
    assert report.violations == []


# --- banlists ---------------------------------------------------------------------------------

def test_parse_lflist_lists_entries_whitelist_and_broken_lines():
    lists, warnings = parse_lflist(LFLIST.with_name("test-lflist-broken.conf").read_text(encoding="utf-8"), "test")
    assert [(b.name, b.whitelist, b.date) for b in lists] == [("2099.1 forcecheck test", False, "2099-01-01"), ("whitelist test", True, None)]
    assert lists[0].entries == {"55144522": 0, "44095762": 1, "5318639": 2}
    assert [(w.line, w.message.split(";")[0]) for w in warnings] == [
        (10, "not 'passcode count': 'this line is broken'"),
        (11, "count 7 is over 3"),
    ]
    assert [u.split(";")[0] for u in lists[0].unread] == ["line 10: not 'passcode count': 'this line is broken'", "line 11: count 7 is over 3"]
    assert lists[1].unread == []  # the whitelist after them is whole


@pytest.mark.parametrize("name,date", [("2011.3.1 OCG", "2011-03-01"), ("2026.07 OCG", "2026-07-01"), ("2010-04-24 Edison", "2010-04-24"), ("GOAT", None)])
def test_list_dates(name, date):
    assert date_of(name) == date


def test_banlist_from_a_file_forbidden_limited_semi_limited():
    from forcecheck.banlists import pick, read_lflist

    banlist = pick(read_lflist(LFLIST)[0], None, "test")
    assert ydk_violations(LEGAL, banlist) == []  # 1 Mirror Force, 2 MST are within the caps
    text = LEGAL.replace("#extra", "55144522\n44095762\n5318639\n#extra", 1)
    found = [(v.code, v.rule, v.card, v.found, v.limit) for v in ydk_violations(text, banlist)]
    assert found == [
        ("FC601", "forbidden-limited", "Mystical Space Typhoon", 3, "at most 2"),
        ("FC601", "forbidden-limited", "Mirror Force", 2, "at most 1"),
        ("FC601", "forbidden-limited", "Pot of Greed", 1, "0 (forbidden)"),
    ]
    assert "Pot of Greed is forbidden on 2099.1 forcecheck test" in ydk_violations(text, banlist)[2].message


def test_whitelist_forbids_every_card_not_listed():
    from forcecheck.banlists import pick, read_lflist

    whitelist = pick(read_lflist(LFLIST)[0], "whitelist test", "test")
    found = ydk_violations(LEGAL, whitelist)
    assert "Junk Synchron" not in {v.card for v in found}
    assert {v.rule for v in found} == {"forbidden-limited"} and len(found) == 36  # 37 distinct cards, one listed
    assert "not on the whitelist whitelist test" in found[0].message


def test_cli_banlist_file_none_and_report_names_the_list():
    deck = str(YGO / "legal-synchro.ydk")
    result = runner.invoke(app, ["check", deck, "-f", "ygo-5ds", "--banlist-file", str(LFLIST), "--as-of", "2099-02-01", "-o", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["decks"][0]["banlist"] == "2099.1 forcecheck test"  # in force that day
    result = runner.invoke(app, ["check", deck, "-f", "ygo-5ds", "--banlist-file", str(LFLIST), "--banlist", "whitelist test", "--color", "never"])
    assert result.exit_code == 1 and "banlist whitelist test" in result.stdout
    result = runner.invoke(app, ["check", deck, "-f", "ygo-5ds", "--banlist", "none", "-o", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["decks"][0]["banlist"] is None
    result = runner.invoke(app, ["check", deck, "-f", "ygo-5ds", "--banlist", "2011.3"])
    assert result.exit_code == 2 and "no banlist '2011.3'" in result.stderr
    result = runner.invoke(app, ["check", deck, "-f", "ygo-5ds", "--banlist-file", str(LFLIST), "--banlist", "nope"])
    assert result.exit_code == 2 and "no banlist 'nope'" in result.stderr and "2099.1 forcecheck test" in result.stderr
    # a list for a format without a banlist rule is ignored for its decks, with one note (issue 16, item 2)
    result = runner.invoke(app, ["check", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "-f", "bifrost", "--banlist-file", str(LFLIST)])
    assert result.exit_code == 0, result.output
    assert f"note: the banlist file {LFLIST} (set by command line --banlist-file) does not apply to format bifrost (it has no banlist rule)" in result.stdout


def test_banlist_import_list_show_and_check_by_name(tmp_path):
    db = tmp_path / "c.db"
    broken = LFLIST.with_name("test-lflist-broken.conf")
    result = runner.invoke(app, ["banlist", "import", str(broken), "--db", str(db)])
    assert result.exit_code == 2 and result.stdout == ""  # once imported, a card on the line it cannot read would go unchecked
    assert result.stderr.startswith(f"forcecheck: error: {broken}:10: list '2099.1 forcecheck test' cannot be applied: not 'passcode count': "
                                    "'this line is broken' (and 1 more line(s))") and "(the catalog was not changed)" in result.stderr
    result = runner.invoke(app, ["banlist", "import", str(LFLIST), "--db", str(db)])
    assert result.exit_code == 0 and "imported 2 list(s)" in result.stdout and "warning" not in result.stderr
    result = runner.invoke(app, ["banlist", "list", "--db", str(db)])
    assert "2099.1 forcecheck test" in result.stdout and "whitelist" in result.stdout
    result = runner.invoke(app, ["banlist", "show", "2099.1 FORCECHECK TEST", "--db", str(db)])
    assert result.exit_code == 0 and "forbidden (1)" in result.stdout and "55144522" in result.stdout
    result = runner.invoke(app, ["check", str(YGO / "legal-synchro.ydk"), "-f", "ygo-5ds", "--catalog", str(db), "--banlist", "2099.1 forcecheck test", "-o", "json"])
    doc = json.loads(result.stdout)
    assert doc["decks"][0]["banlist"] == "2099.1 forcecheck test"
    assert {v["rule"] for v in doc["decks"][0]["violations"]} == {"unknown-card"}  # no cards imported in this catalog
    bad = tmp_path / "bad.conf"
    bad.write_text("# nothing\n")
    result = runner.invoke(app, ["banlist", "import", str(bad), "--db", str(db)])
    assert result.exit_code == 2 and "no lists" in result.stderr


# --- the YGOPro importer ----------------------------------------------------------------------



def test_ygopro_importer_types_aliases_and_tokens(tmp_path):
    cdb = make_cdb(tmp_path / "cards.cdb", [
        (44508094, 0, 0x2021, 8, 0x2000, 0x08, "Stardust Dragon"),
        (44508095, 44508094, 0x2021, 8, 0x2000, 0x08, "Stardust Dragon"),
        (46986414, 0, 0x11, 7, 0x2, 0x20, "Dark Magician"),
        (46986420, 0, 0x4011, 7, 0x2, 0x20, "Dark Magician"),
        (22702055, 0, 0x80002, 0, 0, 0, "Umi"),
        (295517, 22702055, 0x80002, 0, 0, 0, "A Legendary Ocean"),
        (84013237, 0, 0x800021, 4, 0x1, 0x10, "Number 39: Utopia"),
    ])
    cards, warnings = ygopro.convert(ygopro.read_source(cdb))
    by = {c.name: c for c in cards}
    assert warnings == []
    assert by["Stardust Dragon"].types == {"monster", "effect", "synchro"} and by["Stardust Dragon"].printings == ("44508094", "44508095")
    assert by["Stardust Dragon"].attributes == {"wind"} and by["Stardust Dragon"].subtypes == {"dragon"}
    assert by["Stardust Dragon"].keywords == {"level": 8}
    assert "token" in by["Dark Magician (token)"].types and "token" not in by["Dark Magician"].types
    assert by["Umi"].aliases == ("A Legendary Ocean",) and by["Umi"].printings == ("22702055", "295517")
    assert by["Number 39: Utopia"].types == {"monster", "effect", "xyz"}


@pytest.mark.parametrize("content,fragment", [(b"not sqlite at all", "not an SQLite file"), (None, "no table datas, texts")])
def test_ygopro_importer_refuses_other_files_and_keeps_the_catalog(tmp_path, content, fragment):
    db = tmp_path / "c.db"
    good = make_cdb(tmp_path / "good.cdb", [(63977008, 0, 0x1021, 3, 0x1, 0x20, "Junk Synchron")])
    pipeline.import_files("ygopro", [good], db)
    before = db.read_bytes()
    bad = tmp_path / "bad.cdb"
    if content is None:
        conn = sqlite3.connect(bad)
        conn.execute("CREATE TABLE other (x)")
        conn.commit()
        conn.close()
    else:
        bad.write_bytes(content)
    with pytest.raises(ForcecheckError, match=fragment):
        pipeline.import_files("ygopro", [bad], db)
    assert db.read_bytes() == before


@needs_shared
def test_real_database_and_real_decks(tmp_path):
    db = tmp_path / "c.db"
    result = pipeline.import_files("ygopro", [SHARED / "data" / "ygo" / "cards.cdb"], db)
    assert result.records == 10628 and result.cards["ygo"] > 10000
    decks = SHARED / "data" / "ygo" / "decks"

    def run(folder):
        out = runner.invoke(app, ["check", str(decks / folder), "-f", "ygo-5ds", "--catalog", str(db), "--banlist", "none", "-o", "json"])
        return json.loads(out.stdout)["decks"]

    for deck in run("era_5ds_style"):
        rules = {v["rule"] for v in deck["violations"] if v["severity"] == "error"}
        assert rules <= {"unknown-card"}, (deck["path"], rules)  # structure passes where every id is known
    for deck in run("modern_illegal_5ds"):
        assert "no-later-card-kinds" in {v["rule"] for v in deck["violations"]}, deck["path"]
    (edge,) = run("edge_cases")
    unknown = [v for v in edge["violations"] if v["rule"] == "unknown-card"]
    assert unknown and all(v["line"] for v in unknown)


@needs_shared
def test_real_lflists_import(tmp_path):
    db = tmp_path / "c.db"
    result = pipeline.import_banlists(sorted((SHARED / "data" / "ygo" / "lflist").glob("*.conf")), db)
    names = {b.name for b in result.lists}
    assert len(names) > 100 and "2011.3.1" in names
    assert any(b.whitelist for b in result.lists)
