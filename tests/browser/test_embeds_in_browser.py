"""An embed in another site's page: a club's page (its own small server on 127.0.0.1, another
origin than the site) frames the standings embed,
which shows; a framed ordinary page is refused by the browser (frame-ancestors 'none').
Screenshots of the light and dark embeds at phone width."""

from __future__ import annotations

import http.server
import threading

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_pages_in_browser import data  # noqa: F401  (the shared season)

pytestmark = pytest.mark.browser


@pytest.fixture
def club_site():
    """The club's own site: a tiny HTTP server on 127.0.0.1 (a free port; another origin
    than the live server, and a local address, so Chromium's local-network checks allow
    the frame) serving one page whose iframe shows ``club_site.path`` of our site."""
    state = {"src": ""}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = (
                "<!doctype html><title>Club</title><h1>Our club</h1>"
                f'<iframe id="frame" src="{state["src"]}" width="380" height="700"'
                ' title="league"></iframe>'
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def page_with(src: str) -> str:
        state["src"] = src
        return f"http://127.0.0.1:{server.server_address[1]}/"

    try:
        yield page_with
    finally:
        server.shutdown()
        server.server_close()


def test_standings_embed_shows_in_a_club_page(chromium, live_server, data, club_site):  # noqa: F811
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(club_site(f"{live_server.url}/leagues/spring/embed/standings/?lang=de"))
        frame = page.frame_locator("#frame")
        expect(frame.locator("table").first).to_be_visible()
        expect(frame.locator("html")).to_have_attribute("lang", "de")
        screenshot(page, "embed-in-club-page")
        # a link in the embed opens the full site in a new tab, not inside the frame
        assert (
            frame.locator("a").first.evaluate(
                "a => a.target || document.querySelector('base').target"
            )
            == "_blank"
        )
    finally:
        context.close()


def test_an_ordinary_page_is_not_framed(chromium, live_server, data, club_site):  # noqa: F811
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(club_site(f"{live_server.url}/leagues/spring/standings/"))
        page.wait_for_timeout(1000)
        framed = next(f for f in page.frames if f != page.main_frame)
        # the browser refuses to render it: the frame stays empty (no table)
        assert framed.locator("table").count() == 0
    finally:
        context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_embed_themes(chromium, live_server, data, theme):  # noqa: F811
    context = chromium.new_context(viewport={"width": 390, "height": 700}, base_url=live_server.url)
    try:
        page = context.new_page()
        page.goto(f"/leagues/spring/embed/standings/?theme={theme}")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        dark = background == "rgb(20, 24, 29)"
        assert dark == (theme == "dark"), background
        screenshot(page, f"embed-standings-{theme}")
        page.goto(f"/leagues/spring/embed/bracket/?theme={theme}")
        expect(page.locator(".series").first).to_be_visible()
        screenshot(page, f"embed-bracket-{theme}")
    finally:
        context.close()
