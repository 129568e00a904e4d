"""Issue 32: the desk in English and Japanese. Every page string is in the catalogs (extracted
here with Babel, as a translator would, and compared with the Japanese catalog), the language
follows Accept-Language and the switch, and a Japanese page shows the format's Japanese
section titles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from desk_support import BEARER, FARIA_LEGAL, client, clock, db_url, new_event  # noqa: F401 - fixtures

babel = pytest.importorskip("babel", reason='the desk\'s catalogs need Babel: pip install -e ".[web]"')

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "forcecheck" / "web" / "locale" / "ja" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)(?:![rs])?\}")


def extracted() -> dict:
    """msgid -> message, as `pybabel extract -F forcecheck/web/babel.cfg -k N_` finds them."""
    from babel.messages import frontend
    from babel.messages.extract import extract_from_dir

    with open(ROOT / "forcecheck" / "web" / "babel.cfg", encoding="utf-8") as fh:
        parse = getattr(frontend, "parse_mapping_cfg", None) or frontend.parse_mapping  # Babel 2.13 renamed it
        method_map, options_map = parse(fh)
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    found = {}
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map, options_map, keywords=keywords):
        key = message[0] if isinstance(message, tuple) else message
        if key:
            found[key] = message
    return found


def test_every_page_string_has_its_japanese_translation():
    from babel.messages.pofile import read_po

    with open(PO, "rb") as fh:
        catalog = read_po(fh, locale="ja")
    ids = extracted()
    assert len(ids) > 200  # the templates, the sheets' words, the refusals pages show
    missing, untranslated, placeholders = [], [], []
    for key, message in ids.items():
        entry = catalog.get(message)
        if entry is None:
            missing.append(key)
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings) or entry.fuzzy:
            untranslated.append(key)
        for text in strings:
            if {m for pair in PLACEHOLDER.findall(key) for m in pair if m} != {m for pair in PLACEHOLDER.findall(text) for m in pair if m}:
                placeholders.append(key)
    assert missing == [], f"not in {PO.name}: run pybabel update (forcecheck.web.i18n)"
    assert untranslated == [] and placeholders == []
    stale = [m.id for m in catalog if m.id and (m.id[0] if isinstance(m.id, tuple) else m.id) not in ids]
    assert stale == [], "in the catalog but no longer in the desk"
    # a catalog that cannot be compiled would stop the desk: it compiles
    from forcecheck.web.i18n import translations

    translations.cache_clear()
    assert translations("ja").gettext("Submit my list") == "リストを提出"


@pytest.mark.parametrize("header, lang", [
    ("ja", "ja"), ("ja-JP,ja;q=0.9,en;q=0.8", "ja"), ("en-GB,en;q=0.9,ja;q=0.8", "en"), ("fr-FR,fr;q=0.9", "en"),
    ("fr;q=0.9,ja;q=0.5", "ja"), ("ja;q=0,en", "en"), ("", "en"), (None, "en"), ("*", "en"), ("ja;q=bad,en", "en"),
])
def test_the_language_follows_accept_language(header, lang):
    from forcecheck.web.i18n import choose, negotiate

    assert negotiate(header) == lang
    assert choose(None, None, header) == lang
    assert choose("en", "ja", "ja") == "en" and choose(None, "ja", "en") == "ja" and choose("xx", None, "ja") == "ja"


def test_pages_in_japanese_by_accept_language_and_by_the_switch(client, clock):
    event = new_event(client, clock)
    url = f"/e/{event['id']}"
    ja = client.get(url, headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    assert ja.status_code == 200 and ja.headers["content-language"] == "ja" and '<html lang="ja">' in ja.text
    assert "リストを提出" in ja.text and "チェック" in ja.text and "締切" in ja.text and "Submit my list" not in ja.text
    assert f'href="{url}?lang=en"' in ja.text  # the switch
    en = client.get(url + "?lang=en", headers={"Accept-Language": "ja"})
    assert "Submit my list" in en.text and en.headers["content-language"] == "en" and en.cookies.get("fc_lang") == "en"
    again = client.get(url, headers={"Accept-Language": "ja"})  # the switch is remembered over the header
    assert "Submit my list" in again.text
    client.cookies.clear()
    assert "リストを提出" in client.get(url + "?lang=ja").text


def test_a_japanese_page_shows_the_formats_japanese_section_titles(client, clock):
    event = new_event(client, clock)
    registered = client.post(f"/api/events/{event['id']}/registrations", json={"player": "山田 太郎", "decklist": FARIA_LEGAL}).json()
    client.headers.update(BEARER)
    ja = client.get(f"/admin/registrations/{registered['id']}?lang=ja").text
    for title in ("ルーラー", "メインデッキ", "魔石デッキ", "ストレンジャーデッキ", "サイドデッキ"):
        assert f"<td>{title}</td>" in ja, title
    en = client.get(f"/admin/registrations/{registered['id']}?lang=en").text
    assert "<td>Main Deck</td>" in en and "メインデッキ" not in en
    client.post(f"/api/events/{event['id']}/publish", json={"registrations": "all"})
    published = client.get(f"/e/{event['id']}/lists?lang=ja").text
    assert "公開デッキリスト" in published and "メインデッキ 40" in published and "山田 太郎" in published


def test_refusals_are_said_in_the_pages_language(client, clock):
    import re as _re

    event = new_event(client, clock, hours=1)
    page = client.get(f"/e/{event['id']}?lang=ja")
    csrf = _re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    empty = client.post(f"/e/{event['id']}", data={"csrf": csrf, "player": " ", "decklist": FARIA_LEGAL, "action": "submit"})
    assert empty.status_code == 422 and "プレイヤー名が空です" in empty.text
    clock.advance(hours=2)
    closed = client.post(f"/e/{event['id']}", data={"csrf": csrf, "player": "Ann", "decklist": FARIA_LEGAL, "action": "submit"})
    assert closed.status_code == 409 and "の登録は" in closed.text and "に締め切られました" in closed.text
    missing = client.get("/e/nope?lang=ja")
    assert missing.status_code == 404 and "見つかりません" in missing.text and "イベント &#39;nope&#39; はありません" in missing.text
    api = client.get("/api/events/nope", headers={"Accept-Language": "ja"})
    assert api.json() == {"detail": "no event 'nope'"}  # the API's messages stay English, for programs
