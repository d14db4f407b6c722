"""Issue 36, a series with qualifiers: the best N of each regional event qualify for a
final event. The rule as a plain function (hypothesis: the qualifiers are exactly the best
N by each region's classification; a player qualified in two regions takes one place,
where they ranked better, and the next one there moves up; a tie at the cut is refused
until a die roll is recorded), the service that carries the entries over (idempotent,
under the final's lock), and the final's pages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.builders import make_user
from tests.concurrently import run_concurrently
from tournaments.algorithms.championship import Placed, qualifiers
from tournaments.models import Entry, League
from tournaments.selectors import championship as champ_reads
from tournaments.services import open_tournaments as series
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.leagues import entry_add, entry_withdraw, league_create
from tournaments.services.open_tournaments import open_final_table, open_round_draw
from tournaments.services.players import player_create
from tournaments.services.results import result_enter

# --- the rule, as a plain function --------------------------------------------------------


@st.composite
def series_tables(draw):
    """1–4 regions over a pool of players (some play in several), each region's
    classification as competition ranks of drawn points (equal points: tied)."""
    pool = draw(st.integers(2, 14))
    regions = {}
    for region in range(draw(st.integers(1, 4))):
        players = draw(st.lists(st.integers(0, pool - 1), min_size=1, max_size=8, unique=True))
        points = {p: draw(st.integers(0, 6)) for p in players}
        regions[f"R{region}"] = [
            Placed(p, 1 + sum(1 for q in players if points[q] > points[p])) for p in players
        ]
    return regions


def rank_in(table, player):
    return next((p.rank for p in table if p.player == player), None)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(regions=series_tables(), places=st.integers(1, 4))
def test_qualifiers_are_the_best_n_with_each_player_once(regions, places):
    chosen = qualifiers(regions, places)
    players = [q.player for q in chosen]
    assert len(players) == len(set(players))  # a player takes one place
    order = list(regions)
    for region, table in regions.items():
        sent = [q for q in chosen if q.region == region and not q.tied]
        tied = [q for q in chosen if q.region == region and q.tied]
        assert len(sent) <= places
        # players still tied at the cut go too: same rank as the last one sent
        assert all(len(sent) == places and q.rank == sent[-1].rank for q in tied)
        # nobody of this region is left out who ranks better than one of its qualifiers,
        # or ties with its last one, unless they qualified elsewhere
        for q in sent:
            assert all(p.player in players for p in table if p.rank <= q.rank)
        # fewer than N only when every player of the region has a place somewhere
        if len(sent) < places:
            assert all(p.player in players for p in table)
    # a player qualified where they ranked better (equal: the region first in order), or
    # the better region was full of claims at least as good
    for q in chosen:
        mine = (q.rank, order.index(q.region))
        for region, table in regions.items():
            there = rank_in(table, q.player)
            if region == q.region or there is None or (there, order.index(region)) >= mine:
                continue
            full = [x for x in chosen if x.region == region and not x.tied]
            assert len(full) == places and all(x.rank <= there for x in full)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(regions=series_tables(), places=st.integers(1, 4))
def test_with_different_players_everywhere_the_best_n_of_each_region_qualify(regions, places):
    seen, distinct = set(), {}
    for region, table in regions.items():
        kept = [p for p in table if p.player not in seen]
        seen |= {p.player for p in kept}
        if kept:
            distinct[region] = [
                Placed(p.player, sorted(x.rank for x in kept).index(p.rank) + 1) for p in kept
            ]
    chosen = qualifiers(distinct, places)
    for region, table in distinct.items():
        best = sorted(table, key=lambda p: p.rank)[:places]
        cut = best[-1].rank  # and everyone tied with the last of them
        sent = {q.player for q in chosen if q.region == region}
        assert sent == {p.player for p in table if p.rank <= cut}
        assert all(q.tied == q.moved_up for q in chosen)


def test_a_player_qualified_twice_keeps_the_better_place_and_the_next_moves_up():
    regions = {
        "north": [Placed("ann", 1), Placed("bob", 2), Placed("cid", 3)],
        "south": [Placed("dan", 1), Placed("ann", 2), Placed("eve", 3)],
    }
    chosen = qualifiers(regions, 2)
    assert [(q.player, q.region, q.moved_up) for q in chosen] == [
        ("ann", "north", False),
        ("bob", "north", False),
        ("dan", "south", False),
        ("eve", "south", True),  # moved up into ann's place
    ]
    # equal ranks in two regions: the region first in the series' order keeps the player
    same = {
        "north": [Placed("ann", 1), Placed("bob", 2)],
        "south": [Placed("ann", 1), Placed("cid", 2)],
    }
    assert [(q.player, q.region) for q in qualifiers(same, 1)] == [
        ("ann", "north"),
        ("cid", "south"),
    ]


def test_players_still_tied_at_the_cut_all_qualify_and_a_tie_above_it_changes_nothing():
    regions = {"r": [Placed("a", 1), Placed("b", 2), Placed("c", 2), Placed("d", 4)]}
    chosen = qualifiers(regions, 2)
    assert [(q.player, q.tied) for q in chosen] == [("a", False), ("b", False), ("c", True)]
    assert [(q.player, q.tied) for q in qualifiers(regions, 3)] == [
        ("a", False),
        ("b", False),
        ("c", False),
    ]
    with pytest.raises(ValueError):
        qualifiers(regions, 0)


# --- the service: carrying the entries over -------------------------------------------------


def region_event(org, name, players, *, final_table=0, places=2, final=None):
    """A finished regional event: one round at one table (or two, with a final table) in
    the order of ``players`` (the first wins)."""
    league = league_create(
        owner=org,
        name=name,
        format="open",
        games_planned=1,
        points_scheme=[5, 3, 1, 0],
        final_table_size=final_table,
        confirmation_required=False,
    )
    entries = {p.name: entry_add(league=league, player=p, by=org) for p in players}
    Entry.objects.filter(league=league).update(state="accepted")
    open_round_draw(league=league, by=org, seed=1)
    rank = {entries[p.name].pk: i for i, p in enumerate(players)}
    for table in league.fixtures.filter(round=1):
        seats = sorted(table.seats.values_list("entry_id", flat=True), key=rank.get)
        result_enter(fixture=table, by=org, placings=seats, reason="sheet")
    if final_table:
        fixture = open_final_table(league=League.objects.get(pk=league.pk), by=org)
        seats = sorted(fixture.seats.values_list("entry_id", flat=True), key=rank.get)
        result_enter(fixture=fixture, by=org, placings=seats[::-1], reason="sheet")
    if final is not None:
        series.league_set_qualification(league=league, by=org, final=final, places=places)
    return League.objects.get(pk=league.pk)


@pytest.fixture
def cup(db):
    org = make_user("olga")
    people = {
        n: player_create(name=n, shared=True)
        for n in ["Anna", "Bert", "Cleo", "Dora", "Emil", "Fritz", "Gina"]
    }
    final = league_create(owner=org, name="German Final", format="open", games_planned=2)
    north = region_event(
        org, "North", [people[n] for n in ["Anna", "Bert", "Cleo", "Dora"]], final=final
    )
    south = region_event(
        org, "South", [people[n] for n in ["Emil", "Anna", "Fritz", "Gina"]], final=final
    )
    return org, final, north, south, people


def carried(final):
    return {
        e.player.name: (e.qualified_from.name, e.qualified_place, e.state)
        for e in Entry.objects.filter(league=final).select_related("player", "qualified_from")
    }


def test_the_qualifiers_are_carried_over_once_with_where_they_qualified(cup):
    org, final, _north, _south, _people = cup
    assert series.series_qualifiers_carry(final=final, by=org) == (4, 0)
    assert carried(final) == {
        "Anna": ("North", 1, "accepted"),
        "Bert": ("North", 2, "accepted"),
        "Emil": ("South", 1, "accepted"),
        "Fritz": ("South", 3, "accepted"),  # Anna's place in the south: the next moves up
    }
    assert series.series_qualifiers_carry(final=final, by=org) == (0, 4)  # idempotent
    assert Entry.objects.filter(league=final).count() == 4


def test_a_qualifier_who_withdraws_from_the_final_lets_the_next_one_move_up(cup):
    org, final, _north, _south, _people = cup
    series.series_qualifiers_carry(final=final, by=org)
    bert = Entry.objects.get(league=final, player__name="Bert")
    entry_withdraw(entry=bert, by=org)
    assert series.series_qualifiers_carry(final=final, by=org) == (1, 3)
    assert carried(final)["Cleo"] == ("North", 3, "accepted")  # moved up into Bert's place
    listed = [e.player.name for e in champ_reads.qualifiers_of(final)]
    assert listed == ["Anna", "Cleo", "Emil", "Fritz"]  # Bert withdrew: not listed


def test_two_desks_carrying_at_once_enter_each_qualifier_once(transactional_db):
    org = make_user("olga")
    people = [player_create(name=n, shared=True) for n in ["Anna", "Bert", "Cleo", "Dora"]]
    final = league_create(owner=org, name="Final", format="open", games_planned=2)
    region_event(org, "North", people, final=final)
    outcomes = run_concurrently(
        lambda: series.series_qualifiers_carry(final=final, by=org),
        lambda: series.series_qualifiers_carry(final=final, by=org),
    )
    assert sorted(outcomes) == [(0, 2), (2, 0)]
    assert Entry.objects.filter(league=final).count() == 2


def test_the_final_table_orders_a_region_and_players_tied_at_the_cut_all_go(db):
    org = make_user("olga")
    people = [player_create(name=f"P{i}", shared=True) for i in range(8)]
    final = league_create(owner=org, name="Final", format="open", games_planned=2)
    region = region_event(org, "West", people, final_table=4, places=4, final=final)
    series.series_qualifiers_carry(final=final, by=org)
    # the final table's placings (reversed here) decide places 1-4
    places = {name: place for name, (_r, place, _s) in carried(final).items()}
    table = region.fixtures.get(stage="final")
    finalists = set(table.seats.values_list("entry__player__name", flat=True))
    assert set(places) == finalists and sorted(places.values()) == [1, 2, 3, 4]
    # five places: the two thirds of round 1 are tied (no roll was recorded): both go
    series.league_set_qualification(league=region, by=org, final=final, places=5)
    assert series.series_qualifiers_carry(final=final, by=org) == (2, 4)
    fifth = [name for name, (_r, place, _s) in carried(final).items() if place == 5]
    assert len(fifth) == 2 and len(carried(final)) == 6


def test_refusals(cup):
    org, final, north, _south, people = cup
    other = make_user("otto")
    with pytest.raises(NotAllowed):
        series.series_qualifiers_carry(final=final, by=other)
    with pytest.raises(ServiceError) as itself:
        series.league_set_qualification(league=north, by=org, final=north, places=2)
    assert itself.value.code == "qualifier_final_self"
    with pytest.raises(ServiceError) as none:
        series.league_set_qualification(league=north, by=org, final=final, places=0)
    assert none.value.code == "qualifier_places_min"
    unfinished = league_create(owner=org, name="East", format="open", games_planned=1)
    for n in ["Anna", "Bert", "Cleo"]:
        entry_add(league=unfinished, player=people[n], by=org)
    series.league_set_qualification(league=unfinished, by=org, final=final, places=1)
    with pytest.raises(ServiceError) as early:
        series.series_qualifiers_carry(final=final, by=org)
    assert early.value.code == "qualifier_region_unfinished"
    lonely = league_create(owner=org, name="Lonely", format="open", games_planned=1)
    with pytest.raises(ServiceError) as nobody:
        series.series_qualifiers_carry(final=lonely, by=org)
    assert nobody.value.code == "qualifier_no_regions"


# --- the pages ------------------------------------------------------------------------------


def test_the_desk_names_the_final_and_carries_over_and_the_final_lists_them(client, cup):
    org, final, north, _south, _people = cup
    client.force_login(org)
    region_desk = reverse("tournaments:desk-registration", args=[north.slug])
    page = client.get(region_desk).content.decode()
    assert f'value="{final.slug}" selected' in page
    client.post(region_desk, {"action": "qualification", "final": final.slug, "places": "1"})
    assert League.objects.get(pk=north.pk).qualifier_places == 1
    client.post(region_desk, {"action": "qualification", "final": final.slug, "places": "2"})
    desk = reverse("tournaments:desk-registration", args=[final.slug])
    page = client.get(desk).content.decode()
    assert "North" in page and "South" in page and "Carry the qualifiers over" in page
    assert client.post(desk, {"action": "carry"}).status_code == 302
    assert len(carried(final)) == 4
    public = Client().get(reverse("tournaments:classification", args=[final.slug]))
    body = public.content.decode()
    assert "Qualifiers" in body and "Qualified in" in body
    assert body.index("Anna") < body.index("Fritz")  # by region, then place
    region_page = Client().get(reverse("tournaments:classification", args=[north.slug]))
    assert "The best 2 players qualify for German Final." in region_page.content.decode()


def test_the_final_lists_its_qualifiers_in_german(cup):
    org, final, _north, _south, _people = cup
    series.series_qualifiers_carry(final=final, by=org)
    body = (
        Client(HTTP_ACCEPT_LANGUAGE="de")
        .get(reverse("tournaments:classification", args=[final.slug]))
        .content.decode()
    )
    assert "Qualifiziert" in body and "Qualifiziert in" in body
