"""Known decks written in the shapes players publish them in (issue 28): the writer behind the
shape suite (tests/test_shape_suite.py), the mutation suite (tests/test_mutation_suite.py, with
tests/deck_mutations.py) and benchmarks/mutation_hunt.py.

A :class:`Deck` is what a judge reads off a list: its sections (ids of the format), and in each
the cards with their copies, by canonical name. Decks come from forcecheck's own reading of a
known legal list (``read_deck``), so the suites start from what the reader already agrees on.
A :class:`Shape` writes a Deck as text: counts before or after the name in every form the README
documents, headers of every kind, type groups, no headers at all, tables flattened by rows and by
columns, prose, one-line forum posts, Japanese forms, printing codes, bullets, Markdown, YAML and
``.ydk``. Every shape must read back to the deck's sections and fingerprint.

A shape that cannot say a deck (a list with no headers cannot put a magic stone in the main deck;
the Yu-Gi-Oh! catalog has no set codes) raises :class:`NotExpressible`; the suites skip that pair
and count it, never pass it. Writing is deterministic: no randomness, no set iteration.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

# --- the deck a judge reads ---------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line of a list: ``count`` copies of the card ``name`` (canonical, or as written when
    the line names no card). A mutation may write one line another way than its shape does."""

    count: int
    name: str
    form: str | None = None
    """A key of COUNT_FORMS to write this line in, whatever the shape's own form."""
    prefix: str = ""
    """Text before the card on the same line (a title-like ``Top 8: ``)."""
    raw: str | None = None
    """The whole line, written as is (a comment-like ``// 1 Name``); count and name say what it holds."""
    places_as: str | None = None
    """The card whose kind says where the line goes in a list with no headers (``name`` is then
    no card's name, as ``Faria // Melgis``)."""

    @property
    def card(self) -> str:
        return self.places_as or self.name


@dataclass(frozen=True)
class Deck:
    key: str
    """Short name of the deck in test ids and reports (``faria``, ``ygo-synchro``)."""
    game: str
    format: str
    sections: tuple[tuple[str, tuple[Line, ...]], ...]
    """(section id, lines) in the format's order; only sections with cards."""
    order: tuple[str, ...] = ()
    """Every section id of the format, in its order (where a new section goes)."""
    top: tuple[Line, ...] = ()
    """Lines above everything else (a card on a title-like first line)."""
    title: str = "Knights of the Round"
    player: str = "Jane Doe"
    banlist: str | None = None
    """The banlist the deck is judged with (a name the suites' format caches know), or None: the format's own."""

    def section(self, section_id: str) -> tuple[Line, ...]:
        return dict(self.sections).get(section_id, ())

    def ids(self) -> list[str]:
        return [section_id for section_id, _ in self.sections]

    def with_section(self, section_id: str, lines: Iterable[Line]) -> Deck:
        """The deck with ``section_id`` holding ``lines`` (added in the format's order; dropped when empty)."""
        lines = tuple(lines)
        current = dict(self.sections)
        current[section_id] = lines
        ordered = [s for s in self.order if s in current] + [s for s in current if s not in self.order]
        return dataclasses.replace(self, sections=tuple((s, current[s]) for s in ordered if current[s]))

    def replace(self, **changes) -> Deck:
        return dataclasses.replace(self, **changes)

    def copies(self, name: str, sections: Iterable[str] | None = None) -> int:
        wanted = None if sections is None else set(sections)
        return sum(line.count for section_id, lines in self.sections if wanted is None or section_id in wanted
                   for line in lines if line.name == name)

    def size(self, section_id: str) -> int:
        return sum(line.count for line in self.section(section_id))


class NotExpressible(Exception):
    """This shape cannot say this deck (the pair is skipped and counted, never passed)."""


# --- what the writer knows of a card -------------------------------------------------------------

JA_TITLES = {"ruler": "ルーラー", "main": "メインデッキ", "stones": "魔石デッキ", "extra": "エクストラデッキ",
             "rune": "ルーンデッキ", "stranger": "ストレンジャーデッキ", "side": "サイドデッキ"}


