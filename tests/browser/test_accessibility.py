"""Accessibility checked by a tool: axe-core (the npm package, pinned in tests/browser/axe/
and installed by tests/ensure_services.sh) runs in Chromium on every main page, in English
and German, at desktop and phone width; no serious or critical violation is allowed.

axe is evaluated through the DevTools protocol (``page.evaluate``), which the pages'
Content-Security-Policy does not govern, so the pages are tested with their real policy."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import screenshot
from tests.browser.test_pages_in_browser import data  # noqa: F401  (the shared season)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LANGUAGES = {"en": "en-GB", "de": "de-DE"}
SEVERE = ("serious", "critical")

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary),
  }));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(
            f"axe-core is missing ({AXE}): run `npm ci --prefix tests/browser/axe` "
            "(tests/ensure_services.sh does this)"
        )
    return AXE.read_text()


def main_pages(data) -> dict[str, str]:  # noqa: F811
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
        "search": "/search/?q=er",
        "replay": "/replay/",
        "signup": "/accounts/signup/",
        "embed": "/leagues/spring/embed/standings/",
        "sheet": f"/games/{data.g1.pk}/sheet/",
    }


def violations(page, axe_source: str) -> list[dict]:
    page.evaluate(axe_source)
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SEVERE]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_main_pages_have_no_serious_violation(
    chromium,
    live_server,
    data,  # noqa: F811
    axe_source,
    lang,
    width,
):
    context = chromium.new_context(
        viewport=WIDTHS[width], locale=LANGUAGES[lang], base_url=live_server.url
    )
    page = context.new_page()
    found: dict[str, list] = {}
    try:
        for name, url in main_pages(data).items():
            page.goto(url)
            page.wait_for_load_state("load")
            if bad := violations(page, axe_source):
                found[name] = bad
                screenshot(page, f"axe-{name}-{lang}-{width}")
    finally:
        context.close()
    assert not found, f"axe: serious or critical violations: {found}"


def test_signed_in_pages_have_no_serious_violation(
    browser_page,
    data,  # noqa: F811
    login,
    axe_source,
):
    login(data.erin_user)
    found = {}
    for url in ("/me/", "/", f"/games/{data.g2.pk}/", "/me/leagues/"):
        browser_page.goto(url)
        if bad := violations(browser_page, axe_source):
            found[url] = bad
    assert not found, f"axe: serious or critical violations: {found}"


def test_axe_sees_a_violation(browser_page, data, axe_source):  # noqa: F811
    """The check itself: an image without a text alternative is a critical violation."""
    browser_page.goto("/rules/")
    browser_page.evaluate(
        "() => { const i = document.createElement('img'); i.src = '/static/favicon.svg';"
        " document.querySelector('main').append(i); }"
    )
    assert any(v["id"] == "image-alt" for v in violations(browser_page, axe_source))
