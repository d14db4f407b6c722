"""Every confirmation returns the person to where they came from (issue 34, item 11): the
e-mail confirmation's mailed link carries the page that sent it, answering an entry and
asking to join go back to the page of the button; a ``next`` or ``Referer`` off this site
(or a scheme-relative or backslash trick) is never followed."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.builders import make_league, make_player, make_user
from tournaments.models import ConfirmedEmail, Entry, League

pytestmark = pytest.mark.django_db

SEND = reverse("tournaments:confirm-email", args=["send"])


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def mailed_path() -> str:
    url = re.search(r"https?://\S+", mail.outbox[-1].body).group(0)
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def test_the_mailed_link_returns_to_the_page_that_sent_it():
    user = make_user("nora")
    c = signed_in(user)
    my_leagues = reverse("tournaments:my-leagues")
    sent = c.post(SEND, {"next": my_leagues})
    assert sent.status_code == 302 and sent["Location"] == my_leagues
    link = mailed_path()
    assert "next=%2Fme%2Fleagues%2F" in link
    # on main: a page offering only "Create a league"
    back = c.get(link)
    assert back.status_code == 302 and back["Location"] == my_leagues
    assert ConfirmedEmail.objects.filter(user=user).exists()
    page = c.get(my_leagues).content.decode()
    assert "Your e-mail address is confirmed." in page
    # in German
    german = signed_in(make_user("nina"))
    german.post(SEND, {"next": my_leagues}, HTTP_ACCEPT_LANGUAGE="de")
    german.get(mailed_path(), HTTP_ACCEPT_LANGUAGE="de")
    assert "Deine E-Mail-Adresse ist bestätigt." in german.get(
        my_leagues, HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode("utf-8")


def test_the_referring_page_is_the_way_back_when_no_next_is_given():
    user = make_user("nora")
    league = make_league(make_user("olga"), "spring", status=League.Status.REGISTRATION)
    c = signed_in(user)
    league_page = reverse("tournaments:league", args=[league.slug])
    sent = c.post(SEND, HTTP_REFERER=f"http://testserver{league_page}?tab=rules")
    assert sent["Location"] == f"{league_page}?tab=rules"
    assert c.get(mailed_path())["Location"] == f"{league_page}?tab=rules"


@pytest.mark.parametrize(
    "evil",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example/",
        "javascript:alert(1)",
        "http://testserver.evil.example/",
    ],
)
def test_a_way_back_off_this_site_is_never_taken(evil):
    user = make_user("nora")
    c = signed_in(user)
    sent = c.post(SEND, {"next": evil}, HTTP_REFERER=evil)
    assert sent["Location"] == reverse("tournaments:my-leagues")
    link = mailed_path()
    assert "next=" not in link and "evil" not in link
    # a link whose next was changed by hand confirms, and stays on this site
    page = c.get(link + "?next=" + evil)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Your e-mail address is confirmed." in html
    assert reverse("tournaments:my-games") in html  # a way on, not only "Create a league"
    assert ConfirmedEmail.objects.filter(user=user).exists()


def test_answering_an_entry_returns_to_the_page_of_the_button():
    player = make_player("Nora", user=make_user("nora"))
    league = make_league(make_user("olga"), "spring", status=League.Status.REGISTRATION)
    entry = Entry.objects.create(league=league, player=player, state=Entry.State.INVITED)
    c = signed_in(player.user)
    my_games = reverse("tournaments:my-games")
    answered = c.post(
        reverse("tournaments:entry-answer", args=[entry.pk]), {"accept": "1", "next": my_games}
    )
    assert answered["Location"] == my_games
    entry.refresh_from_db()
    assert entry.state == Entry.State.ACCEPTED
    # without a way back: My leagues, as before
    other = make_league(make_user("omar"), "autumn", status=League.Status.REGISTRATION)
    entry2 = Entry.objects.create(league=other, player=player, state=Entry.State.INVITED)
    answered = c.post(
        reverse("tournaments:entry-answer", args=[entry2.pk]),
        {"accept": "0", "next": "https://evil.example/"},
    )
    assert answered["Location"] == reverse("tournaments:my-leagues")


def test_asking_to_join_returns_to_the_referring_page():
    player = make_player("Nora", user=make_user("nora"))
    league = make_league(make_user("olga"), "spring", status=League.Status.REGISTRATION)
    League.objects.filter(pk=league.pk).update(registration_open=True)
    c = signed_in(player.user)
    search = reverse("tournaments:search") + "?q=spring"
    joined = c.post(
        reverse("tournaments:join", args=[league.slug]), HTTP_REFERER=f"http://testserver{search}"
    )
    assert joined["Location"] == search
    assert Entry.objects.filter(league=league, player=player).exists()
