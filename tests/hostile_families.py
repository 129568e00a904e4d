"""The hostile-input families of issue 13, as hypothesis strategies, and the invariants every
generated example is held to. test_hostile_props.py runs each family with a few examples per
CI run; ``benchmarks/hostile.py`` runs the same families for as long as it is asked.

Every example goes through the real entry point (``hostile_support.run_main``), in a batch with
a *sentinel*: a deck with exactly one known violation. Whatever the hostile file does, the run
must end with exit 0, 1 or 2 (never 3), the sentinel must still be reported (one bad file never
stops a batch), the machine document must parse (JSON, SARIF against its schema, JUnit XML),
and no control character may reach text, concise or GitHub output. Decklists are also read at
the library level to prove every card line is counted or reported.
"""

from __future__ import annotations

import collections
import json
import os
import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

from hostile_support import assert_contract, assert_document, control_characters, run_main
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_decks"
OUTPUT_FORMATS = ("text", "concise", "json", "sarif", "github", "junit")
FAMILIES = ("text", "yaml", "ydk", "format", "config", "lflist", "catalog-json", "catalog-sqlite", "paths")

STATS: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
"""Per family: examples, files, exit codes, fmt outcomes (read by benchmarks/hostile.py)."""

SENTINEL_TEXT = (SAMPLES / "bifrost" / "legal-faria-stranger.txt").read_text(encoding="utf-8").replace(
    "4 Excalibur", "5 Excalibur", 1
)
"""A Bifrost deck with exactly one violation: five copies of Excalibur (FC201)."""
assert SENTINEL_TEXT.count("5 Excalibur") == 1

# --- building blocks ----------------------------------------------------------------------------

HOSTILE_BITS = [
    "\x1b[2J", "\x1b]0;pwned\x07", "\x1b[31m", "[bold red]", "[/x]", "[link=file:///etc]", "\u202e", "\u2066", "\u2028",
    "\u2029", "\x85", "\x9b", "\x7f", "\x01", "\x0b", "\x0c", "\ufeff", "\ufffe", "%0A", "::error::", ",", ":", "é", "ファリア",
    "法莉娅", "🂡", "\t", "&a", "*a", "!!int", "{", "}", "[", "]", "'", '"', "#", "//", "x", "×", "(", ")", "(SDAO1-031)",
    "9" * 30, "9" * 5000, "0" * 4400 + "7", "-1", "0", "1,000", "4.5", "\\", "\r", "A" * 600,
]
"""Fragments that broke, or could break, a reader, a renderer or a terminal."""

CARD_NAMES = [
    "Faria", "Excalibur", "Viviane", "Gawain, the Knight of the Sun", "Light Magic Stone", "Atom Seikhart",
    "Arcana: Guardian of the Temple", "Siegfried, the Dragon Knight (Stranger)", "Blue-Eyes White Dragon", "Dark Magician",
    "Mirror Force", "Gem Beast", "Main Deck", "Sideboard", "Ruler", "x Gem Beast",
]
TITLES = [
    "Ruler", "Main Deck", "Magic Stone Deck", "Extra Deck", "Rune Deck", "Stranger Deck", "Sideboard", "Side Deck",
    "メインデッキ", "主牌库", "Monsters", "Spells", "Traps", "Grimoire", "Not A Section", "Foo-123",
]
PASSCODES = ["89631139", "46986414", "44095762", "70095154", "6983839", "0089631139", "1", "99999999999", "0"]

safe_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)
hostile_bit = st.sampled_from(HOSTILE_BITS)
name_text = st.one_of(
    st.sampled_from(CARD_NAMES),
    safe_text.filter(lambda s: s.strip() and not s.strip().endswith(":")),
    st.lists(st.one_of(hostile_bit, st.sampled_from(CARD_NAMES)), min_size=1, max_size=4).map("".join),
)
count_text = st.one_of(st.integers(min_value=1, max_value=12).map(str), st.sampled_from(["0", "-2", "10000", "9" * 5000, "4.5", "1,000", "x", "007"]))


@st.composite
def card_line(draw) -> tuple[str, bool]:
    """(line, plain): plain lines are ``COUNT NAME`` with a valid count and a tame name, which the
    accounting invariant follows line by line."""
    name = draw(name_text)
    if draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["{c} {n}", "{c}x {n}", "{c} x {n}", "{n} x{c}", "- {c}x {n}", "* {c} {n}", "{c} {n} (SDAO1-031)", "{c} {n} # note"])).format(c=draw(count_text), n=name), False
    count = draw(st.integers(min_value=1, max_value=9))
    tame = name.replace("\n", " ").replace("\r", " ").replace("#", "").replace("//", "").strip().rstrip(":").strip()
    if not tame or len(tame) > 200 or not tame.isprintable() or tame.endswith((")", "]")) or not tame[0].isalpha():
        tame = "Viviane"
    return f"{count} {tame}", True


@st.composite
def header_line(draw) -> str:
    title = draw(st.one_of(st.sampled_from(TITLES), safe_text, hostile_bit))
    return draw(st.sampled_from(["{t}:", "{t} ({n}):", "## {t}", "**{t}**", "{t} - {n}", "{t}: {n}", "{t}", "== {t} =="])).format(t=title, n=draw(st.integers(0, 99)))


