"""Settings: what a run uses, resolved once, every value with where it came from.

Precedence, first wins, the same for every setting and every command:

1. a command-line flag (``--banlist``),
2. a ``FORCECHECK_*`` environment variable (``FORCECHECK_BANLIST``),
3. the configuration file: for one deck, the first ``paths:`` glob that matches it, then
   ``formats:`` for its format, then the top level,
4. the CI default (under ``GITHUB_ACTIONS=true`` the output format is ``github``),
5. the built-in default.

The configuration file is ``--config`` / ``FORCECHECK_CONFIG``, else the nearest
``.forcecheck.yaml`` (``.yml``), or ``pyproject.toml`` with ``[tool.forcecheck]``, from the
working directory up to the repository root (a folder holding ``.git``) or the home folder,
whichever comes first; outside both only the working directory is searched, so a file left
in a shared folder above the tree never changes a verdict. Paths in the file are relative to
it. ``forcecheck config show`` prints every value and its source.

This module is the only code that reads the environment for settings (and the CI variables
``GITHUB_ACTIONS`` and ``GITHUB_STEP_SUMMARY``, ``NO_COLOR`` and ``FORCE_COLOR``). It holds the
settings and their resolution; finding and reading the file is ``config_files``, checking one
value ``config_values``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from forcecheck.config_files import ConfigError, find_config_file, read_config_file
from forcecheck.config_values import coerce, env_failer, file_failer, pins
from forcecheck.records import Record

CONFIG_ENV = "FORCECHECK_CONFIG"
OUTPUT_FORMATS = ("text", "concise", "json", "sarif", "github", "junit")
CI_DEFAULT = "CI default (GITHUB_ACTIONS=true)"



class Setting(Record, frozen=True):
    name: str
    kind: str  # "str", "path", "list", "paths", "map", "choice", "date", "int", "points", "pins", "source"
    env: str | None
    default: Any
    choices: tuple[str, ...]
    doc: str
    scoped: bool
    """May also be set per format (``formats:``) and per path glob (``paths:``)."""
    flag: str | None
    """The command-line flag that sets it, for messages and the command-line page's table (docs/cli.md)."""

    def __init__(
        self,
        name: str,
        kind: str,
        env: str | None,
        default: Any,
        choices: tuple[str, ...] = (),
        doc: str = "",
        scoped: bool = False,
        flag: str | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "name", name)
        _set(self, "kind", kind)
        _set(self, "env", env)
        _set(self, "default", default)
        _set(self, "choices", choices)
        _set(self, "doc", doc)
        _set(self, "scoped", scoped)
        _set(self, "flag", flag)


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in [
        Setting("format", "str", "FORCECHECK_FORMAT", None, doc="format of decks that name none", flag="--format"),
        Setting("catalog", "path", "FORCECHECK_CATALOG", None, doc="card catalog (imported SQLite or catalog JSON)", scoped=True, flag="--catalog"),
        Setting("banlist", "str", "FORCECHECK_BANLIST", None, doc="banlist name, or none", scoped=True, flag="--banlist"),
        Setting("banlist_file", "path", "FORCECHECK_BANLIST_FILE", None, doc="lflist.conf file to take the banlist from", scoped=True, flag="--banlist-file"),
        Setting("as_of", "date", "FORCECHECK_AS_OF", None, doc="date (YYYY-MM-DD) whose banlist versions apply; default today", scoped=True, flag="--as-of"),
        Setting("points_cap", "points", "FORCECHECK_POINTS_CAP", None, doc="the most points a deck may carry in a points format (Genesys; default: the format's, 100)", scoped=True, flag="--points-cap"),
        Setting("select", "list", "FORCECHECK_SELECT", ["ALL"], doc="rules to report (codes, prefixes, slugs, rule ids)", scoped=True, flag="--select"),
        Setting("extend_select", "list", "FORCECHECK_EXTEND_SELECT", [], doc="rules to report in addition to select", scoped=True, flag="--extend-select"),
        Setting("ignore", "list", "FORCECHECK_IGNORE", [], doc="rules not to report", scoped=True, flag="--ignore"),
        Setting("severity", "map", None, {}, doc="severity per rule token: error or warning", scoped=True, flag="--warn"),
        Setting("format_dirs", "paths", "FORCECHECK_FORMATS_PATH", [], doc="extra directories of format files", flag="--formats-dir"),
        Setting("output_format", "choice", "FORCECHECK_OUTPUT_FORMAT", "text", OUTPUT_FORMATS, doc="text, concise, json, sarif, github, junit", flag="--output-format"),
        Setting("fail_on", "choice", "FORCECHECK_FAIL_ON", "error", ("error", "warning"), doc="lowest severity that fails the run", flag="--fail-on"),
        Setting("color", "choice", "FORCECHECK_COLOR", "auto", ("auto", "always", "never"), doc="colour in text output", flag="--color"),
        Setting("jobs", "int", "FORCECHECK_JOBS", None, doc="worker processes for check and register (1-64; default: every core for 200 files or more)", flag="--jobs"),
        Setting("fetch_source", "source", "FORCECHECK_FETCH_SOURCE", None, doc="the mirror 'catalog fetch' downloads from (a base URL or a folder); default: the public addresses", flag="--source"),
        Setting("pins", "pins", None, {}, doc="sha256 of each file 'catalog fetch' may import, by its place in a mirror (fow/cards.json, ygo/cards.cdb, ygo/cards-ja.cdb, ygo/lflist.conf)"),
    ]
}
SCOPE_KEYS = ("formats", "paths")
ADDITIVE = ("extend_select", "ignore", "severity")
"""Scoped values of these add to the outer ones (a path's ``ignore`` adds to the top level's);
every other scoped value replaces the outer one."""


