"""A player without an account reports through her private result link in Chromium, on a
phone (390 px) in English and German, with the keyboard only: she pastes her game's log
and submits it, confirms what her opponent sent for the other game, and sees a bad log
refused with the reason. The page fits the phone and sends no Referer."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_phone_width import PHONE, WIDTH_REPORT
from tests.builders import example_text, make_fixture, make_league, make_player, make_user
from tournaments.models import Entry, Result
from tournaments.services.result_links import result_link_create
from tournaments.services.results import result_report

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "de": "de-DE"}
WORDS = {
    "en": {"accepted": "The log was accepted", "confirmed": "You confirmed the result"},
    "de": {"accepted": "Das Protokoll wurde angenommen", "confirmed": "Du hast das Ergebnis"},
}


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until ``selector`` has the focus (fails if the keyboard cannot reach it)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"the keyboard never reached {selector}")


def fits(page) -> None:
    report = page.evaluate(WIDTH_REPORT, PHONE["width"])
    assert report["page"] <= PHONE["width"] and not report["wide"], report


def phone_page(chromium, live_server, lang: str):
    """A phone's browser in ``lang`` on the test server: its context, its page, and the
    lists the page's script errors and each request's Referer are collected into."""
    context = chromium.new_context(
        viewport=PHONE, locale=LANGUAGES[lang], base_url=live_server.url, is_mobile=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    referers: list[str | None] = []
    page.on("request", lambda req: referers.append(req.headers.get("referer")))
    return context, page, errors, referers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_player_reports_through_her_link_on_a_phone(
    chromium,
    live_server,
    transactional_db,
    axe_source,  # noqa: F811
    lang,
):
    organizer = make_user("olga")
    carol_user = make_user("carol_u")
    erin = make_player("erin", created_by=organizer)  # the example log's players
    carol = make_player("carol", user=carol_user)
    league = make_league(organizer, "spring-link", format="2T+")
    g1 = make_fixture(league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black")
    g2 = make_fixture(league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black")
    # G2: carol reported it by hand (she won); erin confirms
    sent = result_report(fixture=g2, by=carol_user, winner=Entry.objects.get(player=carol))
    _link, token = result_link_create(entry=Entry.objects.get(player=erin), by=organizer)

    context, page, errors, referers = phone_page(chromium, live_server, lang)
    try:
        response = page.goto(f"/r/{token}/")
        assert response.headers["referrer-policy"] == "no-referrer"
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator(f"#game-{g1.pk}")).to_be_visible()
        fits(page)
        assert not violations(page, axe_source), "axe: serious or critical violations"
        screenshot(page, f"result-link-{lang}")

        # G2: confirm carol's result, by keyboard
        tab_to(page, f'#game-{g2.pk} form[action$="/confirm/"] button')
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text(WORDS[lang]["confirmed"])
        assert Result.objects.get(pk=sent.pk).state == Result.State.CONFIRMED

        # G1: a bad log first (refused with the reason, nothing stored)
        tab_to(page, f"#log-text-{g1.pk}")
        page.keyboard.insert_text(example_text("invalid-house-jump.json"))
        tab_to(page, f'#game-{g1.pk} form[action$="/upload/"] button')
        page.keyboard.press("Enter")
        expect(page.locator("#form-error")).to_be_visible()
        fits(page)
        assert not violations(page, axe_source), "axe: serious or critical violations"
        screenshot(page, f"result-link-refused-{lang}")
        assert not Result.objects.filter(fixture=g1).exists()

        # then her game's log (the refused one is in the box again: replaced)
        tab_to(page, f"#log-text-{g1.pk}")
        assert page.locator(f"#log-text-{g1.pk}").input_value().startswith("{")
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(example_text("valid-league-2tplus.json"))
        tab_to(page, f'#game-{g1.pk} form[action$="/upload/"] button')
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text(WORDS[lang]["accepted"])
        result = Result.objects.get(fixture=g1)
        assert result.state == Result.State.PENDING and result.submitted_via_id == _link.pk
        fits(page)
        screenshot(page, f"result-link-sent-{lang}")
    finally:
        context.close()
    assert not any(token in (r or "") for r in referers), "the token travelled in a Referer"
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_organizer_makes_and_shows_a_link_on_a_phone(
    chromium,
    live_server,
    transactional_db,
    axe_source,  # noqa: F811
    lang,
):
    from django.conf import settings
    from django.test import Client

    organizer = make_user("olga")
    erin = make_player("erin", created_by=organizer)
    dave = make_player("dave", created_by=organizer)
    league = make_league(organizer, "spring-manage", format="2T+")
    make_fixture(league, [(erin, ["black", "yellow"]), (dave, ["green", "red"])], "black")
    client = Client()
    client.force_login(organizer)
    context = chromium.new_context(
        viewport=PHONE, locale=LANGUAGES[lang], base_url=live_server.url, is_mobile=True
    )
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto("/leagues/spring-manage/manage/")
        expect(page.locator("#result-links")).to_be_visible()
        entry = Entry.objects.get(player=erin)
        tab_to(page, f"#links-{entry.pk} button")  # "create a link", by keyboard
        page.keyboard.press("Enter")
        expect(page.locator(f"#links-{entry.pk} summary")).to_be_visible()
        tab_to(page, f"#links-{entry.pk} summary")
        page.keyboard.press("Enter")  # "show the link"
        field = page.locator(f'[data-result-link="{entry.pk}"]')
        expect(field).to_be_visible()
        url = field.input_value()
        assert "/r/" in url and len(url.rsplit("/r/", 1)[1].strip("/")) == 32
        fits(page)
        assert not violations(page, axe_source), "axe: serious or critical violations"
        screenshot(page, f"result-link-manage-{lang}")
        response = page.goto(url)  # the link works, without the organizer's rights
        assert response.status == 200
        expect(page.locator("h1")).to_contain_text("erin")
    finally:
        context.close()


REPORTED = {"en": "The result is reported", "de": "Das Ergebnis ist gemeldet"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_player_reports_a_game_without_a_log_through_her_link(
    chromium,
    live_server,
    transactional_db,
    axe_source,  # noqa: F811
    lang,
):
    """Issue 25: from her link page, by keyboard on a phone, she opens the by-hand form of
    her game, gives the winner and the loser's counted pawns, and sends it: it waits for
    carol. The form page fits, passes axe, and sends no Referer."""
    organizer = make_user("olga")
    carol_user = make_user("carol_u")
    erin = make_player("erin", created_by=organizer)
    carol = make_player("carol", user=carol_user)
    league = make_league(organizer, "spring-hand", format="2T+")
    g1 = make_fixture(league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black")
    link, token = result_link_create(entry=Entry.objects.get(player=erin), by=organizer)
    carol_entry = Entry.objects.get(player=carol)

    context, page, errors, referers = phone_page(chromium, live_server, lang)
    try:
        page.goto(f"/r/{token}/")
        tab_to(page, f'#game-{g1.pk} a[href$="/games/{g1.pk}/report/"]')
        page.keyboard.press("Enter")
        expect(page.locator("#hand-result-form")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        fits(page)
        assert not violations(page, axe_source), "axe: serious or critical violations"
        screenshot(page, f"result-link-report-{lang}")
        tab_to(page, 'input[name="winner"]')  # the group's first radio: erin
        page.keyboard.press("ArrowDown")  # the arrow keys choose within the group: carol
        expect(page.locator(f'input[name="winner"][value="{carol_entry.pk}"]')).to_be_checked()
        erin_entry = link.entry
        tab_to(page, f'input[name="counted_{erin_entry.pk}"]')
        page.keyboard.insert_text("3")
        tab_to(page, "#hand-result-form button[type=submit]")
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text(REPORTED[lang])
        result = Result.objects.get(fixture=g1)
        assert result.state == Result.State.PENDING and result.submitted_via_id == link.pk
        assert result.winner_id == carol_entry.pk
        assert result.counted_pawns[str(erin_entry.pk)] == 3
        fits(page)
        screenshot(page, f"result-link-reported-{lang}")
    finally:
        context.close()
    assert not any(token in (r or "") for r in referers), "the token travelled in a Referer"
    assert not errors, f"JavaScript errors: {errors}"
