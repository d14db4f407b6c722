"""The pages on a phone (390 px wide), in English and German: no page is wider than the
screen (a wide table scrolls inside its card, marked by a fade at its hidden edge), the
header's menu collapses behind a button that the keyboard opens and closes, and the
replay's move list keeps each entry's number on its first line."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_pages_in_browser import data  # noqa: F401  (the shared season)
from tournaments.models import Player

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LANGUAGES = {"en": "en-GB", "de": "de-DE"}

#: what a page may not do at 390 px: be wider than the screen; and every table either fits
#: or sits in a box that scrolls sideways (overflow auto/scroll) no wider than the screen
WIDTH_REPORT = """(vw) => {
  const scrollsX = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const tables = [...document.querySelectorAll('table')].filter(t => t.offsetParent !== null);
  const stuck = tables.filter(t => {
    const r = t.getBoundingClientRect();
    if (r.right <= vw + 1 && r.left >= -1) return false;
    for (let el = t.parentElement; el; el = el.parentElement) {
      if (scrollsX(el) && el.scrollWidth > el.clientWidth) {
        const b = el.getBoundingClientRect();
        return !(b.right <= vw + 1 && b.left >= -1);
      }
    }
    return true;
  }).map(t => (t.querySelector('caption') || t).textContent.trim().slice(0, 60));
  const wide = [...document.querySelectorAll('main *, header *')].filter(el => {
    if (el.offsetParent === null) return false;
    // inside an inline <svg> the drawing is clipped to the svg's box (checked itself)
    if (el.ownerSVGElement) return false;
    const r = el.getBoundingClientRect();
    if (r.right <= vw + 1) return false;
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (scrollsX(p) && p !== document.documentElement && p !== document.body) return false;
    }
    return true;
  }).slice(0, 5)
    .map(el => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
  // a mobile browser widens its layout viewport to a too-wide page (shrink to fit), so
  // the width is measured against the phone's 390 px, not against clientWidth
  return {viewport: vw, page: document.documentElement.scrollWidth, stuck, wide};
}"""


@pytest.fixture
def phone_pages(data):  # noqa: F811
    """The main pages of the shared season, with long player names (as real ones are)."""
    Player.objects.filter(pk=data.erin.player_id).update(name="Erin Ottilie Wackernagel-Schmidt")
    Player.objects.filter(pk=data.carol.player_id).update(name="Carolina Friederike Bauer")
    return {
        "home": "/",
        "league": "/leagues/spring/",
        "schedule": "/leagues/spring/schedule/",
        "standings": "/leagues/spring/standings/",
        "playoffs": "/leagues/spring/playoffs/",
        "game": f"/games/{data.g1.pk}/",
        "player": "/players/erin/",
        "rules": "/rules/",
        "ratings": "/ratings/",
        "rankings": "/rankings/",
        "replay": "/replay/",
        "search": "/search/?q=er",
        "embed": "/leagues/spring/embed/standings/?lang={lang}",  # the embed's own parameter
        "signup": "/accounts/signup/",
        "login": "/accounts/login/",
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_is_wider_than_a_phone(chromium, live_server, phone_pages, lang):
    context = chromium.new_context(
        viewport=PHONE, locale=LANGUAGES[lang], base_url=live_server.url, is_mobile=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    too_wide = {}
    try:
        for name, url in phone_pages.items():
            page.goto(url.replace("{lang}", lang))
            expect(page.locator("html")).to_have_attribute("lang", lang)
            report = page.evaluate(WIDTH_REPORT, PHONE["width"])
            if report["page"] > report["viewport"] or report["stuck"] or report["wide"]:
                too_wide[name] = report
            screenshot(page, f"phone-{name}-{lang}")
        # the check itself sees a page that is too wide: a 600 px table outside any box
        page.evaluate(
            """() => {
              const table = document.createElement('table');
              table.insertRow().insertCell().textContent = 'x';
              table.style.width = '600px';  // CSSOM: the CSP refuses style attributes
              document.querySelector('main').append(table);
            }"""
        )
        caught = page.evaluate(WIDTH_REPORT, PHONE["width"])
        assert caught["page"] > caught["viewport"] and caught["stuck"] and caught["wide"]
    finally:
        context.close()
    assert not too_wide, f"wider than 390 px: {too_wide}"
    assert not errors, f"JavaScript errors: {errors}"


def test_a_wide_table_scrolls_in_its_card_with_a_cue(chromium, live_server, phone_pages):
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(phone_pages["standings"])
        box = page.locator(".standings .table-wrap").first
        # the league table has more columns than fit: it scrolls, faded at the right edge,
        # and the keyboard can reach (and so scroll) it
        expect(box).to_have_class("table-wrap overflows")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth")
        assert box.evaluate("b => getComputedStyle(b).maskImage") != "none"
        expect(box).to_have_attribute("tabindex", "0")
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        expect(box).to_have_class("table-wrap overflows at-end")
        assert box.evaluate("b => getComputedStyle(b).maskImage") == "none"
    finally:
        context.close()


def test_the_header_collapses_and_the_keyboard_opens_it(chromium, live_server, phone_pages):
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    try:
        page.goto("/")
        toggle = page.locator(".menu-toggle")
        nav = page.locator(".site-nav")
        expect(toggle).to_be_visible()
        expect(nav).to_be_hidden()
        header_height = page.locator(".site-header").bounding_box()["height"]
        assert header_height < 80, f"the closed header is {header_height} px tall"
        toggle.focus()
        page.keyboard.press("Enter")
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(nav).to_be_visible()
        expect(page.locator(".site-header a[href$='/accounts/signup/']")).to_be_visible()
        screenshot(page, "phone-menu-open")
        page.keyboard.press("Escape")
        expect(nav).to_be_hidden()
        expect(toggle).to_be_focused()
        # on a wide screen there is no button: the menu is always there
        page.set_viewport_size({"width": 1280, "height": 900})
        expect(toggle).to_be_hidden()
        expect(nav).to_be_visible()
    finally:
        context.close()


def test_move_list_numbers_sit_on_the_first_line(chromium, live_server, phone_pages):
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(phone_pages["game"])
        items = page.locator("[data-moves] li")
        expect(items.first).to_be_visible()
        # entries whose text wraps over two or more lines: the number is level with the top
        tops = items.evaluate_all(
            """lis => lis.slice(0, 60).map(li => {
                const no = li.querySelector('.move-no').getBoundingClientRect();
                const b = li.querySelector('button').getBoundingClientRect();
                return [li.querySelector('.move-no').textContent, no.top - b.top, b.height];
            })"""
        )
        assert tops[0][0] == "1."
        assert any(h > 30 for _, _, h in tops), "no entry wraps: the check would prove nothing"
        assert all(abs(dy) < 8 for _, dy, _ in tops), tops
    finally:
        context.close()


def test_my_games_fits_a_phone(chromium, live_server, phone_pages, data):  # noqa: F811
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(data.erin_user)
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    try:
        for name, url in (("me", "/me/"), ("home-signed-in", "/")):
            page.goto(url)
            expect(page.locator("#mine-heading, #to-play-heading").first).to_be_visible()
            report = page.evaluate(WIDTH_REPORT, PHONE["width"])
            assert report["page"] <= PHONE["width"] and not report["wide"], (name, report)
            screenshot(page, f"phone-{name}")
    finally:
        context.close()