class Scope(Record, frozen=True):
    """Settings for the decks of one format (``formats: {NAME: ...}``) or one path glob (``paths:``)."""

    where: str
    values: Mapping[str, Any]
    sources: Mapping[str, str]
    pattern: str | None
    matches: Callable[[str], bool] | None

    def __init__(
        self,
        where: str,
        values: Mapping[str, Any],
        sources: Mapping[str, str],
        pattern: str | None = None,
        matches: Callable[[str], bool] | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "where", where)
        _set(self, "values", values)
        _set(self, "sources", sources)
        _set(self, "pattern", pattern)
        _set(self, "matches", matches)


class DeckSettings(Record, frozen=True, uncompared=("banlist_source", "catalog_source")):
    """The settings one deck is checked with (hashable: decks that share them share a cache)."""

    catalog: str | None
    banlist: str | None
    banlist_file: str | None
    as_of: str | None
    select: tuple[str, ...]
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    severity: tuple[tuple[str, str], ...]
    banlist_source: str
    catalog_source: str
    points_cap: int | None

    def __init__(
        self,
        catalog: str | None,
        banlist: str | None,
        banlist_file: str | None,
        as_of: str | None,
        select: tuple[str, ...],
        extend_select: tuple[str, ...],
        ignore: tuple[str, ...],
        severity: tuple[tuple[str, str], ...],
        banlist_source: str = "default",
        catalog_source: str = "default",
        points_cap: int | None = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "points_cap", points_cap)
        _set(self, "catalog", catalog)
        _set(self, "banlist", banlist)
        _set(self, "banlist_file", banlist_file)
        _set(self, "as_of", as_of)
        _set(self, "select", select)
        _set(self, "extend_select", extend_select)
        _set(self, "ignore", ignore)
        _set(self, "severity", severity)
        _set(self, "banlist_source", banlist_source)
        _set(self, "catalog_source", catalog_source)


