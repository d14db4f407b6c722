"""Issue 36, "pages are light (no page over 100 kB on a phone)": every desk and phone page
of a championship day, measured in bytes at 50 and at 200 checked-in players with long
names, one round drawn (counts, not times). The table cards are printed at the desk, not
loaded on a phone, and are left out."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import Entry
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.open_tournaments import open_round_draw
from tournaments.services.players import player_create
from tournaments.services.result_links import result_link_create

BUDGET = 100_000
#: long, real-looking names (the widest rows a venue sees)
FIRST = ["Maximiliane", "Friedrich-Wilhelm", "Anneliese", "Konstantin", "Hildegard"]
LAST = ["Müller-Lüdenscheidt", "von Hohenzollern", "Schwarzenberger", "Oberhauser-Kling"]


def long_name(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i:03d}"


def day_of(players: int):
    org = make_user(f"desk{players}")
    league = league_create(
        owner=org,
        name=f"Landesmeisterschaft {players}",
        format="open",
        games_planned=7,
        points_scheme=[5, 3, 1, 0],
        time_limit_minutes=40,
    )
    for i in range(players):
        entry_add(league=league, player=player_create(name=long_name(i), shared=True), by=org)
    Entry.objects.filter(league=league).update(state="accepted")
    champ.checkin_open(league=league, by=org)
    for entry in league.entries.select_related("league", "player"):
        champ.entry_check_in(entry=entry, by=org)
    open_round_draw(league=league, by=org, seed=3)
    champ.round_clock_start(league=league, by=org)
    return org, league


def page_bytes(players: int) -> dict[str, int]:
    org, league = day_of(players)
    desk = Client()
    desk.force_login(org)
    slug = league.slug
    entry = league.entries.order_by("pk").first()
    _link, link_token = result_link_create(entry=entry, by=org)
    phone = Client()
    table = league.fixtures.get(round=1, number=1)
    league.refresh_from_db()
    token = champ_reads.venue_token(league)
    pages = {
        "desk: check-in list": (desk, reverse("tournaments:desk-checkin", args=[slug])),
        "desk: check-in, a name searched": (
            desk,
            reverse("tournaments:desk-checkin", args=[slug]) + "?q=Anneliese",
        ),
        "desk: check-in, everyone matches": (
            desk,
            reverse("tournaments:desk-checkin", args=[slug]) + "?q=e&page=2",
        ),
        "desk: check-in, one initial": (
            desk,
            reverse("tournaments:desk-checkin", args=[slug]) + "?letter=M",
        ),
        "desk: registration and teams": (
            desk,
            reverse("tournaments:desk-registration", args=[slug]),
        ),
        "desk: tables": (desk, reverse("tournaments:desk-tables", args=[slug])),
        "phone: private link": (phone, reverse("tournaments:result-link", args=[link_token])),
        "phone: venue check-in": (phone, reverse("tournaments:venue-checkin", args=[slug, token])),
        "phone: table page": (phone, reverse("tournaments:table", args=[table.pk])),
        "phone: classification": (phone, reverse("tournaments:classification", args=[slug])),
        "projector page": (phone, reverse("tournaments:projector", args=[slug])),
        "projector fragment": (phone, reverse("tournaments:projector-panels", args=[slug])),
    }
    sizes = {}
    for name, (client, url) in pages.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        sizes[name] = len(response.content)
    return sizes


@pytest.mark.slow
def test_every_desk_and_phone_page_is_under_100_kB_at_50_and_200_players(db):
    small, large = page_bytes(50), page_bytes(200)
    print("\npage bytes at 50 / 200 players:")
    for name in small:
        print(f"  {name:36} {small[name] / 1000:6.1f} / {large[name] / 1000:6.1f} kB")
    heavy = {name: size for name, size in large.items() if size > BUDGET}
    assert not heavy, heavy
    assert all(size <= BUDGET for size in small.values())
