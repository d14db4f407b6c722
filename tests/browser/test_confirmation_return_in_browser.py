"""The e-mail confirmation returns to where the person came from (issue 34, item 11), in
Chromium on a phone (390 px), in English and German, with the keyboard only: a signed-in
person whose address is not confirmed is on *My leagues* (creating a league asks for a
confirmed address), asks for the confirmation mail there, opens the mailed link and lands
back on *My leagues*, confirmed, the request gone; axe finds nothing serious on either
page."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_result_link_in_browser import LANGUAGES, fits, phone_page, tab_to
from tests.builders import make_user
from tournaments.permissions import email_confirmed

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "notice": "Confirm your e-mail address before you organize a league",
        "send": "Send me the confirmation link",
        "sent": "The confirmation link is on its way.",
        "confirmed": "Your e-mail address is confirmed.",
    },
    "de": {
        "notice": "Bestätige deine E-Mail-Adresse, bevor du eine Liga anlegst",
        "send": "Bestätigungslink senden",
        "sent": "Der Bestätigungslink ist unterwegs.",
        "confirmed": "Deine E-Mail-Adresse ist bestätigt.",
    },
}
SEND_BUTTON = 'form[action*="/confirm-email/send/"] button'


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_mailed_confirmation_link_returns_to_the_page_that_asked_for_it(
    chromium,
    live_server,
    transactional_db,
    axe_source,  # noqa: F811
    settings,
    lang,
):
    settings.ORGANIZERS_MUST_BE_VERIFIED = True
    ida = make_user("ida_k")
    client = Client()
    client.force_login(ida)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    my_leagues = reverse("tournaments:my-leagues")

    context, page, errors, _referers = phone_page(chromium, live_server, lang)
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    try:
        page.goto(my_leagues)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        # in the page's language, capitalised, and pointing at the button here (on main: the
        # English refusal "confirm your e-mail address … (your account page sends …)")
        expect(page.locator("#confirm-notice")).to_contain_text(WORDS[lang]["notice"])
        send = page.locator(SEND_BUTTON)
        expect(send).to_have_text(WORDS[lang]["send"])
        fits(page)
        assert not violations(page, axe_source), "axe: serious or critical violations"
        screenshot(page, f"confirmation-asked-{lang}")

        # ask for the mail, by keyboard
        mail.outbox.clear()
        tab_to(page, SEND_BUTTON)
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text(WORDS[lang]["sent"])
        assert urlsplit(page.url).path == my_leagues
        (message,) = [m for m in mail.outbox if ida.email in m.to]
        link = re.search(r"https?://\S+/me/confirm-email/\S+", message.body).group(0)
        assert urlsplit(link).query == f"next={my_leagues.replace('/', '%2F')}"
        assert not email_confirmed(ida)

        # open the mailed link (on this test server): back on My leagues, confirmed
        split = urlsplit(link)
        page.goto(f"{split.path}?{split.query}")
        expect(page.locator(".messages")).to_contain_text(WORDS[lang]["confirmed"])
        assert urlsplit(page.url).path == my_leagues
        expect(page.locator(SEND_BUTTON)).to_have_count(0)  # nothing left to confirm
        assert email_confirmed(ida)
        fits(page)
        assert not violations(page, axe_source), "axe: serious or critical violations"
        screenshot(page, f"confirmation-returned-{lang}")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"
