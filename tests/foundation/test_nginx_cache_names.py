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
    assert "proxy_cache_bypass $personal;" in pages and "proxy_no_cache $personal;" in pages
    sockets = TEMPLATE.split("location /ws/ {")[1]
    assert "proxy_cache" not in sockets
