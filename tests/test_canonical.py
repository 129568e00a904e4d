"""fmt and fingerprint: canonical decklists never lose or invent a card; fingerprints ignore
everything but the cards, counts and sections."""

from __future__ import annotations

import json

import pytest
from conftest import SAMPLES, cli_runner, faria
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forcecheck.canonical import canonical_text, fingerprint
from forcecheck.cards.catalog import sample_catalog
from forcecheck.checking import FormatCache
from forcecheck.cli import app
from forcecheck.decklists.readers import parse_decklist

runner = cli_runner()
CATALOG = sample_catalog()
FORMATS = FormatCache()


def parse(text, fmt_name="bifrost", suffix=".txt"):
    fmt = FORMATS.get(fmt_name)
    return parse_decklist(text, "d" + suffix, fmt.known_headers, suffix=suffix), fmt


def contents(text, fmt_name="bifrost", suffix=".txt"):
    """Section id -> {card (canonical, or as written if unknown) -> copies}; invalid lines kept as text."""
    from forcecheck.canonical import canonical_sections

    deck, fmt = parse(text, fmt_name, suffix)
    out = {}
    for group in canonical_sections(deck, fmt, CATALOG):
        cards = out.setdefault(group.key, {})
        for e in group.entries:
            key = (e.name if e.known else "?" + e.name.lower(), e.count_ok, e.count_text if not e.count_ok else None)
            cards[key] = cards.get(key, 0) + (e.count if e.count_ok else 0)
    return out


def fmt_text(text, fmt_name="bifrost", suffix=".txt"):
    deck, fmt = parse(text, fmt_name, suffix)
    kind = {".ydk": "ydk", ".yaml": "yaml"}.get(suffix, "text")
    return canonical_text(deck, fmt, CATALOG, text, kind)


def test_canonical_text_is_stable_and_keeps_the_top_comments():
    messy = "# my deck\n// by me\n\nmain deck:\n2x viviane\n2 VIVIANE\n4 Excalibur (SDAO1-025)\nRuler: faria\nside deck:\n1 Vivianne\n0 Relief Aid\n"
    once = fmt_text(messy)
    assert once == (
        "# my deck\n// by me\n\nRuler:\n1 Faria\n\nMain Deck:\n4 Excalibur (SDAO1-025)\n4 Viviane\n\n"
        "Sideboard:\n1 Viviane\n0 Relief Aid\n"  # the misspelt name is read (and written) as the card it means
    )
    assert fmt_text(once) == once
    assert contents(once) == contents(messy)


def test_every_sample_deck_keeps_its_cards_through_fmt():
    for folder, fmt_name in (("bifrost", "bifrost"), ("abc", "abc"), ("ygo-5ds", "ygo-5ds")):
        for path in sorted((SAMPLES / folder).iterdir()):
            text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
            deck, _fmt = parse(text, fmt_name, path.suffix)
            if deck.problems:
                continue
            new = fmt_text(text, fmt_name, path.suffix)
            assert contents(new, fmt_name, path.suffix) == contents(text, fmt_name, path.suffix), path.name
            assert fmt_text(new, fmt_name, path.suffix) == new, path.name
            d1, f1 = parse(text, fmt_name, path.suffix)
            d2, f2 = parse(new, fmt_name, path.suffix)
            assert fingerprint(d1, f1, CATALOG) == fingerprint(d2, f2, CATALOG), path.name


NAMES = ["Viviane", "Excalibur", "Faria", "Light Magic Stone", "White Wizard (Stranger)", "Vivianne", "Nonexistent Card"]
HEADERS = ["Ruler", "Main Deck", "Magic Stone Deck", "Stranger Deck", "Sideboard", "Side Deck", "MAIN DECK (40)", "Maybeboard"]
line = st.tuples(
    st.sampled_from(["", "x", " x ", "x"]),
    st.one_of(st.integers(min_value=-2, max_value=12), st.just(1)),
    st.sampled_from(NAMES),
    st.sampled_from(["", " (SDAO1-031)", " (CMF-102)"]),
    st.sampled_from(["", "upper", "lower"]),
)


def render_line(parts):
    sep, count, name, printing, case = parts
    name = name.upper() if case == "upper" else name.lower() if case == "lower" else name
    return f"{count}{sep.strip() and ' x' or ''} {name}{printing}"


