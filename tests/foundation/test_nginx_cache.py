"""nginx's shared cache of anonymous answers (config/nginx.conf.template, docs/configuration.md,
"The shared cache in nginx"), with the real nginx from the template in front of a real
gunicorn on the test database: an anonymous page is answered from nginx's cache
(``X-Cache-Status: HIT``), a signed-in request never is and its page is never stored, a
German and an English visitor each get their own language, a POST is never answered from the
cache, an answer that sets a cookie is never stored, and an API token keeps a request out of
it; a page's live refresh (the standings table's poll) reaches the application with its
If-None-Match and is answered 304, while an expired copy is still revalidated with nginx's
own. The application's page cache is off here (the test settings), so a second identical body
can only come from nginx."""

from __future__ import annotations

import http.client
import os
import re
import time
from pathlib import Path

import pytest
from django.test import Client

from tests.builders import make_league, make_user
from tests.celery_worker import database_url_of_test_db
from tests.processes import Gunicorn, free_port, nginx_from_template

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live_servers]


class Proxy:
    """gunicorn (test settings plus ``nginx_cache_urls``) behind nginx from the template."""

    def __init__(self, tmp_path: Path) -> None:
        env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="tests.foundation.nginx_cache_settings",
            DATABASE_URL=database_url_of_test_db(),
            PUBLIC_PAGE_CACHE_SECONDS="0",
            STANDINGS_PAGE_CACHE_SECONDS="0",
            LOG_LEVEL="ERROR",
        )
        env.pop("DEBUG", None)
        app_port = free_port()
        self.gunicorn = Gunicorn(env, port=app_port, workers=1, timeout=60)
        self.gunicorn.wait_until(lambda: self._answers(app_port), 60, 0.2)
        self.port = free_port()
        self.nginx = nginx_from_template(
            port=self.port,
            app=f"127.0.0.1:{app_port}",
            asgi=[f"127.0.0.1:{free_port()}"],
            directory=tmp_path / "nginx",
        )

    @staticmethod
    def _answers(port: int) -> bool:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/nginx-test/public/")
        return conn.getresponse().status == 200

    def request(
        self, path: str, headers: dict | None = None, method: str = "GET", body: bytes = b""
    ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, body=body or None, headers=headers or {})
        response = conn.getresponse()
        text = response.read().decode()
        conn.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def until_stored(self, path: str) -> tuple[dict[str, str], str]:
        """Ask again until nginx answers from its copy (up to 5 s): nginx runs a worker per
        core, and the next request may reach the other worker a moment before the first
        has entered its copy in the shared zone (seen in whole-suite runs)."""
        deadline = time.monotonic() + 5
        while True:
            _, headers, body = self.request(path)
            if cache_status(headers) == "HIT" or time.monotonic() > deadline:
                return headers, body
            time.sleep(0.05)

    def stop(self) -> None:
        self.nginx.stop()
        self.gunicorn.stop()


