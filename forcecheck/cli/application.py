"""The typer application, its command groups, and what every command shares: how help reads,
how a usage error reads, and how an error becomes an exit code.

Every command is a ``ForcecheckCommand`` and every group a ``ForcecheckGroup``:
- help names arguments the way man pages do (``PATH...``, whatever typer release renders it),
  answers ``-h`` as ``--help``, shows each option's environment variable (``[env: ...]``,
  declared with the options in ``forcecheck.cli.common``), and every command and group takes
  ``-V``/``--version``; the root offers typer's shell completion (``--install-completion``,
  ``--show-completion``);
- a usage error (an unknown option or command, a missing argument, a value an option refuses)
  is one line in forcecheck's words, ``forcecheck: error: ...; see 'forcecheck check --help'``,
  and exit 2 (``usage_line``), never click's "Usage: ... Error: ..." box;
- an exception a command raises is turned into one line on stderr and an exit code by
  ``exit_for``, the one mapping of errors to exit codes (``main`` uses it too, for whatever
  escapes a command).

Why one module of this size: each part (help, usage errors, ``-V``, converting option values
without pydantic, the lazily loaded command modules) is a hook into typer's and click's
internals, which move between releases (the CI tests the lowest typer we declare and the newest):
kept in one file, a typer upgrade is read and mended in one place. A plain check never loads it
(``cli.direct``).
"""

import sys

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from forcecheck import DOCS_URL
from forcecheck.cli.runtime import exit_for

try:  # the click typer carries (typer 0.27 and later vendor their own)
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - a typer that uses click itself
    from click import exceptions as click_errors


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


_KEEP = "\u00a0"
"""A no-break space: help wrapping keeps the words it joins together (put back as a space after)."""

HELP_OPTION_NAMES = ["-h", "--help"]
"""The help option's names on every command (click's context setting, inherited by subcommands)."""


