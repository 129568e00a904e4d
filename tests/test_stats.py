"""Deck insight (``forcecheck.insight``) and ``forcecheck stats``: the numbers on fixtures and on
real decks, the curve line in ``check``'s text report, text / JSON output, and the pictures."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
from conftest import ROOT, SAMPLES, SHARED, cli_runner, needs_shared

from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.cli import app
from forcecheck.decklists.readers import parse_decklist
from forcecheck.engine import check_decklist, compile_format
from forcecheck.format_spec.loader import load_format
from forcecheck.insight import deck_insight
from forcecheck.insight.charts import charts_of
from forcecheck.report.insight_text import render_stats_text
from forcecheck.report.text import curve_lines, make_console

runner = cli_runner()
CATALOG = sample_catalog()
WB = SAMPLES / "abc" / "legal-official-wb-holy-protector.txt"
SYNCHRO = SAMPLES / "ygo-5ds" / "legal-synchro.ydk"


def insight_of(text: str, fmt, catalog=CATALOG, path: str = "deck.txt", suffix: str = ".txt"):
    if isinstance(fmt, str):
        fmt = FormatCache().get(fmt)
    deck = parse_decklist(text, path, fmt.known_headers, suffix=suffix)
    return deck_insight(check_decklist(deck, fmt, catalog), fmt)


def sample(name: str, fmt: str = "abc"):
    path = SAMPLES / fmt / name if fmt != "ygo-5ds" else SAMPLES / "ygo-5ds" / name
    return insight_of(path.read_text(encoding="utf-8"), fmt, path=str(path), suffix=path.suffix)


def run(*args, env=None):
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert "Traceback" not in result.output + (result.stderr or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def text_of(items, color="never") -> str:
    out = io.StringIO()
    render_stats_text(items, make_console(out, color, width=200), color)
    return out.getvalue()


# --- Force of Will / ABC: the curve against the format's own count rules --------------------------------


def test_abc_sample_curve_attributes_stones_and_identity():
    got = sample("legal-official-wb-holy-protector.txt")
    fow = got.breakdown
    assert fow.curve.buckets == {"0": 0, "1": 20, "2": 19, "3": 10, "4": 5, "5": 1, "6": 0, "7+": 1}
    assert (fow.curve.cards, fow.curve.rulers, fow.curve.average, fow.curve.policy) == (56, 4, 2.14, "max")
    assert got.requirement_lines == ["ruler, not arcana: 4 (at most 4)", "cost <=1: 20 (exactly 20) · 2: 19 (at least 15) · 3+: 17 (at least 10)"]
    assert all(r.ok for r in got.requirements)
    assert {a: n for a, n in fow.attributes.items() if n} == {"light": 34, "water": 34} and fow.multi_attribute == 8
    assert fow.types == {"resonator": 27, "chant": 22, "addition": 7, "ruler": 4}
    (stones,) = fow.stones
    assert (stones.section, stones.cards, stones.basic, stones.special, stones.no_will) == ("stones", 14, 6, 8, 1)
    assert {a: n for a, n in stones.will.items() if n} == {"light": 8, "water": 9}
    assert [(i.rule, i.keeping, i.judged, i.allowed, i.off) for i in got.identity] == [
        ("main-attributes", 60, 60, ("light", "water"), []),
        ("stones-will", 14, 14, ("light", "water"), []),
    ]
    assert [(s.id, s.cards) for s in got.sections if s.cards] == [("ruler", 1), ("main", 60), ("stones", 14)]
    assert [(r.name, r.ruler) for r in got.ruler] == [("Arcana: Holy Protector", True)]
    # the bands are sums of the histogram: one count, two views
    assert fow.curve.buckets["0"] + fow.curve.buckets["1"] == got.requirements[1].found
    assert sum(n for c, n in fow.curve.buckets.items() if c not in ("0", "1", "2")) == got.requirements[3].found


@pytest.mark.parametrize(
    "name,line,rule,verdict",
    [
        ("illegal-19-cost-one-or-less.txt", "cost <=1: 19 (exactly 20) · 2: 20 (at least 15) · 3+: 17 (at least 10)", "curve-cost-1-or-less", "1 short"),
        ("illegal-21-cost-one-or-less.txt", "cost <=1: 21 (exactly 20) · 2: 18 (at least 15) · 3+: 17 (at least 10)", "curve-cost-1-or-less", "1 over"),
        ("illegal-14-cost-two.txt", "cost <=1: 20 (exactly 20) · 2: 14 (at least 15) · 3+: 22 (at least 10)", "curve-cost-2", "1 short"),
        ("illegal-9-cost-three-or-more.txt", "cost <=1: 20 (exactly 20) · 2: 27 (at least 15) · 3+: 9 (at least 10)", "curve-cost-3-or-more", "1 short"),
    ],
)
def test_a_broken_curve_rule_is_found_vs_needed(name, line, rule, verdict):
    got = sample(name)
    assert got.requirement_lines[1] == line
    broken = [r for r in got.requirements if not r.ok]
    assert [r.rule for r in broken] == [rule]
    curve_rules = next(c for c in charts_of(got) if c.key == "curve-rules")
    assert [b.target.verdict for b in curve_rules.bars if not b.target.ok] == [verdict]


def test_a_fifth_non_arcana_ruler_is_a_quota_line_of_its_own():
    got = sample("illegal-fifth-non-arcana-ruler.txt")
    assert got.requirement_lines[0] == "ruler, not arcana: 5 (at most 4)"
    assert got.breakdown.curve.rulers == 5


def test_the_targets_come_from_the_format_yaml(tmp_path):
    """A changed YAML changes the line and the chart: nothing of ABC's numbers is written in code."""
    (tmp_path / "abc-steep.yaml").write_text(
        "name: abc-steep\ntitle: ABC, steeper\ngame: fow\nextends: abc\nrules:\n"
        "  - {id: curve-cost-2, kind: card-count, sections: [main], where: {all: [{not: {type: ruler}}, {cost: 2}]}, min: 18, description: d}\n"
        "  - {id: curve-cost-3-or-more, kind: card-count, sections: [main], where: {all: [{not: {type: ruler}}, {cost: {min: 4}}]},"
        " min: 8, description: d}\n",
        encoding="utf-8",
    )
    fmt = compile_format(load_format("abc-steep", [tmp_path]))
    got = insight_of(WB.read_text(encoding="utf-8"), fmt)
    assert got.requirement_lines[1] == "cost <=1: 20 (exactly 20) · 2: 19 (at least 18) · 4+: 7 (at least 8)"
    chart = next(c for c in charts_of(got) if c.key == "curve-rules")
    assert [(b.label, b.value, b.target.needed, b.target.verdict) for b in chart.bars] == [
        ("cost <=1", 20, "20", "ok"), ("cost 2", 19, ">=18", "ok"), ("cost 4+", 7, ">=8", "1 short"),
    ]
    curve = next(c for c in charts_of(got) if c.key == "curve")
    assert [b.tone for b in curve.bars] == ["band-0", "band-0", "band-1", None, "band-2", "band-2", "band-2", "band-2"]


