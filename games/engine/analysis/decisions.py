"""Walking a log: the decisions, their options, best and played move, loss and mark.

A *decision* is an event whose roller had more than one legal move. Each option is
the state after that move (huff included: the logged huff for the move played, the
policy's choice for the others), with the turn state that follows (who rolls next,
tries left). Its value is estimated by rollouts (:mod:`.rollout`) on common random
numbers; the mover's chance of winning is the share of rollouts its *player* won
(allied colours are one player; the winner is the engine's ``Game.winner``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..game import Game
from ..moves import IllegalMove, RawMove
from ..validate import replay_log
from ..variants import Variant
from .luck import capture_offers
from .policy import Policy
from .rollout import OptionRollouts, estimate_options
from .stats import paired_half_width, wilson_half_width

THRESHOLDS = {"inaccuracy": 0.03, "mistake": 0.06, "blunder": 0.12}
"""Win-probability loss (best − played, as a fraction) from which a move gets a mark —
only when the loss is also larger than its 95 % half-width (see :func:`mark_for`)."""


@dataclass
class Decision:
    """One decision of the log, before and after estimation."""

    event: int
    seat: int
    player: str
    die: int
    moves: list[RawMove]
    names: list[str]
    """``str(Move)`` of each option, in the order of ``moves``"""
    played: int
    """index into ``moves`` of the move played"""
    games: list[Game]
    """the state after each option"""
    rollouts: list[OptionRollouts] = field(default_factory=list)


@dataclass
class Walk:
    """What the walk over a log found: the setup, the decisions and every roll."""

    game0: Game
    players: list[str]
    decisions: list[Decision]
    rolls: list[tuple[int, int, RawMove | None, tuple[bool, ...]]]
    """per event: (seat, die, move played or None, :func:`.luck.capture_offers`)"""
    final: Game


def walk(log: object, policy: Policy, variant: Variant | None = None) -> Walk:
    """Read and check the log, and collect its decisions (no rollouts yet). With a
    platform ``variant`` (a live room's "Quick" or "First capture") every option and
    rollout ends by the variant's condition, as the game did.

    Raises :class:`~games.engine.InvalidLog` for a malformed or illegal log, and
    :class:`~games.engine.IllegalMove` when the log goes on past the variant's end.
    """
    setup, game, steps = replay_log(log)
    game.platform_variant = variant
    game0 = game.copy()
    decisions: list[Decision] = []
    rolls: list[tuple[int, int, RawMove | None, tuple[bool, ...]]] = []
    for step in steps:  # the replay checks each event before it is yielded
        event = step.event
        if game.over:  # only with a variant: the spec's replay goes on, the variant ended
            raise IllegalMove(
                f"the log goes on after the {variant.key if variant else ''} game ended"
            )
        c = game.turn_seat
        die = event["die"]
        legal = game.legal(c, die)
        offers = capture_offers(game, c)
        options: list[Game] = []
        if len(legal) > 1:
            for m in legal:
                g = game.copy()
                huff = None
                if g.huffing and g.huff_due(c, legal, m):
                    huff = policy.choose_huff(g, c, sorted(g.huff_targets(c, legal, m)))
                g.push_raw(die, m, huff)
                options.append(g)
        played = game.push_event(event)
        move = None if played is None else played[0]
        rolls.append((c, die, move, offers))
        if options:
            k = legal.index(move)
            options[k] = game.copy()  # the move as played, with the logged huff
            decisions.append(
                Decision(
                    event=step.index,
                    seat=c,
                    player=setup.player_of(c),
                    die=die,
                    moves=legal,
                    names=[str(game0.move_object(m, c)) for m in legal],
                    played=k,
                    games=options,
                )
            )
    return Walk(game0, list(setup.players), decisions, rolls, game)


def estimate(
    w: Walk,
    rollouts: int,
    seed: int,
    policy: Policy,
    progress: Callable[[int, int], None] | None = None,
) -> OptionRollouts:
    """Run the rollouts of every decision (and of the start position, returned)."""
    total = (len(w.decisions) + 1) * rollouts
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None and done % 50 == 0:
            progress(done, total)

    start = estimate_options([w.game0], rollouts, seed, -1, policy, tick)[0]
    for d in w.decisions:
        d.rollouts = estimate_options(d.games, rollouts, seed, d.event, policy, tick)
    if progress is not None:
        progress(total, total)
    return start


def mark_for(loss: float, half_width: float) -> str | None:
    """The mark of a loss: the largest threshold it reaches, if the loss is significant
    (larger than the 95 % half-width of the best − played difference)."""
    if loss <= half_width:
        return None
    mark = None
    for name, limit in THRESHOLDS.items():  # ascending
        if loss >= limit:
            mark = name
    return mark


def decision_entry(d: Decision, colour: str, players: Sequence[str]) -> dict:
    """The JSON entry of one estimated decision (schema: /tmp/analysis-schema.md)."""
    n = len(d.rollouts[0].winners)
    wins = [sum(1 for x in r.winners if x == d.player) for r in d.rollouts]
    order = sorted(range(len(d.moves)), key=lambda i: (-wins[i], i != d.played, i))
    best = order[0]
    options = [
        {
            "move": d.names[i],
            "win": round(wins[i] / n, 4),
            "half_width": round(wilson_half_width(wins[i], n), 4),
            "p": {p: round(v, 4) for p, v in d.rollouts[i].shares(players).items()},
        }
        for i in order
    ]
    loss = max(0.0, (wins[best] - wins[d.played]) / n)
    hw = paired_half_width(
        d.rollouts[best].indicator(d.player), d.rollouts[d.played].indicator(d.player)
    )
    return {
        "event": d.event,
        "colour": colour,
        "player": d.player,
        "die": d.die,
        "played": d.names[d.played],
        "best": d.names[best],
        "options": options,
        "loss": round(loss, 4),
        "loss_half_width": round(hw, 4),
        "mark": mark_for(loss, hw),
    }
