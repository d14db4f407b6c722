"""Events played as a sequence of games: triple-threat events (each game 3T, 3T+ or GP),
double-threat Challengers (game 0, 1, 2, …) and the Grand Prix; their schedules, the
starting colours that earlier results decide, and a Grand Prix's extra and cancelled games.

A game whose start depends on an earlier game is stored with ``starting_colour`` empty,
``start_basis`` and ``start_depends_on``; ``event_starts_update`` (called by
``counting.result_counted`` in the transaction that makes a result count, or stop counting)
resolves it with ``starting_colour.resolve_start`` and refuses a change that would move the
start of a game that already has a result.
"""

from __future__ import annotations

import itertools
import secrets

from django.db import transaction

from core.reasons import START_AT_TABLE, START_BY_DICE, START_BY_HAND, note
from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms import grand_prix, starting_colour
from tournaments.algorithms.colours import assign_colours
from tournaments.algorithms.errors import AlgorithmError
from tournaments.formats import get_format
from tournaments.models import Fixture, League, Result, Seat
from tournaments.selectors import formats as formats_selectors
from tournaments.services.errors import ServiceError, coded, from_algorithm, why_of
from tournaments.services.guards import require_organizer
from tournaments.services.league_settings import check_game_formats
from tournaments.services.schedule import (
    date_new_games,
    require_invitations_answered,
    seats_for,
)
from tournaments.services.standings import standings_invalidate
from tournaments.services.starts import (  # noqa: F401  (event_starts_update: re-exported)
    event_starts_update,
    previous_game,
)

EventKind = League.EventKind
SEQUENCE_EVENTS = (EventKind.TRIPLE_THREAT, EventKind.CHALLENGERS, EventKind.GRAND_PRIX)
LIVE = (Result.State.CONFIRMED, *Result.OPEN_STATES)


def event_formats(league: League) -> list[str]:
    """Each game's format, in order (Challengers: game 0 first; a Grand Prix: its set
    number of games, all of the league's format)."""
    if league.event_kind == EventKind.GRAND_PRIX:
        return [league.format] * league.games_planned
    return list(league.game_formats)


def event_plan(league: League) -> tuple[starting_colour.StartPlan, ...]:
    """The start plan of every game of the event (a Grand Prix: every game by die roll)."""
    formats = event_formats(league)
    planner = PLANNERS.get(league.event_kind)
    try:
        if planner is not None:
            return planner(formats)
    except AlgorithmError as exc:
        raise from_algorithm(exc, field="game_formats") from None
    return tuple(starting_colour.StartPlan(n, "die-roll") for n in range(1, len(formats) + 1))


def check_event(kind: str, fmt_code: str, board: int, formats: list, games: int) -> list[str]:
    """Validate an event's configuration at creation; the per-game formats to store."""
    if kind == EventKind.GRAND_PRIX:
        _check_grand_prix(fmt_code, games)
        return []
    if kind not in PLANNERS:
        return []
    _check_game_formats(kind, formats)
    if board != EVENT_BOARDS[kind]:
        raise coded("event_board", field="board", board=EVENT_BOARDS[kind])
    try:
        PLANNERS[kind](formats)
    except AlgorithmError as exc:
        raise from_algorithm(exc, field="game_formats") from None
    return list(formats)


#: how the starts of a triple-threat or Challengers event's games are planned
PLANNERS = {
    EventKind.CHALLENGERS: starting_colour.plan_challengers,
    EventKind.TRIPLE_THREAT: starting_colour.plan_triple_threat,
}
#: the board each of them is played on
EVENT_BOARDS = {EventKind.TRIPLE_THREAT: 6, EventKind.CHALLENGERS: 4}
#: the formats of their games
EVENT_GAME_FORMATS = {
    EventKind.TRIPLE_THREAT: ("3T", "3T+", "GP", "GP+"),
    EventKind.CHALLENGERS: ("2T", "2T+", "GP", "GP+"),
}


def _check_grand_prix(fmt_code: str, games) -> None:
    """A Grand Prix plays GP or GP+, 1 to 50 games."""
    if fmt_code not in ("GP", "GP+"):
        raise coded("gp_formats", field="format")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 50:
        raise coded("gp_games_range", field="games")


def _check_game_formats(kind: str, formats) -> None:
    """1 to 50 games, each of a format the event plays (Challengers: game 0 first)."""
    if not isinstance(formats, list) or not formats or len(formats) > 50:
        raise coded("event_formats_list", field="game_formats")
    check_game_formats(kind, formats, EVENT_GAME_FORMATS[kind], field="game_formats")