class Facts:
    """The card facts a writer needs, from the catalog the suite checks with: card kinds (type
    groups, where a card under no header goes), names in Japanese, printing codes, passcodes."""

    def __init__(self, catalog, fmt, caps: dict[str, int] | None = None, combinations: list[list[str]] | None = None):
        self.catalog = catalog
        self.fmt = fmt
        self.caps = caps or {}
        """Card name -> copies the deck's banlist allows (0: banned / Forbidden)."""
        self.combinations = combinations or []
        """Combination bans, as card names."""
        self.game = fmt.spec.game
        self.titles = dict(fmt.titles)
        self.other_titles = {s.id: next((a for a in s.aliases if a.isascii() and a.lower() != s.title.lower()), s.title)
                             for s in fmt.spec.sections}
        """Each section's first other ASCII title in the format file (``Magic Stones``, ``Side Deck``)."""
        sideboard = fmt.spec.sideboard
        self.follows = tuple(sideboard.follows or ()) if sideboard else ()
        self._cards: dict[str, object] = {}
        self._names: list[str] | None = None
        self._exact: set[str] | None = None
        self._pools: dict[str, list[str]] = {}

    def names(self) -> list[str]:
        """Every card name of the game in the catalog, sorted."""
        if self._names is None:
            cards = self.catalog.cards(self.game)
            self._cards.update((c.name, c) for c in cards)
            self._names = sorted(c.name for c in cards)
        return self._names

    def exact(self, written: str) -> bool:
        """Some card of the game is named exactly this (an alias too), apart from case and punctuation."""
        from forcecheck.cards.names import normalize_name

        if self._exact is None:
            self.names()
            self._exact = {normalize_name(n) for c in self._cards.values() if c is not None for n in (c.name, *c.aliases)}
        return normalize_name(written) in self._exact

    def pool(self, section_id: str, deck: Deck) -> list[str]:
        """Cards of the catalog that fit the section and carry no text of their own about copies or
        the deck (to make a section larger), not on the banlist, not in the deck."""
        if section_id not in self._pools:
            self._pools[section_id] = [n for n in self.names() if self._fits(n, section_id)]
        return [n for n in self._pools[section_id] if deck.copies(n) == 0]

    def _fits(self, name: str, section_id: str) -> bool:
        card = self.card(name)
        kinds = self.kinds(name)
        if name in self.caps or card.conditions or card.copy_limit is not None or card.unlimited_copies or card.unchecked:
            return False
        if kinds & {"token", "xyz", "link", "pendulum", "j-ruler", "sub-ruler"} or (self.game == "fow" and not card.printings):
            return False
        if section_id in ("main", "side"):
            return self.placed(name) == self.fmt.rest and not kinds & {"ruler", "stranger"}
        if section_id == "stones":
            return "basic-magic-stone" in kinds
        if section_id == "stranger":
            return "stranger" in kinds and "resonator" in kinds
        if section_id == "rune":
            return "rune" in kinds and "chant" not in kinds and "master-rune" not in kinds
        if section_id == "extra":
            return bool(kinds & {"synchro", "fusion"}) if self.game == "ygo" else {"chant", "story"} <= kinds
        return False

    def card(self, name: str):
        if name not in self._cards:
            self._cards[name] = self.catalog.by_name(self.game, name)
        return self._cards[name]

    def kinds(self, name: str) -> frozenset[str]:
        card = self.card(name)
        return frozenset() if card is None else frozenset(card.types) | frozenset(card.subtypes)

    def name(self, name: str, lang: str | None = None) -> str:
        card = self.card(name)
        return card.name_in(lang) if card is not None and lang else name

    def code(self, name: str) -> str | None:
        """A printing code a Force of Will list writes beside the name (``SDAO1-026``); Yu-Gi-Oh!
        passcodes are no printing code a list prints."""
        card = self.card(name)
        if card is None or self.game != "fow":
            return None
        return next((p for p in card.printings if re.fullmatch(r"[A-Z0-9]+-[A-Z0-9]*\d[A-Z0-9]*", p) and not p.endswith("J")), None)

    def passcode(self, name: str) -> str | None:
        card = self.card(name)
        if card is None or self.game != "ygo":
            return None
        return next((p for p in card.printings if p.isdigit()), None)

    def other_face(self, name: str) -> str | None:
        """The J-ruler face of a ruler (``Faria [J-Ruler]``): the name its J printing bears."""
        card = self.card(name)
        if card is None or not any(p.endswith("J") for p in card.printings):
            return None
        return card.faces[1].name if len(card.faces) > 1 else next(iter(card.aliases), None)

    def group(self, name: str, section_id: str) -> str:
        """The type group a list heads this card with (Resonators / Chants, Monsters / Spells / Traps)."""
        kinds = self.kinds(name)
        if self.game == "ygo":
            if section_id == "extra":
                return "fusion" if "fusion" in kinds else "synchro"
            return "monster" if "monster" in kinds else "spell" if "spell" in kinds else "trap" if "trap" in kinds else "other"
        if "ruler" in kinds:
            return "ruler"
        if "resonator" in kinds:
            return "resonator"
        if "chant" in kinds:
            return "chant"
        if "addition" in kinds:
            return "addition"
        if "regalia" in kinds:
            return "regalia"
        return "other"

    def placed(self, name: str) -> str:
        """The section a card written under no header goes to: the first of the format's
        ``placement`` selectors that takes it, else its ``rest`` section (README "Placement")."""
        card = self.card(name)
        if card is not None:
            for section_id, takes in self.fmt.placements:
                if takes(card):
                    return section_id
        return self.fmt.rest


GROUP_ORDER = ["ruler", "resonator", "chant", "addition", "regalia", "monster", "spell", "trap", "synchro", "fusion", "other"]
GROUP_TITLES = {
    "ruler": "Rulers in the Deck", "resonator": "Resonators", "chant": "Chants", "addition": "Additions", "regalia": "Regalia", "other": "Others",
    "monster": "Monsters", "spell": "Spells", "trap": "Traps", "synchro": "Synchro Monsters", "fusion": "Fusion Monsters",
}
JA_GROUP_TITLES = {"ruler": "ルーラー", "monster": "モンスター", "spell": "魔法", "trap": "罠", "synchro": "シンクロ", "fusion": "融合",
                   "resonator": "レゾネーター", "chant": "チャント", "addition": "付与", "regalia": "リーガリア", "other": "その他"}
KIND_GROUP_TITLES = {"ruler": "Rulers in the Deck", "synchro": "Synchros", "fusion": "Fusions", "monster": "Monster Cards", "spell": "Spell Cards",
                     "trap": "Trap Cards", "resonator": "Resonator", "chant": "Chant", "addition": "Additions",
                     "regalia": "Regalias", "other": "Other"}
"""Group headers in other spellings: plural of the kind, singular, "Cards" (issue 28: derived from card kinds)."""

# --- count forms ---------------------------------------------------------------------------------

COUNT_FORMS = {
    "plain": "{c} {n}",
    "count-x": "{c}x {n}",
    "count-space-x": "{c} x {n}",
    "x-count-dash": "x{c} \u2013 {n}",
    "name-x": "{n} x{c}",
    "name-times": "{n} \u00d7{c}",
    "name-mai": "{n} {c}\u679a",
    "name-paren-x": "{n} (x{c})",
    "kakko": "{c}\u300a{n}\u300b",
    "count-colon": "{c}: {n}",
    "count-paren": "{c}) {n}",
    "count-dot": "{c}. {n}",
    "count-hyphen": "{c}- {n}",
    "count-endash": "{c} \u2013 {n}",
    "name-bracket": "{n} [{c}]",
    "name-paren": "{n} ({c})",
    "name-hyphen": "{n} - {c}",
    "paren-count": "({c}) {n}",
    "pcs-code": "{c}pcs {n} ({code})",
    "fullwidth": "{n}\u3000\u00d7{C}",
    "tab": "{c}\t{n}",
    "ja-colon": "{c}:{n}",
    "ja-fullwidth-colon": "{n}\uff1a{c}",
    "ja-times": "{n}\u00d7{c}",
    "ja-space-mai": "{n} {c}\u679a",
    "code-after": "{c} {n} ({code})",
    "code-before": "{c} {code} {n}",
    "bracket-code-x": "{n} [{code}] x{c}",
}
"""Every way a count (and a printing code) is written beside a name: the README's "Decklists"
forms, and those issue 28 found read wrong. ``{c}`` count, ``{C}`` the count in full-width
digits, ``{n}`` name, ``{code}`` printing code."""

FORMS_FOR_GAME = {"paren-count": {"ygo"}, "pcs-code": {"fow"}, "code-after": {"fow"}, "code-before": {"fow"},
                  "bracket-code-x": {"fow"}}
