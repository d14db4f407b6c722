"""Seeding a DRR by die roll and generating its schedule: who plays whom in which round,
in which at-board order, with which colours, and which colour starts."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.reasons import START_BY_DICE
from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms import round_robin
from tournaments.algorithms.colours import assign_colours
from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.recurrence import round_dates
from tournaments.algorithms.seeding import seed_by_die_roll
from tournaments.algorithms.starting_colour import decide_starting_colour
from tournaments.formats import get_format
from tournaments.models import Cycle, CycleSeed, Entry, Fixture, League, Seat
from tournaments.services.errors import coded, from_algorithm
from tournaments.services.guards import require_organizer
from tournaments.services.notify import SCHEDULE_CHANGED, notify_on_commit
from tournaments.services.standings import standings_invalidate
from tournaments.services.starts import event_starts_update


def _active_entries(league: League) -> list[Entry]:
    """The accepted entries that have not withdrawn, the players a DRR seeds."""
    return list(league.entries.playing().select_related("player").order_by("pk"))


def require_invitations_answered(league: League, then: str) -> None:
    """Refuse to seed, schedule or draw while an invitation is unanswered: a player with an
    account takes part only after accepting (requests to join that wait for an organizer
    are simply not drawn)."""
    waiting = unaccepted_entries(league)
    if waiting:
        names = ", ".join(e.player.name for e in waiting)
        raise coded(
            "invitation_open" if len(waiting) == 1 else "invitations_open",
            field="entries",
            names=names,
            then=then,
        )


def unaccepted_entries(league: League) -> list[Entry]:
    """Invitations not yet accepted (players with accounts appear only after accepting)."""
    return list(
        league.entries.filter(state=Entry.State.INVITED, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("player__name")
    )


def triple_threat_rounds(players: int) -> int:
    """Rounds of a triple-threat cycle *(platform rule)*: three players play six games
    (each first mentioned twice, like a DRR); more players play 2·(n−1)/2 rounds, so
    each meets about as many boards as in a DRR."""
    return 6 if players == 3 else max(2, players - 1)


def cycle_create(
    *,
    league: League,
    by,
    rolls: list[dict] | None = None,
    seed: int | None = None,
    late_order: list[int] | None = None,
) -> Cycle:
    """Seed the league's next DRR by die roll and generate its schedule.

    ``rolls`` are the organizer's recorded rolls, round by round (``[{player name: roll},
    …]``, re-rolls of ties following); without them the platform rolls, reproducibly from
    ``seed`` (stored). ``late_order`` reorders G4–G6 of a three-player DRR.
    """
    require_organizer(by, league)
    fmt = get_format(league.format)
    if fmt.code == "open":
        raise coded("open_no_drr")
    if league.event_kind != League.EventKind.LEAGUE:
        raise coded("event_not_drrs", league=league.name)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        number = _next_drr_number(league)
        require_invitations_answered(league, "seed")
        entries = _active_entries(league)
        _check_player_count(league, fmt, entries)
        recorded = _recorded_rolls(league, entries, rolls)
        seed = _seed_for(league, seed, recorded)
        try:
            order = seed_by_die_roll([e.pk for e in entries], seed=seed, recorded_rolls=recorded)
            schedule = _drr_schedule(fmt, len(entries), late_order)
        except AlgorithmError as exc:
            raise from_algorithm(exc) from None
        cycle = Cycle.objects.create(
            league=league,
            number=number,
            seed=None if recorded else seed,
            rolls=_stored_rolls(order, recorded),
            late_order=list(late_order or []),
        )
        CycleSeed.objects.bulk_create(
            CycleSeed(cycle=cycle, entry_id=entry_id, number=n)
            for entry_id, n in order.seed_numbers.items()
        )
        entry_by_seed = {n: entry_id for entry_id, n in order.seed_numbers.items()}
        _create_fixtures(league, cycle, schedule, entry_by_seed, {e.pk: e for e in entries})
        _start_running(league)
        # new games change the table's totals (provisional, games left): recompute it
        standings_invalidate(league)
        notify_on_commit(SCHEDULE_CHANGED, league.pk, f"cycle-{cycle.pk}-seeded")
        return cycle


def _drr_schedule(fmt, players: int, late_order: list[int] | None):
    """Who plays whom in which round: a triple-threat cycle for a format of three at a
    board, else a double round-robin (G4–G6 of three players in ``late_order``)."""
    if fmt.players_per_game == 3:
        return round_robin.triple_threat_schedule(players, rounds=triple_threat_rounds(players))
    return round_robin.double_round_robin(players, late_order=late_order)


#: the statuses in which a league still starts DRRs
DRR_STATUSES = (League.Status.DRAFT, League.Status.REGISTRATION, League.Status.RUNNING)


def _start_running(league: League) -> None:
    """A league with its first games runs (from draft or registration)."""
    if league.status in (League.Status.DRAFT, League.Status.REGISTRATION):
        league.status = League.Status.RUNNING
        league.save(update_fields=["status"])


def _next_drr_number(league: League) -> int:
    """The number of the DRR to seed next, while the league may start one more."""
    if league.status not in DRR_STATUSES:
        raise coded("drr_no_more", league=league.name, status=league.status)
    number = league.cycles.count() + 1
    if number > league.drr_count:
        raise coded("all_drrs_generated", league=league.name, total=league.drr_count)
    return number


def _check_player_count(league: League, fmt, entries: list[Entry]) -> None:
    """A DRR needs two players, one of a format played by three at a board three."""
    if len(entries) < 2:
        raise coded("drr_needs_players", league=league.name, count=len(entries))
    if fmt.players_per_game == 3 and len(entries) < 3:
        raise coded("needs_three", format=fmt.code, count=len(entries))


def _recorded_rolls(league: League, entries: list[Entry], rolls) -> list[dict] | None:
    """The organizer's seeding rolls by entry id (``[{entry id: roll}, …]``), None without
    them. A name two entries share (issue 34) is typed as its label or the slug."""
    if not rolls:
        return None
    by_name = _names_typed(entries)
    try:
        return [{by_name[name]: roll for name, roll in round_.items()} for round_ in rolls]
    except KeyError as exc:
        raise coded(
            "seed_not_a_player", field="rolls", player=repr(exc.args[0]), league=league.name
        ) from None
    except (AttributeError, TypeError):
        raise coded("seed_rolls_shape", field="rolls") from None


def _names_typed(entries: list[Entry]) -> dict[str, int]:
    """How a seeding roll may name its player → entry id: a name no other entry shares,
    the player's label or slug."""
    names = [e.player.name for e in entries]
    by_name = {e.player.name: e.pk for e in entries if names.count(e.player.name) == 1}
    labels = {e.player.label: e.pk for e in entries}
    return by_name | labels | {e.player.slug: e.pk for e in entries}


