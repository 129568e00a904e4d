"""Card data in several languages: YGOPro databases per locale merged by passcode, translated
name fields in fowsim JSON, ``catalog info`` per language, ``fmt --names``, and fingerprints
that do not depend on the language a list is written in."""

from __future__ import annotations

import json
import sqlite3

import pytest
from conftest import ROOT, SHARED, cli_runner, make_cdb, needs_shared

from forcecheck.canonical import fingerprint
from forcecheck.cards.catalog import open_catalog
from forcecheck.cards.store import SqliteCatalog
from forcecheck.checking import FormatCache, check_file
from forcecheck.cli import app
from forcecheck.decklists.readers import parse_decklist
from forcecheck.errors import ForcecheckError
from forcecheck.importers import pipeline

runner = cli_runner()
FIXTURES = ROOT / "tests" / "fixtures" / "ygo-ja"

# passcode, alias, type, level, race, attribute, English name, Japanese name
CARDS = [
    (44508094, 0, 0x2021, 8, 0x2000, 0x08, "Stardust Dragon", "スターダスト・ドラゴン"),
    (44508095, 44508094, 0x2021, 8, 0x2000, 0x08, "Stardust Dragon", "スターダスト・ドラゴン"),
    (65192027, 0, 0x21, 8, 0x2000, 0x20, "Dark Armed Dragon", "ダーク・アームド・ドラゴン"),
    (44095762, 0, 0x4, 0, 0, 0, "Mirror Force", "聖なるバリア －ミラーフォース－"),
    (14087893, 0, 0x10002, 0, 0, 0, "Book of Moon", "月の書"),
    (22702055, 0, 0x80002, 0, 0, 0, "Umi", "海"),
    (295517, 22702055, 0x80002, 0, 0, 0, "A Legendary Ocean", "伝説の都 アトランティス"),
]




@pytest.fixture
def cdbs(tmp_path):
    en = make_cdb(tmp_path / "cards.cdb", [row[:6] + (row[6],) for row in CARDS])
    ja = make_cdb(tmp_path / "cards-ja.cdb", [row[:6] + (row[7],) for row in CARDS])
    return en, ja


def facts(db):
    conn = sqlite3.connect(db)
    try:
        return sorted(row[0] for row in conn.execute("SELECT facts FROM cards"))
    finally:
        conn.close()


def test_two_locale_databases_merge_by_passcode(tmp_path, cdbs):
    db = tmp_path / "c.db"
    result = pipeline.import_files("ygopro", cdbs, db)
    assert (result.locales, result.cards, result.names, result.warnings) == (["en", "ja"], {"ygo": 5}, {"en": 5, "ja": 5}, [])
    cat = SqliteCatalog(db)
    stardust = cat.by_name("ygo", "ｽﾀｰﾀﾞｽﾄ･ﾄﾞﾗｺﾞﾝ")
    assert stardust is cat.by_name("ygo", "Stardust Dragon") is cat.by_printing("ygo", "44508095")
    assert (stardust.name, stardust.lang, stardust.names) == ("Stardust Dragon", "en", {"ja": ("スターダスト・ドラゴン",)})
    assert stardust.types == {"monster", "effect", "synchro"} and stardust.keywords == {"level": 8}
    umi = cat.by_name("ygo", "伝説の都アトランティス")
    assert umi.name == "Umi" and umi.names == {"ja": ("海", "伝説の都 アトランティス")} and umi.aliases == ("A Legendary Ocean",)
    found = cat.match_name("ygo", "聖なるバリア−ミラーフォース")
    assert (found.card.name, found.lang, found.fold, found.loose) == ("Mirror Force", "ja", "bare", True)
    assert cat.match_name("ygo", "mirror force").lang == "en"
    assert cat.info()["names"] == {"ygo": {"en": {"cards": 5, "names": 6}, "ja": {"cards": 5, "names": 6}}}
    assert [s["locale"] for s in cat.info()["sources"]] == ["en", "ja"]
    # nothing imported is lost: every English name still resolves, to the same card
    for row in CARDS:
        assert cat.by_name("ygo", row[6]) is cat.by_printing("ygo", str(row[0]))