@st.composite
def text_deck(draw) -> tuple[str, list[int]]:
    """A text decklist and the line numbers of its plain card lines."""
    lines: list[str] = []
    plain: list[int] = []
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["# Player: " + draw(safe_text), "Deck of " + draw(safe_text), "// " + draw(safe_text)])))
    for _ in range(draw(st.integers(0, 30))):
        kind = draw(st.sampled_from(["card", "card", "card", "header", "comment", "blank", "junk", "hostile"]))
        if kind == "card":
            line, is_plain = draw(card_line())
            lines.append(line)
            if is_plain:
                plain.append(len(lines))
        elif kind == "header":
            lines.append(draw(header_line()))
        elif kind == "comment":
            lines.append(draw(st.sampled_from(["#", "//", "# Name:", "# Event:"])) + " " + draw(safe_text))
        elif kind == "blank":
            lines.append(draw(st.sampled_from(["", "   ", "\t"])))
        elif kind == "junk":
            lines.append(draw(safe_text))
        else:
            lines.append("".join(draw(st.lists(hostile_bit, min_size=1, max_size=3))))
    lines = [line.replace("\n", " ") for line in lines]  # one generated line, one line of the file
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n"]))
    # a CR or another line break of its own would shift the numbering the test follows
    if any(ch in text for ch in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        plain = []
    return text, plain


def _yaml_scalar(draw) -> str:
    return draw(st.one_of(
        st.sampled_from(["4 Viviane", "1 Faria", "Excalibur", "!!int abc", "2024-02-30", "!!bool maybe", "!!timestamp x",
                         "!!float abc", "!!int 0b102", "9" * 5000, "&a x", "*a", "*nope", "~", "null", "yes", "0x1F", "1e999",
                         "[a, b]", "{a: 1}", "'quoted'", '"\\x1b[2J"', '"\\ud800"', "'''", "|", ">-", "?", "- x", "!!python/object:os.system"]),
        st.integers(-10, 10).map(str),
        safe_text.map(json.dumps),
        hostile_bit.map(json.dumps),
    ))


@st.composite
def yaml_deck(draw) -> tuple[str, int]:
    """A YAML decklist (structured, then perhaps mutated) and how many card items it has."""
    out = []
    items = 0
    for key in draw(st.lists(st.sampled_from(["format", "name", "player", "event", "date", "notes", "deck", "sections"]), max_size=6, unique=True)):
        if key != "sections":
            out.append(f"{key}: {_yaml_scalar(draw)}")
    out.append("sections:")
    for _ in range(draw(st.integers(0, 5))):
        title = draw(st.one_of(st.sampled_from(TITLES), safe_text.map(json.dumps)))
        shape = draw(st.sampled_from(["list", "map", "scalar", "flow", "empty", "dicts"]))
        if shape == "list":
            out.append(f"  {json.dumps(title) if not title.startswith(chr(34)) else title}:")
            for _ in range(draw(st.integers(0, 6))):
                out.append(f"    - {json.dumps(draw(card_line())[0])}")
                items += 1
        elif shape == "dicts":
            out.append(f"  {json.dumps(title) if not title.startswith(chr(34)) else title}:")
            for _ in range(draw(st.integers(0, 4))):
                count = draw(st.one_of(st.integers(-3, 12).map(str), st.sampled_from(["9" * 5000, "x", "null", "2.5", "[1]"])))
                extra = draw(st.sampled_from(["", ", printing: SDAO1-031", ", printing: PROMO", ", foo: 1", ", printing: 12"]))
                out.append(f"    - {{name: {json.dumps(draw(name_text))}, count: {count}{extra}}}")
                items += 1
        elif shape == "map":
            out.append(f"  {json.dumps(title) if not title.startswith(chr(34)) else title}:")
            for _ in range(draw(st.integers(0, 4))):
                out.append(f"    {json.dumps(draw(name_text))}: {_yaml_scalar(draw)}")
                items += 1
        elif shape == "scalar":
            out.append(f"  {json.dumps(title)}: {_yaml_scalar(draw)}")
        elif shape == "flow":
            out.append(f"  {json.dumps(title)}: [{', '.join(_yaml_scalar(draw) for _ in range(draw(st.integers(0, 4))))}]")
        else:
            out.append(f"  {json.dumps(title)}:")
    text = "\n".join(out) + "\n"
    if draw(st.integers(0, 4)) == 0:
        text = mutate(text, random.Random(draw(st.integers(0, 2**32))))
        items = -1  # no longer known
    return text, items


@st.composite
def ydk_deck(draw) -> tuple[str, list[int]]:
    lines: list[str] = []
    codes: list[int] = []
    if draw(st.booleans()):
        lines.append("#created by " + draw(safe_text).replace("\n", " "))
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["code", "code", "code", "marker", "comment", "junk"]))
        if kind == "code":
            lines.append(draw(st.one_of(st.sampled_from(PASSCODES), st.integers(0, 10**12).map(str), st.sampled_from(["0" * 5000 + "1", "9" * 5000]))))
            codes.append(len(lines))
        elif kind == "marker":
            lines.append(draw(st.sampled_from(["#main", "#extra", "!side", "#MAIN", "!Side", "#side", "!main"])))
        elif kind == "comment":
            lines.append("#" + draw(safe_text).replace("\n", " "))
        else:
            lines.append(draw(st.one_of(safe_text, hostile_bit)))
    lines = [line.replace("\n", " ") for line in lines]
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "\r\n", ""]))
    if any(ch in text for ch in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        codes = []
    return text, codes


def mutate(text: str, rng: random.Random) -> str:
    """Delete, duplicate, swap or corrupt lines and characters (as test_hostile does)."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.randrange(7)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3 and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + rng.choice(HOSTILE_BITS) + lines[i][k + 1:]
        elif op == 4:
            lines[i] = lines[i] * rng.randint(2, 40)
        elif op == 5:
            lines.insert(i, rng.choice(["Main Deck:", "#main", "!side", "sections:", "  - 0 x", "-5 Viviane", "&a [*a]", "format: nope", "<<: *a", "? [a]", "--- !!map"]))
        else:
            lines[i] = lines[i].upper()
    return "\n".join(lines)


# --- running an example ---------------------------------------------------------------------------

class Workspace:
    """A fresh folder per example, removed afterwards (hypothesis runs many per test)."""

    def __enter__(self) -> Path:
        self.path = Path(tempfile.mkdtemp(prefix="fc-hostile-"))
        (self.path / ".git").mkdir()  # a repository root: the configuration search stops here
        return self.path

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


SENTINEL_YGO = "Main Deck:\n4 Dark Magician\n"
"""The Yu-Gi-Oh! sentinel: four copies of a card (FC201), among size violations."""


def sentinel(folder: Path, format_name: str = "bifrost") -> Path:
    path = folder / "sentinel.txt"
    path.write_text(SENTINEL_YGO if format_name == "ygo-5ds" else SENTINEL_TEXT, encoding="utf-8")
    return path


def assert_sentinel_reported(run, output_format: str, path: Path) -> None:
    """The sentinel's one violation is in the document: the batch went on past the hostile file."""
    out = run.out
    if output_format == "json":
        rows = [d for d in json.loads(out)["decks"] if d["path"] == str(path)]
        assert rows and "FC201" in [v["code"] for v in rows[0]["violations"]], rows
    elif output_format == "sarif":
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(out)["runs"][0]["results"] if r["ruleId"] == "FC201"]
        assert any(u.endswith("sentinel.txt") for u in uris), uris
    elif output_format == "junit":
        assert 'sentinel.txt"' in out and "FC201" in out
    elif output_format in ("concise", "github"):
        assert any("sentinel.txt" in line and "FC201" in line for line in out.split("\n")), out[-500:]
    else:
        assert "sentinel.txt" in out and "FC201" in out, out[-500:]