"""Forms only one game writes: ``(4) Name`` is a cost in Force of Will; Yu-Gi-Oh! catalogs have no set codes."""


def fullwidth(number: int) -> str:
    return "".join(chr(0xFF10 + int(d)) for d in str(number))


def written(line: Line, form: str, facts: Facts, lang: str | None = None) -> str:
    """The text of one card line in ``form`` (the line's own form first)."""
    if line.raw is not None:
        return line.raw
    key = line.form or form
    if facts.game not in FORMS_FOR_GAME.get(key, {facts.game}):
        raise NotExpressible(f"{key} is not a {facts.game} form")
    template = COUNT_FORMS[key]
    code = None
    if "{code}" in template:
        code = facts.code(line.name)
        if code is None:
            raise NotExpressible(f"no printing code for {line.name}")
    return line.prefix + template.format(c=line.count, C=fullwidth(line.count), n=facts.name(line.name, lang), code=code)


# --- shapes --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    name: str
    write: Callable[[Deck, Facts], str]
    games: frozenset[str]
    example: str
    """What it looks like, in one line (reports and the README of the suite)."""
    placed: bool = False
    """Sections are said by what the cards are (no headers, a flattened table), not by headers."""
    suffix: str = ".txt"

    def render(self, deck: Deck, facts: Facts) -> str:
        if deck.game not in self.games:
            raise NotExpressible(f"{self.name} is not a {deck.game} shape")
        if self.placed:
            check_placeable(deck, facts)
        return self.write(deck, facts)


SHAPES: dict[str, Shape] = {}


def shape(name: str, example: str, games: Iterable[str] = ("fow", "ygo"), placed: bool = False, suffix: str = ".txt"):
    def register(write):
        SHAPES[name] = Shape(name, write, frozenset(games), example, placed, suffix)
        return write

    return register


def check_placeable(deck: Deck, facts: Facts) -> None:
    """A list with no headers says a section only by what its cards are (README "Placement"): every
    card must go where it is, and the sideboard is the block after the stone deck / extra deck."""
    for section_id, lines in deck.sections:
        for line in lines:
            where = facts.placed(line.card)
            if section_id == "side":
                if where != facts.fmt.rest:
                    raise NotExpressible(f"{line.name} in the sideboard would be placed in {where}")
            elif where != section_id:
                raise NotExpressible(f"{line.name} in {section_id} would be placed in {where}")
    for line in deck.top:
        if facts.placed(line.card) != facts.fmt.rest:
            raise NotExpressible("a top line that is not a main deck card")
    if deck.section("side") and not any(deck.section(s) for s in facts.follows):
        raise NotExpressible(f"a sideboard with no {' or '.join(facts.follows) or 'section'} to follow")


def split_raw(lines: Iterable[Line]) -> tuple[list[Line], list[Line]]:
    cards, raws = [], []
    for line in lines:
        (raws if line.raw is not None else cards).append(line)
    return cards, raws


def top_lines(deck: Deck, form: str, facts: Facts, lang: str | None = None) -> list[str]:
    return [written(line, form, facts, lang) for line in deck.top]


def sectioned(deck: Deck, facts: Facts, form: str = "plain", header: Callable[[str, str, int], str] | None = None,
              lang: str | None = None, bullet: Callable[[int], str] | None = None, titles: dict[str, str] | None = None,
              ruler_inline: str | None = None, blank: bool = True, groups: Callable[[str], str | None] | None = None,
              group_header: Callable[[str, int, int], str] | None = None, main_header: bool = True,
              lead: Iterable[str] = (), between: dict[str, list[str]] | None = None,
              annotate: Callable[[int], str] | None = None) -> str:
    """One header per section, then its cards one a line: the common shape, with its variations
    (``annotate``: what a shop's list writes after the n-th card line, a price or a rarity)."""
    def after(number: int) -> str:
        return annotate(number) if annotate else ""

    header = header or (lambda sid, title, n: f"{title}:")
    titles = titles or facts.titles
    out = top_lines(deck, form, facts, lang) + list(lead)
    number = 0
    for section_id, lines in deck.sections:
        if out and blank and out[-1] != "":
            out.append("")
        out += (between or {}).get(section_id, [])
        title = titles.get(section_id, facts.titles.get(section_id, section_id))
        size = sum(line.count for line in lines if line.raw is None)
        if section_id == "ruler" and ruler_inline and len(lines) == 1 and lines[0].count == 1 and lines[0].raw is None:
            out.append(ruler_inline.format(title=title, name=lines[0].prefix + facts.name(lines[0].name, lang)))
            continue
        group_of = groups(section_id) if groups else None
        if main_header or not group_of:
            out.append(header(section_id, title, size))
        if group_of:
            cards, raws = split_raw(lines)
            order: dict[str, list[Line]] = {}
            for line in cards:
                order.setdefault(group_of(line.card), []).append(line)
            for group, members in sorted(order.items(), key=lambda item: GROUP_ORDER.index(item[0])):
                out.append(group_header(group, sum(m.count for m in members), size))
                for line in members:
                    out.append((bullet(number) if bullet else "") + written(line, form, facts, lang) + after(number))
                    number += 1
            out += [line.raw for line in raws]
            continue
        for line in lines:
            out.append((bullet(number) if bullet else "") + written(line, form, facts, lang) + after(number)
                       if line.raw is None else line.raw)
            number += 1
    return "\n".join(out) + "\n"


# Count forms: every line of the list in one form, under plain headers.
for _form, _example in [
    ("plain", "4 Name"), ("count-x", "4x Name"), ("count-space-x", "4 x Name"), ("x-count-dash", "x4 \u2013 Name"),
    ("name-x", "Name x4"), ("name-times", "Name \u00d74"), ("name-mai", "Name 4\u679a"), ("name-paren-x", "Name (x4)"),
    ("kakko", "4\u300aName\u300b"), ("count-colon", "4: Name"), ("count-paren", "4) Name"), ("count-dot", "4. Name"),
    ("count-hyphen", "4- Name"), ("count-endash", "4 \u2013 Name"), ("name-bracket", "Name [4]"), ("name-paren", "Name (4)"),
    ("name-hyphen", "Name - 4"), ("paren-count", "(4) Name (Yu-Gi-Oh!)"), ("pcs-code", "4pcs Name (SDAO1-031)"),
    ("fullwidth", "Name\u3000\u00d7\uff14"), ("tab", "4<TAB>Name"), ("code-after", "4 Name (SDAO1-031)"),
    ("code-before", "4 SDAO1-031 Name"), ("bracket-code-x", "Name [SDAO1-031] x4"),
]:
    shape(_form, _example, games=FORMS_FOR_GAME.get(_form, ("fow", "ygo")))(
        lambda deck, facts, _form=_form: sectioned(deck, facts, _form))


