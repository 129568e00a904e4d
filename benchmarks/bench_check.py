"""Benchmark: checking generated 60-card Bifrost decks vs merely reading and parsing them.

    python benchmarks/bench_check.py [--decks 1000] [--seed 1] [--json benchmarks/results/check.json]

Both figures are measured in the same run over the same files, so their ratio holds on a
noisy machine. Decks are written to a temporary folder (text and YAML mixed), then:
  parse  - read_decklist on every file (the floor: I/O + decoding + parsing)
  check  - read, resolve against the sample catalog and run every bifrost rule
The format is compiled once, as the CLI does for a batch.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from forcecheck.cards.catalog import sample_catalog  # noqa: E402
from forcecheck.checking import FormatCache, check_file  # noqa: E402
from forcecheck.decklists.readers import read_decklist  # noqa: E402


def generate(folder: Path, count: int, seed: int) -> list[Path]:
    catalog = sample_catalog()
    rng = random.Random(seed)
    cards = catalog.cards("fow")
    rulers = [c for c in cards if "ruler" in c.types and "stranger" in c.keywords]
    main_pool = [c.name for c in cards if c.types & {"resonator", "chant", "addition", "regalia"} and "stranger" not in c.subtypes and "rune" not in c.types]
    stones = [c.name for c in cards if "basic-magic-stone" in c.types]
    strangers = [c.name for c in cards if "stranger" in c.subtypes]
    paths = []
    for i in range(count):
        main = rng.sample(main_pool, 15)
        sections = {
            "Ruler": [(1, rng.choice(rulers).name)],
            "Main Deck": [(4, n) for n in main],  # 60 cards
            "Magic Stone Deck": [(rng.randint(5, 10), s) for s in rng.sample(stones, 2)],
            "Stranger Deck": [(2, n) for n in rng.sample(strangers, 5)],
            "Sideboard": [(1, n) for n in rng.sample(main_pool, 5)],
        }
        if i % 2:
            path = folder / f"deck{i:05}.txt"
            text = "\n".join(f"{title}:\n" + "\n".join(f"{c} {n}" for c, n in entries) for title, entries in sections.items())
        else:
            path = folder / f"deck{i:05}.yaml"
            text = "format: bifrost\nsections:\n" + "".join(
                f"  {title}:\n" + "".join(f"    - {json.dumps(f'{c} {n}')}\n" for c, n in entries) for title, entries in sections.items()
            )
        path.write_text(text + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "check.json")
    args = parser.parse_args()
    catalog = sample_catalog()
    formats = FormatCache()
    fmt = formats.get("bifrost")
    with tempfile.TemporaryDirectory() as tmp:
        paths = generate(Path(tmp), args.decks, args.seed)
        start = time.perf_counter()
        for path in paths:
            read_decklist(path, fmt.known_headers)
        parse_s = time.perf_counter() - start
        start = time.perf_counter()
        reports = [check_file(path, catalog, formats, "bifrost") for path in paths]
        check_s = time.perf_counter() - start
    errors = sum(1 for r in reports if r.error)
    violations = sum(len(r.violations) for r in reports)
    result = {
        "decks": args.decks,
        "parse_seconds": round(parse_s, 4),
        "check_seconds": round(check_s, 4),
        "parse_decks_per_second": round(args.decks / parse_s, 1),
        "check_decks_per_second": round(args.decks / check_s, 1),
        "check_to_parse_ratio": round(check_s / parse_s, 2),
        "unreadable": errors,
        "violations": violations,
    }
    print(f"{'decks':<28}{args.decks}")
    print(f"{'parse only':<28}{parse_s:8.3f} s  {result['parse_decks_per_second']:>10,.0f} decks/s")
    print(f"{'full check (bifrost)':<28}{check_s:8.3f} s  {result['check_decks_per_second']:>10,.0f} decks/s")
    print(f"{'check / parse':<28}{result['check_to_parse_ratio']:8.2f} x")
    print(f"{'violations found':<28}{violations} (unreadable: {errors})")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
