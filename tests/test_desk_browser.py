"""The registration desk in a real browser (Debian's Chromium through Playwright), on SQLite and
PostgreSQL: the player flow and the organiser flow, end to end. Screenshots and the printed PDF are
saved in tests/artifacts/ (FORCECHECK_TEST_ARTIFACTS) for people to look at."""

from __future__ import annotations

import re
import shutil
import subprocess
import pytest
from desk_support import (
    ADMIN,
    ARTIFACTS,
    CHROMIUM_ARGS,
    CHROMIUM_ENV,
    FARIA_ILLEGAL,
    FARIA_LEGAL,
    LiveServer,
    chromium_path,
    db_url,  # noqa: F401 - fixture
    make_app,
)

playwright_api = pytest.importorskip("playwright.sync_api", reason='browser tests need playwright: pip install -e ".[test,web-test]"')

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason=f"no Chromium (apt-get install chromium; or set {CHROMIUM_ENV}=/path/to/chromium); {CHROMIUM_ENV}=none skips on purpose")

PLAYER = "山田 太郎"
"""A Japanese player name: it must show and print as written."""

SECOND = FARIA_LEGAL.replace("3 Relief Aid", "3 ウンディーネの祈り")
"""Another player's list with a card name in Japanese that the catalog does not know (illegal)."""

PLAYED = FARIA_LEGAL.replace("4 Viviane", "1 Viviane\n3 Miscalculation").replace("3 Miscalculation\n3 Relief Aid", "3 Viviane\n3 Relief Aid")
"""The legal list after a sideboard exchange: 3 Viviane out of the main deck, 3 Miscalculation in."""


@pytest.fixture
def browser():
    with playwright_api.sync_playwright() as p:
        # Playwright gives every launch a fresh temporary profile (its own --user-data-dir)
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield instance
        finally:
            instance.close()