def _seating(league: League, code: str, at_board, preferences, board_colours):
    fmt = get_format(code)
    own = get_format(league.format).layout == fmt.layout
    if fmt.layout == "opposite":
        return grand_prix.grand_prix_seating(at_board, preferences if own else None, board_colours)
    return assign_colours(
        at_board, preferences if own else None, board_colours, fmt.layout, league.clash_policy
    )


def event_schedule(*, league: League, by, seed: int | None = None) -> list[Fixture]:
    """Schedule every game of a triple-threat, Challengers or Grand Prix event.

    The players sit in entry order (first entered is first mentioned); each game gets
    the colours of its own format; the first game is started by die roll (rolled here,
    reproducibly from ``seed``, stored); every later game of a triple-threat or
    Challengers event waits for the game that decides it ("decided by game N"), a Grand
    Prix game rolls its own dice.
    """
    require_organizer(by, league)
    if league.event_kind not in SEQUENCE_EVENTS:
        raise coded("event_kind_wrong", league=league.name)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.fixtures.exists():
            raise coded("event_scheduled")
        require_invitations_answered(league, "schedule")
        entries = list(league.entries.playing().select_related("player").order_by("pk"))
        _check_players(league, len(entries))
        if seed is None:
            seed = league.draw_seed if league.draw_seed is not None else secrets.randbelow(2**31)
        league.draw_seed = seed
        league.status = League.Status.RUNNING
        league.save(update_fields=["draw_seed", "status"])
        made = []
        plan = event_plan(league)
        formats = event_formats(league)
        for code, step in zip(formats, plan, strict=True):
            made.append(_schedule_game(league, entries, code, step, made))
        standings_invalidate(league)
        return made


#: the players of an event with a fixed number of them, and the refusal of another number
FIXED_PLAYERS = {
    EventKind.CHALLENGERS: (2, "challengers_players"),
    EventKind.TRIPLE_THREAT: (3, "triple_threat_players"),
}


def _check_players(league: League, count: int) -> None:
    """Challengers are two players, a triple-threat event three, a Grand Prix two up to
    half the board's colours."""
    needed, refusal = FIXED_PLAYERS.get(league.event_kind, (count, ""))
    if count != needed:
        raise coded(refusal, league=league.name, count=count)
    most = len(DEFAULT_COLOURS[league.board]) // 2
    if league.event_kind == EventKind.GRAND_PRIX and not 2 <= count <= most:
        raise coded("gp_players", board=league.board, most=most, league=league.name, count=count)


def _schedule_game(league: League, entries, code: str, step, earlier: list[Fixture]) -> Fixture:
    board_colours = DEFAULT_COLOURS[league.board]
    at_board = [e.pk for e in entries]
    preferences = _preferences(entries)
    number = step.game
    try:
        assignment = _seating(league, code, at_board, preferences, board_colours)
    except AlgorithmError as exc:
        raise from_algorithm(exc) from None
    prefix = "GP" if league.event_kind == EventKind.GRAND_PRIX else "Game"
    fixture = Fixture.objects.create(
        league=league,
        round=number,
        number=number,
        label=f"{prefix} {number}",
        format="" if code == league.format else code,
        start_basis=step.basis,
        **_planned_start(league, step, assignment, earlier),
    )
    Seat.objects.bulk_create(seats_for(fixture, at_board, assignment))
    return fixture


def _planned_start(league: League, step, assignment, earlier: list[Fixture]) -> dict:
    """A game's start as planned: rolled now (the first game, a Grand Prix game), or
    waiting for the earlier game that decides it."""
    if step.depends_on is None:
        board_colours = DEFAULT_COLOURS[league.board]
        return _die_roll_start(league, assignment, board_colours, step.game)
    return {"start_depends_on": next(f for f in earlier if f.number == step.depends_on)}


def _preferences(entries) -> dict[int, list | None]:
    """Each entry's preferred colours (None: no preference)."""
    return {e.pk: (e.preferred_colours or None) for e in entries}


