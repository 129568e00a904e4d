"""What the benchmarks check: generated decklists and the catalog they are checked against.

Shared by the suite (``run.py``) and the benchmarks that also run alone (``bench_cli.py``,
``jobs_bound.py``), so that none of them imports another benchmark for its inputs.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from forcecheck.cards.catalog import sample_catalog  # noqa: E402
from forcecheck.cards.store import SqliteCatalog  # noqa: E402

SHARED = ROOT.parent / "shared"


# --- deck generation ---------------------------------------------------------------------------

def fow_decks(folder: Path, count: int, catalog, game_format: str, rng: random.Random) -> list[Path]:
    cards = catalog.cards("fow")
    if game_format == "abc":
        rulers = [c for c in cards if "ruler" in c.types and "arcana" in c.subtypes]
    else:
        rulers = [c for c in cards if "ruler" in c.types and "stranger" in c.keywords] or [c for c in cards if "ruler" in c.types]
    pool = [c.name for c in cards if c.types & {"resonator", "chant", "addition", "regalia"} and "stranger" not in c.subtypes and "rune" not in c.types]
    stones = [c.name for c in cards if "basic-magic-stone" in c.types]
    specials = [c.name for c in cards if "special-magic-stone" in c.types] or stones
    strangers = [c.name for c in cards if "stranger" in c.subtypes]
    pool_set = set(pool)
    stones_set = set(stones)
    by_attributes: dict[str, tuple] = {}
    paths = []
    for i in range(count):
        ruler_card = rng.choice(rulers)
        ruler = ruler_card.name
        if game_format == "abc":
            # realistic: singletons in the Arcana ruler's attributes, on the curve (20 / 20 / 16) + 4 rulers
            if ruler not in by_attributes:
                allowed = [c for c in cards if c.name in pool_set and c.attributes and c.attributes <= ruler_card.attributes and not c.faces]
                by_attributes[ruler] = (
                    [c.name for c in allowed if c.total_cost <= 1],
                    [c.name for c in allowed if c.total_cost == 2],
                    [c.name for c in allowed if c.total_cost >= 3],
                    [c.name for c in cards if "ruler" in c.types and "arcana" not in c.subtypes and c.attributes and c.attributes <= ruler_card.attributes],
                )
            low, two, high, others = by_attributes[ruler]
            picks = rng.sample(low, 20) + rng.sample(two, 20) + rng.sample(high, 16) + rng.sample(others, min(4, len(others)))
            main = [(1, n) for n in picks]
            fitting = [c.name for c in cards if "magic-stone" in c.types and c.will and c.will <= ruler_card.attributes]
            basics = [n for n in fitting if n in stones_set] or fitting
            extras = [n for n in fitting if n not in stones_set] or basics
            stone_deck = [(6, s) for s in rng.sample(basics, min(2, len(basics)))] + [(1, s) for s in rng.sample(extras, min(2, len(extras)))]
            sections = [("Ruler", [(1, ruler)]), ("Main Deck", main), ("Magic Stone Deck", stone_deck)]
        else:
            main = [(4, n) for n in rng.sample(pool, 15)]
            sections = [
                ("Ruler", [(1, ruler)]),
                ("Main Deck", main),
                ("Magic Stone Deck", [(rng.randint(4, 8), s) for s in rng.sample(stones, 2)] + [(2, rng.choice(specials))]),
                ("Stranger Deck", [(2, n) for n in rng.sample(strangers, 5)]),
                ("Sideboard", [(1, n) for n in rng.sample(pool, 10)]),
            ]
        text = "\n".join(f"{title}:\n" + "\n".join(f"{c} {n}" for c, n in entries) for title, entries in sections) + "\n"
        path = folder / f"{game_format}{i:06}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def ygo_decks(folder: Path, count: int, catalog, rng: random.Random) -> list[Path]:
    cards = [c for c in catalog.cards("ygo") if "token" not in c.types]
    main_pool = [c for c in cards if not c.types & {"fusion", "synchro", "xyz", "link", "pendulum"}]
    extra_pool = [c for c in cards if c.types & {"fusion", "synchro"} and not c.types & {"xyz", "link", "pendulum"}]
    paths = []
    for i in range(count):
        main = [c.printings[0] for c in rng.sample(main_pool, 20) for _ in range(3)]
        extra = [c.printings[0] for c in rng.sample(extra_pool, min(15, len(extra_pool)))]
        side = [c.printings[0] for c in rng.sample(main_pool, 15)]
        text = "#created by bench\n#main\n" + "\n".join(main) + "\n#extra\n" + "\n".join(extra) + "\n!side\n" + "\n".join(side) + "\n"
        path = folder / f"ygo{i:06}.ydk"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def open_bench_catalog(tmp: Path, given: str | None, row, results: dict):
    """(catalog, its path or None): ``given``, else the card data of ../shared imported into a
    fresh catalog (timed), else the embedded sample catalog."""
    if given:
        return SqliteCatalog(Path(given)), given
    if not (SHARED / "data").is_dir():
        print("(catalog: embedded sample catalog)")
        return sample_catalog(), None
    from forcecheck.importers.pipeline import import_banlists, import_files

    db = tmp / "catalog.sqlite3"
    fow_sources = [SHARED / "data/fow/fowsim-cards.json", SHARED / "data/fow/fowsim-abc2023-decks-cards.json"]
    start = time.perf_counter()
    import_files("fowsim", fow_sources, db)
    fow_import = time.perf_counter() - start
    start = time.perf_counter()
    import_files("ygopro", [SHARED / "data/ygo/cards.cdb"], db)
    ygo_import = time.perf_counter() - start
    lflists = sorted((SHARED / "data/ygo/lflist").glob("*.conf"))
    if lflists:  # so the Yu-Gi-Oh check applies the OCG list in force, as a user's default check does
        import_banlists(lflists, db)
    row("catalogs", "import fowsim (5,709 records)", f"{fow_import:.2f} s")
    row("catalogs", "import YGOPro cards.cdb (10,628 records)", f"{ygo_import:.2f} s")
    results["import_s"] = {"fowsim": round(fow_import, 2), "ygopro": round(ygo_import, 2)}
    print("(catalog: imported catalogs (../shared))")
    return SqliteCatalog(db), str(db)
