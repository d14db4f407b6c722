"""Which colour starts a game (``tournament.md``, "Starting colour"; basic rules §2).

Rules, by the names an organizer's setting uses (:data:`RULES`):

- ``"die-roll"`` — the default: the colours in play roll, highest starts, ties re-rolled.
- ``"drr"`` — double-threat league, DRR game: the rearguard colour of the at-board's
  first mentioned player.
- ``"playoff"`` — playoff game: the rearguard colour of the higher-seeded player.
- ``"triple-threat"`` — from game 2 on the colour that clinched victory in the previous
  3T/3T+ game; after a GP game, the first colour finished by the winner of that game.
  Game 1 is decided by a die roll *(platform rule)*.
- ``"challengers"`` — game 1: the rearguard colour of the player who finished
  "game 0" first; from game 2 on the colour that clinched victory in the previous game
  (after a GP game: the first colour finished by its winner, as for triple threat).

:func:`decide_starting_colour` applies a rule and explains the decision; the small
functions below it are the rules one by one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tournaments.algorithms.boards import BOARD_4, Colour
from tournaments.algorithms.checks import is_whole
from tournaments.algorithms.colours import assigned_colours, owner_of, rearguard
from tournaments.algorithms.errors import ColourError, StartingColourError
from tournaments.algorithms.messages import gettext_noop
from tournaments.algorithms.seeding import DieRollOrder, roll_off

#: why a game starts with its colour, in words: stored as the game's ``start_reason`` and
#: worded in the reader's language where shown (``core.reasons.reason_text`` with these
#: notes; ``player`` is a player as written, ``game`` a game number)
BY_DICE = gettext_noop("highest die roll")
TRIPLE_THREAT_DICE = gettext_noop("game 1 of a triple-threat tournament: highest die roll")
CLINCHED_PREVIOUS = gettext_noop("colour that clinched victory in the previous game")
GP_PREVIOUS = gettext_noop("first colour finished by the winner of the previous (GP) game")
REARGUARD_FIRST_MENTIONED = gettext_noop("rearguard of the first mentioned player %(player)s")
REARGUARD_HIGHER_SEED = gettext_noop("rearguard of the higher seed %(player)s")
REARGUARD_FIRST_FINISHER = gettext_noop("rearguard of %(player)s, who finished game %(game)s first")
GP_GAME = gettext_noop("first colour finished by the winner of game %(game)s (GP)")
CLINCHED_GAME = gettext_noop("colour that clinched victory in game %(game)s")
#: the start reasons by their code (the API's ``reason_code``; ``core.reasons.CODES``)
START_CODES = {
    "start_highest_roll": BY_DICE,
    "start_triple_threat_roll": TRIPLE_THREAT_DICE,
    "start_clinched_previous": CLINCHED_PREVIOUS,
    "start_gp_previous": GP_PREVIOUS,
    "start_rearguard_first_mentioned": REARGUARD_FIRST_MENTIONED,
    "start_rearguard_higher_seed": REARGUARD_HIGHER_SEED,
    "start_rearguard_first_finisher": REARGUARD_FIRST_FINISHER,
    "start_gp_game": GP_GAME,
    "start_clinched_game": CLINCHED_GAME,
}
START_NOTES = tuple(START_CODES.values())

PlayerId = Hashable
Rule = Literal["die-roll", "drr", "playoff", "triple-threat", "challengers"]
End = Literal["first-colour", "both-colours", "all-places"]

RULES: tuple[str, ...] = ("die-roll", "drr", "playoff", "triple-threat", "challengers")
ENDS: tuple[str, ...] = ("first-colour", "both-colours", "all-places")


@dataclass(frozen=True)
class PreviousGame:
    """What the next game's start depends on: the previous game's result.

    ``placings`` are colours in finishing order (``rules.md`` §6; for ``all-places`` the
    last colour appended). ``assignment`` is who held which colours; ``end`` the rule the
    game ended by: ``"first-colour"`` (2T/3T), ``"both-colours"`` (2T+/3T+),
    ``"all-places"`` (GP).
    """

    placings: tuple[Colour, ...]
    assignment: Mapping[PlayerId, tuple[Colour, ...]]
    end: End | str = "first-colour"


@dataclass(frozen=True)
class StartingColour:
    """A decided starting colour, with the reason in words and any die rolls."""

    colour: Colour
    reason: str
    rolls: DieRollOrder | None = field(default=None, compare=False)


def _rearguard_of(
    player: PlayerId,
    assignment: Mapping[PlayerId, Iterable[Colour]],
    board_colours: Sequence[Colour],
) -> Colour:
    if player not in assignment:
        raise StartingColourError("start_player_no_colours", player=repr(player))
    colours = tuple(assignment[player])
    if len(colours) != 2:
        raise StartingColourError("start_needs_pair", player=repr(player), count=len(colours))
    try:
        return rearguard(tuple(board_colours), colours)
    except ValueError as error:
        raise StartingColourError(
            "start_no_rearguard", player=repr(player), colours=" + ".join(colours), why=str(error)
        ) from None


def drr_starting_colour(
    at_board: Sequence[PlayerId],
    assignment: Mapping[PlayerId, Iterable[Colour]],
    board_colours: Sequence[Colour] = BOARD_4,
) -> Colour:
    """DRR game: the rearguard of the at-board's first mentioned player (``at_board[0]``)."""
    if not at_board:
        raise StartingColourError("start_no_players")
    return _rearguard_of(at_board[0], assignment, board_colours)


