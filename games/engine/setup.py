"""The fixed part of a game: board, rules, colour names, players, unused and neutral colours,
and the colour that moves first (a log's header, checked)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ._text import describe
from .board import Board, get_board
from .rules import RuleSet


class SetupError(ValueError):
    """A game that can't be set up (unknown colour, player holding the neutral colour, …)."""


@dataclass(frozen=True)
class Setup:
    """Board, rules and seating of one game (the log's header)."""

    board: Board
    rules: RuleSet
    colours: tuple[str, ...]
    unused: frozenset[int]
    neutral: int | None
    players: dict[str, tuple[int, ...]]
    """player name → seats, for every player (colours without one are their own player)"""
    first: int
    named_players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """the log's ``players`` as given"""

    @classmethod
    def create(
        cls,
        *,
        board: int | Board = 4,
        rules: RuleSet | str | Mapping[str, Any] = "league",
        colours: Sequence[str] | None = None,
        players: Mapping[str, Sequence[str]] | None = None,
        unused: Iterable[str] | None = None,
        first: str | None = None,
    ) -> Setup:
        """Check and build a setup. Raises :class:`SetupError` / ``RulesError`` (ValueErrors).

        One check per option, in the order of the log's header: unused colours, the neutral
        colour, the colours in play, the players, the first colour."""
        b = get_board(board)
        ruleset = RuleSet.from_spec(rules)
        seating = _Seating(_colour_names(b, colours))
        unused_seats = seating.unused(unused, ruleset)
        neutral = seating.neutral(ruleset, unused_seats)
        in_play = [s for s in range(b.seats) if s not in unused_seats and s != neutral]
        if len(in_play) < 2:
            raise SetupError(
                f"a game needs at least two colours in play, this one has {len(in_play)}"
            )
        holder, named = seating.holders({} if players is None else players, neutral, unused_seats)
        return cls(
            board=b,
            rules=ruleset,
            colours=seating.names,
            unused=unused_seats,
            neutral=neutral,
            players=seating.all_players(in_play, holder, named),
            first=seating.first(first, neutral, unused_seats),
            named_players=named,
        )

    @cached_property
    def in_play(self) -> tuple[int, ...]:
        """Seats that take turns (not unused, not neutral), clockwise."""
        return tuple(
            s for s in range(self.board.seats) if s not in self.unused and s != self.neutral
        )

    @cached_property
    def used(self) -> tuple[int, ...]:
        """Seats with pawns on the board (in play or neutral)."""
        return tuple(s for s in range(self.board.seats) if s not in self.unused)

    def seat(self, colour: str) -> int:
        try:
            return self.colours.index(colour)
        except ValueError:
            raise SetupError(f"unknown colour {_q(colour)}") from None

    @cached_property
    def _player_by_seat(self) -> dict[int, str]:
        return {seat: player for player, seats in self.players.items() for seat in seats}

    def player_of(self, seat: int) -> str:
        """The player holding ``seat`` (a colour in play)."""
        return self._player_by_seat[seat]


def colours_in_play(
    board: int | Board,
    rules: RuleSet | str | Mapping[str, Any],
    colours: Sequence[str] | None = None,
    unused: Iterable[str] | None = None,
) -> list[str]:
    """Names of the colours that take turns (not unused, not neutral), clockwise."""
    names = _colour_names(get_board(board), colours)
    skip = set(unused or ()) | {RuleSet.from_spec(rules).neutral}
    return [c for c in names if c not in skip] or list(names)