class Config(Record, hidden=("_deck_cache",)):
    values: dict[str, Any]
    sources: dict[str, str]
    tiers: dict[str, str]
    """Per setting: ``flag``, ``env``, ``file``, ``ci`` or ``default`` (who set the top-level value)."""
    file: Path | None
    formats: dict[str, Scope]
    paths: list[Scope]
    github_actions: bool
    step_summary: str | None
    """``GITHUB_STEP_SUMMARY``: the file a GitHub job's Markdown summary is appended to."""
    no_color: bool
    force_color: bool
    _deck_cache: dict

    def __init__(
        self,
        values: dict[str, Any] | None = None,
        sources: dict[str, str] | None = None,
        tiers: dict[str, str] | None = None,
        file: Path | None = None,
        formats: dict[str, Scope] | None = None,
        paths: list[Scope] | None = None,
        github_actions: bool = False,
        step_summary: str | None = None,
        no_color: bool = False,
        force_color: bool = False,
        _deck_cache: dict | None = None,
    ) -> None:
        self.values = {} if values is None else values
        self.sources = {} if sources is None else sources
        self.tiers = {} if tiers is None else tiers
        self.file = file
        self.formats = {} if formats is None else formats
        self.paths = [] if paths is None else paths
        self.github_actions = github_actions
        self.step_summary = step_summary
        self.no_color = no_color
        self.force_color = force_color
        self._deck_cache = {} if _deck_cache is None else _deck_cache

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def label(self) -> str | None:
        """The configuration file used, as reports name it (None: no file)."""
        if self.file is None:
            return None
        try:
            return os.path.relpath(self.file)
        except ValueError:  # pragma: no cover - another drive on Windows
            return str(self.file)

    @property
    def forced_format(self) -> str | None:
        """``--format``: it beats the format a YAML decklist names."""
        return self.values["format"] if self.tiers.get("format") == "flag" else None

    def _relative(self, path: Path | str) -> str:
        base = self.file.parent if self.file else Path.cwd()
        absolute = os.path.abspath(path)
        try:
            return Path(absolute).relative_to(os.path.abspath(base)).as_posix()
        except ValueError:
            return Path(path).as_posix()

    def path_scope(self, path: Path | str) -> Scope | None:
        """The first ``paths:`` glob that matches the deck file, if any."""
        if not self.paths:
            return None
        rel = self._relative(path)
        return next((scope for scope in self.paths if scope.matches(rel)), None)

    def format_for(self, path: Path | str) -> str | None:
        """The configured format for a deck file that names none: ``--format`` or
        ``FORCECHECK_FORMAT``, else its ``paths:`` glob's format, else ``format:``."""
        if self.tiers.get("format") in ("flag", "env"):
            return self.values["format"]
        scope = self.path_scope(path)
        if scope is not None and "format" in scope.values:
            return scope.values["format"]
        return self.values.get("format")

    def deck_settings(self, path: Path | str | None, format_name: str | None) -> DeckSettings:
        """The scoped settings (catalog, banlist, as-of, rule selection) for one deck."""
        scope = self.path_scope(path) if path is not None else None
        key = (id(scope), format_name)
        found = self._deck_cache.get(key)
        if found is None:
            found = self._deck_cache[key] = self._resolve(scope, self.formats.get(format_name or ""))
        return found

    def _pick(self, name: str, scopes: list[Scope]) -> tuple[Any, str]:
        if self.tiers.get(name) in ("flag", "env"):
            return self.values[name], self.sources[name]
        for scope in scopes:
            if name in scope.values:
                return scope.values[name], scope.sources[name]
        return self.values[name], self.sources[name]

    def _resolve(self, path_scope: Scope | None, format_scope: Scope | None) -> DeckSettings:
        scopes = [s for s in (path_scope, format_scope) if s is not None]
        picked = {name: self._pick(name, scopes) for name in ("catalog", "banlist", "banlist_file", "as_of", "select", "points_cap")}
        added: dict[str, Any] = {}
        for name in ADDITIVE:
            value = self.values[name]
            for scope in reversed(scopes):  # the format's, then the path's, on top of the top level
                extra = scope.values.get(name)
                if extra:
                    value = {**value, **extra} if isinstance(value, dict) else [*value, *extra]
            added[name] = value
        return DeckSettings(
            catalog=picked["catalog"][0],
            banlist=picked["banlist"][0],
            banlist_file=picked["banlist_file"][0],
            as_of=picked["as_of"][0],
            select=tuple(picked["select"][0]),
            extend_select=tuple(added["extend_select"]),
            ignore=tuple(added["ignore"]),
            severity=tuple(added["severity"].items()),
            banlist_source=picked["banlist"][1] if picked["banlist"][0] is not None else picked["banlist_file"][1],
            catalog_source=picked["catalog"][1],
            points_cap=picked["points_cap"][0],
        )

    def scoped_values(self, name: str) -> list[tuple[Any, str]]:
        """Every value of a scoped setting in the file's scopes, with its source."""
        return [(s.values[name], s.sources[name]) for s in [*self.formats.values(), *self.paths] if name in s.values]

    def color_for(self, option: str, out_format: str, to_file: bool, terminal: bool) -> str:
        """``always`` or ``never`` for this run: machine formats and files are never coloured;
        ``auto`` colours a terminal unless ``NO_COLOR`` is set, or anything when ``FORCE_COLOR`` is."""
        if out_format != "text" or to_file or option == "never":
            return "never"
        if option == "always":
            return "always"
        if self.no_color:
            return "never"
        if self.force_color:
            return "always"
        return "always" if terminal else "never"

    def __getstate__(self) -> dict:
        """A worker process gets the settings as they are (the glob matchers are made again there)."""
        state = dict(self.__dict__)
        state["_deck_cache"] = {}
        state["paths"] = [Scope(s.where, s.values, s.sources, s.pattern) for s in self.paths]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.paths = [Scope(s.where, s.values, s.sources, s.pattern, glob_matcher(s.pattern)) for s in self.paths]


