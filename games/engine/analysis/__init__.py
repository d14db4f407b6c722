"""Game analysis on the learned evaluator: move quality and luck (pure Python, no Django).

    >>> from games.engine import simulate_game
    >>> from games.engine.analysis import analyse
    >>> data = analyse(simulate_game(rules="league", seed=1))  # doctest: +SKIP
    >>> data["format"]
    'maedn-analysis/5'

Modules, one concept each: ``equity`` (every player's chance from the evaluator, with
one ply of search), ``decisions`` (walking a log: every roll's equities, the options,
best, played, loss, marks), ``luck`` (the luck split, the luck-adjusted result, sixes,
capture chances), ``checks`` (the largest marks played out to the end), ``analyse`` (the
whole result). The Monte-Carlo tools of the first analysis stay for the benchmarks and
the exact checks: ``dice`` (common random numbers), ``policy`` (how rollouts play),
``rollout``, ``stats`` (95 % intervals), ``exact`` (exact values of small endgames). See
docs/analysis.md.
"""

from .analyse import ANALYSIS_FORMAT, BANDS, analyse, band_for
from .checks import MARK_CHECK_ROLLOUTS, MARK_CHECKS_PER_GAME
from .decisions import (
    INTERVAL_CONFIDENCE,
    LARGE_LOSS_MW,
    LOSS_SD_ENDGAME_MW,
    LOSS_SD_LARGE_MW,
    LOSS_SD_MW,
    THRESHOLDS_MW,
    AnalysisTooLong,
    clear_margin,
    counted_loss_mw,
    is_endgame,
    loss_interval_mw,
    loss_sd_mw,
    mark_for,
)
from .equity import Equity, Evaluator, default_evaluator
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
    "BANDS",
    "INTERVAL_CONFIDENCE",
    "LARGE_LOSS_MW",
    "LOSS_SD_ENDGAME_MW",
    "LOSS_SD_LARGE_MW",
    "LOSS_SD_MW",
    "MARK_CHECKS_PER_GAME",
    "MARK_CHECK_ROLLOUTS",
    "POLICIES",
    "THRESHOLDS_MW",
    "AnalysisTooLong",
    "Equity",
    "Evaluator",
    "FastHeuristicPolicy",
    "HeuristicPolicy",
    "LitePolicy",
    "Policy",
    "analyse",
    "band_for",
    "clear_margin",
    "counted_loss_mw",
    "default_evaluator",
    "default_policy",
    "estimate_options",
    "is_endgame",
    "loss_interval_mw",
    "loss_sd_mw",
    "mark_for",
    "rollout",
]