def check_run(family: str, args: list, output_format: str, folder: Path, with_sentinel: bool = True):
    """Run ``forcecheck check ARGS`` (+ the sentinel) and hold it to every invariant."""
    format_name = args[args.index("-f") + 1] if "-f" in args else "bifrost"
    extra = [sentinel(folder, format_name)] if with_sentinel else []
    run = run_main("check", *args, *extra, "-o", output_format, "--color", "never", cwd=folder)
    assert_contract(run, family)
    assert_document(run, output_format, family)
    if with_sentinel and not (run.code == 2 and not run.out.strip()):
        assert run.code in (1, 2)
        assert_sentinel_reported(run, output_format, extra[0])
    STATS[family][f"exit {run.code}"] += 1
    return run


def account_for_every_card(text: str, suffix: str, format_name: str, plain_lines: list[int]) -> None:
    """Library level: every plain card line becomes an entry, a read problem or a finding on its
    line; the fingerprint content holds every copy of every valid entry (nothing dropped); every
    entry with a bad count or an unknown card has a finding on its line."""
    from forcecheck.decklists.readers import parse_decklist
    from forcecheck.errors import ForcecheckError
    from forcecheck.resolve import resolve

    fmt = _formats().get(format_name)
    try:
        deck = parse_decklist(text, "deck" + suffix, fmt.known_headers, suffix=suffix)
    except ForcecheckError:
        return  # unusable as a whole: exit 2, checked by the CLI run
    catalog = _catalog()
    entries = [e for s in deck.sections for e in s.entries]
    problem_lines = {p.line for p in deck.problems}
    resolution = resolve(deck, fmt, catalog)
    finding_lines = {f.finding.line for f in resolution.findings}
    entry_lines = {e.line for e in entries}
    for line in plain_lines:
        assert line in entry_lines or line in problem_lines or line in finding_lines, f"card line {line} vanished"
    # a line reported as no card (the deck's title, a heading, "read 'LPT1' as nothing") may stay
    # out of the count; every other valid line is in it, and nothing is counted twice
    not_cards = {line for f in resolution.findings if f.rule in ("deck-title", "line-read-as", "prose")
                 for line in (getattr(f.finding, "lines", None) or [f.finding.line])}  # one finding may name several lines
    counted = sum(resolution.content.values())
    unreported = sum(e.count for e in entries if e.count_ok and e.line not in not_cards)
    assert unreported <= counted <= sum(e.count for e in entries if e.count_ok), "copies lost between the reader and the deck"
    for entry in entries:
        if not entry.count_ok:
            assert entry.line in finding_lines, f"bad count on line {entry.line} not reported"


