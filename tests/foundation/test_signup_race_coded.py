"""Issue 35: a sign-up that loses the race for its user name is refused with a code,
worded in the reader's language (it used to be an English sentence everywhere)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.utils import translation

from accounts.services import account_signup
from core.errors import ServiceError


@pytest.mark.django_db
def test_a_user_name_taken_a_moment_ago_is_a_coded_refusal(monkeypatch):
    def raced(*args, **kwargs):
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(get_user_model().objects, "create_user", raced)
    with pytest.raises(ServiceError) as caught:
        account_signup(username="ida", email="ida@example.org", password="a long passphrase")
    refusal = caught.value
    assert refusal.code == "username_raced" and refusal.field == "username"
    assert refusal.message == "the user name ida was taken a moment ago; choose another"
    with translation.override("de"):
        assert refusal.localized() == (
            "der Benutzername ida wurde gerade eben vergeben; wähle einen anderen"
        )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field", "named"),
    [
        ({"username": "ida\u200bk"}, "username", "ein Benutzername"),
        ({"username": "idak", "player_name": "Ida\u200bK"}, "name", "der Name eines Spielers"),
    ],
)
def test_a_refused_character_in_a_name_is_refused_in_the_readers_language(fields, field, named):
    """The name check is an algorithm's coded refusal (issue 35): a German sign-up page
    reads it in German, with what was named translated too."""
    with pytest.raises(ServiceError) as caught:
        account_signup(email="ida@example.org", password="a long passphrase", **fields)
    refusal = caught.value
    assert refusal.code and refusal.field == field
    english = refusal.localized()
    with translation.override("de"):
        german = refusal.localized()
    assert "may not contain" in english and "U+200B" in english
    assert german.startswith(named) and "unsichtbares Zeichen" in german and "U+200B" in german
