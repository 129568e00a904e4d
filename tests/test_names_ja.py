"""Japanese card names: the matching folds, each rule both ways, and collisions that must not resolve.

The catalogs here are made of our own fixture cards (invented names in the shapes Japanese card
names have); the real databases are exercised in test_locales.py."""

from __future__ import annotations

import pytest

from forcecheck.cards.catalog import MemoryCatalog, catalog_from_json, written_language
from forcecheck.cards.model import Card
from forcecheck.cards.names import BARE, COMPACT, MARKS, PLAIN, bare_key, compact_key, lookup_keys, marks_key
from forcecheck.errors import CatalogError


def card(en: str, ja: str, *more_ja: str, code: str = "1") -> Card:
    return Card(name=en, game="ygo", types=frozenset({"spell"}), printings=(code,), names={"ja": (ja, *more_ja)})


def catalog(*cards: Card) -> MemoryCatalog:
    return MemoryCatalog(cards, "fixture")


# (what the card says, what a player writes, the fold that meets them)
FOLDING_RULES = [
    pytest.param("ＡＢＣ－ドラゴン", "ABC－ドラゴン", COMPACT, id="full-width Latin is half-width (NFKC)"),
    pytest.param("ｶｰﾄﾞ･ｶﾞﾝﾅｰ", "カード・ガンナー", COMPACT, id="half-width katakana is full-width (NFKC)"),
    pytest.param("Ｄ－ＨＥＲＯ ドグマガイ", "d－hero ドグマガイ", COMPACT, id="case"),
    pytest.param("氷結界の龍 ブリューナク", "氷結界の龍　ブリューナク", COMPACT, id="ideographic space"),
    pytest.param("氷結界の龍 ブリューナク", "氷結界の龍ブリューナク", COMPACT, id="no space"),
    pytest.param("ダーク・アームド・ドラゴン", "ダーク･アームド･ドラゴン", COMPACT, id="half-width middle dot"),
    pytest.param("ダーク・アームド・ドラゴン", "ダーク·アームド·ドラゴン", MARKS, id="Latin middle dot"),
    pytest.param("洗脳－ブレインコントロール", "洗脳-ブレインコントロール", COMPACT, id="ASCII hyphen for full-width dash"),
    pytest.param("洗脳－ブレインコントロール", "洗脳−ブレインコントロール", MARKS, id="minus sign"),
    pytest.param("洗脳－ブレインコントロール", "洗脳‐ブレインコントロール", MARKS, id="hyphen U+2010"),
    pytest.param("洗脳－ブレインコントロール", "洗脳ーブレインコントロール", MARKS, id="long vowel mark for dash"),
    pytest.param("ダーク・アームド・ドラゴン", "ダークアームドドラゴン", BARE, id="dots dropped"),
    pytest.param("聖なるバリア －ミラーフォース－", "聖なるバリア−ミラーフォース", BARE, id="dashes dropped"),
    pytest.param("Ａ・Ｏ・Ｊ カタストル", "AOJカタストル", BARE, id="dots and space dropped, half-width"),
]


@pytest.mark.parametrize("printed,written,fold", FOLDING_RULES)
def test_each_folding_rule_both_ways(printed, written, fold):
    # the card printed one way, the list written the other, and the reverse
    for on_card, in_list in ((printed, written), (written, printed)):
        found = catalog(card("Some Card", on_card)).match_name("ygo", in_list)
        assert found is not None, (on_card, in_list)
        assert (found.card.name, found.lang, found.fold) == ("Some Card", "ja", fold)
        assert found.card.name_in("ja") == on_card


@pytest.mark.parametrize("printed,written", [
    ("ダーク・アームド・ドラゴン", "ダーク・アームド・ドラゴソ"),  # ソ is not ン: folds are not fuzzy
    ("月の書", "月の本"),
    ("ＡＢＣ－ドラゴン", "ABCドラゴン竜"),
])
def test_a_fold_never_makes_another_name(printed, written):
    assert catalog(card("Some Card", printed)).match_name("ygo", written) is None


def test_a_loose_fold_that_makes_two_cards_collide_resolves_neither():
    # "Ａ・Ｂ" and "Ａ－Ｂ" are two cards; with dots and dashes dropped both are "ab"
    cat = catalog(card("Dot Card", "Ａ・Ｂ", code="1"), card("Dash Card", "Ａ－Ｂ", code="2"))
    assert cat.match_name("ygo", "ＡＢ") is None
    assert cat.by_name("ygo", "AB") is None
    assert sorted((c.name, lang) for c, lang in cat.clashing("ygo", "ＡＢ")) == [("Dash Card", "ja"), ("Dot Card", "ja")]
    assert sorted(cat.suggest("ygo", "ＡＢ")) == ["Ａ・Ｂ", "Ａ－Ｂ"]  # both, in Japanese
    # each printed spelling, and each look-alike of it, still finds its own card
    assert cat.by_name("ygo", "A・B").name == "Dot Card"
    assert cat.by_name("ygo", "A･B").name == "Dot Card"
    assert cat.by_name("ygo", "A-B").name == "Dash Card"
    assert cat.by_name("ygo", "A−B").name == "Dash Card"


