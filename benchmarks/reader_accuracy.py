"""How well forcecheck reads real published lists: every line of ``../shared/data/real-decklists``
against its label (tests/data/real_list_labels), as ingredient-parser and usaddress measure their
parsers on labelled data.

    python benchmarks/reader_accuracy.py [--json FILE] [--markdown FILE] [--show-held-out] [--lists]
                                         [--update-known-misses] [--bootstrap]

Prints, per part of the split (dev, held-out) and per source, the line accuracy (a line is right
when its kind is, and for a card line every card's count, name and section; empty lines read as
empty are not counted) and the whole-list accuracy (every line right); then, for the dev part,
the confusion of kinds and every line read wrong. Held-out lines are never printed unless
``--show-held-out`` asks: no rule may be tuned on them (tests/data/real_list_labels/README.md).

``--lists`` adds one line per list: sections as forcecheck reads them, legal or not, lines read
wrong; ``--markdown`` writes the figures and that per-list table as Markdown (for a note that
compares the reading before and after a change). ``--update-known-misses`` rewrites KNOWN_MISSES.yaml (the dev lines read wrong today and
the floor tests/test_reader_accuracy.py holds the reader to) from this run. ``--bootstrap`` writes
labels from today's reading for lists that have none (every line to be read and corrected by
hand before they are committed; existing labels are never touched).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import real_list_scoring as scoring  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:5.1f}%"


def print_table(run: scoring.Run) -> None:
    print(f"{'part':<9} {'source':<8} {'lists':>5} {'lists right':>11} {'list acc':>8} {'lines':>6} {'lines right':>11} {'line acc':>8}")
    for part, rows in run.table().items():
        for source, fig in rows.items():
            print(f"{part:<9} {source:<8} {fig['lists']:>5} {fig['lists_right']:>11} {percent(fig['list_accuracy']):>8} "
                  f"{fig['lines']:>6} {fig['lines_right']:>11} {percent(fig['line_accuracy']):>8}")


def print_confusion(run: scoring.Run, part: str) -> None:
    confusion = run.confusion(part)
    labelled = sorted({k for k, _ in confusion}, key=lambda k: scoring.KINDS.index(k))
    read = sorted({r for _, r in confusion})
    width = max(9, *(len(r) for r in read))
    print(f"\nconfusion of kinds, {part} part (rows: labelled, columns: read; a kind with * = read as that kind, with other cards or another section)")
    print(f"{'':<13}" + "".join(f"{r:>{width}}" for r in read))
    for kind in labelled:
        print(f"{kind:<13}" + "".join(f"{confusion.get((kind, r), 0) or '.':>{width}}" for r in read))


def print_misses(run: scoring.Run, part: str) -> None:
    misses = run.misses(part)
    print(f"\nlines read wrong, {part} part ({sum(map(len, misses.values()))} on {len(misses)} lists)")
    for key, lines in misses.items():
        for number, what in lines.items():
            print(f"  {key}:{number}: labelled {what}")


def list_summaries(reader: scoring.Reader, run: scoring.Run, show_held_out: bool) -> list[dict]:
    """One row per list: its sections as read, legal or not, lines read wrong."""
    rows = []
    for score in run.lists:
        path = scoring.REAL / score.source / score.name
        report = reader.check(score.source, path)
        rows.append({
            "list": score.key, "part": score.part, "sections": report.sections, "legal": report.legal,
            "errors": sum(v.severity == "error" for v in report.violations),
            "lines": score.lines, "wrong": len(score.wrong),
            "wrong_lines": [n for n, _g, _r in score.wrong] if score.part == "dev" or show_held_out else None,
        })
    return rows


def print_lists(rows: list[dict]) -> None:
    print("\nper list: sections as read, legal, lines read wrong / lines")
    for row in rows:
        sections = ", ".join(f"{k} {v}" for k, v in row["sections"].items()) or "no cards"
        legal = "legal" if row["legal"] else f"illegal ({row['errors']} errors)"
        print(f"  {row['list']} [{row['part']}]: {sections}; {legal}; {row['wrong']}/{row['lines']} wrong")


def markdown(run: scoring.Run, rows: list[dict]) -> str:
    out = ["| part | source | lists right | list accuracy | lines right | line accuracy |", "|---|---|---|---|---|---|"]
    for part, table in run.table().items():
        for source, fig in table.items():
            out.append(f"| {part} | {source} | {fig['lists_right']}/{fig['lists']} | {percent(fig['list_accuracy']).strip()} | "
                       f"{fig['lines_right']}/{fig['lines']} | {percent(fig['line_accuracy']).strip()} |")
    out += ["", "| list | part | sections read | verdict | lines read wrong |", "|---|---|---|---|---|"]
    for row in rows:
        sections = ", ".join(f"{k} {v}" for k, v in row["sections"].items()) or "no cards"
        verdict = "legal" if row["legal"] else f"illegal ({row['errors']} errors)"
        wrong = f"{row['wrong']}/{row['lines']}"
        if row["wrong_lines"]:
            wrong += " (lines " + ", ".join(map(str, row["wrong_lines"])) + ")"
        out.append(f"| {row['list']} | {row['part']} | {sections} | {verdict} | {wrong} |")
    return "\n".join(out) + "\n"


def write_known_misses(run: scoring.Run) -> None:
    dev = run.figures(run.select("dev"))
    misses = run.misses("dev")
    lines = [
        "# The dev lines forcecheck reads wrong today, and the floor tests/test_reader_accuracy.py holds it to.",
        "# Written by `python benchmarks/reader_accuracy.py --update-known-misses`; a fix shows up as a line",
        "# to remove here, a regression as a new wrong line (a test failure). Held-out lines are never listed.",
        f"floor: {{lines: {dev['lines']}, lines_right: {dev['lines_right']}, line_accuracy: {math.floor(dev['line_accuracy'] * 10_000) / 10_000:.4f}}}",
        "misses:" + ("" if misses else " {}"),
    ]
    for key, found in misses.items():
        lines.append(f"  {scoring._flow(key)}:")
        lines += [f"    {number}: {scoring._flow(what)}" for number, what in found.items()]
    scoring.KNOWN_MISSES_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"\nwrote {scoring.KNOWN_MISSES_FILE.relative_to(ROOT)}")


def bootstrap(reader: scoring.Reader) -> None:
    """Labels from today's reading, for lists that have none: a start for a person to correct."""
    for source, path in scoring.real_lists():
        target = scoring.label_path(source, path.name)
        if target.exists():
            continue
        read = reader.predict(source, path)
        labels = {n: {"line": n, "hash": scoring.line_hash(text), **read[n]} for n, text in enumerate(scoring.list_lines(path), 1)}
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(scoring.render_labels(source, path.name, labels), encoding="utf-8")
        key = scoring.key_of(source, path)
        print(f"wrote {target.relative_to(ROOT)} (from today's reading: read every line and correct it); "
              f"record {key!r} under {scoring.part_for_new_list(key)!r} in SPLIT.yaml")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON (default benchmarks/results/reader_accuracy.json)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the figures and one row per list as Markdown")
    parser.add_argument("--show-held-out", action="store_true", help="also print the held-out lines read wrong (never to tune rules on)")
    parser.add_argument("--lists", action="store_true", help="one line per list: sections, legal, lines read wrong")
    parser.add_argument("--update-known-misses", action="store_true", help="rewrite KNOWN_MISSES.yaml from this run")
    parser.add_argument("--bootstrap", action="store_true", help="write labels from today's reading for lists without labels")
    args = parser.parse_args(argv)
    if not scoring.REAL.is_dir():
        print(f"reader_accuracy: {scoring.REAL} is absent (../shared is not beside this checkout)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        reader = scoring.Reader(scoring.import_real_catalogs(Path(folder)))
        imported = time.perf_counter()
        if args.bootstrap:
            bootstrap(reader)
            return 0
        try:
            run = scoring.run(reader)
        except scoring.Mismatch as exc:
            print(f"reader_accuracy: {exc}", file=sys.stderr)
            return 2
        done = time.perf_counter()
        print_table(run)
        print_confusion(run, "dev")
        print_misses(run, "dev")
        if args.show_held_out:
            print_confusion(run, "held-out")
            print_misses(run, "held-out")
        rows = list_summaries(reader, run, args.show_held_out)
        if args.lists:
            print_lists(rows)
        print(f"\ncatalogs imported in {imported - started:.1f} s; {len(run.lists)} lists read and scored in {done - imported:.2f} s")
        if args.update_known_misses:
            write_known_misses(run)
        if args.markdown:
            Path(args.markdown).write_text(markdown(run, rows), encoding="utf-8")
            print(f"wrote {args.markdown}")
    payload = {
        "figures": run.table(),
        "confusion": {part: [{"labelled": k, "read": r, "lines": n} for (k, r), n in sorted(run.confusion(part).items())]
                      for part in scoring.PARTS},
        "dev_misses": run.misses("dev"),
        "held_out_misses": run.misses("held-out") if args.show_held_out else None,
        "lists": rows,
    }
    target = Path(args.json) if args.json else RESULTS / "reader_accuracy.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
