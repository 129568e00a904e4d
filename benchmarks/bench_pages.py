"""What finding the list on a page costs (issue 38): distinct decks, each written twice, as a
plain list and pasted inside a page (a paragraph of over 500 characters above it, a report's info
lines, BBCode tags glued to names, a NOTES section of prose after it), checked in one run.

    python benchmarks/bench_pages.py [--decks N] [--rounds R] [--catalog DB] [--json FILE]

Every deck is distinct (its own random cards and its own sentences), so no per-spelling memo of
the reader or the catalog is warm for the next deck: the figure is the reader's, not the memo's.
Prints, from one run: check of the plain lists and of the pages (``--jobs 1``, json), the plain
floor (benchmarks/parse_only.py: read each file, one regex per line) on each folder, and the
ratios that matter: page vs plain per line and per deck, and check vs floor. Needs ../shared for
the Yu-Gi-Oh! catalog (or ``--catalog``), since the sample catalog is too small for distinct decks.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from bench_cli import best_pair  # noqa: E402

SHARED = ROOT.parent / "shared"

WORDS = ("deck tournament store round judge friends weekend testing field swiss opponent match game side "
         "plan turn draw hand combo control aggro meta local regional prize pack report season play").split()
PROSE = ("I", "we", "my", "this", "that", "it was", "I think", "you", "they", "because", "so", "but", "really")


def sentence(rng: random.Random, words: int) -> str:
    out = [rng.choice(PROSE)] + [rng.choice(WORDS) if rng.random() > 0.3 else rng.choice(PROSE) for _ in range(words)]
    return " ".join(out).capitalize() + rng.choice((".", "!", "?", "."))


def paragraph(rng: random.Random, chars: int) -> str:
    out = []
    while sum(map(len, out)) < chars:
        out.append(sentence(rng, rng.randint(8, 16)))
    return " ".join(out)


def decks(catalog, count: int, rng: random.Random) -> list[tuple[list[tuple[int, str]], list[tuple[int, str]]]]:
    cards = [c for c in catalog.cards("ygo") if "token" not in c.types]
    main_pool = [c.name for c in cards if not c.types & {"fusion", "synchro", "xyz", "link", "pendulum"}]
    extra_pool = [c.name for c in cards if c.types & {"fusion", "synchro"} and not c.types & {"xyz", "link", "pendulum"}]
    out = []
    for _ in range(count):
        main = [(rng.choice((1, 2, 3)), name) for name in rng.sample(main_pool, 20)]
        extra = [(1, name) for name in rng.sample(extra_pool, 10)]
        out.append((main, extra))
    return out


def plain(main, extra) -> str:
    return "Main Deck:\n" + "".join(f"{c} {n}\n" for c, n in main) + "Extra Deck:\n" + "".join(f"{c} {n}\n" for c, n in extra)


def page(main, extra, rng: random.Random) -> str:
    info = (f"Time: {rng.randint(1, 11)}:00pm - {rng.randint(1, 11)}:30pm\nEntrance Fee: ${rng.randint(2, 20)}\n"
            f"First place: {rng.randint(2, 12)} packs\n")
    tagged = "".join(f"{c} {n}{'[/ccDeck]' if i == len(main) - 1 else ''}\n" for i, (c, n) in enumerate(main))
    return (f"{sentence(rng, 6)}\n\n{paragraph(rng, 600)}\n\n{info}\n[ccDeck]Main Deck:\n{tagged}Extra Deck:\n"
            + "".join(f"{c} {n}\n" for c, n in extra)
            + f"\nNOTES\n\n{paragraph(rng, 300)}\n1st match- {rng.choice(WORDS)} VS. {rng.choice(WORDS)}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--catalog", help="an imported catalog with Yu-Gi-Oh! cards (default: import ../shared's cards.cdb)")
    parser.add_argument("--json", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    from forcecheck.cards.store import SqliteCatalog

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        db = args.catalog
        if db is None:
            if not (SHARED / "data").is_dir():
                print("bench_pages: ../shared is absent; give --catalog", file=sys.stderr)
                return 2
            from forcecheck.importers.pipeline import import_files

            db = str(tmp / "catalog.sqlite3")
            import_files("ygopro", [SHARED / "data/ygo/cards.cdb"], db)
        rng = random.Random(38)
        lists, pages = tmp / "lists", tmp / "pages"
        lists.mkdir()
        pages.mkdir()
        lines = {"lists": 0, "pages": 0}
        for i, (main_cards, extra_cards) in enumerate(decks(SqliteCatalog(Path(db)), args.decks, rng)):
            for folder, text in ((lists, plain(main_cards, extra_cards)), (pages, page(main_cards, extra_cards, rng))):
                (folder / f"deck{i:05}.txt").write_text(text, encoding="utf-8")
                lines[folder.name] += text.count("\n")
        check = [sys.executable, "-m", "forcecheck", "check", "-f", "ygo-5ds", "--banlist", "none", "--catalog", db,
                 "--jobs", "1", "-o", "json"]
        floor = [sys.executable, str(ROOT / "benchmarks" / "parse_only.py")]
        figures = {}
        for name, folder in (("lists", lists), ("pages", pages)):
            parse_s, check_s, rss = best_pair([*floor, str(folder)], [*check, str(folder)], args.rounds)
            figures[name] = {"decks": args.decks, "lines": lines[name], "check_s": round(check_s, 3), "floor_s": round(parse_s, 3),
                             "check_vs_floor": round(check_s / parse_s, 1), "decks_per_s": round(args.decks / check_s),
                             "us_per_line": round(1e6 * check_s / lines[name], 1), "peak_mib": round(rss)}
    print(f"{'input':<8} {'decks':>6} {'lines':>8} {'check s':>8} {'floor s':>8} {'x floor':>8} {'decks/s':>8} {'us/line':>8}")
    for name, fig in figures.items():
        print(f"{name:<8} {fig['decks']:>6} {fig['lines']:>8} {fig['check_s']:>8} {fig['floor_s']:>8} {fig['check_vs_floor']:>8} "
              f"{fig['decks_per_s']:>8} {fig['us_per_line']:>8}")
    per_line = figures["pages"]["us_per_line"] / figures["lists"]["us_per_line"]
    per_deck = figures["pages"]["check_s"] / figures["lists"]["check_s"]
    print(f"pages vs lists, same decks, same run: {per_deck:.2f}x per deck, {per_line:.2f}x per line")
    figures["pages_vs_lists"] = {"per_deck": round(per_deck, 2), "per_line": round(per_line, 2)}
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
