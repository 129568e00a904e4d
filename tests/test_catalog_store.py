"""The imported SQLite catalog: import, merge, update in place, lookups, and a catalog left
untouched by every bad input."""

from __future__ import annotations

import json
import sqlite3

import pytest
from conftest import SAMPLES, SHARED, cli_runner, needs_shared

from forcecheck.cards.catalog import default_db_path, open_catalog
from forcecheck.cards.store import SqliteCatalog
from forcecheck.cli import app
from forcecheck.errors import CatalogError, ForcecheckError
from forcecheck.importers import pipeline

runner = cli_runner()


def rec(id, name, type, cost=None, colour=("V",), abilities=(), race=()):
    return {"id": id, "name": name, "type": list(type), "cost": cost, "colour": list(colour),
            "abilities": list(abilities), "race": list(race)}


def fowsim_file(path, records):
    path.write_text(json.dumps({"fow": {"clusters": [{"name": "T", "sets": [{"name": "S", "code": "S", "cards": records}]}]}}))
    return path


@pytest.fixture
def small(tmp_path):
    return fowsim_file(tmp_path / "cards.json", [
        rec("T-001", "Test Ruler", ["Ruler"], colour=["W"], abilities=["[Stranger] 10 (...)"]),
        rec("T-001J", "Test J-Ruler", ["J-Ruler"], colour=["W"]),
        rec("T-002", "Bright Knight", ["Resonator"], cost="{W}{1}", colour=["W"]),
        rec("T-003", "Dark Prominence", ["Chant"], cost="{R}d[]", colour=["R", "B"]),
    ])


def test_import_lookup_and_suggest(tmp_path, small):
    db = tmp_path / "c.db"
    result = pipeline.import_files("fowsim", [small], db)
    assert (result.files, result.records, result.cards) == (1, 4, {"fow": 3})
    assert [str(w) for w in result.warnings] == ["T-003: malformed cost '{R}d[]'", "T-003: no well-formed cost for 'Dark Prominence'; total cost taken as 0"]
    cat = SqliteCatalog(db)
    assert cat.by_name("fow", "test j-ruler").name == "Test Ruler"
    assert cat.by_name("fow", "BRIGHT  KNIGHT").total_cost == 2
    assert cat.by_printing("fow", "t-002").name == "Bright Knight"
    assert cat.by_name("ygo", "Bright Knight") is None
    assert cat.suggest("fow", "Brite Knigt") == ["Bright Knight"]
    assert cat.info()["cards"] == {"fow": 3} and cat.info()["warnings"] == 2


def test_a_second_file_merges_and_a_well_formed_printing_wins(tmp_path, small):
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    other = fowsim_file(tmp_path / "more.json", [rec("U-080", "Dark Prominence", ["Chant"], cost="{R}{B}", colour=["R", "B"])])
    pipeline.import_files("fowsim", [other], db)
    card = SqliteCatalog(db).by_name("fow", "Dark Prominence")
    assert (card.cost, card.total_cost, card.printings) == ("{R}{B}", 2, ("T-003", "U-080"))


def test_importing_again_updates_in_place(tmp_path, small):
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    fowsim_file(small, [rec("T-002", "Bright Knight", ["Resonator"], cost="{W}{2}", colour=["W"])])
    result = pipeline.import_files("fowsim", [small], db)
    cat = SqliteCatalog(db)
    assert result.cards == {"fow": 1} and cat.by_name("fow", "Bright Knight").total_cost == 3
    assert len(cat.info()["sources"]) == 1


@pytest.mark.parametrize(
    "content,fragment",
    [
        ("", "empty file"),
        ("{not json", "not JSON"),
        ('{"data": [1, 2, 3]}', "not fowsim card data"),
        ('{"fow": {"clusters": []}}', "no card records"),
    ],
)
def test_bad_source_files_leave_the_catalog_untouched(tmp_path, small, content, fragment):
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    before = db.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    with pytest.raises(ForcecheckError, match=fragment):
        pipeline.import_files("fowsim", [small, bad], db)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "c.db", "c.db.lock", "cards.json"]  # the writers' lock file stays (empty)


def test_a_database_that_is_not_ours_is_never_touched(tmp_path, small):
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = foreign.read_bytes()
    with pytest.raises(CatalogError, match="not a forcecheck catalog"):
        pipeline.import_files("fowsim", [small], foreign)
    assert foreign.read_bytes() == before
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(CatalogError, match="not an SQLite file"):
        pipeline.import_files("fowsim", [small], text)
    assert text.read_text() == "hello"
    with pytest.raises(CatalogError, match="not a forcecheck catalog"):
        SqliteCatalog(foreign)