@pytest.fixture
def proxy(tmp_path):
    server = Proxy(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def site(transactional_db):
    owner = make_user("cached-owner")
    make_league(owner, "cached-league")
    client = Client()
    client.force_login(make_user("signed-in-visitor"))
    return {"session": client.cookies["sessionid"].value, "owner": owner}


def cache_status(headers: dict[str, str]) -> str:
    return headers.get("x-cache-status", "")


def lang(text: str) -> str:
    return re.search(r'<html lang="([^"]+)"', text).group(1)


def test_an_anonymous_page_is_answered_from_nginx(proxy, site):
    page = "/leagues/cached-league/"
    status, first, text = proxy.request(page)
    assert status == 200 and "public" in first["cache-control"]
    assert cache_status(first) == "MISS"
    status, again, text_again = proxy.request(page)
    assert status == 200 and cache_status(again) == "HIT"
    assert text_again == text and again["etag"] == first["etag"]
    # a conditional request is answered by nginx from its copy as well
    status, headers, body = proxy.request(page, {"If-None-Match": first["etag"]})
    assert status == 304 and body == "" and cache_status(headers) == "HIT"


def test_a_signed_in_request_is_never_answered_from_nginx_nor_stored(proxy, site):
    page = "/leagues/cached-league/"
    signed_in = {"Cookie": f"sessionid={site['session']}"}
    for _ in range(2):  # before and after an anonymous copy exists
        status, headers, text = proxy.request(page, signed_in)
        assert status == 200 and cache_status(headers) == "BYPASS"
        assert "private" in headers["cache-control"]
        assert "Signed in as signed-in-visitor" in text  # the signed-in page
        status, headers, text = proxy.request(page)
        assert status == 200 and cache_status(headers) in ("MISS", "HIT")
        assert "signed-in-visitor" not in text  # never the signed-in page
    # a pending message or an API token keeps a request out of the cache too
    for personal in ({"Cookie": "messages=anything"}, {"Authorization": "Token nothing"}):
        status, headers, text = proxy.request(page, personal)
        assert cache_status(headers) == "BYPASS", personal


def test_a_german_and_an_english_visitor_get_their_own_language(proxy, site):
    page = "/leagues/cached-league/"
    german, english = {"Accept-Language": "de"}, {"Accept-Language": "en"}
    _, headers, text = proxy.request(page, german)
    assert lang(text) == "de" and cache_status(headers) == "MISS"
    assert "Accept-Language" in headers["vary"]
    _, headers, text = proxy.request(page, english)
    assert lang(text) == "en" and cache_status(headers) == "MISS"  # not the German copy
    for _ in range(2):
        _, headers, text = proxy.request(page, german)
        assert lang(text) == "de" and cache_status(headers) == "HIT"
        _, headers, text = proxy.request(page, english)
        assert lang(text) == "en" and cache_status(headers) == "HIT"
    # the language chosen with the site's switch (a cookie) is a copy of its own as well
    _, headers, text = proxy.request(page, {"Cookie": "django_language=de", **english})
    assert lang(text) == "de"


def test_a_post_is_never_answered_from_the_cache(proxy, site):
    page = "/leagues/cached-league/"
    proxy.request(page)
    headers, cached = proxy.until_stored(page)
    assert cache_status(headers) == "HIT"
    for _ in range(2):
        status, headers, body = proxy.request(page, method="POST", body=b"x=1")
        # the application answered (its CSRF refusal), not the stored page
        assert status == 403 and body != cached
        assert cache_status(headers) != "HIT"
    status, headers, _ = proxy.request(page)
    assert status == 200 and cache_status(headers) == "HIT"  # the POST stored nothing


def test_an_answer_that_sets_a_cookie_is_never_stored(proxy, site):
    # the control: the same answer without a cookie is stored
    _, _, body = proxy.request("/nginx-test/public/")
    again, body_again = proxy.until_stored("/nginx-test/public/")
    assert cache_status(again) == "HIT" and body_again == body
    bodies = set()
    for _ in range(3):
        _, headers, body = proxy.request("/nginx-test/public-with-cookie/")
        assert "set-cookie" in headers and cache_status(headers) == "MISS"
        bodies.add(body)
    assert len(bodies) == 3  # rendered by the application every time


def test_an_anonymous_api_read_is_stored_and_a_token_bypasses_it(proxy, site):
    path = "/api/v1/leagues/cached-league/"
    _, first, body = proxy.request(path)
    assert "public" in first["cache-control"] and "Authorization" in first["vary"]
    _, again, body_again = proxy.request(path)
    assert cache_status(again) == "HIT" and body_again == body
    status, headers, _ = proxy.request(path, {"Authorization": "Token not-a-token"})
    assert status == 401 and cache_status(headers) == "BYPASS"
    assert "public" not in headers["cache-control"]


def test_a_browser_gets_the_gzipped_copy_and_a_plain_client_the_plain_one(proxy, site):
    """A stored page's gzipped bytes (``Accept-Encoding: gzip``, every browser) and its plain
    bytes are two copies in nginx's cache (``Vary: Accept-Encoding``): neither is ever sent
    to the other kind of client."""
    import gzip

    page = "/leagues/cached-league/"

    def get(headers: dict) -> tuple[dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=30)
        conn.request("GET", page, headers=headers)
        response = conn.getresponse()
        body = response.read()
        conn.close()
        return {k.lower(): v for k, v in response.getheaders()}, body

    browser = {"Accept-Encoding": "gzip, deflate, br"}
    headers, packed = get(browser)
    assert headers.get("content-encoding") == "gzip" and cache_status(headers) == "MISS"
    assert "Accept-Encoding" in headers["vary"]
    plain_headers, plain = get({})
    assert "content-encoding" not in plain_headers and cache_status(plain_headers) == "MISS"
    assert gzip.decompress(packed) == plain and len(packed) < len(plain)
    for _ in range(2):
        headers, body = get(browser)
        assert headers.get("content-encoding") == "gzip" and cache_status(headers) == "HIT"
        assert body == packed
        headers, body = get({})
        assert "content-encoding" not in headers and cache_status(headers) == "HIT"
        assert body == plain


def test_a_live_refresh_reaches_the_application_with_its_etag(proxy, site):
    """The standings page's poll (static/js/poll.js: ``X-Requested-With: fetch`` and the
    ETag it saw) is answered 304 by the application while the table is unchanged: nginx
    used to send it on without its If-None-Match, and every poll was rendered whole."""
    fragment = "/leagues/cached-league/standings/table/"
    poll = {"X-Requested-With": "fetch"}
    status, first, text = proxy.request(fragment, poll)
    assert status == 200 and first["etag"] and "no-cache" in first["cache-control"]
    for _ in range(2):
        status, headers, body = proxy.request(fragment, {**poll, "If-None-Match": first["etag"]})
        assert (status, body, cache_status(headers)) == (304, "", "BYPASS")
        assert headers["etag"] == first["etag"]
    status, headers, body = proxy.request(fragment, {**poll, "If-None-Match": '"other"'})
    assert status == 200 and body == text


def test_a_signed_in_conditional_request_reaches_the_application_with_its_validators(proxy, site):
    """A request past the cache (a session) keeps its If-None-Match and If-Modified-Since:
    the application answers 304 (nginx used to put the stored copy's validators, none, in
    their place)."""
    from tournaments.models import League
    from tournaments.services.standings import standings_recompute

    standings_recompute(League.objects.get(slug="cached-league").pk)  # a Last-Modified too
    fragment = "/leagues/cached-league/standings/table/"
    signed_in = {"Cookie": f"sessionid={site['session']}"}
    status, first, _ = proxy.request(fragment, signed_in)
    assert status == 200 and cache_status(first) == "BYPASS"
    for validator in (
        {"If-None-Match": first["etag"]},
        {"If-Modified-Since": first["last-modified"]},
    ):
        status, headers, body = proxy.request(fragment, {**signed_in, **validator})
        assert (status, body, cache_status(headers)) == (304, "", "BYPASS"), validator


def test_an_expired_copy_is_revalidated_with_its_etag(proxy, site):
    """Not a live refresh: nginx revalidates its expired copy with the copy's own ETag
    (``proxy_cache_revalidate``), the application answers 304 and nginx keeps serving the
    copy it has."""
    page = "/nginx-test/expiring/"
    status, first, text = proxy.request(page)
    assert status == 200 and cache_status(first) == "MISS"
    time.sleep(2.5)  # stored for a second (nginx counts whole seconds)
    status, headers, body = proxy.request(page)
    assert status == 200 and cache_status(headers) == "REVALIDATED"
    assert body == text  # the stored copy, renewed by the 304
