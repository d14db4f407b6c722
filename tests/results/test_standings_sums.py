"""The recompute's sums (docs/results.md, "How a recompute reads a league"): PostgreSQL adds
up each entry's values and only head-to-head reads games. Whatever a stored row holds, the
table is the one computed from every game — or the same fault is raised: a row the games'
checks refuse, or read in a way the SQL does not repeat, is never summed."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.builders import make_user
from tournaments.algorithms.standings import compute_standings
from tournaments.models import Entry, Fixture, League, Result
from tournaments.selectors import standings_inputs
from tournaments.selectors.standings_inputs import (
    STALE,
    Tallied,
    entry_sums,
    league_metrics,
    outcomes_for,
    roll_offs_for,
)
from tournaments.services import standings
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.results import result_enter
from tournaments.services.schedule import cycle_create

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the sums are PostgreSQL's"),
]


def league_with_games(games: int = 24, players: int = 5) -> League:
    """A 2T league with counted pawns, colours and times, a forfeit, and ties."""
    owner = make_user()
    league = league_create(owner=owner, name=f"S{games}", format="2T", drr_count=4)
    for i in range(players):
        entry_add(league=league, player=player_create(name=f"s{games}-{i}", shared=True), by=owner)
    cycle_create(league=league, by=owner, seed=1)
    fixtures = list(Fixture.objects.filter(league=league).order_by("pk")[:games])
    for n, fixture in enumerate(fixtures):
        seats = list(fixture.seats.order_by("position"))
        winner, loser = seats[n % 2].entry, seats[1 - n % 2].entry
        result_enter(fixture=fixture, by=owner, winner=winner, reason="OTB")
        Result.objects.filter(fixture=fixture, state=Result.State.CONFIRMED).update(
            placings=[winner.pk, loser.pk],
            counted_pawns={str(winner.pk): 4, str(loser.pk): n % 4},
            completed_colours={str(winner.pk): 2, str(loser.pk): n % 2},
            game_time=600.0 + n * 7.25,
        )
    forfeited = Result.objects.get(fixture=fixtures[-1], state=Result.State.CONFIRMED)
    Result.objects.filter(pk=forfeited.pk).update(forfeit_loser_id=forfeited.placings[1])
    return league


def from_every_game(league: League):
    entries = list(
        league.entries.filter(state=Entry.State.ACCEPTED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    try:
        rows = compute_standings(
            entries, outcomes_for(league), league_metrics(league), roll_offs=roll_offs_for(league)
        )
    except Exception as exc:  # the same fault, or the same table
        return repr(exc)
    return [(r.entry, r.rank, dict(r.values), r.separated_by) for r in rows]


def as_recomputed(league: League):
    try:
        _, rows = standings._computed_table(league)
    except Exception as exc:
        return repr(exc)
    return [(r.entry, r.rank, dict(r.values), r.separated_by) for r in rows]


def entries_of(league: League) -> list[int]:
    return list(league.entries.order_by("pk").values_list("pk", flat=True))


def test_a_plain_league_is_summed_and_ranked_as_from_every_game():
    league = league_with_games()
    assert entry_sums(league, entries_of(league)) is not None
    assert as_recomputed(league) == from_every_game(league)


def _first(league: League):
    result = Result.objects.filter(
        fixture__league=league, state=Result.State.CONFIRMED, forfeit_loser__isnull=True
    ).order_by("fixture_id")[0]
    return result, result.placings[0], result.placings[1]


#: each changes the first counted result (``w`` won it, ``o`` the other player);
#: ``plain``: whether it may still be summed
CHANGES = {
    "a key that is no entry": (lambda w, o: {"counted_pawns": {"x": 4, str(o): 1}}, False),
    "a count that is not whole": (
        lambda w, o: {"counted_pawns": {str(w): 4.5, str(o): 1}},
        False,
    ),
    "a count as text": (lambda w, o: {"completed_colours": {str(w): "2"}}, False),
    "a negative count": (lambda w, o: {"completed_colours": {str(w): -1}}, False),
    "a count as true": (lambda w, o: {"completed_colours": {str(w): True}}, False),
    "pawns of one player": (lambda w, o: {"counted_pawns": {str(w): 4}}, False),
    "a key written 0-first": (lambda w, o: {"counted_pawns": {f"0{w}": 4, str(o): 1}}, False),
    "a stranger placed": (lambda w, o: {"placings": [w, 999999]}, False),
    "a player placed twice": (lambda w, o: {"placings": [w, o, o]}, False),
    "an id as a float (equal: read alike)": (lambda w, o: {"placings": [w, float(o)]}, True),
    "an id as text": (lambda w, o: {"placings": [w, str(o)]}, False),
    "placings as an object": (lambda w, o: {"placings": {}}, False),
    "placings as a number": (lambda w, o: {"placings": 5}, False),
    "a stranger's colour": (lambda w, o: {"colour_places": [w, 999999]}, False),
    "a colour twice is fine": (lambda w, o: {"colour_places": [w, w, o]}, True),
    "both finished twice": (lambda w, o: {"both_finished": [w, w]}, False),
    "the loser forfeited and won": (lambda w, o: {"forfeit_loser_id": w}, False),
    "a time of NaN": (lambda w, o: {"game_time": float("nan")}, True),
    "a time beyond any game's": (lambda w, o: {"game_time": 1.7e308}, True),
    "no time": (lambda w, o: {"game_time": None}, True),
    "no pawns": (lambda w, o: {"counted_pawns": {}}, True),
    "no winner": (lambda w, o: {"winner_id": None, "placings": []}, True),
}


@pytest.mark.parametrize("change", CHANGES)
def test_whatever_a_row_holds_the_table_or_the_fault_is_the_games_own(change):
    league = league_with_games()
    result, winner, loser = _first(league)
    fields, plain = CHANGES[change]
    Result.objects.filter(pk=result.pk).update(**fields(winner, loser))
    assert (entry_sums(league, entries_of(league)) is not None) == plain
    assert as_recomputed(league) == from_every_game(league)


def test_ties_read_the_games_of_the_tied_only_in_one_query(monkeypatch):
    """By the summing statement (the kept sums' fallback: they keep head-to-head per pair
    and read no game, test_standings_kept_sums.py), head-to-head reads only the games of
    the tied, in one query."""
    league = league_with_games(games=6, players=6)
    asked = []
    real = standings_inputs.outcomes_among

    def spy(league, classes):
        asked.append(classes)
        return real(league, classes)

    monkeypatch.setattr(standings, "outcomes_among", spy)
    monkeypatch.setattr(standings, "tallied_sums", lambda *_: Tallied(STALE))  # none kept
    monkeypatch.setattr(standings, "standings_sums_rebuild", lambda _: None)
    assert as_recomputed(league) == from_every_game(league)
    assert len(asked) == 1 and asked[0]  # some are tied on wins
    games = real(league, asked[0])
    assert len(games) < len(outcomes_for(league))
