"""The evaluator: a game at a roll point → each player's chance of winning.

Contract (what the analysis, the luck split and the strong player build on):

``evaluator_for(rules) -> Evaluator``
    ``rules`` is a :class:`~games.engine.rules.RuleSet`, a preset name or a rules object
    as a log spells it (any board, 4 or 6; any of the presets' option families). Returns
    the shipped model for those rules, loaded once per process and cached (every later
    call returns the same object at once). It never trains and never builds a table at
    run time: the weights are a file in this package, checked against their recorded
    SHA-256 when loaded (a few milliseconds).

``evaluator_of(game) -> Evaluator``
    The shipped evaluator for that game's *field*: where ``models/manifest.json`` names a
    specialist for it (``specialists``: field → file and SHA-256; today's one field is
    :data:`LEAGUE_B4`, four single colours under the league preset on board 4, see
    :func:`field_of`), that model, else ``evaluator_for(game.rules)``. What the strong
    player and the analysis ask for: the model a game is judged by and the model its
    strong player searches with are always the same one.

``Evaluator.win_chances(game: Game) -> tuple[float, ...]``
    For a game at a roll point — the colour on turn is about to roll (every
    :class:`~games.engine.game.Game` between two pushes is at one) — one number per colour
    of the board, in the game's seat order (``game.names``): the chance that the player
    holding that colour wins the game. Allied colours held by one player carry that
    player's chance (both show the same number); unused and neutral colours get 0.0.
    The players' chances (one per player, not per colour) sum to 1. A finished game
    returns its exact outcome (1.0 for the winner's colours, 0.0 for the others); so does
    an ``all-places`` game whose winner is already decided but which goes on for the
    other places. Deterministic: the same game gives the same floats, bit for bit.

``Evaluator.win_chances_many(games) -> list[tuple[float, ...]]``
    The same for many games at once, one network pass for all of them (what a search
    or an analysis of many options should call: ~45 µs a board-4 game instead of ~60 µs
    one by one; the feature rows, in Python, are most of it).

``Evaluator.player_chances(game) -> dict[str, float]``
    The same chances keyed by player (``game.setup.players``), summing to 1.

What "wins" means (rules.md §6; the engine's ``Game.winner``):

* ``first-colour`` (league, online, 2T, 3T): the player of the first colour to bring
  its four pawns home; with allied colours one of them is enough.
* ``both-colours`` (2T+, 3T+): the first player to bring home all the colours they hold.
* ``all-places`` (classic, GP): the first player to have finished all their colours —
  with one colour per player, the first colour placed; the places after the first do
  not count as a win (the evaluator gives the chance of first place only).

Platform variants ("Quick", "First capture": games.engine.variants) end earlier than
their rules say; the evaluator values their positions as games of their rules (a finished
variant game still returns its exact outcome). Schmidt variants (barriers, backward
captures, huff, a neutral colour) are evaluated by the same model, which never saw them
in training: usable, not calibrated.

The model: features per colour (:mod:`.features`), a small numpy network
(:mod:`.model`), trained on self-play (:mod:`.train`, ``python -m games.engine train``);
its figures are in docs/analysis.md, "Evaluator". Pure races (no pawn can meet another any
more: the end of most games) are solved instead (:mod:`.race`: each colour's distribution
of turns to finish, exact for play that minimises the expected turns; milliseconds,
memoised), unless ``Evaluator(..., exact_races=False)``; so are the two-colour endgames
where a capture is still possible, with one pawn each outside the house (:mod:`.endgame`:
value iteration over the endgame's whole graph, 5–35 ms once per endgame, memoised; at
most one new graph is solved per call of ``win_chances_many``, so a search never waits
for two), unless ``exact_endgames=False``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..game import Game
from ..rules import RuleSet
from . import endgame
from .endgame import endgame_chance
from .features import N_FEATURES, NAMES, allies_of, first_complete_player, rows
from .model import Ensemble, Network, player_chances
from .race import race_chances

__all__ = [
    "MODEL_FILE",
    "Evaluator",
    "evaluator_for",
    "evaluator_of",
    "field_of",
    "shipped_network",
]

MODELS = Path(__file__).resolve().parent / "models"
MANIFEST = MODELS / "manifest.json"
"""``{"file": NAME, "sha256": DIGEST, ...}`` of the shipped model."""

MODEL_FILE = "maedn-eval.npz"


class Evaluator:
    """Win chances from a :class:`Network` (see the module docstring for the contract)."""

    def __init__(
        self,
        network: Network | Ensemble,
        name: str = "maedn-eval",
        *,
        exact_races: bool = True,
        exact_endgames: bool = True,
    ) -> None:
        self.network = network
        self.name = name
        self.exact_races = exact_races
        self.exact_endgames = exact_endgames
        self._setups: dict[int, tuple] = {}

    # --- the contract -------------------------------------------------------------------

    def win_chances(self, game: Game) -> tuple[float, ...]:
        return self.win_chances_many((game,))[0]

    def win_chances_many(self, games: Iterable[Game]) -> list[tuple[float, ...]]:
        games = list(games)
        out: list[tuple[float, ...] | None] = [None] * len(games)
        pending: list[int] = []
        feats: list[list[float]] = []
        width = self.network.n_inputs  # the features the model reads (rows computes those)
        if self.exact_endgames:  # one new endgame graph at most a batch: the budget
            endgame.prepare(games)
        for i, g in enumerate(games):
            known = self._known(g)
            if known is not None:
                out[i] = known
                continue
            pending.append(i)
            feats.extend(rows(g, self._info(g)[0], width))
        if pending:
            joint = self.network.joint
            if joint and any(
                len(games[i].names) != joint or len(games[i].setup.players) != joint
                for i in pending
            ):
                raise ValueError(f"{self.name} values games of {joint} single colours only")
            scores = self.network.scores(np.asarray(feats, dtype=np.float64)).tolist()
            k = 0
            for i in pending:
                g = games[i]
                n = len(g.names)
                out[i] = self._combine(g, scores[k : k + n])
                k += n
        return out  # type: ignore[return-value]

    def player_chances(self, game: Game) -> dict[str, float]:
        chances = self.win_chances(game)
        return {p: chances[seats[0]] for p, seats in game.setup.players.items()}

    # --- helpers ------------------------------------------------------------------------

    def _info(self, g: Game) -> tuple[list[frozenset[int]], list[tuple[str, tuple[int, ...]]]]:
        setup = g.setup
        key = id(setup)
        hit = self._setups.get(key)
        if hit is None or hit[0] is not setup:
            hit = (setup, allies_of(g), list(setup.players.items()))
            if len(self._setups) > 256:
                self._setups.clear()
            self._setups[key] = hit
        return hit[1], hit[2]

    def _known(self, g: Game) -> tuple[float, ...] | None:
        """The chances where they are known without the network: a decided game, a pure
        race or an endgame solved already (as far as they are switched on), else None."""
        decided = self._decided(g)
        if decided is not None:
            return self._per_colour(g, {decided: 1.0})
        if self.exact_races:
            players = self._info(g)[1]
            exact = race_chances(g, players)
            if exact is not None:
                return self._per_colour(
                    g, {p: c for (p, _s), c in zip(players, exact, strict=True)}
                )
        if self.exact_endgames:
            solved = endgame_chance(g, solve=False)
            if solved is not None:
                x, y, px = solved
                player_of = g.setup.player_of
                return self._per_colour(g, {player_of(x): px, player_of(y): 1.0 - px})
        return None

    @staticmethod
    def _decided(g: Game) -> str | None:
        """The winning player when the game's winner is known already, else None."""
        if g.over:
            if g.winner is not None:
                return g.winner
            return ""  # over without a winner (only from a hand-built position): split
        if g.end == "all-places":
            return first_complete_player(g)
        return None

    def _per_colour(self, g: Game, by_player: Mapping[str, float]) -> tuple[float, ...]:
        players = g.setup.players
        out = [0.0] * len(g.names)
        if "" in by_player:  # no winner: an even split
            by_player = {p: 1.0 / len(players) for p in players}
        for p, seats in players.items():
            for s in seats:
                out[s] = by_player.get(p, 0.0)
        return tuple(out)

    def _combine(self, g: Game, scores: Sequence[float]) -> tuple[float, ...]:
        _allies, players = self._info(g)
        finished = g.finished
        groups = [[s for s in seats if not finished[s]] for _p, seats in players]
        sigma = 1.0 if g.end == "first-colour" else -1.0
        live = [i for i, grp in enumerate(groups) if grp]
        chances = player_chances(scores, [groups[i] for i in live], sigma)
        out = [0.0] * len(g.names)
        for i, c in zip(live, chances, strict=True):
            for s in players[i][1]:
                out[s] = c
        return tuple(out)


