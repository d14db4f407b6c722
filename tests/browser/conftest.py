"""Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium, never a
downloaded browser) against pytest-django's live server.

Playwright's sync API runs an event loop in this thread, so Django's async-safety check is
switched off for these tests. Screenshots go to test-artifacts/screenshots/ (gitignored).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
EXPECT_TIMEOUT_MS = 20_000
"""How long an ``expect(...)`` waits for a page to show what it should (Playwright: 5 s)."""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
STATIC_DIR = Path(__file__).resolve().parents[2] / "static"


@pytest.fixture(scope="module")
def chromium():
    """Chromium for one module's tests. While Playwright runs, its event loop runs in this
    thread, and Django then keeps database connections per asyncio context instead of per
    thread: connections are closed when it starts and when it stops, so none is left open
    (a test process running other tests after these would otherwise keep one, and could
    not drop its test database at the end)."""
    if not CHROMIUM.exists():
        pytest.fail(
            "Debian's Chromium is missing: apt-get install -y chromium chromium-driver "
            "(tests/ensure_services.sh does this)"
        )
    from django.db import connections
    from playwright.sync_api import expect, sync_playwright

    connections.close_all()
    # the suite runs its browser tests beside other tests on two cores: a page may take
    # longer than Playwright's default 5 s to show a change there (never longer when quick)
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()
            connections.close_all()


@pytest.fixture(autouse=True)
def project_static_files(settings):
    """Serve static/ from the live server even before STATICFILES_DIRS lists it."""
    dirs = [Path(d) for d in getattr(settings, "STATICFILES_DIRS", [])]
    if STATIC_DIR not in dirs:
        settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, STATIC_DIR]


@pytest.fixture
def browser_page(chromium, live_server, transactional_db):
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, locale="en-GB", base_url=live_server.url
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def login(browser_page, live_server):
    """Log the browser in as a user (a session cookie made by Django's test client)."""
    from django.conf import settings
    from django.test import Client

    def log_in(user):
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        browser_page.context.add_cookies(
            [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
        )

    return log_in


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
