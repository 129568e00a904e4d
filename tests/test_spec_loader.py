"""Format specs: YAML loaded into strict pydantic models; errors name the file, line and key."""

from __future__ import annotations

import textwrap

import pytest

from forcecheck.errors import SpecError
from forcecheck.format_spec.loader import available_formats, load_format

MINIMAL = """\
name: {name}
title: Tiny
game: fow
sections:
  - id: main
    title: Main Deck
rules:
  - id: main-size
    kind: section-size
    sections: [main]
    min: 3
    description: At least three cards
"""


def write(tmp_path, name, text):
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_builtin_formats_are_listed():
    assert {"bifrost", "wanderer"} <= set(available_formats())


def test_a_custom_format_from_an_extra_directory(tmp_path):
    write(tmp_path, "tiny", MINIMAL.format(name="tiny"))
    spec = load_format("tiny", [tmp_path])
    assert (spec.name, [r.id for r in spec.rules]) == ("tiny", ["main-size"])
    assert load_format(str(tmp_path / "tiny.yaml")).name == "tiny"


@pytest.mark.parametrize(
    "mutation,line,fragment",
    [
        (("    min: 3\n", "    min: 3\n    colour: red\n"), 12, "rules[0] (rule 'main-size').colour: unknown key 'colour'"),
        (("    min: 3\n", "    min: -1\n"), 11, "rules[0] (rule 'main-size').min"),
        (("    kind: section-size\n", "    kind: no-such-kind\n"), 9, "rules[0] (rule 'main-size').kind: unknown rule kind 'no-such-kind'"),
        (("    sections: [main]\n", "    sections: [mian]\n"), 10, "unknown section(s) mian; did you mean 'main'?"),
        (("    sections: [main]\n", "    sectons: [main]\n"), 10, "rules[0] (rule 'main-size').sectons: unknown key 'sectons'; did you mean 'sections'"),
        (("game: fow\n", "game: fow\nbanana: 1\n"), 4, "unknown key 'banana'"),
        (("    min: 3\n", ""), None, "give a bound"),
        (("title: Tiny\n", ""), 1, "title: Field required"),
    ],
)
def test_spec_errors_name_file_line_and_key(tmp_path, mutation, line, fragment):
    old, new = mutation
    path = write(tmp_path, "tiny", MINIMAL.format(name="tiny").replace(old, new))
    with pytest.raises(SpecError) as info:
        load_format("tiny", [tmp_path])
    message = str(info.value)
    assert fragment in message
    assert info.value.path == str(path)
    if line is not None:
        assert info.value.line == line, message


def test_malformed_yaml_spec(tmp_path):
    write(tmp_path, "tiny", "name: tiny\nsections: [\n")
    with pytest.raises(SpecError) as info:
        load_format("tiny", [tmp_path])
    assert info.value.line == 3 and "malformed YAML" in str(info.value)


def test_extends_replaces_rules_by_id_and_removes_some(tmp_path):
    write(tmp_path, "tiny", MINIMAL.format(name="tiny"))
    write(
        tmp_path,
        "tinier",
        """\
        name: tinier
        title: Tinier
        extends: tiny
        remove_rules: [main-size]
        rules:
          - id: main-max
            kind: section-size
            sections: [main]
            max: 5
            description: At most five
        """,
    )
    spec = load_format("tinier", [tmp_path])
    assert (spec.extends, spec.game, [r.id for r in spec.rules]) == ("tiny", "fow", ["main-max"])


def test_errors_in_a_child_point_into_the_child_file(tmp_path):
    write(tmp_path, "tiny", MINIMAL.format(name="tiny"))
    child = write(
        tmp_path,
        "child",
        """\
        name: child
        title: Child
        extends: tiny
        rules:
          - id: main-size
            kind: section-size
            sections: [main]
            min: 3
            typo: 1
            description: x
        """,
    )
    with pytest.raises(SpecError) as info:
        load_format("child", [tmp_path])
    assert (info.value.path, info.value.line) == (str(child), 9)


def test_extends_loop_and_unknown_parent(tmp_path):
    write(tmp_path, "a", "name: a\nextends: b\n")
    write(tmp_path, "b", "name: b\nextends: a\n")
    with pytest.raises(SpecError, match="extends: loop"):
        load_format("a", [tmp_path])
    write(tmp_path, "c", "name: c\nextends: nowhere\n")
    with pytest.raises(SpecError, match="unknown format 'nowhere'") as info:
        load_format("c", [tmp_path])
    assert info.value.line == 2