def test_importing_one_after_the_other_merges_too_in_either_order(tmp_path, cdbs):
    en, ja = cdbs
    together, en_first, ja_first = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "c.db"
    pipeline.import_files("ygopro", [en, ja], together)
    pipeline.import_files("ygopro", [en], en_first)
    pipeline.import_files("ygopro", [ja], en_first)
    only_ja = pipeline.import_files("ygopro", [ja], ja_first)
    assert only_ja.names == {"ja": 5}
    assert SqliteCatalog(ja_first).by_name("ygo", "月の書").name == "月の書"  # Japanese data alone: Japanese identity
    pipeline.import_files("ygopro", [en], ja_first)
    assert facts(together) == facts(en_first) == facts(ja_first)
    assert SqliteCatalog(ja_first).by_name("ygo", "月の書").name == "Book of Moon"


def test_disagreeing_facts_are_a_warning_per_card_and_the_base_facts_stay(tmp_path, cdbs):
    en, _ja = cdbs
    rows = [row[:6] + (row[7],) for row in CARDS]
    rows[0] = (44508094, 0, 0x2021, 7, 0x2000, 0x08, "スターダスト・ドラゴン")  # level 7, not 8
    rows[4] = (14087893, 0, 0x4, 0, 0, 0, "月の書")  # a trap, not a quick-play spell
    ja = make_cdb(tmp_path / "bad-ja.cdb", rows)
    db = tmp_path / "c.db"
    result = pipeline.import_files("ygopro", [en, ja], db)
    assert [str(w) for w in result.warnings] == [
        "14087893: the ja data disagrees with the en data on Book of Moon: types quick-play, spell / trap; the en facts are kept",
        "44508094: the ja data disagrees with the en data on Stardust Dragon: keywords level 8 / level 7; the en facts are kept",
    ]
    cat = SqliteCatalog(db)
    assert cat.by_name("ygo", "月の書").types == {"spell", "quick-play"}
    assert cat.by_name("ygo", "スターダスト・ドラゴン").keywords == {"level": 8}
    assert cat.info()["warnings"] == 2
    out = runner.invoke(app, ["catalog", "info", "--db", str(db), "--warnings"])
    assert "warning: ygopro 14087893: the ja data disagrees with the en data on Book of Moon" in out.stdout


def test_a_card_only_the_locale_knows_is_a_card_of_its_own(tmp_path, cdbs):
    en, _ja = cdbs
    ja = make_cdb(tmp_path / "ocg.cdb", [row[:6] + (row[7],) for row in CARDS] + [(99000001, 0, 0x2, 0, 0, 0, "ＯＣＧ限定の魔法")])
    db = tmp_path / "c.db"
    result = pipeline.import_files("ygopro", [en, ja], db)
    assert result.cards == {"ygo": 6} and result.names == {"en": 5, "ja": 6}
    card = SqliteCatalog(db).by_name("ygo", "OCG限定の魔法")
    assert (card.name, card.lang, card.printings) == ("ＯＣＧ限定の魔法", "ja", ("99000001",))


def test_the_locale_is_read_from_the_names_or_given(tmp_path):
    latin = make_cdb(tmp_path / "latin-ja.cdb", [(1, 0, 0x2, 0, 0, 0, "ＤＤＲ"), (2, 0, 0x2, 0, 0, 0, "ＲＵＭ")])
    hanzi = make_cdb(tmp_path / "zh.cdb", [(1, 0, 0x2, 0, 0, 0, "死者苏生"), (2, 0, 0x2, 0, 0, 0, "强欲之壶")])
    db = tmp_path / "c.db"
    assert pipeline.import_files("ygopro", [latin], db).locales == ["en"]  # full-width Latin alone: no kana, no kanji
    assert pipeline.import_files("ygopro", [latin], db, locale="ja-JP").locales == ["ja"]
    assert SqliteCatalog(db).match_name("ygo", "ddr").lang == "ja"
    before = db.read_bytes()
    with pytest.raises(ForcecheckError, match="cannot tell the language of the card names .*--locale"):
        pipeline.import_files("ygopro", [hanzi], db)
    assert db.read_bytes() == before
    assert pipeline.import_files("ygopro", [hanzi], db, locale="zh").names == {"ja": 2, "zh": 2}
    with pytest.raises(ForcecheckError, match="not a language code"):
        pipeline.import_files("ygopro", [hanzi], db, locale="japanese!")


