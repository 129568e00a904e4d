"""``forcecheck sheet``: a deck registration sheet as PDF, for a player printing at home (needs
the sheets extra: pip install "forcecheck[sheets]"). The same page as the desk's ``sheets.pdf``
(``forcecheck.sheets``), without the desk's QR code: a list at home has no registration yet."""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from forcecheck.cli.application import app
from forcecheck.cli.common import AsOfOpt, CatalogOpt, ConfigOpt, FormatOpt, FormatsDirOpt, StdinFilenameOpt
from forcecheck.cli.runtime import fail, iso_date, session_from, stop_on_setup_problems, take_stdin


@app.command("sheet")
def sheet_command(
    deck_path: Path = typer.Argument(..., readable=False, metavar="DECK", help="A decklist ('-': standard input)."),
    format_name: FormatOpt = None,
    player: Annotated[Optional[str], typer.Option("--player", metavar="NAME", help="The player's name (default: the list's own 'Player:' line, if any).")] = None,
    event: Annotated[Optional[str], typer.Option("--event", metavar="NAME", help="The event's name (default: the list's own 'Event:' line, if any).")] = None,
    player_id: Annotated[Optional[str], typer.Option("--player-id", metavar="ID", help="The player's ID (KONAMI ID, FoW player number), printed on the sheet.")] = None,
    output_file: Annotated[
        Optional[Path], typer.Option("--output-file", metavar="PATH", help="Where to write the PDF (atomically). Default: DECK with .pdf for its extension; '-' standard output.")
    ] = None,
    as_of: AsOfOpt = None,
    catalog: CatalogOpt = None,
    formats_dir: FormatsDirOpt = None,
    config_file: ConfigOpt = None,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """Write DECK's deck registration sheet as a PDF to print: every section with its cards,
    counts and totals, the player, event and player ID, the deck's fingerprint, whether it is
    legal, and signature lines. Japanese names print with Noto Sans CJK where the system has it
    (FORCECHECK_SHEET_FONT names another font)."""
    try:
        import fpdf  # noqa: F401 - the sheets extra
        import segno  # noqa: F401
    except ImportError as exc:
        from forcecheck.install_hint import install_extra

        fail(f"forcecheck sheet needs the sheets extra ({exc.name} is not installed): {install_extra('sheets')}")
    from forcecheck.api import Checker
    from forcecheck.sheets.model import Sheet
    from forcecheck.sheets.pdf import write_sheets
    from forcecheck.textfile import atomic_write
    from forcecheck.web.names import NameRefused, clean_name, clean_player_id

    day = iso_date(as_of)
    session = session_from(config_file=config_file, format_name=format_name, catalog=catalog, formats_dir=formats_dir, as_of=day)
    [deck_path] = take_stdin([deck_path], stdin_filename)
    stop_on_setup_problems(session, [deck_path])
    deck, fmt, text, _kind, _catalog, _settings = session.read(deck_path)
    if deck.problems and not any(s.entries for s in deck.sections):
        fail(f"{deck_path}:{deck.problems[0].line or 1}: {deck.problems[0].message}")
    try:
        player = clean_name(player, "player name") if player is not None else _metadata(deck, "player")
        event = clean_name(event, "event name") if event is not None else _metadata(deck, "event")
        player_id = clean_player_id(player_id)
    except NameRefused as exc:
        fail(str(exc))
    checker = Checker(session)
    name = str(deck_path) if str(deck_path) != "-" else (stdin_filename or "decklist.txt")
    report, contents = checker.check_with_contents(text, fmt.spec.name, day, Path(name).name)
    if report.get("error"):
        fail(f"{deck_path}: {report['error']}")
    if not any(section["cards"] for section in contents):
        fail(f"{deck_path}: no card read in it (is it a decklist?); no sheet written")
    ruler = report.get("ruler")
    sheet = Sheet(player=player, sections=contents, event=event, date=day if as_of else None,
                  format_title=getattr(fmt.spec, "title", None) or fmt.spec.name, banlist=report.get("banlist"),
                  player_id=player_id, ruler=" / ".join(ruler) if isinstance(ruler, list) else ruler,
                  fingerprint=report.get("fingerprint"), legal=bool(report.get("legal")))
    data = write_sheets([sheet], event=event)
    target = output_file if output_file is not None else (Path("deck.pdf") if str(deck_path) == "-" else deck_path.with_suffix(".pdf"))
    if str(target) == "-":
        if sys.stdout.isatty():
            fail("a PDF is no text for a terminal: give --output-file PATH (or redirect standard output)")
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            atomic_write(target, lambda handle: (handle.flush(), handle.buffer.write(data)))
        except OSError as exc:
            fail(f"cannot write {target}: {exc.strerror or exc}")
        print(f"{target}: deck registration sheet of {player or deck_path} ({sheet.total} cards, "
              f"{'legal' if sheet.legal else 'NOT legal'})", file=sys.stderr)
    if not sheet.legal:
        print(f"forcecheck: {deck_path}: the deck is not legal in {fmt.spec.name}: run 'forcecheck check' to see why", file=sys.stderr)


def _metadata(deck, key: str) -> Optional[str]:
    value = (deck.metadata or {}).get(key)
    return str(value) if value else None