@pytest.mark.parametrize("name,deck", [("abc", WB), ("bifrost", SAMPLES / "bifrost" / "legal-atom-runes.yaml"), ("ygo-5ds", SYNCHRO)])
def test_the_cached_spec_gives_the_same_insight(name, deck):
    """Checking reads specs back from the spec cache as plain attribute objects: insight reads them alike."""
    from forcecheck.format_spec.cache import SpecView
    from forcecheck.format_spec.loader import load_format_cached

    load_format_cached(name)
    cached = load_format_cached(name)
    assert isinstance(cached, SpecView)
    text = deck.read_text(encoding="utf-8")
    fresh = insight_of(text, compile_format(load_format(name)), path="d", suffix=deck.suffix).to_dict()
    assert insight_of(text, compile_format(cached), path="d", suffix=deck.suffix).to_dict() == fresh


def test_a_curve_without_curve_rules_and_the_cost_policy():
    got = insight_of((SAMPLES / "bifrost" / "legal-faria-stranger.txt").read_text(encoding="utf-8"), "bifrost")
    assert got.breakdown.curve.buckets == {"0": 0, "1": 8, "2": 20, "3": 12, "4": 0, "5": 0, "6": 0, "7+": 0}
    assert got.breakdown.curve.policy == "front"
    assert [c.key for c in charts_of(got)] == ["curve", "attributes", "types", "stones"]
    # the double-faced card costs what the format says: front 1, max 3 (Flourishing Hope {W} // {B}{2})
    text = "Ruler: Faria\nMain Deck:\n1 Flourishing Hope\n"
    assert insight_of(text, "bifrost").breakdown.curve.buckets["1"] == 1
    assert insight_of(text, "abc").breakdown.curve.buckets["3"] == 1