def playoff_starting_colour(
    higher_seed: PlayerId,
    assignment: Mapping[PlayerId, Iterable[Colour]],
    board_colours: Sequence[Colour] = BOARD_4,
) -> Colour:
    """Playoff game: the rearguard of the higher-seeded player."""
    return _rearguard_of(higher_seed, assignment, board_colours)


def _check_placings(previous: PreviousGame) -> tuple[Colour, ...]:
    if previous.end not in ENDS:
        raise StartingColourError(
            "end_rule_unknown", given=repr(previous.end), known=", ".join(ENDS)
        )
    placings = tuple(previous.placings)
    if not placings:
        raise StartingColourError("previous_none_finished")
    if len(set(placings)) != len(placings):
        raise StartingColourError("colour_placed_twice", placings=repr(placings))
    for colour in placings:
        try:
            owner_of(colour, previous.assignment)
        except ColourError:
            raise StartingColourError("finished_unheld", colour=repr(colour)) from None
    return placings


def clinching_colour(previous: PreviousGame) -> Colour:
    """The colour that clinched victory in ``previous``.

    ``first-colour``: the first finished colour. ``both-colours``: the winner's colour
    that finished last (completing their set). ``all-places`` (GP): the first colour
    finished by the winner (the first player to finish all their colours), which is what
    the triple-threat rule asks for after a GP game.
    """
    placings = _check_placings(previous)
    if previous.end == "first-colour":
        return placings[0]
    index, player = _winner_done(placings, previous.assignment)
    if previous.end == "both-colours":
        return placings[index]
    return next(c for c in placings[: index + 1] if c in previous.assignment[player])


def _winner_done(
    placings: tuple[Colour, ...], assignment: Mapping[PlayerId, Iterable[Colour]]
) -> tuple[int, PlayerId]:
    """Where in ``placings`` the first player finished all their colours, and who."""
    done: dict[PlayerId, int] = {}
    for index, colour in enumerate(placings):
        player = owner_of(colour, assignment)
        done[player] = done.get(player, 0) + 1
        if done[player] == len(tuple(assignment[player])):
            return index, player
    raise StartingColourError("previous_no_winner")


def die_roll_starting_colour(
    colours: Iterable[Colour],
    *,
    seed: int | str | None = None,
    rng: random.Random | None = None,
    recorded_rolls: Sequence[Mapping[Colour, int]] | None = None,
) -> DieRollOrder:
    """Default rule: the colours in play roll, the highest starts (``.winner``).

    Only a tie for the highest roll is re-rolled; see :func:`.seeding.roll_off`.
    """
    return roll_off(list(colours), seed=seed, rng=rng, recorded_rolls=recorded_rolls, places=1)