def _seed_for(league: League, seed: int | None, recorded) -> int | None:
    """The seed of the platform's seeding dice (drawn when neither it nor rolls are
    given). Typed rolls seed the players, not the starting colours: the platform's dice
    for those (3T round 1, GP games) need a seed of their own, unpredictable and recorded
    (the league's, drawn once) so they replay."""
    if recorded is None:
        return secrets.randbelow(2**31) if seed is None else seed
    if league.draw_seed is None:
        league.draw_seed = secrets.randbelow(2**31)
        league.save(update_fields=["draw_seed"])
    return seed


def _stored_rolls(order, recorded) -> list[dict]:
    """The seeding's roll rounds as the DRR stores them (keys: entry ids as strings)."""
    return [
        {
            "round": r.number,
            "places": list(r.places),
            "rolls": {str(p): v for p, v in zip(r.players, r.rolls, strict=True)},
            "order": _typed_order(r.players, recorded, i),
        }
        for i, r in enumerate(order.history)
    ]


def _typed_order(players, recorded, index: int) -> list[str]:
    """The players of one roll round in the order the organizer typed them (else as
    rolled), as strings (the keys of the stored rolls)."""
    typed = recorded[index] if recorded and index < len(recorded) else []
    return [str(p) for p in _typed_first(typed, players)]