# Japanese lists: Japanese card names where the catalog has them, Japanese headers and counts.
def _ja_header(section_id: str, title: str, n: int) -> str:
    return f"\u3010{JA_TITLES.get(section_id, title)}\u3011\uff08{n}\u679a\uff09"


for _form, _example, _header in [
    ("ja-colon", "3:\u540d (\u30e1\u30a4\u30f3\u30c7\u30c3\u30ad:)", lambda sid, t, n: f"{JA_TITLES.get(sid, t)}:"),
    ("ja-fullwidth-colon", "\u540d\uff1a3 (\u3010\u30e1\u30a4\u30f3\u30c7\u30c3\u30ad\u3011)", lambda sid, t, n: f"\u3010{JA_TITLES.get(sid, t)}\u3011"),
    ("ja-times", "\u540d\u00d73 (\u3010\u30e1\u30a4\u30f3\u30c7\u30c3\u30ad\u3011\uff0840\u679a\uff09)", _ja_header),
    ("ja-space-mai", "\u540d 3\u679a (\u25a0\u30e1\u30a4\u30f3\u30c7\u30c3\u30ad40\u679a)", lambda sid, t, n: f"\u25a0{JA_TITLES.get(sid, t)}{n}\u679a"),
]:
    shape(_form, _example)(lambda deck, facts, _form=_form, _header=_header: sectioned(deck, facts, _form, _header, lang="ja"))


@shape("ja-kakko-groups", "3\u300a\u540d\u300b under \u30e2\u30f3\u30b9\u30bf\u30fc(19) / \u9b54\u6cd5(10) / \u7f60(11)", games=("ygo",))
def _ja_groups(deck: Deck, facts: Facts) -> str:
    return sectioned(deck, facts, "kakko", _ja_header, lang="ja", groups=lambda sid: (lambda n: facts.group(n, sid)) if sid in ("main", "side") else None,
                     group_header=lambda g, n, total: f"{JA_GROUP_TITLES[g]}({n})")


# Headers of every kind.
shape("header-counted", "Main Deck (40):")(lambda d, f: sectioned(d, f, "plain", lambda sid, t, n: f"{t} ({n}):"))
shape("header-x-count", "Main Deck x 40")(lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"{t} x {n}"))
shape("header-colon-count", "Main Deck: 40")(lambda d, f: sectioned(d, f, "plain", lambda sid, t, n: f"{t}: {n}"))
shape("header-caps-dash", "MAIN DECK - 40")(lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"{t.upper()} - {n}"))
shape("header-dash-prefix", "-Sideboard")(lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"-{t}"))
shape("header-markdown", "## Main Deck, - 4x Name")(
    lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"## {t}", bullet=lambda i: "- "))
shape("header-bold", "**Ruler:** Faria, **Main Deck (40)**")(
    lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"**{t} ({n})**", ruler_inline="**{title}:** {name}"))
shape("header-brackets-ja", "\u3010\u30e1\u30a4\u30f3\u30c7\u30c3\u30ad\u3011\uff0840\u679a\uff09 above English names")(
    lambda d, f: sectioned(d, f, "name-x", _ja_header))
shape("header-other-titles", "each section's first other title in the format file: Rulers:, Magic Stones:, Side Deck:")(
    lambda d, f: sectioned(d, f, "plain", titles=f.other_titles))
shape("header-no-blank-lines", "headers with no blank line between sections")(lambda d, f: sectioned(d, f, "count-x", blank=False))
shape("ruler-inline", "Ruler: Faria", games=("fow",))(lambda d, f: sectioned(d, f, "plain", ruler_inline="{title}: {name}"))


def _ruler_faces(deck: Deck, facts: Facts, style: str) -> str:
    rulers = deck.section("ruler")
    if len(rulers) != 1 or rulers[0].count != 1 or rulers[0].raw is not None:
        raise NotExpressible("one ruler, once")
    name = rulers[0].name
    face = facts.other_face(name)
    if face is None:
        raise NotExpressible(f"{name} has no J-ruler face")
    code = facts.code(name)
    if style == "slash":
        ruler = [f"Ruler: {name} // {face}"]
    elif style == "two-lines":
        ruler = [f"Ruler: {name}", f"J-Ruler: {face}"]
    else:
        if code is None:
            raise NotExpressible(f"no printing code for {name}")
        ruler = ["Ruler:", f"{name} ({code}) //", f"{face} ({code}J)"]
    return sectioned(deck.with_section("ruler", ()), facts, "count-x", lead=ruler)


shape("ruler-j-face", "Ruler: Faria // Faria [J-Ruler]", games=("fow",))(lambda d, f: _ruler_faces(d, f, "slash"))
shape("ruler-j-two-lines", "Ruler: Faria, then J-Ruler: Faria [J-Ruler]", games=("fow",))(lambda d, f: _ruler_faces(d, f, "two-lines"))
shape("ruler-j-codes", "Faria (SDAO1-026) //, then Faria [J-Ruler] (SDAO1-026J)", games=("fow",))(lambda d, f: _ruler_faces(d, f, "codes"))


# Type groups inside sections.
def _groups_in(sections: Iterable[str], facts: Facts):
    wanted = set(sections)
    return lambda sid: (lambda n: facts.group(n, sid)) if sid in wanted else None


shape("groups", "Main Deck (40): Monsters (19) / Spells (10) / Traps (11); Resonators (20) / Chants (20)")(
    lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"{t} ({n}):", groups=_groups_in(("main", "side") if f.game == "ygo" else ("main",), f),
                           group_header=lambda g, n, total: f"{GROUP_TITLES[g]} ({n})"))
shape("groups-no-main-header", "Monsters: 19 / Spells: 10 / Traps: 11 with no Main Deck header")(
    lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"{t}: {n}", groups=_groups_in(("main",), f),
                           group_header=lambda g, n, total: f"{GROUP_TITLES[g]}: {n}", main_header=False))