def _colour_names(b: Board, colours: Sequence[str] | None) -> tuple[str, ...]:
    if colours is None:
        return b.colours
    if isinstance(colours, str) or not isinstance(colours, Sequence):
        raise SetupError(f"colours must be a list of {b.seats} names, not {_q(colours)}")
    names = tuple(colours)
    if len(names) != b.seats:
        raise SetupError(f"board {b.size} has {b.seats} colours, but colours lists {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name:
            raise SetupError(f"a colour name must be a non-empty string, not {_q(name)}")
    if len(set(names)) != len(names):
        raise SetupError(f"colour names must differ: {list(names)!r}")
    return names


class _Seating:
    """The colour names of a setup being checked: names to seats, with the refusals of
    :meth:`Setup.create` for each option."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.seat_of = {name: i for i, name in enumerate(names)}

    def seat(self, name: object, what: str) -> int:
        if isinstance(name, str) and name in self.seat_of:
            return self.seat_of[name]
        raise SetupError(f"{what}: unknown colour {_q(name)} (colours: {', '.join(self.names)})")

    def unused(self, unused: Iterable[str] | None, ruleset: RuleSet) -> frozenset[int]:
        if unused is None:
            unused = ()
        if isinstance(unused, str) or not isinstance(unused, Iterable):
            raise SetupError(f"unused must be a list of colours, not {_q(unused)}")
        unused_list = [self.seat(u, "unused") for u in unused]
        unused_seats = frozenset(unused_list)
        if len(unused_seats) != len(unused_list):
            twice = next(self.names[s] for s in unused_list if unused_list.count(s) > 1)
            raise SetupError(f"unused lists {twice} twice")
        if unused_seats and ruleset.preset == "online":
            raise SetupError(self._online_unused(unused_seats))
        return unused_seats

    def _online_unused(self, unused_seats: frozenset[int]) -> str:
        listed = ", ".join(self.names[s] for s in sorted(unused_seats))
        return (
            "the online rules never leave a colour unused (a computer plays it), "
            f"but the log lists {listed} as unused"
        )

    def neutral(self, ruleset: RuleSet, unused_seats: frozenset[int]) -> int | None:
        if ruleset.neutral is None:
            return None
        neutral = self.seat(ruleset.neutral, "neutral")
        if neutral in unused_seats:
            raise SetupError(f"the neutral colour {ruleset.neutral} can't also be unused")
        return neutral

    def holders(
        self, players: object, neutral: int | None, unused_seats: frozenset[int]
    ) -> tuple[dict[int, str], dict[str, tuple[str, ...]]]:
        """Seat → the player holding it, and the players as named (the log's ``players``)."""
        if not isinstance(players, Mapping):
            raise SetupError(f"players must be an object player → colours, not {_q(players)}")
        holder: dict[int, str] = {}
        named: dict[str, tuple[str, ...]] = {}
        for player, held in players.items():
            _check_player(player, held)
            seen: set[int] = set()
            for name in held:
                s = self.seat(name, f"player {player}")
                _check_held(player, name, s, seen, neutral, unused_seats)
                if s in holder and holder[s] != player:
                    raise SetupError(f"{name} is held by both {holder[s]} and {player}")
                seen.add(s)
                holder[s] = player
            named[player] = tuple(dict.fromkeys(held))
        return holder, named

    def all_players(
        self, in_play: list[int], holder: dict[int, str], named: dict[str, tuple[str, ...]]
    ) -> dict[str, tuple[int, ...]]:
        """Every player's seats: the named players', and each colour without one its own."""
        all_players: dict[str, list[int]] = {p: [] for p in named}
        for s in in_play:
            if s in holder:
                all_players[holder[s]].append(s)
            elif self.names[s] in named:
                raise SetupError(
                    f"the player named {self.names[s]} clashes with the colour {self.names[s]}, "
                    "which has no player and so is its own player"
                )
            else:
                all_players[self.names[s]] = [s]
        return {p: tuple(seats) for p, seats in all_players.items()}

    def first(self, first: str | None, neutral: int | None, unused_seats: frozenset[int]) -> int:
        if first is None:
            raise SetupError("the log does not say which colour moves first")
        f = self.seat(first, "first")
        if f in unused_seats:
            raise SetupError(f"first colour {first} is unused")
        if f == neutral:
            raise SetupError(f"first colour {first} is the neutral colour, which takes no turns")
        return f


def _check_player(player: object, held: object) -> None:
    if not isinstance(player, str) or not player:
        raise SetupError(
            "players: a player's name must be a non-empty string, "
            f"not {_q(player)} (holding {_q(held)})"
        )
    if isinstance(held, str) or not isinstance(held, Sequence) or not held:
        raise SetupError(f"player {player} must hold a list of one or more colours, not {_q(held)}")


def _check_held(
    player: str,
    name: str,
    s: int,
    seen: set[int],
    neutral: int | None,
    unused_seats: frozenset[int],
) -> None:
    """Player ``player`` may hold colour ``name`` (seat ``s``) once, if it is in play."""
    if s in seen:
        raise SetupError(f"player {player} lists {name} twice")
    if s == neutral:
        raise SetupError(
            f"player {player} holds {name}, but {name} is the neutral colour, which has no player"
        )
    if s in unused_seats:
        raise SetupError(f"player {player} holds {name}, which is unused")


def _q(value: object) -> str:
    return describe(value)
