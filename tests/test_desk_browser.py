"""The registration desk in a real browser (Debian's Chromium through Playwright), on SQLite and
PostgreSQL: the player flow and the organiser flow, end to end. Screenshots and the printed PDF are
saved in tests/artifacts/ (FORCECHECK_TEST_ARTIFACTS) for people to look at."""

from __future__ import annotations

import pytest
from conftest import CJK_FONT_ADVICE, has_cjk_font
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


@pytest.mark.postgresql_in_full_run
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

        href = page.get_attribute("a:has-text(\"Deck sheets (PDF)\")", "href")
        sheets = organiser.request.get(server.url + href)  # the organiser's session, as the button opens it
        if has_cjk_font():
            assert sheets.status == 200 and sheets.headers["content-type"] == "application/pdf"
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            pdf_path = ARTIFACTS / f"{db}-deck-sheets.pdf"
            pdf_path.write_bytes(sheets.body())
            _check_pdf(pdf_path, fingerprint)
        else:  # no CJK font here (.ci/run installs one): the Japanese player's sheet is refused with the package to install
            assert sheets.status == 500 and CJK_FONT_ADVICE in sheets.text()

        page.click(f"text={PLAYER}")
        page.fill("textarea[name=played]", PLAYED)
        page.click("button:has-text(\"Verify\")")
        assert "A legal sideboard exchange of the registered list" in page.inner_text(".verify")
        assert "− 3 Viviane" in page.inner_text(".verify") and "+ 3 Miscalculation" in page.inner_text(".verify")
        _shot(page, "organiser-verify", db)
        organiser.close()
        player_context.close()