shape("groups-of-total", "Resonators: (20 of 40) with no Main Deck header")(
    lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"{t} ({n})", groups=_groups_in(("main",), f),
                           group_header=lambda g, n, total: f"{GROUP_TITLES[g]}: ({n} of {total})", main_header=False))
shape("groups-kinds", "Synchros (13): / Fusions (1): in the extra deck, Monster Cards / Spell Cards in the main deck")(
    lambda d, f: sectioned(d, f, "count-x", lambda sid, t, n: f"{t}:", groups=_groups_in(("main", "extra"), f),
                           group_header=lambda g, n, total: f"{KIND_GROUP_TITLES[g]} ({n}):"))


# No headers at all: blocks separated by blank lines, each card where it can only go.
def headerless(deck: Deck, facts: Facts, form: str = "plain", lead: Iterable[str] = (), tail: Iterable[str] = (),
               ruler_first: bool = True) -> str:
    out = top_lines(deck, form, facts) + list(lead)
    for section_id, lines in deck.sections:
        if out and out[-1] != "":
            out.append("")
        if section_id == "main":
            cards, raws = split_raw(lines)
            blocks: dict[str, list[Line]] = {}
            for line in cards:
                blocks.setdefault(facts.group(line.card, "main"), []).append(line)
            for index, (_group, members) in enumerate(sorted(blocks.items(), key=lambda item: GROUP_ORDER.index(item[0]))):
                if index:
                    out.append("")
                out += [written(line, form, facts) for line in members]
            out += [line.raw for line in raws]
            continue
        out += [written(line, form, facts) for line in lines]
    out += list(tail)
    return "\n".join(out) + "\n"


shape("no-headers", "blank-line blocks, no header at all", placed=True)(lambda d, f: headerless(d, f, "plain"))
shape("no-headers-titled", "a title, Player:, Event:, blank-line blocks in mixed count forms, Total: N",
      placed=True)(lambda d, f: headerless(d, f, "count-x", lead=[d.title, f"Player: {d.player}", "Event: Store Championship"],
                                           tail=[f"Total: {sum(line.count for _, ls in d.sections for line in ls)}"]))


# Tables flattened by a web page.
TABLE_COLUMNS = {"fow": [("main", "Main Deck"), ("stones", "Stone Deck"), ("side", "Side Board")],
                 "ygo": [("main", "Main Deck"), ("extra", "Extra Deck"), ("side", "Side Deck")]}


def _table_rest(deck: Deck, facts: Facts, columns: list[str]) -> tuple[list[str], list[str]]:
    """Lines above the table (the ruler) and below it (sections that are no column), with headers."""
    above, below = top_lines(deck, "plain", facts), []
    for section_id, lines in deck.sections:
        if section_id in columns:
            continue
        target = above if section_id == "ruler" else below
        target += ([""] if target and section_id != "ruler" else []) + [f"{facts.titles[section_id]}:"]
        target += [written(line, "plain", facts) for line in lines]
    for section_id in columns:  # comment-like lines are no table cell: after the table
        below += [line.raw for line in deck.section(section_id) if line.raw is not None]
    return above, below


@shape("table-rows", "Main Deck Stone Deck Side Board, then rows '4 A 4 B 3 C' (a table flattened row by row)", placed=True)
def _table_rows(deck: Deck, facts: Facts) -> str:
    columns = [(sid, title) for sid, title in TABLE_COLUMNS[deck.game] if deck.section(sid)]
    if len(columns) < 2:
        raise NotExpressible("a table of one column")
    cells = [[written(line, "plain", facts) for line in split_raw(deck.section(sid))[0]] for sid, _ in columns]
    above, below = _table_rest(deck, facts, [sid for sid, _ in columns])
    rows = [" ".join(column[i] for column in cells if i < len(column)) for i in range(max(map(len, cells)))]
    return "\n".join(above + ([""] if above else []) + [" ".join(t for _, t in columns)] + rows + ([""] + below if below else [])) + "\n"


@shape("table-columns", "Main Deck Stone Deck Side Board / Monsters Spells Traps Side Deck Extra Deck, then each column's cells",
       placed=True)
def _table_columns(deck: Deck, facts: Facts) -> str:
    if deck.game == "fow":
        columns = [(sid, title, list(split_raw(deck.section(sid))[0])) for sid, title in TABLE_COLUMNS["fow"] if deck.section(sid)]
    else:
        main = split_raw(deck.section("main"))[0]
        columns = [("main", GROUP_TITLES[g], [line for line in main if facts.group(line.card, "main") == g])
                   for g in ("monster", "spell", "trap")]
        if any(facts.group(line.card, "main") == "other" for line in main):
            raise NotExpressible("a main deck card that is no monster, spell or trap")
        side = list(split_raw(deck.section("side"))[0])
        side.sort(key=lambda line: facts.group(line.card, "main") == "trap")  # a trap first would be read as the Traps column's
        if side and facts.group(side[0].name, "main") == "trap":
            raise NotExpressible("a side deck of traps only")
        columns += [("side", "Side Deck", side), ("extra", "Extra Deck", list(split_raw(deck.section("extra"))[0]))]
        columns = [c for c in columns if c[2]]
    if len(columns) < 2:
        raise NotExpressible("a table of one column")
    above, below = _table_rest(deck, facts, [sid for sid, _, _ in columns])
    body = [written(line, "count-x", facts) for _, _, lines in columns for line in lines]
    return "\n".join(above + ([""] if above else []) + [" ".join(t for _, t, _ in columns)] + body + ([""] + below if below else [])) + "\n"


def markdown_table(deck: Deck, facts: Facts, rule: str) -> str:
    out = top_lines(deck, "plain", facts)
    for section_id, lines in deck.sections:
        cards, raws = split_raw(lines)
        out += ["", f"## {facts.titles[section_id]}", "", "| Qty | Card | Type |", rule]
        for line in cards:
            kind = KIND_LABELS.get(facts.group(line.card, section_id), "Card")
            if line.form or line.prefix:
                raise NotExpressible("a table cell holds a count, not a count form")
            out.append(f"| {line.count} | {facts.name(line.name)} | {kind} |")
        out += [line.raw for line in raws]
    return "\n".join(out).lstrip("\n") + "\n"


KIND_LABELS = {"ruler": "Ruler", "resonator": "Resonator", "chant": "Chant", "addition": "Addition", "regalia": "Regalia",
               "monster": "Monster", "spell": "Spell", "trap": "Trap", "synchro": "Synchro", "fusion": "Fusion"}
