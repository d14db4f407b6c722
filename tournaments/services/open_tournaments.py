"""Open tournaments: drawing each round's tables (``open_draw.draw_round``, seeded and stored,
reproducible), the final table of the best four, and the tournament's final ranking; a
series whose regional events qualify their best N for a final event (h-champ)."""

from __future__ import annotations

import secrets

from django.db import models, transaction
from django.utils import timezone

from core.reasons import START_BY_DICE
from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms import championship as rules
from tournaments.algorithms import open_draw
from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.starting_colour import decide_starting_colour
from tournaments.models import Entry, Fixture, League, OpenRound, Seat
from tournaments.selectors import open_tournaments as open_reads
from tournaments.services.championship import checkin_deadline_apply, drawn_rounds
from tournaments.services.errors import coded, from_algorithm
from tournaments.services.guards import require_organizer
from tournaments.services.schedule import date_new_games, require_invitations_answered
from tournaments.services.standings import (
    standings_invalidate,
)

UNDECIDED = (Fixture.Status.SCHEDULED, Fixture.Status.SUBMITTED, Fixture.Status.DISPUTED)


def _require_open(league: League) -> None:
    if league.event_kind != League.EventKind.OPEN:
        raise coded("checkin_not_open_tournament", league=league.name)


def draw_history(league: League, *, final: bool = False) -> list[open_draw.RoundDraw]:
    """The drawn rounds so far as the draw algorithm sees them (tables, at-board order,
    colours), oldest first; with ``final`` the final table too."""
    fixtures = (
        league.fixtures.filter(stage__in=["regular", "final"] if final else ["regular"])
        .prefetch_related("seats")
        .order_by("round", "number")
    )
    rounds: dict[int, list[open_draw.Table]] = {}
    for fixture in fixtures:
        seats = tuple(open_draw.Seat(s.entry_id, s.colours[0]) for s in fixture.seats.all())
        rounds.setdefault(fixture.round, []).append(open_draw.Table(fixture.number, seats))
    return [open_draw.RoundDraw(n, tuple(tables)) for n, tables in sorted(rounds.items())]


def _create_tables(league: League, draw: open_draw.RoundDraw, stage: str, label) -> list[Fixture]:
    """The draw's tables and their seats, two inserts whatever the number of tables (one
    per table before h-champday: 100 statements for a championship day's 50 tables, most
    of the desk's wait between the last result and the next round on the wall)."""
    board_colours = DEFAULT_COLOURS[league.board]
    made = []
    for table in draw.tables:
        assignment = {seat.player: (seat.colour,) for seat in table.seats}
        try:
            start = decide_starting_colour(
                "die-roll",
                assignment=assignment,
                board_colours=board_colours,
                seed=f"{league.draw_seed}-open-{draw.number}-{table.number}",
            )
        except AlgorithmError as exc:
            raise from_algorithm(exc) from None
        made.append(
            Fixture(
                league=league,
                round=draw.number,
                number=table.number,
                label=label(table.number),
                stage=stage,
                starting_colour=start.colour,
                start_basis="die-roll",
                start_reason=START_BY_DICE,
                start_rolls=[r.as_dict() for r in start.rolls.history] if start.rolls else [],
            )
        )
    Fixture.objects.bulk_create(made)  # PostgreSQL returns their ids
    Seat.objects.bulk_create(
        Seat(fixture=fixture, entry_id=seat.player, position=i, colours=[seat.colour])
        for fixture, table in zip(made, draw.tables, strict=True)
        for i, seat in enumerate(table.seats)
    )
    date_new_games(league, made)
    return made


def _lock_and_seed(league: League, seed: int | None) -> League:
    league = League.objects.select_for_update().get(pk=league.pk)
    if league.draw_seed is None:
        league.draw_seed = seed if seed is not None else secrets.randbelow(2**31)
        league.save(update_fields=["draw_seed"])
    elif seed is not None and seed != league.draw_seed:
        raise coded("draw_seed_kept", field="seed", seed=league.draw_seed)
    return league


def _require_previous_round_done(league: League) -> None:
    open_games = league.fixtures.filter(status__in=UNDECIDED).count()
    if open_games:
        raise coded("round_undecided", n=open_games)


