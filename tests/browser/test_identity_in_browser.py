"""The identity controls of issue 22 in a real browser at 390 px: sharing a player without
an account from its page with the keyboard alone, and an invitation mailed to another
address telling its holder why it cannot be accepted."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.builders import make_user
from tournaments.models import ConfirmedEmail, Player
from tournaments.services.entries import invitation_create, invitation_token
from tournaments.services.leagues import league_create
from tournaments.services.players import player_create


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_sharing_a_player_with_the_keyboard_at_390_px(browser_page, login):
    maker = make_user("maker")
    player_create(name="Rosa", created_by=maker)
    login(maker)
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/players/rosa/")
    button = page.get_by_role("button", name="Share with other organizers")
    expect(button).to_be_visible()
    fits(page)
    screenshot(page, "player-sharing-390")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Stop sharing")).to_be_visible()
    assert Player.objects.get(name="Rosa").shared
    fits(page)
    screenshot(page, "player-shared-390")


def test_an_invitation_for_another_address_at_390_px(browser_page, login):
    org = make_user("org")
    league = league_create(owner=org, name="Spring Cup", format="2T")
    invitation = invitation_create(league=league, by=org, email="anna@example.org")
    holder = make_user("holder", email="holder@example.org")
    ConfirmedEmail.objects.create(user=holder, email=holder.email)
    login(holder)
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/invitations/{invitation_token(invitation)}/")
    expect(page.locator("#address-notice")).to_contain_text("another e-mail address")
    expect(page.get_by_role("button", name="Accept and play")).to_have_count(0)
    fits(page)
    screenshot(page, "invitation-other-address-390")
