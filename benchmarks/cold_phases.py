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


import typer  # noqa: E402,F401  - the CLI framework

mark("import typer")
from forcecheck.cli import app  # noqa: E402

app.load_for(["check"])
mark("import the check command")
import typer.main  # noqa: E402

command = typer.main.get_command(app)
mark("build the command line")
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
