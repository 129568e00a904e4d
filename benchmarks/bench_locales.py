"""Benchmark: card data in two languages (YGOPro cards.cdb + the Japanese cards-ja.cdb).

    python benchmarks/bench_locales.py [--shared ../shared] [--runs 20]

1. import   cards.cdb alone, cards-ja.cdb alone, both in one command, and one after the
            other: time (best of three) and catalog size.
2. check    open the catalog and check the same 2009 OCG deck written in English and in
            Japanese (tests/fixtures/ygo-ja/, fresh catalog object each run; median).
3. real     the Japanese lists in ../shared/data/real-decklists/ygo-ja checked against the
            English-only and the two-language catalog: unknown-card findings, names corrected.

Skips with a message where ../shared is absent. Writes benchmarks/results/locales.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forcecheck.cards.names import compact_key, normalize_name  # noqa: E402
from forcecheck.cards.store import SqliteCatalog  # noqa: E402
from forcecheck.checking import FormatCache, check_file  # noqa: E402
from forcecheck.importers.pipeline import import_files  # noqa: E402

DECKS = ROOT / "tests" / "fixtures" / "ygo-ja"
def best_of(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def imports(en: Path, ja: Path, tmp: Path) -> tuple[dict, dict[str, Path]]:
    out, dbs = {}, {}
    plans = {"en": [[en]], "ja": [[ja]], "en+ja": [[en, ja]], "en, then ja": [[en], [ja]]}
    for label, steps in plans.items():
        db = tmp / f"{label.replace(', then ', '-then-').replace('+', '-')}.sqlite3"

        def run(db=db, steps=steps):
            db.unlink(missing_ok=True)
            for files in steps:
                import_files("ygopro", files, db)

        seconds = best_of(3, run)
        out[label] = {"seconds": round(seconds, 3), "bytes": db.stat().st_size}
        dbs[label] = db
        print(f"import {label:<14} {seconds:6.2f} s  {db.stat().st_size / 1e6:6.1f} MB")
    return out, dbs


def timed_check(db: Path, deck: Path, formats: FormatCache, runs: int) -> float:
    times = []
    for _ in range(runs):
        normalize_name.cache_clear()
        compact_key.cache_clear()
        start = time.perf_counter()
        report = check_file(deck, SqliteCatalog(db), formats, "ygo-5ds")
        times.append(time.perf_counter() - start)
        assert report.error is None and report.legal, (deck, report.violations[:3])
    return statistics.median(times)


def real_lists(folder: Path, dbs: dict[str, Path]) -> dict:
    """Check every real Japanese list against each catalog: unknown-card findings and names
    corrected (a typo one card clearly means)."""
    files = sorted(p for p in folder.iterdir() if p.suffix == ".txt")
    out: dict = {"files": len(files)}
    for label, db in dbs.items():
        catalog = SqliteCatalog(db)
        formats = FormatCache(banlist="none")
        unknown = corrected = 0
        for path in files:
            report = check_file(path, catalog, formats, "ygo-5ds")
            unknown += sum(v.rule == "unknown-card" for v in report.violations)
            corrected += len(getattr(report.resolution, "corrections", None) or [])
        out[label] = {"unknown_card_findings": unknown, "corrections": corrected}
        print(f"real lists ({len(files)}), {label:<6} catalog: {unknown:4} unknown-card findings, {corrected} name(s) corrected")
        catalog.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "locales.json")
    args = parser.parse_args()
    en, ja = args.shared / "data" / "ygo" / "cards.cdb", args.shared / "data" / "ygo" / "cards-ja.cdb"
    if not (en.is_file() and ja.is_file()):
        print(f"skipped: cards.cdb and cards-ja.cdb are not in {args.shared / 'data' / 'ygo'}")
        return 0
    formats = FormatCache(banlist="none")
    formats.get("ygo-5ds")
    with tempfile.TemporaryDirectory() as tmp:
        out, dbs = imports(en, ja, Path(tmp))
        checks = {}
        for label, db, deck in (
            ("English list, English catalog", dbs["en"], "ocg-2009-dark-armed-en.txt"),
            ("English list, two-language catalog", dbs["en+ja"], "ocg-2009-dark-armed-en.txt"),
            ("Japanese list, two-language catalog", dbs["en+ja"], "ocg-2009-dark-armed-ja.txt"),
        ):
            seconds = timed_check(db, DECKS / deck, formats, args.runs)
            checks[label] = round(seconds * 1000, 2)
            print(f"open catalog + check: {label:<38} {seconds * 1000:6.1f} ms (median of {args.runs})")
        result = {"imports": out, "open_and_check_ms": checks}
        folder = args.shared / "data" / "real-decklists" / "ygo-ja"
        if folder.is_dir():
            result["real_lists"] = real_lists(folder, {"en": dbs["en"], "en+ja": dbs["en+ja"]})
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