def test_identity_both_ways_names_the_card_outside():
    assert all(i.ok for i in sample("legal-official-wb-holy-protector.txt").identity)
    got = sample("illegal-off-attribute-card.txt")
    main = next(i for i in got.identity if i.rule == "main-attributes")
    assert [(o.card, o.section, o.copies, o.values) for o in main.off] == [("Agni, God of Rampaging Flames", "main", 1, ("fire",))]
    assert (main.keeping, main.judged) == (59, 60)
    assert "main-attributes: 59/60 Main Deck cards within light, water (attributes) — off: Agni, God of Rampaging Flames (fire)" in text_of([got])


def test_every_card_of_the_ruler_area_is_shown():
    two = sample("illegal-two-arcana-rulers.txt")
    assert [(r.name, r.ruler) for r in two.ruler] == [("Arcana: Holy Protector", True), ("Arcana: Guardian of the Temple", True)]
    wrong = sample("illegal-non-arcana-ruler-in-ruler-slot.txt")
    assert [(r.name, r.ruler) for r in wrong.ruler] == [("Brunhild", False)]
    assert "ruler area   Brunhild (light) (not a ruler this format accepts)" in text_of([wrong])


def test_unknown_unplaced_and_corrected_cards():
    text = "Ruler: Faria\nMain Deck:\n4 Excalibur\n2 Zzyzx Unknowable\n1 Sacred Wave Blaed\nTrade Binder:\n3 Viviane\n"
    got = insight_of(text, "bifrost")
    main = got.section("main")
    assert (main.cards, main.distinct, main.unknown) == (5, 2, 2)  # the corrected name counts as its card
    assert got.unplaced == 3
    assert got.corrections == [{"line": 5, "written": "Sacred Wave Blaed", "read_as": "Sacred Wave Blade"}]
    out = text_of([got])
    assert "Main Deck 5 (+2 unknown) · 3 outside any section" in out
    assert "corrections  line 5: 'Sacred Wave Blaed' read as Sacred Wave Blade" in out


def test_corrections_are_shown_when_the_report_carries_them():
    fmt = FormatCache().get("bifrost")
    deck = parse_decklist("Ruler: Faria\nMain Deck:\n4 Excalibur\n", "d.txt", fmt.known_headers)
    report = check_decklist(deck, fmt, CATALOG)
    carrying = SimpleNamespace(path=report.path, violations=report.violations, legal=report.legal, resolution=report.resolution,
                               name=None, player="Jane", corrections=[{"line": 3, "written": "Excalibr", "read_as": "Excalibur"}])
    got = deck_insight(carrying, fmt)
    assert got.corrections == [{"line": 3, "written": "Excalibr", "read_as": "Excalibur"}] and got.player == "Jane"
    assert "corrections  line 3: 'Excalibr' read as Excalibur" in text_of([got])
    assert deck_insight(report, fmt).corrections == []  # a report without them (before issue 12) is fine


# --- Yu-Gi-Oh! ---------------------------------------------------------------------------------------------


def test_ygo_kinds_levels_extra_and_copies_at_the_limit():
    got = sample("legal-synchro.ydk", "ygo-5ds")
    ygo = got.breakdown
    assert ygo.by_kind["main"] == {"monster": 25, "spell": 7, "trap": 8, "other": 0}
    assert ygo.by_kind["side"] == {"monster": 3, "spell": 2, "trap": 0, "other": 0}
    assert ygo.levels == {"1": 7, "2": 7, "3": 6, "4": 5}
    assert ygo.extra == {"fusion": 1, "synchro": 13}
    assert ygo.spell_kinds == {"normal": 3, "quick-play": 4} and ygo.trap_kinds == {"normal": 6, "counter": 2}
    (limit,) = got.copies
    assert limit.limit == 3 and limit.over == []
    assert [name for name, _ in limit.cards] == ["Card Trooper", "Debris Dragon", "Junk Synchron", "Quillbolt Hedgehog", "Speed Warrior"]
    assert got.banlist is None and got.banlist_rule
    assert [c.key for c in charts_of(got)] == ["kinds", "levels", "extra"]


