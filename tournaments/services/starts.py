"""Starts decided by earlier results: a game stored with ``starting_colour`` empty,
``start_basis`` and ``start_depends_on`` gets its colour when the deciding game's result
counts (``event_starts_update``, called by ``counting.result_counted`` and by the schedule
for a DRR whose first round follows the last one). Apart from ``events`` so the schedule
can use it without an import circle."""

from __future__ import annotations

from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms import starting_colour
from tournaments.algorithms.errors import AlgorithmError
from tournaments.models import Fixture, Result
from tournaments.services.errors import coded, why_of

LIVE = (Result.State.CONFIRMED, *Result.OPEN_STATES)


def previous_game(fixture: Fixture) -> starting_colour.PreviousGame | None:
    """The counted result of ``fixture`` as the start rules need it (colours in finishing
    order, who held which, how its format ends), or None while nothing counts."""
    result = fixture.results.filter(state=Result.State.CONFIRMED).first()
    if result is None or not result.finished_colours:
        return None  # no counted result, or one without the colours' finishing order
    owner_colours = {s.entry_id: tuple(s.colours) for s in fixture.seats.all()}
    placings = tuple(result.finished_colours)
    return starting_colour.PreviousGame(
        placings=placings,
        assignment=owner_colours,
        end=starting_colour.FORMAT_ENDS.get(fixture.game_format, "first-colour"),
    )


def event_starts_update(fixture: Fixture) -> list[Fixture]:
    """``fixture``'s counted result changed (confirmed, corrected or voided): resolve the
    start of every game it decides. Raises ServiceError, naming the game, when a game
    whose start would change already has a result; the caller's transaction then rolls
    the change back."""
    changed = []
    dependents = list(
        Fixture.objects.select_for_update(no_key=True)
        .filter(start_depends_on=fixture)
        .prefetch_related("seats")
        .order_by("number")
    )
    if not dependents:
        return changed
    previous = previous_game(fixture)
    board_colours = DEFAULT_COLOURS[fixture.league.board]
    winner_colours = _counted_winner_colours(fixture) if previous is None else ()
    for game in dependents:
        if previous is None and game.starting_colour in winner_colours:
            continue  # see _counted_winner_colours
        colour, reason = _resolved_start(fixture, game, previous, board_colours)
        if colour == game.starting_colour:
            continue
        _refuse_start_change(game, colour)
        game.starting_colour, game.start_reason = colour, reason
        game.save(update_fields=["starting_colour", "start_reason", "updated_at"])
        changed.append(game)
    return changed


def _resolved_start(fixture: Fixture, game: Fixture, previous, board_colours) -> tuple[str, str]:
    """(colour, reason) of ``game``'s start as ``fixture``'s counted result decides it;
    ("", "") while that result does not decide it."""
    if previous is None:
        return "", ""
    plan = starting_colour.StartPlan(game.number, game.start_basis, fixture.number)
    assignment = {s.entry_id: tuple(s.colours) for s in game.seats.all()}
    try:
        decided = starting_colour.resolve_start(plan, previous, assignment, board_colours)
    except AlgorithmError as exc:
        raise coded("start_unresolved", game=game.label, why=why_of(exc)) from None
    return decided.colour, decided.reason


def _refuse_start_change(game: Fixture, colour: str) -> None:
    """A start that would change under a game that already has a result is refused."""
    if not game.starting_colour or not game.results.filter(state__in=LIVE).exists():
        return
    if colour:
        raise coded("start_change_colour", game=game.label, c=game.starting_colour, colour=colour)
    raise coded("start_change_undecided", game=game.label, c=game.starting_colour)


def _counted_winner_colours(fixture: Fixture) -> tuple[str, ...]:
    """The colours the winner of ``fixture``'s counted result held in it (none without a
    counted result or a winner). A result without the colours' finishing order (entered
    by hand) that keeps the winner keeps the starts it decided: the colour that clinched
    is still one of the winner's (correcting pawns or placings must not undo the next
    game)."""
    winner = (
        fixture.results.filter(state=Result.State.CONFIRMED)
        .values_list("winner_id", flat=True)
        .first()
    )
    if winner is None:
        return ()
    seat = fixture.seats.filter(entry_id=winner).first()
    return tuple(seat.colours) if seat is not None else ()