def _typed_first(typed, players) -> list:
    """``players`` in the ``typed`` order, those not typed after them."""
    first = [p for p in typed if p in players]
    return first + [p for p in players if p not in first]


def start_seed(cycle: Cycle, game_number: int) -> str:
    """The seed of the platform's starting-colour dice of a DRR game: the DRR's seed when
    the platform drew the seeding rolls, else the league's recorded draw seed (typed
    seeding rolls used to give the constant ``"None-1-1"``, so every such league started
    alike)."""
    base = cycle.seed if cycle.seed is not None else cycle.league.draw_seed
    return f"{base}-{cycle.number}-{game_number}"


def _last_round_by_board(cycle: Cycle) -> dict[int, Fixture]:
    """A 3T/3T+ league is one triple-threat tournament (docs/decisions.md): the first
    round of DRR n follows the last round of DRR n−1, board k after board k (only the
    league's very first round is started by die roll)."""
    earlier = (
        Cycle.objects.filter(league_id=cycle.league_id, number__lt=cycle.number)
        .order_by("-number")
        .first()
    )
    if earlier is None:
        return {}
    games = list(earlier.fixtures.order_by("-round", "number"))
    if not games:
        return {}
    last = [g for g in games if g.round == games[0].round]
    return dict(enumerate(last))


def _create_fixtures(league, cycle, schedule, entry_by_seed, entries) -> None:
    """The DRR's games with their seats and starts. The start follows the format
    (tournament.md, Starting colour): a double-threat DRR game the rearguard of the
    first-mentioned player; a 3T/3T+ game from the second round on the colour that
    clinched victory in the previous game at the same board (decided when that result
    counts, "decided by game N"), the first round by die roll; a GP game by die roll
    (the rolls kept and shown, as in a GP event)."""
    fmt = get_format(league.format)
    board_colours = DEFAULT_COLOURS[league.board]
    preferences = {pk: (e.preferred_colours or None) for pk, e in entries.items()}
    chained = fmt.players_per_game == 3  # 3T / 3T+: games follow each other at a board
    game_number = 0
    seats: list[Seat] = []
    carried_over = _last_round_by_board(cycle) if chained else {}
    previous_at_board: dict[int, Fixture] = dict(carried_over)
    for rnd in schedule.rounds:
        this_round: dict[int, Fixture] = {}
        for board_index, game in enumerate(rnd.games):
            game_number += 1
            at_board = [entry_by_seed[s] for s in game]
            earlier = previous_at_board.get(board_index) if chained else None
            try:
                assignment = assign_colours(
                    at_board, preferences, board_colours, fmt.layout, league.clash_policy
                )
                start_fields = _start_fields(
                    fmt, chained, cycle, game_number, assignment, at_board, earlier
                )
            except AlgorithmError as exc:
                raise from_algorithm(exc) from None
            fixture = Fixture.objects.create(
                league=league,
                cycle=cycle,
                round=rnd.number,
                number=game_number,
                label=_drr_label(rnd, game_number),
                **start_fields,
            )
            this_round[board_index] = fixture
            seats.extend(seats_for(fixture, at_board, assignment))
        previous_at_board = this_round
    Seat.objects.bulk_create(seats)
    for earlier in carried_over.values():  # already counted: the start is known now
        event_starts_update(earlier)


def _drr_label(rnd, game_number: int) -> str:
    """A DRR game's label: its round's (a round of one game), else ``G`` and its number."""
    return rnd.label if len(rnd.games) == 1 else f"G{game_number}"


