"""A championship day in Chromium (issue 36): the desk's check-in list on a phone (390 px,
English and German; a barcode scanner's code and Enter, the keyboard, with and without
JavaScript), a player's table page on a phone (enter the placings, another confirms, the
referee call), the table cards, and the projector at 1920×1080 and in portrait, which
shows a confirmed result within 5 s without reloading. axe on every page; screenshots:
test-artifacts/screenshots/championship-*."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_phone_width import PHONE, WIDTH_REPORT
from tests.builders import make_user
from tournaments.models import Entry, Fixture, Result
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.open_tournaments import open_round_draw
from tournaments.services.players import player_create

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "de": "de-DE"}
NAMES = [
    "Anna Albrecht",
    "Bert Brandt",
    "Cleo Christiansen-Oberhausen",
    "Dora Dietz",
    "Emil Engel",
    "Fritz Fuchs",
    "Gina Graf",
    "Hugo Hahn",
]
SHOW_PANEL = """(name) => document.querySelectorAll('.pj-panel')
  .forEach(p => p.classList.toggle('is-shown', p.dataset.panel === name))"""
WORDS = {
    "en": {"in": "Check in", "checked": "checked in"},
    "de": {"in": "Einchecken", "checked": "eingecheckt"},
}


@pytest.fixture
def day(transactional_db):
    org = make_user("olga")
    league = league_create(
        owner=org,
        name="Open Championship",
        format="open",
        games_planned=3,
        points_scheme=[5, 3, 1, 0],
        time_limit_minutes=40,
    )
    users = {}
    for name in NAMES:
        player = player_create(name=name, shared=True)
        users[name] = make_user(name.split()[0].lower())
        player.user = users[name]
        player.save()
        entry_add(league=league, player=player, by=org)
    Entry.objects.filter(league=league).update(state="accepted")
    return {"org": org, "league": league, "users": users}


def context_for(chromium, live_server, user=None, *, lang="en", js=True, **size):
    viewport = size or PHONE
    context = chromium.new_context(
        viewport=viewport,
        locale=LANGUAGES[lang],
        base_url=live_server.url,
        is_mobile=viewport["width"] < 500,
        java_script_enabled=js,
    )
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def fits(page) -> None:
    report = page.evaluate(WIDTH_REPORT, PHONE["width"])
    assert report["page"] <= PHONE["width"] and not report["wide"], report


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_desk_checks_players_in_on_a_phone(chromium, live_server, day, axe_source, lang):  # noqa: F811
    league = day["league"]
    champ.checkin_open(league=league, by=day["org"])
    cleo = Entry.objects.get(league=league, player__name=NAMES[2])
    context, page, errors = context_for(chromium, live_server, day["org"], lang=lang)
    page.goto(f"/leagues/{league.slug}/desk/check-in/")
    fits(page)
    assert not violations(page, axe_source), "axe: serious or critical violations"
    screenshot(page, f"championship-checkin-{lang}")
    # a barcode scanner types the code into the focused search box and presses Enter
    assert page.evaluate("document.activeElement.id") == "checkin-q"
    page.keyboard.type(champ_reads.checkin_code(cleo))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    rows = page.locator(".ck")
    assert rows.count() == 1 and NAMES[2] in rows.first.inner_text()
    # with the keyboard: Tab to the row's check-in button and press Enter (sent by fetch)
    button = rows.first.get_by_role("button", name=f"{WORDS[lang]['in']} {NAMES[2]}")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(w) => document.querySelector('[data-flag=in]').textContent === w",
        arg=WORDS[lang]["checked"],
    )
    assert page.locator("[data-count=in]").inner_text() == "1"
    assert Entry.objects.get(pk=cleo.pk).checked_in_at is not None
    fits(page)
    assert not violations(page, axe_source)
    screenshot(page, f"championship-checkin-found-{lang}")
    context.close()
    assert not errors, errors


def test_the_check_in_list_works_without_javascript(chromium, live_server, day):
    league = day["league"]
    context, page, _ = context_for(chromium, live_server, day["org"], js=False)
    page.goto(f"/leagues/{league.slug}/desk/check-in/?q=Dora")
    with page.expect_navigation():
        page.get_by_role("button", name="Paid Dora Dietz").click()
    assert Entry.objects.get(league=league, player__name="Dora Dietz").paid_at is not None
    assert "q=Dora" in page.url and page.locator(".ck").count() == 1
    context.close()


def _seats(table):
    return list(table.seats.select_related("entry__player").order_by("position"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_players_enter_and_confirm_a_table_result_on_their_phones(
    chromium,
    live_server,
    day,
    axe_source,  # noqa: F811
    lang,
):
    league = day["league"]
    open_round_draw(league=league, by=day["org"], seed=5)
    table = league.fixtures.get(round=1, number=1)
    seats = _seats(table)
    first, second = (day["users"][s.entry.player.name] for s in seats[:2])
    context, page, errors = context_for(chromium, live_server, first, lang=lang)
    page.goto(f"/tables/{table.pk}/")
    fits(page)
    assert not violations(page, axe_source), "axe: serious or critical violations"
    for place, seat in enumerate(seats, start=1):
        page.locator(f"#id_place_{seat.entry_id}").fill(str(place))
    screenshot(page, f"championship-table-enter-{lang}")
    page.locator(f"#id_place_{seats[-1].entry_id}").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")  # the form submits from the keyboard
    assert Result.objects.get(fixture=table).state == "pending"
    context.close()
    context, page, errors2 = context_for(chromium, live_server, second, lang=lang)
    page.goto(f"/tables/{table.pk}/")
    fits(page)
    assert not violations(page, axe_source)
    screenshot(page, f"championship-table-confirm-{lang}")
    with page.expect_navigation():
        page.locator("form:has(input[name=do][value=confirm]) button").click()
    assert Result.objects.get(fixture=table).state == "confirmed"
    other = league.fixtures.get(round=1, number=2)
    third = day["users"][_seats(other)[0].entry.player.name]
    context.close()
    context, page, errors3 = context_for(chromium, live_server, third, lang=lang)
    page.goto(f"/tables/{other.pk}/")
    with page.expect_navigation():
        page.locator("form.referee button").click()
    assert Fixture.objects.get(pk=other.pk).referee_called_at is not None
    screenshot(page, f"championship-table-referee-{lang}")
    context.close()
    context, page, errors4 = context_for(chromium, live_server, day["org"], lang=lang)
    page.goto(f"/leagues/{league.slug}/desk/tables/")
    fits(page)
    assert not violations(page, axe_source)
    assert page.locator(".table-state-referee").count() == 1
    screenshot(page, f"championship-desk-tables-{lang}")
    context.close()
    assert not (errors + errors2 + errors3 + errors4)


def test_table_cards_print(chromium, live_server, day, axe_source):  # noqa: F811
    league = day["league"]
    open_round_draw(league=league, by=day["org"], seed=5)
    context, page, errors = context_for(chromium, live_server, width=1280, height=900)
    page.goto(f"/leagues/{league.slug}/table-cards/")
    assert page.locator(".table-card").count() == 2
    assert not violations(page, axe_source)
    screenshot(page, "championship-cards")
    page.emulate_media(media="print")
    screenshot(page, "championship-cards-print")
    context.close()
    assert not errors


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920)], ids=["landscape", "portrait"])
def test_the_projector_updates_within_five_seconds(chromium, live_server, day, axe_source, size):  # noqa: F811
    league = day["league"]
    open_round_draw(league=league, by=day["org"], seed=5)
    champ.round_clock_start(league=league, by=day["org"])  # the desk starts the round clock
    w, h = size
    context, page, errors = context_for(chromium, live_server, width=w, height=h)
    page.goto(f"/leagues/{league.slug}/projector/")
    assert page.locator(".pj-panel.is-shown").count() == 1  # one panel at a time
    assert not violations(page, axe_source), "axe: serious or critical violations"
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    screenshot(page, f"championship-projector-{w}x{h}-tables")
    names = page.locator(".pj-seating .player-name").all_inner_texts()
    assert names == sorted(names, key=str.casefold) and len(names) == len(NAMES)
    before = page.get_attribute("#main", "data-etag")
    table = league.fixtures.get(round=1, number=1)
    seats = _seats(table)
    order = [s.entry_id for s in seats]
    champ.table_result_enter(
        fixture=table, by=day["users"][seats[0].entry.player.name], placings=order
    )
    champ.table_result_enter(
        fixture=table, by=day["users"][seats[1].entry.player.name], placings=order
    )
    page.wait_for_function(
        "(old) => document.querySelector('#main').dataset.etag !== old", arg=before, timeout=5000
    )
    # the page may first take the state between the two entries (one result waiting for
    # its second: a new etag too): the counted result follows at the next refresh
    page.wait_for_function(
        "(name) => document.querySelector('.pj-standings tbody tr').innerText.includes(name)",
        arg=seats[0].entry.player.name,
        timeout=5000,
    )
    standings = page.locator(".pj-standings tbody tr").first.inner_text()
    assert seats[0].entry.player.name in standings and "5" in standings
    # the clock and the standings take their turn
    page.evaluate(SHOW_PANEL, "clock")
    assert not violations(page, axe_source)  # each panel shown in turn (contrast)
    shown = page.locator(".pj-clock .clock").inner_text()
    assert ":" in shown
    page.wait_for_function(  # it counts down by itself (static/js/clock.js)
        "(old) => document.querySelector('.pj-clock .clock').textContent !== old", arg=shown
    )
    screenshot(page, f"championship-projector-{w}x{h}-clock")
    page.evaluate(SHOW_PANEL, "standings")
    assert not violations(page, axe_source)  # each panel shown in turn (contrast)
    screenshot(page, f"championship-projector-{w}x{h}-standings")
    # the network drops: the wall keeps the last state
    context.set_offline(True)
    page.wait_for_timeout(3500)
    assert page.locator(".pj-standings tbody tr").count() == len(NAMES)
    context.close()
    assert not errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_players_check_themselves_in_with_the_venue_code(
    chromium,
    live_server,
    day,
    axe_source,  # noqa: F811
    lang,
):
    """Anna (an account) scans the poster and checks in; Zoe (no account) scans it, then
    opens her private result link and checks in there."""
    from tournaments.services.result_links import result_link_create

    league = champ.checkin_open(league=day["league"], by=day["org"])
    venue = f"/leagues/{league.slug}/check-in/{champ_reads.venue_token(league)}/"
    context, page, errors = context_for(chromium, live_server, day["org"], lang=lang)
    page.goto(f"/leagues/{league.slug}/desk/check-in/poster/")
    assert page.locator("svg.qr").count() == 1
    assert not violations(page, axe_source)
    screenshot(page, f"championship-poster-{lang}")
    context.close()
    anna = day["users"][NAMES[0]]
    context, page, errors = context_for(chromium, live_server, anna, lang=lang)
    page.goto(venue)
    fits(page)
    assert not violations(page, axe_source)
    screenshot(page, f"championship-venue-{lang}")
    page.locator("form button.big-button").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert Entry.objects.get(league=league, player__name=NAMES[0]).checked_in_at is not None
    screenshot(page, f"championship-venue-done-{lang}")
    context.close()
    zoe = entry_add(
        league=league, player=player_create(name=f"Zoe {lang}", shared=True), by=day["org"]
    )
    Entry.objects.filter(pk=zoe.pk).update(state="accepted")
    _, token = result_link_create(entry=zoe, by=day["org"])
    context, page, errors = context_for(chromium, live_server, lang=lang)
    page.goto(venue)
    fits(page)
    page.goto(f"/r/{token}/")
    fits(page)
    assert not violations(page, axe_source)
    with page.expect_navigation():
        page.locator("#check-in button").click()
    assert Entry.objects.get(pk=zoe.pk).checked_in_at is not None
    assert page.locator("#check-in [role=status]").count() == 1
    screenshot(page, f"championship-link-checked-in-{lang}")
    context.close()
    assert not errors