def _die_roll_start(league: League, assignment, board_colours, number: int) -> dict:
    try:
        decided = starting_colour.decide_starting_colour(
            "die-roll",
            assignment=assignment,
            board_colours=board_colours,
            seed=f"{league.draw_seed}-start-{number}",
        )
    except AlgorithmError as exc:
        raise from_algorithm(exc) from None
    return {
        "starting_colour": decided.colour,
        "start_reason": START_BY_DICE,
        "start_rolls": [r.as_dict() for r in decided.rolls.history] if decided.rolls else [],
    }


# --- the Grand Prix -------------------------------------------------------------------------


def grand_prix_state(league: League) -> grand_prix.GrandPrixStatus:
    """Where the Grand Prix stands (``selectors.formats.grand_prix_status``), or a
    ServiceError naming why it cannot be judged."""
    try:
        return formats_selectors.grand_prix_status(league)
    except AlgorithmError as exc:
        raise from_algorithm(exc) from None


grand_prix_points = formats_selectors.grand_prix_points


def grand_prix_progress(league: League) -> None:
    """After a counted change in a Grand Prix: cancel the games left once the winner is
    certain (shown as cancelled because decided), bring them back when a correction makes
    the winner uncertain again, and add an extra game while the top is tied with no game
    left. Runs inside the transaction that changed the result."""
    league = League.objects.select_for_update().get(pk=league.pk)
    try:
        state = grand_prix_state(league)
    except ServiceError:  # e.g. players withdrew below two: nothing to decide, results count
        return
    cancelled = league.fixtures.filter(cancel_reason=Fixture.CancelReason.DECIDED)
    if state.winner is not None:
        league.fixtures.filter(status=Fixture.Status.SCHEDULED).exclude(
            results__state__in=LIVE
        ).update(status=Fixture.Status.CANCELLED, cancel_reason=Fixture.CancelReason.DECIDED)
        _move_status(league, League.Status.RUNNING, League.Status.FINISHED)
        return
    if cancelled.exists():
        cancelled.update(status=Fixture.Status.SCHEDULED, cancel_reason="")
        state = grand_prix_state(league)
    _move_status(league, League.Status.FINISHED, League.Status.RUNNING)
    if state.extra_game_needed:
        grand_prix_extra_game(league)


def sequence_event_progress(league: League) -> None:
    """A triple-threat or Challengers event finishes by itself once every game is decided
    (as a Grand Prix does when its winner is certain), and runs again when a correction
    or a void leaves a game undecided. Runs inside the transaction that changed the
    result."""
    if league.event_kind not in (EventKind.TRIPLE_THREAT, EventKind.CHALLENGERS):
        return
    league = League.objects.select_for_update().get(pk=league.pk)
    games = league.fixtures.exclude(status=Fixture.Status.CANCELLED)
    open_games = games.filter(status__in=formats_selectors.UNDECIDED).exists()
    if open_games:
        _move_status(league, League.Status.FINISHED, League.Status.RUNNING)
    elif games.exists():
        _move_status(league, League.Status.RUNNING, League.Status.FINISHED)


def _move_status(league: League, before: str, after: str) -> None:
    """A league in status ``before`` goes to ``after`` (in any other, it stays)."""
    if league.status == before:
        league.status = after
        league.save(update_fields=["status"])


def grand_prix_league_progress(league: League) -> None:
    """A Grand Prix league of DRRs has no tie-breaks either (tournament.md, "Grand Prix":
    extra games while the top is tied): once every DRR is seeded and every game decided,
    a top tied on GP points gets extra games among the leaders (two leaders: one game;
    more: each pair once); a correction that unties the top cancels the extra games
    without a result (shown as decided), and brings them back when it ties again. Not
    for a league with playoffs (they decide the title). Runs inside the transaction that
    changed the result."""
    if league.playoffs or league.event_kind != EventKind.LEAGUE:
        return
    league = League.objects.select_for_update().get(pk=league.pk)
    if not _drrs_decided(league):
        return
    extra = league.fixtures.filter(cycle__isnull=True, series__isnull=True)
    pending = extra.filter(status__in=formats_selectors.UNDECIDED).exclude(results__state__in=LIVE)
    leaders = grand_prix_league_leaders(league)
    if len(leaders) < 2:
        pending.update(status=Fixture.Status.CANCELLED, cancel_reason=Fixture.CancelReason.DECIDED)
        return
    _play_off_the_tie(league, extra, leaders)


