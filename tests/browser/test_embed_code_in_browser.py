"""Issue 34 point 9: "Embed on your site" at 390 px (EN and DE): the code is copied with
the keyboard, the page passes axe, and the code pasted into another site's page makes a
frame that takes its content's height (auto-height by postMessage)."""

from __future__ import annotations

import http.server
import threading

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_pages_in_browser import data  # noqa: F401  (the shared season)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def host_page():
    """Another site (127.0.0.1, its own port) serving the HTML it is given."""
    state = {"body": ""}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = state["body"].encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def serving(html: str) -> str:
        state["body"] = html
        return f"http://127.0.0.1:{server.server_address[1]}/"

    try:
        yield serving
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_embed_code_is_copied_and_its_frame_takes_its_height(
    chromium,
    live_server,
    data,  # noqa: F811
    host_page,
    axe_source,  # noqa: F811
    lang,
):
    context = chromium.new_context(
        viewport=PHONE,
        locale={"en": "en-GB", "de": "de-DE"}[lang],
        base_url=live_server.url,
        is_mobile=True,
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"/leagues/spring/embed/?what=standings&lang={lang}&height=200&auto=1")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not violations(page, axe_source)
        copy = page.locator("[data-copy]")
        copy.focus()
        page.keyboard.press("Enter")
        expect(page.locator("[data-copy-status]")).to_have_text(
            "Copied." if lang == "en" else "Kopiert."
        )
        screenshot(page, f"embed-code-{lang}")
        snippet = page.locator("#embed-snippet").input_value()
        assert snippet.startswith("<iframe") and "data-maedn-embed" in snippet
        # another site pastes the code: the 200 px frame grows to its content's height
        host = context.new_page()
        host.goto(host_page(f"<!doctype html><title>Club</title><h1>Club</h1>{snippet}"))
        frame = host.locator("iframe[data-maedn-embed]")
        expect(frame).to_be_visible()
        host.wait_for_function(
            "() => parseInt(document.querySelector('iframe').style.height || 0) > 200"
        )
        inner = host.frame_locator("iframe").locator("html").evaluate("el => el.scrollHeight")
        assert abs(int(frame.evaluate("f => parseInt(f.style.height)")) - inner) <= 2
        screenshot(host, f"embed-code-host-{lang}")
    finally:
        context.close()
    assert not errors, errors
