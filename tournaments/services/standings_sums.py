"""The standings sums kept by the counting transaction (issue 31, docs/results.md "Sums
kept by the counting transaction").

``standings_sums_count(fixture)`` runs in ``counting.result_counted`` — the one hook every
change of a fixture's counted result goes through — just before the revision bump: under
the league's ``StandingsTally`` row lock it adds to each seated entry's sums the difference
between what the game's counted result adds now (``counted_contributions``: the same SQL
as the league's summing statement, restricted to this game) and what it added before (its
``StandingsTallyGame`` row). ``standings_sums_rebuild(league)`` writes them all from
scratch, under the same lock; the recompute calls it when the kept sums do not hold
exactly the league's counted results (``tallied_sums``: none kept yet, a setting that
changed which results count, a row written outside the services).

Locks: the fixture (held by the caller), [the league's row, if the competition's step
took it], the tally row, the entries' sums rows, the league's row (the bump). Every
counted result of one league takes them in this order, and the rebuild takes the tally
row only, so neither waits in a cycle.
"""

from __future__ import annotations

import decimal
import json
from decimal import Decimal

from django.db import connection, transaction
from django.utils import timezone

from tournaments.models import (
    Fixture,
    League,
    StandingsTally,
    StandingsTallyEntry,
    StandingsTallyGame,
    StandingsTallyPair,
)
from tournaments.selectors.standings_inputs import (
    GameSums,
    SeatSums,
    counted_contributions,
    league_metrics,
    summable,
)

#: sums of exact numbers stay exact (a game time is a binary fraction of up to 1,074
#: decimal places): never rounded, and an inexact result raises instead
_EXACT = decimal.Context(
    prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[decimal.Inexact]
)


def kept_for(league: League) -> bool:
    """Whether the league's sums are kept: on PostgreSQL, for a precedence the recompute
    ranks from sums (a Grand Prix' points are not an entry's own sums)."""
    return connection.vendor == "postgresql" and summable(league_metrics(league))


def standings_sums_count(fixture: Fixture) -> None:
    """The counted result of ``fixture`` changed (in its transaction, under its lock): its
    league's kept sums follow. Nothing when the league keeps none yet (the next recompute
    builds them) or the game is not of the league stage (a playoff, a final: never in the
    table). Three statements: the tally locked with the game's contribution computed, the
    previous contribution taken out, the new one written with the entries', the pairs'
    (head-to-head) and the tally's differences."""
    if fixture.series_id is not None or fixture.stage != Fixture.Stage.REGULAR:
        return
    league = fixture.league
    if not kept_for(league):
        return
    held, games = counted_contributions(league, fixture_id=fixture.pk, lock=True)
    if not held:
        return
    old = _taken_out(fixture.pk)
    new = games.get(fixture.pk)
    _write(league.pk, fixture.pk, old, new)


def _taken_out(fixture_id: int) -> GameSums | None:
    """The game's stored contribution, deleted (a fresh read: the tally row is locked)."""
    table = StandingsTallyGame._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {table} WHERE fixture_id = %s"
            " RETURNING results, result_id_sum, plain, seats::text, pairs::text",
            (fixture_id,),
        )
        row = cursor.fetchone()
    if row is None:
        return None
    results, id_sum, plain, seats, pairs = row
    return GameSums(
        results,
        id_sum,
        plain,
        tuple(SeatSums.from_stored(s) for s in json.loads(seats)),
        tuple(tuple(p) for p in json.loads(pairs)),
    )


