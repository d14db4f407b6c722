"""Does an accepted game log belong to this fixture? Board, rules, players, colours and the
starting colour must all be what the schedule says; every difference is named."""

from __future__ import annotations

from typing import Any

from games.engine.board import DEFAULT_COLOURS
from games.engine.rules import RulesError, RuleSet
from tournaments.formats import get_format
from tournaments.models import Fixture
from tournaments.services.errors import coded_text


def log_colour_names(data: dict[str, Any], board: int) -> dict[str, str]:
    """Log colour name → the league's colour name, by seat (a log may rename colours)."""
    default = DEFAULT_COLOURS[board]
    names = data.get("colours") or list(default)
    return {name: default[index] for index, name in enumerate(names)}


def log_holdings(data: dict[str, Any], board: int) -> dict[frozenset[str], str]:
    """Set of colours (league names) → the name the log gives the player holding them."""
    to_league = log_colour_names(data, board)
    holdings = _player_holdings(data, to_league)
    held = set().union(*holdings)
    idle = _idle_colours(data, to_league)
    for log_name, colour in to_league.items():
        if colour not in held and colour not in idle:
            holdings[frozenset([colour])] = log_name
    return holdings


def _player_holdings(data: dict[str, Any], to_league: dict[str, str]):
    """The log's players: the set of colours each holds (league names) → their name."""
    return {
        frozenset(to_league.get(c, c) for c in colours): name
        for name, colours in (data.get("players") or {}).items()
    }


def _idle_colours(data: dict[str, Any], to_league: dict[str, str]) -> set[str]:
    """The colours no player holds in the log: the unused ones and the neutral colour."""
    idle = {to_league.get(c, c) for c in data.get("unused") or []}
    rules = data.get("rules")
    if isinstance(rules, dict) and rules.get("neutral"):
        idle.add(to_league.get(rules["neutral"], rules["neutral"]))
    return idle


def fixture_rules_spec(fixture: Fixture) -> str | dict:
    """The rules a game is played by: the league's, or in a mixed event a game of another
    format by that format's preset (a GP game of a 3T event plays until every place is
    decided)."""
    league = fixture.league
    if not fixture.format or fixture.format == league.format:
        return league.rules_spec
    return get_format(fixture.format).preset


def _names_match(log_name: str, player) -> bool:
    wanted = log_name.strip().casefold()
    return wanted in {player.name.casefold(), player.slug.casefold()}


def fixture_log_mismatches(fixture: Fixture, data: dict[str, Any]) -> list[str]:
    """Every way the log differs from the fixture, in words (empty when it fits)."""
    league = fixture.league
    board = data.get("board", 4)
    if board != league.board:  # colours cannot be compared across boards
        return [coded_text("log_board", log=board, league=league.name, board=league.board)]
    try:
        log_rules = RuleSet.from_spec(data.get("rules")).options()
        league_rules = RuleSet.from_spec(fixture_rules_spec(fixture))
    except RulesError as exc:
        return [exc.args[0]]  # the engine's coded message
    problems = _rules_problems(log_rules, league_rules)
    problems += _start_problems(fixture, log_colour_names(data, board), data.get("first"))
    problems += _seat_problems(fixture, log_holdings(data, board))
    return problems


def _rules_problems(log_rules: dict, league_rules: RuleSet) -> list:
    """The rule options the log plays otherwise than the game."""
    wanted = league_rules.options()
    if log_rules == wanted:
        return []
    detail = [
        coded_text("log_rule_option", option=k, log=repr(log_rules[k]), league=repr(wanted[k]))
        for k in sorted(k for k, v in log_rules.items() if wanted[k] != v)
    ]
    return [coded_text("log_rules_differ", spec=league_rules.to_spec(), detail=detail)]


def _start_problems(fixture: Fixture, to_league: dict[str, str], first) -> list:
    """The log's first colour against the game's start (which must be decided)."""
    if not fixture.starting_colour:
        decider = fixture.start_depends_on
        if decider is None:
            return [coded_text("log_start_undecided")]
        return [coded_text("log_start_waits", decider=decider.label or decider.number)]
    first = to_league.get(first, first)
    if first != fixture.starting_colour:
        return [coded_text("log_first", first=first, c=fixture.starting_colour)]
    return []


def _seat_problems(fixture: Fixture, holdings: dict[frozenset[str], str]) -> list:
    """The game's seats against the log's players: who holds which colours, by name."""
    problems = []
    seats = list(fixture.seats.all())
    seated = [frozenset(seat.colours) for seat in seats]
    for seat, colours in zip(seats, seated, strict=True):
        problems += _seat_problem(seat, colours, holdings)
    held = set().union(*seated)
    for colours, holder in holdings.items():
        if colours not in seated:
            problems.append(_stray_holding(colours, holder, held))
    return problems


def _seat_problem(seat, colours: frozenset[str], holdings) -> list:
    """A seat whose colours no player of the log holds, or holds under another name."""
    shown = "+".join(seat.colours)
    player = seat.entry.player
    if colours not in holdings:
        return [coded_text("log_colours_unheld", player=player.name, colours=shown)]
    if not _names_match(holdings[colours], player):
        given = repr(holdings[colours])
        return [coded_text("log_player_name", colours=shown, given=given, player=player.name)]
    return []


def _stray_holding(colours: frozenset[str], holder: str, held: set[str]):
    """A player of the log whose colours no seat holds: colours nobody holds (to list as
    unused), or a player who is not at the board."""
    shown = "+".join(sorted(colours))
    if colours & held:
        return coded_text("log_holder_not_here", holder=holder, colours=shown)
    code = "log_colours_unused_one" if len(colours) == 1 else "log_colours_unused"
    return coded_text(code, holder=holder, colours=shown)
