"""The typer application, its command groups, and what every command shares: how help reads
and how an error becomes an exit code.

Every command is a ``ForcecheckCommand``: its help names arguments the way man pages do
(``PATH...``, whatever typer release renders it), and an exception it raises is turned into
one line on stderr and an exit code by ``exit_for``, the one mapping of errors to exit codes
(``main`` uses it too, for whatever escapes a command).
"""

import sys

import typer
from typer.core import TyperCommand

from forcecheck import __version__


def exit_for(exc: BaseException) -> tuple[str, int] | None:
    """(message, exit code) for an error a user can act on; None for a bug (let it show)."""
    import sqlite3

    from forcecheck.errors import ForcecheckError

    if isinstance(exc, KeyboardInterrupt):
        return "forcecheck: interrupted", 130
    if isinstance(exc, ForcecheckError):
        return f"forcecheck: error: {exc}", 2
    if isinstance(exc, sqlite3.DatabaseError):
        from forcecheck.report.escape import printable

        return f"forcecheck: error: the catalog database cannot be read ({printable(str(exc))}); re-import it", 2
    return None


HIDDEN_ALIASES = ("--db", "--output")
"""Old option names that still work (``--db`` for ``--catalog``, ``register --output`` for
``--output-dir``) but are not shown in help: one parameter each, so they cost nothing."""


def _without_hidden_aliases(record: tuple[str, str]) -> tuple[str, str]:
    names, text = record
    for alias in HIDDEN_ALIASES:
        names = names.replace(f", {alias} ", " ").replace(f"{alias}, ", "")
        if names.endswith(f", {alias}"):
            names = names[: -len(alias) - 2]
    return names, text


def _argument_name(param) -> str:
    name = param.metavar or param.name.upper()
    if param.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name


class ForcecheckCommand(TyperCommand):
    """A typer command whose help reads the same on every supported typer release, and whose
    errors become exit codes through ``exit_for``."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = _argument_name(param)
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_options(self, ctx, formatter) -> None:
        arguments = [(_argument_name(p), getattr(p, "help", None) or "") for p in self.get_params(ctx) if p.param_type_name == "argument"]
        options = [
            _without_hidden_aliases(record) for p in self.get_params(ctx) if p.param_type_name == "option" for record in [p.get_help_record(ctx)] if record
        ]
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort):
            raise
        except Exception as exc:  # noqa: BLE001 - mapped, or re-raised as the bug it is
            mapped = exit_for(exc)
            if mapped is None:
                raise
            print(mapped[0], file=sys.stderr)
            raise typer.Exit(mapped[1]) from None


class ForcecheckTyper(typer.Typer):
    """A Typer whose commands are ForcecheckCommands."""

    def command(self, *args, **kwargs):
        kwargs.setdefault("cls", ForcecheckCommand)
        return super().command(*args, **kwargs)


def _group(help: str) -> ForcecheckTyper:
    return ForcecheckTyper(help=help, no_args_is_help=True, rich_markup_mode=None, add_completion=False)


app = ForcecheckTyper(
    name="forcecheck",
    help="Deck-construction validator for trading card games: is this deck legal in the format, and if not, exactly why.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
formats_app = _group("List and explain the formats forcecheck knows.")
app.add_typer(formats_app, name="formats")
banlist_app = _group("Import and look at banned / Forbidden-Limited lists (lflist.conf).")
app.add_typer(banlist_app, name="banlist")
catalog_app = _group("Import card databases and look at the card facts forcecheck believes.")
app.add_typer(catalog_app, name="catalog")
config_app = _group("Show the configuration forcecheck would use here.")
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