def glob_matcher(pattern: str) -> Callable[[str], bool]:
    """``**`` crosses folders, ``*`` and ``?`` stay in one (as in .gitignore-style globs)."""
    regex = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            regex += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            regex += ".*"
            i += 2
        elif pattern[i] == "*":
            regex += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            regex += "[^/]"
            i += 1
        else:
            regex += re.escape(pattern[i])
            i += 1
    compiled = re.compile(regex)
    return lambda path: compiled.fullmatch(path) is not None


def _suggest(written: str, known) -> str:
    """``; did you mean 'format'?`` for a misspelt key, else nothing."""
    from forcecheck.wording import close_names, did_you_mean

    near = close_names(written, known)
    return f"; {did_you_mean(near)}" if near else ""


def _scope(where: str, raw: Any, path: Path, line_of: Callable[[tuple], int | None], at: tuple, allow_format: bool, pattern: str | None = None) -> Scope:
    """One ``formats:`` or ``paths:`` entry: its settings checked like the top level's."""
    base = path.parent
    if allow_format and isinstance(raw, str):
        raw = {"format": raw}
    if not isinstance(raw, dict):
        expected = "a format name or a mapping of settings" if allow_format else "a mapping of settings"
        hint = ""
        if not allow_format and isinstance(raw, str):
            hint = f" (a format per path glob goes under paths:, e.g. paths: {{{at[-1]!r}: {raw}}})"
        raise ConfigError(f"{where}: expected {expected}, got {raw!r}{hint}", path, line_of(at))
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    allowed = [n for n, s in SETTINGS.items() if s.scoped] + (["format"] if allow_format else [])
    for key, value in raw.items():
        name = str(key).replace("-", "_")
        line = line_of(at + (key,))
        if name not in allowed:
            hint = _suggest(name, allowed) if name not in SETTINGS else ""
            raise ConfigError(f"{where}: {key!r} cannot be set here{hint} (settings per {'path' if allow_format else 'format'}: {', '.join(allowed)})", path, line)
        values[name] = coerce(SETTINGS[name], value, file_failer(f"{where}: {name}", path, line), base)
        sources[name] = f"{path}:{line}" if line else str(path)
    return Scope(where, values, sources, pattern, glob_matcher(pattern) if pattern is not None else None)