def test_ygo_banlist_cards_both_ways(tmp_path):
    lflist = tmp_path / "lflist.conf"
    lflist.write_text("!2011.3.1 test\n63977008 1 --Junk Synchron\n23571046 2 --Quillbolt Hedgehog\n9365703 3 --Speed Warrior\n"
                      "!lenient\n9365703 3\n", encoding="utf-8")
    from forcecheck.banlists import read_lflist

    lists, _ = read_lflist(lflist)
    strict = insight_of(SYNCHRO.read_text(encoding="utf-8"), FormatCache(banlist=lists[0]).get("ygo-5ds"), suffix=".ydk")
    assert [(c.card, c.copies, c.cap, c.status) for c in strict.banlist.cards] == [
        ("Junk Synchron", 3, 1, "limited"), ("Quillbolt Hedgehog", 3, 2, "semi-limited"),
    ]
    assert strict.banlist.name == "2011.3.1 test" and not strict.legal
    assert "banlist   2011.3.1 test: Junk Synchron 3 (limited 1, over); Quillbolt Hedgehog 3 (semi-limited 2, over)" in text_of([strict])
    lenient = insight_of(SYNCHRO.read_text(encoding="utf-8"), FormatCache(banlist=lists[1]).get("ygo-5ds"), suffix=".ydk")
    assert lenient.banlist.cards == [] and lenient.legal


# --- check: the curve line beside a broken count rule -----------------------------------------------------


def test_check_text_shows_the_curve_line_beside_a_broken_curve_rule():
    deck = SAMPLES / "abc" / "illegal-19-cost-one-or-less.txt"
    out = run("check", deck, "-f", "abc", "--color", "never", env={"COLUMNS": "200"}).stdout
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "curve-cost-1-or-less" in line)
    assert lines[at + 1].strip() == "cost <=1: 19 (exactly 20) · 2: 20 (at least 15) · 3+: 17 (at least 10)"
    assert out.count("cost <=1:") == 1
    quota = run("check", SAMPLES / "abc" / "illegal-fifth-non-arcana-ruler.txt", "-f", "abc", "--color", "never", env={"COLUMNS": "200"}).stdout
    assert "ruler, not arcana: 5 (at most 4)" in quota and "cost <=1:" not in quota
    ignored = run("check", deck, "-f", "abc", "--ignore", "curve-cost-1-or-less", "--color", "never").stdout
    assert "cost <=1:" not in ignored
    assert "cost <=1:" not in run("check", WB, "-f", "abc", "--color", "never").stdout


def test_the_engine_gives_the_numbers_of_the_curve_and_the_report_words_them():
    fmt = FormatCache().get("abc")
    text = (SAMPLES / "abc" / "illegal-19-cost-one-or-less.txt").read_text(encoding="utf-8")
    report = check_decklist(parse_decklist(text, "d.txt", fmt.known_headers), fmt, CATALOG)
    rules = ("curve-cost-1-or-less", "curve-cost-2", "curve-cost-3-or-more")
    assert set(report.curves) == set(rules)
    group = report.curves["curve-cost-2"]
    assert all(report.curves[rule] is group for rule in rules)  # one group, shared by its rules
    assert [(r.rule, r.label, r.sections, r.found, r.min, r.max, r.cost_min, r.cost_max) for r in group] == [
        ("curve-cost-1-or-less", "<=1", ("main",), 19, 20, 20, None, 1),
        ("curve-cost-2", "2", ("main",), 20, 15, None, 2, 2),
        ("curve-cost-3-or-more", "3+", ("main",), 17, 10, None, 3, None),
    ]
    assert [r.ok for r in group] == [False, True, True]
    assert curve_lines(report) == {rule: "cost <=1: 19 (exactly 20) · 2: 20 (at least 15) · 3+: 17 (at least 10)" for rule in rules}
    legal = check_decklist(parse_decklist(WB.read_text(encoding="utf-8"), "d.txt", fmt.known_headers), fmt, CATALOG)
    assert legal.curves == {} and curve_lines(legal) == {}


