"""The large run of the shape and mutation suites (issue 28): many legal decks built from the real
catalogs in ../shared, written in every shape, and thousands of mutants, each judged in shapes
drawn at random.

    python benchmarks/mutation_hunt.py [--fow-decks 60] [--ygo-decks 60] [--shapes-per-mutant 2]
                                       [--seed 1] [--json FILE] [--examples N] [--quick]

The decks: the real published lists that tests/test_real_lists.py reads as legal, the .ydk decks
of ../shared in the 5D's era, the five official ABC 2023 decks (scripts/make_abc_samples.py), and
decks drawn from the catalogs (Bifrost and Wanderer with and without a stranger deck, Yu-Gi-Oh!
under the OCG list 2011.3.1), each kept only when its structured form is legal. The catalogs are
imported as tests/test_real_lists.py imports them (fowsim; YGOPro English and Japanese).

Prints, per shape, the decks it could say and those that did not read back (the shape suite);
per mutation family and per shape, the mutants judged and the false legals (a mutant judged
legal), with "other" the mutants judged illegal for another reason than the rule they break
(their shape misread, usually); and writes every count with an example of each failure to
``--json`` (default benchmarks/results/mutation_hunt.json). Seeded and deterministic. Families
and shapes are tests/deck_mutations.py and tests/deck_shapes.py: the CI suites run a few of them
on the sample catalog.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "scripts")]

import deck_mutations as dm  # noqa: E402
import deck_shapes as ds  # noqa: E402

SHARED = ROOT.parent / "shared"
OCG_LIST = "2011.3.1"
GROUP_CAUSES_AWAY = {"tales", "villains", "will-of-hope", "will-of-despair"}
"""Keywords that tie a card to others (CR 402.3c-d): drawn decks leave such cards out."""


# --- the catalogs and the legal decks --------------------------------------------------------------

def import_catalogs(folder: Path):
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_files

    data = SHARED / "data"
    import_files("fowsim", [data / "fow" / "fowsim-cards.json", data / "fow" / "fowsim-abc2023-decks-cards.json"], folder / "fow.db")
    import_files("ygopro", [data / "ygo" / "cards.cdb", data / "ygo" / "cards-ja.cdb"], folder / "ygo.db")
    return SqliteCatalog(folder / "fow.db"), SqliteCatalog(folder / "ygo.db")


def ocg_list():
    from forcecheck.banlists import read_lflist

    for path in sorted((SHARED / "data" / "ygo" / "lflist").glob("*.conf")):
        lists, _ = read_lflist(path)
        for banlist in lists:
            if banlist.name == OCG_LIST:
                return banlist
    raise SystemExit(f"no {OCG_LIST} list in ../shared/data/ygo/lflist")


def plain(card) -> bool:
    """A card with no deckbuilding text of its own: drawn decks use only these."""
    return not (card.conditions or card.unchecked or card.copy_limit is not None or card.unlimited_copies
                or set(card.keywords) & GROUP_CAUSES_AWAY) and bool(card.printings)


def draw_fow(reader: ds.Reader, rng: random.Random, index: int, format_name: str, stranger: bool) -> ds.Deck:
    probe = ds.Deck("probe", "fow", format_name, (), banlist=None)
    facts = reader.facts_for(probe)
    cards = [facts.card(n) for n in facts.names()]
    fmt = facts.fmt
    rulers = [c for c in cards if "ruler" in c.types and "arcana" not in c.subtypes and c.name not in facts.caps and plain(c)
              and set(c.keywords) <= ({"stranger"} if stranger else set()) and ("stranger" in c.keywords) == stranger]
    main_pool = [c.name for c in cards if c.types & {"resonator", "chant", "addition", "regalia"} and plain(c)
                 and facts.placed(c.name) == fmt.rest and not c.types & {"ruler", "j-ruler", "sub-ruler", "rune"}
                 and "stranger" not in c.subtypes and c.name not in facts.caps]
    basics = [c.name for c in cards if "basic-magic-stone" in c.types]
    specials = [c.name for c in cards if "special-magic-stone" in c.types and plain(c) and c.name not in facts.caps]
    strangers = [c.name for c in cards if "stranger" in c.subtypes and "resonator" in c.types and plain(c) and c.name not in facts.caps]
    ruler = rng.choice(rulers)
    names = rng.sample(main_pool, rng.randint(10, 16))
    counts = [rng.randint(1, 4) for _ in names]
    while sum(counts) < 40:
        i = rng.randrange(len(counts))
        counts[i] = min(4, counts[i] + 1)
    sections = {"ruler": [ds.Line(1, ruler.name)], "main": [ds.Line(c, n) for c, n in zip(counts, names)]}
    stones = [ds.Line(rng.randint(4, 9), n) for n in rng.sample(basics, 2)]
    stones += [ds.Line(rng.randint(1, 4), n) for n in rng.sample(specials, rng.randint(0, 2))]
    while sum(line.count for line in stones) > 20:
        stones = stones[:-1]
    if sum(line.count for line in stones) < 10:
        stones[0] = ds.Line(stones[0].count + 10 - sum(line.count for line in stones), stones[0].name)
    sections["stones"] = stones
    if stranger:
        sections["stranger"] = [ds.Line(2, n) for n in rng.sample(strangers, ruler.keywords["stranger"] // 2)]
    used = dict(zip(names, counts))
    side, size = [], rng.choice([0, rng.randint(1, 15), 15])
    for name in rng.sample(main_pool, 30):
        room = min(4 - used.get(name, 0), size - sum(line.count for line in side))
        if room > 0:
            side.append(ds.Line(rng.randint(1, room), name))
    if side:
        sections["side"] = side
    order = tuple(s.id for s in fmt.spec.sections)
    deck = ds.Deck(f"{format_name}-drawn-{index}", "fow", format_name, (), order, title="Store Championship List")
    for section_id in order:
        if section_id in sections:
            deck = deck.with_section(section_id, sections[section_id])
    return deck


def draw_ygo(reader: ds.Reader, rng: random.Random, index: int) -> ds.Deck:
    probe = ds.Deck("probe", "ygo", "ygo-5ds", (), banlist=OCG_LIST)
    facts = reader.facts_for(probe)
    cards = [facts.card(n) for n in facts.names()]
    usable = [c for c in cards if not c.types & {"token", "xyz", "pendulum", "link"} and facts.caps.get(c.name, 3) > 0 and c.printings]
    main_pool = [c.name for c in usable if not c.types & {"fusion", "synchro"} and c.types & {"monster", "spell", "trap"}]
    extra_pool = [c.name for c in usable if c.types & {"fusion", "synchro"}]
    limit = {c.name: min(3, facts.caps.get(c.name, 3)) for c in usable}
    names = rng.sample(main_pool, rng.randint(14, 22))
    counts = [rng.randint(1, limit[n]) for n in names]
    while sum(counts) < 40:
        i = rng.randrange(len(counts))
        counts[i] = min(limit[names[i]], counts[i] + 1)
        if all(c == limit[n] for c, n in zip(counts, names)):
            extra_name = rng.choice([n for n in main_pool if n not in names])
            names.append(extra_name)
            counts.append(1)
    used = dict(zip(names, counts))
    sections = {"main": [ds.Line(c, n) for c, n in zip(counts, names)]}
    extra_size = rng.choice([0, rng.randint(1, 15), 15])
    extra = []
    for name in rng.sample(extra_pool, 20):
        room = min(limit[name], extra_size - sum(line.count for line in extra))
        if room > 0:
            extra.append(ds.Line(rng.randint(1, min(2, room)), name))
    if extra:
        sections["extra"] = extra
    side_size = rng.choice([0, rng.randint(1, 15), 15])
    side = []
    for name in rng.sample(main_pool, 40):
        room = min(limit[name] - used.get(name, 0), side_size - sum(line.count for line in side))
        if room > 0:
            side.append(ds.Line(rng.randint(1, room), name))
    if side:
        sections["side"] = side
    deck = ds.Deck(f"ygo-drawn-{index}", "ygo", "ygo-5ds", (), ("main", "extra", "side"), banlist=OCG_LIST, title="Regional Top Cut")
    for section_id in ("main", "extra", "side"):
        if section_id in sections:
            deck = deck.with_section(section_id, sections[section_id])
    return deck


def published_decks(fow: ds.Reader, ygo: ds.Reader) -> list[ds.Deck]:
    """The real lists test_real_lists.py reads as legal, the 5D's-era .ydk decks, the official ABC decks."""
    from test_real_lists import EXPECTED

    out = []
    real = SHARED / "data" / "real-decklists"
    for (folder, name), (_sections, legal) in sorted(EXPECTED.items()):
        if not legal:
            continue
        text = (real / folder / name).read_text(encoding="utf-8")
        key = "real-" + name.split("_")[0] + "-" + name.rsplit("_", 1)[-1].removesuffix(".txt")[:24]
        out.append(_legal(fow, key, text, "bifrost", "fow") if folder == "fow" else _legal(ygo, key, text, "ygo-5ds", "ygo"))
    for path in sorted((SHARED / "data" / "ygo" / "decks" / "era_5ds_style").glob("*.ydk")):
        out.append(_legal(ygo, "ydk-" + path.stem.rsplit("_", 1)[-1], path.read_text(encoding="utf-8"), "ygo-5ds", "ygo", ".ydk"))
    from make_abc_samples import official_decks, render

    for code, deck in sorted(official_decks(SHARED).items()):
        out.append(_legal(fow, "abc-" + code.lower(), render(deck, code), "abc", "fow"))
    return [deck for deck in out if deck is not None]