def test_an_older_schema_version_is_refused(tmp_path, small):
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(CatalogError, match="schema version 0"):
        SqliteCatalog(db)
    with pytest.raises(CatalogError, match="schema version 0"):
        pipeline.import_files("fowsim", [small], db)


def test_a_failure_mid_import_leaves_the_old_catalog(tmp_path, small, monkeypatch):
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    before = db.read_bytes()

    def explode(conn, db):
        raise RuntimeError("disk full")

    monkeypatch.setattr(pipeline, "_derive", explode)
    with pytest.raises(RuntimeError):
        pipeline.import_files("fowsim", [small], db)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.db", "c.db.lock", "cards.json"]


def test_catalog_choice_order(tmp_path, small, monkeypatch):
    assert open_catalog(None).label == "embedded sample catalog"
    default = default_db_path()
    pipeline.import_files("fowsim", [small], default)
    assert open_catalog(None).label == f"catalog {default}"
    env_db = tmp_path / "env.db"
    pipeline.import_files("fowsim", [small], env_db)
    monkeypatch.setenv("FORCECHECK_CATALOG", str(env_db))
    assert open_catalog(None).label == f"catalog {env_db}"
    with pytest.raises(ForcecheckError, match="no such file"):  # an explicit path wins, even a wrong one
        open_catalog(tmp_path / "missing.json")


def test_cli_import_info_show_search_and_check(tmp_path, small):
    db = tmp_path / "c.db"
    result = runner.invoke(app, ["catalog", "import", "fowsim", str(small), "--db", str(db)])
    assert result.exit_code == 0 and "3 fow cards" in result.stdout
    assert "malformed cost" in result.stderr
    result = runner.invoke(app, ["catalog", "info", "--db", str(db), "--warnings"])
    assert result.exit_code == 0 and "fow: 3 cards" in result.stdout and "T-003: malformed cost" in result.stdout
    result = runner.invoke(app, ["catalog", "show", "Test J-Ruler", "--db", str(db)])
    assert result.exit_code == 0
    assert "Test Ruler  [fow]" in result.stdout and "other face: Test J-Ruler" in result.stdout and "keywords:   stranger 10" in result.stdout
    result = runner.invoke(app, ["catalog", "show", "Brite Knight", "--db", str(db)])
    assert result.exit_code == 1 and "did you mean 'Bright Knight'" in result.stderr
    result = runner.invoke(app, ["catalog", "search", "knight", "--db", str(db)])
    assert result.exit_code == 0 and result.stdout.splitlines()[0] == "Bright Knight"
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    result = runner.invoke(app, ["catalog", "import", "fowsim", str(bad), "--db", str(db)])
    assert result.exit_code == 2 and "the catalog was not changed" in result.stderr and "Traceback" not in result.stderr


def test_check_says_which_catalog_was_used(tmp_path, small):
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    result = runner.invoke(app, ["check", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "-f", "bifrost", "--catalog", str(db), "-o", "json"])
    doc = json.loads(result.stdout)
    assert doc["summary"]["catalog"] == str(db)  # the file, not "catalog: catalog /path"
    assert result.exit_code == 1  # the tiny catalog does not know the deck's cards
    assert {v["rule"] for v in doc["decks"][0]["violations"]} == {"unknown-card"}


@needs_shared
def test_real_fow_database_import_and_tricky_cards(tmp_path):
    db = tmp_path / "fow.db"
    files = [SHARED / "data" / "fow" / "fowsim-cards.json", SHARED / "data" / "fow" / "fowsim-abc2023-decks-cards.json"]
    result = pipeline.import_files("fowsim", files, db)
    assert result.records == 5340 + 369 and result.cards["fow"] > 4400
    assert "ABC-RD-019" in {w.record for w in result.warnings}
    cat = SqliteCatalog(db)
    show = lambda name: runner.invoke(app, ["catalog", "show", name, "--db", str(db)]).stdout  # noqa: E731
    j = show("Scheherazade of the Catastrophic Nights")  # a J-ruler face name
    assert j.startswith("Speaker of Eternal Night  [fow]") and "keywords:   grimoire 5" in j
    dsc = show("Alice of Shadow")  # the other face of a shift card
    assert dsc.startswith("Alice of Light") and "deckbuilding attributes (all faces, CR 404.8): darkness, light" in dsc
    assert "types:      chant, rune" in show("Blessing of the Sun")
    stranger = show("Twin Swords of Water's Mercy")
    assert "subtypes:   stranger, swordsman" in stranger
    for basic in ("Magic Stone of Flame", "Fire Magic Stone"):
        assert "types:      basic-magic-stone, magic-stone" in show(basic) and "produces:   fire will" in show(basic)
    assert "produces:   darkness, wind will" in show("Magic Stone of Black Silence")
    assert "types:      magic-stone, special-magic-stone" in show("Magic Stone of Black Silence")
    assert cat.by_name("fow", "Dark Prominence").cost == "{R}{B}"
    assert cat.by_printing("fow", "ABC-RD-019").name == "Dark Prominence"
    # every sample deck resolves against the real catalog as against the sample one
    result = runner.invoke(app, ["check", str(SAMPLES / "bifrost"), "-f", "bifrost", "--catalog", str(db), "-o", "json"])
    assert json.loads(result.stdout)["summary"]["illegal"] == 8