# --- the stats command: text and JSON ---------------------------------------------------------------------


def test_stats_text_is_plain_ascii_bars_when_piped_and_blocks_in_colour():
    plain = run("stats", WB, SYNCHRO, "-f", "abc").stdout
    assert "\x1b[" not in plain and "█" not in plain
    assert "     1 #################### 20\n" in plain  # one character per card up to 40
    assert "  card counts  ruler, not arcana: 4 (at most 4)\n" in plain
    assert "    cost <=1 #################### 20 (needs 20) ok\n" in plain
    coloured = run("stats", WB, "-f", "abc", "--color", "always").stdout
    assert "\x1b[" in coloured and "█" * 20 in coloured
    ygo = run("stats", SYNCHRO, "-f", "ygo-5ds", "--color", "never").stdout
    assert "    monster ######################### 25\n" in ygo
    assert "  copies    copy-limit: 5 cards at the limit of 3: Card Trooper; Debris Dragon; Junk Synchron; Quillbolt Hedgehog; Speed Warrior" in ygo


def test_stats_goes_on_past_an_unusable_file_and_exits_2(tmp_path):
    (tmp_path / "binary.txt").write_bytes(b"\x00")
    result = run("stats", tmp_path / "binary.txt", WB, "-f", "abc")
    assert result.exit_code == 2
    assert "ERROR" in result.stdout and "binary.txt" in result.stdout and "Cost curve" in result.stdout
    assert run("stats", SAMPLES / "abc" / "illegal-19-cost-one-or-less.txt", "-f", "abc").exit_code == 0  # stats is no verdict


def test_stats_json_has_every_number():
    result = run("stats", WB, SYNCHRO, "-f", "abc", "-o", "json")
    doc = json.loads(result.stdout)
    assert doc["schema_version"] == 1 and doc["summary"] == {"decks": 2, "unreadable": 0, "catalog": "embedded sample catalog", "catalog_sources": [], "config": None}
    deck = doc["decks"][0]
    assert deck["fow"]["curve"]["costs"] == {"0": 0, "1": 20, "2": 19, "3": 10, "4": 5, "5": 1, "6": 0, "7+": 1}
    assert [(r["rule"], r["found"], r["needed"], r["ok"]) for r in deck["requirements"]] == [
        ("max-non-arcana-rulers", 4, "<=4", True), ("curve-cost-1-or-less", 20, "20", True),
        ("curve-cost-2", 19, ">=15", True), ("curve-cost-3-or-more", 17, ">=10", True),
    ]
    assert deck["ruler"] == [{"name": "Arcana: Holy Protector", "copies": 1, "attributes": ["light", "water"], "ruler": True}]
    ygo = json.loads(run("stats", SYNCHRO, "-f", "ygo-5ds", "-o", "json").stdout)["decks"][0]
    assert ygo["ygo"]["extra"] == {"fusion": 1, "synchro": 13} and "fow" not in ygo


def _readme_fields() -> set[str]:
    readme = (ROOT / "docs" / "stats.md").read_text(encoding="utf-8")  # the documentation's Deck insight page
    part = readme[readme.index("## Stats JSON"):]
    part = part[: part.index("\n## ", 1) if "\n## " in part[1:] else len(part)]
    return set(re.findall(r"`decks\[\]\.([a-z_.\[\]]+)`", part))


def test_the_readme_documents_every_key_of_the_stats_json():
    documented = _readme_fields()
    for deck in json.loads(run("stats", WB, SYNCHRO, "-f", "abc", "-o", "json").stdout)["decks"] + \
            json.loads(run("stats", SYNCHRO, "-f", "ygo-5ds", "-o", "json").stdout)["decks"]:
        for key, value in deck.items():
            assert key in documented, key
            if key in ("fow", "ygo"):
                for inner in value:
                    assert f"{key}.{inner}" in documented, f"{key}.{inner}"


