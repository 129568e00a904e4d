"""The baseline of the end-to-end benchmark: read and parse every decklist in a folder, nothing more.

    python benchmarks/parse_only.py FOLDER HEADERS_JSON

The same interpreter and the same reader ``forcecheck check`` uses (``read_decklist``, with the
format's section titles given as JSON so no format is loaded here), over the same files in the
same order: what any tool must at least do with them. Timed from outside as a whole process.
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from forcecheck.decklists.model import HeaderTable  # noqa: E402
from forcecheck.decklists.readers import read_decklist  # noqa: E402


def main() -> int:
    folder, headers = sys.argv[1], json.loads(sys.argv[2])
    table = HeaderTable(sections=headers["sections"], groups=headers["groups"], sideboard=headers["sideboard"])
    lines = 0
    for name in sorted(os.listdir(folder)):
        deck = read_decklist(Path(folder, name), table)
        lines += sum(len(section.entries) for section in deck.sections)
    print(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
