"""``forcecheck stats``: each deck's numbers and charts (curve, attributes, kinds, count rules
found vs needed), as text, JSON, SVG or PNG."""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from forcecheck.cli.application import app
from forcecheck.cli.common import (
    AsOfOpt,
    BanlistFileOpt,
    BanlistOpt,
    CatalogOpt,
    ColorOpt,
    ConfigOpt,
    FormatOpt,
    FormatsDirOpt,
    PointsCapOpt,
    StdinFilenameOpt,
)
from forcecheck.cli.runtime import emit, fail, refuse_overwriting_inputs, session_from, stop_on_setup_problems, take_stdin


class StatsFormat(str, Enum):
    text = "text"
    json = "json"
    svg = "svg"
    png = "png"


@app.command()
def stats(
    paths: list[Path] = typer.Argument(..., readable=False, metavar="PATH...", help="Decklist files or directories (every decklist under a directory, sorted); '-' reads one decklist from standard input."),
    format_name: FormatOpt = None,
    catalog: CatalogOpt = None,
    output_format: Annotated[
        StatsFormat,
        typer.Option("--output-format", "-o", metavar="FORMAT", help="text (bar charts), json (every number), svg or png (one picture per deck; needs forcecheck[plots])."),
    ] = StatsFormat.text,
    output_file: Annotated[
        Optional[Path],
        typer.Option("--output-file", metavar="PATH", help="Write there instead of stdout. For pictures of several decks: a directory, one DECK.svg/.png per deck."),
    ] = None,
    formats_dir: FormatsDirOpt = None,
    color: ColorOpt = None,
    banlist: BanlistOpt = None,
    banlist_file: BanlistFileOpt = None,
    config_file: ConfigOpt = None,
    as_of: AsOfOpt = None,
    points_cap: PointsCapOpt = None,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """Show each deck's numbers: what was read, the cost curve, attributes, card kinds, the
    format's count rules found vs needed, copies at the limit and the banlist's cards.

    Exit status: 0 every deck was read (legal or not: see 'forcecheck check' for the verdict
    that fails a run), 2 an input that could not be used; the rest of the batch is still shown.
    """
    kind = output_format.value
    paths = take_stdin(paths, stdin_filename)
    refuse_overwriting_inputs(output_file, paths)
    session = session_from(
        config_file=config_file, format_name=format_name, catalog=catalog, banlist=banlist,
        banlist_file=banlist_file, as_of=as_of, points_cap=points_cap, formats_dir=formats_dir, color=color,
    )
    forced = session.config.forced_format
    if forced:
        session.compiled(None, forced)  # a broken format fails the run up front
    stop_on_setup_problems(session, paths)
    if kind in ("svg", "png"):
        from forcecheck.report.insight_plot import _matplotlib

        _matplotlib()  # no matplotlib: say so before reading anything
    items = _insights(paths, session)
    if kind in ("svg", "png"):
        items = list(items)
        # several decks, or a folder of them, make a folder of pictures, even when one deck is readable
        into_folder = len(items) > 1 or any(p.is_dir() for p in paths) or (output_file is not None and output_file.is_dir())
        unreadable = _pictures(items, kind, output_file, into_folder)
    else:
        seen = {"unreadable": 0}

        def counted():
            for item in items:
                if getattr(item, "error", None) is not None:
                    seen["unreadable"] += 1
                yield item

        if kind == "json":
            emit(lambda out: _write_json(counted(), out, session), output_file, kind)
        else:
            from forcecheck.report.insight_text import render_stats_text
            from forcecheck.report.text import make_console

            config = session.config
            mode = config.color_for(config["color"], "text", output_file is not None, sys.stdout.isatty())
            emit(lambda out: render_stats_text(counted(), make_console(out, mode, terminal=mode == "always"), mode), output_file, kind)
        unreadable = seen["unreadable"]
    raise typer.Exit(2 if unreadable else 0)


def _insights(paths, session):
    """DeckInsight per deck, or the DeckReport with ``error`` for a file that cannot be used;
    each deck read and checked with the run's settings (``Session.read``)."""
    from forcecheck.checking import WalkProblem, expand_paths
    from forcecheck.engine import check_decklist
    from forcecheck.errors import ForcecheckError
    from forcecheck.insight import deck_insight
    from forcecheck.report.model import DeckReport

    for path in expand_paths(paths):
        if isinstance(path, WalkProblem):
            yield DeckReport(path=str(path.path), format=session.config.forced_format, error=f"{path.path}: {path.message}")
            continue
        try:
            deck, fmt, _text, _kind, card_catalog, _settings = session.read(path)
        except ForcecheckError as exc:
            yield DeckReport(path=str(path), format=session.config.forced_format, error=str(exc))
            continue
        yield deck_insight(check_decklist(deck, fmt, card_catalog), fmt)


def _write_json(items, out, session) -> None:
    import json

    from forcecheck.insight import SCHEMA_VERSION

    decks = []
    for item in items:
        if getattr(item, "error", None) is not None:
            decks.append({"path": item.path, "format": item.format, "error": item.error})
        else:
            decks.append(item.to_dict())
    about = session.about()
    summary = {"decks": len(decks), "unreadable": sum(1 for d in decks if "error" in d), "catalog": about["catalog"],
               "catalog_sources": about["catalog_sources"], "config": about["config"]}
    json.dump({"schema_version": SCHEMA_VERSION, "decks": decks, "summary": summary}, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _pictures(items: list, kind: str, output_file: Optional[Path], into_folder: bool) -> int:
    """Write one picture per deck; the number of files that could not be used."""
    from forcecheck.report.insight_plot import picture

    unreadable = [item for item in items if getattr(item, "error", None) is not None]
    for item in unreadable:
        print(f"forcecheck: error: {item.error}", file=sys.stderr)
    decks = [item for item in items if getattr(item, "error", None) is None]
    if not decks:
        return len(unreadable)
    if output_file is None:
        if into_folder:
            fail("several decks make several pictures: give --output-file DIRECTORY")
        if sys.stdout.isatty():
            fail(f"a {kind.upper()} picture is not for the terminal: give --output-file FILE or redirect stdout")
        sys.stdout.buffer.write(picture(decks[0], kind))
        sys.stdout.flush()
        return len(unreadable)
    if not into_folder:
        _write_picture(output_file, picture(decks[0], kind), kind)
        return len(unreadable)
    try:
        output_file.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot make the directory {output_file}: {exc.strerror or exc}")
    used: set[str] = set()
    for deck in decks:
        stem = Path(deck.path).stem or "deck"
        name, number = f"{stem}.{kind}", 1
        while name in used:  # two decks of one name in different folders
            number += 1
            name = f"{stem}-{number}.{kind}"
        used.add(name)
        _write_picture(output_file / name, picture(deck, kind), kind)
    return len(unreadable)


def _write_picture(target: Path, data: bytes, kind: str) -> None:
    from forcecheck.textfile import atomic_write

    try:
        # the handle is text; the picture's bytes go to its binary buffer, still through the atomic rename
        atomic_write(target, lambda handle: handle.buffer.write(data))
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}")
    print(f"forcecheck: wrote {kind} picture to {target}", file=sys.stderr)