def open_round_draw(*, league: League, by, seed: int | None = None) -> OpenRound:
    """Draw the next preliminary round: tables of 3–4 by lot avoiding repeat opponents,
    seats and colours balanced (``open_draw.draw_round``); the seed is the tournament's
    (chosen here on the first draw, or given), so the draw can be reproduced."""
    require_organizer(by, league)
    _require_open(league)
    with transaction.atomic():
        league = _lock_and_seed(league, seed)
        done = league.open_rounds.filter(is_final=False).count()
        if done >= league.games_planned:
            raise coded(
                "all_rounds_drawn_final" if league.final_table_size else "all_rounds_drawn",
                total=league.games_planned,
            )
        _require_previous_round_done(league)
        require_invitations_answered(league, "draw")
        # h-champ: the check-in deadline has passed: the absent lose their places to the
        # waitlist's present players (once; a no-op afterwards)

        checkin_deadline_apply(league=league)
        playing = league.entries.playing()
        if league.checkin_opened_at is not None:
            # a championship day: who is not checked in sits this round out, no points
            # (docs/decisions.md, "Check-in and the draw")
            playing = playing.filter(checked_in_at__isnull=False)
        players = list(playing.order_by("pk").values_list("pk", flat=True))
        board = DEFAULT_COLOURS[league.board]
        try:
            draw = open_draw.draw_round(
                players,
                draw_history(league),
                seed=league.draw_seed,
                board_colours=board,
                max_size=min(4, len(board)),
            )
        except AlgorithmError as exc:
            raise from_algorithm(exc) from None
        number = draw.number
        _create_tables(league, draw, Fixture.Stage.REGULAR, lambda t: f"R{number} T{t}")
        record = OpenRound.objects.create(
            league=league, number=number, seed=str(league.draw_seed), drawn_by=by
        )
        if league.status in (League.Status.DRAFT, League.Status.REGISTRATION):
            league.status = League.Status.RUNNING
            league.save(update_fields=["status"])
        standings_invalidate(league)
        return record


def preliminary_rows(league: League):
    """The preliminary ranking (placement points → wins → die roll), computed now."""
    try:
        return open_reads.preliminary_rows(league)
    except AlgorithmError as exc:
        raise from_algorithm(exc) from None


def _final_table_rows(league: League):
    try:
        return open_reads.final_table_rows(league)
    except AlgorithmError as exc:
        raise from_algorithm(exc) from None


def open_final_table(*, league: League, by) -> Fixture:
    """After the preliminary rounds, the best ``final_table_size`` (4) play the final table,
    seated in ranking order with the colours they played least."""
    require_organizer(by, league)
    _require_open(league)
    with transaction.atomic():
        league = _lock_and_seed(league, None)
        if not league.final_table_size:
            raise coded("final_table_none", league=league.name)
        if league.fixtures.filter(stage=Fixture.Stage.FINAL).exists():
            raise coded("final_table_seated")
        done = league.open_rounds.filter(is_final=False).count()
        if done < league.games_planned:
            raise coded("final_table_waits", done=done, total=league.games_planned)
        _require_previous_round_done(league)
        rows = _final_table_rows(league)
        if tied := open_reads.cut_tie(league, rows):
            raise coded("final_table_tie", names=", ".join(tied))
        size = league.final_table_size
        try:
            finalists = open_draw.final_table(rows, size)
            draw = open_draw.seat_final_table(
                finalists,
                draw_history(league),
                seed=league.draw_seed,
                board_colours=DEFAULT_COLOURS[league.board],
            )
        except AlgorithmError as exc:
            raise from_algorithm(exc) from None
        (fixture,) = _create_tables(league, draw, Fixture.Stage.FINAL, lambda _t: "Final table")
        OpenRound.objects.create(
            league=league,
            number=draw.number,
            seed=str(league.draw_seed),
            is_final=True,
            drawn_by=by,
        )
        return fixture


def open_final_ranking(league: League) -> list[int] | None:
    """The tournament's final order once the final table counts: places 1–4 by the final
    table's placings, everybody else in preliminary order; None before."""
    final = league.fixtures.filter(stage=Fixture.Stage.FINAL).first()
    if final is None:
        return None
    result = final.results.filter(state="confirmed").first()
    if result is None or not result.placings:
        return None
    active = set(league.entries.playing().values_list("pk", flat=True))
    rows = [r for r in preliminary_rows(league) if r.entry in active]
    try:
        return list(open_draw.final_ranking(rows, result.placings, league.final_table_size))
    except AlgorithmError:
        return None


# --- h-champ: a series with qualifiers ----------------------------------------------------
#
# A regional event (an open tournament) names the final event its best N qualify for
# (``league.qualifies_for``, ``qualifier_places``); the final's desk carries the
# qualifiers over into the final as entries (``Entry.qualified_from`` and
# ``qualified_place`` say where they qualified). The rule is
# ``algorithms.championship.qualifiers``; a player is the same person in two regions when
# it is the same player, or the same account.


