"""Playoffs: series generated from the final standings, and series that advance by
themselves as their games' results come in.

XLeague: #2 v #3 Qualifying Series (first to 3), its winner v #1 in the Final Series (first
to 4); the higher seed leads 1–0 unless both had the same won–lost record and were
separated only by tie-breaks. General brackets of K seeds with standard seeding and byes.
"""

from __future__ import annotations

from django.db import transaction

from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms import brackets
from tournaments.algorithms.colours import assign_colours
from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.starting_colour import playoff_starting_colour
from tournaments.formats import get_format
from tournaments.models import Fixture, League, Result, Seat, Series, StandingsSnapshot
from tournaments.services.errors import coded, from_algorithm, why_of
from tournaments.services.guards import require_organizer
from tournaments.services.schedule import date_new_games, seats_for
from tournaments.services.standings import standings_recompute


def _bracket_for(league: League) -> brackets.Bracket:
    """The league's bracket, with the series length and head-start rule of each round
    (``League.playoffs`` as ``validate_playoffs`` stored it; an older single boolean
    ``head_start`` applies to every round)."""
    config = league.playoffs or {}
    try:
        if config.get("kind") == "xleague":
            return brackets.xleague_playoffs()
        if config.get("kind") == "bracket":
            return brackets.playoff_rounds(
                config["seeds"], config.get("first_to", 1), config.get("head_start")
            ).build()
    except AlgorithmError as exc:
        raise coded("playoff_config_invalid", why=why_of(exc)) from None
    raise coded("playoffs_none", league=league.name)


def playoffs_generate(*, league: League, by) -> list[Series]:
    """Seed the playoffs from the settled standings and schedule the first games."""
    require_organizer(by, league)
    bracket = _bracket_for(league)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.series.exists():
            raise coded("playoffs_generated")
        standings_recompute(league.pk)  # no-op when the snapshot is current
        snapshot = StandingsSnapshot.objects.get(league=league, stage="league")
        if snapshot.provisional:
            left = snapshot.games_total - snapshot.games_played
            raise coded("playoffs_provisional", left=max(left, 0))
        rows = list(snapshot.rows.filter(entry__withdrawn_at__isnull=True).order_by("position"))
        if len(rows) < bracket.seeds:
            raise coded("playoffs_players", seeds=bracket.seeds, count=len(rows))
        by_seed = {n: row for n, row in enumerate(rows[: bracket.seeds], start=1)}
        created = _create_series(league, bracket, by_seed)
        league.status = League.Status.PLAYOFFS
        league.save(update_fields=["status"])
        for series in created.values():
            series.refresh_from_db()
            _schedule_next_game(series, records=_records(snapshot))
        return sorted(created.values(), key=lambda s: (s.round, s.slot))


def _create_series(league: League, bracket, by_seed: dict) -> dict[tuple[int, int], Series]:
    """Every series of the bracket, later rounds first (to link each to the next), with
    the seeds placed."""
    created: dict[tuple[int, int], Series] = {}
    names = match_names(bracket)
    for match in reversed(bracket.matches):
        nxt = bracket.next_slot(match.round, match.position)
        series = Series.objects.create(
            league=league,
            round=match.round,
            slot=match.position,
            name=names[match.key],
            first_to=match.first_to,
            head_start_rule=match.head_start,
            next_series=created[(nxt[0], nxt[1])] if nxt else None,
        )
        created[match.key] = series
        for slot in (match.top, match.bottom):
            if slot.seed is not None:
                _place(series, by_seed[slot.seed].entry_id, slot.seed)
    return created


def _records(snapshot: StandingsSnapshot) -> dict[int, tuple[int, int]]:
    return {r.entry_id: (r.wins, r.losses) for r in snapshot.rows.all()}


#: the name of one series of a round with several (the round's name is plural)
SINGULAR = {"Semi-finals": "Semi-final", "Quarter-finals": "Quarter-final"}


def match_names(bracket) -> dict[tuple[int, int], str]:
    """Each match's own name: the round's name when it is the round's only series
    ("Final"), else numbered from 1 in bracket order ("Semi-final 1", "Semi-final 2",
    "Round of 16 – 3"), so pages, previews and mails tell them apart."""
    by_round: dict[int, list] = {}
    for m in bracket.matches:
        by_round.setdefault(m.round, []).append(m)
    names = {}
    for matches in by_round.values():
        matches.sort(key=lambda m: m.position)
        for n, m in enumerate(matches, start=1):
            names[m.key] = _match_name(m.name, n, alone=len(matches) == 1)
    return names