def _play_off_the_tie(league: League, extra, leaders: list[int]) -> None:
    """A tied top: the extra games cancelled as decided come back; else, once no game is
    left, each pair of leaders gets an extra game."""
    cancelled = extra.filter(cancel_reason=Fixture.CancelReason.DECIDED)
    if cancelled.exists():
        cancelled.update(status=Fixture.Status.SCHEDULED, cancel_reason="")
        return
    if league.fixtures.filter(status__in=formats_selectors.UNDECIDED).exists():
        return  # the extra games of this tie are still to be played
    made = [_extra_league_game(league, pair) for pair in itertools.combinations(leaders, 2)]
    date_new_games(league, made)


def _drrs_decided(league: League) -> bool:
    """Every DRR of the league is seeded and every game of them decided."""
    if league.cycles.count() < league.drr_count:
        return False
    return not league.fixtures.filter(
        cycle__isnull=False, status__in=formats_selectors.UNDECIDED
    ).exists()


def grand_prix_league_leaders(league: League) -> list[int]:
    """The entries tied on top of a GP league's points (one entry: a single leader)."""
    points = formats_selectors.grand_prix_points(league)
    if not points:
        return []
    top = max(points.values())
    return sorted(e for e, v in points.items() if v == top)


def _extra_league_game(league: League, pair: tuple[int, ...]) -> Fixture:
    if league.draw_seed is None:
        league.draw_seed = secrets.randbelow(2**31)
        league.save(update_fields=["draw_seed"])
    board_colours = DEFAULT_COLOURS[league.board]
    preferences = _preferences(league.entries.filter(pk__in=pair))
    try:
        assignment = grand_prix.grand_prix_seating(list(pair), preferences, board_colours)
    except AlgorithmError as exc:
        raise from_algorithm(exc) from None
    number, rounds = _next_numbers(league)
    fixture = Fixture.objects.create(
        league=league,
        round=rounds,
        number=number,
        label=f"GP {number} (extra)",
        start_basis="die-roll",
        **_die_roll_start(league, assignment, board_colours, number),
    )
    Seat.objects.bulk_create(seats_for(fixture, list(pair), assignment))
    return fixture


def _next_numbers(league: League) -> tuple[int, int]:
    """The number and the round of a game after every game of the league."""
    last = league.fixtures.order_by("-number").values_list("number", "round").first() or (0, 0)
    rounds = league.fixtures.order_by("-round").values_list("round", flat=True).first() or 0
    return last[0] + 1, rounds + 1


def grand_prix_extra_game(league: League) -> Fixture:
    """Add one more game to a Grand Prix whose top is tied with no game left."""
    entries = list(league.entries.playing().select_related("player").order_by("pk"))
    number = (league.fixtures.order_by("-number").values_list("number", flat=True).first()) or 0
    step = starting_colour.StartPlan(number + 1, "die-roll")
    fixture = _schedule_game(league, entries, league.format, step, [])
    fixture.label = f"GP {number + 1} (extra)"
    fixture.save(update_fields=["label"])

    date_new_games(league, [fixture])
    return fixture


def grand_prix_add_game(*, league: League, by) -> Fixture:
    """An organizer adds an extra game; only while the top is tied and no game is left
    (normally the platform adds it by itself when the last game counts)."""
    require_organizer(by, league)
    if league.event_kind == EventKind.LEAGUE and league.format in ("GP", "GP+"):
        return _grand_prix_league_add_game(league)
    if league.event_kind != EventKind.GRAND_PRIX:
        raise coded("not_gp", league=league.name)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        state = grand_prix_state(league)
        if not state.extra_game_needed:
            if len(state.leaders) > 1:
                raise coded("extra_game_games_left", leaders=len(state.leaders))
            raise coded("extra_game_not_tied")
        fixture = grand_prix_extra_game(league)
        standings_invalidate(league)
        return fixture


def _rolled_start(in_play: list[str], rolls) -> tuple[str, list, str]:
    """The start the die rolls rolled at the table decide: (colour, rolls, reason)."""
    if not _rounds_of_rolls(rolls):
        raise coded("start_rolls_shape", field="rolls")
    try:
        decided = starting_colour.die_roll_starting_colour(
            in_play, recorded_rolls=[dict(r) for r in rolls]
        )
    except AlgorithmError as exc:
        raise coded("start_rolls_invalid", field="rolls", why=why_of(exc)) from None
    history = [r.as_dict() for r in decided.history]
    return decided.winner, history, START_AT_TABLE


def _rounds_of_rolls(rolls) -> bool:
    """Rolls given as a list of rounds, each ``{colour: roll}``."""
    return isinstance(rolls, list) and all(isinstance(r, dict) for r in rolls)