_CACHE: dict = {}


def _formats():
    if "formats" not in _CACHE:
        from forcecheck.checking import FormatCache

        _CACHE["formats"] = FormatCache()
    return _CACHE["formats"]


def _catalog():
    if "catalog" not in _CACHE:
        from forcecheck.cards.catalog import sample_catalog

        _CACHE["catalog"] = sample_catalog()
    return _CACHE["catalog"]


def fmt_round_trip(path: Path, format_name: str) -> str:
    """``fmt`` the file: "unchanged", "lossless" (rewritten to the same sections, cards and counts,
    and a second fmt changes nothing), "refused" (exit 2, file untouched); anything else raises."""
    from forcecheck.canonical import canonical_sections
    from forcecheck.checking import read_with_format
    from forcecheck.errors import ForcecheckError

    def contents():
        try:
            deck, compiled, _text = read_with_format(path, _formats(), format_name)
        except ForcecheckError as exc:
            return ("unusable", str(exc).split(":")[-1])
        return (
            [(g.key, sorted((e.name.casefold(), str(e.count) if e.count_ok else f"invalid {e.count_text}", e.printing or "") for e in g.entries))
             for g in canonical_sections(deck, compiled, _catalog()) if g.entries],
            len(deck.problems),
        )

    before_bytes = path.read_bytes()
    before = contents()
    run = run_main("fmt", path, "-f", format_name)
    assert_contract(run, "fmt")
    if run.code == 2:
        assert path.read_bytes() == before_bytes, "fmt refused the file but changed it"
        return "refused"
    assert run.code == 0, run.err
    if path.read_bytes() == before_bytes:
        return "unchanged"
    after = contents()
    assert after == before, f"fmt changed the deck:\n{before}\n{after}\n{path.read_text()!r}"
    once = path.read_bytes()
    again = run_main("fmt", path, "-f", format_name)
    assert again.code == 0 and path.read_bytes() == once, "fmt is not idempotent"
    return "lossless"


# --- the families -------------------------------------------------------------------------------

def run_decklist(family: str, text: str, suffix: str, format_name: str, output_format: str, plain: list[int] | None) -> None:
    with Workspace() as folder:
        path = folder / f"deck{suffix}"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        check_run(family, [path, "-f", format_name], output_format, folder)
        STATS[family]["files"] += 1
        if plain is not None:
            account_for_every_card(text, suffix, format_name, plain)
        fmt_check = run_main("fmt", path, "-f", format_name, "--check")
        assert_contract(fmt_check, f"{family} fmt --check")
        fp = run_main("fingerprint", path, "-f", format_name)
        assert_contract(fp, f"{family} fingerprint")


def run_format_file(text: str, output_format: str) -> None:
    with Workspace() as folder:
        specs = folder / "specs"
        specs.mkdir()
        (specs / "mutant.yaml").write_text(text, encoding="utf-8")
        shown = run_main("formats", "show", "mutant", "--formats-dir", specs, cwd=folder)
        assert_contract(shown, "format show")
        assert not control_characters(shown.out), "control characters in formats show"
        deck = folder / "d.txt"
        deck.write_text(SENTINEL_TEXT, encoding="utf-8")
        run = run_main("check", deck, "-f", "mutant", "--formats-dir", specs, "-o", output_format, cwd=folder)
        assert_contract(run, "format check")
        assert_document(run, output_format, "format")
        STATS["format"][f"exit {run.code}"] += 1
        STATS["format"]["files"] += 1


def run_config(text: str, output_format: str) -> None:
    with Workspace() as folder:
        (folder / ".forcecheck.yaml").write_text(text, encoding="utf-8")
        (folder / "d.txt").write_text(SENTINEL_TEXT, encoding="utf-8")
        run = run_main("check", "d.txt", "-o", output_format, "--color", "never", cwd=folder)  # `color: always` is no attack
        assert_contract(run, "config")
        assert_document(run, output_format, "config")
        shown = run_main("config", "show", cwd=folder)
        assert_contract(shown, "config show")
        STATS["config"][f"exit {run.code}"] += 1
        STATS["config"]["files"] += 1


def run_lflist(text: str, output_format: str) -> None:
    with Workspace() as folder:
        lflist = folder / "lflist.conf"
        lflist.write_bytes(text.encode("utf-8", "surrogateescape"))
        deck = folder / "d.ydk"
        deck.write_text((SAMPLES / "ygo-5ds" / "legal-synchro.ydk").read_text(encoding="utf-8"), encoding="utf-8")
        run = run_main("check", deck, "-f", "ygo-5ds", "--banlist-file", lflist, "-o", output_format, cwd=folder)
        assert_contract(run, "lflist check")
        assert_document(run, output_format, "lflist")
        imported = run_main("banlist", "import", lflist, "--db", folder / "c.db", cwd=folder)
        assert_contract(imported, "lflist import")
        STATS["lflist"][f"exit {run.code}"] += 1
        STATS["lflist"]["files"] += 1