class _DirectOptions:
    """Mixed into a typer command or group: its options, the help option too, convert their
    values directly (``direct_coercion``), not through a pydantic adapter each; every command
    and group takes ``-V``/``--version``; a usage error met while reading its command line (or
    a subcommand's) becomes ``usage_line``'s one line and exit 2."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        direct_coercion(self.params)

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            direct_coercion([option])
        return option

    def get_params(self, ctx):
        params = super().get_params(ctx)
        return [*params[:-1], version_option(), params[-1]] if params and params[-1] is self.get_help_option(ctx) else [*params, version_option()]

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click_errors.UsageError as exc:
            raise usage_exit(exc) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click_errors.UsageError as exc:
            raise usage_exit(exc) from None

    def parse_args(self, ctx, args):
        """As click reads the line; arguments left over are ``ExtraArguments`` (click says so in
        a message only)."""
        if isinstance(self, TyperGroup) or ctx.allow_extra_args:
            try:
                return super().parse_args(ctx, args)
            except click_errors.UsageError as exc:
                if exc.ctx is None:
                    exc.ctx, exc.cmd = ctx, self
                raise
        ctx.allow_extra_args = True
        try:
            rest = super().parse_args(ctx, args)
        except click_errors.UsageError as exc:
            if exc.ctx is None:  # click's option parser raises some without the command's context
                exc.ctx, exc.cmd = ctx, self
            raise
        finally:
            ctx.allow_extra_args = False
        if rest and not ctx.resilient_parsing:
            raise ExtraArguments(rest, ctx)
        return rest


_VERSION_OPTION = None


def version_option():
    """``-V``/``--version``: print the version and exit. One option object for every command,
    built once by typer itself (typer's option classes change between releases) from a
    declaration, its value converted as the others' (``direct_coercion``)."""
    global _VERSION_OPTION
    if _VERSION_OPTION is None:
        probe = typer.Typer(add_completion=False)

        @probe.command()
        def _probe(
            version: bool = typer.Option(False, "-V", "--version", is_eager=True, callback=_version, help="Print the version and exit."),
        ) -> None:
            """Not a command: the declaration the version option is built from."""

        (option,) = typer.main.get_command(probe).params
        option.expose_value = False  # no command takes it as an argument
        direct_coercion([option])
        _VERSION_OPTION = option
    return _VERSION_OPTION


def _version(value: bool) -> None:
    if value:
        from forcecheck.cli.direct import print_version

        raise typer.Exit(print_version())


class ExtraArguments(click_errors.UsageError):
    """Words on a command line that no argument takes."""

    def __init__(self, words, ctx):
        super().__init__(" ".join(words), ctx=ctx)
        self.words = list(words)


class UnknownCommand(click_errors.UsageError):
    """A word where a group expects one of its commands."""

    def __init__(self, name, commands, ctx):
        super().__init__(name, ctx=ctx)
        self.name = name
        self.commands = list(commands)


def usage_exit(exc):
    """Say ``usage_line(exc)`` on stderr (help, for a bare group) and give the Exit to raise: 2."""
    if isinstance(exc, getattr(click_errors, "NoArgsIsHelpError", ())):
        exc.show()  # a bare 'forcecheck' or group: its help, on stderr
    else:
        print(usage_line(exc), file=sys.stderr)
    return typer.Exit(2)


def usage_line(exc) -> str:
    """A usage error as one line in forcecheck's words, naming the command and where its help is:
    ``forcecheck: error: no option --formt for 'forcecheck check' (did you mean --format?); see
    'forcecheck check --help'``. Built from the error's kind and the command's parameters, never
    from click's sentence, which is shown only for a kind this does not know."""
    from forcecheck.escape import printable
    from forcecheck.wording import close_names, did_you_mean

    ctx = exc.ctx
    command = ctx.command_path if ctx is not None else "forcecheck"
    param = getattr(exc, "param", None)
    if isinstance(exc, UnknownCommand):
        near = close_names(exc.name, exc.commands)
        what = f"no command {_q(exc.name)} in '{command}'" + (f" ({did_you_mean(near)})" if near else f" (commands: {', '.join(exc.commands)})")
    elif isinstance(exc, click_errors.NoSuchOption):
        names = [o for p in (ctx.command.get_params(ctx) if ctx is not None else []) if p.param_type_name == "option" and not p.hidden
                 for i, o in enumerate(p.opts + p.secondary_opts) if o.startswith("--") and not (i and o in HIDDEN_ALIASES)]
        near = close_names(exc.option_name, names) if exc.option_name.startswith("--") else []
        what = f"no option {exc.option_name} for '{command}'" + (f" ({did_you_mean(near)})" if near else "")
    elif isinstance(exc, ExtraArguments):
        what = f"unexpected argument{'s' if len(exc.words) > 1 else ''} {', '.join(_q(w) for w in exc.words)} for '{command}'"
    elif isinstance(exc, click_errors.MissingParameter) and param is not None:
        if param.param_type_name == "argument":
            what = f"'{command}' needs {_argument_name(param)}"
        else:
            what = f"'{command}' needs {_option_names(param)}"
    elif isinstance(exc, click_errors.BadOptionUsage):
        option = _option_named(ctx, exc.option_name)
        if option is not None and option.is_flag:
            what = f"{_option_names(option)} takes no value"
        elif option is not None:
            what = f"{_option_names(option)} needs a value"
        else:
            what = _sentence(exc)
    elif isinstance(exc, click_errors.BadParameter) and param is not None:
        name = _argument_name(param) if param.param_type_name == "argument" else _option_names(param)
        what = f"invalid value for {name}: {_sentence(exc)}"
    else:
        what = _sentence(exc)
    return printable(f"forcecheck: error: {what}; see '{command} --help'")


def _q(word: str) -> str:
    return repr(word) if "'" not in word else f'"{word}"'


def _sentence(exc) -> str:
    """The error's own words (without click's "Invalid value for ..." frame), as a clause: no
    capital, no full stop."""
    text = getattr(exc, "message", None) or str(exc)
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _option_names(param) -> str:
    """``-o/--output-format``: the option's shown names, short first."""
    names = [o for i, o in enumerate(param.opts) if not (i and o in HIDDEN_ALIASES)]
    return "/".join(sorted(names, key=lambda o: (o.startswith("--"), o)))


def _option_named(ctx, name):
    if ctx is None:
        return None
    return next((p for p in ctx.command.get_params(ctx) if p.param_type_name == "option" and name in (*p.opts, *p.secondary_opts)), None)


class ForcecheckCommand(_DirectOptions, TyperCommand):
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
                start = len(formatter.buffer)
                # an option's "[env: FORCECHECK_...]" is wrapped as one word, never split over two lines
                formatter.write_dl([(names, text.replace("[env: ", f"[env:{_KEEP}")) for names, text in options])
                formatter.buffer[start:] = [piece.replace(_KEEP, " ") for piece in formatter.buffer[start:]]

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort):
            raise
        except KeyboardInterrupt:  # as a direct check ends (click would say "Aborted!", exit 1)
            print(exit_for(KeyboardInterrupt())[0], file=sys.stderr)
            raise typer.Exit(130) from None
        except Exception as exc:  # noqa: BLE001 - mapped, or re-raised as the bug it is
            mapped = exit_for(exc)
            if mapped is None:
                raise
            print(mapped[0], file=sys.stderr)
            raise typer.Exit(mapped[1]) from None