def _answers(cat):
    """What a batch asks a catalog: names in every fold (a misspelt dash, a J-ruler face),
    a name that is no card, a printing code, and the other game."""
    asked = ["Test Ruler", "test j-ruler", "BRIGHT  KNIGHT", "Bright-Knight", "No Such Card", "Dark Prominence"]
    out = []
    for written in asked:
        match = cat.match_name("fow", written)
        out.append((written, match and (match.card.to_dict(), match.lang, match.fold), [c.name for c, _ in cat.clashing("fow", written)]))
    for code in ("t-002", "T-001J", "X-999"):
        card = cat.by_printing("fow", code)
        out.append((code, card and card.to_dict()))
    out.append(("ygo", cat.by_name("ygo", "Bright Knight")))
    return out


def test_a_catalog_read_for_a_batch_gives_the_answers_it_gave_name_by_name(tmp_path, small):
    """``read_for_batch`` reads a game's facts, names and printing codes in three queries (a
    batch then looks cards up without a query each): every answer stays the same."""
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    expected = _answers(SqliteCatalog(db))
    assert [row[1][0]["name"] if row[1] else None for row in expected[:6]] == [
        "Test Ruler", "Test Ruler", "Bright Knight", "Bright Knight", None, "Dark Prominence"]
    assert expected[6][1]["name"] == "Bright Knight" and expected[8] == ("X-999", None)
    read = SqliteCatalog(db)
    read.read_for_batch("fow")
    assert set(read._names) == {"fow"} and len(read._facts) == 3 and not read._cards  # built only when named
    assert _answers(read) == expected


@pytest.mark.parametrize("how", ["facts-not-json", "card-missing"])
def test_damage_in_a_catalog_read_for_a_batch_is_reported_for_the_card_named_only(tmp_path, small, how):
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [small], db)
    conn = sqlite3.connect(db)
    if how == "facts-not-json":
        conn.execute("UPDATE cards SET facts = '{' WHERE name = 'Dark Prominence'")
    else:
        conn.execute("DELETE FROM cards WHERE name = 'Dark Prominence'")
    conn.commit()
    conn.close()
    cat = SqliteCatalog(db)
    cat.read_for_batch("fow")
    assert cat.by_name("fow", "Bright Knight").name == "Bright Knight"
    with pytest.raises(CatalogError, match="catalog is damaged .*(malformed|indexed but missing)"):
        cat.by_name("fow", "Dark Prominence")
    assert cat.by_printing("fow", "T-001").name == "Test Ruler"


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs named pipes (POSIX)")
def test_a_named_pipe_as_the_catalog_is_refused_without_waiting(tmp_path):
    """A FIFO named as the catalog used to block every command on opening it (to look for the
    SQLite header) until something wrote into it; now it is one line, exit 2, at once."""
    import os
    import subprocess
    import sys

    pipe = tmp_path / "cards.db"
    os.mkfifo(pipe)
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")}
    for args in (["catalog", "info"], ["check", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "-f", "bifrost"], ["banlist", "list"]):
        done = subprocess.run([sys.executable, "-m", "forcecheck", *args, "--catalog", str(pipe)], capture_output=True, text=True,
                              env=env, timeout=60)
        assert done.returncode == 2, args
        assert done.stderr == (f"forcecheck: error: {pipe}: not a regular file (a FIFO, device or socket is not read) "
                               "(the catalog set by command line --catalog)\n"), args
    with pytest.raises(CatalogError, match="not an SQLite file"):
        pipeline.import_files("fowsim", [fowsim_file(tmp_path / "src.json", [rec("X-1", "X Card", ["Chant"])])], pipe)


@pytest.mark.parametrize("name", ["c#1.db", "c?x.db", "100%41.db"])
def test_a_catalog_path_with_uri_characters_opens_that_file(tmp_path, small, name):
    """``#``, ``?`` and ``%`` mean something in the SQLite URI the catalog is opened read-only
    through: written into it raw, ``c#1.db`` opened (and created) ``c``, ``100%41.db`` ``100A.db``."""
    folder = tmp_path / "cats"
    folder.mkdir()
    db = folder / name
    pipeline.import_files("fowsim", [small], db)
    cat = open_catalog(db)
    assert cat.by_name("fow", "Bright Knight").total_cost == 2
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm", ".lock"))) == [name]