def run_catalog_json(data: object, output_format: str) -> None:
    with Workspace() as folder:
        path = folder / "catalog.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8", errors="surrogatepass")
        deck = folder / "d.txt"
        deck.write_text("Ruler: Faria\nMain Deck:\n4 Excalibur\n1 Alpha\n", encoding="utf-8")
        check_run("catalog-json", [deck, "-f", "bifrost", "--catalog", path], output_format, folder, with_sentinel=False)
        for command in (["catalog", "show", "Alpha", "--db", path], ["catalog", "search", "alp", "--db", path], ["catalog", "info", "--db", path]):
            shown = run_main(*command, cwd=folder)
            assert_contract(shown, " ".join(command[:2]))
            assert not control_characters(shown.out), f"control characters in {command[:2]}"
        STATS["catalog-json"]["files"] += 1


_SQLITE_BASE: dict = {}


def sqlite_base() -> bytes:
    """A small imported catalog, made once (its bytes are copied and damaged per example)."""
    if "db" not in _SQLITE_BASE:
        with Workspace() as folder:
            source = folder / "cards.json"
            cards = [{"id": f"X-{i:03d}", "name": f"Card {i}", "type": ["Chant"], "cost": "{R}"} for i in range(60)]
            cards.append({"id": "X-999", "name": "Alpha", "type": ["Resonator"], "cost": "{R}{1}"})
            source.write_text(json.dumps(cards))
            db = folder / "c.db"
            imported = run_main("catalog", "import", "fowsim", source, "--db", db)
            assert imported.code == 0, imported.err
            lflist = folder / "lflist.conf"
            lflist.write_text("!2024.1 test\n89631139 1\n46986414 0\n")
            assert run_main("banlist", "import", lflist, "--db", db).code == 0
            _SQLITE_BASE["db"] = db.read_bytes()
    return _SQLITE_BASE["db"]


def run_catalog_sqlite(damage: list, output_format: str) -> None:
    with Workspace() as folder:
        db = folder / "c.db"
        data = bytearray(sqlite_base())
        sql = []
        for kind, a, b in damage:
            if kind == "flip":
                data[a % len(data)] ^= (b % 255) + 1
            elif kind == "truncate":
                del data[max(100, a % len(data)):]
            else:
                sql.append(b)
        db.write_bytes(bytes(data))
        if sql:
            try:
                conn = sqlite3.connect(db)
                for statement in sql:
                    conn.execute(statement)
                conn.commit()
                conn.close()
            except (sqlite3.DatabaseError, UnicodeDecodeError):
                pass  # the flips already broke it: the CLI must say so
        deck = folder / "d.txt"
        deck.write_text("Main Deck:\n1 Alpha\n1 Card 3\n", encoding="utf-8")
        check_run("catalog-sqlite", [deck, "-f", "bifrost", "--catalog", db], output_format, folder, with_sentinel=False)
        for command in (["catalog", "info", "--db", db], ["catalog", "show", "Alpha", "--db", db], ["banlist", "list", "--db", db]):
            assert_contract(run_main(*command, cwd=folder), " ".join(command[:2]))
        source = folder / "more.json"
        source.write_text('[{"id": "Y-1", "name": "Gamma", "type": ["Chant"]}]')
        before = db.read_bytes()
        imported = run_main("catalog", "import", "fowsim", source, "--db", db, cwd=folder)
        assert_contract(imported, "import into a damaged catalog")
        if imported.code == 2:
            assert db.read_bytes() == before, "a refused import changed the catalog"
        STATS["catalog-sqlite"][f"import exit {imported.code}"] += 1
        STATS["catalog-sqlite"]["files"] += 1


SQL_DAMAGE = [
    "UPDATE cards SET facts = '{}' WHERE id % 2 = 0", "UPDATE cards SET facts = '{' WHERE id = 3",
    "UPDATE cards SET facts = '[1, 2]'", """UPDATE cards SET facts = '{"name": 5, "game": "fow"}' WHERE name = 'Alpha'""",
    """UPDATE cards SET facts = '{"name": "Alpha", "game": "fow", "types": [3], "keywords": {"x": "y"}}'""",
    "DELETE FROM cards WHERE id % 3 = 0", "UPDATE records SET body = '{'", "UPDATE records SET body = '5'",
    "DELETE FROM meta", "UPDATE meta SET value = '99' WHERE key = 'schema_version'", "DROP TABLE names",
    "UPDATE names SET card_id = 99999", "UPDATE printings SET card_id = -1", "DROP TABLE warnings",
    "UPDATE cards SET facts = NULL", "UPDATE cards SET facts = x'00ff'", "DELETE FROM sources",
    "UPDATE sources SET records = 'x'", "CREATE TABLE junk (x)", "UPDATE banlists SET date = x'ff'",
]

damage_step = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 2**20), st.integers(0, 254)),
    st.tuples(st.just("truncate"), st.integers(0, 2**20), st.just("")),
    st.tuples(st.just("sql"), st.just(0), st.sampled_from(SQL_DAMAGE)),
)