def _write(league_id: int, fixture_id: int, old: GameSums | None, new: GameSums | None) -> None:
    """Store the game's new contribution and add ``new − old`` to the entries' and the
    tally's sums, in one statement."""
    deltas = _entry_deltas(old, new)
    entry_table = StandingsTallyEntry._meta.db_table
    entries = list(deltas)
    columns = list(zip(*deltas.values(), strict=True)) if deltas else [[]] * 7
    pairs = _pair_deltas(old, new)
    was = old or GameSums(0, 0, True, ())
    now = new or GameSums(0, 0, True, ())
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH g AS (
                INSERT INTO {StandingsTallyGame._meta.db_table}
                    (fixture_id, tally_id, results, result_id_sum, plain, seats, pairs)
                SELECT %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb WHERE %s
            ), p AS (
                INSERT INTO {StandingsTallyPair._meta.db_table} AS t (tally_id, a_id, b_id, score)
                SELECT %s, d.* FROM unnest(%s::bigint[], %s::bigint[], %s::integer[]) AS d
                ON CONFLICT (tally_id, a_id, b_id) DO UPDATE SET score = t.score + excluded.score
            ), e AS (
                INSERT INTO {entry_table} AS t (tally_id, entry_id, played, wins, losses,
                    pawns, colours, game_time, times_unknown)
                SELECT %s, d.* FROM unnest(%s::bigint[], %s::integer[], %s::integer[],
                    %s::integer[], %s::numeric[], %s::numeric[], %s::numeric[], %s::integer[])
                    AS d
                ON CONFLICT (tally_id, entry_id) DO UPDATE SET
                    played = t.played + excluded.played, wins = t.wins + excluded.wins,
                    losses = t.losses + excluded.losses, pawns = t.pawns + excluded.pawns,
                    colours = t.colours + excluded.colours,
                    game_time = t.game_time + excluded.game_time,
                    times_unknown = t.times_unknown + excluded.times_unknown
            )
            UPDATE {StandingsTally._meta.db_table} SET results = results + %s,
                result_id_sum = result_id_sum + %s, not_plain = not_plain + %s
            WHERE league_id = %s
            """,
            (
                fixture_id,
                league_id,
                now.results,
                now.result_id_sum,
                now.plain,
                json.dumps([s.stored() for s in now.seats]),
                json.dumps([list(p) for p in now.pairs]),
                new is not None,
                league_id,
                [a for a, _ in pairs],
                [b for _, b in pairs],
                list(pairs.values()),
                league_id,
                entries,
                *[list(c) for c in columns],
                now.results - was.results,
                now.result_id_sum - was.result_id_sum,
                int(not now.plain) - int(not was.plain),
                league_id,
            ),
        )


def _entry_deltas(old: GameSums | None, new: GameSums | None) -> dict[int, list]:
    """Per entry, ``new − old`` of (played, wins, losses, pawns, colours, time, times
    unknown); entries whose difference is nothing are left out."""
    deltas: dict[int, list] = {}
    for sign, game in ((1, new), (-1, old)):
        for seat in game.seats if game else ():
            _add(deltas, seat, sign)
    return {e: d for e, d in deltas.items() if any(d)}


def _pair_deltas(old: GameSums | None, new: GameSums | None) -> dict[tuple[int, int], int]:
    """Per pair, ``new − old`` of head-to-head; pairs whose difference is nothing left out."""
    deltas: dict[tuple[int, int], int] = {}
    for sign, game in ((1, new), (-1, old)):
        for a, b, score in game.pairs if game else ():
            deltas[(a, b)] = deltas.get((a, b), 0) + sign * score
    return {pair: n for pair, n in deltas.items() if n}


def _add(sums: dict[int, list], seat: SeatSums, sign: int = 1) -> None:
    row = sums.setdefault(seat.entry, [0, 0, 0, Decimal(0), Decimal(0), Decimal(0), 0])
    row[0] += sign
    row[1] += sign * seat.won
    row[2] += sign * seat.lost
    row[3] = _EXACT.add(row[3], _EXACT.multiply(sign, seat.pawns))
    row[4] = _EXACT.add(row[4], _EXACT.multiply(sign, seat.colours))
    row[5] = _EXACT.add(row[5], _EXACT.multiply(sign, seat.time))
    row[6] += sign * seat.time_unknown


def standings_sums_rebuild(league: League) -> None:
    """Write the league's kept sums from scratch (its tally row locked: counted results
    of the league wait, and each then adds to the rebuilt sums): every counted game's
    contribution, by one statement over every seat, and the entries' sums from them."""
    with transaction.atomic():
        StandingsTally.objects.bulk_create([StandingsTally(league=league)], ignore_conflicts=True)
        tally = StandingsTally.objects.select_for_update(no_key=True).get(league=league)
        _, games = counted_contributions(league)
        StandingsTallyGame.objects.filter(tally=tally).delete()
        StandingsTallyEntry.objects.filter(tally=tally).delete()
        StandingsTallyPair.objects.filter(tally=tally).delete()
        rows = [
            [f, g.results, g.result_id_sum, g.plain, [s.stored() for s in g.seats], g.pairs]
            for f, g in games.items()
        ]
        with connection.cursor() as cursor:  # one statement (bulk_create: 1 s of Python)
            cursor.execute(
                f"INSERT INTO {StandingsTallyGame._meta.db_table}"
                " (fixture_id, tally_id, results, result_id_sum, plain, seats, pairs)"
                " SELECT (x->>0)::bigint, %s, (x->>1)::integer, (x->>2)::bigint,"
                " (x->>3)::boolean, x->4, x->5 FROM jsonb_array_elements(%s::jsonb) AS x",
                (tally.pk, json.dumps(rows)),
            )
        sums: dict[int, list] = {}
        for game in games.values():
            for seat in game.seats:
                _add(sums, seat)
        StandingsTallyEntry.objects.bulk_create(
            StandingsTallyEntry(
                tally=tally,
                entry_id=entry,
                played=played,
                wins=wins,
                losses=losses,
                pawns=pawns,
                colours=colours,
                game_time=time,
                times_unknown=unknown,
            )
            for entry, (played, wins, losses, pawns, colours, time, unknown) in sums.items()
        )
        pairs = _pair_deltas(None, GameSums(0, 0, True, (), _all_pairs(games.values())))
        StandingsTallyPair.objects.bulk_create(
            StandingsTallyPair(tally=tally, a_id=a, b_id=b, score=score)
            for (a, b), score in pairs.items()
        )
        StandingsTally.objects.filter(pk=tally.pk).update(
            results=sum(g.results for g in games.values()),
            result_id_sum=sum(g.result_id_sum for g in games.values()),
            not_plain=sum(not g.plain for g in games.values()),
            built_at=timezone.now(),
        )


def _all_pairs(games) -> tuple[tuple[int, int, int], ...]:
    return tuple(pair for game in games for pair in game.pairs)