def league_set_qualification(*, league: League, by, final: League | None, places: int) -> League:
    """A regional event qualifies its best ``places`` for ``final`` (None: for none). Who
    sets it organizes both events."""
    require_organizer(by, league)
    _require_open(league)
    if final is not None:
        require_organizer(by, final)
        _require_open(final)
        if final.pk == league.pk:
            raise coded("qualifier_final_self", field="final")
        if isinstance(places, bool) or not isinstance(places, int) or places < 1:
            raise coded("qualifier_places_min", field="places")
    League.objects.filter(pk=league.pk).update(
        qualifies_for=final, qualifier_places=places if final is not None else 0
    )
    league.refresh_from_db()
    return league


def person_key(player) -> tuple:
    """Who a player is across events: their account, else the player record."""
    return ("account", player.user_id) if player.user_id else ("player", player.pk)


def _region_finished(league: League) -> bool:
    if league.final_table_size:
        return open_final_ranking(league) is not None
    undecided = league.fixtures.filter(status__in=UNDECIDED).exists()
    return drawn_rounds(league) >= league.games_planned > 0 and not undecided


def region_classification(league: League) -> list[tuple[Entry, int]]:
    """A finished regional event's final classification as (entry, rank): the final
    table's places first, then the preliminary ranks (equal: still tied)."""
    if not _region_finished(league):
        raise coded("qualifier_region_unfinished", league=league.name)
    entries = {e.pk: e for e in league.entries.playing().select_related("player__user")}
    final = (open_final_ranking(league) or [])[: league.final_table_size]
    ranked = [(entries[pk], place) for place, pk in enumerate(final, 1) if pk in entries]
    rows = [r for r in preliminary_rows(league) if r.entry in entries and r.entry not in final]
    return ranked + [(entries[r.entry], r.rank) for r in rows]


def _withdrawn_from(final: League) -> set[tuple]:
    """Who withdrew from the final: their place goes to the next one of their region."""
    withdrawn = final.entries.filter(withdrawn_at__isnull=False).select_related("player")
    return {person_key(e.player) for e in withdrawn}


def _region_tables(regions: list[League], declined: set) -> tuple[dict, dict]:
    """Each region's classification for the rule (who withdrew from the final left out),
    and the region's entry of each person."""
    tables = {region.pk: region_classification(region) for region in regions}
    entry_of = {(r, person_key(e.player)): e for r, rows in tables.items() for e, _rank in rows}
    placed = {
        r: [
            rules.Placed(k, rank) for e, rank in rows if (k := person_key(e.player)) not in declined
        ]
        for r, rows in tables.items()
    }
    return placed, entry_of


def series_qualifiers(final: League) -> list[tuple[rules.Qualifier, League, Entry]]:
    """The final event's qualifiers now: (the rule's answer, its region, the entry there),
    regions in the order of their creation. A qualifier who withdrew from the final is
    left out of their regions' tables, so the next one moves up."""
    regions = list(
        final.qualifier_events.filter(qualifier_places__gt=0).order_by("created_at", "pk")
    )
    if not regions:
        raise coded("qualifier_no_regions", league=final.name)
    placed, entry_of = _region_tables(regions, _withdrawn_from(final))
    chosen = rules.qualifiers(placed, {r.pk: r.qualifier_places for r in regions})
    by_pk = {r.pk: r for r in regions}
    return [(q, by_pk[q.region], entry_of[(q.region, q.player)]) for q in chosen]


def _final_entry(final: League, player) -> Entry | None:
    same = models.Q(player=player)
    if player.user_id:
        same |= models.Q(player__user_id=player.user_id)
    return final.entries.filter(same).first()


def _carry_one(final: League, region: League, entry: Entry, place: int, now) -> bool:
    """The qualifier's entry in the final (made now, or marked where they qualified);
    True when it was made."""
    existing = _final_entry(final, entry.player)
    if existing is None:
        Entry.objects.create(
            league=final,
            player=entry.player,
            state=Entry.State.ACCEPTED,
            accepted_at=now,
            qualified_from=region,
            qualified_place=place,
        )
        return True
    Entry.objects.filter(pk=existing.pk).exclude(
        qualified_from=region, qualified_place=place
    ).update(qualified_from=region, qualified_place=place)
    return False


def series_qualifiers_carry(*, final: League, by) -> tuple[int, int]:
    """Carry the qualifiers of every regional event into ``final`` as accepted entries
    (their place is earned: no invitation, no waitlist), each marked with where they
    qualified. Idempotent under the final's row lock: a second run makes nothing new.
    Only before the final's first draw. Returns (entries made, already there)."""
    require_organizer(by, final)
    _require_open(final)
    with transaction.atomic():
        final = League.objects.select_for_update().get(pk=final.pk)
        if drawn_rounds(final):
            raise coded("qualifier_final_started", league=final.name)
        now = timezone.now()
        made = [
            _carry_one(final, region, entry, q.rank, now)
            for q, region, entry in series_qualifiers(final)
        ]
    if any(made):
        standings_invalidate(final)
    return sum(made), len(made) - sum(made)
