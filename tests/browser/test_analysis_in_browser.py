"""The move analysis in a real browser: the replay viewer's win-probability graph (a click
or the arrow keys on it move the replay), the options at the current step, the marked moves
in the move list; at 390 px and in German. Screenshots: test-artifacts/screenshots/analysis-*.

The analysis is the real engine's, on the shipped evaluator (under a second)."""

from __future__ import annotations

import copy
import re
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect

from games import analysis as games_analysis
from games.analysis import analysis_request, analysis_run
from tests.browser.conftest import SCREENSHOTS, screenshot
from tests.builders import example_text, make_fixture, make_league, make_player, make_user
from tournaments.models import League
from tournaments.services.results import game_log_submit

pytestmark = pytest.mark.browser

LOG = "valid-league-2tplus.json"


@pytest.fixture(scope="module")
def analysed_logs() -> dict:
    """The engine's analysis of each log text, computed once for the module."""
    return {}


@contextmanager
def analyse_once(analysed_logs: dict):
    """``games.analysis`` computes each log's analysis once per module: ``analyse`` is
    deterministic (games/engine/analysis/analyse.py: the same log and model always give the
    same analysis, ``seconds`` aside), so a test's stored analysis is the one it would have
    computed itself — a couple of seconds of CPU saved for each test after the first."""
    real = games_analysis.analyse

    def analyse(log, *, progress=None, **bounds):
        if progress is not None:
            return real(log, progress=progress, **bounds)
        key = (log, tuple(sorted(bounds.items())))
        if key not in analysed_logs:
            analysed_logs[key] = real(log, **bounds)
        return copy.deepcopy(analysed_logs[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games_analysis, "analyse", analyse)
        yield


@pytest.fixture
def game(transactional_db, analysed_logs):
    organizer = make_user("org")
    erin = make_player("erin", user=make_user("erin_u"))
    carol = make_player("carol", user=make_user("carol_u"))
    league = make_league(organizer, slug="analysed", format="2T+")
    League.objects.filter(pk=league.pk).update(confirmation_required=False)
    fixture = make_fixture(
        league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black"
    )
    result = game_log_submit(fixture=fixture, content=example_text(LOG), by=organizer)
    row, _ = analysis_request(result.game_log)
    with analyse_once(analysed_logs):
        assert analysis_run(row.pk)["stored"]
    row.refresh_from_db()
    return fixture, row


def test_the_graph_moves_the_replay_and_the_options_follow(browser_page, game):
    fixture, row = game
    page = browser_page
    page.goto(f"/games/{fixture.pk}/")
    viewer = page.locator("#replay-viewer")
    expect(viewer).to_have_class(re.compile(r"\bready\b"))
    graph = viewer.locator("[data-graph]")
    expect(graph).to_be_visible()
    expect(graph.locator("polyline.wp-line")).to_have_count(2)  # erin, carol

    # a click in the middle of the graph jumps to the nearest analysed point
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
    index = int(viewer.get_attribute("data-index"))
    analysed_steps = {d["event"] + 1 for d in row.data["decisions"]}
    graph_steps = {p["event"] + 1 for p in row.data["win_probability"]}
    assert index in graph_steps and 0 < index < 581
    expect(viewer.locator("[data-count]")).to_have_text(f"Event {index} of 581")
    cursor_x = float(graph.locator("[data-cursor]").get_attribute("x1"))
    assert 250 < cursor_x < 350  # the cursor sits where the click was (600 units wide)

    # the options of the decision at this step, best first, the played one marked
    if index in analysed_steps:
        decision = next(d for d in row.data["decisions"] if d["event"] + 1 == index)
        rows = viewer.locator("[data-options] tr")
        expect(rows).to_have_count(len(decision["options"]))
        expect(rows.first.locator("th")).to_contain_text(decision["options"][0]["move"])
        expect(viewer.locator("[data-choice]")).to_contain_text(f"played {decision['played']}")
        expect(rows.first.locator("td").nth(1)).to_have_text("0")  # the best loses nothing
        if len(decision["options"]) > 1:  # the others: their loss in milli-wins
            expect(rows.nth(1).locator("td").nth(1)).to_have_text(re.compile(r"^−\d+ mw$"))

    # the keyboard on the graph: → goes to the next analysed point, ← back
    graph.focus()
    page.keyboard.press("ArrowRight")
    after = int(viewer.get_attribute("data-index"))
    assert after == min(s for s in graph_steps if s > index)
    page.keyboard.press("ArrowLeft")
    assert int(viewer.get_attribute("data-index")) == index
    page.keyboard.press("Home")
    assert int(viewer.get_attribute("data-index")) == 0
    expect(viewer.locator("[data-choice]")).to_contain_text("No choice at this step")

    # the words follow how sure the analysis is (issue #37): an unmarked loss is a probable
    # one (its 90 % interval above 0) or within the error, never "the best move was"
    unmarked = [d for d in row.data["decisions"] if not d["mark"] and d["played"] != d["best"]]
    kinds = (
        ("was probably better", lambda d: d["interval_mw"][0] > 0),
        ("not a finding", lambda d: d["interval_mw"][0] <= 0),
    )
    shown = 0
    for words, kind in kinds:
        d = next((d for d in unmarked if kind(d)), None)
        if d is None:
            continue
        viewer.locator("[data-moves] li").nth(d["event"]).locator("button").click()
        choice = viewer.locator("[data-choice]")
        expect(choice).to_contain_text(words)
        expect(choice).not_to_contain_text("the best move was")
        shown += 1
    assert shown, "the game has unmarked losses to word"

    # a decision step reached from the move list shows its options
    first = min(analysed_steps)
    viewer.locator("[data-moves] li").nth(first - 1).locator("button").click()
    expect(viewer.locator("[data-options] tr").first).to_be_visible()
    assert int(graph.get_attribute("aria-valuenow")) == first
    expect(graph).to_have_attribute("aria-valuetext", re.compile(r"erin \d+\.\d %, carol"))

    # marked moves carry their mark in the move list
    marks = [d["mark"] for d in row.data["decisions"] if d["mark"]]
    expect(viewer.locator("[data-moves] .mark")).to_have_count(len(marks))

    # a marked move in the list of the numbers (one click below the review) jumps there
    page.locator("#analysis-numbers > summary").click()
    marked = page.locator("ol.marked-moves a")
    expect(marked).to_have_count(len(marks))
    if marks:
        target = marked.first.get_attribute("href")
        marked.first.click()
        expect(viewer).to_have_attribute("data-index", target.removeprefix("#step-"))
        expect(viewer.locator("[data-choice]")).to_contain_text("the best move was")

    # the per-player summary on the page, the luck split and what the numbers mean
    summary = page.locator("table.analysis-summary tbody tr")
    expect(summary).to_have_count(2)
    expect(page.locator("ul.luck .luck-adjusted")).to_have_count(2)
    expect(page.locator("#analysis-sure")).to_contain_text("deterministic")
    screenshot(page, "analysis-replay")
    page.locator("#analysis").screenshot(path=str(SCREENSHOTS / "analysis-summary.png"))


def test_the_analysis_at_390_px_and_in_german(chromium, live_server, game):
    fixture, row = game
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", base_url=live_server.url
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"/games/{fixture.pk}/", wait_until="networkidle")
        viewer = page.locator("#replay-viewer")
        expect(viewer).to_have_class(re.compile(r"\bready\b"))
        expect(page.locator("#analysis-heading")).to_have_text("Zuganalyse")
        expect(page.locator("#options-heading")).to_have_text("Optionen bei diesem Schritt")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide at 390px"
        graph = viewer.locator("[data-graph]")
        assert graph.bounding_box()["width"] <= 390
        graph.focus()
        page.keyboard.press("End")
        last = max(p["event"] + 1 for p in row.data["win_probability"])
        assert int(viewer.get_attribute("data-index")) == last
        first = min(d["event"] + 1 for d in row.data["decisions"])
        viewer.locator("[data-moves] li").nth(first - 1).locator("button").click()
        expect(viewer.locator("[data-choice]")).to_contain_text("würfelte")
        graph.scroll_into_view_if_needed()
        screenshot(page, "analysis-replay-390-de")
        section = page.locator("#analysis")
        expect(section).to_contain_text("glücksbereinigtes Ergebnis")
        assert section.bounding_box()["width"] <= 390
        section.screenshot(path=str(SCREENSHOTS / "analysis-summary-390-de.png"))
        # the numbers opened: the levels' table and their explanation fit at 390 px
        page.locator("#analysis-numbers > summary").click()
        expect(section).to_contain_text("Die Stufen messen die verschenkten Chancen")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.locator("#analysis .table-wrap").first.bounding_box()["width"] <= 390
        section.screenshot(path=str(SCREENSHOTS / "analysis-numbers-390-de.png"))
        page.goto(f"/leagues/{fixture.league.slug}/dice/", wait_until="networkidle")
        expect(page.locator("#dice-heading")).to_have_text("Würfel aller gewerteten Partien")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, "dice-390-de")
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_an_organizer_runs_a_failed_analysis_again_by_keyboard_at_390_px(
    chromium, live_server, transactional_db, settings
):
    from django.test import Client

    from games.models import GameAnalysis

    settings.ANALYSIS_ENABLED = True
    organizer = make_user("org")
    erin = make_player("erin", user=make_user("erin_u"))
    carol = make_player("carol", user=make_user("carol_u"))
    league = make_league(organizer, slug="failing", format="2T+")
    fixture = make_fixture(
        league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black"
    )
    result = game_log_submit(fixture=fixture, content=example_text(LOG), by=organizer)
    GameAnalysis.objects.filter(log=result.game_log).update(
        status="failed", error="ValueError: the engine gave up at event 12"
    )
    client = Client()
    client.force_login(organizer)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", base_url=live_server.url
    )
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(f"/leagues/{league.slug}/desk/#failed-analyses", wait_until="networkidle")
        listed = page.locator("#failed-analyses")
        expect(listed).to_contain_text("the engine gave up at event 12")
        retry = listed.get_by_role("button", name="Erneut analysieren")
        expect(retry).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box, card = retry.bounding_box(), listed.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"]  # not cut off at 390 px
        listed.scroll_into_view_if_needed()
        screenshot(page, "desk-failed-analyses-390-de")
        page.goto(f"/games/{fixture.pk}/#analysis", wait_until="networkidle")
        failed = page.locator("#analysis-failed")
        expect(failed).to_contain_text("the engine gave up at event 12")
        button = failed.get_by_role("button", name="Erneut analysieren")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        button.scroll_into_view_if_needed()
        screenshot(page, "analysis-failed-390-de")
        page.locator("#analysis").screenshot(path=str(SCREENSHOTS / "analysis-failed-card.png"))
        button.focus()
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("Die Analyse ist wieder eingereiht")
        expect(page.locator("#analysis-pending")).to_be_visible()
        expect(page.locator("#analysis-failed")).to_have_count(0)
        screenshot(page, "analysis-requeued-390-de")
        page.locator(".messages").screenshot(path=str(SCREENSHOTS / "analysis-requeued-msg.png"))
    finally:
        context.close()
    assert GameAnalysis.objects.get(log=result.game_log).status == "queued"


