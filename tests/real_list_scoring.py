"""The reader measured against labelled lines of the real lists in ``../shared/data/real-decklists``.

Every line of every list has a label in ``tests/data/real_list_labels/<source>/<list>.yaml``:
what a judge at the registration desk reads on it (its kind and, for a card line, each card's
count, name and section; that folder's README gives the schema). This module reads each list
with forcecheck, turns the reading into the same labels (``predicted_labels``, the ONE place that
knows how a reading is laid out) and scores it: line accuracy and whole-list accuracy, per
source and per part of the split (``SPLIT.yaml``: ``dev``, and ``held-out``, which no rule is
tuned on).

Shared by the benchmark (``benchmarks/reader_accuracy.py``) and its CI test
(``tests/test_reader_accuracy.py``), as ``hostile_families`` is by the hostile suite. The lists'
text is never copied into the labels: each line keeps a short hash of its text, so a list that
changed is noticed, not mis-scored.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REAL = SHARED / "data" / "real-decklists"
LABELS = ROOT / "tests" / "data" / "real_list_labels"
SPLIT_FILE = LABELS / "SPLIT.yaml"
KNOWN_MISSES_FILE = LABELS / "KNOWN_MISSES.yaml"
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader where PyYAML has it: the labels are some 4,250 lines, ten times faster to load."""


def load_yaml(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)


@dataclass(frozen=True)
class Source:
    """A folder of ``real-decklists``: the game and format its lists are read in, which files
    are lists, and the language card names are labelled in (the catalog's name in that language)."""

    game: str
    format: str
    pattern: str
    lang: str


SOURCES = {
    "fow": Source("fow", "bifrost", "*.txt", "en"),
    "ygo": Source("ygo", "ygo-5ds", "*.txt", "en"),
    "ygo-ja": Source("ygo", "ygo-5ds", "*.txt", "ja"),
    "ygo-ydk": Source("ygo", "ygo-5ds", "*.ydk", "en"),
}

KINDS = ("blank", "card", "header", "group", "total", "metadata", "title", "comment", "prose", "label",
         "table-header", "other")
"""The closed set of kinds a label has (README.md in the labels folder says what each means).
A prediction may also be ``unread``: a line the reader refused (too long), which no label is."""

PARTS = ("dev", "held-out")
HELD_OUT_SHARE = 0.3
SPLIT_SALT = "forcecheck real-list split v1"
"""The split is by list: within each source, lists sorted by the SHA-1 of this salt and
``source/list``; the first 30% (rounded) are held out. Fixed once, before any accuracy was seen."""


# --- the corpus --------------------------------------------------------------------------------


def line_hash(text: str) -> str:
    """The first 8 hex digits of the SHA-1 of the line's text, stripped: which line was labelled."""
    return hashlib.sha1(text.strip().encode("utf-8")).hexdigest()[:8]


