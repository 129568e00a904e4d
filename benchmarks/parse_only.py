"""The baseline of the end-to-end benchmark: what any tool must at least do with a folder of lists.

    python benchmarks/parse_only.py FOLDER [HEADERS_JSON]

Read every file of the folder (sorted, as ``forcecheck check`` walks it), decode it as UTF-8 and
match each line against one regular expression for a card line (``4 Name``, ``4x Name``): no
section, no card, no catalog, none of forcecheck's own reader (issue 28: the baseline must not
move when the reader gets better or slower). Timed from outside as a whole process; the second
argument, the format's header titles, is accepted and ignored so callers need not change.
"""

import os
import re
import sys

CARD_LINE = re.compile(r"^\s*(\d{1,4})\s*[xX×]?\s+(\S.*?)\s*$", re.MULTILINE)


def main() -> int:
    folder = sys.argv[1]
    cards = 0
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as handle:
            text = handle.read().decode("utf-8", "replace")
        for match in CARD_LINE.finditer(text):
            cards += int(match.group(1))
    print(cards)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