#: every <text> of the page's inline SVGs that reaches past its own svg's box (the drawing
#: is clipped there, so the phone-width check cannot see it: it is cut, not scrolled)
CLIPPED_SVG_TEXT = """() => [...document.querySelectorAll('svg')].flatMap(svg => {
  const b = svg.getBoundingClientRect();
  if (!b.width) return [];
  return [...svg.querySelectorAll('text')].filter(t => {
    const r = t.getBoundingClientRect();
    return r.width && (r.left < b.left - 0.5 || r.right > b.right + 0.5
      || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5);
  }).map(t => t.textContent);
})"""


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_no_svg_label_is_cut_off_on_a_phone(chromium, live_server, game, locale):
    """At 390 px the graph's "100 %" and the board's seat labels ("schwarz · erin" in
    German, beside the right edge) stayed partly outside their drawing and were cut."""
    fixture, _row = game
    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        locale=locale,
        base_url=live_server.url,
        is_mobile=True,
    )
    page = context.new_page()
    try:
        page.goto(f"/games/{fixture.pk}/")
        expect(page.locator("#replay-viewer")).to_have_class(re.compile(r"\bready\b"))
        expect(page.locator("[data-seat-label]").filter(has_text="erin").first).to_be_visible()
        assert page.evaluate(CLIPPED_SVG_TEXT) == []
        screenshot(page, f"analysis-phone-labels-{locale[:2]}")
        for part, selector in (("board", "[data-board]"), ("graph", "[data-graph]")):
            page.locator(selector).screenshot(
                path=str(SCREENSHOTS / f"analysis-phone-{part}-{locale[:2]}.png")
            )
    finally:
        context.close()


