"""Issue 13: one regression test per defect found by the hostile-input run, through the real
entry point (``hostile_support.run_main``: exit 3 is a crash). Fault injection (kills,
concurrent imports, full disks) is in test_hostile_faults.py; the property suite in
test_hostile_props.py."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import sys

import pytest
from conftest import SAMPLES, faria
from hostile_support import assert_contract, assert_document, control_characters, run_main

LEGAL = SAMPLES / "bifrost" / "legal-faria-stranger.txt"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="symlinks, FIFOs and modes are POSIX here")


def decks_of(run) -> list[dict]:
    return json.loads(run.out)["decks"]


# --- items 1 and 11: fmt is lossless and idempotent (fixed by the fmt rewrite of issue 12) --------

def fmt_contents(path, fmt: str):
    """Section -> sorted (card, count) as `fingerprint` sees them, through the CLI's own reader."""
    from forcecheck.canonical import canonical_sections
    from forcecheck.cards.catalog import sample_catalog
    from forcecheck.checking import FormatCache, read_with_format

    deck, compiled, _text = read_with_format(path, FormatCache(), fmt)
    out = {}
    for group in canonical_sections(deck, compiled, sample_catalog()):
        if not group.entries:
            continue  # an empty section a file format always writes (a .ydk's !side) is no change
        out[group.key] = sorted((e.name.casefold(), str(e.count) if e.count_ok else f"invalid {e.count_text}", e.printing or "") for e in group.entries)
    return out, len(deck.problems)


def assert_fmt_lossless(path, fmt: str):
    """fmt either rewrites the file into a deck with the same sections, cards and counts, which a
    second fmt leaves alone, or leaves it untouched and exits 2."""
    before_text = path.read_bytes()
    before = fmt_contents(path, fmt)
    run = run_main("fmt", path, "-f", fmt)
    assert_contract(run)
    if run.code == 2:
        assert path.read_bytes() == before_text, "fmt refused the file but changed it"
        return
    assert run.code == 0, run.err
    assert fmt_contents(path, fmt) == before, path.read_text()
    once = path.read_bytes()
    again = run_main("fmt", path, "-f", fmt)
    assert again.code == 0 and path.read_bytes() == once, "fmt is not idempotent"


def test_item1_fmt_keeps_ydk_cards_written_before_main(tmp_path):
    path = tmp_path / "d.ydk"
    path.write_text("89631139\n89631139\n46986414\n#main\n44095762\n")
    assert_fmt_lossless(path, "ygo-5ds")


ITEM11 = {
    "yaml-printing-promo": ("d.yaml", "sections:\n  Main Deck:\n    - {name: Excalibur, count: 4, printing: PROMO}\n"),
    "name-near-the-line-cap": ("d.yaml", "sections:\n  Main Deck:\n    - {name: " + "Viviane " * 62 + "xyz, count: 1}\n"),
    "summed-past-the-count-cap": ("d.txt", "Main Deck:\n9999 Excalibur\n9999 Excalibur\n"),
    "declared-count-kept": ("d.txt", "Main Deck:\n4 Viviane\nFoo-123 (1):\n1 Excalibur\n"),
    "bullet-x-name": ("d.txt", "Main Deck:\n- x Gem Beast\n"),
    "yaml-comment-with-line-separator": ("d.yaml", "# note\u2028player: Jane\nsections:\n  Main Deck:\n    - 4 Viviane\n"),
}


@pytest.mark.parametrize("case", sorted(ITEM11))
def test_item11_fmt_output_reads_back_as_the_same_deck(tmp_path, case):
    name, text = ITEM11[case]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert_fmt_lossless(path, "bifrost")


# --- item 2: a directory walk never skips a folder silently; an empty folder is no pass ------------