def _start_fields(
    fmt, chained: bool, cycle: Cycle, game_number: int, assignment, at_board, earlier
) -> dict:
    """A game's start: decided by the ``earlier`` game at its board when there is one
    (3T/3T+), else a double-threat DRR game's by the rule, any other by the platform's
    die roll (the rolls kept and shown)."""
    if earlier is not None:
        return {"start_basis": "clinching-colour", "start_depends_on": earlier}
    rule = "drr" if fmt.layout == "side-by-side" and not chained else "die-roll"
    start = decide_starting_colour(
        rule,
        assignment=assignment,
        board_colours=DEFAULT_COLOURS[cycle.league.board],
        at_board=at_board,
        seed=start_seed(cycle, game_number),
    )
    if rule != "die-roll":
        return {"starting_colour": start.colour}
    return {
        "starting_colour": start.colour,
        "start_basis": "die-roll",
        "start_reason": START_BY_DICE,
        "start_rolls": [r.as_dict() for r in start.rolls.history] if start.rolls else [],
    }


def seats_for(fixture: Fixture, at_board: list[int], assignment) -> list[Seat]:
    """The seats of a game, in at-board order, with their colours."""
    return [
        Seat(
            fixture=fixture,
            entry_id=entry_id,
            position=position,
            colours=list(assignment[entry_id]),
        )
        for position, entry_id in enumerate(at_board)
    ]


def cycle_reorder_late_games(*, cycle: Cycle, by, late_order: list[int]) -> Cycle:
    """Three players: the organizer reorders G4–G6 (none of them may have a result)."""
    require_organizer(by, cycle.league)
    _check_three_player_drr(cycle)
    try:
        schedule = round_robin.three_player_drr(late_order)
    except AlgorithmError as exc:
        raise from_algorithm(exc, field="late_order") from None
    with transaction.atomic():
        _renumber(_late_games_unplayed(cycle), schedule)
        cycle.late_order = list(late_order)
        cycle.save(update_fields=["late_order"])
        order = "-".join(str(n) for n in late_order)
        notify_on_commit(
            SCHEDULE_CHANGED, cycle.league_id, f"cycle-{cycle.pk}-late-{order}-{timezone.now():%s}"
        )
        return cycle


def _check_three_player_drr(cycle: Cycle) -> None:
    """G4–G6 are reordered only in a DRR of three players of a double-threat format."""
    if cycle.seeds.count() != 3 or get_format(cycle.league.format).players_per_game != 2:
        raise coded("reorder_three_only")


def _renumber(fixtures: dict[str, Fixture], schedule) -> None:
    """The games (by label) take the round and number the schedule gives their label."""
    for rnd in schedule.rounds:
        if rnd.label in fixtures:
            f = fixtures[rnd.label]
            f.round = f.number = rnd.number
            f.save(update_fields=["round", "number", "updated_at"])


def _late_games_unplayed(cycle: Cycle) -> dict[str, Fixture]:
    """G4–G6 of the DRR by label, locked, refused once any of them has a result."""
    fixtures = {
        f.label: f
        for f in cycle.fixtures.select_for_update(no_key=True).filter(label__in=["G4", "G5", "G6"])
    }
    if any(f.status != Fixture.Status.SCHEDULED or f.results.exists() for f in fixtures.values()):
        raise coded("reorder_before_results")
    return fixtures


def fixture_reschedule(*, fixture: Fixture, by, scheduled_at=None, deadline=None) -> Fixture:
    """Set (or clear) a game's date and its result deadline; the deadline may not come
    before the game."""
    require_organizer(by, fixture.league)
    if scheduled_at and deadline and deadline < scheduled_at:
        raise coded("deadline_before_game", field="deadline")
    with transaction.atomic():
        fixture = Fixture.objects.select_for_update(no_key=True).get(pk=fixture.pk)
        if fixture.status in (Fixture.Status.CANCELLED,):
            raise coded("game_cancelled")
        fixture.scheduled_at, fixture.deadline = scheduled_at, deadline
        fixture.save(update_fields=["scheduled_at", "deadline", "updated_at"])
        return fixture


