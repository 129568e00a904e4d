"""Card data in several languages: which language a source's names are in, and merging them.

YGOPro clients ship one ``cards.cdb`` per language with the same passcodes; other sources put
a translated name beside the English one in each record (``"name_ja"``, or ``"names": {"ja":
...}``). Either way a card keeps every name it has, tagged with its language, and its facts
come from the base language's data: a locale's cards are joined to the base cards by printing
code (passcode), and where a locale's facts differ from the base's, that is an import warning
for the card, never a silent overwrite.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from forcecheck.cards.model import Card
from forcecheck.cards.names import has_kana, has_kana_or_kanji, normalize_name
from forcecheck.importers import ImportSourceError, ImportWarning
from forcecheck.records import replace

BASE_LANGUAGE = "en"
LOCALE = re.compile(r"^[a-z]{2,3}$")
"""A language code as the catalog stores it: ``en``, ``ja``, ``zh`` (ISO 639, lower case)."""
_REGION = {"jp": "ja", "jpn": "ja", "eng": "en", "cn": "zh", "kr": "ko"}
"""Codes people write for a country or in three letters, read as the language."""
_NAME_FIELD = re.compile(r"^name_([A-Za-z]{2,3})$")


def locale_code(text: str) -> str | None:
    """``ja``, ``ja-JP``, ``JP``, ``jpn`` -> ``ja``; None for what is no language code."""
    code = text.strip().replace("_", "-").split("-")[0].lower()
    code = _REGION.get(code, code)
    return code if LOCALE.match(code) else None


def detect_locale(names: Iterable[str], path) -> str:
    """The language of a source's names, read from their script: Japanese when most names are
    written in kana or kanji and some have kana, else the base language (English). Names in
    kanji alone (Chinese?) or a script forcecheck cannot tell need ``--locale``."""
    total = cjk = kana = 0
    for name in names:
        if not isinstance(name, str) or not name.strip():
            continue
        total += 1
        if has_kana_or_kanji(name):
            cjk += 1
            kana += has_kana(name)
    if not total or cjk * 2 < total:
        return BASE_LANGUAGE
    if kana * 10 >= total:
        return "ja"
    raise ImportSourceError(
        "cannot tell the language of the card names (written in kanji/hanzi without kana); say it with --locale (e.g. --locale zh)",
        path,
    )


def record_names(record: dict) -> dict[str, str]:
    """Translated names a record carries beside its own: ``"names": {"ja": "..."}`` and
    ``"name_ja"``-style fields (``name_jp`` is read as Japanese)."""
    found: dict[str, str] = {}
    names = record.get("names")
    if names is None and not any(isinstance(key, str) and key.startswith("name_") for key in record):
        return found
    if isinstance(names, dict):
        for lang, name in names.items():
            code = locale_code(str(lang))
            if code and isinstance(name, str) and name.strip():
                found.setdefault(code, name.strip())
    for key, name in record.items():
        match = _NAME_FIELD.match(key) if isinstance(key, str) else None
        if match and isinstance(name, str) and name.strip():
            code = locale_code(match.group(1))
            if code:
                found.setdefault(code, name.strip())
    return found


def attach_record_names(cards: list[Card], records: list[dict], lang: str) -> list[Card]:
    """Cards (named in ``lang``) with the translated names their source records carry (see
    ``record_names``), found by the record's id among the card's printing codes. A record named
    like the card gives the card's printed name in that language; another face's record an
    other name."""
    by_code = {code: index for index, card in enumerate(cards) for code in card.printings}
    added: dict[int, dict[str, list[tuple[bool, str]]]] = {}
    for record in records:
        if not isinstance(record, dict):
            continue
        names = record_names(record)
        index = by_code.get(str(record.get("id")))
        if not names or index is None:
            continue
        card = cards[index]
        own = normalize_name(str(record.get("name") or "")) == normalize_name(card.name)
        for other, name in names.items():
            if other != lang:
                added.setdefault(index, {}).setdefault(other, []).append((own, name))
    if not added:
        return cards
    out = list(cards)
    for index, per_lang in added.items():
        merged = {lang: list(names) for lang, names in out[index].names.items()}
        for lang, found in per_lang.items():
            ordered = [n for own, n in found if own] + [n for own, n in found if not own]
            merged[lang] = list(dict.fromkeys(merged.get(lang, []) + ordered))
        out[index] = replace(out[index], names={lang: tuple(names) for lang, names in merged.items()})
    return out


def choose_base(locales: Iterable[str]) -> str:
    """The language whose data gives the cards their facts and identity: English when there
    is English data, else the first source's language."""
    ordered = list(dict.fromkeys(locales))
    return BASE_LANGUAGE if BASE_LANGUAGE in ordered or not ordered else ordered[0]