@posix_only
def test_item2_symlink_loop_beside_real_decks_is_one_row_and_the_decks_are_checked(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    shutil.copy(LEGAL, folder / "real.txt")
    os.symlink("b.txt", folder / "a.txt")
    os.symlink("a.txt", folder / "b.txt")
    run = run_main("check", folder, "-f", "bifrost", "-o", "json")
    assert_contract(run)
    decks = {os.path.basename(d["path"]): d for d in decks_of(run)}
    assert decks["real.txt"]["legal"] is True
    assert "symbolic links" in decks["a.txt"]["error"] and "symbolic links" in decks["b.txt"]["error"]
    assert run.code == 2


def test_item2_unreadable_subfolder_is_reported_not_skipped(tmp_path, monkeypatch):
    folder = tmp_path / "decks"
    (folder / "locked").mkdir(parents=True)
    (folder / "locked" / "hidden-deck.txt").write_text(faria())
    shutil.copy(LEGAL, folder / "real.txt")
    real_scandir = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    run = run_main("check", folder, "-f", "bifrost", "-o", "json")
    assert_contract(run)
    rows = {os.path.basename(d["path"]): d for d in decks_of(run)}
    assert rows["real.txt"]["legal"] is True
    assert "cannot list this folder" in rows["locked"]["error"] and "Permission denied" in rows["locked"]["error"]
    assert run.code == 2
    check = run_main("fmt", folder, "-f", "bifrost", "--check")
    assert check.code == 2 and "cannot list this folder" in check.err
    out = tmp_path / "reg"
    reg = run_main("register", folder, "-f", "bifrost", "--output", out)
    assert reg.code == 2
    table = json.loads((out / "registrations.json").read_text())
    assert any(r["file"] == "locked" and r["status"] == "unreadable" for r in table["registrations"])


@pytest.mark.parametrize("content", ["nothing", "notes"], ids=["empty-folder", "no-decklists"])
def test_item2_a_folder_without_decklists_is_a_misconfiguration(tmp_path, content):
    folder = tmp_path / "decks"
    folder.mkdir()
    if content == "notes":
        (folder / "README.md").write_text("my decks\n")
    run = run_main("check", folder, "-f", "bifrost")
    assert_contract(run)
    assert run.code == 2 and "no decklists" in run.err and run.out == ""  # a set-up mistake: one line, no report of no deck
    check = run_main("fmt", folder, "-f", "bifrost", "--check")
    assert check.code == 2 and "no decklists" in check.err


# --- item 3: YAML values PyYAML cannot convert --------------------------------------------------

BAD_VALUES = ["2024-02-30", "!!int abc", "!!bool maybe", "!!timestamp x", "!!float abc", "!!int 0b102"]


@pytest.mark.parametrize("value", BAD_VALUES)
def test_item3_bad_yaml_values_in_a_decklist(tmp_path, value):
    path = tmp_path / "d.yaml"
    path.write_text(f"name: x\ndate: {value}\nsections:\n  Ruler: Faria\n")
    other = tmp_path / "ok.txt"
    other.write_text(faria())
    run = run_main("check", path, other, "-f", "bifrost", "-o", "json")
    assert_contract(run)
    bad, good = decks_of(run)
    assert run.code == 2 and good["legal"] is True
    assert bad["error"].startswith(f"{path}:2: bad YAML value")


@pytest.mark.parametrize("value", BAD_VALUES)
def test_item3_bad_yaml_values_in_a_format_file(tmp_path, value):
    spec = (SAMPLES.parent / "formats" / "wanderer.yaml").read_text().replace("name: wanderer", "name: mutant", 1)
    (tmp_path / "mutant.yaml").write_text(spec + f"source_date: {value}\n")
    run = run_main("check", LEGAL, "-f", "mutant", "--formats-dir", tmp_path)
    assert_contract(run)
    assert run.code == 2 and "bad YAML value" in run.err and "mutant.yaml:" in run.err


@pytest.mark.parametrize("value", BAD_VALUES)
def test_item3_bad_yaml_values_in_the_configuration(tmp_path, value):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".forcecheck.yaml").write_text(f"format: bifrost\nfail_on: {value}\n")
    shutil.copy(LEGAL, tmp_path / "d.txt")
    run = run_main("check", "d.txt", cwd=tmp_path)
    assert_contract(run)
    assert run.code == 2 and ".forcecheck.yaml:2: bad YAML value" in run.err


# --- item 4: numbers past Python's 4,300-digit conversion limit ------------------------------------

HUGE = "9" * 5000