deck_strategy = st.lists(
    st.tuples(st.sampled_from(HEADERS), st.lists(line, min_size=0, max_size=6)), min_size=0, max_size=5
).map(lambda sections: "\n".join(f"{h}:\n" + "\n".join(render_line(p) for p in lines) for h, lines in sections) + "\n")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.lists(line, max_size=3), deck_strategy))
def test_property_fmt_never_loses_or_invents_a_card(case):
    loose, body = case
    text = "\n".join(render_line(p) for p in loose) + ("\n" if loose else "") + body
    try:
        deck, _ = parse(text)
    except Exception as exc:  # only the documented unusable input may be refused
        assert "empty decklist" in str(exc)
        return
    new = fmt_text(text)
    assert contents(new) == contents(text)
    assert fmt_text(new) == new
    assert fingerprint(*parse(new), CATALOG) == fingerprint(*parse(text), CATALOG)


def test_fingerprint_ignores_form_and_sees_content():
    base = faria()
    fp = fingerprint(*parse(base), CATALOG)
    reformatted = base.replace("4 Viviane", "4x VIVIANE (SDAO1-031)").replace("Main Deck:", "MAIN DECK (40):")
    assert fingerprint(*parse(reformatted), CATALOG) == fp
    split = base.replace("4 Viviane", "1 Viviane\n3 viviane")
    assert fingerprint(*parse(split), CATALOG) == fp
    yaml_form = fmt_text(base, suffix=".txt")
    assert fingerprint(*parse(yaml_form), CATALOG) == fp
    assert fingerprint(*parse(base.replace("4 Viviane", "3 Viviane")), CATALOG) != fp
    assert fingerprint(*parse(base.replace("Main Deck:", "Sideboard:")), CATALOG) != fp


def test_fingerprint_of_text_yaml_and_ydk_forms_of_one_deck():
    text = (SAMPLES / "ygo-5ds" / "legal-synchro-by-name.txt").read_text()
    ydk = (SAMPLES / "ygo-5ds" / "legal-synchro.ydk").read_text().replace("\r\n", "\n")
    assert fingerprint(*parse(text, "ygo-5ds"), CATALOG) == fingerprint(*parse(ydk, "ygo-5ds", ".ydk"), CATALOG)