def test_cli_import_and_info_per_language(tmp_path, cdbs):
    db = tmp_path / "c.db"
    out = runner.invoke(app, ["catalog", "import", "ygopro", *map(str, cdbs), "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert "from 2 file(s) (en/ja)" in out.stdout and "  names: en 5 cards, ja 5 cards" in out.stdout
    out = runner.invoke(app, ["catalog", "info", "--db", str(db)])
    assert "  ygo: 5 cards\n    names: en 5 cards (6 names), ja 5 cards (6 names)\n" in out.stdout
    assert "cards-ja.cdb (ja; 7 records" in out.stdout
    out = runner.invoke(app, ["catalog", "show", "ダークアームドドラゴン", "--game", "ygo", "--db", str(db)])
    assert out.exit_code == 0 and "Dark Armed Dragon  [ygo]" in out.stdout and "name (ja):  ダーク・アームド・ドラゴン" in out.stdout
    out = runner.invoke(app, ["catalog", "search", "ミラーフォース", "--game", "ygo", "--db", str(db)])
    assert out.stdout.split("\n")[0] == "聖なるバリア －ミラーフォース－"


def test_a_sqlite_file_that_is_no_ygopro_database_is_refused_and_the_catalog_kept(tmp_path, cdbs):
    db = tmp_path / "c.db"
    pipeline.import_files("ygopro", cdbs, db)
    before = db.read_bytes()
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name)")  # texts but no datas
    conn.execute("INSERT INTO texts VALUES (1, 'ダーク・アームド・ドラゴン')")
    conn.commit()
    conn.close()
    for bad in (other, db):  # a forcecheck catalog is an SQLite file too, and no card database
        out = runner.invoke(app, ["catalog", "import", "ygopro", str(cdbs[0]), str(bad), "--db", str(db), "--locale", "ja"])
        assert out.exit_code == 2 and "not a YGOPro card database (no table datas" in out.stderr
        assert "the catalog was not changed" in out.stderr
        assert db.read_bytes() == before


# --- fowsim JSON with a Japanese name field ------------------------------------------------------

def fowsim_file(path, records):
    path.write_text(json.dumps({"fow": {"clusters": [{"name": "T", "sets": [{"name": "S", "code": "S", "cards": records}]}]}}, ensure_ascii=False))
    return path


def rec(id, name, type, **more):
    return {"id": id, "name": name, "type": type, "cost": more.pop("cost", None), "colour": ["W"], "abilities": [], **more}


def test_fowsim_records_with_a_japanese_name_field(tmp_path):
    source = fowsim_file(tmp_path / "cards.json", [
        rec("T-001", "Faria, the Ruler of God Sword", ["Ruler"], name_ja="神剣の覇者ファリア"),
        rec("T-001J", "Faria, the Sacred Queen", ["J-Ruler"], names={"ja": "神聖女王ファリア"}),
        rec("T-002", "Bright Knight", ["Resonator"], cost="{W}{1}", name_jp="輝く騎士"),
        rec("T-003", "Plain Card", ["Chant"], cost="{W}"),
    ])
    db = tmp_path / "c.db"
    result = pipeline.import_files("fowsim", [source], db)
    assert result.locales == ["en"] and result.names == {"en": 3, "ja": 2} and result.warnings == []
    cat = SqliteCatalog(db)
    faria = cat.by_name("fow", "神剣の覇者 ファリア")
    assert faria is cat.by_name("fow", "神聖女王ファリア") is cat.by_name("fow", "Faria, the Sacred Queen")
    assert faria.names == {"ja": ("神剣の覇者ファリア", "神聖女王ファリア")} and faria.name_in("ja") == "神剣の覇者ファリア"
    assert cat.match_name("fow", "輝く騎士").card.name == "Bright Knight"
    assert cat.by_name("fow", "Plain Card").names == {}


def test_a_japanese_fowsim_file_merges_by_printing_code(tmp_path):
    en = fowsim_file(tmp_path / "en.json", [rec("T-001", "Faria, the Ruler of God Sword", ["Ruler"]),
                                            rec("T-002", "Bright Knight", ["Resonator"], cost="{W}{1}")])
    ja = fowsim_file(tmp_path / "ja.json", [rec("T-001", "神剣の覇者ファリア", ["Ruler"]),
                                            rec("T-002", "輝く騎士", ["Resonator"], cost="{W}{2}")])
    db = tmp_path / "c.db"
    result = pipeline.import_files("fowsim", [ja, en], db)
    assert result.locales == ["ja", "en"] and result.cards == {"fow": 2}
    assert [str(w) for w in result.warnings] == [
        "T-002: the ja data disagrees with the en data on Bright Knight: cost {W}{1} / {W}{2}; total cost 2 / 3; the en facts are kept"
    ]
    knight = SqliteCatalog(db).by_name("fow", "輝く騎士")
    assert (knight.name, knight.total_cost, knight.names) == ("Bright Knight", 2, {"ja": ("輝く騎士",)})


# --- fmt --names and fingerprints ----------------------------------------------------------------

DECK_EN = "Main Deck:\n3 Dark Armed Dragon\n2 Book of Moon\n1 Mirror Force\n\nExtra Deck:\n2 Stardust Dragon\n"
DECK_JA = "Main Deck:\n3 ダークアームドドラゴン\n2 月の書\n1 聖なるバリア−ミラーフォース\n\nExtra Deck:\n2 ｽﾀｰﾀﾞｽﾄ･ﾄﾞﾗｺﾞﾝ\n"
CANON_JA = "メインデッキ:\n3 ダーク・アームド・ドラゴン\n2 月の書\n1 聖なるバリア －ミラーフォース－\n\nエクストラデッキ:\n2 スターダスト・ドラゴン\n"  # titles too
CANON_EN = "Main Deck:\n2 Book of Moon\n3 Dark Armed Dragon\n1 Mirror Force\n\nExtra Deck:\n2 Stardust Dragon\n"


@pytest.fixture
def two_language_db(tmp_path, cdbs):
    db = tmp_path / "c.db"
    pipeline.import_files("ygopro", cdbs, db)
    return db


def fmt(path, db, *options):
    return runner.invoke(app, ["fmt", str(path), "-f", "ygo-5ds", "--catalog", str(db), *options])


def test_fmt_keeps_a_japanese_list_japanese_and_names_converts(tmp_path, two_language_db):
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK_JA, encoding="utf-8")
    assert fmt(deck, two_language_db).exit_code == 0
    assert deck.read_text(encoding="utf-8") == CANON_JA
    assert fmt(deck, two_language_db, "--names", "en").exit_code == 0
    assert deck.read_text(encoding="utf-8") == CANON_EN
    assert fmt(deck, two_language_db).exit_code == 0 and deck.read_text(encoding="utf-8") == CANON_EN  # English stays English
    assert fmt(deck, two_language_db, "--names", "JA").exit_code == 0
    assert deck.read_text(encoding="utf-8") == CANON_JA


