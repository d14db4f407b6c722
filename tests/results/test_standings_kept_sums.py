"""The standings sums kept by the counting transaction (issue 31, docs/results.md "Sums kept
by the counting transaction"): after every change of a counted result — through the
services, or a row of any kind counted through the hook — the kept per-entry sums are the
ones the summing statement adds up from every seat, and the table is the one computed from
every game (or the same fault); the recompute then reads no seat; a setting that changes
which results count makes them rebuilt; concurrent uploads are each added once."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from tests.results.test_standings_sums import (
    CHANGES,
    _first,
    as_recomputed,
    from_every_game,
    league_with_games,
)
from tournaments.algorithms.standings import total_time
from tournaments.models import (
    Entry,
    Fixture,
    League,
    Result,
    Seat,
    Series,
    StandingsSnapshot,
    StandingsTally,
    StandingsTallyEntry,
)
from tournaments.selectors.standings_inputs import (
    NOT_PLAIN,
    STALE,
    SUMMED,
    entry_sums,
    tallied_sums,
)
from tournaments.services import standings, standings_sums
from tournaments.services.leagues import entry_withdraw
from tournaments.services.results import (
    forfeit_record,
    result_confirm,
    result_enter,
    result_void,
)
from tournaments.services.standings_sums import standings_sums_count

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the kept sums are PostgreSQL's"
)


@pytest.fixture
def rebuilds(monkeypatch):
    """The leagues whose kept sums were rebuilt from scratch, in order."""
    seen: list[int] = []
    real = standings_sums.standings_sums_rebuild

    def spy(league):
        seen.append(league.pk)
        return real(league)

    monkeypatch.setattr(standings, "standings_sums_rebuild", spy)
    return seen


def kept_equal_to_every_seat(league: League) -> str:
    """The kept sums' state, after asserting that, when they are summed, they are exactly
    what the statement over every seat adds up."""
    league = League.objects.get(pk=league.pk)
    entries = list(
        league.entries.filter(state=Entry.State.ACCEPTED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    kept = tallied_sums(league, entries)
    full = entry_sums(league, entries)
    if kept.state == SUMMED:
        assert full is not None and (kept.games, kept.values) == full
    elif kept.state == NOT_PLAIN:
        assert full is None
    return kept.state


def counted_instead(result: Result, **fields) -> None:
    """A new confirmed version of ``result``'s game with ``fields`` changed, counted
    through the kept sums' hook (as a correction is; the fields are written as they are,
    without the services' checks)."""
    with transaction.atomic():
        Result.objects.filter(pk=result.pk).update(state=Result.State.SUPERSEDED)
        result = Result.objects.get(pk=result.pk)
        result.pk, result.state = None, Result.State.CONFIRMED
        for name, value in fields.items():
            setattr(result, name, value)
        result.save()
        standings_sums_count(Fixture.objects.get(pk=result.fixture_id))


def owner_of(league: League):
    return League.objects.get(pk=league.pk).owner


def unplayed(league: League) -> list[Fixture]:
    return list(league.fixtures.exclude(results__state=Result.State.CONFIRMED).order_by("pk"))


