"""A season on the site only: an organizer who is not staff creates a 4-player 2T+ league
with one DRR and 4-seed playoffs, invites the players (each accepts in their own browser),
seeds, the players upload logs, confirm and dispute, the organizer resolves a dispute and
forfeits a game, draws the playoffs, they are played, and the champion is shown.
Screenshots: test-artifacts/screenshots/organizer-*.png. The organizer's page visits are
counted and printed."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.engine import simulate_game
from tests.browser.conftest import SCREENSHOTS, screenshot
from tests.builders import make_user
from tournaments.models import ConfirmedEmail, Fixture, League

pytestmark = pytest.mark.browser

PLAYERS = ("Anna", "Ben", "Cleo", "Dan")


def _login_context(chromium, live_server, user, width=1280):
    context = chromium.new_context(
        viewport={"width": width, "height": 900}, locale="en-GB", base_url=live_server.url
    )
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _log_for(fixture: Fixture, seed: int) -> str:
    """A complete simulated log of this game: its players, colours and starting colour."""
    league = fixture.league
    seats = list(fixture.seats.select_related("entry__player").order_by("position"))
    log = simulate_game(
        rules=league.rules_spec,
        board=league.board,
        players={s.entry.player.name: list(s.colours) for s in seats},
        first=fixture.starting_colour,
        seed=seed,
    )
    t = 0
    for i, event in enumerate(log["events"]):
        t += 2 + i % 5
        event["t"] = t
    return json.dumps(log)


class Shots:
    def __init__(self):
        self.n = 0
        for old in SCREENSHOTS.glob("organizer-*.png") if SCREENSHOTS.exists() else []:
            old.unlink()

    def __call__(self, page, name: str):
        self.n += 1
        screenshot(page, f"organizer-{self.n:02d}-{name}")


def _upload_and_answer(pages, fixture, seed, *, answer="confirm"):
    """The first-mentioned player uploads (pastes) the log; the opponent confirms or
    disputes on the game page."""
    seats = list(fixture.seats.select_related("entry__player").order_by("position"))
    uploader = pages[seats[0].entry.player.name]
    opponent = pages[seats[1].entry.player.name]
    uploader.goto(f"/games/{fixture.pk}/")
    uploader.fill("#id_content", _log_for(fixture, seed))
    uploader.get_by_role("button", name="Submit the log").click()
    expect(uploader.locator(".messages")).to_contain_text("The log was accepted")
    opponent.goto(f"/games/{fixture.pk}/")
    if answer == "confirm":
        opponent.get_by_role("button", name="Confirm this result").click()
        expect(opponent.locator(".messages")).to_contain_text("You confirmed the result")
    else:
        opponent.fill("#id_reason", "I do not recognise this game")
        opponent.get_by_role("button", name="Dispute this result").click()
        expect(opponent.locator(".messages")).to_contain_text("You disputed")
    return uploader, opponent


def test_an_organizer_runs_a_season_on_the_site(browser_page, chromium, live_server):
    shots = Shots()
    olga = make_user("olga", email="olga@example.org")
    assert not olga.is_staff and not olga.is_superuser
    users = {name: make_user(name.lower(), email=f"{name.lower()}@example.org") for name in PLAYERS}

    page = browser_page
    visits: list[str] = []
    page.on(
        "framenavigated",
        lambda frame: visits.append(frame.url) if frame == page.main_frame else None,
    )
    client = Client()
    client.force_login(olga)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])

    # 1. create the league from the 2T+ template
    page.goto("/")
    page.get_by_role("link", name="Create a league").click()
    page.get_by_role("link", name="Double threat XL (2T+)").click()
    shots(page, "create-form")
    page.fill("#id_name", "Winter Cup")
    page.select_option("#id_playoffs_kind", "bracket")
    page.fill("#id_playoffs_seeds", "4")
    page.fill("#id_playoffs_first_to", "two")  # a typo first: refused next to the field
    page.get_by_role("button", name="Create the league").click()
    expect(page.locator(".field-errors").first).to_contain_text("whole numbers")
    shots(page, "create-error")
    assert not League.objects.exists()
    page.fill("#id_playoffs_first_to", "2")
    page.get_by_role("button", name="Create the league").click()
    expect(page.locator("h1")).to_contain_text("Winter Cup")
    league = League.objects.get()
    assert league.format == "2T+" and league.playoffs["seeds"] == 4
    shots(page, "manage-empty")

    # 2. invite the four players (links to hand out), each accepts in their own browser
    for name in PLAYERS:
        page.fill("#id_email", f"{name.lower()}@example.org")
        page.fill("#id_name", name)
        page.get_by_role("button", name="Invite", exact=True).click()
        expect(page.locator(".messages")).to_contain_text("The invitation was sent")
    shots(page, "invitations")
    links = {
        m.group(1): m.group(2)
        for m in re.finditer(
            r"<li>([^:<]+)@example\.org:\s*<input[^>]*value=\"([^\"]+)\"", page.content()
        )
    }
    assert len(links) == 4, links
    pages = {}
    for name in PLAYERS:
        p = _login_context(chromium, live_server, users[name])
        if name != "Anna":  # the others confirmed their addresses before
            ConfirmedEmail.objects.create(user=users[name], email=users[name].email)
        p.goto(links[name.lower()])
        if name == "Anna":
            # the mailed link's token proves her mailbox: she accepts at once (issue 34)
            shots(p, "player-invitation")
        p.get_by_role("button", name="Accept and play").click()
        expect(p.locator(".messages")).to_contain_text("You play in Winter Cup")
        pages[name] = p
    # Anna sets her preferred pair before seeding
    anna = pages["Anna"]
    anna.goto("/me/leagues/")
    anna.locator("select[name$='-first']").select_option("green")
    anna.locator("select[name$='-second']").select_option("red")
    anna.get_by_role("button", name="Save colours").click()
    expect(anna.locator(".messages")).to_contain_text("preferred colours are saved")
    shots(anna, "player-colours")

    # 3. seed the DRR (the platform draws, seed 7)
    page.goto(f"/leagues/{league.slug}/manage/")
    page.get_by_role("link", name="Seed DRR 1").click()
    page.fill("#id_seed", "7")
    page.get_by_role("button", name="Seed and draw the schedule").click()
    expect(page.locator(".messages")).to_contain_text("DRR 1 is seeded")
    shots(page, "seeded")
    page.goto(f"/leagues/{league.slug}/schedule/")
    expect(page.locator(".seeding")).to_contain_text("seed 7")
    shots(page, "schedule")

    games = list(league.fixtures.filter(cycle__isnull=False).order_by("number"))
    assert len(games) == 12
    anna_seats = [s for g in games for s in g.seats.all() if s.entry.player.name == "Anna"]
    assert all(sorted(s.colours) == ["green", "red"] for s in anna_seats)

    # 4. results: uploads and confirmations; one dispute, one forfeit
    disputed, forfeited = games[1], games[2]
    for i, game in enumerate(games):
        if game == forfeited:
            continue
        answer = "dispute" if game == disputed else "confirm"
        _uploader, opponent = _upload_and_answer(pages, game, 100 + i, answer=answer)
        if i == 0:
            shots(opponent, "confirmed")
        if game == disputed:
            shots(opponent, "disputed")
    # the organizer resolves the dispute on the game page
    page.goto(f"/games/{disputed.pk}/")
    page.get_by_label("accept: the result counts").check()
    page.fill("#id_note", "checked the log: it is this game")
    page.get_by_role("button", name="Decide").click()
    expect(page.locator(".messages")).to_contain_text("The result is decided")
    shots(page, "resolved")
    # and forfeits one game (the organizer's actions on the game page)
    page.goto(f"/games/{forfeited.pk}/")
    page.check(f"#loser-{forfeited.seats.order_by('position').first().entry_id}")
    page.fill("#forfeit-reason", "did not turn up")
    page.get_by_role("button", name="Record the forfeit").click()
    expect(page.locator(".messages")).to_contain_text("The forfeit is recorded")
    shots(page, "forfeited")
    page.goto(f"/leagues/{league.slug}/standings/")
    shots(page, "standings")

    # 5. playoffs: preview, then draw
    page.goto(f"/leagues/{league.slug}/manage/")
    page.get_by_role("link", name="Preview and draw the playoffs").click()
    expect(page.locator("#preview-heading")).to_be_visible()
    expect(page.locator("main")).to_contain_text("head start")
    shots(page, "playoffs-preview")
    page.get_by_role("button", name="Draw the playoffs").click()
    expect(page.locator(".bracket")).to_be_visible()
    shots(page, "bracket-drawn")

    seed = 500
    while True:
        league.refresh_from_db()
        if league.status == League.Status.FINISHED:
            break
        game = (
            league.fixtures.filter(series__isnull=False, status=Fixture.Status.SCHEDULED)
            .order_by("series__round", "series__slot", "number")
            .first()
        )
        assert game is not None, "the playoffs stalled"
        seed += 1
        _upload_and_answer(pages, game, seed)
        assert seed < 560

    # 6. the champion
    page.goto(f"/leagues/{league.slug}/playoffs/")
    expect(page.locator(".champion-banner")).to_contain_text("Champion")
    shots(page, "bracket-final")
    page.goto(f"/leagues/{league.slug}/")
    expect(page.locator(".champion-banner")).to_contain_text("Champion")
    shots(page, "champion-league")
    page.goto("/")
    expect(page.locator(".champion")).to_contain_text("Champion")
    shots(page, "champion-home")

    # the organizer's pages are usable at 390 px
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/leagues/{league.slug}/manage/")
    shots(page, "manage-390px")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the organizer page is {width}px wide at 390px"

    for p in pages.values():
        p.context.close()
    organizer_pages = len(visits)
    print(f"\norganizer page loads to run the season: {organizer_pages}")
    print("\n".join(visits))


def test_create_form_at_390px_and_by_keyboard(chromium, live_server, transactional_db):
    """The league form fits a 390 px screen and works from the keyboard alone; German too."""
    olga = make_user("olga-small")
    page = _login_context(chromium, live_server, olga, width=390)
    page.goto("/leagues/new/?template=xleague")
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.focus("#id_name")
    page.keyboard.type("Keyboard Cup")
    page.locator("button", has_text="Create the league").focus()
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_contain_text("Keyboard Cup")
    league = League.objects.get(name="Keyboard Cup")
    assert league.drr_count == 6 and league.playoffs == {"kind": "xleague"}
    screenshot(page, "organizer-390px-manage-after-keyboard-create")
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": live_server.url}]
    )
    page.goto("/leagues/new/")
    expect(page.locator("h1")).to_contain_text("Liga anlegen")
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    screenshot(page, "organizer-390px-create-de")
    page.context.close()
