"""Issue 36, check-in through the pages: the desk's list (search, exact code, plain forms
and the JSON answer the page's script uses), the venue's QR code for a signed-in player
and, through the private result link, for a player without an account."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import Entry
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.result_links import result_link_create


@pytest.fixture
def day(db):
    org = make_user("olga")
    anna = make_user("anna_u")
    league = league_create(
        owner=org, name="Open Day", format="open", games_planned=2, points_scheme=[5, 3, 1, 0]
    )
    entries = []
    for i, name in enumerate(["Anna", "Bert", "Cleo", "Dora", "Emil"]):
        player = player_create(name=name, shared=True)
        if i == 0:
            player.user = anna
            player.save()
        entries.append(entry_add(league=league, player=player, by=org))
    Entry.objects.filter(league=league).update(state="accepted")
    return {"org": org, "anna": anna, "league": league, "entries": entries}


def url(day):
    return reverse("tournaments:desk-checkin", args=[day["league"].slug])


def test_the_desk_list_searches_by_name_and_by_exact_code(client, day):
    client.force_login(day["org"])
    page = client.get(url(day))
    assert page.status_code == 200
    assert all(n in page.content.decode() for n in ["Anna", "Bert", "Emil"])
    assert len(page.content) < 100_000
    code = champ_reads.checkin_code(day["entries"][2])
    found = client.get(url(day), {"q": code}).content.decode()
    assert "Cleo" in found and "Bert" not in found and "Check-in code found." in found
    assert "Bert" in client.get(url(day), {"q": "ber"}).content.decode()


def test_only_organizers_see_the_list(client, day):
    client.force_login(day["anna"])
    assert client.get(url(day)).status_code == 403
    client.logout()
    assert client.get(url(day)).status_code == 302  # log in first


def test_plain_forms_and_json_mark_checked_in_and_paid(client, day):
    client.force_login(day["org"])
    bert = day["entries"][1]
    answer = client.post(url(day), {"entry": bert.pk, "action": "in", "q": "Ber"})
    assert answer.status_code == 302 and answer["Location"].endswith("?q=Ber")
    assert Entry.objects.get(pk=bert.pk).checked_in_at is not None
    answer = client.post(
        url(day), {"entry": bert.pk, "action": "paid"}, HTTP_ACCEPT="application/json"
    )
    assert answer.json() == {"entry": bert.pk, "checked_in": True, "paid": True}
    client.post(url(day), {"entry": bert.pk, "action": "out"})
    assert Entry.objects.get(pk=bert.pk).checked_in_at is None
    other = league_create(owner=day["org"], name="Other", format="open", games_planned=1)
    stranger = entry_add(league=other, player=player_create(name="Zed", shared=True), by=day["org"])
    assert client.post(url(day), {"entry": stranger.pk, "action": "in"}).status_code == 404


def test_a_signed_in_player_checks_in_at_the_venue(client, day):
    client.force_login(day["org"])
    client.post(url(day), {"action": "open"})
    league = type(day["league"]).objects.get(pk=day["league"].pk)
    token = champ_reads.venue_token(league)
    poster = client.get(reverse("tournaments:venue-poster", args=[league.slug]))
    assert poster.status_code == 200 and b"<svg" in poster.content
    venue = reverse("tournaments:venue-checkin", args=[league.slug, token])
    client.force_login(day["anna"])
    assert "Check me in" in client.get(venue).content.decode()
    client.post(venue)
    assert Entry.objects.get(pk=day["entries"][0].pk).checked_in_at is not None
    wrong = reverse("tournaments:venue-checkin", args=[league.slug, "a" * 20])
    assert client.get(wrong).status_code == 404


def test_a_player_without_an_account_checks_in_through_the_link(client, day):
    cleo = day["entries"][2]
    _, link_token = result_link_create(entry=cleo, by=day["org"])
    league = champ.checkin_open(league=day["league"], by=day["org"])
    link_page = reverse("tournaments:result-link", args=[link_token])
    before = client.get(link_page).content.decode()
    assert "scan the check-in QR code at the venue first" in before
    client.post(reverse("tournaments:result-link-checkin", args=[link_token]))
    assert Entry.objects.get(pk=cleo.pk).checked_in_at is None  # no venue code: refused
    client.get(
        reverse("tournaments:venue-checkin", args=[league.slug, champ_reads.venue_token(league)])
    )
    page = client.get(link_page).content.decode()
    assert 'action="/r/' in page and "Check in" in page
    client.post(reverse("tournaments:result-link-checkin", args=[link_token]))
    assert Entry.objects.get(pk=cleo.pk).checked_in_at is not None
    assert "You are checked in." in client.get(link_page).content.decode()


# --- h-champ: the list at a championship's size (paged, by initial letter) ----------------


@pytest.fixture
def big_day(db):
    org = make_user("otto")
    league = league_create(owner=org, name="Big Day", format="open", games_planned=2)
    names = [f"{first} {i:03d}" for i, first in enumerate(["Ärger", "Berta", "Zora"] * 40)]
    for name in names:
        entry_add(league=league, player=player_create(name=name, shared=True), by=org)
    Entry.objects.filter(league=league).update(state="accepted")
    return org, league


def test_the_big_list_is_paged_and_filed_by_initial_letter(client, big_day):
    org, league = big_day
    client.force_login(org)
    desk = reverse("tournaments:desk-checkin", args=[league.slug])
    first = client.get(desk).content.decode()
    assert first.count('<li class="ck') == 50 and "page 1 of 3" in first
    assert "?letter=A" in first and "?letter=Z" in first  # "Ärger" is filed under A
    zora = client.get(desk, {"letter": "Z"}).content.decode()
    assert zora.count('<li class="ck') == 40 and "Berta" not in zora
    last = client.get(desk, {"page": 3}).content.decode()
    assert last.count('<li class="ck') == 20 and 'aria-current="page">page 3 of 3' in last
    # the counts stay over the whole field on every page
    assert '<strong data-count="in">0</strong>' in zora


def test_a_scanned_code_finds_its_row_whatever_the_page(client, big_day):
    org, league = big_day
    client.force_login(org)
    desk = reverse("tournaments:desk-checkin", args=[league.slug])
    late = league.entries.order_by("-player__name").first()  # on the last page
    found = client.get(desk, {"q": champ_reads.checkin_code(late) + "\n"}).content.decode()
    assert found.count('<li class="ck') == 1 and late.player.name in found


def test_a_plain_form_comes_back_to_the_same_page_and_letter(client, big_day):
    org, league = big_day
    client.force_login(org)
    desk = reverse("tournaments:desk-checkin", args=[league.slug])
    zora = league.entries.filter(player__name__startswith="Zora").first()
    answer = client.post(desk, {"act": f"in:{zora.pk}", "letter": "Z", "page": "1", "q": ""})
    assert answer.status_code == 302 and answer["Location"].endswith("?letter=Z&page=1")
    assert Entry.objects.get(pk=zora.pk).checked_in_at is not None
