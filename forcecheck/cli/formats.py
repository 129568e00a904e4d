"""Commands that explain: ``formats list|show|schema``, ``rules`` and ``config show``."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from forcecheck.cli.app import app, config_app, formats_app
from forcecheck.cli.common import FormatsDirOption, _fail


@app.command("rules")
def rules_command(
    output_format: str = typer.Option("text", "--output-format", "-o", help="text or json."),
) -> None:
    """Every rule kind and input check: code, slug, default severity, family and documentation."""
    import json

    from forcecheck.rules.registry import KINDS

    kinds = sorted(KINDS.values(), key=lambda k: k.code)
    if output_format == "json":
        print(json.dumps([{"code": k.code, "slug": k.slug, "severity": k.severity, "family": k.family, "doc": k.doc} for k in kinds], indent=2))
        return
    if output_format != "text":
        _fail(f"unknown output format {output_format!r} (choices: text, json)")
    for kind in kinds:
        print(f"{kind.code}  {kind.slug:<24} {kind.severity:<8} {kind.family:<11} {kind.doc}")
    print("\nEach format's rules are instances of these kinds with their own ids: 'forcecheck formats show NAME'.")



@config_app.command("show")
def config_show(config_file: Optional[Path] = typer.Option(None, "--config", help="Configuration file to use instead of the nearest one.")) -> None:
    """The merged configuration (flags > FORCECHECK_* variables > config file > defaults), with sources."""
    from forcecheck.config import SETTINGS, load_config
    from forcecheck.errors import ForcecheckError

    try:
        config = load_config({}, config_path=config_file)
    except ForcecheckError as exc:
        _fail(str(exc))
    print(f"config file: {config.file or '(none found from ' + str(Path.cwd()) + ' up)'}")
    for name, setting in SETTINGS.items():
        value = config.values[name]
        shown = "-" if value in (None, [], {}) else (", ".join(value) if isinstance(value, list) else (", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else str(value)))
        print(f"{name:<14} {shown:<40} ({config.sources[name]})")


@formats_app.command("list")
def formats_list(formats_dir: Optional[List[Path]] = FormatsDirOption) -> None:
    """List the formats: name, game, title and the file that defines it."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.spec.loader import available_formats, load_format

    found = available_formats(formats_dir or [])
    if not found:
        _fail("no formats found")
    status = 0
    for name, path in found.items():
        try:
            spec = load_format(str(path), formats_dir or [])
            print(f"{name:<12} {spec.game:<5} {spec.title}  ({path})")
        except ForcecheckError as exc:
            print(f"{name:<12} ?     broken spec: {exc}")
            status = 2
    raise typer.Exit(status)


@formats_app.command("show")
def formats_show(
    name: str = typer.Argument(..., help="Format name or format YAML file."),
    formats_dir: Optional[List[Path]] = FormatsDirOption,
) -> None:
    """Explain a format: its sections and every rule in plain words, with rule ids and codes."""
    from forcecheck.errors import ForcecheckError
    from forcecheck.rules.registry import KINDS
    from forcecheck.spec.describe import condition_kinds, rule_summary
    from forcecheck.spec.loader import load_format

    try:
        spec = load_format(name, formats_dir or [])
    except ForcecheckError as exc:
        _fail(str(exc))
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

    from forcecheck.spec.model import FormatSpec

    print(json.dumps(FormatSpec.model_json_schema(by_alias=True), indent=2))