def round_dates_set(
    *, cycle: Cycle, by, round_number: int, scheduled_at=None, deadline=None
) -> int:
    """Give every game of one round of a DRR the same date and deadline; returns how many
    games changed. Games that already have a counted result keep theirs."""
    require_organizer(by, cycle.league)
    if scheduled_at and deadline and deadline < scheduled_at:
        raise coded("deadline_before_round", field="deadline")
    with transaction.atomic():
        games = list(
            cycle.fixtures.select_for_update(no_key=True)
            .filter(round=round_number)
            .exclude(status__in=Fixture.COUNTED_STATUSES)
        )
        if not cycle.fixtures.filter(round=round_number).exists():
            raise coded(
                "drr_no_round", field="round_number", cycle=cycle.number, round=round_number
            )
        for game in games:
            game.scheduled_at, game.deadline = scheduled_at, deadline
            game.save(update_fields=["scheduled_at", "deadline", "updated_at"])
        return len(games)


def late_order_preview(cycle: Cycle, late_order: list[int]) -> list[dict]:
    """What the three-player DRR looks like with G4–G6 in ``late_order``: the games in
    their new order (label, round, players). Raises ServiceError for a bad order."""
    try:
        schedule = round_robin.three_player_drr(late_order)
    except AlgorithmError as exc:
        raise from_algorithm(exc, field="late_order") from None
    fixtures = {f.label: f for f in cycle.fixtures.prefetch_related("seats__entry__player")}
    rows = []
    for rnd in sorted(schedule.rounds, key=lambda r: r.number):
        fixture = fixtures.get(rnd.label)
        rows.append(
            {
                "round": rnd.number,
                "label": rnd.label,
                "players": [s.entry.player.name for s in fixture.seats.all()] if fixture else [],
            }
        )
    return rows


def cycle_dates_recur(
    *, cycle: Cycle, by, first, every_days: int = 7, due_hours: int | None = None
) -> int:
    """Date every round of a DRR in one step: round 1 at ``first`` (a wall-clock time in the
    site's time zone), then one round every ``every_days`` days at the same time; each
    result due ``due_hours`` later. Each round stays editable afterwards
    (``round_dates_set``); games with a counted result keep their dates. Returns how many
    games were dated."""

    require_organizer(by, cycle.league)
    rounds = sorted(set(cycle.fixtures.values_list("round", flat=True)))
    if not rounds:
        raise coded("drr_nothing_to_date", cycle=cycle.number)
    try:
        dates = round_dates(
            first,
            len(rounds),
            every_days=every_days,
            due_hours=due_hours,
            zone=settings.TIME_ZONE,
        )
    except AlgorithmError as exc:
        raise from_algorithm(exc, field="every_days") from None
    with transaction.atomic():
        return sum(
            round_dates_set(
                cycle=cycle,
                by=by,
                round_number=number,
                scheduled_at=date.scheduled_at,
                deadline=date.deadline,
            )
            for number, date in zip(rounds, dates, strict=True)
        )


def league_date_groups(league) -> list[tuple[str, list[Fixture]]]:
    """The games outside the DRRs still to be played, grouped into the "rounds" one date
    is given to, in playing order: an event's games (Grand Prix, triple threat,
    Challengers) one by one; an open tournament's drawn rounds, its final table after them;
    playoff games by bracket round and game number (game 2 of both semi-finals on one
    date). Games that count already, or were cancelled, are left out. Each group is
    ``(label, games)``."""
    done = Fixture.CLOSED_STATUSES
    games = (
        league.fixtures.filter(cycle__isnull=True)
        .exclude(status__in=done)
        .select_related("series")
        .order_by("pk")
    )
    groups: dict[tuple, list[Fixture]] = {}
    for game in games:
        key = (1, game.round, game.number) if game.series_id else (0, game.round, 0)
        groups.setdefault(key, []).append(game)
    return [(_group_label(groups[key]), groups[key]) for key in sorted(groups)]


def _group_label(members: list[Fixture]) -> str:
    """A group's label: its games' labels, each once."""
    return ", ".join(dict.fromkeys(_game_label(g) for g in members))


def _game_label(game: Fixture) -> str:
    if game.series_id:
        return f"{game.series.name} G{game.number}"
    return game.label or f"#{game.number}"