def list_lines(path: Path) -> list[str]:
    """The list's lines as forcecheck numbers them (CR LF and CR normalised, ``\\n`` splits)."""
    from forcecheck.textfile import read_text

    lines = read_text(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def real_lists(sources: Iterable[str] = SOURCES) -> list[tuple[str, Path]]:
    """Every list of the given sources, in a stable order: ``(source, path)``."""
    return [(source, path) for source in sources for path in sorted((REAL / source).glob(SOURCES[source].pattern))]


def key_of(source: str, path: Path) -> str:
    return f"{source}/{path.name}"


def label_path(source: str, name: str) -> Path:
    return LABELS / source / (name + ".yaml")


def load_labels(source: str, name: str) -> dict[int, dict]:
    """Line number -> label (``kind`` and its fields, ``hash`` of the line's text)."""
    data = load_yaml(label_path(source, name))
    return {int(item["line"]): item for item in data["lines"]}


def choose_split(keys: Iterable[str]) -> dict[str, list[str]]:
    """The deterministic split of ``source/list`` keys: ``{"dev": [...], "held-out": [...]}``."""
    by_source: dict[str, list[str]] = {}
    for key in keys:
        by_source.setdefault(key.split("/", 1)[0], []).append(key)
    out: dict[str, list[str]] = {"dev": [], "held-out": []}
    for source in sorted(by_source):
        ranked = sorted(by_source[source], key=lambda k: hashlib.sha1(f"{SPLIT_SALT}\n{k}".encode()).hexdigest())
        cut = round(len(ranked) * HELD_OUT_SHARE)
        out["held-out"].extend(sorted(ranked[:cut]))
        out["dev"].extend(sorted(ranked[cut:]))
    return out


def part_for_new_list(key: str) -> str:
    """Where a list added after the split goes, decided by its own hash alone (so no recorded
    list moves): held out when the hash, read as a fraction, is below the held-out share."""
    fraction = int(hashlib.sha1(f"{SPLIT_SALT}\n{key}".encode()).hexdigest(), 16) / 16**40
    return "held-out" if fraction < HELD_OUT_SHARE else "dev"


def load_split() -> dict[str, str]:
    """``source/list`` -> ``dev`` or ``held-out``, as SPLIT.yaml records it."""
    data = load_yaml(SPLIT_FILE)
    out = {}
    for part in PARTS:
        for source, names in (data.get(part) or {}).items():
            for name in names:
                out[f"{source}/{name}"] = part
    return out


def card_items(label: dict) -> list[tuple[Any, str | None, str]]:
    """A card label's cards as ``(count, name or None, section)``: a list is a card, a mapping
    with ``card: null`` is a line naming no card (its words in ``written``)."""
    out = []
    for item in label.get("cards") or ():
        if isinstance(item, dict):
            out.append((item["count"], item.get("card"), item["section"]))
        else:
            out.append((item[0], item[1], item[2]))
    return out


def section_totals(labels: dict[int, dict]) -> dict[str, int]:
    """Copies per section that the labels give (a no-card line counts, as forcecheck counts an
    unknown card; a count that is no whole number, a range, counts nothing; a face line is no copy)."""
    totals: dict[str, int] = {}
    for label in labels.values():
        if label["kind"] != "card" or label.get("face_of"):
            continue
        for count, _card, section in card_items(label):
            if isinstance(count, int):
                totals[section] = totals.get(section, 0) + count
    return {k: v for k, v in totals.items() if v}


# --- reading -----------------------------------------------------------------------------------


def import_real_catalogs(folder: Path) -> dict[str, Any]:
    """The real card databases of ``../shared`` imported into ``folder`` (once: a folder that has
    them is reused): ``{"fow": ..., "ygo": ...}``."""
    from forcecheck.cards.store import SqliteCatalog
    from forcecheck.importers.pipeline import import_files

    data = SHARED / "data"
    folder.mkdir(parents=True, exist_ok=True)
    fow, ygo = folder / "fow.db", folder / "ygo.db"
    if not fow.exists():
        import_files("fowsim", [data / "fow" / "fowsim-cards.json", data / "fow" / "fowsim-abc2023-decks-cards.json"], fow)
    if not ygo.exists():
        import_files("ygopro", [data / "ygo" / "cards.cdb", data / "ygo" / "cards-ja.cdb"], ygo)
    return {"fow": SqliteCatalog(fow), "ygo": SqliteCatalog(ygo)}


class Reader:
    """Reads real lists as ``forcecheck check`` does (Yu-Gi-Oh! without a banlist)."""

    def __init__(self, catalogs: dict[str, Any]):
        from forcecheck.checking import FormatCache

        self.catalogs = catalogs
        self.formats = {game: FormatCache((), "none" if game == "ygo" else None, catalog) for game, catalog in catalogs.items()}

    def predict(self, source: str, path: Path) -> dict[int, dict]:
        """The labels forcecheck's reading of one list gives its lines."""
        from forcecheck.checking import read_with_format
        from forcecheck.resolve import resolve

        spec = SOURCES[source]
        deck, fmt, _text = read_with_format(path, self.formats[spec.game], spec.format)
        resolution = resolve(deck, fmt, self.catalogs[spec.game], layout=True)
        return predicted_labels(path, deck, resolution, fmt, spec.lang)

    def check(self, source: str, path: Path):
        """The whole check's report of one list (legal or not, its sections), as ``check`` gives it."""
        from forcecheck.checking import check_file

        spec = SOURCES[source]
        return check_file(path, self.catalogs[spec.game], self.formats[spec.game], spec.format)


def card_name(card, lang: str) -> str:
    """The catalog's name of a card in a list's language (its printed name from cards-ja.cdb for
    Japanese lists), the convention every label follows; English where it has none."""
    local = (card.names or {}).get(lang) if lang != "en" else None
    return local[0] if local else card.name


_NOTE_KINDS = {"comment": "comment", "total": "total", "metadata": "metadata", "columns": "table-header",
               "table-header": "table-header", "label": "label", "heading": "title", "prose": "prose",
               "remark": "other"}
"""What each kind of ``Decklist.notes`` is as a line kind (``trailing-comment`` sits on a card line)."""


def predicted_labels(path: Path, deck, resolution, fmt=None, lang: str = "en") -> dict[int, dict]:
    """What forcecheck's reading of one list says of each of its lines, as labels.

    The ONE adapter between the reader and the labels; the reader has no per-line account of
    itself yet, so this gathers one from what the reading leaves: every card line of
    ``resolve(..., layout=True)`` with its section, the sections and groups it opened, the notes
    it kept of lines that are no cards, and the findings that name a title, a line read as
    nothing, or a ruler's other face. A line the reading accounts for in no way is ``blank`` when
    it is empty, else ``other`` (read as nothing at all); a line it refused is ``unread``."""
    from forcecheck.decklists.readings import ReadingKind

    lines = list_lines(path)
    out: dict[int, dict] = {}
    first_line: dict[str, int] = {}
    """Card name -> the first line that lists it: what a ruler's other face on a later line is a face of."""
    for key, _title, entry, card in resolution.layout or ():
        if entry.line is None:
            continue
        label = out.setdefault(entry.line, {"kind": "card", "cards": []})
        count = entry.count if entry.count_ok else entry.count_text
        if card is None:
            label["cards"].append({"count": count, "card": None, "section": key, "written": entry.name})
        else:
            label["cards"].append([count, card_name(card, lang), key])
            first_line.setdefault(card.name, entry.line)
    for item in resolution.findings:  # a ruler named again ("J-Ruler: <its other face>"): the same card, no copy
        finding = item.finding
        if item.rule == "card-placed" and finding.card is not None and finding.line not in out:
            out[finding.line] = {"kind": "card", "cards": [], "face_of": first_line.get(finding.card)}
    for section in deck.sections:
        if not section.title or section.line is None or section.line in out:
            continue
        section_id = section.target or (fmt.section_id(section.title) if fmt is not None else None) or "?" + section.key
        if section.group:
            out[section.line] = {"kind": "group", "section": section_id, "name": section.title}
        else:
            out[section.line] = {"kind": "header", "section": section_id}
    for note in [*deck.notes, *resolution.headings]:
        kind = _NOTE_KINDS.get(note.kind)
        if kind is not None and note.line is not None and note.line not in out:
            out[note.line] = {"kind": kind}
    for item in resolution.findings:
        finding = item.finding
        where = finding.lines or ((finding.line,) if finding.line is not None else ())
        if item.rule == "deck-title":
            label = {"kind": "title"}
        elif item.rule == "line-read-as" and item.reading is ReadingKind.SET_CODE_ALONE:
            label = {"kind": "other"}
        else:
            continue
        for number in where:
            out.setdefault(number, dict(label))
    for problem in deck.problems:  # a line too long to read, a .ydk line that is no passcode
        if problem.line is not None:
            out.setdefault(problem.line, {"kind": "unread"})
    ydk = path.suffix.lower() == ".ydk"
    continued: int | None = None
    for number, text in enumerate(lines, start=1):
        stripped = text.strip()
        if not stripped:
            out.setdefault(number, {"kind": "blank"})
            continue
        if number not in out:
            if continued is not None:  # "Astema (TST-067) //" + this line: the reader joined them
                out[number] = {"kind": "card", "cards": [], "face_of": continued}
            elif ydk and stripped.startswith(("#", "!")):
                out[number] = {"kind": "comment"}  # "#created by ...": what the .ydk reader skips as a comment
            else:
                out[number] = {"kind": "other"}
        continued = number if (not ydk and stripped.endswith("//") and not stripped.startswith(("#", "//"))
                               and out[number]["kind"] == "card") else None
    return out


# --- scoring -----------------------------------------------------------------------------------


def same_reading(gold: dict, read: dict) -> bool:
    """Whether a line was read as labelled: the kind, and for a card line every card's count,
    name and section (in any order), for a face line the card it is a face of, for a header or
    a group its section."""
    kind = gold["kind"]
    if kind != read["kind"]:
        return False
    if kind == "card":
        if gold.get("face_of") or read.get("face_of"):
            return gold.get("face_of") == read.get("face_of")
        return Counter(map(_hashable, card_items(gold))) == Counter(map(_hashable, card_items(read)))
    if kind in ("header", "group"):
        return gold.get("section") == read.get("section")
    return True


def miss_text(gold: dict, read: dict) -> str:
    """How a line was misread, in a few words (card names, no list text): the labels of both,
    or for a card line read as cards, only the cards that differ."""
    if gold["kind"] == read["kind"] == "card" and not gold.get("face_of") and not read.get("face_of"):
        labelled, got = Counter(map(_hashable, card_items(gold))), Counter(map(_hashable, card_items(read)))
        missing, extra = labelled - got, got - labelled
        same = sum((labelled & got).values())
        text = f"card: {_cards_text(missing)} -> read {_cards_text(extra)}"
        return text + (f" (and {same} card(s) read right)" if same else "")
    return f"{describe(gold)} -> read {describe(read)}"


def _cards_text(items: Counter) -> str:
    return "; ".join(f"{count} {name if name is not None else '<no card>'} @{section}"
                     for (count, name, section), times in sorted(items.items(), key=str) for _ in range(times)) or "nothing"


def _hashable(item: tuple) -> tuple:
    count, name, section = item
    return (str(count), name, section)


def scored(gold: dict, read: dict) -> bool:
    """Whether a line counts in line accuracy: every line but an empty one read as empty."""
    return not (gold["kind"] == "blank" and read["kind"] == "blank")


def describe(label: dict) -> str:
    """A label in a few words, for tables and the known-misses list (card names, no list text)."""
    kind = label["kind"]
    if kind == "card":
        if label.get("face_of"):
            return f"face of line {label['face_of']}"
        parts = []
        for count, name, section in card_items(label):
            parts.append(f"{count} {name if name is not None else '<no card>'} @{section}")
        return "card: " + "; ".join(parts) if parts else "card: nothing"
    if kind in ("header", "group"):
        return f"{kind} @{label.get('section')}"
    return kind


@dataclass
class ListScore:
    """One list read against its labels."""

    source: str
    name: str
    part: str
    lines: int = 0
    right: int = 0
    wrong: list[tuple[int, dict, dict]] = field(default_factory=list)
    """``(line, label, reading)`` of each line read otherwise than labelled."""
    confusion: Counter = field(default_factory=Counter)
    """``(labelled kind, read kind)`` -> lines; a line read as its kind but wrong (other cards, another
    section) is counted under the kind with a star (``("card", "card*")``)."""

    @property
    def key(self) -> str:
        return f"{self.source}/{self.name}"

    @property
    def whole(self) -> bool:
        return not self.wrong


def score_list(source: str, name: str, part: str, gold: dict[int, dict], read: dict[int, dict]) -> ListScore:
    result = ListScore(source, name, part)
    for number in sorted(gold):
        label, got = gold[number], read.get(number, {"kind": "other"})
        if not scored(label, got):
            continue
        result.lines += 1
        if same_reading(label, got):
            result.right += 1
            result.confusion[(label["kind"], got["kind"])] += 1
        else:
            result.wrong.append((number, label, got))
            kind = got["kind"] + ("*" if got["kind"] == label["kind"] else "")
            result.confusion[(label["kind"], kind)] += 1
    return result


class Mismatch(Exception):
    """A list's lines no longer match its labels (the list changed, or a label is missing)."""


def check_hashes(source: str, path: Path, gold: dict[int, dict]) -> None:
    lines = list_lines(path)
    if len(lines) != len(gold):
        raise Mismatch(f"{source}/{path.name}: {len(lines)} lines, {len(gold)} labels")
    for number, text in enumerate(lines, start=1):
        if gold[number]["hash"] != line_hash(text):
            raise Mismatch(f"{source}/{path.name}:{number}: the line's text changed since it was labelled")


@dataclass
class Run:
    """Every list scored: per source and part, the lines and lists read right."""

    lists: list[ListScore]

    def select(self, part: str | None = None, source: str | None = None) -> list[ListScore]:
        return [s for s in self.lists if (part is None or s.part == part) and (source is None or s.source == source)]

    @staticmethod
    def figures(scores: list[ListScore]) -> dict:
        lines = sum(s.lines for s in scores)
        right = sum(s.right for s in scores)
        whole = sum(s.whole for s in scores)
        return {
            "lists": len(scores), "lists_right": whole, "list_accuracy": whole / len(scores) if scores else None,
            "lines": lines, "lines_right": right, "line_accuracy": right / lines if lines else None,
        }

    def table(self) -> dict:
        """``{part: {source, "text" or "all": figures}}``; ``text`` is the sources of text lists
        (a .ydk has one passcode per line, and its many lines would swamp the figure)."""
        out: dict = {}
        for part in PARTS:
            rows = {source: self.figures(self.select(part, source)) for source in SOURCES if self.select(part, source)}
            rows["text"] = self.figures([s for s in self.select(part) if SOURCES[s.source].pattern == "*.txt"])
            rows["all"] = self.figures(self.select(part))
            out[part] = rows
        return out

    def confusion(self, part: str) -> Counter:
        total: Counter = Counter()
        for score in self.select(part):
            total.update(score.confusion)
        return total

    def misses(self, part: str) -> dict[str, dict[int, str]]:
        """``source/list`` -> line -> "labelled -> read", of the lines read wrong in ``part``."""
        return {s.key: {n: miss_text(g, r) for n, g, r in s.wrong} for s in self.select(part) if s.wrong}


def run(reader: Reader, sources: Iterable[str] = SOURCES, split: dict[str, str] | None = None) -> Run:
    """Read and score every labelled list of ``sources``."""
    split = load_split() if split is None else split
    scores = []
    for source, path in real_lists(sources):
        key = key_of(source, path)
        if not label_path(source, path.name).exists():
            raise Mismatch(f"{key}: no labels (tests/data/real_list_labels/{source}/{path.name}.yaml)")
        if key not in split:
            raise Mismatch(f"{key}: in no part of SPLIT.yaml")
        gold = load_labels(source, path.name)
        check_hashes(source, path, gold)
        scores.append(score_list(source, path.name, split[key], gold, reader.predict(source, path)))
    return Run(scores)


# --- the label files ---------------------------------------------------------------------------


def _flow(value: Any) -> str:
    """A value in YAML flow style (JSON's form for scalars: every string quoted, so a hash such
    as ``12345678`` or ``1e234567`` stays a string)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


_FIELD_ORDER = ("line", "hash", "kind", "cards", "face_of", "section", "name", "note")


def render_labels(source: str, name: str, labels: dict[int, dict]) -> str:
    """A label file: a header comment, then one line per line of the list."""
    head = (f"# What a judge reads on each line of {source}/{name} (../shared/data/real-decklists).\n"
            "# Schema and conventions: README.md in this folder. The list's text is not copied here.\n")
    body = [f"source: {_flow(source)}", f"list: {_flow(name)}", "lines:"]
    for number in sorted(labels):
        label = labels[number]
        ordered = {k: label[k] for k in _FIELD_ORDER if k in label}
        ordered.update({k: v for k, v in label.items() if k not in ordered})
        body.append("- " + _flow(ordered))
    return head + "\n".join(body) + "\n"