# --- pictures -----------------------------------------------------------------------------------------------


def test_svg_bars_targets_and_labels(tmp_path):
    target = tmp_path / "deck.svg"
    result = run("stats", SAMPLES / "abc" / "illegal-19-cost-one-or-less.txt", "-f", "abc", "-o", "svg", "--output-file", target)
    assert result.exit_code == 0
    root = ElementTree.parse(target).getroot()
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    bars = lambda key: [i for i in ids if re.fullmatch(rf"bar-{key}-\d+", i)]  # noqa: E731
    assert len(bars("curve")) == 8 and len(bars("curve-rules")) == 3 and len(bars("attributes")) == 2
    assert len([i for i in ids if i.startswith("target-curve-rules-")]) == 3
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.text]
    for label in ["0", "1", "2", "3", "4", "5", "6", "7+", "cost ≤1", "needs 20", "1 short", "cost 3+", "needs ≥10", "light", "water"]:
        assert label in texts, label
    assert "illegal (1 violation)" in texts


def test_png_size_and_the_same_figure_s_artists(tmp_path):
    from PIL import Image

    from forcecheck.report.insight_plot import DPI, WIDTH_INCHES, figure_of

    target = tmp_path / "deck.png"
    assert run("stats", WB, "-f", "abc", "-o", "png", "--output-file", target).exit_code == 0
    with Image.open(target) as image:
        assert image.format == "PNG" and image.mode in ("RGB", "RGBA")
        assert image.size[0] == round(WIDTH_INCHES * DPI) and 700 < image.size[1] < 1100
    got = sample("legal-official-wb-holy-protector.txt")
    figure = figure_of(got)
    titles = [ax.get_title(loc="left") for ax in figure.axes]
    assert titles == ["Cost curve", "Curve rules", "Attributes", "Card types", "Will of the stones"]
    heights = {ax.get_title(loc="left"): [p.get_height() for p in ax.patches] for ax in figure.axes}
    assert heights["Cost curve"][:8] == [0, 20, 19, 10, 5, 1, 0, 1]  # the legend's patches come after
    assert heights["Curve rules"] == [20, 19, 17]
    rules = next(ax for ax in figure.axes if ax.get_title(loc="left") == "Curve rules")
    assert [t.get_text() for t in rules.get_xticklabels()] == ["cost ≤1\nneeds 20\nok", "cost 2\nneeds ≥15\nok", "cost 3+\nneeds ≥10\nok"]
    assert len(rules.collections) == 3  # the three target lines


def test_pictures_of_several_decks_go_into_a_directory(tmp_path):
    out = tmp_path / "pictures"
    second = tmp_path / "other" / WB.name
    second.parent.mkdir()
    second.write_text(WB.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "binary.txt").write_bytes(b"\x00")
    result = run("stats", WB, second, tmp_path / "binary.txt", "-f", "abc", "-o", "png", "--output-file", out)
    assert result.exit_code == 2  # the unreadable file; the others are drawn
    assert sorted(p.name for p in out.iterdir()) == [f"{WB.stem}-2.png", f"{WB.stem}.png"]
    several = run("stats", WB, second, "-f", "abc", "-o", "svg")
    assert several.exit_code == 2 and "give --output-file DIRECTORY" in several.stderr
    one_readable = run("stats", WB, tmp_path / "binary.txt", "-f", "abc", "-o", "svg", "--output-file", tmp_path / "svgs")
    assert one_readable.exit_code == 2 and [p.name for p in (tmp_path / "svgs").iterdir()] == [f"{WB.stem}.svg"]


def test_a_picture_without_matplotlib_is_a_one_line_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the plots extra were not installed
    result = run("stats", WB, "-f", "abc", "-o", "png", "--output-file", tmp_path / "x.png")
    assert result.exit_code == 2
    from forcecheck.install_hint import install_extra

    assert result.stderr.strip() == f"forcecheck: error: pictures need matplotlib: {install_extra('plots')}"
    assert " -e " in result.stderr and "[plots]" in result.stderr  # this checkout, as the README installs it
    assert not (tmp_path / "x.png").exists()


