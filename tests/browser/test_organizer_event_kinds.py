"""Every event kind, created, run and finished from the site by a brand-new organizer (not
staff): a mixed triple-threat event that reaches the 3T World Rankings (one player
invited with an account who reads the site and her mail in German), a double-threat
Challengers event, a Grand Prix event on board 6, an open tournament with a final table,
and a 3T league of DRRs whose starts follow the colour that clinched the previous game.
The organizer only follows the manage page's "next step" and uploads the game logs on the
game pages. Every player is invited by mail: account holders are entered by name, get the
mail (one of them in German in each event) and accept from its link; in the Challengers
event a newcomer is invited by address, signs up from the mail's link under the name the
organizer gave, confirms the address and accepts. Screenshots:
test-artifacts/screenshots/kinds-*.png."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from playwright.sync_api import expect

from games.engine import simulate_game
from ratings.services.rated_leagues import league_rating_decide
from tests.browser.conftest import screenshot
from tests.builders import make_player, make_user
from tournaments.models import Fixture, League
from tournaments.selectors.rankings import ranking_tournaments
from tournaments.services.log_check import fixture_rules_spec

pytestmark = pytest.mark.browser


def _logged_in(chromium, live_server, user, locale="en-GB"):
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, locale=locale, base_url=live_server.url
    )
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def _log(fixture: Fixture, seed: int) -> str:
    """A complete simulated log of the game as scheduled: its players, colours, rules,
    starting colour; the colours nobody holds listed as unused."""
    fixture = Fixture.objects.select_related("league").get(pk=fixture.pk)
    seats = list(fixture.seats.select_related("entry__player").order_by("position"))
    log = simulate_game(
        rules=fixture_rules_spec(fixture),
        board=fixture.league.board,
        players={s.entry.player.name: list(s.colours) for s in seats},
        unused=fixture.unused_colours,
        first=fixture.starting_colour,
        bots="heuristic",
        seed=seed,
    )
    for i, event in enumerate(log["events"]):
        event["t"] = 3 * (i + 1)
    return json.dumps(log)


def _upload(page, fixture: Fixture, seed: int) -> None:
    page.goto(f"/games/{fixture.pk}/")
    page.fill("#id_content", _log(fixture, seed))
    page.get_by_role("button", name="Submit the log").click()
    expect(page.locator(".messages")).to_contain_text("The log was accepted")


def _play_all(page, league: League, seed: int) -> int:
    """Upload a log for every scheduled game, in order, until none is left."""
    played = 0
    while True:
        game = (
            league.fixtures.filter(status=Fixture.Status.SCHEDULED)
            .exclude(starting_colour="")
            .order_by("round", "number", "pk")
            .first()
        )
        if game is None:
            return played
        _upload(page, game, seed + played)
        played += 1
        assert played < 40, "the event never ends"


def _create(page, template: str, name: str, **fields) -> League:
    page.goto(f"/leagues/new/?template={template}")
    page.fill("#id_name", name)
    page.uncheck("#id_confirmation_required")
    for field, value in fields.items():
        locator = page.locator(f"#id_{field}")
        if locator.evaluate("e => e.tagName") == "SELECT":
            locator.select_option(value)
        else:
            locator.fill(value)
    page.get_by_role("button", name="Create the league").click()
    expect(page.locator("h1")).to_contain_text(name)
    return League.objects.get(name=name)


def _enter(page, *names: str) -> None:
    for name in names:
        page.fill("#new_name", name)
        page.get_by_role("button", name="Create and enter").click()
        expect(page.locator(".messages")).to_contain_text(f"{name} is entered")


def _invite_by_mail(chromium, live_server, page, league: League, names, german=()) -> None:
    """The organizer enters account holders by name; each gets the mail (in German for
    those in ``german``, whose account reads German) and accepts from its link."""
    from accounts.services import language_set

    people = []
    for name in names:
        user = make_user(f"{name.lower()}-acct", email=f"{name.lower()}@example.org")
        make_player(name, user)
        if name in german:
            language_set(user, "de")
        people.append((name, user))
    page.goto(f"/leagues/{league.slug}/manage/")
    for name, _user in people:
        page.fill("#add_player", name)
        page.get_by_role("button", name="Enter", exact=True).click()
        expect(page.locator(".messages")).to_contain_text("they are invited")
    for name, user in people:
        (message,) = [m for m in mail.outbox if user.email in m.to and league.name in m.subject]
        wanted = "eingeladen" if name in german else "You are invited"
        assert wanted in message.subject, message.subject
        link = re.search(r"https?://\S+/me/leagues/", message.body).group(0)
        assert link.startswith(settings.SITE_URL.rstrip("/"))
        person = _logged_in(chromium, live_server, user, "de-DE" if name in german else "en-GB")
        person.goto(urlsplit(link).path)
        accept = "Zusagen" if name in german else "Accept"
        person.get_by_role("button", name=accept, exact=True).first.click()
        expect(person.locator(".messages")).to_be_visible()
        if name in german:
            screenshot(person, f"kinds-invited-{league.slug}-de")
        person.context.close()
    assert league.entries.playing().count() >= len(people)


def _next_step(page, league: League, button: str) -> None:
    page.goto(f"/leagues/{league.slug}/manage/")
    step = page.locator("section[aria-labelledby=next-heading]")
    target = step.get_by_role("button", name=button).or_(step.get_by_role("link", name=button))
    expect(target).to_be_visible()
    target.click()


@pytest.fixture
def organizer_page(chromium, live_server, transactional_db):
    nora = make_user("nora-new", email="nora@example.org")
    assert not nora.is_staff
    page = _logged_in(chromium, live_server, nora)
    yield nora, page
    page.context.close()


def test_a_triple_threat_event_reaches_the_world_rankings(chromium, live_server, organizer_page):
    _nora, page = organizer_page
    anna = make_user("anna-de", email="anna@example.org")
    make_player("Anna", anna)
    anna_page = _logged_in(chromium, live_server, anna, locale="de-DE")
    # Anna reads the site in German: the switch makes it her account's language
    anna_page.goto("/")
    anna_page.select_option("#language-select", "de")
    anna_page.locator("form.lang-switch button").click()
    expect(anna_page.locator("html")).to_have_attribute("lang", "de")

    league = _create(
        page,
        "triple-threat",
        "Berlin 3T Open",
        game_formats="3T, GP, 3T+",
        ranking_level="1",
    )
    screenshot(page, "kinds-01-tt-created")
    page.fill("#add_player", "Anna")
    page.get_by_role("button", name="Enter", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("they are invited")
    _enter(page, "Ben", "Cat")
    expect(page.locator("section[aria-labelledby=next-heading]")).to_contain_text(
        "has not accepted yet"
    )
    screenshot(page, "kinds-02-tt-waiting")
    (invitation,) = [m for m in mail.outbox if "anna@example.org" in m.to]
    assert "eingeladen" in invitation.subject
    assert live_server.url in invitation.body or settings.SITE_URL in invitation.body

    anna_page.goto("/me/leagues/")
    screenshot(anna_page, "kinds-03-tt-anna-invited-de")
    anna_page.get_by_role("button", name="Zusagen", exact=True).click()
    league.refresh_from_db()
    assert league.entries.playing().count() == 3

    _next_step(page, league, "Schedule the event's games")
    expect(page.locator(".messages")).to_contain_text("The games are scheduled")
    screenshot(page, "kinds-04-tt-scheduled")
    assert _play_all(page, league, 10) == 3
    league.refresh_from_db()  # finished by itself with its last game (issue 34)
    assert league.status == League.Status.FINISHED
    # only a rated league reaches the rankings (issue 32): a rating officer sanctions it
    page.goto("/rankings/")
    expect(page.locator("main")).not_to_contain_text("Berlin 3T Open")
    league_rating_decide(
        league=league, by=make_user("officer", staff=True), rated=True, reason="a real event"
    )
    page.goto("/rankings/")
    expect(page.locator("main")).to_contain_text("Berlin 3T Open")
    screenshot(page, "kinds-05-tt-rankings")
    assert [t for t in ranking_tournaments() if t.name == "Berlin 3T Open"]
    anna_page.context.close()


def test_a_challengers_event_from_the_site(chromium, live_server, organizer_page):
    _nora, page = organizer_page
    league = _create(page, "challengers", "Challengers Night", game_formats="2T, 2T, 2T+")
    _invite_by_mail(chromium, live_server, page, league, ["Dora"], german=["Dora"])
    # a newcomer invited by address: the mail's link, sign-up under the organizer's name
    page.goto(f"/leagues/{league.slug}/manage/")
    page.fill("#id_email", "emil@example.org")
    page.fill("#id_name", "Emil Ebert")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("emil@example.org")
    (invitation,) = [m for m in mail.outbox if "emil@example.org" in m.to]
    link = re.search(r"https?://\S+/invitations/\S+", invitation.body).group(0)
    assert link.startswith(settings.SITE_URL.rstrip("/"))  # the configured site, not the host
    emil = chromium.new_context(base_url=live_server.url).new_page()
    emil.set_default_timeout(20_000)
    emil.goto(urlsplit(link).path)
    emil.get_by_role("link", name="sign up", exact=True).click()
    expect(emil.locator("#id_player_name")).to_have_value("Emil Ebert")
    emil.fill("#id_username", "emil")
    emil.fill("#id_email", "emil@example.org")
    emil.fill("#id_password1", "a long enough secret 1")
    emil.fill("#id_password2", "a long enough secret 1")
    screenshot(emil, "kinds-06a-challengers-signup-from-invitation")
    emil.get_by_role("button", name="Sign up").click()
    # back on the invitation: its mailed token proves his address, no second mail (issue 34)
    emil.goto(urlsplit(link).path)
    emil.get_by_role("button", name="Accept and play").click()
    expect(emil.locator(".messages")).to_contain_text("You play in Challengers Night now")
    emil.context.close()
    assert sorted(league.entries.playing().values_list("player__name", flat=True)) == [
        "Dora",
        "Emil Ebert",
    ]
    _next_step(page, league, "Schedule the event's games")
    assert _play_all(page, league, 30) == 3
    page.goto(f"/leagues/{league.slug}/schedule/")
    screenshot(page, "kinds-06-challengers-played")
    league.refresh_from_db()  # finished by itself with its last game (issue 34)
    assert league.status == League.Status.FINISHED


def test_a_grand_prix_event_on_board_six(chromium, live_server, organizer_page):
    _nora, page = organizer_page
    league = _create(page, "grand-prix", "GP Six", games_planned="2")
    assert league.board == 6
    _invite_by_mail(chromium, live_server, page, league, ["Finn", "Gina", "Hugo"], ["Gina"])
    _next_step(page, league, "Schedule the event's games")
    _play_all(page, league, 50)
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED  # the winner is certain
    page.goto(f"/leagues/{league.slug}/standings/")
    screenshot(page, "kinds-07-gp-standings")


def test_an_open_tournament_with_a_final_table(chromium, live_server, organizer_page):
    _nora, page = organizer_page
    league = _create(page, "open", "Club Open", games_planned="2", final_table_size="4")
    names = ["Ida", "Jan", "Kai", "Lea", "Max", "Nil", "Ole"]
    _invite_by_mail(chromium, live_server, page, league, names, german=["Lea"])
    page.goto(f"/leagues/{league.slug}/")
    expect(page.locator("main")).not_to_contain_text("Seat the final table")
    for round_number in (1, 2):
        _next_step(page, league, f"Draw round {round_number}")
        expect(page.locator(".messages")).to_contain_text("The next round is drawn")
        _play_all(page, league, 70 + 10 * round_number)
    screenshot(page, "kinds-08-open-rounds")
    page.goto(f"/leagues/{league.slug}/manage/")
    step = page.locator("section[aria-labelledby=next-heading] p").first.inner_text()
    if "tied for the last place" in step:
        # a tie across the cut: the next step asks for the roll-off, then the seating
        tied = step.split(" are tied")[0].strip().split(", ")
        _next_step(page, league, "Record the tie-break roll")
        page.fill("#id_rolls", ", ".join(f"{n} {6 - i}" for i, n in enumerate(tied)))
        page.get_by_role("button", name="Record the roll").click()
        expect(page.locator(".messages")).to_contain_text("The tie-break roll is recorded")
        screenshot(page, "kinds-08b-open-tie-break-roll")
    _next_step(page, league, "Seat the final table")
    expect(page.locator(".messages")).to_contain_text("The final table is seated")
    _play_all(page, league, 99)
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED
    page.goto(f"/leagues/{league.slug}/standings/")
    screenshot(page, "kinds-09-open-final-ranking")


def test_a_3t_league_of_drrs(chromium, live_server, organizer_page):
    _nora, page = organizer_page
    league = _create(page, "3T", "3T League", drr_count="1")
    _invite_by_mail(chromium, live_server, page, league, ["Pia", "Quin", "Rosa"], ["Quin"])
    _next_step(page, league, "Seed DRR 1")
    page.fill("#id_seed", "4")
    page.get_by_role("button", name="Seed and draw the schedule").click()
    expect(page.locator(".messages")).to_contain_text("DRR 1 is seeded")
    # every round dated in one step: preview, then set
    page.locator("details.recurrence summary").click()
    page.fill("#id_first", "2027-03-16T19:00")
    page.fill("#id_due_hours", "48")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("details.recurrence table")).to_contain_text("Tue 30 Mar 2027, 19:00")
    screenshot(page, "kinds-10a-3t-dates-preview")
    page.get_by_role("button", name="Set the dates").click()
    expect(page.locator(".messages")).to_contain_text("6 game(s) dated")
    second = league.fixtures.order_by("number")[1]
    page.goto(f"/games/{second.pk}/")
    expect(page.locator("main")).to_contain_text("decided by game 1")
    screenshot(page, "kinds-10-3t-decided-by")
    assert _play_all(page, league, 200) == 6
    _next_step(page, league, "Finish the league")
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED
    page.goto(f"/leagues/{league.slug}/manage/")
    screenshot(page, "kinds-11-3t-finished")


def test_the_settings_page_and_next_step_at_390px_in_german(
    chromium, live_server, transactional_db
):
    """The new organizer pages fit a phone and speak German."""
    nora = make_user("nora-phone")
    page = _logged_in(chromium, live_server, nora)
    page.set_viewport_size({"width": 390, "height": 844})
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": live_server.url}]
    )
    page.goto("/leagues/new/?template=open")
    page.fill("#id_name", "Handy Open")
    page.get_by_role("button", name="Liga anlegen").click()
    league = League.objects.get(name="Handy Open")
    expect(page.locator("section[aria-labelledby=next-heading]")).to_contain_text(
        "Trage die Spieler ein"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    screenshot(page, "kinds-12-manage-390px-de")
    page.goto(f"/leagues/{league.slug}/manage/settings/")
    expect(page.locator("#id_games_planned")).to_have_value("5")
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    screenshot(page, "kinds-13-settings-390px-de")
    page.context.close()
