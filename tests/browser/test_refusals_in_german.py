"""One error rule (issue 35, item 4) in Chromium: the refusals a person commonly meets on
the German pages are worded in German (the catalogue's German text is on the page, its
English text is not): a mistyped invitation link, a sign-up with a look-alike user name, a
duplicate player name, a join request to a league that stopped taking requests, a malformed
game log, and a hand-entered result whose winner does not count all pawns."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.error_text import ENGINE_MESSAGES
from tests.browser.conftest import screenshot
from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Entry, League
from tournaments.services.errors import MESSAGES

pytestmark = pytest.mark.browser


def worded(code: str, **params) -> tuple[str, str]:
    """The catalogue's English and German text of ``code``."""
    english = MESSAGES[code] % params
    with translation.override("de"):
        german = translation.gettext(MESSAGES[code]) % params
    assert german != english
    return english, german


def german_page(chromium, live_server):
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, locale="de-DE", base_url=live_server.url
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def log_in(context, live_server, user) -> None:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def shows_german(page, english: str, german: str, shot: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_text(german, exact=False).first).to_be_visible()
    assert english not in page.content()
    screenshot(page, shot)


def test_common_refusals_are_german_on_german_pages(chromium, live_server, transactional_db):
    organizer = make_user("olga")
    anna = make_user("anna")
    erin = make_player("Erin", created_by=organizer)
    carol = make_player("Carol", user=anna)
    league = make_league(organizer, "herbst-liga", status=League.Status.REGISTRATION)
    Entry.objects.create(league=league, player=erin)
    open_league = make_league(
        organizer, "offene-liga", status=League.Status.REGISTRATION, registration_open=True
    )
    running = make_league(organizer, "sommer-liga")
    game = make_fixture(running, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black")

    context, page = german_page(chromium, live_server)
    try:
        # 1. a mistyped invitation link
        page.goto("/invitations/not-a-real-token/")
        shows_german(page, *worded("invitation_invalid"), "refusal-de-invitation")

        # 2. a sign-up with a user name that looks like a taken one (a Cyrillic а)
        page.goto("/accounts/signup/")
        page.fill("#id_username", "\u0430nna")
        page.fill("#id_email", "anna2@example.org")
        page.fill("#id_password1", "a-long-enough-pass-123")
        page.fill("#id_password2", "a-long-enough-pass-123")
        page.locator("#id_password2").press("Enter")
        expect(page.get_by_text("sieht aus wie der vorhandene anna").first).to_be_visible()
        assert "looks like the existing" not in page.content()
        screenshot(page, "refusal-de-signup-lookalike")

        # 3. an organizer creates a player whose name is taken
        log_in(context, live_server, organizer)
        page.goto(f"/leagues/{league.slug}/manage/")
        page.fill("#new_name", "erin")
        page.locator("#new_name").press("Enter")
        shows_german(page, *worded("player_name_taken", name="Erin"), "refusal-de-player-name")

        # 4. a join request to a league that stopped taking requests while the page was open
        log_in(context, live_server, anna)
        page.goto(f"/leagues/{open_league.slug}/")
        League.objects.filter(pk=open_league.pk).update(registration_open=False)
        page.get_by_role("button", name="Um Aufnahme in diese Liga bitten").click()
        shows_german(
            page, *worded("join_invitation_only", league=open_league.name), "refusal-de-join"
        )

        # 5. a malformed game log on the game page
        page.goto(f"/games/{game.pk}/")
        page.fill("#upload-form textarea", "das ist kein Protokoll")
        page.locator("#upload-form button[type=submit]").click()
        # the parser's English detail ("Expecting value: line 1 ...") stays off the page
        english, german = worded("log_rejected", why="")
        expect(page.get_by_text(german.strip()).first).to_be_visible()
        with translation.override("de"):
            syntax = translation.gettext(ENGINE_MESSAGES["json_syntax"])
        expect(page.get_by_text(syntax % {"line": 1, "column": 1}).first).to_be_visible()
        content = page.content()
        assert "Expecting value" not in content
        assert english.strip().lower() not in content.lower()
        screenshot(page, "refusal-de-malformed-log")

        # 6. an invalid result entered by hand: the winner of a 2T+ game counts all 8 pawns
        erin_entry = Entry.objects.get(league=running, player=erin)
        carol_entry = Entry.objects.get(league=running, player=carol)
        page.goto(f"/games/{game.pk}/report/")
        page.locator(f"input[name=winner][value='{erin_entry.pk}']").check()
        page.fill(f"#id_counted_{erin_entry.pk}", "3")
        page.fill(f"#id_counted_{carol_entry.pk}", "2")
        page.locator(f"#id_counted_{carol_entry.pk}").press("Enter")
        shows_german(page, *worded("hand_winner_pawns", most=8), "refusal-de-hand-result")
    finally:
        context.close()