def test_fmt_names_must_be_a_language_the_catalog_has(tmp_path, two_language_db):
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK_EN, encoding="utf-8")
    out = fmt(deck, two_language_db, "--names", "fr")
    assert out.exit_code == 2 and "has no card names in 'fr' (it has: en, ja)" in out.stderr
    out = fmt(deck, two_language_db, "--names", "??")
    assert out.exit_code == 2 and "--names '??' is not a language code" in out.stderr
    assert deck.read_text(encoding="utf-8") == DECK_EN


def test_the_same_deck_in_either_language_has_one_fingerprint(two_language_db):
    cat = SqliteCatalog(two_language_db)
    fmt_ = FormatCache(banlist="none").get("ygo-5ds")
    prints = {fingerprint(parse_decklist(text, "d.txt", fmt_.known_headers), fmt_, cat)
              for text in (DECK_EN, DECK_JA, CANON_JA, DECK_EN.replace("2 Book of Moon", "2 月の書"))}
    assert len(prints) == 1
    other = fingerprint(parse_decklist(DECK_JA.replace("2 月の書", "1 月の書"), "d.txt", fmt_.known_headers), fmt_, cat)
    assert other not in prints


# --- the real databases ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def real_catalog(tmp_path_factory):
    if not (SHARED / "data" / "ygo" / "cards-ja.cdb").is_file():
        pytest.skip("../shared/data/ygo/cards-ja.cdb is not beside this checkout")
    db = tmp_path_factory.mktemp("ja") / "c.db"
    result = pipeline.import_files("ygopro", [SHARED / "data" / "ygo" / "cards.cdb", SHARED / "data" / "ygo" / "cards-ja.cdb"], db)
    assert result.warnings == [] and result.names == {"en": 10450, "ja": 10307}
    return db


