"""The pages in a real browser: live standings, stepping through a replay, uploading a log,
switching language. Screenshots of the main pages go to test-artifacts/screenshots/."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from games.engine import simulate_game, validate
from tests.browser.conftest import screenshot
from tests.builders import build_league, example_text, make_user
from tournaments.models import Result, Series, StandingsSnapshot
from tournaments.services.results import game_log_submit
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.browser

LOG = "valid-league-2tplus.json"


def g2_log() -> str:
    """A complete 2T+ log for G2: carol (green + red) against erin (black + yellow), green
    starts. Simulated with a fixed seed, so the same game every run."""
    log = simulate_game(
        rules="league-2t+",
        board=4,
        players={"carol": ["green", "red"], "erin": ["black", "yellow"]},
        first="green",
        seed=20240607,
    )
    assert validate(log)["complete"]
    return json.dumps(log)


@pytest.fixture
def data(transactional_db):
    owner = make_user("olga")
    erin_user = make_user("erin-user")
    carol_user = make_user("carol-user")
    league = build_league(owner, erin_user, carol_user)
    objs = league.test_objects
    result = game_log_submit(fixture=objs["g1"], content=example_text(LOG), by=owner)
    standings_recompute(league.pk)
    Series.objects.create(
        league=league,
        round=1,
        slot=1,
        name="Final Series",
        first_to=4,
        higher=objs["carol"],
        lower=objs["erin"],
        higher_seed=1,
        lower_seed=2,
    )
    return SimpleNamespace(
        owner=owner,
        erin_user=erin_user,
        carol_user=carol_user,
        league=league,
        result=result,
        **objs,
    )


def paste(textarea, text: str) -> None:
    """Put a long text into a textarea at once (typing 50 kB key by key is slow)."""
    textarea.evaluate(
        "(el, text) => { el.value = text; el.dispatchEvent(new Event('input')); }", text
    )


def pawn_positions(page) -> list[str]:
    return page.locator("#replay-viewer [data-pawns] g.pawn").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('data-seat') + '@' + n.getAttribute('transform'))"
    )


def test_standings_refresh_live_without_reload(browser_page, data, monkeypatch):
    monkeypatch.setattr("tournaments.web.leagues.STANDINGS_POLL_SECONDS", 2)
    page = browser_page
    page.goto("/leagues/spring/standings/")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("carol")
    expect(page.locator("#standings")).to_contain_text("1 of 2 games counted")
    screenshot(page, "standings")
    page.evaluate("window.__sameDocument = true")
    before = page.locator("#standings").get_attribute("data-etag")

    # erin wins G2 (or carol does): a second counted result, a new snapshot
    game_log_submit(fixture=data.g2, content=g2_log(), by=data.owner)
    standings_recompute(data.league.pk)
    assert StandingsSnapshot.objects.get(league=data.league).games_played == 2

    expect(page.locator("#standings")).to_contain_text("2 of 2 games counted")
    assert page.evaluate("window.__sameDocument") is True  # refreshed in place, no reload
    assert page.locator("#standings").get_attribute("data-etag") != before


def test_replay_steps_through_the_game(browser_page, data):
    page = browser_page
    page.goto(f"/games/{data.g1.pk}/")
    viewer = page.locator("#replay-viewer")
    expect(viewer).to_have_class(re.compile(r"\bready\b"))
    count = viewer.locator("[data-count]")
    expect(count).to_have_text("Event 0 of 581")
    expect(viewer.locator("[data-text]")).to_have_text("Start position: every pawn in its yard.")
    start = pawn_positions(page)
    assert len(start) == 16  # four colours × four pawns, all in their yards

    viewer.locator('[data-act="next"]').click()
    expect(count).to_have_text("Event 1 of 581")
    expect(viewer.locator("[data-text]")).to_contain_text("black rolls")
    # black has every pawn in its yard: the first of its three tries for a 6
    expect(viewer.locator("[data-try]")).to_have_text("Try 1 of 3 for a 6")

    # the keyboard: focus the viewer, step with the arrows until a pawn has moved
    viewer.focus()
    moved_at = None
    for _ in range(60):
        page.keyboard.press("ArrowRight")
        if pawn_positions(page) != start:
            moved_at = int(viewer.get_attribute("data-index"))
            break
    assert moved_at is not None, "no pawn moved in the first 60 events"
    expect(viewer.locator("g.pawn.moved")).to_have_count(1)
    expect(viewer.locator(".trail")).to_have_count(1)
    expect(viewer.locator("[data-text]")).to_contain_text("onto field A")
    page.keyboard.press("ArrowLeft")
    assert pawn_positions(page) == start
    page.keyboard.press("Home")
    expect(count).to_have_text("Event 0 of 581")

    # the next capture (key C) marks the captured field
    page.keyboard.press("c")
    expect(viewer.locator(".capture-mark")).to_have_count(1)
    expect(viewer.locator("[data-text]")).to_contain_text("captures a")

    # the slider jumps anywhere
    slider = viewer.locator("[data-slider]")
    slider.evaluate("(s) => { s.value = 300; s.dispatchEvent(new Event('input')); }")
    expect(count).to_have_text("Event 300 of 581")
    screenshot(page, "game-replay")

    # autoplay runs on its own, and pauses
    viewer.locator("[data-speed]").select_option("60")
    viewer.locator('[data-act="play"]').click()
    expect(viewer.locator('[data-act="play"]')).to_have_attribute("aria-pressed", "true")
    # polled from here: page.wait_for_function evaluates a string, which the
    # Content-Security-Policy (no 'unsafe-eval') refuses
    for _ in range(100):
        if int(viewer.get_attribute("data-index")) > 305:
            break
        page.wait_for_timeout(50)
    assert int(viewer.get_attribute("data-index")) > 305, "autoplay did not advance"
    viewer.locator('[data-act="play"]').click()
    expect(viewer.locator('[data-act="play"]')).to_have_attribute("aria-pressed", "false")

    # the end: carol (green + red) has all eight pawns home
    page.keyboard.press("End")
    expect(count).to_have_text("Event 581 of 581")
    legend = viewer.locator("[data-legend] tr")
    expect(legend).to_have_count(4)
    homes = {}
    for i in range(4):
        colour = legend.nth(i).locator("th").inner_text().split()[-1]  # after the pawn letter
        homes[colour] = legend.nth(i).locator("td").nth(1).inner_text()
    assert homes["red"] == "4" and homes["green"] == "4"
    expect(viewer.locator("[data-text]")).to_contain_text("the game is over")


def test_board_six_replay(browser_page, data):
    page = browser_page
    page.goto("/replay/")
    paste(page.locator("#log-content"), example_text("valid-league-3tplus-board6.json"))
    page.get_by_role("button", name="Check and replay").click()
    viewer = page.locator("#replay-viewer")
    expect(viewer).to_have_class(re.compile(r"\bready\b"))
    expect(viewer.locator("circle.field")).to_have_count(48)
    expect(viewer.locator("g.pawn")).to_have_count(24)
    page.keyboard.press("Tab")  # focus moves on; the viewer is reachable by keyboard
    viewer.focus()
    page.keyboard.press("End")
    expect(viewer.locator("[data-count]")).to_have_text("Event 1604 of 1604")
    screenshot(page, "replay-board6")


def test_one_pawn_out_replay_starts_with_pawns_on_the_board(browser_page, data):
    page = browser_page
    page.goto("/replay/")
    paste(page.locator("#log-content"), example_text("valid-classic.json"))
    page.get_by_role("button", name="Check and replay").click()
    viewer = page.locator("#replay-viewer")
    expect(viewer).to_have_class(re.compile(r"\bready\b"))
    expect(viewer.locator("[data-text]")).to_have_text("Start position.")
    viewer.focus()
    page.keyboard.press("ArrowRight")
    expect(viewer.locator("[data-count]")).to_contain_text("Event 1 of")
    expect(viewer.locator("[data-text]")).not_to_have_text("Start position.")
    expect(viewer.locator("[data-try]")).to_have_text("")  # no three tries under classic


def test_upload_a_log_and_see_the_result(browser_page, data, login):
    login(data.carol_user)
    page = browser_page
    page.goto(f"/games/{data.g2.pk}/")
    expect(page.get_by_role("heading", name="Upload the game log")).to_be_visible()

    # a broken log first: the service's message next to the form, the pasted text kept
    log = json.loads(g2_log())
    log["events"][0]["die"] = 9  # no die shows a 9
    broken = json.dumps(log)
    paste(page.get_by_label("…or paste the log"), broken)
    page.get_by_role("button", name="Submit the log").click()
    expect(page.locator("#form-error")).to_contain_text("The log was rejected")
    assert page.get_by_label("…or paste the log").input_value() == broken

    page.get_by_label("…or paste the log").fill("")  # a file or pasted text, not both
    page.get_by_label("Log file").set_input_files(
        {"name": "g2.json", "mimeType": "application/json", "buffer": g2_log().encode()}
    )
    page.get_by_role("button", name="Submit the log").click()
    expect(page.locator(".messages")).to_contain_text("The log was accepted")
    expect(page.locator("h1 .badge")).to_have_text("awaiting confirmation")
    expect(page.locator("#replay-viewer")).to_have_class(re.compile(r"\bready\b"))
    result = Result.objects.get(fixture=data.g2)
    assert result.state == Result.State.PENDING and result.submitted_by == data.carol_user
    screenshot(page, "game-uploaded")
    # a result awaits confirmation: the upload form is gone (the service would refuse it)
    expect(page.get_by_role("heading", name="Upload the game log")).to_have_count(0)


def test_switch_language(browser_page, data):
    page = browser_page
    page.goto("/leagues/spring/standings/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator("#language-select").select_option("de")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.url.endswith("/leagues/spring/standings/")  # back on the same page
    expect(page.get_by_role("heading", level=2).first).to_have_text(re.compile("Tabelle"))
    expect(page.get_by_role("link", name="Spielplan")).to_be_visible()
    screenshot(page, "standings-de")
    page.goto(f"/games/{data.g1.pk}/")
    viewer = page.locator("#replay-viewer")
    expect(viewer.locator("[data-count]")).to_have_text("Ereignis 0 von 581")
    viewer.locator('[data-act="next"]').click()
    expect(viewer.locator("[data-text]")).to_contain_text("schwarz würfelt")


def test_screenshots_of_the_main_pages(browser_page, data):
    page = browser_page
    for name, url in [
        ("home", "/"),
        ("league", "/leagues/spring/"),
        ("schedule", "/leagues/spring/schedule/"),
        ("playoffs", "/leagues/spring/playoffs/"),
        ("player", "/players/carol/"),
        ("rules", "/rules/"),
    ]:
        page.goto(url)
        expect(page.locator("h1")).to_be_visible()
        assert page.locator("link[rel=stylesheet]").count() == 1
        # the stylesheet loaded: the header is dark, not the browser default
        colour = page.locator(".site-header").evaluate("e => getComputedStyle(e).backgroundColor")
        assert colour == "rgb(20, 48, 79)", (url, colour)
        screenshot(page, name)


def test_keyboard_focus_is_visible(browser_page, data):
    page = browser_page
    page.goto("/")
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    outline = skip.evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline == "solid"