_lock = threading.Lock()


@cache
def shipped_network() -> Network:
    """The shipped model (checked against the manifest's digest); without one, the
    hand-set race model :func:`bootstrap_network`."""
    if MANIFEST.is_file():
        manifest = json.loads(MANIFEST.read_text())
        return Network.load(MODELS / manifest["file"], manifest["sha256"])
    return bootstrap_network()


def bootstrap_network() -> Network:
    """An untrained model by hand: a colour's score is minus its race left (in units of
    about six rolls), plus a little for being on turn. What the evaluator was before the
    first training run, and the starting point of nothing: training starts from random
    weights."""
    w = np.zeros((N_FEATURES, 1))
    idx = {name: i for i, name in enumerate(NAMES)}
    w[idx["remaining"], 0] = -12.0
    w[idx["on_turn"], 0] = 0.3
    w[idx["exposed_worth"], 0] = -0.5
    return Network([(w, np.zeros(1))], {"name": "bootstrap", "trained": False})


@cache
def _evaluator() -> Evaluator:
    with _lock:
        net = shipped_network()
        return Evaluator(net, str(net.meta.get("name", "maedn-eval")))


def evaluator_for(rules: RuleSet | str | Mapping[str, Any] = "league") -> Evaluator:
    """The shipped evaluator for ``rules`` (module docstring). One model covers every
    preset's option family on both boards (the rules are among its features), so every
    call returns the same cached object; ``rules`` is checked (``RulesError`` for an
    unknown preset or option)."""
    RuleSet.from_spec(rules)
    return _evaluator()


