"""The desk's languages: English and Japanese, every page string through gettext catalogs.

The catalogs are ``locale/<lang>/LC_MESSAGES/messages.po`` (Babel's tools extract the strings
from the templates and the Python that shows text: ``pybabel extract -F babel.cfg``, see
tests/test_desk_i18n.py, which fails on a string a catalog lacks). They are compiled in memory
when the desk starts (Babel's ``write_mo``), so no compiled file can fall out of step.

A page's language: ``?lang=`` (the switch on every page, remembered in a cookie), else the
cookie, else the browser's Accept-Language (Babel's negotiation), else English.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "ja")
NAMES = {"en": "English", "ja": "日本語"}
LANG_COOKIE = "fc_lang"
LOCALE_DIR = Path(__file__).parent / "locale"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The language's catalog (English: the strings as written)."""
    if lang == "en" or lang not in LANGUAGES:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as fh:
        catalog = read_po(fh, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


def negotiate(accept_language: str | None) -> str:
    """The best of LANGUAGES for an Accept-Language header (English when none fits)."""
    if not accept_language:
        return "en"
    from babel import Locale

    wanted = []
    for part in accept_language.split(",")[:20]:
        piece, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if piece and piece != "*" and quality > 0:
            wanted.append((quality, piece.strip()))
    wanted.sort(key=lambda pair: -pair[0])  # stable: the header's order among equal weights
    found = Locale.negotiate([w for _q, w in wanted], list(LANGUAGES), sep="-")
    return found.language if found else "en"


def choose(query_lang: str | None, cookie: str | None, accept_language: str | None) -> str:
    if query_lang in LANGUAGES:
        return query_lang
    if cookie in LANGUAGES:
        return cookie
    return negotiate(accept_language)


def has_kana(text: str) -> bool:
    return any("\u3040" <= c <= "\u30ff" or "\uff66" <= c <= "\uff9f" for c in text)


def section_titles(info, lang: str) -> dict[str, str]:
    """Section id -> title as the page shows it: in Japanese, the format's Japanese title (an
    alias written in kana: Chinese aliases are kanji only), else the format's title."""
    titles = dict(info.sections) if info is not None else {}
    if lang == "ja" and info is not None:
        for section_id, aliases in info.aliases:
            japanese = [a for a in aliases if has_kana(a)]
            if japanese:
                titles[section_id] = japanese[0]
    return titles