def merge_locales(base: list[Card], locales: list[tuple[str, list[Card]]], warnings: list[ImportWarning]) -> list[Card]:
    """The base cards with every locale card's names added, joined by printing code.

    A locale card whose original printing is the base card's original gives that card's
    printed name in its language; one joined through another printing (an alternate artwork
    that the locale data keeps as a card of its own) gives an other name. A locale card no base
    card shares a printing with is a card of its own, named in its language. Facts that differ
    between the two are a warning for the card; the base facts are kept."""
    by_code: dict[str, int] = {}
    for index, card in enumerate(base):
        for code in card.printings:
            by_code.setdefault(code, index)
    names: dict[int, dict[str, tuple[list[str], list[str]]]] = {}
    own: list[Card] = []
    for lang, cards in locales:
        for card in cards:
            targets = list(dict.fromkeys(by_code[c] for c in card.printings if c in by_code))
            if not targets:
                own.append(replace(card, lang=lang, names={k: v for k, v in card.names.items() if k != lang}))
                continue
            index = targets[0]
            target = base[index]
            record = card.printings[0] if card.printings else card.name
            if len(targets) > 1:
                others = ", ".join(base[i].printings[0] for i in targets[1:])
                warnings.append(ImportWarning(record, f"the {lang} data joins printings the {target.lang} data keeps as "
                                              f"different cards ({target.printings[0]}, {others}); its names go to {target.name}"))
            differences = fact_differences(target, card)
            if differences:
                warnings.append(ImportWarning(record, f"the {lang} data disagrees with the {target.lang} data on {target.name}: "
                                              f"{differences}; the {target.lang} facts are kept"))
            printed, other = names.setdefault(index, {}).setdefault(lang, ([], []))
            (printed if card.printings[:1] == target.printings[:1] else other).append(card.name)
            other.extend(card.aliases)
            for extra_lang, extra in card.names.items():  # names in a third language the locale data carries
                names[index].setdefault(extra_lang, ([], []))[1].extend(extra)
    out = list(base)
    for index, per_lang in names.items():
        card = out[index]
        merged = {lang: list(found) for lang, found in card.names.items()}
        for lang, (printed, other) in per_lang.items():
            if lang == card.lang:
                continue
            merged[lang] = list(dict.fromkeys(printed + merged.get(lang, []) + other))
        out[index] = replace(card, names={lang: tuple(found) for lang, found in merged.items() if found})
    return out + own


_FACTS = ("types", "subtypes", "attributes", "cost", "total_cost", "keywords", "copy_limit", "unlimited_copies",
          "will", "deck_attributes", "split", "regions")


def fact_differences(base: Card, other: Card) -> str:
    """What two readings of one card disagree on, in words ('' when they agree). Names and
    printings are no facts here; an original printing that is an alternate in the other data
    (the ``alias`` of a YGOPro database) is."""
    out = []
    for fact in _FACTS:
        mine, theirs = getattr(base, fact), getattr(other, fact)
        if mine != theirs:
            out.append(f"{fact.replace('_', ' ')} {_words(mine)} / {_words(theirs)}")
    faces = [replace(f, name="") for f in base.faces], [replace(f, name="") for f in other.faces]
    if faces[0] != faces[1]:
        out.append("faces")
    if other.printings and base.printings and other.printings[0] != base.printings[0]:
        out.append(f"original printing {base.printings[0]} / {other.printings[0]} (alias)")
    return "; ".join(out)


def _words(value) -> str:
    if isinstance(value, (set, frozenset)):
        return ", ".join(sorted(value)) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in sorted(value.items())) or "none"
    return str(value) if value not in ("", None) else "none"