class ForcecheckGroup(_DirectOptions, TyperGroup):
    """A typer group whose own options convert as a command's do, and whose unknown command is
    ``UnknownCommand`` (``usage_line`` suggests the nearest)."""

    def get_params(self, ctx):
        direct_coercion(self.params)  # typer adds the completion options after the group is made
        return super().get_params(ctx)

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name and not name.startswith("-") and not ctx.resilient_parsing and self.get_command(ctx, name) is None:
            normalize = ctx.token_normalize_func
            if normalize is None or self.get_command(ctx, normalize(name)) is None:
                raise UnknownCommand(name, self.list_commands(ctx), ctx)
        return super().resolve_command(ctx, args)


def direct_coercion(params) -> None:
    """Convert option values of the plain kinds forcecheck uses (text, paths, choices, whole
    numbers in a range, lists of them) directly, on typer releases that would build a pydantic
    TypeAdapter for each option on every run: importing pydantic and building the adapters
    cost more than the rest of a one-deck check. Same values, same checks (typer's own choice
    and path checks, click's messages); a typer that converts through click's types, or an
    option of any other kind, is left as typer has it."""
    kinds = _direct_kinds()
    if kinds is None:
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", False) is not None:
            continue
        info = descriptor.parameter_info
        if info.parser is not None or getattr(info, "clamp", False) or descriptor.file_annotation is not None:
            continue
        convert = _converter(descriptor.annotation, info, kinds)
        if convert is not None:
            param._runtime_param = kinds["Direct"](parameter_info=info, annotation=descriptor.annotation, convert=convert)


_KINDS: dict | None = None


def _direct_kinds() -> dict | None:
    """typer's coercion hooks (typer 0.2x and later), or None on a typer without them."""
    global _KINDS
    if _KINDS is None:
        try:
            from typer._coercion import RuntimeParam
            from typer._param_types import coerce_cli_choice, coerce_cli_path
        except ImportError:
            _KINDS = {}
            return None

        class Direct(RuntimeParam):  # no @dataclass: making one costs more than the class is worth here
            def __init__(self, parameter_info, annotation, convert):
                RuntimeParam.__init__(self, parameter_info=parameter_info, annotation=annotation)
                object.__setattr__(self, "convert", convert)

            def _coerce_value(self, value, param, ctx):
                return self.convert(value, param, ctx)

        _KINDS = {"Direct": Direct, "choice": coerce_cli_choice, "path": coerce_cli_path}
    return _KINDS or None


def _converter(annotation, info, kinds):
    """A function ``(value, param, ctx) -> value`` for one option's annotation, or None."""
    import typing
    from enum import Enum
    from pathlib import Path

    from typer import BadParameter

    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation) or (None,)
        each = _converter(item, info, kinds) if item is not None else None
        if each is None:
            return None
        return lambda value, param, ctx: [each(v, param, ctx) for v in (value if isinstance(value, (list, tuple)) else [value])]
    if not isinstance(annotation, type):
        return None
    if issubclass(annotation, Enum):
        choices = tuple(annotation)

        def choice(value, param, ctx):
            try:
                return kinds["choice"](value, choices=choices, case_sensitive=info.case_sensitive, ctx=ctx)
            except ValueError:  # as the configuration says it of a setting
                raise BadParameter(f"{value!r} is not one of {', '.join(str(c.value) for c in choices)}", ctx=ctx, param=param) from None

        return choice
    if issubclass(annotation, Path):
        path_type = info.path_type or annotation
        return lambda value, param, ctx: kinds["path"](
            value if isinstance(value, Path) else annotation(value), info, path_type=path_type, param=param, ctx=ctx
        )
    if annotation is bool:
        return _flag
    if annotation is str:
        return lambda value, param, ctx: os_fsdecode(value) if isinstance(value, bytes) else str(value)
    if annotation is int:
        low, high = info.min, info.max

        if low is not None and high is not None:
            bounds = f" from {low} to {high}"
        else:
            bounds = f" of at least {low}" if low is not None else (f" of at most {high}" if high is not None else "")

        def whole(value, param, ctx):  # worded as the configuration words a setting's bad number
            if isinstance(value, int) and not isinstance(value, bool):
                number = value
            else:
                try:
                    number = int(str(value).strip())
                except ValueError:
                    raise BadParameter(f"{value!r} is not a whole number{bounds}", ctx=ctx, param=param) from None
            if (low is not None and number < low) or (high is not None and number > high):
                raise BadParameter(f"{number} is not a whole number{bounds}", ctx=ctx, param=param)
            return number

        return whole
    return None