@st.composite
def catalog_record(draw):
    record = {"name": draw(st.one_of(st.sampled_from(["Alpha", "Excalibur", "Faria"]), name_text, st.integers(), st.none(), st.just(""))),
              "game": draw(st.sampled_from(["fow", "fow", "ygo", 5, None]))}
    for key, values in (("types", ["chant", "ruler", "resonator", 3]), ("attributes", ["fire", "light", None]), ("printings", ["X-1", "SDAO1-025", 7])):
        if draw(st.booleans()):
            record[key] = draw(st.one_of(st.lists(st.sampled_from(values), max_size=3), st.sampled_from([values[0], {}, 3])))
    if draw(st.booleans()):
        record["total_cost"] = draw(st.one_of(st.integers(-2, 12), st.sampled_from(["3", None, 2.5, True])))
    if draw(st.booleans()):
        record["keywords"] = draw(st.one_of(st.dictionaries(st.sampled_from(["stranger", "grimoire", "singleton"]), st.integers(0, 12)), st.sampled_from([[], {"x": "y"}, 3])))
    if draw(st.booleans()):
        record["faces"] = draw(st.one_of(st.lists(st.fixed_dictionaries({"name": name_text}), max_size=2), st.sampled_from([[{}], [3], "x"])))
    if draw(st.integers(0, 6)) == 0:
        record[draw(st.sampled_from(["copy_limit", "aliases", "will", "unknown_field"]))] = draw(st.sampled_from([1, "x", [1], None, ["a"]]))
    return record


catalog_document = st.one_of(
    st.fixed_dictionaries({"schema": st.just("forcecheck-catalog/1"), "cards": st.lists(catalog_record(), max_size=6)}),
    st.fixed_dictionaries({"schema": st.sampled_from(["forcecheck-catalog/1", "nope", 1]), "cards": st.sampled_from([None, {}, "x", [1, 2]])}),
    st.sampled_from([[], 3, "x", None, {"cards": []}]),
)


@st.composite
def lflist_text(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 25))):
        lines.append(draw(st.one_of(
            st.sampled_from(["!2024.1 OCG", "!2011.3.1 TCG", "!", "$whitelist", "$other", "#comment", "--StartDate 2024-01-01",
                             "--StartDate 0000-00-00", "-- note", "89631139 0", "46986414 1 --limited", "44095762 2 #semi",
                             "70095154 3", "6983839 -1", "1 4", "9" * 5000 + " 1", "89631139 " + "9" * 5000, "0" * 5000 + "1 1"]),
            st.tuples(st.integers(0, 10**11), st.integers(-3, 9)).map(lambda t: f"{t[0]} {t[1]}"),
            safe_text, hostile_bit,
        )))
    return "\n".join(lines) + "\n"


CONFIG_LINES = [
    "format: bifrost", "format: nope", "formats:\n  'decks/**': abc", "formats: [1]", "select: [ALL]", "select: [FC9]", "ignore: [FC005]",
    "ignore: FC", "severity:\n  FC006: warning", "severity:\n  FC201: loud", "fail_on: warning", "fail_on: !!bool maybe",
    "fail_on: 2024-02-30", "output_format: json", "output_format: xml", "catalog: nowhere.db", "catalog: !!int abc", "banlist: none",
    "banlist_file: missing.conf", "format_dirs: [specs]", "format_dirs: 5", "color: always", "unknown_key: 1", "select: [" + "9" * 5000 + "]",
    "format: " + "9" * 5000, "&a x: *a", "format: &f bifrost\nselect: [*f]", "<<: {format: abc}",
]


@st.composite
def config_text(draw) -> str:
    if draw(st.integers(0, 3)) == 0:
        return draw(st.text(max_size=200))
    lines = draw(st.lists(st.sampled_from(CONFIG_LINES), max_size=6))
    text = "\n".join(lines) + "\n"
    if draw(st.booleans()):
        text = mutate(text, random.Random(draw(st.integers(0, 2**32))))
    return text


FORMAT_SPEC = (ROOT / "formats" / "bifrost.yaml").read_text(encoding="utf-8")
FORMAT_INSERTS = [
    "    max: !!int abc", "    max: 2024-02-30", "    min: " + "9" * 5000, "    exactly: -1", "  - id: x\n    kind: nope",
    "  - id: main-size\n    kind: section-size\n    sections: [main]\n    min: 1", "extends: bifrost", "extends: mutant", "remove_rules: [nope]",
    "title: \"\\x1b[2J[bold red]\"", "description: \"\\u202e evil\"", "sections: 5", "rules: {}", "&a x: *a", "    where: {cost: {min: x}}",
]


@st.composite
def format_text(draw) -> str:
    text = FORMAT_SPEC.replace("name: bifrost", "name: mutant", 1)
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(FORMAT_INSERTS)))
    text = "\n".join(lines)
    if draw(st.booleans()):
        text = mutate(text, random.Random(draw(st.integers(0, 2**32))))
    return text


# --- paths -----------------------------------------------------------------------------------------