@needs_shared
@pytest.mark.parametrize("written,english", [
    ("ダーク・アームド・ドラゴン", "Dark Armed Dragon"),
    ("冥府の使者ゴーズ", "Gorz the Emissary of Darkness"),
    ("月の書", "Book of Moon"),
    ("聖なるバリア−ミラーフォース", "Mirror Force"),
    ("聖なるバリア －ミラーフォース－", "Mirror Force"),
])
def test_the_five_names_of_the_issue(real_catalog, written, english):
    found = open_catalog(real_catalog).match_name("ygo", written)
    assert found is not None and found.card.name == english and found.lang == "ja"


@needs_shared
@pytest.mark.parametrize("deck", ["ocg-2009-dark-armed-ja.txt", "ocg-2009-dark-armed-mixed.txt", "ocg-2009-dark-armed-en.txt"])
def test_a_2009_ocg_list_resolves_in_japanese_english_or_both(real_catalog, deck):
    report = check_file(FIXTURES / deck, SqliteCatalog(real_catalog), FormatCache(banlist="none"), "ygo-5ds")
    assert report.error is None and report.violations == [] and report.legal


@needs_shared
def test_the_2009_list_has_one_fingerprint_in_every_language(real_catalog):
    prints = set()
    for deck in ("ja", "en", "mixed"):
        out = runner.invoke(app, ["fingerprint", str(FIXTURES / f"ocg-2009-dark-armed-{deck}.txt"), "-f", "ygo-5ds", "--catalog", str(real_catalog)])
        assert out.exit_code == 0, out.output
        prints.add(out.stdout.strip().split("\n")[-1])
    assert len(prints) == 1


@needs_shared
def test_the_japanese_list_alone_gives_unknown_cards_with_the_english_catalog(tmp_path):
    db = tmp_path / "en.db"
    pipeline.import_files("ygopro", [SHARED / "data" / "ygo" / "cards.cdb"], db)
    report = check_file(FIXTURES / "ocg-2009-dark-armed-ja.txt", SqliteCatalog(db), FormatCache(banlist="none"), "ygo-5ds")
    assert {v.rule for v in report.violations} >= {"unknown-card"}
    assert sum(v.rule == "unknown-card" for v in report.violations) == 45  # every line: no Japanese names in it


@pytest.mark.parametrize("header,section", [("エクストラデッキ", "extra"), ("エキストラデッキ", "extra"), ("サイドデッキ", "side")])
def test_japanese_section_titles(header, section):
    fmt_ = FormatCache(banlist="none").get("ygo-5ds")
    assert fmt_.section_id(header) == section