shape("markdown-table", "## Main Deck, then | Qty | Card | Type | rows under |---|---|---|")(
    lambda d, f: markdown_table(d, f, "|---|---|---|"))
shape("markdown-table-aligned", "a Markdown table whose rule row aligns its columns: |--:|:--|:--|")(
    lambda d, f: markdown_table(d, f, "|--:|:--|:--|"))


# Prose around and inside the list.
shape("prose-above", "Here's what Jane is playing: / Take a look at her Decklist: above the list")(
    lambda d, f: sectioned(d, f, "count-x", lead=[f"Here's what {d.player} is playing:", "Take a look at her Decklist:"]))
shape("prose-inside", "a question between two sections of the list")(
    lambda d, f: sectioned(d, f, "plain", between={d.sections[-1][0]: ["I am not sure about this part, what would you change?", ""]}
                           if len(d.sections) > 1 else None))
shape("prose-after", "Thanks in advance, / a blog footer after the list")(
    lambda d, f: sectioned(d, f, "count-x") + "\nThanks in advance,\nJane\n\nPosted by Jane Doe in Deck Lists\nShare this post\n")



def _a_card_of(deck: Deck) -> str:
    """A card the deck plays, by its English name: prose about the deck names its cards."""
    for section_id, lines in deck.sections:
        for line in lines:
            if line.raw is None and section_id != "ruler":
                return line.name
    return deck.sections[0][1][0].name


def _paragraph(deck: Deck) -> str:
    card = _a_card_of(deck)
    return (f"Hello everyone, this is {deck.player}'s report from the regional qualifier held last weekend at the local game "
            f"store. I played this deck, which I have been testing for weeks with my friends, and I think it did quite well "
            f"against the field, which was mostly aggressive decks. I went 5-1 in the swiss rounds and then lost in the top 8 "
            f"to a deck that drew its best cards every game, so spots in the Top 8 went to two copies of the same deck. "
            f"{card} was the best card all day, and I would play it again. The store was packed and the judges were "
            f"friendly, and I want to thank them all for the day.")


# The shapes of a page (issue 38): a long paragraph, an info block, a NOTES section, a heading that names a card.
shape("prose-paragraph", "a paragraph of 500+ characters above the list and another after it")(
    lambda d, f: _paragraph(d) + "\n\n" + sectioned(d, f, "count-x") + "\n" + _paragraph(d) + "\n")
shape("prose-info-block", "Time: 2:00pm - 6:30pm / Entrance Fee: $5 / First place: 6 packs / 1st match- A VS. B above the list")(
    lambda d, f: "\n".join(["Regional Qualifier Report", "Time: 2:00pm - 6:30pm", "Entrance Fee: $5", "First place: 6 packs",
                            "Players: 32", "", "1st match- Zombie VS. Rookie", "2nd match- Plants VS. Rookie", ""])
    + sectioned(d, f, "plain"))
shape("prose-notes-section", "the list, then a NOTES heading over sentences that name the deck's cards")(
    lambda d, f: sectioned(d, f, "count-x") + "\nNOTES\n" + f"I cut one {_a_card_of(d)} for the side deck after round 3.\n"
    + "The deck is weak to fast starts, so I side in more removal.\n")
shape("prose-heading-card", "a heading that names a card ('Why I play {card}') over a paragraph, then the list")(
    lambda d, f: f"Why I play {_a_card_of(d)}\n{_paragraph(d)}\n\nAbout the Deck\n\n" + sectioned(d, f, "plain"))

_PRICES = (" - $2.49 ea", " (Super Rare) - $9.99", " - $0.25", " (Rare)", " - $1.00 each")


def _report(deck: Deck) -> str:
    """What a tournament report or a blog post writes under its list: the rounds, comments, an archive."""
    return ("\nThanks for reading! Questions? Leave a comment.\n\nHow I did:\nRound 1 vs. Burn - win 2-0, he never saw his outs\n"
            "Round 2 vs. Zombies - 2-1\nTop 4 vs. Chaos - 2-0\n\nPosted by " + deck.player + " at 10:42 PM\n3 comments:\n\n"
            "Blog Archive\n► 2009 (12)\n▼ 2008 (34)\n▼ December (3)\nLocals report 11/29\n")


# The shapes of a page (issue 38), more of them: a report, comments and an archive after the list,
# numbered rounds under a heading, a shop's prices and rarities after each card.
shape("page-report-after", "the list, then How I did: / Round 1 vs. Burn - 2-0 / Posted by ... / 3 comments: / ▼ 2008 (34)")(
    lambda d, f: sectioned(d, f, "count-x") + _report(d))
shape("page-rounds-heading", "the list, then Round by round: over 1. Burn - WW / 2. Zombies - WLW / 3. ID")(
    lambda d, f: sectioned(d, f, "plain") + "\nRound by round:\n\n1. Burn - WW\n2. Zombies - WLW\n3. ID\n\nThanks to:\nDave for the ride\n")
shape("page-prices", "4 Name - $2.49 ea, 3 Name (Super Rare) - $9.99: a shop's or a report's prices after each card")(
    lambda d, f: sectioned(d, f, "plain", annotate=lambda n: _PRICES[n % len(_PRICES)]))


# A whole section, or the whole deck, on one line (forum posts, a page collapsed into one line).
def one_line_sections(deck: Deck, facts: Facts, form: str, join: str, wrap: tuple[str, str] = ("", "")) -> str:
    out = top_lines(deck, form, facts)
    for section_id, lines in deck.sections:
        cards, raws = split_raw(lines)
        out += [f"{facts.titles[section_id]}:", wrap[0] + join.join(written(line, form, facts) for line in cards) + wrap[1]]
        out += [line.raw for line in raws]
    return "\n".join(out) + "\n"


shape("bbcode", "Main Deck: then [deck]4:Name, 3:Name[/deck]")(lambda d, f: one_line_sections(d, f, "ja-colon", ", ", ("[deck]", "[/deck]")))
shape("pipes", "Main Deck: then 4 Name | 3 Name | ...")(lambda d, f: one_line_sections(d, f, "plain", " | "))
shape("commas", "Main Deck: then 4x Name, 3x Name, ...")(lambda d, f: one_line_sections(d, f, "count-x", ", "))