def test_dash_look_alikes_that_collide_leave_only_the_exact_spellings():
    # a dash and a long vowel mark are one in the marks fold: these two cards meet there
    cat = catalog(card("Dash", "カ－ド", code="1"), card("Long", "カード", code="2"))
    assert cat.by_name("ygo", "カード").name == "Long"
    assert cat.by_name("ygo", "カ-ド").name == "Dash"  # NFKC makes the full-width dash an ASCII one
    assert cat.match_name("ygo", "カ−ド") is None  # a minus sign could be either
    assert cat.match_name("ygo", "カド") is None  # and so could nothing at all


def test_a_unique_loose_key_beside_an_ambiguous_one():
    cat = catalog(card("Dark Armed Dragon", "ダーク・アームド・ドラゴン", code="1"), card("Other", "ダーク・アームド", code="2"))
    assert cat.by_name("ygo", "ダークアームドドラゴン").name == "Dark Armed Dragon"
    assert cat.by_name("ygo", "ダークアームド").name == "Other"


def test_english_names_keep_their_own_matching_and_say_their_language():
    cat = catalog(card("Brain Control", "洗脳－ブレインコントロール"))
    found = cat.match_name("ygo", "brain  control")
    assert (found.card.name, found.lang, found.fold) == ("Brain Control", "en", PLAIN)
    assert cat.match_name("ygo", "braincontrol") is None  # English words are not run together


def test_remembered_match_tells_the_language_per_spelling():
    cat = catalog(card("Book of Moon", "月の書"))
    memo, match = cat.remembered("match", "ygo")
    assert match("月の書").lang == "ja" and match("Book of Moon").lang == "en"
    assert match("Book of Sun") is None and "Book of Sun" in memo


def test_a_spelling_is_matched_once_for_its_card_and_its_language(monkeypatch):
    """A batch resolves a spelling (``remembered("name")``) and works out a deck's language
    from the same spellings (``remembered("match")``): one match per spelling serves both, and
    the card is the one ``by_name`` gives, ambiguous and unknown names included."""
    cat = catalog(card("Book of Moon", "月の書", code="1"), card("Dark Armed Dragon", "ダーク・アームド・ドラゴン", code="2"),
                  card("Dark Armed Dragon Mk2", "ダーク・アームド・ドラゴン", code="3"))
    spellings = ["月の書", "Book of Moon", "book  of moon", "ダークアームドドラゴン", "Book of Sun"]
    expected = {written: cat.by_name("ygo", written) for written in spellings}
    asked: list[str] = []
    original = type(cat).match_name
    monkeypatch.setattr(type(cat), "match_name", lambda self, game, written: asked.append(written) or original(self, game, written))
    by_name = cat.remembered("name", "ygo")[1]
    assert {written: by_name(written) for written in spellings} == expected
    assert expected["ダークアームドドラゴン"] is None and expected["Book of Sun"] is None  # ambiguous, unknown
    assert written_language(cat, "ygo", spellings) == "en"
    assert asked == spellings  # each spelling matched once, for both


def test_keys():
    assert compact_key("Ａ・Ｏ・Ｊ　カタストル") == "a・o・jカタストル"
    assert marks_key("聖なるバリア －ミラーフォース－") == "聖なるバリア-ミラ-フォ-ス-"
    assert bare_key("聖なるバリア －ミラーフォース－") == bare_key("聖なるバリア−ミラーフォース") == "聖なるバリアミラフォス"
    # an English-only catalog tries the plain key alone
    assert [fold for fold, _key in lookup_keys("月の書", frozenset({PLAIN}))] == [PLAIN]
    # written in kana and kanji: the Japanese folds first; nothing to unify: no marks fold
    assert [fold for fold, _key in lookup_keys("月の書")] == [COMPACT, BARE, PLAIN]
    assert [fold for fold, _key in lookup_keys("Book-of Moon")] == [PLAIN, COMPACT, MARKS, BARE]


def test_suggestions_for_a_japanese_name_are_japanese():
    cat = catalog(
        card("Mirror Force", "聖なるバリア －ミラーフォース－", code="1"),
        card("Mirror Force Dragon", "ミラーフォース・ドラゴン", code="2"),
        card("Book of Moon", "月の書", code="3"),
    )
    assert set(cat.suggest("ygo", "ミラーフォース")) == {"ミラーフォース・ドラゴン", "聖なるバリア －ミラーフォース－"}
    assert cat.suggest("ygo", "月の本") == ["月の書"]
    assert cat.suggest("ygo", "Mirror Forse")[0] == "Mirror Force"


