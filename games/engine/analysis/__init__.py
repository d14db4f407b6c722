"""Game analysis: move quality by Monte-Carlo rollouts, and luck (pure Python, no Django).

    >>> from games.engine import simulate_game
    >>> from games.engine.analysis import analyse
    >>> data = analyse(simulate_game(rules="league", seed=1), rollouts=20, seed=0)
    >>> data["format"]
    'maedn-analysis/1'

Modules, one concept each: ``dice`` (the common random numbers), ``policy`` (how
rollouts play), ``rollout`` (one rollout; all options of a decision on the same
dice), ``stats`` (95 % intervals), ``decisions`` (walking a log: options, best,
played, loss, marks), ``luck`` (dice against choices, sixes, capture chances),
``exact`` (exact values of small endgames, to check the estimates), ``analyse`` (the
whole result). See docs/analysis.md.
"""

from .analyse import ANALYSIS_FORMAT, analyse
from .decisions import THRESHOLDS
from .policy import (
    POLICIES,
    FastHeuristicPolicy,
    HeuristicPolicy,
    LitePolicy,
    Policy,
    default_policy,
)
from .rollout import estimate_options, rollout

__all__ = [
    "ANALYSIS_FORMAT",
    "POLICIES",
    "THRESHOLDS",
    "FastHeuristicPolicy",
    "HeuristicPolicy",
    "LitePolicy",
    "Policy",
    "analyse",
    "default_policy",
    "estimate_options",
    "rollout",
]