@shape("whole-deck-line", "the whole deck on one line, no headers: 1 Ruler, 4x Name, 3x Name, ...", placed=True)
def _whole_deck_line(deck: Deck, facts: Facts) -> str:
    if deck.section("side"):
        raise NotExpressible("a sideboard needs a block of its own")
    cards = [line for _, lines in deck.sections for line in lines if line.raw is None]
    raws = [line.raw for _, lines in deck.sections for line in lines if line.raw is not None]
    return "\n".join(top_lines(deck, "count-x", facts) + [", ".join(written(line, "count-x", facts) for line in cards)] + raws) + "\n"


@shape("bbcode-whole-deck", "[deck]1:Ruler, 4:Name, 3:Name ...[/deck] on one line", placed=True)
def _bbcode_whole(deck: Deck, facts: Facts) -> str:
    if deck.section("side"):
        raise NotExpressible("a sideboard needs a block of its own")
    cards = [line for _, lines in deck.sections for line in lines if line.raw is None]
    raws = [line.raw for _, lines in deck.sections for line in lines if line.raw is not None]
    return "\n".join(top_lines(deck, "ja-colon", facts) + ["[deck]" + ", ".join(written(line, "ja-colon", facts) for line in cards) + "[/deck]"] + raws) + "\n"


# Bullets, metadata.
_BULLETS = ("- ", "\u2022 ", "* ")
shape("bullets", "- 4x Name / \u2022 Name x4 / * 4 Name, a bullet on every line")(
    lambda d, f: sectioned(d, f, "count-x", bullet=lambda i: _BULLETS[i % 3]))
shape("metadata", "title, Player:, Event:, Date:, then the list, Total: N after the main deck")(
    lambda d, f: sectioned(d, f, "plain", lead=[d.title, f"Player: {d.player}", "Event: Store Championship", "Date: 2016-05-01"])
    .replace(f"\n{'Magic Stone Deck' if f.game == 'fow' else 'Extra Deck'}:", f"Total: {d.size('main')}\n\n{'Magic Stone Deck' if f.game == 'fow' else 'Extra Deck'}:", 1))


