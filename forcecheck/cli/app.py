"""The typer application and its command groups; every command module registers on these."""

from __future__ import annotations

import typer

from forcecheck import __version__

app = typer.Typer(
    name="forcecheck",
    help="Deck-construction validator for trading card games: is this deck legal in the format, and if not, exactly why.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
formats_app = typer.Typer(help="List and explain the formats forcecheck knows.", no_args_is_help=True)
app.add_typer(formats_app, name="formats")
banlist_app = typer.Typer(help="Import and look at banned / Forbidden-Limited lists (lflist.conf).", no_args_is_help=True)
app.add_typer(banlist_app, name="banlist")
catalog_app = typer.Typer(help="Import card databases and look at the card facts forcecheck believes.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")
config_app = typer.Typer(help="Show the configuration forcecheck would use here.", no_args_is_help=True)
app.add_typer(config_app, name="config")


def _version(value: bool) -> None:
    if value:
        print(f"forcecheck {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """forcecheck: deck-construction validator."""