def test_text_and_json_never_load_matplotlib():
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom forcecheck.cli import app\n"
        f"for out in ('text', 'json'):\n    CliRunner().invoke(app, ['stats', {str(WB)!r}, '-f', 'abc', '-o', out])\n"
        "print('matplotlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr


# --- real decks ---------------------------------------------------------------------------------------------


OFFICIAL_CURVES = {
    # deck: (0, 1, 2, 3, 4, 5, 6, 7+) of the 56 non-ruler main deck cards, double-faced at the higher face
    "ABC-WB": [0, 20, 19, 10, 5, 1, 0, 1],
    "ABC-WD": [0, 20, 17, 10, 4, 2, 1, 2],
    "ABC-RG": [0, 20, 16, 9, 3, 2, 3, 3],
    "ABC-RD": [0, 20, 17, 11, 0, 3, 2, 3],
    "ABC-BG": [0, 20, 15, 12, 3, 3, 1, 2],
}


@pytest.fixture(scope="module")
def fowsim_catalog():
    if not (SHARED / "data").is_dir():
        pytest.skip("../shared (third-party card data) is not beside this checkout")
    from forcecheck.cards.catalog import MemoryCatalog
    from forcecheck.importers import fowsim

    records = []
    for name in ("fowsim-cards.json", "fowsim-abc2023-decks-cards.json"):
        records += list(fowsim.iter_records(json.loads((SHARED / "data" / "fow" / name).read_text(encoding="utf-8"))))
    return MemoryCatalog(fowsim.convert(records)[0], "fowsim")


@needs_shared
def test_the_five_official_abc_decks_curves(fowsim_catalog, tmp_path):
    from test_abc import official_deck_texts

    fmt = FormatCache().get("abc")
    # the engine counts the same rules its own way: a format demanding 999 of each makes it report what it found
    (tmp_path / "abc-999.yaml").write_text(
        "name: abc-999\ntitle: t\ngame: fow\nextends: abc\nrules:\n" + "".join(
            f"  - {{id: {r.id}, kind: card-count, sections: [main], where: {json.dumps(r.where.model_dump(exclude_none=True, by_alias=True))},"
            f" exactly: 999, description: d}}\n" for r in load_format("abc").rules if r.kind == "card-count"), encoding="utf-8")
    demanding = compile_format(load_format("abc-999", [tmp_path]))
    texts = official_deck_texts()
    for code, text in texts.items():
        got = insight_of(text, fmt, fowsim_catalog, path=code)
        curve = got.breakdown.curve
        assert list(curve.buckets.values()) == OFFICIAL_CURVES[code], code
        assert (curve.cards, curve.rulers) == (56, 4)
        buckets = OFFICIAL_CURVES[code]
        found = {r.rule: r.found for r in got.requirements}
        assert found == {"max-non-arcana-rulers": 4, "curve-cost-1-or-less": buckets[0] + buckets[1],
                         "curve-cost-2": buckets[2], "curve-cost-3-or-more": sum(buckets[3:])}, code
        assert all(r.ok for r in got.requirements) and all(i.ok for i in got.identity), code
        assert got.requirement_lines[1] == f"cost <=1: 20 (exactly 20) · 2: {buckets[2]} (at least 15) · 3+: {sum(buckets[3:])} (at least 10)"
        engine = check_decklist(parse_decklist(text, code, demanding.known_headers), demanding, fowsim_catalog)
        assert {v.rule: v.found for v in engine.violations if v.code == "FC401"} == found, code
        assert [r.name for r in got.ruler] == [next(line for line in text.splitlines() if line.startswith("Ruler:"))[7:]]


@pytest.fixture(scope="module")
def ygopro_catalog():
    if not (SHARED / "data").is_dir():
        pytest.skip("../shared (third-party card data) is not beside this checkout")
    from forcecheck.cards.catalog import MemoryCatalog
    from forcecheck.importers import ygopro

    return MemoryCatalog(ygopro.convert(ygopro.read_source(SHARED / "data" / "ygo" / "cards.cdb"))[0], "ygopro")