def league_dates_recur(
    *, league, by, first, every_days: int = 7, due_hours: int | None = None
) -> int:
    """Date the games outside the DRRs in one step (``league_date_groups``): the first group
    at ``first`` (a wall-clock time in the site's time zone), then one group every
    ``every_days`` days at the same time, each result due ``due_hours`` later; every game
    stays editable afterwards (``fixture_reschedule``). Rounds and series games that do not
    exist yet (an open round not drawn, a series game not needed yet) are dated by running
    it again once they exist. Returns how many games were dated."""

    require_organizer(by, league)
    groups = league_date_groups(league)
    if not groups:
        raise coded("league_nothing_to_date", league=league.name)
    try:
        dates = round_dates(
            first,
            len(groups),
            every_days=every_days,
            due_hours=due_hours,
            zone=settings.TIME_ZONE,
        )
    except AlgorithmError as exc:
        raise from_algorithm(exc, field="every_days") from None
    dated = 0
    with transaction.atomic():
        league.date_plan = {"every_days": every_days, "due_hours": due_hours}
        League.objects.filter(pk=league.pk).update(date_plan=league.date_plan)
        for (_label, members), date in zip(groups, dates, strict=True):
            dated += _date_group(members, date)
    return dated


def _date_group(members: list[Fixture], date) -> int:
    """One group's games without a counted result get its date and deadline (locked
    first); how many did."""
    locked = Fixture.objects.select_for_update(no_key=True).filter(pk__in=[g.pk for g in members])
    dated = 0
    for game in locked.exclude(status__in=Fixture.COUNTED_STATUSES):
        game.scheduled_at, game.deadline = date.scheduled_at, date.deadline
        game.save(update_fields=["scheduled_at", "deadline", "updated_at"])
        dated += 1
    return dated


def date_new_games(league, games: list[Fixture]) -> None:
    """Games made after the organizer dated the games outside DRRs in one step (an open
    round drawn, the final table, a playoff game needed, an extra Grand Prix game) continue
    its rhythm (``League.date_plan``): a game whose group (a round; in the playoffs a
    round's game number) has a dated game takes that date; otherwise the next date after
    the latest one, ``every_days`` later at the same wall-clock time, due ``due_hours``
    after it. Without a plan, or with nothing dated yet, the games stay undated."""

    plan = league.date_plan or {}  # no query: the creating service's league row
    every, due_hours = plan.get("every_days"), plan.get("due_hours")
    if not every or not games:
        return
    dated = league.fixtures.filter(cycle__isnull=True, scheduled_at__isnull=False).exclude(
        pk__in=[g.pk for g in games]
    )
    following = _next_date(dated, every)
    if following is None:
        return
    for game in games:
        same = _dated_group(dated, game).order_by("scheduled_at").first()
        game.scheduled_at, game.deadline = _date_of(same, following, due_hours)
        game.save(update_fields=["scheduled_at", "deadline", "updated_at"])


def _next_date(dated, every: int):
    """The plan's date after the latest dated game (none while none is dated)."""
    latest = dated.order_by("-scheduled_at").first()
    if latest is None:
        return None
    return round_dates(latest.scheduled_at, 2, every_days=every, zone=settings.TIME_ZONE)[1]


def _date_of(same: Fixture | None, following, due_hours) -> tuple:
    """A new game's date and deadline: those of its group's dated game, else the plan's
    next date (due ``due_hours`` after it)."""
    if same is not None:
        return same.scheduled_at, same.deadline
    return following.scheduled_at, _due(following.scheduled_at, due_hours)


def _dated_group(dated, game: Fixture):
    """The dated games of ``game``'s group: its round (a playoff game: the same game
    number of its round)."""
    group = dated.filter(round=game.round, series__isnull=game.series_id is None)
    if game.series_id:
        group = group.filter(number=game.number)
    return group


def _due(scheduled_at, due_hours):
    """The result deadline ``due_hours`` after the game (none without)."""
    return scheduled_at + timedelta(hours=due_hours) if due_hours else None