def _colours_in_play(
    assignment: Mapping[PlayerId, Iterable[Colour]], board_colours: Sequence[Colour]
) -> tuple[Colour, ...]:
    """The colours held in this game (an impossible assignment refused as a start)."""
    try:
        return assigned_colours(assignment, board_colours)
    except ColourError as error:
        raise StartingColourError(error.code, **error.params) from None


def decide_starting_colour(
    rule: Rule | str,
    *,
    assignment: Mapping[PlayerId, Iterable[Colour]],
    board_colours: Sequence[Colour] = BOARD_4,
    at_board: Sequence[PlayerId] | None = None,
    game_number: int = 1,
    higher_seed: PlayerId | None = None,
    previous: PreviousGame | None = None,
    game0_first_finisher: PlayerId | None = None,
    seed: int | str | None = None,
    rng: random.Random | None = None,
    recorded_rolls: Sequence[Mapping[Colour, int]] | None = None,
) -> StartingColour:
    """Apply a starting-colour ``rule`` (:data:`RULES`) to one game.

    ``assignment`` is the game's ``player → colours`` (see :func:`.colours.assign_colours`);
    ``at_board`` the players in at-board order (default: the assignment's order).
    What each rule needs: ``"drr"`` — ``at_board``; ``"playoff"`` — ``higher_seed``;
    ``"triple-threat"`` — ``previous`` from game 2 on, dice for game 1;
    ``"challengers"`` — ``game0_first_finisher`` for game 1, ``previous`` later;
    ``"die-roll"`` — one of ``seed``/``rng``/``recorded_rolls`` (or none: unseeded).

    The decided colour is always one in play in this game; otherwise
    :class:`StartingColourError` (e.g. the previous game's clinching colour is unused).
    """
    in_play = _colours_in_play(assignment, board_colours)
    if not in_play:
        raise StartingColourError("start_none_in_play")
    if not is_whole(game_number, at_least=1):
        raise StartingColourError("game_number_positive", given=repr(game_number))
    decide = _RULES.get(rule) if isinstance(rule, str) else None
    if decide is None:
        raise StartingColourError("start_rule_unknown", given=repr(rule), known=", ".join(RULES))
    game = _Game(
        assignment=assignment,
        board_colours=board_colours,
        players=tuple(assignment) if at_board is None else tuple(at_board),
        in_play=in_play,
        number=game_number,
        higher_seed=higher_seed,
        previous=previous,
        game0_first_finisher=game0_first_finisher,
        dice={"seed": seed, "rng": rng, "recorded_rolls": recorded_rolls},
    )
    result = decide(game)
    if result.colour not in in_play:
        raise StartingColourError(
            "start_not_in_play", colour=repr(result.colour), reason=result.reason
        )
    return result


@dataclass(frozen=True)
class _Game:
    """What a starting-colour rule may look at (``decide_starting_colour``'s arguments)."""

    assignment: Mapping[PlayerId, Iterable[Colour]]
    board_colours: Sequence[Colour]
    players: tuple[PlayerId, ...]
    in_play: tuple[Colour, ...]
    number: int
    higher_seed: PlayerId | None
    previous: PreviousGame | None
    game0_first_finisher: PlayerId | None
    dice: Mapping[str, Any]

    def by_dice(self, why: str) -> StartingColour:
        rolls = die_roll_starting_colour(self.in_play, **self.dice)
        return StartingColour(rolls.winner, why, rolls)

    def from_previous(self) -> StartingColour:
        """The colour that clinched the previous game (GP: its winner's first colour)."""
        if self.previous is None:
            raise StartingColourError("start_needs_previous", game=self.number)
        colour = clinching_colour(self.previous)
        if self.previous.end == "all-places":
            return StartingColour(colour, GP_PREVIOUS)
        return StartingColour(colour, CLINCHED_PREVIOUS)

    def rearguard_of(self, player: PlayerId, why: str) -> StartingColour:
        return StartingColour(_rearguard_of(player, self.assignment, self.board_colours), why)