def _check_pdf(path, fingerprint: str) -> None:
    """Two pages, one per player, by name; the Japanese names print as text (a CJK font is installed)."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 reads the sheets back: pip install -e \".[test,web-test]\"")
    document = pdfium.PdfDocument(data)
    pages = [" ".join(document[i].get_textpage().get_text_bounded().split()) for i in range(len(document))]
    document.close()
    assert len(pages) == 2
    assert "Ann Smith" in pages[0] and "ウンディーネの祈り" in pages[0]
    assert PLAYER in pages[1] and fingerprint in pages[1] and "Player's signature" in pages[1]
    assert "Ruler" in pages[1] and "Faria" in pages[1] and "Main Deck" in pages[1] and "Sideboard" in pages[1]



# -- issue 31: a phone, and a large event -------------------------------------------------------------------
PHONE = {"width": 390, "height": 844}


def _page_width(page) -> int:
    page.wait_for_load_state("load")  # a form's answer fully loaded, its stylesheet applied
    return page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


@pytest.mark.postgresql_in_full_run
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


# -- issue 32: a whole event, in English and Japanese ------------------------------------------------------
@pytest.mark.postgresql_in_full_run
def test_an_organiser_runs_a_whole_event_in_both_languages(db_url, browser):  # noqa: F811
    """Create an event that asks for player IDs; players register (one in Japanese); after the
    deadline the organiser unlocks one player, enters another's paper list, picks deck checks
    and records a verify against the pick, publishes the lists; every override shows on the
    event page. Screenshots of each page in English and Japanese."""
    from datetime import datetime, timedelta

    import httpx2
    from desk_support import BEARER, Clock

    db = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    clock = Clock()
    with LiveServer(make_app(db_url, clock, public_url=None)) as server:
        organiser = browser.new_context(viewport={"width": 1200, "height": 800})
        page = organiser.new_page()
        page.goto(server.url + "/admin/login")
        page.fill("input[name=token]", ADMIN)
        page.click("button:has-text(\"Log in\")")
        page.fill("input[name=name]", "Tokyo Regional")
        page.select_option("select[name=format]", "bifrost")
        page.fill("input[name=date]", "2026-12-05")
        deadline = (datetime.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
        page.fill("input[name=deadline]", deadline)
        page.select_option("select[name=player_id]", "required")
        page.click("button:has-text(\"Create event\")")
        share = server.url + page.get_attribute("a.share", "href")
        event_id = share.rsplit("/", 1)[1]

        # a Japanese player: the browser asks for Japanese, the page answers in Japanese
        japanese = browser.new_context(locale="ja-JP", viewport={"width": 1200, "height": 900}).new_page()
        japanese.goto(share)
        assert japanese.get_attribute("html", "lang") == "ja" and "リストを提出" in japanese.inner_text("form")
        japanese.fill("input[name=player]", PLAYER)
        japanese.fill("input[name=player_id]", "0012345678")
        japanese.fill("textarea[name=decklist]", FARIA_LEGAL)
        japanese.click("button[value=submit]")
        assert "登録受付票" in japanese.inner_text("h1") and japanese.inner_text("dd.player-id") == "0012345678"
        assert "メインデッキ" in japanese.inner_text("table.sections")
        _shot(japanese, "ja-player-receipt", db)
        japanese.click("a:has-text(\"English\")")  # the switch
        assert "Registration receipt" in japanese.inner_text("h1") and "Main Deck" in japanese.inner_text("table.sections")

        others = {}
        for name, player_id, listed in (("Ann Smith", "0000000001", FARIA_ILLEGAL), ("Bob Jones", "0000000002", FARIA_LEGAL),
                                        ("Eve", "0012345678", SECOND)):
            response = httpx2.post(f"{server.url}/api/events/{event_id}/registrations",
                                   json={"player": name, "decklist": listed, "player_id": player_id})
            assert response.status_code == 201, response.text
            others[name] = response.json()
        clock.advance(hours=2)  # the deadline passes

        # unlock Ann (her list is illegal), with a reason
        page.goto(f"{server.url}/admin/registrations/{others['Ann Smith']['id']}")
        page.click("summary:has-text(\"Unlock\")")
        page.fill("details[open] input[name=reason]", "Her phone died at the deadline")
        page.fill("details[open] input[name=by]", "Head judge Kim")
        page.click("details[open] button:has-text(\"Unlock\")")
        assert "unlocked" in page.inner_text("h1 + p")
        # enter Bob's paper list on his behalf (a different list: a new version)
        page.goto(f"{server.url}/admin/registrations/{others['Bob Jones']['id']}")
        page.click("summary:has-text(\"Enter a list\")")
        page.fill("details[open] textarea[name=decklist]", PLAYED)
        page.fill("details[open] input[name=reason]", "Paper list handed in at the desk")
        page.click("button:has-text(\"Store as a new version\")")
        assert "Version 2" in page.inner_text("h1 + p")

        # deck checks: pick two at random, verify the first at the table against its pick
        page.goto(f"{server.url}/admin/events/{event_id}")
        page.fill("input[name=count]", "2")
        page.fill("input[name=seed]", "round 3")
        page.click("button:has-text(\"Pick at random\")")
        assert page.locator("table.deckchecks tbody tr").count() == 2
        first = page.locator("table.deckchecks tbody tr").last.locator("a")
        picked_player = first.inner_text()
        first.click()
        assert "recorded against deck check #" in page.inner_text(".form-col")
        registered = {PLAYER: FARIA_LEGAL, "Ann Smith": FARIA_ILLEGAL, "Bob Jones": PLAYED, "Eve": SECOND}[picked_player]
        page.fill("textarea[name=played]", registered)
        page.click("button:has-text(\"Verify\")")
        assert "Identical to the registered list" in page.inner_text(".verify")
        page.goto(f"{server.url}/admin/events/{event_id}")
        outcome = page.locator("table.deckchecks tbody tr").last.locator("td").last.inner_text().strip()
        # the played deck is the registered list; a red badge says why when that list is illegal
        assert outcome == ("identical" if picked_player in (PLAYER, "Bob Jones") else "identical · illegal"), (picked_player, outcome)

        # the event page: the unlocked player marked, both IDs duplicated, every override with who and why
        row = page.locator("table.registrations tbody tr", has_text="Ann Smith")
        assert "unlocked" in row.inner_text()
        assert page.locator("table.registrations tbody tr", has_text="Eve").locator(".flag", has_text="player registered twice").count() == 1
        overrides = page.inner_text("ul.overrides")
        assert "Her phone died at the deadline" in overrides and "Head judge Kim" in overrides
        assert "Paper list handed in at the desk" in overrides and "list entered by the organiser" in overrides
        page.click("button:has-text(\"Publish all lists\")")
        assert page.url.endswith(f"/e/{event_id}/lists")
        assert page.locator("article.published").count() == 4 and "Ruler:" in page.inner_text("article.published >> nth=0")
        _shot(page, "en-published", db)
        page.goto(f"{server.url}/admin/events/{event_id}")
        _shot(page, "en-organiser-event", db)
        page.goto(f"{server.url}/admin/registrations/{others['Ann Smith']['id']}")
        _shot(page, "en-organiser-registration", db)

        # the same pages in Japanese (the switch on the page)
        page.goto(f"{server.url}/admin/events/{event_id}")
        page.click("a:has-text(\"日本語\")")
        assert page.get_attribute("html", "lang") == "ja"
        assert "主催者による変更" in page.inner_text("main") and "デッキチェック" in page.inner_text("main")
        assert "ロック解除" in page.inner_text("table.registrations")
        _shot(page, "ja-organiser-event", db)
        page.goto(f"{server.url}/admin/registrations/{others['Ann Smith']['id']}")
        assert "メインデッキ" in page.inner_text("table.sections") and "主催者の操作" in page.inner_text("main")
        _shot(page, "ja-organiser-registration", db)
        page.goto(f"{server.url}/e/{event_id}/lists")
        assert "公開デッキリスト" in page.inner_text("h1")
        _shot(page, "ja-published", db)

        # the player Ann may resubmit now; Bob may not
        api = httpx2.put(f"{server.url}/api/registrations/{others['Ann Smith']['id']}",
                         json={"player": "Ann Smith", "decklist": FARIA_LEGAL, "edit_token": others["Ann Smith"]["edit_token"]})
        assert api.status_code == 200 and api.json()["legal"] is True
        refused = httpx2.put(f"{server.url}/api/registrations/{others['Bob Jones']['id']}",
                             json={"player": "Bob Jones", "decklist": FARIA_LEGAL, "edit_token": others["Bob Jones"]["edit_token"]})
        assert refused.status_code == 409
        audit = httpx2.get(f"{server.url}/api/events/{event_id}/audit", headers=BEARER).json()
        assert [a["action"] for a in audit].count("registration.unlock") == 1
        organiser.close()
