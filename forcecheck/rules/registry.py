"""The table of rule kinds: code, slug, default severity, documentation, compiler.

Codes are grouped in families: FC0xx input (what the decklist says cannot be used as
written), FC1xx sizes, FC2xx copies, FC3xx membership, FC4xx counts and curves, FC5xx
identity, FC6xx banlists, FC7xx ruler-derived permissions. Codes never change meaning.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from forcecheck.records import Record
from forcecheck.rules import banlist, conditions, copies, membership, pool, ruler, ruler_area, sizes


class RuleKind(Record, frozen=True):
    code: str
    slug: str
    severity: str
    family: str
    doc: str
    compile: Callable | None
    """``(rule_model, ctx) -> check``; None for the input checks the engine runs itself."""

    def __init__(
        self,
        code: str,
        slug: str,
        severity: str,
        family: str,
        doc: str,
        compile: Callable | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "code", code)
        _set(self, "slug", slug)
        _set(self, "severity", severity)
        _set(self, "family", family)
        _set(self, "doc", doc)
        _set(self, "compile", compile)

    @property
    def url(self) -> str:
        """The rule's entry in the documentation's rules page (its anchor is the code in lower
        case: ``rules/#fc201``): SARIF's ``helpUri``, the JSON ``url``, ``forcecheck rules CODE``."""
        from forcecheck import rule_url

        return rule_url(self.code)


def _kind(code: str, slug: str, family: str, compile=None, severity: str = "error", doc: str = "") -> RuleKind:
    text = doc or (compile.__doc__ or "").strip().split("\n\n")[0]
    text = re.sub(r"``([^`]+)``", r"'\1'", text)  # a docstring's ``max`` reads 'max' in plain text
    return RuleKind(code, slug, severity, family, " ".join(text.split()), compile)


INPUT = "input"

KINDS: dict[str, RuleKind] = {
    k.slug: k
    for k in [
        _kind("FC000", "unreadable-input", INPUT, doc="A file that cannot be used at all (missing, binary, over the size limit, not UTF-8, malformed YAML, no format); exit 2."),
        _kind("FC001", "unknown-card", INPUT, doc="A card name or printing code the catalog does not know; the nearest names are suggested."),
        _kind("FC002", "invalid-count", INPUT, doc="A count that is zero, negative, not a whole number or over 9,999; the line is not counted."),
        _kind("FC003", "card-outside-section", INPUT, doc="A card listed before any section header; it is not counted in any section."),
        _kind("FC004", "unknown-section", INPUT, doc="A section header the format does not have; its cards are not counted."),
        _kind("FC005", "empty-section", INPUT, severity="warning", doc="A section header with no cards under it."),
        _kind("FC006", "declared-count-mismatch", INPUT, severity="warning", doc="A header's announced count (\"Main Deck (40):\") differs from the cards listed under it."),
        _kind("FC007", "invalid-entry", INPUT, doc="An entry that is no card line: a YAML entry with unknown keys, a .ydk line that is no passcode, a ydke:// code that cannot be read whole (it says what is wrong in it)."),
        _kind("FC008", "line-too-long", INPUT, doc="A line over 500 characters that is neither text of the page (a paragraph) nor a list collapsed onto one line (cut at its markup, separators and section titles, up to 20,000 characters); it is not read."),
        _kind("FC009", "printing-mismatch", INPUT, severity="warning", doc="A printing code that names a different card than the name on the line; the printing wins."),
        _kind("FC010", "deck-title", INPUT, severity="warning", doc="A line above the cards that is no card and has no count: it is read as the deck's title (the first) or a heading."),
        _kind("FC011", "card-placed", INPUT, severity="warning", doc="Cards under no section header (or in a block that cannot be its header's section, or in a flattened table) placed where the format says they go: reported once per section, with their lines; and a card under a group header of another kind ('Celestia' under 'Monsters'), counted as the card written and said on its line."),
        _kind("FC012", "name-corrected", INPUT, severity="warning", doc="A misspelt card name read as the one card it clearly means (a spelling variant, the same words in another order, or a small typo); both spellings are named."),
        _kind("FC013", "line-read-as", INPUT, severity="warning", doc="A line read in another way than its plain one: a table row of several cards, a count after the name, a number that is part of the name, a remark after the name."),
        _kind("FC014", "ambiguous-line", INPUT, doc="A line that reads as two different decks, neither ruled out by the catalog or the format (a count in brackets that may be a cost, a number that may be part of a name, 'A // B' that may be one card or two): both readings are named; write it plainly."),
        _kind("FC015", "commented-card", INPUT, severity="warning", doc="A comment line that reads as a card line ('#1 Name', '// 1 Name'): it is not counted, and said so on its line; fmt keeps it."),
        _kind("FC016", "prose", INPUT, severity="warning", doc="Text of the page around or inside the list (paragraphs and sentences of any length, a heading or an info line beside them, a header over no cards, a question, a sign-off, a blog footer): read as no card, reported once with its lines; a line of it that names a card is ambiguous (FC014) instead."),
        _kind("FC017", "other-game", INPUT, doc="The deck is of another game than its format's: its unknown names are that game's cards in the catalog, or it is a file of that game (a .ydk checked under a Force of Will format); the formats that fit are named."),
        _kind("FC101", "section-size", "sizes", sizes.compile_section_size),
        _kind("FC201", "copy-limit", "copies", copies.compile_copy_limit),
        _kind("FC202", "no-shared-names", "copies", copies.compile_no_shared_names),
        _kind("FC301", "allowed-cards", "membership", membership.compile_allowed_cards),
        _kind("FC302", "forbidden-cards", "membership", membership.compile_forbidden_cards),
        _kind("FC303", "card-pool", "membership", pool.compile_card_pool),
        _kind("FC401", "card-count", "counts", sizes.compile_card_count),
        _kind("FC501", "ruler-attributes", "identity", ruler.compile_ruler_attributes),
        _kind("FC601", "banlist", "banlists", banlist.compile_banlist),
        _kind("FC604", "list-may-be-stale", "banlists", severity="warning", doc="The list this forcecheck ships for the format was recorded more than the format's months (12 by default) before the run's date: the publisher may have changed it since. Check the publisher's list, or name one with --banlist-file."),
        _kind("FC603", "partial-banlist", "banlists", severity="warning", doc="The list in force on the run's date is only partly known: part of its publisher's announcement could not be read, so a card it changed may be judged by the list before it. The finding says what is missing; name a complete list with --banlist-file where you have one."),
        _kind("FC602", "no-banlist-in-force", "banlists", doc="No Forbidden/Limited or banned list was in force on the run's date (--as-of) although the format's lists exist: the deck cannot be judged by that day's list (--banlist names one; --banlist none checks the rest)."),
        _kind("FC701", "requires-ruler-keyword", "ruler", ruler.compile_requires_ruler_keyword),
        _kind("FC702", "ruler-area", "ruler", ruler_area.compile_ruler_area),
        _kind("FC703", "ruler-conditions", "ruler", conditions.compile_ruler_conditions),
        _kind("FC704", "unchecked-condition", "ruler", conditions.compile_unchecked_ruler_condition, severity="warning"),
    ]
}

KINDS_BY_CODE: dict[str, RuleKind] = {k.code: k for k in KINDS.values()}