def _legal(reader: ds.Reader, key: str, text: str, format_name: str, game: str, suffix: str = ".txt") -> ds.Deck | None:
    for banlist in ([OCG_LIST, "none"] if game == "ygo" else [None]):
        try:
            return ds.read_deck(reader, key, text, format_name, game, suffix, banlist=banlist, title="Deck Profile")
        except ValueError:
            continue
    print(f"  (not legal, left out: {key})")
    return None


# --- the run ---------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fow-decks", type=int, default=60, help="Force of Will decks drawn from the catalog (Bifrost and Wanderer)")
    parser.add_argument("--ygo-decks", type=int, default=60, help="Yu-Gi-Oh! decks drawn from the catalog")
    parser.add_argument("--shapes-per-mutant", type=int, default=2, help="shapes each mutant is judged in, drawn from those that can say it")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--examples", type=int, default=3, help="examples kept per failing (family, shape) and shape")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "mutation_hunt.json")
    parser.add_argument("--quick", action="store_true", help="8 drawn decks of each game, each mutant in one shape")
    args = parser.parse_args()
    if args.quick:
        args.fow_decks, args.ygo_decks, args.shapes_per_mutant = 8, 8, 1
    if not (SHARED / "data").is_dir():
        raise SystemExit("../shared (third-party card data) is not beside this checkout: the hunt needs the real catalogs")
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        fow_catalog, ygo_catalog = import_catalogs(Path(tmp))
        fow = ds.Reader(fow_catalog)
        ygo = ds.Reader(ygo_catalog, {None: None, OCG_LIST: ocg_list(), "none": "none"})
        print(f"catalogs imported in {time.perf_counter() - started:.1f} s")
        decks, rejected = published_decks(fow, ygo), collections.Counter()
        for i in range(args.fow_decks):
            format_name = "wanderer" if i % 2 else "bifrost"
            deck = draw_fow(fow, rng, i, format_name, stranger=i % 3 == 0)
            back = fow.reference(deck)
            decks.append(deck) if back.legal else rejected.update(code for code, _l, _m in back.errors)
        for i in range(args.ygo_decks):
            deck = draw_ygo(ygo, rng, i)
            back = ygo.reference(deck)
            decks.append(deck) if back.legal else rejected.update(code for code, _l, _m in back.errors)
        print(f"{len(decks)} legal decks ({sum(d.game == 'fow' for d in decks)} Force of Will, {sum(d.game == 'ygo' for d in decks)} Yu-Gi-Oh!)"
              + (f"; drawn decks left out as illegal: {dict(rejected)}" if rejected else ""))
        result = {"seed": args.seed, "decks": len(decks), "shapes": shape_suite(decks, fow, ygo, args.examples)}
        result.update(mutation_suite(decks, fow, ygo, rng, args.shapes_per_mutant, args.examples))
    result["seconds"] = round(time.perf_counter() - started, 1)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\n{result['seconds']} s; counts and examples in {args.json}")
    return 0