def load_config(
    flags: Mapping[str, Any],
    cwd: Path | None = None,
    config_path: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> Config:
    """Resolve every setting: flags (values that are not None or empty), the environment, the
    configuration file (top level; ``formats:`` and ``paths:`` scopes kept for each deck),
    the CI default and the built-in default."""
    env = os.environ if env is None else env
    config = Config(
        github_actions=env.get("GITHUB_ACTIONS") == "true",
        step_summary=env.get("GITHUB_STEP_SUMMARY") or None,
        no_color=bool(env.get("NO_COLOR")),
        force_color=bool(env.get("FORCE_COLOR")),
    )
    if config_path is None and env.get(CONFIG_ENV):
        config_path = env[CONFIG_ENV]
    if config_path:
        path = Path(config_path)
    else:
        try:
            here = cwd or Path.cwd()
        except OSError as exc:
            raise ConfigError(f"the current folder cannot be used ({exc.strerror or exc}: removed?), so no configuration file "
                              "can be looked for; run from another folder or name one with --config") from None
        path = find_config_file(here, home)
    file_values: dict[str, tuple[Any, int | None]] = {}
    if path is not None:
        if not os.path.isfile(path):
            raise ConfigError("not a config file (a folder, FIFO, device or link to nothing)" if os.path.lexists(path) else "no such config file", path)
        raw, line_of = read_config_file(path)
        for key in raw:
            name = str(key).replace("-", "_")
            line = line_of((key,))
            if name in SCOPE_KEYS:
                body = raw[key]
                if body is None:
                    continue
                if not isinstance(body, dict):
                    raise ConfigError(f"{name}: expected a mapping, got {body!r}", path, line)
                for item, settings in body.items():
                    where = f"{name}: {item}"
                    if name == "formats":
                        config.formats[str(item)] = _scope(where, settings, path, line_of, (key, item), allow_format=False)
                    else:
                        config.paths.append(_scope(where, settings, path, line_of, (key, item), allow_format=True, pattern=str(item)))
                continue
            if name not in SETTINGS:
                known = [*SETTINGS, *SCOPE_KEYS]
                raise ConfigError(f"unknown setting {key!r}{_suggest(name, known)} (settings: {', '.join(known)})", path, line)
            file_values[name] = (raw[key], line)
        config.file = path
    for name, setting in SETTINGS.items():
        flag = flags.get(name)
        if flag not in (None, [], (), {}):
            config.values[name], config.sources[name], config.tiers[name] = flag, f"command line {setting.flag}", "flag"
        elif setting.env and env.get(setting.env):
            fail = env_failer(setting.env)
            config.values[name] = coerce(setting, env[setting.env], fail, None)
            config.sources[name], config.tiers[name] = f"environment {setting.env}", "env"
        elif name == "pins" and name in file_values:  # each entry's own line in errors
            value, line = file_values[name]
            config.values[name] = pins(value, file_failer(name, path, line),
                                        lambda role, line=line, name=name: file_failer(name, path, line_of(("pins", role)) or line))
            config.sources[name] = f"{path}:{line}" if line else str(path)
            config.tiers[name] = "file"
        elif name in file_values:
            value, line = file_values[name]
            config.values[name] = coerce(setting, value, file_failer(name, path, line), path.parent)
            config.sources[name] = f"{path}:{line}" if line else str(path)
            config.tiers[name] = "file"
        elif name == "output_format" and config.github_actions:
            config.values[name], config.sources[name], config.tiers[name] = "github", CI_DEFAULT, "ci"
        else:
            config.values[name], config.sources[name], config.tiers[name] = setting.default, "default", "default"
    return config