@pytest.mark.parametrize(
    "name,text",
    [
        ("d.yaml", f"sections:\n  Main Deck:\n    - {{name: Excalibur, count: {HUGE}}}\n"),
        ("d.yaml", f"sections:\n  Main Deck:\n    - {HUGE} Excalibur\n"),
        ("d.yaml", f"sections:\n  Main Deck:\n    Excalibur: {HUGE}\n"),
        ("d.ydk", "#main\n" + "0" * 5000 + "1\n"),
    ],
    ids=["yaml-count", "yaml-line", "yaml-mapping", "ydk-leading-zeros"],
)
def test_item4_five_thousand_digit_counts_and_passcodes(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    run = run_main("check", path, "-f", "ygo-5ds" if name.endswith(".ydk") else "bifrost", "-o", "json")
    assert_contract(run)
    (deck,) = decks_of(run)
    assert run.code == 1, deck
    rules = {v["rule"] for v in deck["violations"]}
    assert rules & {"invalid-count", "unknown-card", "invalid-entry", "line-too-long"}
    assert all(len(v["message"]) < 400 for v in deck["violations"])


def test_item4_five_thousand_digit_lflist_lines_are_warnings(tmp_path):
    lflist = tmp_path / "lflist.conf"
    lflist.write_text(f"!2024.1 test\n{HUGE} 1\n89631139 {HUGE}\n89631139 1\n")
    deck = SAMPLES / "ygo-5ds" / "legal-synchro.ydk"
    run = run_main("check", deck, "-f", "ygo-5ds", "--banlist-file", lflist, "-o", "json")
    assert_contract(run)
    # applied from a file, a list with a line it cannot read is refused on that line (a card there would go unchecked)
    assert run.code == 2 and run.out == "" and f"{lflist}:2: list '2024.1 test' cannot be applied: a number of 5,000 digits" in run.err
    assert len(run.err.strip().splitlines()) == 1
    imported = run_main("banlist", "import", lflist, "--db", tmp_path / "c.db")
    assert imported.code == 2 and f"{lflist}:2: list '2024.1 test' cannot be applied" in imported.err and "(and 1 more line(s))" in imported.err


# --- items 5 and 6: what the user wrote is printed as text, never as markup or terminal codes ------

def test_item5_rich_markup_in_a_header_is_printed_as_written(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text(faria() + "x[/x]:\n1 Viviane\ny[bold red]z:\n1 Excalibur\n")
    run = run_main("check", path, "-f", "bifrost", "--color", "always")
    assert_contract(run)
    assert run.code == 1
    assert "x[/x]" in run.out and "y[bold red]z" in run.out


CONTROL = "\x1b[2J\x1b]0;pwned\x07\x01\x9b\u202e"


@pytest.mark.parametrize("output_format", ["text", "concise", "github", "junit", "json", "sarif"])
def test_item6_control_characters_never_reach_the_output(tmp_path, output_format):
    path = tmp_path / "d\x1b[31m.txt"
    path.write_text(faria() + f"Side{CONTROL}:\n1 Vivi{CONTROL}ane\n", encoding="utf-8")
    run = run_main("check", path, "-f", "bifrost", "-o", output_format, "--color", "never")
    assert_contract(run)
    assert_document(run, output_format)
    assert not control_characters(run.out), repr(run.out[:300])
    if output_format in ("json", "sarif"):  # the data itself is kept, escaped
        assert "\\u001b" in run.out and "\\u009b" in run.out
    else:
        assert "\\x1b" in run.out


# --- item 7: a damaged catalog is exit 2, "damaged: re-import", and the batch goes on ----------------

def _catalog(tmp_path):
    source = tmp_path / "cards.json"
    source.write_text(json.dumps({"fow": {"clusters": [{"sets": [{"cards": [
        {"id": "X-1", "name": "Alpha", "type": ["Chant"], "cost": "{R}"},
        {"id": "X-2", "name": "Beta", "type": ["Chant"], "cost": "{R}"}]}]}]}}))
    db = tmp_path / "c.db"
    assert run_main("catalog", "import", "fowsim", source, "--db", db).code == 0
    return db


def _damage(db, how):
    if how in ("schema-byte", "schema-not-utf8"):
        data = bytearray(db.read_bytes())
        at = data.index(b"CREATE TABLE cards")
        if how == "schema-byte":
            data[at + 2] ^= 0x41
        else:  # SQLite's error then quotes bytes that are not UTF-8: Python's sqlite3 cannot decode its message
            data[at + 19] = 0xC3
        db.write_bytes(bytes(data))
        return
    conn = sqlite3.connect(db)
    if how == "facts-empty":
        conn.execute("UPDATE cards SET facts = '{}'")
    elif how == "facts-not-json":
        conn.execute("UPDATE cards SET facts = '{'")
    elif how == "names-dangling":
        conn.execute("DELETE FROM cards")
    elif how == "facts-invalid-utf8":  # what a flipped byte inside a text value gives
        conn.execute("UPDATE cards SET facts = CAST(x'7bc328' AS TEXT)")
    elif how == "facts-wrong-types":
        conn.execute("""UPDATE cards SET facts = '{"name": 5, "game": "fow", "types": 7}'""")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("how", ["schema-byte", "facts-empty", "facts-not-json", "names-dangling", "facts-wrong-types", "facts-invalid-utf8", "schema-not-utf8"])
def test_item7_damaged_sqlite_catalog(tmp_path, how):
    db = _catalog(tmp_path)
    _damage(db, how)
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("Main Deck:\n1 Alpha\n")
    two.write_text("Main Deck:\n1 Beta\n")
    run = run_main("check", one, two, "-f", "bifrost", "--catalog", db, "-o", "json")
    assert_contract(run, how)
    assert run.code == 2
    text = run.both
    assert "is damaged" in text and "re-import" in text, text
    if not how.startswith("schema"):  # a catalog that opens: every deck gets its row
        assert len(decks_of(run)) == 2


def test_item7_damaged_import_records_refuse_the_import_and_keep_the_catalog(tmp_path):
    db = _catalog(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE records SET body = '{'")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    other = tmp_path / "more.json"
    other.write_text('[{"id": "Y-1", "name": "Gamma", "type": ["Chant"]}]')
    run = run_main("catalog", "import", "fowsim", other, "--db", db)
    assert_contract(run)
    assert run.code == 2 and "is damaged" in run.err and "re-import" in run.err
    assert db.read_bytes() == before


def test_item7_catalog_json_with_a_wrong_type(tmp_path):
    from forcecheck.cards.catalog import sample_catalog  # noqa: F401  (the file's schema)

    data = json.loads((SAMPLES.parent / "forcecheck" / "data" / "sample_catalog.json").read_text())
    data["cards"][0]["name"] = 5
    path = tmp_path / "cat.json"
    path.write_text(json.dumps(data))
    run = run_main("check", LEGAL, "-f", "bifrost", "--catalog", path)
    assert_contract(run)
    assert run.code == 2 and "card record 0" in run.err and "name" in run.err


# --- item 8 (the walk): symlinks that leave a walked folder are not followed ------------------------

@posix_only
def test_item8_a_walk_does_not_follow_a_symlink_out_of_the_folder(tmp_path):
    secret = tmp_path / "credentials"
    secret.write_text("token-abc123-SECRET\n")
    folder = tmp_path / "decks"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(LEGAL, folder / "real.txt")
    os.symlink(secret, folder / "leak.txt")
    os.symlink("../real.txt", folder / "sub" / "inside.txt")  # stays inside: read
    for output_format in ("github", "json", "text"):
        run = run_main("check", folder, "-f", "bifrost", "-o", output_format)
        assert_contract(run)
        assert run.code == 2
        assert "SECRET" not in run.both
        assert "outside" in run.out
    rows = {os.path.basename(d["path"]): d for d in decks_of(run_main("check", folder, "-f", "bifrost", "-o", "json"))}
    assert rows["inside.txt"]["legal"] is True and rows["real.txt"]["legal"] is True
    assert "symbolic link" in rows["leak.txt"]["error"] and "not read" in rows["leak.txt"]["error"]
    named = run_main("check", folder / "leak.txt", "-f", "bifrost", "-o", "json")
    assert named.code == 1  # a file named on the command line is read wherever it is


# --- item 9: fmt cannot blow a small YAML deck up ------------------------------------------------

def test_item9_alias_expansion_is_bounded_by_size(tmp_path):
    """Few values (under the node cap), each a long string: the size of what is expanded counts."""
    long = "Viviane " * 60
    text = (
        "name: &n " + json.dumps(long) + "\n"
        "player: &p [" + ", ".join(["*n"] * 60) + "]\n"
        "event: &e [" + ", ".join(["*p"] * 10) + "]\n"
        "notes: &o [" + ", ".join(["*e"] * 10) + "]\n"
        "date: [" + ", ".join(["*o"] * 10) + "]\n"
        "sections:\n  Main Deck:\n    - 4 Viviane\n"
    )
    path = tmp_path / "d.yaml"
    path.write_text(text)
    assert len(text) < 6000
    run = run_main("fmt", path, "-f", "bifrost")
    assert_contract(run)
    assert run.code == 2 and "expands to over" in run.err
    assert path.read_text() == text


# --- item 10: long names are bounded like long lines ----------------------------------------------

def test_item10_yaml_card_names_have_the_line_cap(tmp_path):
    path = tmp_path / "d.yaml"
    body = "".join(f"    - 1 {chr(65 + i) * 50_000}\n" for i in range(20))
    path.write_text("sections:\n  Main Deck:\n" + body + "    - {name: " + "Q" * 600 + "}\n")
    run = run_main("check", path, "-f", "bifrost", "-o", "json")
    assert_contract(run)
    (deck,) = decks_of(run)
    long = [v for v in deck["violations"] if v["rule"] == "line-too-long"]
    assert len(long) == 21 and {v["line"] for v in long} == set(range(3, 24))
    assert all(len(v["message"]) < 200 and (v["card"] is None or len(v["card"]) < 200) for v in deck["violations"])


# --- item 12: writing a file keeps what it is -------------------------------------------------------

@posix_only
def test_item12_fmt_keeps_mode_symlinks_and_hard_links(tmp_path):
    messy = "Main Deck:\n2 viviane\n2 Viviane\nRuler: Faria\n"
    plain = tmp_path / "plain.txt"
    plain.write_text(messy)
    os.chmod(plain, 0o664)
    target = tmp_path / "target.txt"
    target.write_text(messy)
    link = tmp_path / "link.txt"
    os.symlink("target.txt", link)
    hard = tmp_path / "hard.txt"
    hard.write_text(messy)
    os.link(hard, tmp_path / "hard-twin.txt")
    run = run_main("fmt", plain, link, hard, "-f", "bifrost")
    assert_contract(run)
    assert run.code == 0, run.err
    assert stat.S_IMODE(os.stat(plain).st_mode) == 0o664 and "4 Viviane" in plain.read_text()
    assert os.path.islink(link) and "4 Viviane" in target.read_text()
    assert os.stat(hard).st_nlink == 2 and (tmp_path / "hard-twin.txt").read_text() == hard.read_text() != messy


@posix_only
def test_item12_output_file_through_a_symlink_and_to_a_fifo(tmp_path):
    report = tmp_path / "report.json"
    report.write_text("old")
    os.chmod(report, 0o644)
    link = tmp_path / "latest.json"
    os.symlink("report.json", link)
    run = run_main("check", LEGAL, "-f", "bifrost", "-o", "json", "--output-file", link)
    assert run.code == 0, run.err
    assert os.path.islink(link) and json.loads(report.read_text())["summary"]["legal"] == 1
    assert stat.S_IMODE(os.stat(report).st_mode) == 0o644

    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(open(fifo, encoding="utf-8").read()))
    reader.start()
    run = run_main("check", LEGAL, "-f", "bifrost", "-o", "json", "--output-file", fifo)
    reader.join(10)
    assert run.code == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(received[0])["summary"]["legal"] == 1


@posix_only
def test_item12_fmt_refuses_to_replace_what_is_not_a_regular_file(tmp_path):
    from forcecheck.errors import ForcecheckError
    from forcecheck.textfile import atomic_write

    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(ForcecheckError, match="not a regular file"):
        atomic_write(fifo, lambda h: h.write("x"))
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


# --- item 13: fmt that cannot write reports the file, keeps it, goes on ------------------------------

def test_item13_fmt_on_a_full_disk_keeps_the_file_and_goes_on(tmp_path, monkeypatch):
    """ENOSPC simulated at the write boundary (the real full tmpfs is in test_hostile_faults)."""
    messy = "Main Deck:\n2 viviane\n2 Viviane\nRuler: Faria\n"
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(messy)
    second.write_text(messy)
    import forcecheck.textfile as textfile

    real = textfile._write_temporary

    def full(path, *args, **kwargs):
        if os.path.basename(path) == "a.txt":
            raise OSError(28, "No space left on device")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(textfile, "_write_temporary", full)
    run = run_main("fmt", first, second, "-f", "bifrost")
    assert_contract(run)
    assert run.code == 2 and f"{first}: cannot write" in run.err and "No space left" in run.err
    assert first.read_text() == messy and "4 Viviane" in second.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


# --- item 14: an unreadable file named on the command line is one row ------------------------------

def test_item14_unreadable_named_file_is_one_row(tmp_path, monkeypatch):
    """Permission denied simulated (root reads everything); the real thing, as an unprivileged
    user, is in test_hostile_faults."""
    import builtins

    locked = tmp_path / "locked.txt"
    locked.write_text(faria())
    real_access, real_open = os.access, builtins.open

    def is_locked(file) -> bool:
        return isinstance(file, (str, os.PathLike)) and os.fspath(file).endswith("locked.txt")

    def guarded_open(file, *args, **kwargs):
        if is_locked(file):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if is_locked(p) else real_access(p, mode, **kw))
    monkeypatch.setattr(builtins, "open", guarded_open)
    run = run_main("check", locked, LEGAL, "-f", "bifrost", "-o", "json")
    assert_contract(run)
    rows = decks_of(run)
    assert run.code == 2 and len(rows) == 2
    assert "Permission denied" in rows[0]["error"] and rows[1]["legal"] is True


# --- item 15: file names that are not UTF-8 ---------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32" or sys.getfilesystemencoding() != "utf-8", reason="byte file names")
@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "junit", "github", "concise"])
def test_item15_non_utf8_file_names(tmp_path, output_format):
    folder = tmp_path / "decks"
    folder.mkdir()
    deck = os.fsdecode(os.fsencode(str(folder)) + b"/bad\xff.txt")
    with open(deck, "w", encoding="utf-8") as fh:
        fh.write(faria(side=[(1, "No Such Card")]))
    out_file = os.fsdecode(os.fsencode(str(tmp_path)) + b"/out\xfe")
    run = run_main("check", folder, "-f", "bifrost", "-o", output_format, "--output-file", out_file)
    assert_contract(run)
    assert run.code == 1 and "out\\xfe" in run.err
    with open(out_file, "rb") as fh:
        written = fh.read().decode("utf-8")  # valid UTF-8, whatever the file names
    assert_document(type(run)(1, written, ""), output_format)
    shown = {"json": lambda: json.loads(written)["decks"][0]["path"],
             "sarif": lambda: json.loads(written)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]}
    name = shown[output_format]() if output_format in shown else written
    assert ("bad%FF.txt" if output_format == "sarif" else "bad\\xff.txt") in name
    direct = run_main("check", deck, "-f", "bifrost", "-o", output_format)
    assert_contract(direct)
    assert direct.code == 1


def test_a_truncated_catalog_whose_games_read_as_null_is_no_internal_error():
    """Found by the catalog property test: cut at this length, the catalog counts cards of a
    game that reads as NULL, and ``catalog show`` sorted the games with it (exit 3)."""
    from hostile_families import run_catalog_sqlite

    run_catalog_sqlite([("truncate", 77829, "")], "text")


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="needs Linux's /proc, where no file can be created")
def test_an_output_file_nothing_can_be_written_beside_says_so():
    """``--output-file /proc/version``: the file is there, but the report is written through a
    file made beside it, which /proc refuses ("No such file or directory" alone misled)."""
    run = run_main("check", str(SAMPLES / "bifrost" / "legal-faria-stranger.txt"), "-f", "bifrost", "--output-file", "/proc/version")
    assert_contract(run)
    assert run.code == 2 and run.err.startswith("forcecheck: error: cannot write /proc/version: no file can be made beside it in /proc")