def test_a_correction_names_the_face_that_was_meant(tmp_path):
    """An imported catalog files a J-ruler face's name under its card: a misspelt face is read
    as that card, and the correction names the face written, not the card's front."""
    source = fowsim_file(tmp_path / "cards.json", [
        rec("T-026", "Falltgold, the Dragoon", ["Ruler"], colour=["R"]),
        rec("T-026J", "Bahamut, the Dragon King", ["J-Ruler"], colour=["R"]),
    ])
    db = tmp_path / "c.db"
    pipeline.import_files("fowsim", [source], db)
    card, how = SqliteCatalog(db).correct("fow", "Bahamut, the King of Dragons")
    assert (card.name, how.name, how.why) == ("Falltgold, the Dragoon", "Bahamut, the Dragon King", "word order")
    card, how = SqliteCatalog(db).correct("fow", "Faltgold, the Dragoon")
    assert (card.name, how.name, how.why) == ("Falltgold, the Dragoon", "Falltgold, the Dragoon", "typo")


def test_an_import_into_a_catalog_with_damaged_pages_is_refused_and_changes_nothing(tmp_path):
    """A banlist import reads few of the catalog's pages, so it used to succeed on a catalog
    whose card pages are damaged; SQLite's own check now finds the damage first."""
    db = tmp_path / "c.db"
    records = [rec(f"T-{i:04}", f"Test Card Number {i}", ["Resonator"], cost="{W}{1}", colour=["W"]) for i in range(400)]
    pipeline.import_files("fowsim", [fowsim_file(tmp_path / "cards.json", records)], db)
    data = bytearray(db.read_bytes())
    assert len(data) > 20 * 4096
    pages = len(data) // 4096
    for page in (pages - 12, pages - 9, pages - 6):  # late pages, of the cards and names the import wrote last
        data[page * 4096: page * 4096 + 64] = b"\xff" * 64
    db.write_bytes(bytes(data))
    before = db.read_bytes()
    lflist = tmp_path / "l.conf"
    lflist.write_text("!2024.1 Test\n#forbidden\n")
    with pytest.raises(CatalogError, match="catalog is damaged"):
        pipeline.import_banlists([lflist], db)
    assert db.read_bytes() == before


def test_a_catalog_that_cannot_be_opened_names_the_setting_that_chose_it(tmp_path, monkeypatch):
    """A missing catalog named by a configuration line, a flag or FORCECHECK_CATALOG: the error
    says which, so the user knows where to fix it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    deck = tmp_path / "d.txt"
    deck.write_text((SAMPLES / "bifrost" / "legal-faria-stranger.txt").read_text())
    (tmp_path / ".forcecheck.yaml").write_text("catalog: cards/catalog.sqlite3\n")
    result = runner.invoke(app, ["check", "d.txt", "-f", "bifrost"])
    assert result.exit_code == 2
    assert f"cards/catalog.sqlite3: no such file or directory (the catalog set by {tmp_path / '.forcecheck.yaml'}:1)" in result.stderr
    result = runner.invoke(app, ["check", "d.txt", "-f", "bifrost", "--catalog", "nope.db"])
    assert result.exit_code == 2 and "nope.db: no such file or directory (the catalog set by command line --catalog)" in result.stderr


def test_search_and_show_take_the_catalogs_only_game_without_game(tmp_path):
    """A catalog of Yu-Gi-Oh! cards alone: ``catalog search Junk`` asked for fow cards and said the
    catalog had none (the default game was fow whatever the catalog held)."""
    from conftest import make_cdb

    cdb = make_cdb(tmp_path / "cards.cdb", [(63977008, 0, 0x1 | 0x20 | 0x1000, 3, 0x8, 0x8, "Junk Synchron")])
    db = tmp_path / "ygo.db"
    assert runner.invoke(app, ["catalog", "import", "ygopro", str(cdb), "--db", str(db)]).exit_code == 0
    found = runner.invoke(app, ["catalog", "search", "Junk", "--db", str(db)])
    assert found.exit_code == 0 and found.stdout.splitlines() == ["Junk Synchron"]
    shown = runner.invoke(app, ["catalog", "show", "Junk Synchron", "--db", str(db)])
    assert shown.exit_code == 0 and "Junk Synchron  [ygo]" in shown.stdout
    asked = runner.invoke(app, ["catalog", "search", "Junk", "--game", "fow", "--db", str(db)])
    assert asked.exit_code == 2 and "--game 'fow'" in asked.stderr and "has no cards of that game (games: ygo)" in asked.stderr