NAME_BITS = ["deck", "a", " ", "\x1b[31m", "[bold]", "%0A", "::", ",", "\u202e", "é", "ファ", "\t", "\n", "\x01", "-", "#", "(1)"]
path_entry = st.tuples(
    st.sampled_from(["deck", "deck", "deck", "notes", "loop", "outside", "dangling", "inside", "fifo", "dir", "emptydir", "badbytes"]),
    st.lists(st.sampled_from(NAME_BITS), min_size=1, max_size=3).map("".join),
    st.sampled_from([".txt", ".yaml", ".ydk", ".deck", ".md", ""]),
)


def run_paths(entries: list, output_format: str) -> None:
    """A folder of strangely named files, links and folders: walked by check, fmt --check and
    register. A link out of the folder must never be read (its secret never printed)."""
    with Workspace() as folder:
        secret = folder / "secret.txt"
        secret.write_text("Main Deck:\n1 TOKEN-SECRET-42\n", encoding="utf-8")
        decks = folder / "decks"
        decks.mkdir()
        for index, (kind, name, suffix) in enumerate(entries):
            raw = os.fsencode(f"{index}{name.replace('/', '_')}") + (b"\xff\xfe" if kind == "badbytes" else b"") + suffix.encode()
            target = os.path.join(os.fsencode(str(decks)), raw)
            try:
                if kind in ("deck", "badbytes"):
                    with open(target, "w", encoding="utf-8") as fh:
                        fh.write(SENTINEL_TEXT)
                elif kind == "notes":
                    with open(target, "w", encoding="utf-8") as fh:
                        fh.write("just notes\n")
                elif kind == "loop":
                    os.symlink(raw, target)
                elif kind == "outside":
                    os.symlink(str(secret), target)
                elif kind == "dangling":
                    os.symlink(b"missing" + raw, target)
                elif kind == "inside":
                    os.symlink(os.path.join(b"..", b"decks", raw + b".real"), target)
                    with open(target + b".real", "w", encoding="utf-8") as fh:
                        fh.write(SENTINEL_TEXT)
                elif kind == "fifo" and hasattr(os, "mkfifo"):
                    os.mkfifo(target)
                elif kind == "dir":
                    os.mkdir(target)
                    with open(os.path.join(target, b"inner.txt"), "w", encoding="utf-8") as fh:
                        fh.write(SENTINEL_TEXT)
                elif kind == "emptydir":
                    os.mkdir(target)
            except OSError:
                continue
        run = check_run("paths", [decks, "-f", "bifrost"], output_format, folder)
        assert "TOKEN-SECRET" not in run.both, "a walk read a file outside the folder"
        fmt_check = run_main("fmt", decks, "-f", "bifrost", "--check", cwd=folder)
        assert_contract(fmt_check, "paths fmt --check")
        assert "TOKEN-SECRET" not in fmt_check.both
        registered = run_main("register", decks, "-f", "bifrost", "--output", folder / "reg", cwd=folder)
        assert_contract(registered, "paths register")
        if (folder / "reg" / "registrations.json").exists():
            table = json.loads((folder / "reg" / "registrations.json").read_text(encoding="utf-8"))
            assert "TOKEN-SECRET" not in json.dumps(table)
        STATS["paths"]["files"] += len(entries)


# --- one example of each family (called by the tests and the long run) ------------------------------

output_format = st.sampled_from(OUTPUT_FORMATS)
text_format = st.sampled_from(["bifrost", "abc", "wanderer", "ygo-5ds"])

STRATEGIES = {
    "text": st.tuples(text_deck(), text_format, output_format, st.sampled_from([".txt", ".deck", ""])),
    "yaml": st.tuples(yaml_deck(), text_format, output_format),
    "ydk": st.tuples(ydk_deck(), output_format),
    "format": st.tuples(format_text(), output_format),
    "config": st.tuples(config_text(), output_format),
    "lflist": st.tuples(lflist_text(), output_format),
    "catalog-json": st.tuples(catalog_document, output_format),
    "catalog-sqlite": st.tuples(st.lists(damage_step, min_size=1, max_size=3), output_format),
    "paths": st.tuples(st.lists(path_entry, min_size=0, max_size=8), output_format),
}


def run_example(family: str, example) -> None:
    STATS[family]["examples"] += 1
    if family == "text":
        (text, plain), fmt, out, suffix = example
        run_decklist("text", text, suffix, fmt, out, plain if suffix == ".txt" else None)
    elif family == "yaml":
        (text, _items), fmt, out = example
        run_decklist("yaml", text, ".yaml", fmt, out, [])
    elif family == "ydk":
        (text, codes), out = example
        run_decklist("ydk", text, ".ydk", "ygo-5ds", out, codes)
    elif family == "format":
        run_format_file(*example)
    elif family == "config":
        run_config(*example)
    elif family == "lflist":
        run_lflist(*example)
    elif family == "catalog-json":
        run_catalog_json(*example)
    elif family == "catalog-sqlite":
        run_catalog_sqlite(*example)
    elif family == "paths":
        run_paths(*example)
    else:  # pragma: no cover
        raise ValueError(family)