def test_unknown_format_lists_the_choices():
    with pytest.raises(SpecError) as info:
        load_format("bifrots")
    assert "unknown format 'bifrots'" in str(info.value) and "bifrost" in str(info.value)


def test_a_banlist_is_data(tmp_path):
    """A banned/limited list is a rule of kind banlist: no code to add one."""
    from forcecheck.cards.catalog import sample_catalog
    from forcecheck.decklists.readers import parse_decklist
    from forcecheck.engine import check_decklist, compile_format

    write(
        tmp_path,
        "banned",
        """\
        name: banned
        title: With a banlist
        extends: bifrost
        rules:
          - id: test-banlist
            kind: banlist
            list_name: Test list 2026-01
            sections: [main, side]
            cards:
              Viviane: 0
              SDAO1-025: 1
            description: Test banlist
        """,
    )
    from conftest import faria

    fmt = compile_format(load_format("banned", [tmp_path]))
    deck = parse_decklist(faria(), "d.txt", fmt.known_headers)
    found = [(v.code, v.rule, v.card, v.found, v.limit) for v in check_decklist(deck, fmt, sample_catalog()).violations]
    assert found == [
        ("FC601", "test-banlist", "Excalibur", 4, "at most 1"),
        ("FC601", "test-banlist", "Viviane", 4, "0 (forbidden)"),
    ]


def test_a_format_file_path_that_is_no_file_says_what_it_is(tmp_path):
    """``-f path.yaml`` naming a folder or a FIFO: what is there is said, not "unknown format"."""
    import os

    from forcecheck.errors import ForcecheckError
    from forcecheck.format_spec.loader import load_format

    folder = tmp_path / "mine.yaml"
    folder.mkdir()
    with pytest.raises(ForcecheckError, match="a folder, not a file"):
        load_format(str(folder))
    if hasattr(os, "mkfifo"):
        pipe = tmp_path / "pipe.yaml"
        os.mkfifo(pipe)
        with pytest.raises(ForcecheckError, match=r"not a regular file \(a FIFO"):
            load_format(str(pipe))
    with pytest.raises(ForcecheckError, match="unknown format"):
        load_format(str(tmp_path / "none.yaml"))


def test_an_error_in_a_child_rule_names_its_own_index_and_id_and_a_near_key(tmp_path):
    """Issue 39.6: before, a child of bifrost with a misspelt key in its second rule was told
    ``rules[46].sections: Field required`` (its place among the parent's rules, the missing key
    rather than the misspelt one). Now: the child's own index, the rule's id, the key it wrote
    and the key it meant, on the line it wrote."""
    child = write(tmp_path, "mine", """\
        name: mine
        title: Mine
        game: fow
        extends: bifrost
        rules:
          - id: a
            kind: section-size
            sections: [main]
            exactly: 40
            description: x
          - id: b
            kind: section-size
            sectons: [main]
            max: 40
            description: x
        """)
    with pytest.raises(SpecError) as info:
        load_format("mine", [tmp_path])
    assert (info.value.path, info.value.line) == (str(child), 13)
    assert str(info.value.message).startswith("rules[1] (rule 'b').sectons: unknown key 'sectons'; did you mean 'sections'")
    child.write_text(child.read_text().replace("sectons: [main]", "sections: [sied]"))
    with pytest.raises(SpecError) as info:
        load_format("mine", [tmp_path])
    assert info.value.line == 13 and "rules[1] (rule 'b').sections: rule 'b' names unknown section(s) sied; did you mean 'side'?" in info.value.message


def test_a_key_refused_where_it_stands_is_never_its_own_suggestion(tmp_path):
    """Review: 'points_cap' on a forbidden-cards rule was told "did you mean 'points_cap'?"."""
    write(tmp_path, "tiny", MINIMAL.format(name="tiny").replace("    min: 3\n", "    min: 3\n    points_cap: 5\n"))
    with pytest.raises(SpecError) as info:
        load_format("tiny", [tmp_path])
    assert "unknown key 'points_cap'" in info.value.message and "did you mean 'points_cap'" not in info.value.message
