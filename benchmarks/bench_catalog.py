"""Benchmark: importing the FoW card database, and opening the imported catalog to check one deck.

    python benchmarks/bench_catalog.py [--shared ../shared] [--runs 20]

Prints the import time of the fowsim files in ../shared, and the median time to open the
imported SQLite catalog and check a 60-card deck (fresh catalog object each run) beside the
same with the embedded sample catalog. Skips with a message where ../shared is absent.
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

from forcecheck.cards.catalog import sample_catalog  # noqa: E402
from forcecheck.cards.names import normalize_name  # noqa: E402
from forcecheck.cards.store import SqliteCatalog  # noqa: E402
from forcecheck.checking import FormatCache, check_file  # noqa: E402
from forcecheck.importers.pipeline import import_files  # noqa: E402


def timed_check(make_catalog, deck: Path, formats: FormatCache, runs: int) -> float:
    times = []
    for _ in range(runs):
        normalize_name.cache_clear()
        start = time.perf_counter()
        report = check_file(deck, make_catalog(), formats, "bifrost")
        times.append(time.perf_counter() - start)
        assert report.error is None, report.error
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "catalog.json")
    args = parser.parse_args()
    sources = [args.shared / "data" / "fow" / "fowsim-cards.json", args.shared / "data" / "fow" / "fowsim-abc2023-decks-cards.json"]
    if not all(p.is_file() for p in sources):
        print(f"skipped: the fowsim files are not in {args.shared / 'data' / 'fow'}")
        return 0
    deck = ROOT / "sample_decks" / "bifrost" / "legal-faria-stranger.txt"
    formats = FormatCache()
    formats.get("bifrost")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "catalog.sqlite3"
        start = time.perf_counter()
        result = import_files("fowsim", sources[:1], db)
        import_one = time.perf_counter() - start
        start = time.perf_counter()
        import_files("fowsim", sources, db)
        import_both = time.perf_counter() - start
        sqlite_s = timed_check(lambda: SqliteCatalog(db), deck, formats, args.runs)
        sample_s = timed_check(sample_catalog, deck, formats, args.runs)
    out = {
        "records": result.records,
        "cards": result.cards,
        "import_fowsim_cards_seconds": round(import_one, 3),
        "reimport_with_abc_seconds": round(import_both, 3),
        "open_and_check_one_deck_ms_sqlite": round(sqlite_s * 1000, 2),
        "open_and_check_one_deck_ms_sample": round(sample_s * 1000, 2),
    }
    print(f"import fowsim-cards.json ({result.records:,} records)   {import_one:8.2f} s")
    print(f"import again with the ABC file (merge)        {import_both:8.2f} s")
    print(f"open imported catalog + check 60-card deck    {sqlite_s * 1000:8.1f} ms (median of {args.runs})")
    print(f"load sample catalog + check the same deck     {sample_s * 1000:8.1f} ms")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