LEAGUE_B4 = "league/b4"
"""The field of four single colours under the league preset on board 4 (no neutral colour,
no platform variant): the league's own games, and the field the shipped strong player is
measured on (issue #37)."""


def field_of(game: Game) -> str | None:
    """The game's field where a specialist model may serve it (:data:`LEAGUE_B4`), else None."""
    setup = game.setup
    if (
        game.T == 40
        and len(game.names) == 4
        and not setup.unused
        and setup.neutral is None
        and len(setup.players) == 4
        and game.platform_variant is None
        and setup.rules == _league_rules()
    ):
        return LEAGUE_B4
    return None


@cache
def _league_rules() -> RuleSet:
    return RuleSet.from_spec("league")


@cache
def specialist_network(field: str) -> Network | None:
    """The manifest's specialist model for ``field`` (checked against its digest), or None."""
    if not MANIFEST.is_file():
        return None
    entry = json.loads(MANIFEST.read_text()).get("specialists", {}).get(field)
    if entry is None:
        return None
    return Network.load(MODELS / entry["file"], entry["sha256"])


@cache
def _specialist(field: str) -> Evaluator | None:
    with _lock:
        net = specialist_network(field)
        return None if net is None else Evaluator(net, str(net.meta.get("name", field)))


def evaluator_of(game: Game) -> Evaluator:
    """The shipped evaluator for ``game``: the specialist of its field where the manifest
    names one (:func:`field_of`), else the model of every field (:func:`evaluator_for`).
    What the analysis and the strong player use (cached per process)."""
    field = field_of(game)
    if field is not None:
        special = _specialist(field)
        if special is not None:
            return special
    return evaluator_for(game.setup.rules)


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
