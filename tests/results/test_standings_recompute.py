"""The standings recompute: a fixed number of queries whatever the number of games,
idempotent, and the snapshot replaced whole."""

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from tests.builders import make_user
from tournaments.models import Fixture, League, StandingsRow, StandingsSnapshot
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.results import result_enter
from tournaments.services.schedule import cycle_create
from tournaments.services.standings import leagues_with_stale_standings, standings_recompute


def league_with_results(games: int, players: int = 6):
    owner = make_user()
    league = league_create(owner=owner, name=f"Q{games}", format="2T", drr_count=5)
    for i in range(players):
        entry_add(league=league, player=player_create(name=f"q{games}-{i}", shared=True), by=owner)
    cycle_create(league=league, by=owner, seed=1)
    for n, fixture in enumerate(Fixture.objects.filter(league=league)[:games]):
        seats = list(fixture.seats.all())
        result_enter(fixture=fixture, by=owner, winner=seats[n % 2].entry, reason="OTB")
    return league


def queries_for_recompute(league) -> int:
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    with CaptureQueriesContext(connection) as ctx:
        standings_recompute(league.pk)
    return len(ctx.captured_queries)


@pytest.mark.django_db
def test_query_count_does_not_grow_with_the_number_of_games():
    few, many = league_with_results(2), league_with_results(30)
    standings_recompute(few.pk)
    standings_recompute(many.pk)
    assert queries_for_recompute(few) == queries_for_recompute(many)


@pytest.mark.django_db
def test_recompute_is_idempotent_and_replaces_the_snapshot_whole():
    league = league_with_results(10)
    assert league.pk in leagues_with_stale_standings()
    first = standings_recompute(league.pk)
    assert first["status"] == "recomputed"
    assert league.pk not in leagues_with_stale_standings()
    rows = list(StandingsRow.objects.values_list("entry_id", "rank", "wins", "metrics"))
    assert standings_recompute(league.pk)["status"] == "up to date"
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    assert standings_recompute(league.pk)["status"] == "recomputed"
    assert list(StandingsRow.objects.values_list("entry_id", "rank", "wins", "metrics")) == rows
    assert StandingsSnapshot.objects.filter(league=league).count() == 1
    assert sum(r[2] for r in rows) == 10


@pytest.mark.django_db
def test_an_open_tournament_scores_with_its_own_placement_points():
    from tests.builders import make_fixture, make_league, make_player
    from tournaments.models import Result

    owner = make_user()
    league = make_league(owner, format="open", points_scheme=[5, 3, 2, 1])
    players = [make_player(n) for n in ("Ria", "Sam", "Tom", "Uli")]
    fixture = make_fixture(
        league,
        [(p, [c]) for p, c in zip(players, ("red", "black", "yellow", "green"), strict=True)],
        "red",
    )
    order = [s.entry_id for s in fixture.seats.order_by("position")]
    Result.objects.create(
        fixture=fixture,
        source="organizer",
        state="confirmed",
        winner_id=order[0],
        placings=order,
    )
    League.objects.filter(pk=league.pk).update(results_revision=1)
    standings_recompute(league.pk)
    points = dict(StandingsRow.objects.values_list("entry_id", "points"))
    assert [points[e] for e in order] == [5, 3, 2, 1]  # the default scheme would give 0 last