def _die_roll_start(game: _Game) -> StartingColour:
    return game.by_dice(BY_DICE)


def _drr_start(game: _Game) -> StartingColour:
    return StartingColour(
        drr_starting_colour(game.players, game.assignment, game.board_colours),
        REARGUARD_FIRST_MENTIONED % {"player": repr(game.players[0])},
    )


def _playoff_start(game: _Game) -> StartingColour:
    if game.higher_seed is None:
        raise StartingColourError("start_needs_higher_seed")
    why = REARGUARD_HIGHER_SEED % {"player": repr(game.higher_seed)}
    return game.rearguard_of(game.higher_seed, why)


def _triple_threat_start(game: _Game) -> StartingColour:
    if game.number == 1:
        return game.by_dice(TRIPLE_THREAT_DICE)
    return game.from_previous()


def _challengers_start(game: _Game) -> StartingColour:
    if game.number != 1:
        return game.from_previous()
    first = game.game0_first_finisher
    if first is None:
        raise StartingColourError("start_needs_game0")
    return game.rearguard_of(first, REARGUARD_FIRST_FINISHER % {"player": repr(first), "game": 0})


#: rule → how it decides the start (``RULES`` in this order)
_RULES: Mapping[str, Callable[[_Game], StartingColour]] = {
    "die-roll": _die_roll_start,
    "drr": _drr_start,
    "playoff": _playoff_start,
    "triple-threat": _triple_threat_start,
    "challengers": _challengers_start,
}


# --------------------------------------------------------------------------------------
# Events: a sequence of games whose starts depend on earlier results

#: How a game of each format ends, as :class:`PreviousGame` ``end`` needs it.
FORMAT_ENDS: Mapping[str, str] = {
    "2T": "first-colour",
    "3T": "first-colour",
    "2T+": "both-colours",
    "3T+": "both-colours",
    "GP": "all-places",
    "GP+": "all-places",
}

Basis = Literal["die-roll", "clinching-colour", "first-finisher-rearguard"]


@dataclass(frozen=True)
class StartPlan:
    """How one game of an event gets its starting colour.

    - ``basis="die-roll"`` — decided at the table (or by the platform's dice) when the
      game is scheduled; ``depends_on`` is ``None``.
    - ``basis="clinching-colour"`` — the colour that clinched the game ``depends_on``
      (:func:`clinching_colour`; after a GP game the first colour finished by its
      winner).
    - ``basis="first-finisher-rearguard"`` — Challengers game 1: the rearguard, in this
      game, of the player who finished game ``depends_on`` (game 0) first.

    Until the earlier game's result counts the start shows :attr:`label`
    ("decided by game N"); then :func:`resolve_start` gives the colour.
    """

    game: int
    basis: Basis
    depends_on: int | None = None

    @property
    def label(self) -> str:
        if self.depends_on is None:
            return "die roll"
        return f"decided by game {self.depends_on}"


def _check_formats(formats: Sequence[str]) -> tuple[str, ...]:
    if isinstance(formats, str):
        raise StartingColourError("formats_one_string")
    checked = tuple(formats)
    for number, fmt in enumerate(checked):
        if fmt not in FORMAT_ENDS:
            raise StartingColourError(
                "game_format_unknown", game=number, given=repr(fmt), known=", ".join(FORMAT_ENDS)
            )
    return checked


def plan_triple_threat(formats: Sequence[str]) -> tuple[StartPlan, ...]:
    """Starting-colour plan of a triple-threat event: ``formats[i]`` is game ``i + 1``.

    Games may mix 3T, 3T+ and GP (and their 2T cousins). Game 1 is started by die roll
    *(platform rule)*; every later game by the colour that clinched the game before it
    (after a GP game: the first colour finished by its winner).
    """
    checked = _check_formats(formats)
    if not checked:
        raise StartingColourError("event_no_games")
    return tuple(
        StartPlan(1, "die-roll") if n == 1 else StartPlan(n, "clinching-colour", n - 1)
        for n in range(1, len(checked) + 1)
    )


