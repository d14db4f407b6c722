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
    unused = {to_league.get(c, c) for c in data.get("unused") or []}
    neutral = None
    rules = data.get("rules")
    if isinstance(rules, dict) and rules.get("neutral"):
        neutral = to_league.get(rules["neutral"], rules["neutral"])
    holdings: dict[frozenset[str], str] = {}
    held: set[str] = set()
    for name, colours in (data.get("players") or {}).items():
        group = frozenset(to_league.get(c, c) for c in colours)
        holdings[group] = name
        held |= group
    for log_name, colour in to_league.items():
        if colour not in held and colour not in unused and colour != neutral:
            holdings[frozenset([colour])] = log_name
    return holdings


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
    problems: list[str] = []
    board = data.get("board", 4)
    if board != league.board:
        problems.append(coded_text("log_board", log=board, league=league.name, board=league.board))
        return problems  # colours cannot be compared across boards
    try:
        log_rules = RuleSet.from_spec(data.get("rules")).options()
        league_rules = RuleSet.from_spec(fixture_rules_spec(fixture))
    except RulesError as exc:
        return [str(exc)]
    if log_rules != league_rules.options():
        differing = sorted(k for k, v in log_rules.items() if league_rules.options()[k] != v)
        detail = ", ".join(
            f"{k} is {log_rules[k]!r} instead of {league_rules.options()[k]!r}" for k in differing
        )
        problems.append(
            f"the log's rules differ from the league's ({league_rules.to_spec()}): {detail}"
        )
    to_league = log_colour_names(data, board)
    first = to_league.get(data.get("first"), data.get("first"))
    if not fixture.starting_colour:
        decider = fixture.start_depends_on
        problems.append(
            f"this game's starting colour is decided by {decider.label or decider.number}, "
            "which has no counted result yet; submit that game's result first"
            if decider is not None
            else "this game's starting colour has not been decided yet"
        )
    elif first != fixture.starting_colour:
        problems.append(coded_text("log_first", first=first, c=fixture.starting_colour))
    holdings = log_holdings(data, board)
    seated: set[frozenset[str]] = set()
    for seat in fixture.seats.all():
        colours = frozenset(seat.colours)
        seated.add(colours)
        shown = "+".join(seat.colours)
        player = seat.entry.player
        if colours not in holdings:
            problems.append(
                f"{player.name} holds {shown} in this game, but no player of the log holds "
                f"exactly those colours"
            )
        elif not _names_match(holdings[colours], player):
            problems.append(
                f"the log names the player of {shown} {holdings[colours]!r}, but this game's "
                f"player of {shown} is {player.name}"
            )
    held = {c for group in seated for c in group}
    for colours, name in holdings.items():
        if colours not in seated and not colours & held:
            problems.append(
                f"the log has {name} holding {'+'.join(sorted(colours))}, but nobody holds "
                f"{'+'.join(sorted(colours))} in this game: list "
                f'{"it" if len(colours) == 1 else "them"} under "unused" in the log '
                "(colours with no pawns)"
            )
        elif colours not in seated:
            problems.append(
                f"the log has {name} holding {'+'.join(sorted(colours))}, who is not at this "
                f"game's board"
            )
    return problems