def _start_by_hand(in_play: list[str], colour, reason: str) -> tuple[str, list, str]:
    """A colour in play set by the organizer, with the reason: (colour, rolls, reason)."""
    if colour not in in_play:
        raise coded(
            "start_colour_not_in_play",
            field="colour",
            given=repr(colour),
            colours=", ".join(in_play),
        )
    if not reason.strip():
        raise coded("start_reason_missing", field="reason")
    return colour, [], note(START_BY_HAND, reason=reason.strip()[:150])


def _check_start_settable(fixture: Fixture) -> None:
    """A start is recorded where the rule does not decide it, before any result."""
    refusal = start_by_hand_refusal(fixture)
    if refusal is not None:
        raise refusal
    if fixture.results.filter(state__in=LIVE).exists():
        raise coded("start_has_result", game=fixture.label or fixture.number)


def start_by_hand_refusal(fixture: Fixture) -> ServiceError | None:
    """Why ``fixture``'s start may not be set by hand (None where it may): the regulation
    decides a double-threat DRR start (the first-mentioned player's rearguard), a playoff
    start (the higher seed's rearguard) and a start decided by an earlier game's result —
    unless that result has no finishing order (a forfeit, a result without a log) or its
    colour is not in play here. Die-roll starts are rolled at the table (or set by hand)."""
    game = fixture.label or str(fixture.number)
    if fixture.start_depends_on_id is not None:
        return _decided_start_refusal(fixture, game)
    if fixture.start_basis == "die-roll":
        return None
    if fixture.series_id is not None:
        return coded("start_rule_playoff", game=game)
    if fixture.cycle_id is not None and fixture.starting_colour:
        return coded("start_rule_drr", game=game)
    return None


def _decided_start_refusal(fixture: Fixture, game: str) -> ServiceError | None:
    """A start an earlier game's result decides: set by hand only while that result has
    no finishing order (or once the organizer set it by hand before)."""
    decider = fixture.start_depends_on
    name = decider.label or str(decider.number)
    if not decider.results.filter(state=Result.State.CONFIRMED).exists():
        return coded("start_rule_waits", game=game, decider=name)
    if previous_game(decider) is None or not fixture.starting_colour:
        return None
    if fixture.start_reason.startswith("set by the organizer"):
        return None  # set by hand before: the organizer may correct it
    return coded("start_rule_decided", game=game, c=fixture.starting_colour, decider=name)


def _grand_prix_league_add_game(league: League) -> Fixture:
    """An organizer adds the extra games of a GP league's tied top (normally added by
    themselves when the last game counts): refused unless the top is tied and every game
    is decided."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.playoffs:
            raise coded("extra_game_playoffs", league=league.name)
        leaders = grand_prix_league_leaders(league)
        if (
            league.cycles.count() < league.drr_count
            or league.fixtures.filter(status__in=formats_selectors.UNDECIDED).exists()
        ):
            raise coded("extra_game_drrs_left")
        if len(leaders) < 2:
            raise coded("extra_game_not_tied")
        before = set(league.fixtures.values_list("pk", flat=True))
        grand_prix_league_progress(league)
        made = league.fixtures.exclude(pk__in=before).order_by("number").first()
        standings_invalidate(league)
        return made


def fixture_start_record(
    *, fixture: Fixture, by, rolls: list | None = None, colour: str | None = None, reason: str = ""
) -> Fixture:
    """An organizer records a game's starting colour: the die rolls rolled at the table
    (round by round, ``{colour: roll}``; only a tie for the highest roll is re-rolled), or a
    colour set by hand (with a reason) where the rule cannot decide (e.g. the colour that
    clinched the earlier game is not in play). Refused once the game has a result."""
    require_organizer(by, fixture.league)
    if (rolls is None) == (colour is None):
        raise coded("start_rolls_or_colour")
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update(no_key=True)
            .select_related("league")
            .get(pk=fixture.pk)
        )
        _check_start_settable(fixture)
        in_play = [c for s in fixture.seats.all() for c in s.colours]
        if rolls is not None:
            start = _rolled_start(in_play, rolls)
        else:
            start = _start_by_hand(in_play, colour, reason)
        fixture.starting_colour, fixture.start_rolls, fixture.start_reason = start
        fixture.save(update_fields=["starting_colour", "start_rolls", "start_reason", "updated_at"])
        return fixture