@pytest.mark.django_db
def test_kept_sums_follow_a_confirmation_a_correction_a_void_a_forfeit_and_a_withdrawal(
    rebuilds,
):
    league = league_with_games(games=10, players=5)
    owner = owner_of(league)
    assert as_recomputed(league) == from_every_game(league)
    assert rebuilds == [league.pk]  # none kept yet: built once
    assert kept_equal_to_every_seat(league) == SUMMED

    def check() -> None:
        assert kept_equal_to_every_seat(league) == SUMMED
        assert as_recomputed(league) == from_every_game(league)

    # a player's result confirmed by an organizer
    open_game = unplayed(league)[0]
    seats = list(open_game.seats.order_by("position"))
    pending = Result.objects.create(
        fixture=open_game,
        source="player",
        state=Result.State.PENDING,
        winner_id=seats[1].entry_id,
        placings=[seats[1].entry_id, seats[0].entry_id],
        counted_pawns={str(seats[1].entry_id): 4, str(seats[0].entry_id): 2},
        completed_colours={str(seats[1].entry_id): 2, str(seats[0].entry_id): 1},
        game_time=1234.5,
    )
    result_confirm(result=pending, by=owner)
    check()
    # a correction: a new version supersedes the counted one
    result_enter(fixture=open_game, by=owner, winner=seats[0].entry, reason="typo")
    check()
    # a void: the game counts no more
    counted, _, _ = _first(league)
    result_void(fixture=counted.fixture, by=owner, reason="wrong game")
    check()
    # a forfeit
    game = unplayed(league)[0]
    forfeit_record(fixture=game, by=owner, loser=game.seats.first().entry, reason="no show")
    check()
    # a withdrawal: every open game of the entry forfeited in one transaction
    leaving = Entry.objects.filter(league=league).order_by("pk").first()
    assert entry_withdraw(entry=leaving, by=owner) > 0
    check()
    assert rebuilds == [league.pk]  # every change followed by the counting transaction
    tally = StandingsTally.objects.get(league=league)
    assert (
        tally.results
        == Result.objects.filter(fixture__league=league, state=Result.State.CONFIRMED).count()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("change", CHANGES)
def test_a_row_of_any_kind_counted_through_the_hook_gives_the_games_table(change, rebuilds):
    """The odd rows of test_standings_sums, each counted through the counting hook on kept
    sums: they are summed only when plain (the same SQL judges them), the table or the
    fault is the games' own, and voiding the row brings the sums back."""
    league = league_with_games()
    as_recomputed(league)  # builds the kept sums
    result, winner, loser = _first(league)
    fields, plain = CHANGES[change]
    counted_instead(result, **fields(winner, loser))
    assert kept_equal_to_every_seat(league) == (SUMMED if plain else NOT_PLAIN)
    assert as_recomputed(league) == from_every_game(league)
    result_void(fixture=result.fixture, by=owner_of(league), reason="odd")
    assert kept_equal_to_every_seat(league) == SUMMED
    assert as_recomputed(league) == from_every_game(league)
    assert rebuilds == [league.pk]


@pytest.mark.django_db
def test_ties_are_separated_by_head_to_head_kept_per_pair_without_reading_a_game(
    monkeypatch, rebuilds
):
    """Head-to-head among the tied is the sum over their pairs, kept per pair: the table
    is the games' own after changes, and no game is read for it."""
    league = league_with_games(games=6, players=6)
    as_recomputed(league)
    asked = []
    monkeypatch.setattr(standings, "outcomes_among", lambda *a: asked.append(a) or [])
    owner = owner_of(league)
    for game in unplayed(league)[:5]:
        _, second = game.seats.order_by("position")
        result_enter(fixture=game, by=owner, winner=second.entry, reason="OTB")
        assert as_recomputed(league) == from_every_game(league)
    result_void(fixture=game, by=owner, reason="wrong")
    rows = as_recomputed(league)
    assert rows == from_every_game(league)
    assert any(row[3] == "head_to_head" for row in rows)  # a tie it separated
    assert asked == [] and rebuilds == [league.pk]


@pytest.mark.django_db
def test_game_times_are_summed_exactly_as_the_games_add_them(rebuilds):
    """Times whose float sums depend on the order (0.1 + 0.2, a third, a subnormal): the
    kept total, after adding and taking out, is the one ``total_time`` (fsum) gives."""
    league = league_with_games(games=20)  # a DRR of 5: 8 games each, 7 beside the forfeit
    as_recomputed(league)
    times = [0.1, 0.2, 1 / 3, 5e-324, 1e7, 2.5e-7, 0.30000000000000004, 123456.789]
    counted = list(
        Result.objects.filter(fixture__league=league, state=Result.State.CONFIRMED)
        .exclude(forfeit_loser__isnull=False)
        .order_by("fixture_id")
    )
    for result, time in zip(counted, times * 2, strict=False):
        counted_instead(result, game_time=time)
    assert kept_equal_to_every_seat(league) == SUMMED
    assert as_recomputed(league) == from_every_game(league)
    # every game 0.1 s: seven of them add up to 0.7000000000000001 (fsum of the doubles),
    # not to 0.7 (the sum of the decimals they are written as)
    for result in Result.objects.filter(fixture__league=league, state=Result.State.CONFIRMED):
        counted_instead(result, game_time=0.1)
    assert kept_equal_to_every_seat(league) == SUMMED
    assert as_recomputed(league) == from_every_game(league)
    assert rebuilds == [league.pk]


def test_an_exact_sum_rounded_once_is_fsum():
    """What the kept total relies on: the exact sum of doubles, rounded once, is
    ``math.fsum`` of them, whatever order they were added and taken out in."""
    rng = random.Random(31)
    for _ in range(300):
        times = [
            rng.choice([rng.random() * 10 ** rng.randint(-8, 7), rng.random()]) for _ in range(9)
        ]
        exact = sum((Decimal(t) for t in times), Decimal(0))
        assert float(exact) == math.fsum(times) == total_time(times)


@pytest.mark.django_db
def test_a_setting_that_changes_which_results_count_rebuilds_the_sums(rebuilds):
    """Game 0 of a Challengers event is not counted by default: turning the league into
    one (as a setting changes it) leaves the kept sums holding a result that no longer
    counts — the recompute finds them stale by the results' count and rebuilds them; the
    same back."""
    league = league_with_games(games=12)
    as_recomputed(league)
    counted, _, _ = _first(league)
    Fixture.objects.filter(pk=counted.fixture_id).update(number=0)
    League.objects.filter(pk=league.pk).update(event_kind=League.EventKind.CHALLENGERS)
    assert kept_equal_to_every_seat(league) == STALE
    league = League.objects.get(pk=league.pk)
    assert as_recomputed(league) == from_every_game(league)
    assert rebuilds == [league.pk, league.pk]
    League.objects.filter(pk=league.pk).update(game0_counts=True)
    assert kept_equal_to_every_seat(league) == STALE
    league = League.objects.get(pk=league.pk)
    assert as_recomputed(league) == from_every_game(league)
    assert len(rebuilds) == 3
    assert kept_equal_to_every_seat(league) == SUMMED


@pytest.mark.django_db
def test_playoff_and_final_table_results_are_never_in_the_sums(rebuilds):
    """A series game's and a final table's counted results are not the league stage's:
    counting them changes no kept sum, and the kept sums still hold exactly the counted
    results (or the recompute would rebuild them)."""
    from tests.builders import make_fixture

    league = league_with_games(games=12)
    as_recomputed(league)
    a, b = Entry.objects.filter(league=league).order_by("pk")[:2]
    series = Series.objects.create(league=league, round=1, slot=1, name="F", first_to=3)
    for fields in ({"series": series}, {"stage": Fixture.Stage.FINAL}):
        game = make_fixture(league, [(a, ["red"]), (b, ["yellow"])], "red", **fields)
        Result.objects.create(
            fixture=game,
            source="organizer",
            state=Result.State.CONFIRMED,
            winner_id=a.pk,
            placings=[a.pk, b.pk],
            counted_pawns={str(a.pk): 4, str(b.pk): 0},
            completed_colours={str(a.pk): 1, str(b.pk): 0},
            game_time=99.0,
        )
        with transaction.atomic():
            standings_sums_count(game)
    assert kept_equal_to_every_seat(league) == SUMMED
    assert as_recomputed(league) == from_every_game(league)
    assert rebuilds == [league.pk]


@pytest.mark.django_db
def test_a_seat_of_an_entry_no_longer_accepted_is_read_from_every_game(rebuilds):
    league = league_with_games(games=12)
    as_recomputed(league)
    entry = Entry.objects.filter(league=league).order_by("pk").first()
    Entry.objects.filter(pk=entry.pk).update(state=Entry.State.REQUESTED)
    assert kept_equal_to_every_seat(league) == NOT_PLAIN
    assert as_recomputed(league) == from_every_game(league)
    Entry.objects.filter(pk=entry.pk).update(state=Entry.State.ACCEPTED)
    assert kept_equal_to_every_seat(league) == SUMMED
    assert rebuilds == [league.pk]


@pytest.mark.django_db
def test_sums_changed_outside_the_services_are_found_and_rebuilt(rebuilds):
    """A counted result deleted without the counting hook (the checksum), a counted
    result's field or a seat's entry changed in place by hand (the triggers), and a kept
    row that no longer adds up (negative games) each make the recompute rebuild."""
    league = league_with_games(games=12)
    as_recomputed(league)
    counted, winner, _ = _first(league)
    Result.objects.filter(pk=counted.pk).delete()
    assert kept_equal_to_every_seat(league) == STALE
    assert as_recomputed(league) == from_every_game(league)
    counted, winner, _ = _first(league)
    Result.objects.filter(pk=counted.pk).update(completed_colours={str(winner): 0})
    assert kept_equal_to_every_seat(league) == STALE
    assert as_recomputed(league) == from_every_game(league)
    Result.objects.filter(pk=counted.pk).update(decision_note="a note counts nothing")
    assert kept_equal_to_every_seat(league) == SUMMED
    seat = counted.fixture.seats.get(entry_id=winner)
    other = Entry.objects.filter(league=league).exclude(seats__fixture=counted.fixture)
    Seat.objects.filter(pk=seat.pk).update(entry=other.first())
    assert kept_equal_to_every_seat(league) == STALE
    assert as_recomputed(league) == from_every_game(league)
    StandingsTallyEntry.objects.filter(tally__league=league).update(played=F("played") - 100)
    assert kept_equal_to_every_seat(league) == STALE
    assert as_recomputed(league) == from_every_game(league)
    assert rebuilds == [league.pk] * 5


def _recompute_queries(league: League) -> list[str]:
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    with CaptureQueriesContext(connection) as ctx:
        assert standings.standings_recompute(league.pk)["status"] == "recomputed"
    return [q["sql"] for q in ctx.captured_queries]


@pytest.mark.django_db
def test_the_recompute_reads_a_row_per_entry_not_every_seat(rebuilds):
    """At two league sizes the recompute sends the same statements, and none of them
    reads every seat: the summing statement (``_PLAIN_CTES``) is not sent, the seats'
    table is read only for a tied group's head-to-head."""
    small, big = league_with_games(games=4, players=4), league_with_games(games=20, players=5)
    for league in (small, big):
        standings.standings_recompute(league.pk)  # builds the kept sums
    few, many = _recompute_queries(small), _recompute_queries(big)
    assert len(few) == len(many)
    for sql in few + many:
        assert "j AS MATERIALIZED" not in sql
        assert "tournaments_seat" not in sql or "unnest" in sql  # head-to-head only
    assert rebuilds == [small.pk, big.pk]
    snapshot = StandingsSnapshot.objects.get(league=big)
    assert snapshot.games_played == 20


@pytest.mark.django_db(transaction=True)
def test_concurrent_uploads_and_a_rebuild_add_each_result_once():
    """Six uploads of one league's games at once on six connections, and a rebuild of
    the kept sums among them: every result is in the sums exactly once."""
    from tests.builders import erin_against_carol
    from tests.concurrently import run_concurrently
    from tests.results.test_upload_post import _games, _log
    from tournaments.services.results import game_log_upload

    world = erin_against_carol(counts_at_once=True)
    league = world["league"]
    games = _games(world, 6)
    standings_sums.standings_sums_rebuild(league)  # kept from the start
    logs = [_log(league, seed) for seed in range(len(games))]
    calls = [
        (lambda f=f, log=log: game_log_upload(fixture=f, content=log, by=world["erin"]))
        for f, log in zip(games, logs, strict=True)
    ]
    rebuild = lambda: standings_sums.standings_sums_rebuild(League.objects.get(pk=league.pk))  # noqa: E731
    outcomes = run_concurrently(*calls[:3], rebuild, *calls[3:])
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert kept_equal_to_every_seat(league) == SUMMED
    tally = StandingsTally.objects.get(league=league)
    counted = Result.objects.filter(fixture__league=league, state=Result.State.CONFIRMED)
    assert tally.results == counted.count() == len(games)
    assert tally.result_id_sum == sum(counted.values_list("pk", flat=True))
    played = dict(StandingsTallyEntry.objects.filter(tally=tally).values_list("entry_id", "played"))
    assert sorted(played.values()) == [len(games), len(games)]


@pytest.mark.django_db(transaction=True)
def test_corrections_racing_rebuilds_are_each_added_once():
    """Six counted games corrected at once on six connections while two rebuilds of the
    kept sums run: a correction takes out what its game added before, so it must read
    that after any rebuild it raced (the tally row's lock orders them) — the sums end as
    the statement over every seat adds them up."""
    from tests.builders import erin_against_carol
    from tests.concurrently import run_concurrently
    from tests.results.test_upload_post import _games, _log
    from tournaments.services.results import game_log_upload

    world = erin_against_carol(counts_at_once=True)
    league = world["league"]
    games = _games(world, 6)
    for n, game in enumerate(games):
        game_log_upload(fixture=game, content=_log(league, n), by=world["erin"])
    standings_sums.standings_sums_rebuild(league)
    organizer = world["organizer"]

    def correct(game):
        _, winner = (seat.entry for seat in game.seats.order_by("position"))
        return result_enter(fixture=game, by=organizer, winner=winner, reason="recount")

    rebuild = lambda: standings_sums.standings_sums_rebuild(League.objects.get(pk=league.pk))  # noqa: E731
    calls = [(lambda g=g: correct(g)) for g in games]
    outcomes = run_concurrently(*calls[:3], rebuild, *calls[3:], rebuild)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert kept_equal_to_every_seat(league) == SUMMED
    tally = StandingsTally.objects.get(league=league)
    assert tally.results == len(games)


@pytest.mark.django_db(transaction=True)
def test_a_correction_during_a_rebuild_takes_out_what_the_rebuild_wrote(monkeypatch):
    """A rebuild has rewritten every game's row and holds them until its commit; a
    correction of a counted game arriving then waits for it (the tally row) and takes out
    the rebuilt row — without that lock it read the game's row from before the rebuild,
    missed the rebuilt one and added its game twice (or failed on its key)."""
    import threading
    import time as clock

    from tests.builders import erin_against_carol
    from tests.results.test_upload_post import _games, _log
    from tournaments.services.results import game_log_upload

    world = erin_against_carol(counts_at_once=True)
    league = world["league"]
    game = _games(world, 1)[0]
    game_log_upload(fixture=game, content=_log(league, 1), by=world["erin"])
    standings_sums.standings_sums_rebuild(league)
    rewritten = threading.Event()

    class HeldClock:  # the rebuild's last step stamps it: hold its transaction open there
        @staticmethod
        def now():
            rewritten.set()
            clock.sleep(1.0)
            return real_now()

    from django.utils import timezone

    real_now = timezone.now
    monkeypatch.setattr(standings_sums, "timezone", HeldClock)
    outcome: list = []

    def rebuild():
        try:
            standings_sums.standings_sums_rebuild(League.objects.get(pk=league.pk))
        except Exception as exc:  # asserted below
            outcome.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=rebuild)
    thread.start()
    assert rewritten.wait(30)
    _, winner = (seat.entry for seat in game.seats.order_by("position"))
    result_enter(fixture=game, by=world["organizer"], winner=winner, reason="recount")
    thread.join(30)
    assert outcome == []
    assert kept_equal_to_every_seat(league) == SUMMED
    assert StandingsTally.objects.get(league=league).results == 1
