"""MkDocs hooks: the pages made from forcecheck itself when the site is built, so that no copy
of their text lives in the repository and none can fall behind the code.

- ``rules.md``: every rule kind and input check of the registry
  (``forcecheck.rules.registry.KINDS``), one anchor per code (``rules/#fc201``: the address
  SARIF's ``helpUri``, the JSON ``url`` and ``forcecheck rules FC201`` give), with the
  formats' rules of each kind;
- ``formats/NAME.md`` for every built-in format: what ``forcecheck formats show NAME`` prints
  (the command itself is run), then its rules with links to their codes; the pages join the
  "Formats" section of the navigation, so a new format file gets its page by itself;
- ``changelog.md``: the repository's ``CHANGELOG.md``;
- on ``architecture.md``, the ``<!-- import-layers -->`` marker becomes the layers the imports
  draw today, measured by ``scripts/import_layers.py``; on ``formats/index.md``,
  ``<!-- format-table -->`` becomes a row per built-in format.

Only the built-in formats are documented: ``FORCECHECK_FORMATS_PATH`` is set aside while the
site is built. Nothing here reaches the network.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
FORMATS_SECTION = "Formats"
"""The navigation section (``mkdocs.yml``) that the format pages join, after its own pages."""


@contextlib.contextmanager
def _built_in_formats_only():
    saved = os.environ.pop("FORCECHECK_FORMATS_PATH", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["FORCECHECK_FORMATS_PATH"] = saved


_FORMATS: dict[str, object] | None = None


def _formats() -> dict[str, object]:
    """Format name -> its spec, for every built-in format (name order), read once a build."""
    global _FORMATS
    if _FORMATS is None:
        from forcecheck.format_spec.loader import available_formats, load_format

        with _built_in_formats_only():
            _FORMATS = {name: load_format(str(path)) for name, path in sorted(available_formats().items())}
    return _FORMATS


def _markdown_text(text: str) -> str:
    """Plain text as Markdown shows it: ``<Crew>`` stays text, never an HTML tag."""
    import html

    return html.escape(text, quote=False)


# -- the rules page ---------------------------------------------------------------------------

FAMILIES = {
    "input": ("Input", "What the decklist says that cannot be used as written: every format runs these checks."),
    "sizes": ("Sizes", "How many cards a section holds."),
    "copies": ("Copies", "How many copies of a name the deck holds."),
    "membership": ("Membership", "Which cards a section may hold."),
    "counts": ("Counts and curves", "How many cards of a kind (a cost, a type) the deck holds."),
    "identity": ("Identity", "Cards within the ruler's attributes."),
    "banlists": ("Banlists", "Banned, limited and Forbidden/Limited lists, by date."),
    "ruler": ("Ruler-derived permissions", "What the ruler's own text allows and requires."),
}


def rules_page() -> str:
    from forcecheck import rule_url
    from forcecheck.rules.registry import KINDS

    used: dict[str, list[tuple[str, str]]] = {}
    for name, spec in _formats().items():
        for rule in spec.rules:
            used.setdefault(rule.kind, []).append((name, rule.id))
    kinds = sorted(KINDS.values(), key=lambda k: k.code)
    lines = [
        "# Rule codes",
        "",
        "Every finding forcecheck reports carries a code (`FC201`) and a slug (`copy-limit`): the kind of",
        "rule it is. A format's rules are instances of these kinds with ids of their own (`main-size`),",
        "listed on each [format's page](formats/index.md). Codes never change meaning. Select, ignore or",
        "grade them by code, by family (`FC2`), by slug or by a format's rule id ([Configuration](configuration.md)).",
        "",
        f"Each code has its own address here (`{rule_url('FC201')}`): SARIF's `helpUri`, the JSON",
        "`url` of each violation and `forcecheck rules FC201` give it.",
        "",
        "| code | slug | family | default severity |",
        "|---|---|---|---|",
    ]
    lines += [f"| [{k.code}](#{k.code.lower()}) | `{k.slug}` | {FAMILIES.get(k.family, (k.family,))[0].lower()} | {k.severity} |" for k in kinds]
    family = None
    for kind in kinds:
        if kind.family != family:
            family = kind.family
            title, about = FAMILIES.get(family, (family.title(), ""))
            lines += ["", f"## {title} (FC{kind.code[2]}xx) {{#family-{family}}}", "", about]
        lines += ["", f"### {kind.code} {kind.slug} {{#{kind.code.lower()}}}", "",
                  f"Default severity **{kind.severity}**. {_markdown_text(kind.doc)}", ""]
        if kind.compile is None:
            lines.append("An input check: every format runs it.")
        else:
            rules = used.get(kind.slug, [])
            if rules:
                lines.append("Rules of this kind: " + ", ".join(f"`{rule}` ([{name}](formats/{name}.md))" for name, rule in rules) + ".")
            else:
                lines.append("No built-in format has a rule of this kind; a format of your own may.")
        lines += ["", f"Select or ignore it with `{kind.code}`, `{kind.code[:3]}` (its family) or `{kind.slug}`; "
                      f"`forcecheck rules {kind.code}` says the same in a terminal."]
    return "\n".join(lines) + "\n"


# -- the format pages -------------------------------------------------------------------------

def format_show_text(name: str) -> str:
    """What ``forcecheck formats show NAME`` prints: the command's own function, run here."""
    from forcecheck.cli.formats import formats_show

    out = io.StringIO()
    with _built_in_formats_only(), contextlib.redirect_stdout(out):
        formats_show(name, None)
    return out.getvalue()


