"""Issue 32: a cross-site POST to ``/i18n/setlang/`` must not change a signed-in user's
stored language (the language of their mails). The header's switch carries the CSRF token
for them and keeps working without JavaScript; an anonymous visitor's switch (it sets only
their own cookie) needs none, so the public pages stay cacheable."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import AccountSettings
from tests.builders import make_user

pytestmark = pytest.mark.django_db


def _switch_form(html: str) -> str:
    match = re.search(r'<form class="lang-switch".*?</form>', html, re.S)
    assert match, "no language switch on the page"
    return match.group(0)


def test_a_cross_site_post_does_not_change_a_signed_in_users_language():
    anna = make_user("anna")
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna)
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert response.status_code == 403
    assert not AccountSettings.objects.filter(user=anna, language="de").exists()
    assert client.cookies.get("django_language") is None or (
        client.cookies["django_language"].value != "de"
    )


def test_the_switch_on_the_page_carries_the_token_and_works_without_javascript():
    anna = make_user("anna")
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna)
    form = _switch_form(client.get("/").content.decode())
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = client.post(
        "/i18n/setlang/", {"csrfmiddlewaretoken": token, "language": "de", "next": "/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert AccountSettings.objects.get(user=anna).language == "de"
    assert '<html lang="de"' in client.get("/").content.decode()


def test_an_anonymous_visitor_switches_without_a_token_and_the_page_stays_public():
    client = Client(enforce_csrf_checks=True)
    page = client.get("/")
    assert "csrfmiddlewaretoken" not in _switch_form(page.content.decode())
    assert "csrftoken" not in page.cookies
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert '<html lang="de"' in client.get("/").content.decode()
