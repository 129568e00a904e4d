"""One cold ``forcecheck check one.txt``, timed phase by phase (printed as JSON): where a cold
start goes. Run by bench_cli.py in fresh processes; each phase is what ``check`` does, in order.

    python benchmarks/cold_phases.py DECK FORMAT
"""

import json
import sys
import time

start = time.perf_counter()
marks = []


def mark(name: str) -> None:
    marks.append((name, time.perf_counter()))


from forcecheck.cli.direct import read_check_line  # noqa: E402

paths, keywords = read_check_line(["check", sys.argv[1], "-f", sys.argv[2]])
mark("read the command line (forcecheck.cli.direct)")
from forcecheck.cli.runtime import session_from  # noqa: E402

session = session_from(format_name=sys.argv[2])
mark("settings and rule selection")
session.compiled(None, sys.argv[2])
mark("open catalog, load and compile format")
report = session.check_paths([sys.argv[1]])
import io  # noqa: E402

from forcecheck.report import RENDERERS  # noqa: E402

RENDERERS["text"](report, io.StringIO(), "never")
mark("read, check and report the deck")
previous = start
phases = {}
for name, at in marks:
    phases[name] = round((at - previous) * 1000, 2)
    previous = at
print(json.dumps(phases))