# Files: YAML decklists and .ydk.
def yaml_scalar(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


@shape("yaml", "a YAML decklist: sections: Main Deck: - \"4 Name\"", suffix=".yaml")
def _yaml(deck: Deck, facts: Facts) -> str:
    if deck.top or any(line.raw is not None or line.prefix for _, lines in deck.sections for line in lines):
        raise NotExpressible("a YAML list has no free lines")
    out = [f"name: {yaml_scalar(deck.title)}", f"player: {yaml_scalar(deck.player)}", "sections:"]
    for section_id, lines in deck.sections:
        out.append(f"  {yaml_scalar(facts.titles[section_id])}:")
        out += [f"    - {yaml_scalar(written(line, 'plain', facts))}" for line in lines]
    return "\n".join(out) + "\n"


@shape("ydk", "#main / #extra / !side, one passcode a line", games=("ygo",), suffix=".ydk")
def _ydk(deck: Deck, facts: Facts) -> str:
    if deck.top or any(line.raw is not None or line.prefix or line.form for _, lines in deck.sections for line in lines):
        raise NotExpressible("a .ydk file has no free lines")
    out = ["#created by forcecheck's shape suite"]
    for section_id, marker in (("main", "#main"), ("extra", "#extra"), ("side", "!side")):
        out.append(marker)
        for line in deck.section(section_id):
            code = facts.passcode(line.name)
            if code is None:
                raise NotExpressible(f"no passcode for {line.name}")
            out += [code] * line.count
    return "\n".join(out) + "\n"


def reference_yaml(deck: Deck) -> str:
    """The deck as a YAML list of {name, count} mappings: no count or name to read, only to take."""
    out = ["sections:"]
    for section_id, lines in deck.sections:
        out.append(f"  {section_id}:")
        out += [f"    - {{name: {yaml_scalar(line.name)}, count: {line.count}}}" for line in lines if line.raw is None]
    return "\n".join(out) + "\n"


# --- reading back --------------------------------------------------------------------------------


@dataclass
class ReadBack:
    """What forcecheck read of one text."""

    sections: dict
    fingerprint: str | None
    legal: bool
    errors: list = field(default_factory=list)
    """(code, line, message) of each error-severity violation."""
    findings: list = field(default_factory=list)
    """(code, severity, lines, message) of every violation."""
    error: str | None = None
    """The file could not be used at all."""

    def said_on(self, line: int) -> bool:
        """Some finding names this line."""
        return any(line in lines for _code, _severity, lines, _message in self.findings)


class Reader:
    """Reads texts as a check does, with one catalog and a format cache per banlist."""

    def __init__(self, catalog, banlists: dict[str | None, object] | None = None):
        from forcecheck.checking import FormatCache

        self.catalog = catalog
        self.caches = {name: FormatCache((), choice, catalog) for name, choice in (banlists or {None: None}).items()}
        if None not in self.caches:
            self.caches[None] = FormatCache((), None, catalog)
        self.facts: dict[str, Facts] = {}

    def format(self, name: str, banlist: str | None = None):
        return self.caches[banlist].get(name)

    def facts_for(self, deck: Deck) -> Facts:
        key = (deck.format, deck.banlist)
        if key not in self.facts:
            fmt = self.format(deck.format, deck.banlist)
            self.facts[key] = Facts(self.catalog, fmt, *self.banlist_of(fmt, deck.banlist))
        return self.facts[key]

    def banlist_of(self, fmt, banlist: str | None) -> tuple[dict[str, int], list[list[str]]]:
        """The caps and combination bans the format applies, by card name."""
        from forcecheck.rules.banlist import rule_banlist

        caps: dict[str, int] = {}
        combinations: list[list[str]] = []
        chosen = self.caches[banlist].banlist
        for rule in fmt.spec.rules:
            if rule.kind != "banlist" or chosen == "none":
                continue
            applied = rule_banlist(rule, chosen if not isinstance(chosen, str) else None)
            if applied is None:
                continue
            for key, count in applied.entries.items():
                card = self._card_of(fmt.spec.game, str(key))
                if card is not None:
                    caps[card.name] = min(count, caps.get(card.name, count))
            for combo in applied.combinations:
                cards = [self._card_of(fmt.spec.game, str(k)) for k in combo]
                if all(cards):
                    combinations.append([c.name for c in cards])
        return caps, combinations

    def _card_of(self, game: str, key: str):
        if key.isdigit():
            return self.catalog.by_printing(game, key)
        card = self.catalog.by_name(game, key)
        return card if card is not None else self.catalog.by_printing(game, key)

    def read(self, text: str, deck: Deck, suffix: str = ".txt") -> ReadBack:
        from forcecheck.decklists.readers import parse_decklist
        from forcecheck.engine import check_decklist
        from forcecheck.errors import ForcecheckError

        fmt = self.format(deck.format, deck.banlist)
        try:
            parsed = parse_decklist(text, f"{deck.key}{suffix}", fmt.known_headers, suffix=suffix)
            report = check_decklist(parsed, fmt, self.catalog)
        except ForcecheckError as exc:
            return ReadBack({}, None, False, error=str(exc))
        findings = [(v.code, v.severity, tuple(v.lines or ((v.line,) if v.line else ())), v.message) for v in report.violations]
        errors = [(v.code, v.line, v.message) for v in report.violations if v.severity == "error"]
        return ReadBack(dict(report.sections), report.fingerprint, report.legal, errors, findings)

    def render(self, deck: Deck, shape_name: str) -> str:
        return SHAPES[shape_name].render(deck, self.facts_for(deck))

    def read_shape(self, deck: Deck, shape_name: str) -> tuple[str, ReadBack]:
        """The deck written in the shape and read back (NotExpressible when the shape cannot say it)."""
        text = self.render(deck, shape_name)
        return text, self.read(text, deck, SHAPES[shape_name].suffix)

    def reference(self, deck: Deck) -> ReadBack:
        """The deck read from its structured YAML form: the sections and fingerprint every shape must give."""
        return self.read(reference_yaml(deck), deck, ".yaml")


def read_deck(reader: Reader, key: str, text: str, format_name: str, game: str, suffix: str = ".txt",
              banlist: str | None = None, **meta) -> Deck:
    """A known legal list read by forcecheck into a Deck (fails loudly if it is not legal)."""
    from forcecheck.canonical import canonical_sections
    from forcecheck.decklists.readers import parse_decklist
    from forcecheck.engine import check_decklist

    fmt = reader.format(format_name, banlist)
    parsed = parse_decklist(text, key + suffix, fmt.known_headers, suffix=suffix)
    report = check_decklist(parsed, fmt, reader.catalog)
    if not report.legal:
        raise ValueError(f"{key} is not legal in {format_name}: {[(v.code, v.message) for v in report.violations if v.severity == 'error']}")
    sections = []
    for group in canonical_sections(parsed, fmt, reader.catalog):
        lines = tuple(Line(e.count, e.name) for e in group.entries if e.count_ok and e.known)
        if lines:
            sections.append((group.key, lines))
    order = tuple(s.id for s in fmt.spec.sections)
    return Deck(key, game, format_name, tuple(sections), order, banlist=banlist, **meta)


def shape_verdict(reader: Reader, deck: Deck, shape_name: str, reference: ReadBack | None = None) -> str | None:
    """None when the deck written in the shape reads back as its reference; else what differs."""
    reference = reference or reader.reference(deck)
    text, back = reader.read_shape(deck, shape_name)
    if back.error:
        return f"unreadable: {back.error}"
    if back.sections != reference.sections:
        return f"sections {back.sections} (expected {reference.sections})"
    if back.fingerprint != reference.fingerprint:
        wrong = [f"{code} line {line}: {message}" for code, line, message in back.errors][:3]
        return "same section sizes, other cards" + (f": {'; '.join(wrong)}" if wrong else "")
    return None


# --- the known decks of the CI suites (sample catalog) -------------------------------------------

CI_BANLIST = "2099.1 forcecheck test"
"""The made-up Forbidden/Limited list of tests/fixtures/test-lflist.conf: Yu-Gi-Oh! decks are judged with it."""


def ci_reader():
    """A Reader over the embedded sample catalog, Yu-Gi-Oh! judged with the test lflist."""
    from pathlib import Path

    from forcecheck.banlists import read_lflist
    from forcecheck.cards.catalog import sample_catalog

    lists, _ = read_lflist(Path(__file__).parent / "fixtures" / "test-lflist.conf")
    banlist = next(b for b in lists if b.name == CI_BANLIST)
    return Reader(sample_catalog(), {None: None, CI_BANLIST: banlist})


def ci_decks(reader: Reader) -> dict[str, Deck]:
    """The legal decks of the CI suites: the sample decks and conftest's lists, as forcecheck reads them."""
    from conftest import FARIA_MAIN, FARIA_STONES, SAMPLES, faria

    def sample(path: str) -> str:
        return (SAMPLES / path).read_text(encoding="utf-8")

    side = [(3, "Miscalculation"), (3, "Relief Aid")]
    tag_text = "Ruler:\n1 Astema\n1 Beatrice\nMain Deck:\n" + "".join(f"{c} {n}\n" for c, n in FARIA_MAIN) + \
        "Magic Stone Deck:\n" + "".join(f"{c} {n}\n" for c, n in FARIA_STONES) + "Sideboard:\n3 Miscalculation\n"
    decks = [
        read_deck(reader, "faria", faria(side=side), "bifrost", "fow", title="Faria Knights"),
        read_deck(reader, "faria-wanderer", faria(side=side), "wanderer", "fow", title="Faria Knights"),
        read_deck(reader, "atom", sample("bifrost/legal-atom-runes.yaml"), "bifrost", "fow", ".yaml", title="Atom Runes"),
        read_deck(reader, "speaker", sample("bifrost/legal-speaker-grimoire.txt"), "bifrost", "fow", title="Night Stories"),
        read_deck(reader, "astema-beatrice", tag_text, "bifrost", "fow", title="Fallen Angels"),
        read_deck(reader, "abc-kabuki", sample("abc/legal-official-rd-leader-of-the-kabuki.txt"), "abc", "fow", title="Kabuki Fire"),
        read_deck(reader, "abc-protector", sample("abc/legal-official-wb-holy-protector.txt"), "abc", "fow", title="Holy Waves"),
        read_deck(reader, "ygo-synchro", sample("ygo-5ds/legal-synchro-by-name.txt"), "ygo-5ds", "ygo", banlist=CI_BANLIST,
                  title="Synchron Warriors"),
    ]
    synchro = decks[-1]
    decks.append(synchro.with_section("side", ()).replace(key="ygo-synchro-no-side"))
    return {deck.key: deck for deck in decks}