def test_name_in_and_catalog_json_round_trip():
    harpie = Card(name="Harpie Lady", game="ygo", aliases=("Harpie Lady 1",), printings=("76812113", "91932350"),
                  names={"ja": ("ハーピィ・レディ", "ハーピィ・レディ１")})
    assert harpie.name_in("ja") == "ハーピィ・レディ" and harpie.name_in("en") == harpie.name_in(None) == "Harpie Lady"
    assert harpie.name_in("fr") == "Harpie Lady"  # no French name: the base name
    assert harpie.languages == ("en", "ja")
    data = harpie.to_dict()
    assert data["names"] == {"ja": ["ハーピィ・レディ", "ハーピィ・レディ１"]} and "lang" not in data
    assert Card.from_dict(data).to_dict() == data
    only_ja = Card(name="月の書", game="ygo", lang="ja")
    assert Card.from_dict(only_ja.to_dict()).lang == "ja"
    cat = catalog_from_json({"schema": "forcecheck-catalog/1", "cards": [data]}, "c.json", "c")
    assert cat.by_name("ygo", "ﾊｰﾋﾟｨ･ﾚﾃﾞｨ1").name == "Harpie Lady"
    assert cat.info()["names"] == {"ygo": {"en": {"cards": 1, "names": 2}, "ja": {"cards": 1, "names": 2}}}


@pytest.mark.parametrize("names", [["月の書"], {"ja": [""]}, {"ja": [3]}])
def test_malformed_names_in_a_catalog_json_are_one_clear_error(names):
    data = {"schema": "forcecheck-catalog/1", "cards": [{"name": "Book of Moon", "game": "ygo", "names": names}]}
    with pytest.raises(CatalogError, match="card record 0 is malformed"):
        catalog_from_json(data, "c.json", "c")


def test_a_japanese_typo_is_corrected_among_japanese_names_only_when_one_card_is_meant():
    cat = catalog(
        card("Infernity Destroyer", "インフェルニティ・デストロイヤー", code="1"),
        card("Dark Armed Dragon", "ダーク・アームド・ドラゴン", code="2"),
        card("Book of Moon", "月の書", code="3"),
    )
    found, how = cat.correct("ygo", "インフェルニテイ・デストロイヤー")  # a large イ for the small ィ
    assert (found.name, how.name, how.why) == ("Infernity Destroyer", "インフェルニティ・デストロイヤー", "typo")
    assert cat.correct("ygo", "月の本") is None  # three characters: too short to guess
    assert cat.correct("ygo", "Dark Armed Dragoon")[0].name == "Dark Armed Dragon"  # English among English names


def test_a_japanese_typo_does_not_count_a_dropped_dot_as_an_edit():
    """Players drop the dots of Japanese names as the exact lookup does: ``ボルドヘッジホッグ`` is
    one edit (ド for ト) from ``ボルト・ヘッジホッグ``, not two; a second real edit is still too many
    for nine characters, and a second card as close still means neither."""
    hedgehog = card("Quillbolt Hedgehog", "ボルト・ヘッジホッグ", code="1")
    cat = catalog(hedgehog, card("Shaddoll Hedgehog", "シャドール・ヘッジホッグ", code="2"))
    found, how = cat.correct("ygo", "ボルドヘッジホッグ")
    assert (found.name, how.name, how.why) == ("Quillbolt Hedgehog", "ボルト・ヘッジホッグ", "typo")
    assert cat.correct("ygo", "ボルドヘッジボッグ") is None  # two edits in nine characters
    twin = catalog(hedgehog, card("Invented Hedgehog", "ボルカ・ヘッジホッグ", code="3"))
    assert twin.correct("ygo", "ボルドヘッジホッグ") is None  # one edit from either card


def test_a_japanese_name_is_read_by_its_part_after_a_dash_when_one_card_has_it():
    """Players write the subtitle of a dashed Japanese name (``ネクロバレー``) or drop an
    archetype prefix before a dash (``疾風のゲイル``), as they drop one before a space; when two
    cards end so, neither is meant."""
    cat = catalog(
        card("Necrovalley", "王家の眠る谷－ネクロバレー", code="1"),
        card("Blackwing - Gale the Whirlwind", "ＢＦ－疾風のゲイル", code="2"),
        card("Elemental HERO Stratos", "Ｅ・ＨＥＲＯ エアーマン", code="3"),
    )
    for written, meant in (("ネクロバレー", "Necrovalley"), ("疾風のゲイル", "Blackwing - Gale the Whirlwind"),
                           ("エアーマン", "Elemental HERO Stratos")):
        found, how = cat.correct("ygo", written)
        assert (found.name, how.why) == (meant, "shortened name"), written
    twins = catalog(card("Dark Magic Nightmare", "暗黒魔神 ナイトメア", code="4"),
                    card("Gimmick Puppet Nightmare", "ギミック・パペット－ナイトメア", code="5"))
    assert twins.correct("ygo", "ナイトメア") is None


def test_a_name_much_shorter_than_the_written_one_is_not_the_best_suggestion():
    cat = catalog(
        card("Mirror Force", "聖なるバリア －ミラーフォース－", code="1"),
        card("Force", "フォース", code="2"),
    )
    assert cat.suggest("ygo", "ミラーフォース 1")[0] == "聖なるバリア －ミラーフォース－"