def _match_name(round_name: str, n: int, *, alone: bool) -> str:
    """Series ``n`` of a round: the round's name when alone, else numbered."""
    if alone:
        return round_name
    if round_name in SINGULAR:
        return f"{SINGULAR[round_name]} {n}"
    return f"{round_name} – {n}"


def _place(series: Series, entry_id: int, seed: int) -> None:
    """Put a player into a series; the better seed is the higher one."""
    if series.higher_id is None:
        series.higher_id, series.higher_seed = entry_id, seed
    elif series.higher_seed > seed:
        series.lower_id, series.lower_seed = series.higher_id, series.higher_seed
        series.higher_id, series.higher_seed = entry_id, seed
    else:
        series.lower_id, series.lower_seed = entry_id, seed
    series.save()


def _schedule_next_game(series: Series, records=None) -> Fixture | None:
    """When both players are known: fix the head start (first game) and schedule the next
    game unless one is already open."""
    if not _waits_for_a_game(series):
        return None
    if not series.fixtures.exists():
        _start_series(series, records)
    league = series.league
    fmt = get_format(league.format)
    board_colours = DEFAULT_COLOURS[league.board]
    at_board = [series.higher_id, series.lower_id]
    preferences = {
        e.pk: (e.preferred_colours or None) for e in league.entries.filter(pk__in=at_board)
    }
    try:
        assignment = assign_colours(at_board, preferences, board_colours, fmt.layout)
        start = playoff_starting_colour(series.higher_id, assignment, board_colours)
    except AlgorithmError as exc:
        raise from_algorithm(exc) from None
    number = series.fixtures.count() + 1
    fixture = Fixture.objects.create(
        league=league,
        series=series,
        round=series.round,
        number=number,
        label=f"{series.name} G{number}",
        starting_colour=start,
    )
    Seat.objects.bulk_create(seats_for(fixture, at_board, assignment))

    date_new_games(league, [fixture])
    return fixture


def _waits_for_a_game(series: Series) -> bool:
    """Both players are known, no one has won yet, and no game is open."""
    if series.higher_id is None or series.lower_id is None or series.winner_id:
        return False
    return not series.fixtures.exclude(status__in=Fixture.CLOSED_STATUSES).exists()


def _start_series(series: Series, records) -> None:
    """Before a series' first game: its head start from the players' records (read from
    the table when not given)."""
    if records is None:
        snapshot = StandingsSnapshot.objects.get(league_id=series.league_id, stage="league")
        records = _records(snapshot)
    series.head_start = bool(
        brackets.head_start(
            records.get(series.higher_id),
            records.get(series.lower_id),
            enabled=series.head_start_rule,
        )
    )
    series.status = Series.Status.PLAYING
    series.save(update_fields=["head_start", "status"])


def series_progress(series_id: int) -> Series:
    """Score a series from its confirmed games; when decided, place the winner in the next
    series (and schedule its games); otherwise schedule the next game. Runs inside the
    transaction that confirmed a result."""
    series = Series.objects.select_for_update().get(pk=series_id)
    state = _series_state(series)
    if series.winner_id and state.winner != series.winner_id:
        _reopen(series)  # a void or correction changed who won this series
    if not state.decided:
        _schedule_next_game(series)
    elif not series.winner_id:
        _decide_series(series, state.winner)
    return series


def _series_state(series: Series) -> brackets.SeriesState:
    """The series' score from its counted games, in game order."""
    winners = list(
        Result.objects.filter(fixture__series=series, state=Result.State.CONFIRMED)
        .order_by("fixture__number")
        .values_list("winner_id", flat=True)
    )
    try:
        return brackets.series_state(
            [w for w in winners if w is not None],
            higher=series.higher_id,
            lower=series.lower_id,
            first_to=series.first_to,
            head_start=int(series.head_start),
        )
    except AlgorithmError as exc:
        raise coded("series_invalid", series=series.name, why=why_of(exc)) from None


def _decide_series(series: Series, winner: int) -> None:
    """A series is won: its games left are cancelled and the winner moves on to the next
    series (the final: the league has finished)."""
    series.winner_id = winner
    series.status = Series.Status.DECIDED
    series.save(update_fields=["winner", "status"])
    series.fixtures.filter(status=Fixture.Status.SCHEDULED).update(status=Fixture.Status.CANCELLED)
    if not series.next_series_id:
        League.objects.filter(pk=series.league_id).update(status=League.Status.FINISHED)
        return
    nxt = Series.objects.select_for_update().get(pk=series.next_series_id)
    seed = series.higher_seed if winner == series.higher_id else series.lower_seed
    _place(nxt, winner, seed)
    _schedule_next_game(nxt)