def test_fmt_cli_check_diff_and_rewrite(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("Main Deck:\n2 viviane\n2 Viviane\nRuler: Faria\n")
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost", "--check"])
    assert result.exit_code == 1 and "not in canonical form" in result.stdout
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost", "--diff"])
    assert result.exit_code == 1 and "+4 Viviane" in result.stdout and "-2 viviane" in result.stdout
    assert path.read_text() == "Main Deck:\n2 viviane\n2 Viviane\nRuler: Faria\n"
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code == 0 and path.read_text() == "Ruler:\n1 Faria\n\nMain Deck:\n4 Viviane\n"
    assert runner.invoke(app, ["fmt", str(path), "-f", "bifrost", "--check"]).exit_code == 0


def test_fmt_leaves_a_file_it_cannot_fully_read(tmp_path):
    path = tmp_path / "d.ydk"
    original = "#main\n63977008\nnot a passcode\n"
    path.write_text(original)
    result = runner.invoke(app, ["fmt", str(path), "-f", "ygo-5ds"])
    assert result.exit_code == 2 and "not rewritten" in result.stderr and path.read_text() == original


def test_fmt_keeps_every_comment_line(tmp_path):
    """Comments below the top block (under a title line, between cards) are kept, in order, in the
    block at the top: cards are sorted and merged, so a comment cannot keep its place among them."""
    path = tmp_path / "d.txt"
    path.write_text("Store Championship\n# my notes on the list\nRuler: Faria\nMain Deck:  // forty cards\n// the knights package\n"
                    "2 Viviane\n# the stones\n2 Viviane\n")
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == ("# Name: Store Championship\n# my notes on the list\n// forty cards\n// the knights package\n"
                                "# the stones\n\nRuler:\n1 Faria\n\nMain Deck:\n4 Viviane\n")
    assert runner.invoke(app, ["fmt", str(path), "-f", "bifrost", "--check"]).exit_code == 0  # and it stays so


def test_fmt_leaves_a_comment_after_a_card_where_it_is(tmp_path):
    path = tmp_path / "d.txt"
    original = "Ruler: Faria\nMain Deck:\n2 Viviane  // sided out against control\n2 Viviane\n"
    path.write_text(original)
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code == 2 and path.read_text() == original
    assert "d.txt:3: not rewritten: the comment '// sided out against control' follows a card on its line" in result.stderr
    assert runner.invoke(app, ["check", str(path), "-f", "bifrost"]).exit_code == 1  # checking reads it as before (a short deck)


def test_fmt_interrupted_write_leaves_the_original(tmp_path, monkeypatch):
    import os

    path = tmp_path / "d.txt"
    original = "Main Deck:\n2 viviane\n2 Viviane\n"
    path.write_text(original)

    def boom(*args):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(os, "replace", boom)
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code != 0 and path.read_text() == original
    assert [p.name for p in tmp_path.iterdir()] == ["d.txt"]


def test_fingerprint_cli_and_check_json_agree():
    deck = str(SAMPLES / "bifrost" / "legal-faria-stranger.txt")
    result = runner.invoke(app, ["fingerprint", deck, "-f", "bifrost"])
    printed = result.stdout.strip().splitlines()[-1]
    assert result.exit_code == 0 and printed.startswith("fc1-")
    doc = json.loads(runner.invoke(app, ["check", deck, "-f", "bifrost", "-o", "json"]).stdout)
    assert doc["decks"][0]["fingerprint"] == printed


@pytest.mark.parametrize("suffix", [".yaml", ".ydk"])
def test_fmt_writes_yaml_and_ydk_in_their_own_form(suffix):
    path = SAMPLES / ("bifrost/legal-atom-runes.yaml" if suffix == ".yaml" else "ygo-5ds/legal-synchro.ydk")
    fmt_name = "bifrost" if suffix == ".yaml" else "ygo-5ds"
    text = path.read_text().replace("\r\n", "\n")
    new = fmt_text(text, fmt_name, suffix)
    if suffix == ".yaml":
        assert new.startswith("# forcecheck sample for bifrost: legal") and "Atom Seikhart with a rune deck" in new and "format: bifrost" in new and "player: Sample Player" in new
    else:
        assert new.startswith("#forcecheck sample for ygo-5ds: legal with no Forbidden/Limited list applied") and "\n#main\n" in new and "\n!side\n" in new
    assert contents(new, fmt_name, suffix) == contents(text, fmt_name, suffix)


@pytest.mark.parametrize("line, says", [
    ("Main Deck (41):\n2 Viviane\n2 Viviane", "the Main Deck header says 41 but 4 cards are listed; fmt would drop the announced count"),
    ("Main Deck:\n4 Viviane (SDV1-005)", "names Brunhild by its code SDV1-005 and Viviane by its words, and nothing on the line "
                                         "tells which; write the card's name and its own code; fmt would write one reading"),
    ("Main Deck:\n4 Vivianne the Spirit (SDV1-005)", "printing SDV1-005 is Brunhild; the words 'Vivianne the Spirit' beside it "
                                                    "name no card: read by the code; fmt would write the code's card"),
    ("Main Deck:\n4 Viviane // the best knight", "(the text after '//' read as a remark); fmt would drop those words"),
    ("Main Deck:\n4 Viviane\nTSHD", "read 'TSHD' as nothing (a set code alone on a line, no card); fmt would drop those words"),
])
def test_fmt_leaves_a_list_whose_canonical_form_would_lose_what_it_says(tmp_path, line, says):
    """The canonical form drops announced counts, puts the printing's card for the name and
    keeps no remark inside a card line: where those say something the cards do not, fmt
    leaves the file as it is and says why (exit 2)."""
    path = tmp_path / "d.txt"
    original = f"Ruler: Faria\n{line}\n"
    path.write_text(original)
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code == 2 and path.read_text() == original
    assert says in result.stderr and "not rewritten" in result.stderr


def test_fmt_rewrites_what_says_nothing_more_than_the_cards(tmp_path):
    """A count that matches, a cost before the name and a count after it are the cards' own facts."""
    path = tmp_path / "d.txt"
    path.write_text("Ruler: Faria\nMain Deck (4):\n(2) Viviane x2\n2 Viviane\n")
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code == 0, result.stderr
    assert path.read_text() == "Ruler:\n1 Faria\n\nMain Deck:\n4 Viviane\n"


@pytest.mark.parametrize("suffix, original, kept", [
    (".yaml", "# top\nsections:\n  Ruler:\n    - 1 Faria\n  Main Deck:  # twelve knights\n    # the knights\n    - 2 Viviane\n"
              "    - \"2 Viviane\"  # not 'a # comment'\n# end of list\n",
     ["# top", "# twelve knights", "# the knights", "# not 'a # comment'", "# end of list"]),
    (".ydk", "#created by me\n#main\n63977008\n# extra deck below\n#extra\n!side\n", ["#created by me", "# extra deck below"]),
])
def test_fmt_keeps_every_comment_of_yaml_and_ydk_lists(tmp_path, suffix, original, kept):
    """Comments anywhere in a YAML or .ydk list (after a value, between sections, at the end)
    move into the block at the top, in order, as in a text list; none is dropped."""
    path = tmp_path / f"d{suffix}"
    path.write_text(original)
    fmt_name = "ygo-5ds" if suffix == ".ydk" else "bifrost"
    result = runner.invoke(app, ["fmt", str(path), "-f", fmt_name])
    assert result.exit_code == 0, result.stderr
    assert path.read_text().split("\n")[: len(kept)] == kept
    assert runner.invoke(app, ["fmt", str(path), "-f", fmt_name, "--check"]).exit_code == 0


def test_fmt_never_replaces_a_read_only_file_or_one_changed_while_it_ran(tmp_path, monkeypatch):
    import os

    from forcecheck.session import Session

    path = tmp_path / "d.txt"
    original = "Ruler: Faria\nMain Deck:\n2 viviane\n2 Viviane\n"
    path.write_text(original)
    path.chmod(0o444)
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code == 2 and "d.txt: not rewritten: the file is read-only" in result.stderr and path.read_text() == original
    path.chmod(0o644)
    read = Session.read

    def read_then_edited(self, target, *args, **kwargs):  # the user saves an edit while fmt works
        found = read(self, target, *args, **kwargs)
        with open(target, "a") as handle:
            handle.write("# my new line\n")
        os.utime(target, ns=(1, 1))
        return found

    monkeypatch.setattr(Session, "read", read_then_edited)
    result = runner.invoke(app, ["fmt", str(path), "-f", "bifrost"])
    assert result.exit_code == 2 and "not rewritten: it changed while fmt read it" in result.stderr
    assert path.read_text() == original + "# my new line\n"


def test_fmt_reads_ydk_markers_in_any_case_as_markers_not_comments(tmp_path):
    """``#Main`` / ``#EXTRA`` are the reader's markers whatever their case: fmt writes them as
    ``#main`` / ``#extra`` and does not take them for comments it would lose."""
    path = tmp_path / "d.ydk"
    original = (SAMPLES / "ygo-5ds" / "legal-synchro.ydk").read_text().replace("#main", "#Main").replace("#extra", "#EXTRA")
    path.write_text(original)
    result = runner.invoke(app, ["fmt", str(path), "-f", "ygo-5ds"])
    assert result.exit_code == 0, result.stderr
    lines = path.read_text().split("\n")
    assert "#main" in lines and "#extra" in lines and "#Main" not in lines and "#EXTRA" not in lines


@pytest.mark.parametrize(
    "format_id,section,title",
    [("abc", "main", "メインデッキ"), ("abc", "ruler", "ルーラー"), ("abc", "stones", "魔石デッキ"), ("bifrost", "main", "メインデッキ")],
)
def test_a_japanese_list_gets_the_japanese_section_title_never_the_chinese_one(format_id, section, title):
    """ABC's aliases name the Chinese titles (主牌库, 奥秘领主) too: a Japanese list takes the one in kana."""
    from forcecheck.canonical import CanonSection, _title_in

    fmt = FormatCache().get(format_id)
    assert _title_in(fmt, CanonSection(section, "Main Deck"), "ja") == title
    assert _title_in(fmt, CanonSection(section, "Main Deck"), None) == "Main Deck"