def _shot(page, name: str, db: str, top: bool = False) -> None:
    """The whole page; with ``top`` also what the window shows (small, for the README's docs/)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{db}-{name}.png"), full_page=True)
    if top:
        page.screenshot(path=str(ARTIFACTS / f"{db}-{name}-top.png"))


def test_player_and_organiser_flows(db_url, browser):  # noqa: F811
    db = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    with LiveServer(make_app(db_url)) as server:
        organiser = browser.new_context(viewport={"width": 1200, "height": 560}, accept_downloads=True)
        page = organiser.new_page()

        # organiser: log in, create the event
        page.goto(server.url + "/admin")
        assert page.url.endswith("/admin/login?next=/admin")
        page.fill("input[name=token]", ADMIN)
        page.click("button:has-text(\"Log in\")")
        page.fill("input[name=name]", "Tokyo Store Championship")
        page.select_option("select[name=format]", "bifrost")
        page.fill("input[name=date]", "2026-12-05")
        page.fill("input[name=deadline]", "2031-01-01T10:00")
        page.click("button:has-text(\"Create event\")")
        share = page.get_attribute("a.share", "href")
        assert share.startswith("/e/")  # relative: never built from the request's Host (serve --public-url makes it absolute)
        share = server.url + share

        # player, without JavaScript (the server-rendered path): illegal list, findings on their line
        player_context = browser.new_context(java_script_enabled=False, viewport={"width": 1200, "height": 900})
        player = player_context.new_page()
        player.goto(share)
        player.fill("input[name=player]", PLAYER)
        player.fill("textarea[name=decklist]", FARIA_ILLEGAL)
        player.click("button[value=check]")
        assert "Not legal: 1 problem, 1 warning." in player.inner_text(".verdict")
        line8 = player.inner_text("#line-8")
        assert "unknown card 'Gawain, the Knight of the Moon'; did you mean 'Gawain, the Knight of the Sun'" in line8 and "FC001" in line8
        line9 = player.inner_text("#line-9")
        assert line9.count("read 'Perceval, the Seeker of Holy Grial' as 'Perceval, the Seeker of Holy Grail' (typo)") == 1 and "FC012" in line9
        assert line9.count("Perceval, the Seeker of Holy Grail") == 1  # said once, by its finding
        assert "has-warning" in player.get_attribute("#line-9", "class") and "has-error" in player.get_attribute("#line-8", "class")
        assert player.input_value("textarea[name=decklist]").strip() == FARIA_ILLEGAL.strip()  # the list stays to be fixed
        _shot(player, "player-findings", db, top=True)

        # fix, submit: the receipt with the fingerprint
        player.fill("textarea[name=decklist]", FARIA_LEGAL)
        player.click("button[value=submit]")
        assert "/r/" in player.url
        assert player.inner_text("dd.player") == PLAYER
        fingerprint = player.inner_text("code.fingerprint")
        assert fingerprint.startswith("fc1-") and len(fingerprint) == 36
        assert "Legal in bifrost" in player.inner_text(".result-col .verdict")
        _shot(player, "player-receipt", db)

        # with JavaScript, the list is checked as the player types (progressive enhancement)
        live = browser.new_context().new_page()
        live.goto(share)
        live.fill("textarea[name=decklist]", FARIA_ILLEGAL)
        live.wait_for_selector(".live .verdict", timeout=10_000)
        assert "line 8: unknown card 'Gawain, the Knight of the Moon'" in live.inner_text(".live")

        # a second, illegal registration arrives through the API
        import httpx2

        event_id = share.rsplit("/", 1)[1]
        second = httpx2.post(f"{server.url}/api/events/{event_id}/registrations", json={"player": "Ann Smith", "decklist": SECOND})
        assert second.status_code == 201 and second.json()["legal"] is False

        # organiser: the table (illegal first), export, sheets, verify
        page.reload()
        statuses = page.locator("table.registrations tbody tr td:first-child").all_inner_texts()
        players = page.locator("table.registrations tbody tr td:nth-child(2)").all_inner_texts()
        assert statuses == ["illegal", "legal"] and players == ["Ann Smith", PLAYER]
        assert fingerprint in page.inner_text("table.registrations")
        _shot(page, "organiser-event", db, top=True)

        with page.expect_download() as download:
            page.click("text=Export CSV")
        csv_text = open(download.value.path(), encoding="utf-8").read()
        assert csv_text.splitlines()[0].startswith("status,file,player,format,legal")
        assert any(line.startswith("illegal,") and "Ann Smith" in line for line in csv_text.splitlines())
        assert any(line.startswith("legal,") and PLAYER in line and fingerprint in line for line in csv_text.splitlines())

        sheets = organiser.new_page()
        sheets.goto(f"{server.url}/admin/events/{event_id}/sheets")
        assert sheets.locator("article.sheet").count() == 2
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pdf_path = ARTIFACTS / f"{db}-deck-sheets.pdf"
        sheets.emulate_media(media="print")
        sheets.pdf(path=str(pdf_path), format="A4", print_background=True)
        _check_pdf(pdf_path, fingerprint)

        page.click(f"text={PLAYER}")
        page.fill("textarea[name=played]", PLAYED)
        page.click("button:has-text(\"Verify\")")
        assert "A legal sideboard exchange of the registered list" in page.inner_text(".verify")
        assert "− 3 Viviane" in page.inner_text(".verify") and "+ 3 Miscalculation" in page.inner_text(".verify")
        _shot(page, "organiser-verify", db)
        organiser.close()
        player_context.close()


def _check_pdf(path, fingerprint: str) -> None:
    """Two pages, one per player; the Japanese names print as text (a CJK font is installed)."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    if shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None:
        pytest.skip("poppler-utils (pdftotext, pdfinfo) not installed: the PDF was saved but its text is not checked")
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+2$", info, re.MULTILINE), info
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    assert "Ann Smith" in pages[0] and "ウンディーネの祈り" in pages[0]
    assert PLAYER in pages[1] and fingerprint in pages[1] and "Player's signature" in pages[1]
    assert "Ruler" in pages[1] and "Faria" in pages[1] and "Main Deck" in pages[1] and "Sideboard" in pages[1]



# -- issue 31: a phone, and a large event -------------------------------------------------------------------
PHONE = {"width": 390, "height": 844}


