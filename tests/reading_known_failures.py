"""Today's failures of the shape and mutation suites (issue 28), listed in one place.

Every entry is a cell the suites run in CI (tests/reading_suites.py): ``("read-back:<deck>",
shape)`` for the shape suite, ``(family, shape)`` for the mutation suite, ``(family,
"reference:<deck>")`` for a mutant counted from its structured form (a YAML list of name and
count: no line to read, so only a rule or a name lookup can miss it), with the cause in one line. The tests mark these cells as strict xfail: a reader change that fixes one shows as XPASS
(remove the entry), a cell that newly fails shows as a failure. ``python tests/reading_suites.py``
prints today's failing cells in this form, each with its cause from ``cause_of`` below.
"""

from __future__ import annotations

from fnmatch import fnmatch

# --- causes (the reader's misreadings, each with an example line and what forcecheck read) --------

COUNT_PUNCTUATION = ("the count is read into the name when punctuation or brackets hold it: '4: Viviane', '4) Viviane', "
                     "'4. Viviane', '4- Viviane', 'Viviane [4]', '4pcs Viviane (SDAO1-031)', '4:Viviane', 'Viviane：4' are each "
                     "one unknown card (or, for a long name, one copy of the card by typo correction) (issue 28, principle 1)")
PAREN_COUNT = ("'(3) Junk Synchron' in Yu-Gi-Oh! (no card has a cost) is read as a remark before the name: one copy, "
               "the 3 dropped (issue 28, principle 1)")
ARCANA_COLON = ("an ABC ruler's name starts with 'Arcana:', an ABC section alias: 'Arcana: Leader of the Kabuki x1', "
                "'Ruler: Arcana: Leader of the Kabuki // Arcana: Yokai of Purgatory', '1x Arcana: Leader of the Kabuki, 1x ...' "
                "are read as the header 'Arcana' and the unknown card 'Leader of the Kabuki' (issue 28, principle 2)")
X_CARD = ("'3 x Card Trooper' is read as 3 copies of the unknown card 'x Card Trooper' (the x stays with a name that "
          "begins with 'Card'); '3 x Junk Synchron' is read right")
HEADER_X_COUNT = ("'Main Deck x 40' is no header: it is read as 40 copies of the unknown card 'Main Deck', every section "
                  "header after it likewise (issue 28, 'Headers with the count after an x')")
GROUP_KINDS = ("group headers in other spellings are not groups: 'Synchros (13):' and 'Fusions (1):' under 'Extra Deck:' are "
               "unknown sections (their cards not counted); 'Chant (5):' under a Force of Will 'Extra Deck:' moves the extra "
               "deck's five Story chants into the main deck (issue 28, 'Group headers naming card kinds')")
MARKDOWN_ALIGNED = ("a Markdown table whose rule row aligns its columns ('|--:|:--|:--|') is read as an unknown section "
                    "':|:--|' and none of the table's cards are counted")
PROSE_INSIDE = ("prose between two sections ('I am not sure about this part, what would you change?') is read as one "
                "unknown card of the section above it (issue 28, 'Prose inside or after a list')")
PROSE_AFTER = ("a blog footer after the list ('Thanks in advance,' / 'Jane' / 'Posted by Jane Doe in Deck Lists' / "
               "'Share this post') is read as four unknown cards of the sideboard (issue 28, 'Prose inside or after a list')")
ONE_LINE = ("a section or a whole deck on one line is not split into card lines: '4 Gawain, the Knight of the Sun | 4 Viviane "
            "| ...' is one unknown card; '[deck]4:Gawain, the Knight of the Sun, 4:Viviane, ...[/deck]' reads nothing "
            "(issue 28, 'A whole deck on one line')")
COMMAS_STRANGER = ("'2x Siegfried, the Dragon Knight (Stranger), 2x White Wizard (Stranger), ...' is read as one unknown "
                   "card: a line of comma-separated cards is not split after a name ending in '(Stranger)'")
TITLE_LINE = ("a card line behind a title-like prefix on the first line ('Top 8: 1 Avalon, Illusionary Home of Knights', "
              "'1st Place: 1 Gretel', 'Winner - 1 Mystical Space Typhoon') is read as the deck's title: its copies are "
              "not counted and the finding says it 'is no card and has no count' (issue 28, principle 2)")