def plan_challengers(formats: Sequence[str]) -> tuple[StartPlan, ...]:
    """Starting-colour plan of a double-threat Challengers event.

    ``formats[0]`` is "game 0", ``formats[i]`` game ``i``. Game 0 is started by die roll
    *(platform rule)*; game 1 by the rearguard of the player who finished game 0 first;
    from game 2 on by the colour that clinched the previous game. Game 1 needs allied
    side-by-side pairs (2T/2T+/3T/3T+), otherwise there is no rearguard.
    """
    checked = _check_formats(formats)
    if len(checked) < 2:
        raise StartingColourError("challengers_two_games")
    if FORMAT_ENDS[checked[1]] == "all-places":
        raise StartingColourError("challengers_game1_opposite", format=checked[1])
    plan = [StartPlan(0, "die-roll"), StartPlan(1, "first-finisher-rearguard", 0)]
    plan += [StartPlan(n, "clinching-colour", n - 1) for n in range(2, len(checked))]
    return tuple(plan)


def dependent_games(plan: Sequence[StartPlan], game: int) -> tuple[int, ...]:
    """The games whose starting colour is decided by ``game``'s result.

    When that result is corrected or voided these starts change; a service refuses the
    change if one of them already has a result.
    """
    return tuple(p.game for p in plan if p.depends_on == game)


def first_finisher(previous: PreviousGame) -> PlayerId:
    """The player who finished ``previous`` first: the owner of its clinching colour.

    In a 2T/3T game the owner of the first colour home; in 2T+/3T+ and GP the first
    player to finish all their colours (the winner).
    """
    return owner_of(clinching_colour(previous), previous.assignment)


def _first_finisher_start(plan, previous, assignment, board_colours) -> tuple[Colour, str]:
    """The rearguard of the player who finished game ``plan.depends_on`` first."""
    player = first_finisher(previous)
    colour = _rearguard_of(player, assignment, board_colours)
    return colour, REARGUARD_FIRST_FINISHER % {"player": repr(player), "game": plan.depends_on}


def _clinching_start(plan, previous, _assignment, _board_colours) -> tuple[Colour, str]:
    """The colour that clinched game ``plan.depends_on`` (GP: its winner's first colour)."""
    colour = clinching_colour(previous)
    if previous.end == "all-places":
        return colour, GP_GAME % {"game": plan.depends_on}
    return colour, CLINCHED_GAME % {"game": plan.depends_on}


#: start basis → how the start follows from the earlier game
_BASES: Mapping[str, Callable[..., tuple[Colour, str]]] = {
    "first-finisher-rearguard": _first_finisher_start,
    "clinching-colour": _clinching_start,
}


def resolve_start(
    plan: StartPlan,
    previous: PreviousGame,
    assignment: Mapping[PlayerId, Iterable[Colour]],
    board_colours: Sequence[Colour] = BOARD_4,
) -> StartingColour:
    """The starting colour of ``plan.game`` once game ``plan.depends_on`` counts.

    ``previous`` is that game's result; ``assignment`` this game's colours. Raises
    :class:`StartingColourError` for a die-roll plan (nothing to resolve), an
    unfinished earlier game, or a colour that is not in play in this game.
    """
    if plan.depends_on is None:
        raise StartingColourError("start_by_die_roll", game=plan.game)
    in_play = _colours_in_play(assignment, board_colours)
    by_basis = _BASES.get(plan.basis)
    if by_basis is None:
        raise StartingColourError("start_basis_unknown", given=repr(plan.basis))
    colour, reason = by_basis(plan, previous, assignment, board_colours)
    if colour not in in_play:
        raise StartingColourError(
            "start_plan_not_in_play", game=plan.game, colour=repr(colour), reason=reason
        )
    return StartingColour(colour, reason)