@st.composite
def tame_text_deck(draw) -> str:
    """Decks fmt should rewrite rather than refuse: headers, plain card lines, printings, comments."""
    lines = []
    for _ in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["card", "card", "card", "header", "comment"]))
        if kind == "header":
            lines.append(draw(st.sampled_from(TITLES)) + draw(st.sampled_from([":", " (40):", ""])))
        elif kind == "comment":
            lines.append("# " + draw(st.sampled_from(["Player: Jane", "note", "Name: Knights"])))
        else:
            name = draw(st.one_of(st.sampled_from(CARD_NAMES), st.text(alphabet="abcdefgh XYZ-,'", min_size=1, max_size=30).filter(lambda t: t.strip() and t.strip()[0].isalpha())))
            form = draw(st.sampled_from(["{c} {n}", "{c}x {n}", "{n} x{c}", "- {c} {n}", "{c} {n} (SDAO1-031)", "{n}"]))
            lines.append(form.format(c=draw(st.integers(1, 12)), n=name.strip()))
    return "\n".join(lines) + "\n"


FMT_STRATEGY = st.one_of(
    st.tuples(st.just(".txt"), tame_text_deck(), st.sampled_from(["bifrost", "ygo-5ds"])),
    st.tuples(st.just(".txt"), text_deck().map(lambda t: t[0]), st.sampled_from(["bifrost", "ygo-5ds"])),
    st.tuples(st.just(".yaml"), yaml_deck().map(lambda t: t[0]), st.just("bifrost")),
    st.tuples(st.just(".ydk"), ydk_deck().map(lambda t: t[0]), st.just("ygo-5ds")),
)


def run_fmt_example(example) -> str:
    suffix, text, format_name = example
    with Workspace() as folder:
        path = folder / f"deck{suffix}"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        outcome = fmt_round_trip(path, format_name)
    STATS["fmt"][outcome] += 1
    return outcome


# --- batches (the long run): many decklists per command, as a folder of submissions is checked -----

def run_decklist_batch(family: str, items: list, output_format: str) -> None:
    """``items``: (text, suffix, format, plain lines or None), all of one format. One ``check``
    over all of them and the sentinel: every file gets its row (json) and the sentinel is
    reported whatever the others hold; then the library accounting per file, and one
    ``fmt --check`` over the folder."""
    format_name = items[0][2]
    with Workspace() as folder:
        decks = folder / "decks"
        decks.mkdir()
        paths = []
        for index, (text, suffix, _fmt, _plain) in enumerate(items):
            path = decks / f"{index:05d}{suffix or '.txt'}"
            path.write_bytes(text.encode("utf-8", "surrogateescape"))
            paths.append(path)
        run = check_run(family, [*paths, "-f", format_name], output_format, folder)
        if output_format == "json" and run.out.strip():
            shown = {d["path"] for d in json.loads(run.out)["decks"]}
            assert all(str(p) in shown for p in paths), "a file of the batch got no row"
        for text, suffix, _fmt, plain in items:
            if plain is not None:
                account_for_every_card(text, suffix or ".txt", format_name, plain)
        assert_contract(run_main("fmt", decks, "-f", format_name, "--check", cwd=folder), f"{family} fmt --check")
        STATS[family]["files"] += len(items)


def run_fmt_batch(items: list) -> None:
    """``items``: (suffix, text, format) of one format. fmt all at once; per file: untouched,
    or rewritten to the same deck; then a second fmt changes nothing. Counts the files that
    break this (the fmt rewrite of issue 12 takes them to zero) instead of stopping."""
    format_name = items[0][2]
    with Workspace() as folder:
        paths, before = [], []
        for index, (suffix, text, _fmt) in enumerate(items):
            path = folder / f"{index:05d}{suffix}"
            path.write_bytes(text.encode("utf-8", "surrogateescape"))
            paths.append(path)
        for path in paths:
            before.append((path.read_bytes(), _fmt_contents(path, format_name)))
        run = run_main("fmt", *paths, "-f", format_name, cwd=folder)
        assert_contract(run, "fmt batch")
        once = [p.read_bytes() for p in paths]
        for path, (raw, contents), now in zip(paths, before, once):
            if now == raw:
                STATS["fmt"]["unchanged or refused"] += 1
            elif _fmt_contents(path, format_name) == contents:
                STATS["fmt"]["rewritten, same deck"] += 1
            else:
                STATS["fmt"]["rewritten, DIFFERENT deck"] += 1
        again = run_main("fmt", *paths, "-f", format_name, cwd=folder)
        assert_contract(again, "fmt batch, second pass")
        STATS["fmt"]["not idempotent"] += sum(1 for p, b in zip(paths, once) if p.read_bytes() != b)
        STATS["fmt"]["files"] += len(items)


def _fmt_contents(path: Path, format_name: str):
    from forcecheck.canonical import canonical_sections
    from forcecheck.checking import read_with_format
    from forcecheck.errors import ForcecheckError

    try:
        deck, compiled, _text = read_with_format(path, _formats(), format_name)
    except ForcecheckError:
        return "unusable"
    return [(g.key, sorted((e.name.casefold(), str(e.count) if e.count_ok else f"invalid {e.count_text}", e.printing or "") for e in g.entries))
            for g in canonical_sections(deck, compiled, _catalog()) if g.entries]
