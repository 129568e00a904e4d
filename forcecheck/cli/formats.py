"""Commands that explain: ``formats list|show|schema``, ``rules [RULE]`` and ``config show``."""

import os
from pathlib import Path
from typing import Optional

import typer

from forcecheck.cli.application import app, config_app, formats_app
from forcecheck.cli.common import ConfigOpt, FormatsDirOpt, PlainOutputOpt
from forcecheck.cli.runtime import PlainOutput, fail


def _formats_using(kind, format_dirs) -> list[tuple[str, str]]:
    """(format, rule id) of every loadable format's rules of this kind."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.format_spec.loader import available_formats, load_format

    used = []
    for name, path in available_formats(format_dirs).items():
        try:
            spec = load_format(str(path), format_dirs)
        except ForcecheckError:
            continue
        used += [(name, r.id) for r in spec.rules if r.kind == kind.slug]
    return used


@app.command("rules")
def rules_command(
    rule: Optional[str] = typer.Argument(None, metavar="RULE", help="One rule kind or input check, by code (FC201) or slug (copy-limit); default: all."),
    output_format: PlainOutputOpt = PlainOutput.text,
    formats_dir: FormatsDirOpt = None,
) -> None:
    """Every rule kind and input check: code, slug, default severity, family and documentation
    (with RULE: that one, and the formats' rules of that kind)."""
    import json

    from forcecheck import DOCS_URL
    from forcecheck.rules.registry import KINDS, KINDS_BY_CODE

    kinds = sorted(KINDS.values(), key=lambda k: k.code)
    if rule is not None:
        kind = KINDS_BY_CODE.get(rule.upper()) or KINDS.get(rule.lower())
        if kind is None:
            fail(f"no rule {rule!r} (codes and slugs: {', '.join(f'{k.code} {k.slug}' for k in kinds)})")
        used = _formats_using(kind, [str(d) for d in formats_dir or []]) if kind.compile is not None else []
        if output_format is PlainOutput.json:
            doc = {"code": kind.code, "slug": kind.slug, "severity": kind.severity, "family": kind.family, "doc": kind.doc,
                   "url": kind.url, "formats": [{"format": f, "rule": r} for f, r in used]}
            print(json.dumps(doc, ensure_ascii=False, indent=2))
            return
        print(f"{kind.code} {kind.slug} ({kind.family}, default severity {kind.severity})")
        print(f"  {kind.doc}")
        if kind.compile is None:
            print("  An input check: every format runs it.")
        elif used:
            print("  Rules of this kind: " + ", ".join(f"{r} ({f})" for f, r in used))
        print(f"  Select or ignore it with {kind.code}, {kind.code[:3]} (its family) or {kind.slug}; 'forcecheck formats show NAME' explains each format's rules.")
        print(f"  Documentation: {kind.url}")
        return
    if output_format is PlainOutput.json:
        print(json.dumps([{"code": k.code, "slug": k.slug, "severity": k.severity, "family": k.family, "doc": k.doc, "url": k.url} for k in kinds], indent=2))
        return
    for kind in kinds:
        print(f"{kind.code}  {kind.slug:<24} {kind.severity:<8} {kind.family:<11} {kind.doc}")
    print("\nOne rule in detail: 'forcecheck rules FC201'. Each format's rules are instances of these kinds with their own ids: 'forcecheck formats show NAME'.")
    print(f"The documentation of every rule: {DOCS_URL}rules/")


def _shown(value) -> str:
    if value in (None, [], {}):
        return "-"
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


@config_app.command("show")
def config_show(config_file: ConfigOpt = None) -> None:
    """The resolved settings (flag > FORCECHECK_* variable > configuration file > CI default >
    built-in default), each with where it came from, and the settings per format and per path."""
    from forcecheck.config import SETTINGS, load_config
    from forcecheck.config_files import search_stop

    config = load_config({}, config_path=config_file)
    if config.file:
        print(f"config file: {config.file}")
    else:
        folders = search_stop(Path.cwd())
        if len(folders) > 1:
            where = f" up to {folders[-1]}"
        elif os.path.lexists(folders[0] / ".git"):
            where = " only: the root of its repository"
        else:
            where = " only: it is in no repository and not below the home folder"
        print(f"config file: none (searched {folders[0]}{where})")
    for name in SETTINGS:
        print(f"{name:<14} {_shown(config.values[name]):<40} ({config.sources[name]})")
    for _title, scopes in (("formats", list(config.formats.values())), ("paths", config.paths)):
        for scope in scopes:
            print(f"{scope.where}")
            for name, value in scope.values.items():
                print(f"  {name:<12} {_shown(value):<40} ({scope.sources[name]})")


@formats_app.command("list")
def formats_list(formats_dir: FormatsDirOpt = None) -> None:
    """List the formats: name, game, title and the file that defines it, and the list each applies
    by default (a shipped list with its age)."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.format_spec.loader import available_formats, load_format

    found = available_formats(formats_dir or [])
    if not found:
        fail("no formats found")
    status = 0
    for name, path in found.items():
        try:
            spec = load_format(str(path), formats_dir or [])
        except ForcecheckError as exc:
            print(f"{name:<12} ?     broken spec: {exc}")
            status = 2
            continue
        print(f"{name:<12} {spec.game:<5} {spec.title}  ({path})")  # a write fault is the run's, not the spec's
        said = default_list(spec)
        if said:
            print(f"{'':<12} {'':<5} list: {said}")
    raise typer.Exit(status)


def default_list(spec, today: str | None = None) -> str | None:
    """Which list a format applies without --banlist, and how old a list it ships is: the newest
    shipped version and its record's age, the imported lists it takes, or a list it needs. None
    for a format without a banlist rule."""
    from datetime import date

    from forcecheck.banlists import counts_points, months_between, past_trust

    rules = [r for r in spec.rules if r.kind == "banlist"]
    if not rules:
        return None
    rule = rules[0]
    kind = "points list" if counts_points(rule) else "list"
    if getattr(rule, "versions", None):
        newest = max(rule.versions, key=lambda v: str(v.effective))
        recorded = getattr(rule, "recorded", None)
        if recorded is None:
            return f"{newest.name} (in force from {newest.effective}; shipped with the format)"
        day = date.fromisoformat(today) if today else date.today()
        then = date.fromisoformat(str(recorded))
        months = months_between(then, day)
        age = f"{months} months ago" if months > 1 else "this month" if months < 1 else "a month ago"
        stale = (f", past the format's {rule.stale_after_months} months: checks warn it may be stale (FC604)"
                 if past_trust(then, day, rule.stale_after_months) else "")
        return f"{newest.name} (shipped; recorded {recorded}, {age}{stale})"
    if getattr(rule, "required", False):
        return f"the format's own {kind}, which must be imported ({rule.list_file or 'forcecheck banlist import FILE'})"
    if getattr(rule, "imported", None):
        return f"the latest imported {kind} the format takes, in force on --as-of (default today); none imported: none"
    if getattr(rule, "cards", None) is not None:
        return f"{rule.list_name} (written in the format)"
    return "none unless chosen (--banlist, --banlist-file)"


@formats_app.command("show")
def formats_show(
    name: str = typer.Argument(..., metavar="FORMAT", help="Format name or format YAML file."),
    formats_dir: FormatsDirOpt = None,
) -> None:
    """Explain a format: its sections and every rule in plain words, with rule ids and codes."""
    from forcecheck.format_spec.describe import condition_kinds, rule_summary
    from forcecheck.format_spec.loader import load_format
    from forcecheck.rules.registry import KINDS

    spec = load_format(name, formats_dir or [])
    print(f"{spec.title} ({spec.name}, game: {spec.game})")
    if spec.extends:
        print(f"extends: {spec.extends}")
    if spec.description:
        print(spec.description.strip())
    if spec.source:
        print(f"source: {spec.source}")
    print("\nsections:")
    for section in spec.sections:
        aliases = f" (also: {', '.join(section.aliases)})" if section.aliases else ""
        print(f"  {section.id:<9} {section.title}{aliases}")
    if spec.ruler:
        print(f"\nruler: the card(s) in {spec.section(spec.ruler.section).title}; rules that say 'the ruler' read them")
    print(f"total cost of double-faced cards: {spec.card_policy.double_faced_cost}")
    print("\nrules:")
    for rule in spec.rules:
        kind = KINDS[rule.kind]
        severity = rule.severity or kind.severity
        print(f"  {rule.id} [{kind.code} {rule.kind}, {severity}]")
        print(f"      {rule.description}")
        print(f"      checks: {rule_summary(rule, spec)}")
        if rule.source:
            print(f"      source: {rule.source}")
    known = condition_kinds(spec)
    if known:
        print("\ncard conditions checked (a card's construction text as data; 'catalog show NAME' lists a card's):")
        for line in known:
            print(f"  {line}")
    print("\ninput checks (every format):")
    for kind in KINDS.values():
        if kind.compile is None:
            print(f"  {kind.slug} [{kind.code}, {kind.severity}] {kind.doc}")
    if spec.notes:
        print("\nnotes:")
        for note in spec.notes:
            print(f"  - {note}")


@formats_app.command("schema")
def formats_schema() -> None:
    """Print the JSON Schema of format spec files (for editor completion and validation)."""
    import json

    from forcecheck.format_spec.model import FormatSpec

    print(json.dumps(FormatSpec.model_json_schema(by_alias=True), indent=2))
