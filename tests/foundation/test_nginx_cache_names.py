"""nginx's shared cache tells a personal request by the names of its cookies and headers
(config/nginx.conf.template, ``$personal``): they are the names the application uses, and the
cache is on in ``location /`` only (never for live play's sockets)."""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage

from tests.processes import REPO_ROOT

TEMPLATE = (REPO_ROOT / "config" / "nginx.conf.template").read_text()


def test_the_personal_map_names_the_applications_cookies_and_the_token_header():
    names = re.search(r'map "([^"]+)" \$personal', TEMPLATE).group(1)
    assert f"$cookie_{settings.SESSION_COOKIE_NAME}" in names
    assert f"$cookie_{CookieStorage.cookie_name}" in names
    assert "$http_authorization" in names


def test_the_cache_is_used_for_pages_only_and_bypassed_for_personal_requests():
    pages = TEMPLATE.split("location / {")[1].split("location /ws/")[0]
    assert "proxy_cache shared_pages;" in pages
    assert "proxy_cache_bypass $past_the_cache;" in pages
    assert "proxy_no_cache $past_the_cache;" in pages
    assert "proxy_set_header If-None-Match $upstream_if_none_match;" in pages
    assert "proxy_set_header If-Modified-Since $upstream_if_modified_since;" in pages
    assert re.search(r'map "\$personal\$live_refresh" \$past_the_cache \{\s*"00"\s+0;', TEMPLATE)
    sockets = TEMPLATE.split("location /ws/ {")[1]
    assert "proxy_cache" not in sockets


def test_a_live_refresh_is_recognised_by_the_header_the_pollers_send():
    """nginx passes a live refresh past its cache with its If-None-Match when it says
    ``X-Requested-With: fetch``: the standings table's and the projector's pollers say it."""
    maps = re.findall(r"map \$http_x_requested_with \$(\w+) \{\s*fetch\s+1;", TEMPLATE)
    assert maps == ["live_refresh"]
    for script in ("poll.js", "projector.js"):
        text = (REPO_ROOT / "static" / "js" / script).read_text()
        assert '"X-Requested-With": "fetch"' in text, script