COMMENT_LINE = ("'#1 Avalon, Illusionary Home of Knights', '# 1 ...', '// 1 ...', '//1x ...' inside the list are dropped "
                "with no finding on their line (issue 28, principle 3)")
RULER_IN_SIDE = ("bifrost has no rule for CR 404.3 (one copy of a ruler between the starting ruler(s) and the sideboard; "
                 "wanderer has ruler-copy-limit): 'Ruler: Faria' with '1 Faria' in the sideboard is legal (issue 28, principle 7)")
RULER_SLASH_CODES = ("'Faria (SDAO1-026) // Melgis (SDAO1-028)' on the ruler line is read as one ruler, Melgis, and Faria "
                     "is dropped without a finding (issue 28, principle 5); 'Faria // Melgis' without codes is read as two")
COMMON_WORD = ("one common word is read as a whole card by shortened-name matching, with only a warning: in a Yu-Gi-Oh! "
               "list '1 Dragon' is Brotherhood of the Fire Fist - Dragon, '1 Bear' Brotherhood of the Fire Fist - Bear, "
               "'1 Moon' Arcana Force XVIII - The Moon, '1 Sword' Bujin Regalia - The Sword (issue 28, principle 4)")
UNEXPLAINED = "UNEXPLAINED: look at this cell (python tests/reading_suites.py) and give it a cause"

FAMILY_CAUSES = [
    ("comment-line:*", COMMENT_LINE),
    ("title-line:*", TITLE_LINE),
    ("second-ruler:in-side", RULER_IN_SIDE),
    ("second-ruler:slash-codes", RULER_SLASH_CODES),
    ("copy-over-as:paren-count", PAREN_COUNT),
    ("copy-over-as:*", COUNT_PUNCTUATION),
    ("common-word:*", COMMON_WORD),
]
"""Mutation families whose false legals have one cause in every shape."""

DECK_SHAPE_CAUSES = [
    ("read-back:abc-*", ["x-count-dash", "name-x", "name-times", "name-mai", "name-paren-x", "name-paren", "name-hyphen",
                         "fullwidth", "ja-times", "ja-space-mai", "header-brackets-ja", "ruler-j-face", "ruler-j-two-lines",
                         "whole-deck-line"], ARCANA_COLON),
    ("read-back:ygo-*", ["count-space-x"], X_CARD),
]
"""Shapes that misread one deck's names."""

SHAPE_CAUSES = {
    "count-colon": COUNT_PUNCTUATION, "count-paren": COUNT_PUNCTUATION, "count-dot": COUNT_PUNCTUATION,
    "count-hyphen": COUNT_PUNCTUATION, "name-bracket": COUNT_PUNCTUATION, "pcs-code": COUNT_PUNCTUATION,
    "ja-colon": COUNT_PUNCTUATION, "ja-fullwidth-colon": COUNT_PUNCTUATION, "paren-count": PAREN_COUNT,
    "header-x-count": HEADER_X_COUNT, "groups-kinds": GROUP_KINDS, "markdown-table-aligned": MARKDOWN_ALIGNED,
    "prose-inside": PROSE_INSIDE, "prose-after": PROSE_AFTER, "bbcode": ONE_LINE, "pipes": ONE_LINE,
    "bbcode-whole-deck": ONE_LINE, "commas": COMMAS_STRANGER,
}
"""Shapes misread whatever the deck (and mutants that are false legal only because the shape is misread)."""


def cause_of(family: str, shape: str) -> str:
    """The name of the cause constant for a failing cell (for ``python tests/reading_suites.py``)."""
    names = {value: name for name, value in globals().items() if isinstance(value, str) and name.isupper()}
    for pattern, cause in FAMILY_CAUSES:
        if fnmatch(family, pattern):
            return names[cause]
    for pattern, shapes, cause in DECK_SHAPE_CAUSES:
        if fnmatch(family, pattern) and shape in shapes:
            return names[cause]
    return names[SHAPE_CAUSES.get(shape, UNEXPLAINED)]


KNOWN_FAILURES: dict[tuple[str, str], str] = {
}
