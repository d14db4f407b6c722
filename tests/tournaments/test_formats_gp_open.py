"""Issue 13 points 7 and 8 through the services, from the regulation's words: the Grand
Prix in full ("three players × two opposite colours on board 6", "extra games are added
while the top is tied; games left are cancelled once the winner is certain", the starting
die rolls kept) and open tournaments ("tables of 3–4 drawn by lot each round, colours
redrawn each round", placement points configurable, "after the preliminary rounds the best
four play a final table")."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from games.engine import outcome, simulate_game
from tests.builders import make_user
from tournaments.algorithms import open_draw
from tournaments.models import Fixture, Result
from tournaments.services.errors import ServiceError
from tournaments.services.events import (
    event_schedule,
    grand_prix_points,
    grand_prix_progress,
    grand_prix_state,
)
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.open_tournaments import (
    draw_history,
    open_final_ranking,
    open_final_table,
    open_round_draw,
)
from tournaments.services.players import player_create
from tournaments.services.results import game_log_submit
from tournaments.services.tie_breaks import game_tie_roll_record, tie_break_roll_record

BOARD6 = ("red", "black", "yellow", "green", "blue", "white")
GP_PLACES = (10, 6, 4, 3, 2, 1)


@pytest.fixture
def organizer(db):
    return make_user("organizer")


def event_with(organizer, names, **kw):
    league = league_create(owner=organizer, name=kw.pop("name", "Event"), **kw)
    entries = [
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
        for name in names
    ]
    return league, entries


def simulate(fixture: Fixture, rules: str, seed: int, **kw) -> dict:
    seats = list(fixture.seats.select_related("entry__player"))
    return simulate_game(
        rules=rules,
        board=fixture.league.board,
        players={s.entry.player.name: list(s.colours) for s in seats},
        first=fixture.starting_colour,
        bots="heuristic",
        seed=seed,
        **kw,
    )


def count(fixture: Fixture, places: list[int]) -> None:
    """A counted GP game whose colour places (owner of places 1–6) are ``places``."""
    Result.objects.create(
        fixture=fixture, source="organizer", state="confirmed", colour_places=places
    )
    fixture.status = Fixture.Status.CONFIRMED
    fixture.save()


def test_a_grand_prix_on_board_six_seats_three_players_on_opposite_pairs(organizer):
    league, _ = event_with(
        organizer,
        ["Ann", "Ben", "Cat"],
        format="GP",
        board=6,
        event_kind="grand-prix",
        games_planned=3,
        confirmation_required=False,
    )
    event_schedule(league=league, by=organizer, seed=4)
    games = list(league.fixtures.order_by("number").prefetch_related("seats__entry__player"))
    assert len(games) == 3
    for game in games:
        pairs = sorted(tuple(sorted(s.colours)) for s in game.seats.all())
        # opposite pairs of board 6: red+green, black+blue, yellow+white
        assert pairs == [("black", "blue"), ("green", "red"), ("white", "yellow")]
        # the starting colour is the highest roll of the last roll round, which is kept
        last = game.start_rolls[-1]
        assert game.starting_colour == max(last, key=last.get)
        assert list(last.values()).count(max(last.values())) == 1
        assert set(game.start_rolls[0]) == set(BOARD6)

    log = simulate(games[0], "league-gp", seed=9)
    game_log_submit(fixture=games[0], content=json.dumps(log), by=organizer)
    # GP points by hand: 10/6/4/3/2/1 per colour place, 2 to the first with both home
    owner = {c: s.entry_id for s in games[0].seats.all() for c in s.colours}
    expected = {s.entry_id: 0 for s in games[0].seats.all()}
    home = Counter()
    bonus_given = False
    for place, colour in enumerate(outcome(log).placings):
        expected[owner[colour]] += GP_PLACES[place]
        home[owner[colour]] += 1
        if home[owner[colour]] == 2 and not bonus_given:
            expected[owner[colour]] += 2
            bonus_given = True
    assert grand_prix_points(league) == expected


def test_games_left_are_cancelled_once_the_grand_prix_winner_is_certain(organizer):
    league, (a, b, c) = event_with(
        organizer,
        ["Ann", "Ben", "Cat"],
        format="GP",
        board=6,
        event_kind="grand-prix",
        games_planned=4,
    )
    event_schedule(league=league, by=organizer, seed=1)
    games = list(league.fixtures.order_by("number"))
    ann_first = [a.pk, a.pk, b.pk, b.pk, c.pk, c.pk]  # Ann 10+6+2, Ben 4+3, Cat 2+1
    for game in games[:2]:
        count(game, ann_first)
    grand_prix_progress(league)
    # 36 – 14 – 6 with two games left: Ben can still gain 2 × 15 = 30 → not certain
    assert not league.fixtures.filter(status="cancelled").exists()
    count(games[2], ann_first)
    grand_prix_progress(league)
    # 54 – 21 – 9 with one game left: 21 + 15 < 54 → Ann has won; game 4 is cancelled
    games[3].refresh_from_db()
    assert games[3].status == "cancelled" and games[3].cancel_reason == "decided"
    assert grand_prix_state(league).winner == a.pk


def test_an_extra_game_is_added_while_the_top_is_tied(organizer):
    league, (a, b, c) = event_with(
        organizer,
        ["Ann", "Ben", "Cat"],
        format="GP",
        board=6,
        event_kind="grand-prix",
        games_planned=1,
    )
    event_schedule(league=league, by=organizer, seed=1)
    (game,) = league.fixtures.all()
    # Ann places 1 and 5 (10 + 2), Ben 2 and 3 (6 + 4 + 2 bonus), Cat 4 and 6 (3 + 1)
    count(game, [a.pk, b.pk, b.pk, c.pk, a.pk, c.pk])
    grand_prix_progress(league)
    assert grand_prix_points(league) == {a.pk: 12, b.pk: 12, c.pk: 4}
    extra = league.fixtures.exclude(pk=game.pk).get()
    assert extra.label == "GP 2 (extra)" and extra.starting_colour and extra.start_rolls


def draw_pairs(fixtures) -> Counter:
    met = Counter()
    for fixture in fixtures:
        players = [s.entry_id for s in fixture.seats.all()]
        met.update(frozenset(p) for p in itertools.combinations(players, 2))
    return met


def play_round(league, organizer, number, seed):
    for fixture in league.fixtures.filter(round=number).prefetch_related("seats__entry__player"):
        log = simulate(fixture, "classic", seed=seed + fixture.number)
        game_log_submit(fixture=fixture, content=json.dumps(log), by=organizer)


def test_an_open_tournament_draws_rounds_and_the_best_four_play_the_final_table(organizer):
    names = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
    league, entries = event_with(
        organizer,
        names,
        format="open",
        games_planned=2,
        points_scheme=[5, 3, 2, 1],
        time_limit_minutes=40,
        confirmation_required=False,
    )
    open_round_draw(league=league, by=organizer, seed=77)
    first = list(league.fixtures.filter(round=1).prefetch_related("seats"))
    assert sorted(len(f.seats.all()) for f in first) == [4, 4]  # 8 players → 4 + 4
    seated = [s.entry_id for f in first for s in f.seats.all()]
    assert sorted(seated) == sorted(e.pk for e in entries)  # everybody plays exactly once
    for fixture in first:
        colours = [s.colours[0] for s in fixture.seats.all()]
        assert len(set(colours)) == len(colours)  # no colour twice at a table
    with pytest.raises(ServiceError, match="no counted result yet"):
        open_round_draw(league=league, by=organizer)
    play_round(league, organizer, 1, seed=100)
    open_round_draw(league=league, by=organizer)
    second = list(league.fixtures.filter(round=2).prefetch_related("seats"))
    # reproducible: the stored seed, the players and round 1 give exactly round 2 again
    league.refresh_from_db()
    again = open_draw.draw_round(
        [e.pk for e in entries], draw_history(league)[:1], seed=league.draw_seed
    )
    stored = {
        f.number: [(s.entry_id, s.colours[0]) for s in f.seats.order_by("position")] for f in second
    }
    assert stored == {t.number: [(s.player, s.colour) for s in t.seats] for t in again.tables}
    assert league.open_rounds.get(number=2).seed == str(league.draw_seed) == "77"
    # 8 players at 4 + 4: a round-2 table of four holds at most one player of each
    # round-1 table without a repeat, so repeats cannot be avoided; as few as possible is
    # two from each round-1 table at each table: every player meets exactly one again
    met = draw_pairs(first + second)
    repeats = Counter(p for pair, n in met.items() if n > 1 for p in pair)
    assert repeats == Counter({e.pk: 1 for e in entries})
    with pytest.raises(ServiceError, match="all 2 preliminary rounds are drawn"):
        open_round_draw(league=league, by=organizer)
    with pytest.raises(ServiceError, match="no counted result yet"):
        open_final_table(league=league, by=organizer)
    play_round(league, organizer, 2, seed=200)

    # the preliminary ranking by hand: placement points 5/3/2/1, then games won
    points, wins = Counter(), Counter()
    for result in Result.objects.filter(fixture__league=league, state="confirmed"):
        for place, entry in enumerate(result.placings):
            points[entry] += (5, 3, 2, 1)[place]
        wins[result.winner_id] += 1
    ranked = sorted((e.pk for e in entries), key=lambda e: (-points[e], -wins[e]))
    key = {e: (points[e], wins[e]) for e in ranked}
    at_cut = [e for e in ranked if key[e] == key[ranked[3]]]
    name = {e.pk: e.player.name for e in entries}
    if len(at_cut) > 1 and ranked.index(at_cut[-1]) >= 4:  # a tie across the cut
        with pytest.raises(ServiceError, match="tied for the last place at the final table"):
            open_final_table(league=league, by=organizer)
        rolls = {name[e]: 6 - i for i, e in enumerate(at_cut)}  # first listed rolls highest
        tie_break_roll_record(league=league, by=organizer, rolls=[rolls])
        ranked = sorted(ranked, key=lambda e: (-points[e], -wins[e], -rolls.get(name[e], 0)))
    final = open_final_table(league=league, by=organizer)
    finalists = [s.entry_id for s in final.seats.order_by("position")]
    assert finalists == ranked[:4]  # the best four, best first
    assert final.stage == "final" and final.label == "Final table"
    log = simulate(final, "classic", seed=300)
    game_log_submit(fixture=final, content=json.dumps(log), by=organizer)
    result = final.results.get(state="confirmed")
    league.refresh_from_db()
    assert league.status == "finished"  # the final table decided the tournament
    order = open_final_ranking(league)
    assert order[:4] == result.placings  # places 1–4 decided by the final table
    assert set(order[4:]) == set(ranked) - set(finalists)


def test_a_remaining_tie_on_count_points_goes_to_the_recorded_die_roll(organizer):
    league, _entries = event_with(
        organizer,
        ["Q1", "Q2", "Q3", "Q4"],
        format="open",
        games_planned=1,
        final_table_size=0,
        time_limit_minutes=25,
        confirmation_required=False,
    )
    open_round_draw(league=league, by=organizer, seed=5)
    (fixture,) = league.fixtures.prefetch_related("seats__entry__player")
    log = simulate(fixture, "classic", seed=1)
    log["events"] = []  # the time limit struck at once: one pawn each on its start field
    result = game_log_submit(fixture=fixture, content=json.dumps(log), by=organizer)
    assert set(result.count_points.values()) == {10}  # start field 10, the yard 0
    names = {s.entry_id: s.entry.player.name for s in fixture.seats.all()}
    rolls = [{"Q1": 6, "Q2": 2, "Q3": 4, "Q4": 1}]
    game_tie_roll_record(fixture=fixture, by=organizer, rolls=rolls)
    placed = fixture.results.get(state="confirmed")
    assert [names[e] for e in placed.placings] == ["Q1", "Q3", "Q2", "Q4"]
    with pytest.raises(ServiceError, match="nothing to roll for"):
        game_tie_roll_record(fixture=fixture, by=organizer, rolls=rolls)
