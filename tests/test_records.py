"""forcecheck.records: the plain record classes behave as the dataclasses they replace."""

import pickle

import pytest

from forcecheck.cards.model import Card, Face
from forcecheck.config import Config, DeckSettings
from forcecheck.decklists.model import Entry
from forcecheck.records import replace
from forcecheck.report.model import DeckReport, Violation


def test_a_frozen_record_compares_and_hashes_by_its_fields_and_refuses_assignment():
    face = Face("Faria", frozenset({"ruler"}))
    same = Face("Faria", frozenset({"ruler"}))
    assert face == same and hash(face) == hash(same) and len({face, same}) == 1
    assert face != Face("Melgis", frozenset({"ruler"}))
    assert hash(face) == hash(("Faria", frozenset({"ruler"}), frozenset(), frozenset(), "", 0))  # as a dataclass hashes
    with pytest.raises(AttributeError, match="cannot assign to field 'name'"):
        face.name = "Melgis"
    with pytest.raises(AttributeError):
        del face.name


def test_eq_false_compares_by_identity_and_uncompared_fields_are_left_out():
    assert Card("Faria", "fow") != Card("Faria", "fow")
    card = Card("Faria", "fow")
    assert {card: 1}[card] == 1
    first = DeckSettings(None, None, None, None, ("ALL",), (), (), (), banlist_source="flag")
    assert first == DeckSettings(None, None, None, None, ("ALL",), (), (), ())  # sources are not compared
    entry = Entry("Faria", 1, 3)
    assert entry == Entry("Faria", 1, 3, _readings=lambda: ())


def test_a_mutable_record_is_unhashable_like_a_dataclass():
    with pytest.raises(TypeError):
        hash(Violation("FC201", "copy-limit", "error", "too many", "deck.txt"))


def test_repr_names_every_shown_field_in_order():
    assert repr(Face("Faria")) == "Face(name='Faria', types=frozenset(), subtypes=frozenset(), attributes=frozenset(), cost='', total_cost=0)"
    assert "resolution" not in repr(DeckReport("deck.txt", "bifrost"))  # hidden, as repr=False was


def test_replace_copies_with_changes_and_rejects_unknown_fields():
    face = Face("Faria", cost="{W}")
    changed = replace(face, name="Melgis")
    assert (changed.name, changed.cost, face.name) == ("Melgis", "{W}", "Faria")
    with pytest.raises(TypeError, match="Face has no field 'colour'"):
        replace(face, colour="white")


def test_records_pickle_as_their_fields_and_keep_extra_attributes():
    report = DeckReport("deck.txt", "bifrost", [Violation("FC201", "copy-limit", "error", "too many", "deck.txt", line=4)])
    assert pickle.loads(pickle.dumps(report)) == report
    face = Face("Faria", frozenset({"ruler"}))
    assert pickle.loads(pickle.dumps(face)) == face
    config = Config(values={"format": "bifrost"})
    config.extra = "kept"  # a record without slots may carry more than its fields
    again = pickle.loads(pickle.dumps(config))
    assert again.values == {"format": "bifrost"} and again.extra == "kept"