def reader_of(deck: ds.Deck, fow: ds.Reader, ygo: ds.Reader) -> ds.Reader:
    return fow if deck.game == "fow" else ygo


def shape_suite(decks, fow, ygo, examples: int) -> dict:
    """Every deck in every shape that can say it: the shapes that do not read it back."""
    said, failed, found = collections.Counter(), collections.Counter(), collections.defaultdict(list)
    for deck in decks:
        reader = reader_of(deck, fow, ygo)
        reference = reader.reference(deck)
        for name in ds.SHAPES:
            try:
                failure = ds.shape_verdict(reader, deck, name, reference)
            except ds.NotExpressible:
                continue
            said[name] += 1
            if failure:
                failed[name] += 1
                if len(found[name]) < examples:
                    found[name].append(f"{deck.key}: {failure[:300]}")
    print(f"\nshape suite: {sum(said.values())} renderings of {len(decks)} decks in {len(ds.SHAPES)} shapes, "
          f"{sum(failed.values())} not read back")
    print(f"{'shape':<26} {'decks':>6} {'failed':>7}  example")
    for name in ds.SHAPES:
        example = found[name][0][:110] if found[name] else ""
        print(f"{name:<26} {said[name]:>6} {failed[name]:>7}  {example}")
    return {name: {"decks": said[name], "failed": failed[name], "examples": found[name]} for name in ds.SHAPES}


