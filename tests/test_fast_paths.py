"""The shortcuts that keep a batch fast give exactly what the plain way gives.

Each test holds one shortcut to the way it replaced: the text report written without rich to
rich's own layout, the JSON writer to ``json.dumps``, a JSON deck and a SARIF document written
directly to the dicts they were built from, the streamed JUnit document to the tree ElementTree
builds, a deck's line index to searching its lines, a line read once and remembered to reading
it again, other readings worked out on demand to working them out at once, what a ruler decides
worked out once to working it out per deck; and a one-deck check loads neither pydantic nor
rich, nor every command's module.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from xml.etree import ElementTree as ET

from conftest import _CATALOG, ROOT, SAMPLES, faria
from hypothesis import given, settings
from hypothesis import strategies as st

from forcecheck.checking import FormatCache
from forcecheck.decklists.lines import parse_entry
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist
from forcecheck.report.jsontext import pretty
from forcecheck.report.model import DeckReport, RunReport, Violation
from forcecheck.resolve import resolve

FORMATS = FormatCache()


def _reports(folder, format_name):
    fmt = FORMATS.get(format_name)
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix in (".txt", ".yaml", ".ydk"):
            deck = parse_decklist(path.read_text(encoding="utf-8"), str(path), fmt.known_headers, suffix=path.suffix)
            out.append(check_decklist(deck, fmt, _CATALOG))
    return out


# -- the text report, against rich's layout -------------------------------------------------------

def _rich_text(decks, width: int) -> str:
    """The text report as rich laid it out (the renderer before streaming), without the summary."""
    from rich.table import Table
    from rich.text import Text

    from forcecheck.escape import printable
    from forcecheck.report.text import curve_lines, make_console

    buffer = io.StringIO()
    console = make_console(buffer, "never", width=width)
    for deck in decks:
        fmt = f" [{deck.format}]" if deck.format else ""
        if deck.banlist:
            fmt = f" [{deck.format}, banlist {deck.banlist}]"
        fmt = printable(fmt)
        errors = sum(1 for v in deck.violations if v.severity == "error")
        warnings = len(deck.violations) - errors
        if deck.sections:
            fmt += "  " + printable(", ".join(f"{s} {n}" for s, n in deck.sections.items()))
        head = Text()
        if deck.legal:
            head.append("legal   ")
            head.append(f"{printable(deck.path)}{fmt}")
            if warnings:
                head.append(f"  ({warnings} warning{'s' if warnings != 1 else ''})")
        else:
            head.append("ILLEGAL ")
            head.append(f"{printable(deck.path)}{fmt}")
            head.append(f"  {errors} violation{'s' if errors != 1 else ''}")
            if warnings:
                head.append(f", {warnings} warning{'s' if warnings != 1 else ''}")
        console.print(head)
        if not deck.violations:
            continue
        table = Table(show_edge=False, box=None, pad_edge=False, padding=(0, 1), show_header=True)
        table.add_column("line", justify="right", no_wrap=True)
        for name in ("code", "level", "rule", "section"):
            table.add_column(name, no_wrap=True)
        table.add_column("message", overflow="fold")
        shown: set[str] = set()
        curves = curve_lines(deck)
        for v in deck.violations:
            message = Text(printable(v.message))
            curve = curves.get(v.rule)
            if curve and curve not in shown:
                shown.add(curve)
                message.append("\n" + printable(curve))
            table.add_row(str(v.line) if v.line is not None else "-", v.code, v.severity, Text(printable(v.rule)), Text(printable(v.section or "-")), message)
        console.print(table)
        console.print()
    console.file.flush()
    return buffer.getvalue()


def test_the_text_report_lays_findings_out_as_rich_did_at_every_width():
    from forcecheck.report.text import render_text

    decks = _reports(SAMPLES / "bifrost", "bifrost") + _reports(SAMPLES / "abc", "abc") + _reports(SAMPLES / "ygo-5ds", "ygo-5ds")
    assert any(len(v.message) > 60 for d in decks for v in d.violations)  # some messages wrap at the widths below
    for width in (30, 45, 60, 80, 100, 140, 250):
        out = io.StringIO()
        render_text(RunReport(decks, catalog="c"), out, "never", width=width)
        ours = out.getvalue()
        ours = ours[: ours.index(f"{len(decks)} decks checked:")]  # without the summary and what follows it (the banlist lines)
        assert ours == _rich_text(decks, width), width


def test_colour_is_the_same_text_with_terminal_codes():
    from forcecheck.report.text import render_text

    decks = _reports(SAMPLES / "bifrost", "bifrost")
    plain, coloured = io.StringIO(), io.StringIO()
    render_text(RunReport(list(decks), catalog="c"), plain, "never", width=70)
    render_text(RunReport(list(decks), catalog="c"), coloured, "always", width=70)
    assert "\x1b[" in coloured.getvalue() and "\x1b[" not in plain.getvalue()
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.getvalue()) == plain.getvalue()


# -- JSON and JUnit ---------------------------------------------------------------------------

_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(value=_json_values, depth=st.integers(0, 3))
def test_pretty_json_is_the_standard_librarys_text(value, depth):
    expected = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * depth)
    assert pretty(value, depth) == expected


_text = st.text(max_size=12) | st.sampled_from(['a "b" <c> & d\\e', "\x00\x1b[2J\x7f\x9b", "\u202e\u2028é漢", "\udcff.txt"])
_maybe_text = st.none() | _text
_maybe_int = st.none() | st.integers(-3, 10**12)
_violations = st.builds(
    Violation, code=st.sampled_from(["FC101", "FC201", "FC302", "FC012"]), rule=_text, severity=st.sampled_from(["error", "warning"]),
    message=_text, deck=_text, section=_maybe_text, card=_maybe_text, line=_maybe_int, found=_maybe_int, limit=_maybe_text,
    lines=st.none() | st.lists(st.integers(1, 999), max_size=3).map(tuple),
)
_deck_reports = st.builds(
    DeckReport, path=_text, format=_maybe_text, violations=st.lists(_violations, max_size=3), error=_maybe_text,
    banlist=_maybe_text, name=_maybe_text, player=_maybe_text,
    kept=st.fixed_dictionaries({
        "fingerprint": _maybe_text, "ruler": _maybe_text,
        "sections": st.none() | st.dictionaries(_text, st.integers(0, 99) | st.booleans(), max_size=3),
        "corrections": st.lists(st.fixed_dictionaries({"line": _maybe_int, "written": _text, "read_as": _text}), max_size=2),
    }),
)
"""Reports as a worker sends them, with odd text in every field: quotes, markup, controls,
bidi marks, an undecodable file name byte, and values of the less usual kinds (a bool count)."""


def _odd_decks():
    """The sample decks as checked (their resolutions attached) and written-out odd ones."""
    odd = 'a "b" <c> & d\\te\nf\r\x01\u202e\udcff'
    return _reports(SAMPLES / "bifrost", "bifrost") + _reports(SAMPLES / "ygo-5ds", "ygo-5ds") + [
        DeckReport(path=odd, format=None, error=odd),
        DeckReport(path="x.txt", format="bifrost", error="x.txt:3: unreadable", kept={"sections": None}),
        DeckReport(path="sub/é.txt", format=odd, banlist=odd, name=odd, player=odd, kept={
            "fingerprint": "fc1-0", "sections": {"main": 40, odd: 2}, "ruler": odd, "corrections": [{"line": 2, "written": odd, "read_as": "x"}]}),
        DeckReport(path="t.txt", format="bifrost", violations=[
            Violation("FC201", "copy-limit", "error", odd, "t.txt", odd, odd, 3, 5, odd, (3, 9, 12)),
            Violation("FC201", "copy-limit", "error", odd, "t.txt", "side", "other", 3, 6, None, (3, 4)),  # the first's twin
            Violation("FC101", "main-size", "error", "short", "t.txt", found=True)]),
    ]


@settings(max_examples=200, deadline=None)
@given(deck=_deck_reports)
def test_a_json_deck_written_directly_is_pretty_json_of_its_dict(deck):
    from forcecheck.report.json_out import deck_text

    assert deck_text(deck) == pretty(deck.to_dict(), 2)


def test_json_decks_checked_and_odd_are_written_as_their_dicts():
    from forcecheck.report.json_out import deck_text

    for deck in _odd_decks():
        assert deck_text(deck) == pretty(deck.to_dict(), 2), deck.path


def _sarif_from_dicts(report) -> str:
    """The SARIF document with every result built as dicts and written by ``pretty`` (the
    renderer before it wrote results directly)."""
    from forcecheck.escape import json_text
    from forcecheck.report import machine
    from forcecheck.rules.registry import KINDS

    out = io.StringIO()
    machine.render_sarif(RunReport([], catalog=report.catalog), out)
    head, _, tail = out.getvalue().partition('      "results": []')
    root_text = str(machine._repository_root())
    index = {code: n for n, code in enumerate(sorted(k.code for k in KINDS.values()))}
    results = []
    for deck in report.decks:
        artifact = machine._artifact(deck.path, root_text)
        for code, rule, severity, line, message in machine._rows(deck):
            location = {"artifactLocation": artifact, "region": {"startLine": line or 1}}
            result = {"ruleId": code, "ruleIndex": index[code], "level": "error" if severity == "error" else "warning",
                      "message": {"text": message}, "locations": [{"physicalLocation": location}],
                      "properties": {"rule": rule, "format": deck.format}}
            violation = next((v for v in deck.violations if v.code == code and v.line == line and v.message == message), None)
            if violation is not None:
                result["properties"].update({k: getattr(violation, k) for k in ("section", "card", "found", "limit") if getattr(violation, k) is not None})
                others = violation.all_lines[1:]
                if others:
                    result["relatedLocations"] = [
                        {"id": i, "physicalLocation": {"artifactLocation": artifact, "region": {"startLine": n}}, "message": {"text": f"also line {n}"}}
                        for i, n in enumerate(others, start=1)]
            results.append(json_text(pretty(result, 4)))
    successful = all(deck.error is None for deck in report.decks)
    tail = tail.replace('"executionSuccessful": true', f'"executionSuccessful": {"true" if successful else "false"}', 1)
    empty, summary = RunReport([], catalog=report.catalog).summary(), report.summary()  # the run's banlists come from its decks
    keys = ("catalog", "catalog_sources", "banlists", "config", "notes")
    tail = tail.replace(machine._indented({k: empty[k] for k in keys}, 3), machine._indented({k: summary[k] for k in keys}, 3), 1)
    body = "[" + "".join(("," if n else "") + "\n        " + r for n, r in enumerate(results)) + ("\n      ]" if results else "]")
    return head + '      "results": ' + body + tail


@settings(max_examples=100, deadline=None)
@given(decks=st.lists(_deck_reports, max_size=4))
def test_sarif_written_directly_is_the_document_built_from_dicts(decks):
    from forcecheck.report.machine import render_sarif

    out = io.StringIO()
    render_sarif(RunReport(list(decks), catalog="c"), out)
    assert out.getvalue() == _sarif_from_dicts(RunReport(list(decks), catalog="c"))


def test_sarif_of_checked_and_odd_decks_inside_and_outside_the_repository_is_the_document_built_from_dicts():
    from forcecheck.report.machine import render_sarif

    inside = [DeckReport(path=str(ROOT / "decks" / "a b#é.txt"), format="bifrost", violations=[Violation("FC101", "main-size", "error", "m", "d")])]
    for decks in (_odd_decks(), inside, []):
        out = io.StringIO()
        render_sarif(RunReport(list(decks), catalog="c"), out)
        assert out.getvalue() == _sarif_from_dicts(RunReport(list(decks), catalog="c"))


def _junit_tree(decks) -> str:
    """The JUnit document built as one ElementTree (the renderer before streaming)."""
    from forcecheck.escape import xml_text
    from forcecheck.report.machine import UNREADABLE, _junit_line, _seconds

    report = RunReport(decks, catalog="c")
    decks = report.decks
    summary = report.summary()
    total = _seconds(sum(deck.elapsed for deck in decks))
    counts = {"tests": str(len(decks)), "failures": str(summary["illegal"]), "errors": str(summary["unreadable"])}
    suites = ET.Element("testsuites", name="forcecheck", **counts, time=total)
    suite = ET.SubElement(suites, "testsuite", name="forcecheck", **counts, skipped="0", time=total)
    properties = ET.SubElement(suite, "properties")
    for name in ("catalog", "config"):
        ET.SubElement(properties, "property", name=name, value=xml_text(summary[name] or "none"))
    for deck in decks:
        path = xml_text(deck.path)
        case = ET.SubElement(suite, "testcase", classname=xml_text(f"forcecheck.{deck.format or 'unknown'}"), name=path, file=path,
                             time=_seconds(deck.elapsed))
        if deck.error is not None:
            ET.SubElement(case, "error", message=xml_text(deck.error), type=UNREADABLE[1]).text = xml_text(deck.error)
            continue
        errors = [v for v in deck.violations if v.severity == "error"]
        lines = [_junit_line(v) for v in deck.violations]
        if errors:
            failure = ET.SubElement(case, "failure", message=f"{len(errors)} violation{'s' if len(errors) != 1 else ''}", type="illegal-deck")
            failure.text = "\n".join(lines)
        elif lines:
            ET.SubElement(case, "system-out").text = "\n".join(lines)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def test_streamed_junit_is_the_document_built_whole(monkeypatch):
    from forcecheck.report import machine

    decks = _reports(SAMPLES / "bifrost", "bifrost") + [DeckReport(path="gone.txt", format=None, error="gone.txt: no such file")]
    for batch in (decks, decks[:1], []):
        out = io.StringIO()
        machine.render_junit(RunReport(list(batch), catalog="c"), out)
        assert out.getvalue() == _junit_tree(list(batch))
    monkeypatch.setattr(machine, "_SPOOL_BYTES", 10)  # the test cases spill to disk: the same document
    out = io.StringIO()
    machine.render_junit(RunReport(list(decks), catalog="c"), out)
    assert out.getvalue() == _junit_tree(list(decks))


def test_reports_travel_between_processes_whole():
    import pickle

    v = Violation("FC201", "copy-limit", "error", "5 copies", "d.txt", "main", "X", 3, 5, "at most 4", (3, 9))
    report = DeckReport("d.txt", "bifrost", [v], None, "2026.7", None, "Deck", "Jane", {"r": "curve"}, 0.5, {"sections": {"main": 40}})
    assert pickle.loads(pickle.dumps(report)) == report


# -- a deck's lines ---------------------------------------------------------------------------

def test_a_deck_with_many_findings_finds_each_cards_lines_as_a_search_does():
    fmt = FORMATS.get("bifrost")
    names = [c.name for c in _CATALOG.cards("fow") if "ruler" not in c.types][:40]
    text = "Main Deck:\n" + "".join(f"2 {name}\n" for name in names) * 3  # every card on three lines
    deck = resolve(parse_decklist(text, "d.txt", fmt.known_headers), fmt, _CATALOG).deck
    expected = {card: [(e.line, e.count) for e in deck.sections["main"] if e.card is card] for card in deck.tallies["main"]}
    for _ in range(2):  # the first findings search the lines, the later ones read the index
        for card, lines in expected.items():
            assert [(e.line, e.count) for e in deck.entries_of(card, ("main",))] == lines


def test_a_card_line_remembered_reads_as_it_read_the_first_time():
    fmt = FORMATS.get("abc")
    lines = ["1 Alchemics 102", "2 Witch of the Tower: No.6", "3 [Variant] Crier Mermaid", "1 Name ２", "4 Gawain x3", "2 Card (Rare)"]
    for line in lines:
        first = parse_decklist(f"Main Deck:\n{line}\n", "a.txt", fmt.known_headers, suffix=".txt").sections[0].entries
        again = parse_decklist(f"Main Deck:\n\n\n{line}\n", "b.txt", fmt.known_headers, suffix=".txt").sections[0].entries
        fresh = parse_entry(line, 4)
        assert [(e.name, e.count, e.printing, e.count_ok, e.count_text) for e in again] == \
               [(fresh.name, fresh.count, fresh.printing, fresh.count_ok, fresh.count_text)], line
        assert again[0].line == 4 and first[0].line == 2
        assert again[0].alternatives == fresh.alternatives == first[0].alternatives, line


def test_other_readings_worked_out_on_demand_are_those_worked_out_at_once():
    for line in ["7 Colored Fish 2", "4 Astema // Astema, the J-ruler", "3 Name (a remark)", "(3) Reunion of Sisters",
                 "4 Magic Stone of X 3 Guinevere 3 Thunder", "2 Blessed Holy Wolf Resonator Light L.png Common"]:
        entry = parse_entry(line, 1)
        lazy = entry.alternatives
        assert callable(parse_entry(line, 1)._readings)  # not worked out until asked for
        assert lazy == entry.alternatives and isinstance(lazy, tuple)
        assert lazy == _recomputed(line)


def _recomputed(line: str):
    entry = parse_entry(line, 1)
    return entry._readings()  # the function left in place: what an eager reader stored


def test_a_plain_line_with_a_digit_of_another_script_is_read_the_general_way():
    fmt = FORMATS.get("bifrost")
    for line in ("4 Name ２", "4 Nameー３", "2 Card ٣"):
        read = parse_decklist(f"Main Deck:\n{line}\n", "d.txt", fmt.known_headers, suffix=".txt").sections[0].entries[0]
        general = parse_entry(line, 2)
        assert (read.name, read.count, read.count_text) == (general.name, general.count, general.count_text), line


# -- what the ruler decides ------------------------------------------------------------------------

def test_what_a_ruler_decides_is_the_same_however_many_decks_share_it():
    """Copy limits and ruler-set bounds remember per set of rulers; a batch mixing rulers gets for
    each deck what a fresh format gives it alone."""
    texts = [faria(), faria(main=[(5, "Gawain, the Knight of the Sun")] + [(4, "Viviane")] * 9), faria(ruler="Melgis, the Flame King")]
    shared = FormatCache().get("bifrost")
    batch = []
    for text in texts * 2:
        deck = parse_decklist(text, "d.txt", shared.known_headers)
        batch.append([(v.rule, v.message, v.line) for v in check_decklist(deck, shared, _CATALOG).violations])
    for text, got in zip(texts * 2, batch):
        alone = FormatCache().get("bifrost")
        deck = parse_decklist(text, "d.txt", alone.known_headers)
        assert got == [(v.rule, v.message, v.line) for v in check_decklist(deck, alone, _CATALOG).violations]
    assert batch[1] != batch[0]  # the decks do differ


# -- a one-deck check loads only what it needs ------------------------------------------------------

def test_a_one_deck_check_loads_neither_typer_nor_pydantic_nor_rich_nor_other_commands(tmp_path):
    script = (
        "import sys; sys.argv = ['forcecheck', 'check', sys.argv[1], '-f', 'bifrost', '--jobs', '2']\n"
        "from forcecheck.cli import run as main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'pydantic', 'rich', 'importlib_metadata')"
        " or m in ('forcecheck.cli.stats', 'forcecheck.cli.tournament', 'forcecheck.cli.formats', 'forcecheck.cli.catalog', 'forcecheck.cli.serve')),"
        " file=sys.stderr)\n"
    )
    env = {**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache"), "FORCECHECK_DEBUG": "1"}  # main raises SystemExit then
    deck = str(SAMPLES / "bifrost" / "legal-faria-stranger.txt")
    subprocess.run([sys.executable, "-c", script, deck], capture_output=True, text=True, cwd=ROOT, env=env)  # fills the spec cache
    run = subprocess.run([sys.executable, "-c", script, deck], capture_output=True, text=True, cwd=ROOT, env=env)
    assert run.stdout.splitlines()[1].startswith("legal")  # under the sample catalog's note
    assert run.stderr.strip().splitlines()[-1] == "[]"


def test_the_shipped_sample_catalog_is_read_without_checking_each_record():
    """``sample_catalog`` trusts its records (no field-by-field check on every start): they pass it."""
    from forcecheck.cards.records import record_problem

    data = json.loads((ROOT / "forcecheck" / "data" / "sample_catalog.json").read_text(encoding="utf-8"))
    assert data["cards"] and all(record_problem(record) is None for record in data["cards"])


def test_the_command_exits_with_its_code_and_all_its_output(tmp_path):
    """``main`` leaves without the interpreter's teardown: the codes and the output are whole."""
    deck = str(SAMPLES / "bifrost" / "illegal-39-main-cards.txt")
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01")
    run = subprocess.run([sys.executable, "-m", "forcecheck", "check", deck, str(tmp_path / "binary.txt"), "-f", "bifrost", "-o", "json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and len(json.loads(run.stdout)["decks"]) == 2
    run = subprocess.run([sys.executable, "-m", "forcecheck", "check", deck, "-f", "bifrost", "-o", "concise"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1 and run.stdout.count("\n") == 1 and "1 deck checked" in run.stderr


def test_one_process_running_several_commands_gets_each_commands_module(tmp_path):
    """``main`` loads only the module of the command it runs; a program (or test) that runs a
    check and then another command in the same process gets that one too, and help keeps its
    order. (A check then ``catalog import`` said "No such command 'import'".)"""
    script = (
        "import io, json, sys, contextlib\n"
        "from forcecheck.cli import main\n"
        "deck, cards, db = sys.argv[1:4]\n"
        "def run(*args):\n"
        "    sys.argv = ['forcecheck', *args]\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
        "        try:\n            main()\n        except SystemExit as exc:\n            return exc.code, out.getvalue()\n"
        "print(json.dumps([run('check', deck, '-f', 'bifrost'), run('catalog', 'import', 'fowsim', cards, '--db', db),"
        " run('--help')]))\n"
    )
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps([{"id": "X-001", "name": "Card One", "type": ["Chant"], "cost": "{R}"}]), encoding="utf-8")
    deck = str(SAMPLES / "bifrost" / "legal-faria-stranger.txt")
    run = subprocess.run([sys.executable, "-c", script, deck, str(cards), str(tmp_path / "c.db")], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "FORCECHECK_CACHE_DIR": str(tmp_path / "cache")})
    (check_code, _), (import_code, imported), (help_code, shown) = json.loads(run.stdout)
    assert check_code == 0 and import_code == 0 and "imported 1 records" in imported, imported
    listed = shown.split("Commands:")[1].strip().split("\n\n")[0]  # the epilog (the documentation's address) follows a blank line
    commands = [line.split()[0] for line in listed.splitlines()]
    assert commands[:4] == ["check", "stats", "fmt", "fingerprint"] and "catalog" in commands and help_code == 0


# -- the sample catalog's name index, made ahead --------------------------------------------------

def test_the_shipped_sample_index_is_what_the_code_makes_of_the_shipped_catalog():
    """scripts/build_sample_catalog.py writes forcecheck/data/sample_index.json beside the
    catalog; after a change to name normalisation this fails until the script is run again
    (``python scripts/build_sample_catalog.py --index-only``)."""
    from forcecheck.cards.catalog import sample_index

    data = ROOT / "forcecheck" / "data"
    shipped = json.loads((data / "sample_index.json").read_text(encoding="utf-8"))
    assert shipped == sample_index((data / "sample_catalog.json").read_text(encoding="utf-8"))


def test_the_sample_catalog_read_with_its_index_answers_as_one_indexed_on_opening():
    """The sample opens without building a card (a cold check builds the ones its deck names)
    and answers every name, misspelling, printing code and suggestion as before."""
    from forcecheck.cards.catalog import PrebuiltCatalog, catalog_from_json, sample_catalog

    text = (ROOT / "forcecheck" / "data" / "sample_catalog.json").read_text(encoding="utf-8")
    indexed = catalog_from_json(json.loads(text), "sample", "sample", trusted=True)
    prebuilt = sample_catalog()
    total = len(indexed)
    assert isinstance(prebuilt, PrebuiltCatalog) and len(prebuilt) == total and total > 500
    assert prebuilt._built.count(None) == total  # nothing built on opening
    assert prebuilt.by_name("fow", "FARIA").name == "Faria"
    assert prebuilt._built.count(None) == total - 1

    def shown(match):
        return match and (match.card.to_dict(), match.lang, match.fold)

    written = [name for card in indexed.cards() for _lang, name, _printed in card.all_names()]
    written += [n.upper() for n in written] + [n.replace(" ", "-") for n in written] + ["Nope", "Faria Swordmaster of Creaton"]
    for game in ("fow", "ygo"):
        for name in written:
            assert shown(prebuilt.match_name(game, name)) == shown(indexed.match_name(game, name)), name
        for unspaced in (False, True):
            assert prebuilt.name_index(game, unspaced) == indexed.name_index(game, unspaced)
    for card in indexed.cards():
        for code in card.printings:
            assert prebuilt.by_printing(card.game, code.lower()).to_dict() == card.to_dict()
    assert prebuilt.suggest("fow", "Faria Swordmaster of Creaton") == indexed.suggest("fow", "Faria Swordmaster of Creaton") != []
    assert [c.to_dict() for c in prebuilt.cards()] == [c.to_dict() for c in indexed.cards()]


def test_a_sample_catalog_edited_by_hand_is_indexed_afresh(tmp_path, monkeypatch):
    """An index made from another catalog file (its checksum differs) is never used."""
    import shutil

    from forcecheck.cards import catalog as catalogs

    data = tmp_path / "forcecheck" / "data"
    data.mkdir(parents=True)
    shutil.copy(ROOT / "forcecheck" / "data" / "sample_index.json", data)
    text = (ROOT / "forcecheck" / "data" / "sample_catalog.json").read_text(encoding="utf-8")
    edited = text.replace('"cards": [', '"cards":  [', 1)
    assert edited != text
    (data / "sample_catalog.json").write_text(edited, encoding="utf-8")
    assert catalogs._shipped_index(data / "sample_catalog.json", (data / "sample_catalog.json").read_text(encoding="utf-8")) is None
    assert catalogs._shipped_index(ROOT / "forcecheck" / "data" / "sample_catalog.json", text)["schema"] == catalogs.SAMPLE_INDEX_SCHEMA


def test_a_damaged_sample_index_is_not_used(tmp_path, monkeypatch):
    """An index file of the right checksum whose rows are not rows: the sample is indexed afresh."""
    import shutil

    from forcecheck.cards import catalog as catalogs

    data = tmp_path / "forcecheck" / "data"
    data.mkdir(parents=True)
    shutil.copy(ROOT / "forcecheck" / "data" / "sample_catalog.json", data)
    index = json.loads((ROOT / "forcecheck" / "data" / "sample_index.json").read_text(encoding="utf-8"))
    index["names"] = [["fow", "plain"], 7]
    (data / "sample_index.json").write_text(json.dumps(index), encoding="utf-8")
    fake = data.parent / "cards" / "catalog.py"
    monkeypatch.setattr(catalogs, "__file__", str(fake))
    catalog = catalogs.sample_catalog()
    assert not isinstance(catalog, catalogs.PrebuiltCatalog) and catalog.by_name("fow", "Faria").name == "Faria"


def test_junit_cases_are_written_as_elementtree_writes_them():
    """The directly written test case is ElementTree's text for the same element, whatever the
    paths, messages and errors hold (quotes, markup characters, tabs, new lines)."""
    from xml.etree import ElementTree as ET

    from forcecheck.escape import xml_text
    from forcecheck.report.machine import UNREADABLE, _junit_case_text, _junit_line, _seconds
    from forcecheck.report.model import DeckReport, Violation

    def tree_text(deck):
        """The element built as an ElementTree, indented and written by ElementTree."""
        path = xml_text(deck.path)
        case = ET.Element("testcase", classname=xml_text(f"forcecheck.{deck.format or 'unknown'}"), name=path, file=path,
                          time=_seconds(deck.elapsed))
        errors = [v for v in deck.violations if v.severity == "error"]
        lines = "\n".join(_junit_line(v) for v in deck.violations)
        if deck.error is not None:
            ET.SubElement(case, "error", message=xml_text(deck.error), type=UNREADABLE[1]).text = xml_text(deck.error)
        elif errors:
            failure = ET.SubElement(case, "failure", message=f"{len(errors)} violation{'s' if len(errors) != 1 else ''}", type="illegal-deck")
            failure.text = lines
        elif lines:
            ET.SubElement(case, "system-out").text = lines
        ET.indent(case, space="  ", level=2)
        return ET.tostring(case, encoding="unicode")

    odd = 'a "b" <c> & d\\te\nf\r\x01\u202e'
    decks = _reports(SAMPLES / "bifrost", "bifrost") + [
        DeckReport(path=odd, format=None, error=odd),
        DeckReport(path="x.txt", format="bifrost", error=""),
        DeckReport(path="legal.txt", format="bifrost", elapsed=0.1234),
        DeckReport(path="warn.txt", format="bifrost", violations=[Violation("FC012", "name-corrected", "warning", odd, "warn.txt", line=3)]),
        DeckReport(path=odd, format=odd, violations=[Violation("FC101", "main-size", "error", odd, odd),
                                                     Violation("FC201", "copy-limit", "error", "m", odd, line=2)]),
    ]
    assert len(decks) > 10
    for deck in decks:
        assert _junit_case_text(deck) == tree_text(deck), deck.path