def _reopen(series: Series) -> None:
    """Undo a decided series: take its winner out of the next series (whose games must not
    have started) and play on. Raises ServiceError when that is no longer possible."""
    loser_gone = series.winner_id
    if series.next_series_id:
        nxt = Series.objects.select_for_update().get(pk=series.next_series_id)
        if Result.objects.filter(fixture__series=nxt).exists():
            raise coded("series_next_has_results", next=nxt.name, series=series.name)
        Fixture.objects.filter(series=nxt).delete()  # only unplayed, scheduled games
        if nxt.higher_id == loser_gone:
            nxt.higher_id, nxt.higher_seed = nxt.lower_id, nxt.lower_seed
        nxt.lower_id, nxt.lower_seed = None, None
        nxt.status, nxt.head_start = Series.Status.WAITING, True
        nxt.save()
    else:
        League.objects.filter(pk=series.league_id).update(status=League.Status.PLAYOFFS)
    series.fixtures.filter(status=Fixture.Status.CANCELLED).delete()
    series.winner_id = None
    series.status = Series.Status.PLAYING
    series.save(update_fields=["winner", "status"])


def _preview_rows(snapshot: StandingsSnapshot | None) -> list:
    """The table's rows of players still in (none without a table)."""
    if snapshot is None:
        return []
    return list(
        snapshot.rows.filter(entry__withdrawn_at__isnull=True)
        .select_related("entry__player")
        .order_by("position")
    )


def _preview_series(match, by_seed: dict, names: dict) -> dict:
    """One series of the preview: its two sides and its head start."""
    top, bottom = (_preview_side(slot, by_seed, names) for slot in (match.top, match.bottom))
    head, why = _preview_head_start(match, top["record"], bottom["record"])
    return {
        "round": match.round,
        "name": names[match.key],
        "first_to": match.first_to,
        "sides": [top, bottom],
        "head_start": head,
        "why": why,
    }


def _preview_side(slot, by_seed: dict, names: dict) -> dict:
    """A side of a series: a seed's player and record, or the series it comes from."""
    row = by_seed.get(slot.seed) if slot.seed is not None else None
    return {
        "seed": slot.seed,
        "player": row.entry.player if row else None,
        "record": (row.wins, row.losses) if row else None,
        "from": names.get(slot.winner_of) if slot.winner_of else None,
    }


def _preview_head_start(match, top_record, bottom_record) -> tuple[int, str]:
    """The head start and why: "off" (no head start in this round), "better" (a better
    won–lost record), "same" (the same record, separated by tie-breaks), "later"
    (decided when known)."""
    if not match.head_start:
        return 0, "off"
    if top_record and bottom_record:
        head = brackets.head_start(top_record, bottom_record, enabled=True)
        return head, "better" if head else "same"
    return 1, "later"


def playoffs_preview(league: League) -> dict:
    """What ``playoffs_generate`` would draw from the current table (read only): each
    series of the bracket with its seeds and players (or "winner of …"), first-to, and
    the head start with its reason; plus the byes and whether the table is final."""
    bracket = _bracket_for(league)
    snapshot = StandingsSnapshot.objects.filter(league=league, stage="league").first()
    rows = _preview_rows(snapshot)
    by_seed = {n: row for n, row in enumerate(rows[: bracket.seeds], start=1)}
    names = match_names(bracket)
    series = [_preview_series(match, by_seed, names) for match in bracket.matches]
    return {
        "seeds": bracket.seeds,
        "rows": len(rows),
        "provisional": snapshot.provisional if snapshot else True,
        "byes": [{"seed": s, "player": _seed_player(by_seed, s)} for s in bracket.byes],
        "rounds": [_preview_round(r, series) for r in bracket.rounds],
    }


def _seed_player(by_seed: dict, seed: int):
    """The player of a seed, if the table has that many."""
    return by_seed[seed].entry.player if seed in by_seed else None


def _preview_round(bracket_round, series: list[dict]) -> dict:
    """A round of the preview with its series."""
    return {
        "number": bracket_round.number,
        "name": bracket_round.name,
        "series": [s for s in series if s["round"] == bracket_round.number],
    }