def format_page(name: str, spec) -> str:
    from forcecheck.rules.registry import KINDS

    game = {"fow": "Force of Will", "ygo": "Yu-Gi-Oh!"}.get(spec.game, spec.game)
    lines = [f"# {spec.title} (`{name}`)", "", f"A {game} format" + (f", built on [`{spec.extends}`]({spec.extends}.md)" if spec.extends else "") + ".", ""]
    lines += [f"```sh\nforcecheck check decks/ --format {name}\n```", "",
              f"`forcecheck formats show {name}` explains it in a terminal, as below (generated from "
              f"`formats/{name}.yaml` when this site was built):", "", "```text", format_show_text(name).rstrip("\n"), "```", ""]
    if spec.rules:
        lines += ["## Its rules", "", "| rule id | kind | severity | what it asks |", "|---|---|---|---|"]
        for rule in spec.rules:
            kind = KINDS[rule.kind]
            description = _markdown_text(" ".join((rule.description or "").split())).replace("|", "\\|")
            lines.append(f"| `{rule.id}` | [{kind.code} {kind.slug}](../rules.md#{kind.code.lower()}) | {rule.severity or kind.severity} | {description} |")
        lines.append("")
    lines += ["Every format also runs the [input checks](../rules.md#family-input) (unknown cards, counts, sections)."]
    return "\n".join(lines) + "\n"


# -- the changelog -----------------------------------------------------------------------------

def changelog_page() -> str:
    """``CHANGELOG.md``, its links into this site made relative (``DOCS_URL + 'ci/#pre-commit'``
    -> ``ci.md#pre-commit``), so that the build checks the pages and anchors they name."""
    import re

    from forcecheck import DOCS_URL

    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.sub(re.escape(DOCS_URL) + r"([a-z0-9/-]*?)/?(#[\w-]+)?(?=\))", lambda m: f"{m.group(1) or 'index'}.md{m.group(2) or ''}", text)


# -- the architecture page's layers ----------------------------------------------------------

LAYERS_MARKER = "<!-- import-layers -->"


def _import_layers():
    import importlib.util

    spec = importlib.util.spec_from_file_location("import_layers", ROOT / "scripts" / "import_layers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def layers_markdown() -> str:
    data = _import_layers().measure(["forcecheck"])
    units, statements, edges = data["units"], data["statements"], data["edges"]
    lines = [
        f"Today: **{len(units)} units on {data['layers']} layers**; {statements['module']} imports of forcecheck's own modules "
        f"at module level, {statements['deferred']} inside functions and {statements['typing']} for type checking only; "
        f"between units, {edges['module']} at module level and {edges['deferred']} inside functions only.",
        "",
        "| layer | units (a folder: modules / lines; a file: lines) |",
        "|---|---|",
    ]
    for n in range(data["layers"] - 1, -1, -1):
        members = [f"`{u}` ({units[u]['modules']} / {units[u]['lines']})" if units[u]["modules"] > 1 else f"`{u}` ({units[u]['lines']})"
                   for u in units if units[u]["layer"] == n]
        lines.append(f"| {n} | {', '.join(members)} |")
    circles = data["circles"]
    lines += ["", f"**Circles** between modules (imports of any kind): {len(circles)}." + ("" if circles else " None.")]
    for circle in circles:
        lines.append(f"- {' ↔ '.join(f'`{m}`' for m in circle['modules'])}: " + "; ".join(f"`{x}`" for x in circle["imports"]))
    upward = data["upward"]
    lines += ["", f"**Imports that reach up** (inside a function, to a unit on the same layer or higher): "
                  f"{sum(len(x['at']) for x in upward)}, from {len({x['from'] for x in upward})} units:", "",
              "| from (layer) | to (layer) × imports |", "|---|---|"]
    for source in sorted({x["from"] for x in upward}):
        mine = [x for x in upward if x["from"] == source]
        lines.append(f"| `{source}` ({mine[0]['from_layer']}) | " + ", ".join(f"`{x['to']}` ({x['to_layer']}) × {len(x['at'])}" for x in mine) + " |")
    lines += ["", "Largest modules (lines): " + ", ".join(f"`{path}` ({n})" for n, path in data["largest"]) + "."]
    return "\n".join(lines)


# -- MkDocs events ----------------------------------------------------------------------------

FORMAT_TABLE_MARKER = "<!-- format-table -->"


def format_table() -> str:
    """The rows of the formats page's table: one per built-in format, linked to its page."""
    games = {"fow": "Force of Will", "ygo": "Yu-Gi-Oh!"}
    return "\n".join(f"| [`{name}`]({name}.md) | {games.get(spec.game, spec.game)} | {spec.title} |" for name, spec in _formats().items())


def on_page_markdown(markdown, page, config, files, **kwargs):
    if page.file.src_uri == "architecture.md" and LAYERS_MARKER in markdown:
        return markdown.replace(LAYERS_MARKER, layers_markdown())
    if page.file.src_uri == "formats/index.md" and FORMAT_TABLE_MARKER in markdown:
        return markdown.replace(FORMAT_TABLE_MARKER, format_table())
    return markdown


def on_config(config, **kwargs):
    """The format pages join the navigation's Formats section, after the pages it names."""
    global _FORMATS
    _FORMATS = None  # a new build (mkdocs serve rebuilds in one process) reads the format files again
    names = list(_formats())
    for entry in config.nav or []:
        if isinstance(entry, dict) and FORMATS_SECTION in entry:
            section = entry[FORMATS_SECTION]
            if not isinstance(section, list):
                section = entry[FORMATS_SECTION] = [section]
            section.extend({f"{name}": f"formats/{name}.md"} for name in names)
    return config


def on_files(files, config, **kwargs):
    for name, spec in _formats().items():
        files.append(File.generated(config, f"formats/{name}.md", content=format_page(name, spec)))
    files.append(File.generated(config, "rules.md", content=rules_page()))
    files.append(File.generated(config, "changelog.md", content=changelog_page()))
    return files