def _page_width(page) -> int:
    page.wait_for_load_state("load")  # a form's answer fully loaded, its stylesheet applied
    return page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def test_no_player_page_scrolls_sideways_on_a_phone(db_url, browser):  # noqa: F811
    """At 390 px the receipt was 510 px wide. Every page a player meets, with a long list line,
    a long name without spaces, the fingerprint and the edit code, fits the screen."""
    import httpx2

    db = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    with LiveServer(make_app(db_url)) as server:
        event = httpx2.post(server.url + "/api/events", headers={"Authorization": f"Bearer {ADMIN}"}, json={
            "name": "Tokyo Store Championship with a rather long name for a phone screen", "format": "bifrost",
            "date": "2026-12-05", "deadline": "2031-01-01T10:00"}).json()
        closed = httpx2.post(server.url + "/api/events", headers={"Authorization": f"Bearer {ADMIN}"}, json={
            "name": "Last week's cup", "format": "bifrost", "date": "2026-12-05", "deadline": "2020-01-01T10:00"}).json()
        context = browser.new_context(viewport=PHONE, java_script_enabled=False)
        page = context.new_page()
        long_line = FARIA_ILLEGAL + "\n4 " + "Unbreakable" * 12 + "\n"
        seen = {}
        page.goto(server.url + "/")
        seen["home"] = _page_width(page)
        page.goto(server.url + f"/e/{event['id']}")
        seen["event"] = _page_width(page)
        page.fill("input[name=player]", "Bartholomew" * 8)
        page.fill("textarea[name=decklist]", long_line)
        page.click("button[value=check]")
        seen["checked"] = _page_width(page)
        _shot(page, "phone-checked", db)
        page.fill("textarea[name=decklist]", FARIA_LEGAL)
        page.click("button[value=submit]")
        assert "/r/" in page.url
        seen["receipt"] = _page_width(page)
        _shot(page, "phone-receipt", db)
        receipt = page.url
        other = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
        other.goto(receipt)
        seen["edit code"] = _page_width(other)
        other.goto(server.url + f"/e/{closed['id']}")
        seen["closed"] = _page_width(other)
        other.goto(server.url + "/e/no-such-event")
        seen["not found"] = _page_width(other)
        other.goto(server.url + "/admin/login")
        seen["login"] = _page_width(other)
        assert {k: v for k, v in seen.items() if v > PHONE["width"]} == {}
        context.close()


def test_the_organiser_table_searches_sorts_and_pages_1000_registrations(db_url, browser):  # noqa: F811
    from forcecheck.web.storage import NewVersion

    db = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    app = make_app(db_url)
    desk = app.state.desk
    event = desk.create_event("Regional Championship", "bifrost", "2026-12-05", "2031-01-01T10:00")
    legal, illegal = (desk.check(event, FARIA_LEGAL), desk.check(event, FARIA_ILLEGAL))
    from forcecheck.api import Checker

    contents = Checker().contents(FARIA_LEGAL, "bifrost", "2026-12-05")
    now = desk.clock()
    for i in range(1000):
        deck = illegal if i % 4 == 0 else legal
        desk.store.add_registration(event.id, f"reg{i:04d}", "0" * 64, NewVersion(f"Player {i:04d}", "decklist.txt",
                                    FARIA_ILLEGAL if i % 4 == 0 else FARIA_LEGAL, deck, contents), now, actor="player")
    with LiveServer(app) as server:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.goto(server.url + f"/admin/events/{event.id}")
        page.fill("input[name=token]", ADMIN)
        page.click("button:has-text(\"Log in\")")
        rows = page.locator("table.registrations tbody tr")
        assert rows.count() == 50
        assert "1–50 of 1,000" in page.inner_text(".shown")
        assert page.locator("table.registrations tbody tr td:first-child").all_inner_texts()[:3] == ["illegal"] * 3
        _shot(page, "organiser-1000", db, top=True)

        page.click("a[rel=next]")
        assert "51–100 of 1,000" in page.inner_text(".shown") and rows.count() == 50

        page.fill("input[name=q]", "Player 042")
        page.click("button:has-text(\"Search\")")
        players = page.locator("table.registrations tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(players) == [f"Player {i:04d}" for i in range(420, 430)] and "1–10 of 10" in page.inner_text(".shown")

        page.fill("input[name=q]", "")
        page.click("button:has-text(\"Search\")")
        page.click("th a[data-sort=player]")
        first = page.locator("table.registrations tbody tr td:nth-child(2)").all_inner_texts()
        assert first[:2] == ["Player 0000", "Player 0001"]
        page.click("th a[data-sort=player]")  # again: the other way
        assert page.locator("table.registrations tbody tr td:nth-child(2)").all_inner_texts()[:2] == ["Player 0999", "Player 0998"]
        page.click("a[rel=next]")
        assert page.locator("table.registrations tbody tr td:nth-child(2)").all_inner_texts()[0] == "Player 0949"

        # on a phone the organiser's page does not scroll sideways either (the table scrolls in its box)
        phone = context.new_page()
        phone.set_viewport_size(PHONE)
        phone.goto(server.url + f"/admin/events/{event.id}")
        assert _page_width(phone) <= PHONE["width"]
        _shot(phone, "organiser-phone", db)
        context.close()