JARGON = re.compile(r"\bmw\b|milli|evaluator|bewert|\bply\b|plies|modell|model", re.I)


@pytest.mark.parametrize(
    ("locale", "heading", "words"),
    [
        ("en-GB", "Key moments", ("decided this game", "Chance to win")),
        ("de-DE", "Schlüsselmomente", ("entschieden", "Gewinnchance")),
    ],
)
def test_the_review_reads_in_plain_words_at_390_px(
    chromium, live_server, game, locale, heading, words
):
    fixture, row = game
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, locale=locale, base_url=live_server.url
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"/games/{fixture.pk}/#analysis", wait_until="networkidle")
        review = page.locator("#analysis-review")
        expect(review).to_be_visible()
        expect(page.locator("#key-moments-heading")).to_have_text(heading)
        expect(page.locator("#review-verdict")).to_contain_text(words[0])
        # above the numbers, which are one click away
        numbers = page.locator("#analysis-numbers")
        assert review.bounding_box()["y"] < numbers.bounding_box()["y"]
        expect(page.locator("table.analysis-summary")).to_be_hidden()
        moments = page.locator("li.key-moment")
        marked = sorted((d for d in row.data["decisions"] if d["mark"]), key=lambda d: -d["loss"])
        expect(moments.first).to_be_visible()
        # the marked moves (at most three), and the decisive roll when the dice decided
        assert min(3, len(marked)) <= moments.count() <= min(3, len(marked) + 1)
        assert 1 <= moments.count() <= 3
        # the reader's test: each key moment in a player's words, no engine units
        for i in range(moments.count()):
            text = moments.nth(i).inner_text()
            assert words[1] in text or "%" in text
            assert not JARGON.search(text), f"jargon in a key moment: {text!r}"
            assert moments.nth(i).locator("ul.reasons li").count() >= 1
        assert not JARGON.search(page.locator("#review-verdict").inner_text())
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert review.bounding_box()["width"] <= 390
        review.screenshot(path=str(SCREENSHOTS / f"analysis-review-390-{locale[:2]}.png"))
        # the first key moment's link moves the replay there
        first = moments.first.locator("a")
        target = first.get_attribute("href").removeprefix("#step-")
        first.click()
        expect(page.locator("#replay-viewer")).to_have_attribute("data-index", target)
        numbers.locator("summary").click()
        expect(page.locator("table.analysis-summary")).to_be_visible()
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"