_TRUE = frozenset(("1", "true", "t", "yes", "y", "on"))
_FALSE = frozenset(("0", "false", "f", "no", "n", "off", ""))


def _flag(value, param, ctx):
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    from typer import BadParameter

    raise BadParameter(f"{value!r} is not a valid boolean.", ctx=ctx, param=param)


def os_fsdecode(value: bytes) -> str:
    import os

    return os.fsdecode(value)


class ForcecheckTyper(typer.Typer):
    """A Typer whose commands are ForcecheckCommands."""

    def command(self, *args, **kwargs):
        kwargs.setdefault("cls", ForcecheckCommand)
        return super().command(*args, **kwargs)


COMMAND_MODULES = {
    "check": "check", "stats": "stats",
    "fmt": "tournament", "fingerprint": "tournament", "register": "tournament", "verify": "tournament",
    "rules": "formats", "formats": "formats", "config": "formats",
    "catalog": "catalog", "banlist": "catalog",
    "serve": "serve", "sheet": "sheet",
}
"""Command (or group) name -> the module of ``forcecheck.cli`` that defines it."""

MODULE_ORDER = ("check", "stats", "tournament", "formats", "catalog", "serve", "sheet")
"""The command modules in the order their commands appear in help."""


def load_commands(modules=MODULE_ORDER) -> None:
    """Import command modules (each registers its commands on the app; one imported before is
    not imported again). The root's commands stay in help order whichever was imported first."""
    import importlib

    for name in modules:
        importlib.import_module(f"forcecheck.cli.{name}")
    order = {f"forcecheck.cli.{name}": index for index, name in enumerate(MODULE_ORDER)}
    app._registered_commands.sort(key=lambda info: order.get(getattr(info.callback, "__module__", ""), len(order)))


class RootTyper(ForcecheckTyper):
    """The root app. Its command modules are imported when typer first reads its commands
    (building the command tree, ``CliRunner``, help): all of them, unless ``main`` already
    imported the one module a run's command lives in, so a check does not import and build
    every other command's options."""

    _commands_loaded = False

    @property
    def registered_commands(self) -> list:
        if not RootTyper._commands_loaded:
            RootTyper._commands_loaded = True
            load_commands()
        return self._registered_commands

    @registered_commands.setter
    def registered_commands(self, value: list) -> None:
        self._registered_commands = value

    def load_for(self, args: list[str]) -> None:
        """Import only the module of the command ``args`` name (all of them for help, no
        command, or a word that is no command: click then lists or suggests them). A program
        that runs several commands in one process gets each one's module as it comes."""
        RootTyper._commands_loaded = True  # until end_of_run
        word = next((a for a in args if not a.startswith("-")), None)
        if word in COMMAND_MODULES and not set(HELP_OPTION_NAMES).intersection(args[: args.index(word)]):
            load_commands((COMMAND_MODULES[word],))
        else:
            load_commands()


    def end_of_run(self) -> None:
        """After a run that imported only its own command module (``load_for``): whatever reads
        the command tree next in this process (another run, CliRunner) gets every command."""
        RootTyper._commands_loaded = False


def _group(help: str) -> ForcecheckTyper:
    return ForcecheckTyper(help=help, no_args_is_help=True, rich_markup_mode=None, add_completion=False, cls=ForcecheckGroup)


app = RootTyper(
    name="forcecheck",
    help="Deck-construction validator for trading card games: is this deck legal in the format, and if not, exactly why.",
    no_args_is_help=True,
    add_completion=True,  # typer's --install-completion / --show-completion (bash, zsh, fish, PowerShell)
    context_settings={"help_option_names": HELP_OPTION_NAMES},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=ForcecheckGroup,
)
formats_app = _group("List and explain the formats forcecheck knows.")
app.add_typer(formats_app, name="formats")
banlist_app = _group("Import and look at banned / Forbidden-Limited lists (lflist.conf).")
app.add_typer(banlist_app, name="banlist")
catalog_app = _group("Import card databases and look at the card facts forcecheck believes.")
app.add_typer(catalog_app, name="catalog")
config_app = _group("Show the configuration forcecheck would use here.")
app.add_typer(config_app, name="config")


@app.callback(epilog=f"Documentation: {DOCS_URL}")
def _main() -> None:
    """forcecheck: deck-construction validator (-V/--version: every command and group takes it)."""