def _raw_counts(ydk_path, cdb_path) -> dict:
    """The era deck counted straight from the .ydk and cards.cdb with SQL: the importer, reader and
    insight are not involved."""
    import sqlite3

    part, ids = None, {"main": [], "extra": []}
    for line in ydk_path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line in ("#main", "#extra"):
            part = line[1:]
        elif line.startswith(("!", "#")):
            part = None
        elif line and part:
            ids[part].append(int(line))
    conn = sqlite3.connect(f"file:{cdb_path}?mode=ro", uri=True)
    kinds = {"monster": 0, "spell": 0, "trap": 0}
    levels: dict[str, int] = {}
    extra = {"fusion": 0, "synchro": 0}
    for passcode in ids["main"]:
        kind, level = conn.execute("SELECT type, level FROM datas WHERE id = ?", (passcode,)).fetchone()
        name = "monster" if kind & 0x1 else "spell" if kind & 0x2 else "trap"
        kinds[name] += 1
        if kind & 0x1:
            levels[str(level & 0xFF)] = levels.get(str(level & 0xFF), 0) + 1
    for passcode in ids["extra"]:
        (kind,) = conn.execute("SELECT type FROM datas WHERE id = ?", (passcode,)).fetchone()
        extra["fusion" if kind & 0x40 else "synchro"] += 1
    conn.close()
    return {"kinds": kinds, "levels": dict(sorted(levels.items(), key=lambda kv: int(kv[0]))), "extra": extra}


@needs_shared
def test_a_yugioh_era_deck_with_the_real_database_and_list(ygopro_catalog):
    from forcecheck.banlists import pick, read_lflist

    lists, _ = read_lflist(SHARED / "data" / "ygo" / "lflist" / "fluorohydride_ygopro_47d1185_2012-02-17_lflist.conf")
    fmt = FormatCache(banlist=pick(lists, "2011.3.1", "lflist")).get("ygo-5ds")
    path = SHARED / "data" / "ygo" / "decks" / "era_5ds_style" / "IceYGO-windbot_AI_Dragunity.ydk"
    got = insight_of(path.read_text(encoding="utf-8"), fmt, ygopro_catalog, path=str(path), suffix=".ydk")
    ygo = got.breakdown
    assert got.legal and [(s.id, s.cards, s.unknown) for s in got.sections] == [("main", 40, 0), ("extra", 15, 0), ("side", 0, 0)]
    assert ygo.by_kind["main"] == {"monster": 15, "spell": 17, "trap": 8, "other": 0}
    assert ygo.levels == {"2": 3, "4": 6, "6": 3, "10": 3}
    assert ygo.extra == {"fusion": 1, "synchro": 14}
    assert ygo.spell_kinds == {"normal": 9, "quick-play": 2, "continuous": 2, "equip": 1, "field": 3}
    assert len(got.copies[0].cards) == 11 and got.copies[0].over == []
    assert [(c.card, c.copies, c.status) for c in got.banlist.cards] == [("Foolish Burial", 1, "limited"), ("Mirror Force", 1, "limited")]
    raw = _raw_counts(path, SHARED / "data" / "ygo" / "cards.cdb")
    assert {k: ygo.by_kind["main"][k] for k in raw["kinds"]} == raw["kinds"]
    assert ygo.levels == raw["levels"] and ygo.extra == raw["extra"]
    # and a deck over the list: three copies of limited cards, each named with its cap
    blackwing = SHARED / "data" / "ygo" / "decks" / "era_5ds_style" / "IceYGO-windbot_AI_Blackwing.ydk"
    over = insight_of(blackwing.read_text(encoding="utf-8"), fmt, ygopro_catalog, suffix=".ydk").banlist
    assert ("Black Whirlwind", 3, 1, "limited") in [(c.card, c.copies, c.cap, c.status) for c in over.cards]


def test_the_readme_text_chart_is_what_stats_prints(monkeypatch):
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "docs" / "stats.md").read_text(encoding="utf-8")  # the documentation's Deck insight page
    command = "$ forcecheck stats sample_decks/abc/illegal-19-cost-one-or-less.txt -f abc\n"
    start = readme.index("```console\n" + command) + len("```console\n" + command)
    shown = readme[start: readme.index("```", start)]
    out = run("stats", "sample_decks/abc/illegal-19-cost-one-or-less.txt", "-f", "abc", env={"COLUMNS": "100"}).stdout
    assert out.startswith(shown)