def mutation_suite(decks, fow, ygo, rng: random.Random, per_mutant: int, examples: int) -> dict:
    """Each family on each deck (its choices drawn from ``rng``), each mutant in ``per_mutant`` shapes."""
    by_family = collections.defaultdict(collections.Counter)
    by_shape = collections.defaultdict(collections.Counter)
    found = collections.defaultdict(list)
    for deck in decks:
        reader = reader_of(deck, fow, ygo)
        facts = reader.facts_for(deck)
        for name, family in dm.FAMILIES.items():
            mutant = family.make(deck, facts, rng)
            if mutant is None:
                continue
            by_family[name]["mutants"] += 1
            shapes = list(ds.SHAPES)
            rng.shuffle(shapes)
            judged = 0
            for shape_name in shapes:
                if judged == per_mutant:
                    break
                try:
                    verdict = dm.judge(reader, mutant, shape_name)
                except ds.NotExpressible:
                    continue
                judged += 1
                for counter in (by_family[name], by_shape[shape_name]):
                    counter["judged"] += 1
                    counter[verdict.outcome] += 1
                if verdict.false_legal and len(found[(name, shape_name)]) < examples:
                    found[(name, shape_name)].append(dm.describe(verdict, mutant)[:400])
    mutants = sum(c["mutants"] for c in by_family.values())
    judged = sum(c["judged"] for c in by_family.values())
    false_legal = sum(c["false-legal"] for c in by_family.values())
    print(f"\nmutation suite: {mutants} mutants over {len(decks)} decks, {judged} judgements (mutant x shape), {false_legal} false legal")
    print(f"{'family':<36} {'mutants':>7} {'judged':>7} {'false legal':>11} {'other':>6}")
    for name in dm.FAMILIES:
        c = by_family[name]
        print(f"{name:<36} {c['mutants']:>7} {c['judged']:>7} {c['false-legal']:>11} {c['caught-other']:>6}")
    print(f"\n{'shape':<26} {'judged':>7} {'false legal':>11} {'other':>6}")
    for name in ds.SHAPES:
        c = by_shape[name]
        print(f"{name:<26} {c['judged']:>7} {c['false-legal']:>11} {c['caught-other']:>6}")
    return {
        "mutants": mutants, "judged": judged, "false_legal": false_legal,
        "families": {name: dict(by_family[name]) for name in dm.FAMILIES},
        "by_shape": {name: dict(by_shape[name]) for name in ds.SHAPES},
        "false_legal_examples": {f"{f} | {s}": v for (f, s), v in sorted(found.items())},
    }


if __name__ == "__main__":
    raise SystemExit(main())
