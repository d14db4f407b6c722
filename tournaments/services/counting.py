"""What happens when a game's counted result changes: ``result_counted``.

A result starts counting (an upload that counts at once, a confirmation, an organizer's
entry or correction, a forfeit, a resolved dispute, a tie-break roll placing a game again)
or stops counting (a void). ``tournaments/services/results.py`` calls ``result_counted``
once, under the fixture's row lock and inside the transaction that made the change. It
runs, in this order:

1. **the competition's own consequences**, written out below in a fixed order because
   each may depend on the one before:

   a. a playoff game moves its series on (``playoffs.series_progress``);
   b. the games whose starting colour this game decides get it
      (``events.event_starts_update``);
   c. the event moves on: a Grand Prix cancels its games once decided or adds an extra
      game while tied (``events.grand_prix_progress``), a GP league of DRRs likewise
      (``events.grand_prix_league_progress``), a triple-threat or Challengers event
      finishes or runs again (``events.sequence_event_progress``);
   d. an open tournament's final table finishes (or reopens) the tournament;

2. **every subscriber**, in the order of the registry (``subscribers()``): the parts of the
   platform that react to a counted result without the competition depending on them
   (ratings, move analyses). A subscriber registers itself in its own module::

       counting.subscribe("ratings", order=100)(rating_game_counted)

   and the module is imported when Django is ready (``tournaments/apps.py``), so the
   registry is the same in every process whatever it imported first. A subscriber is
   called with the fixture and runs inside the same transaction (work that must wait for
   the commit is queued with ``transaction.on_commit``); an exception rolls the whole
   change back, as before. The list, in order, is in docs/architecture.md ("What a counted
   result sets off") and checked by ``tests/results/test_counting.py``.

3. **the standings are invalidated** (``standings.standings_invalidate``: the league's
   revision is bumped now, the recompute queued on commit) — last, so the league's row,
   which the bump locks until the commit, is held for the fewest statements: every
   upload of a league takes that row, and while one transaction holds it the others'
   bumps and the recompute's claim wait (issue 31, docs/results.md "A burst of results").
   Nothing before it reads the revision.

An ordered registry rather than Django signals: the order is explicit and readable in one
place, a subscriber is a plain function with a name, and nothing is connected by side
effect of an import elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tournaments.models import Fixture, League, Result
from tournaments.services.events import (
    event_starts_update,
    grand_prix_league_progress,
    grand_prix_progress,
    sequence_event_progress,
)
from tournaments.services.playoffs import series_progress
from tournaments.services.standings import standings_invalidate
from tournaments.services.standings_sums import standings_sums_count

Handler = Callable[[Fixture], object]


@dataclass(frozen=True)
class Subscriber:
    """One reaction to a counted result: its name, its place in the order (lower first)
    and the function called with the fixture."""

    name: str
    order: int
    handler: Handler

    @property
    def where(self) -> str:
        """``module.function`` of the handler (for the docs and error messages)."""
        return f"{self.handler.__module__}.{self.handler.__qualname__}"


_registry: dict[str, Subscriber] = {}


def subscribe(name: str, *, order: int) -> Callable[[Handler], Handler]:
    """Register ``handler(fixture)`` to run, after the competition's own consequences,
    whenever a fixture's counted result changes; used as a decorator or called on a
    function. Subscribers run by ``order`` (lower first). Two subscribers may not share a
    name or an order (the order is never left to chance); registering the same function
    again under its name (a module imported twice) changes nothing."""

    def register(handler: Handler) -> Handler:
        new = Subscriber(name=name, order=order, handler=handler)
        old = _registry.get(name)
        if old is not None and (old.where, old.order) != (new.where, new.order):
            raise ValueError(f"a counting subscriber is already called {name!r}: {old.where}")
        taken = [s for s in _registry.values() if s.order == order and s.name != name]
        if taken:
            raise ValueError(
                f"counting subscriber {name!r}: order {order} is taken by {taken[0].name!r}"
            )
        _registry[name] = new
        return handler

    return register


def subscribers() -> list[Subscriber]:
    """The registered subscribers, in the order they run."""
    return sorted(_registry.values(), key=lambda s: s.order)


def result_counted(fixture: Fixture) -> None:
    """The counted result of ``fixture`` changed (it counts now, was corrected, or was
    voided): its consequences for the competition in their fixed order, then every
    subscriber in the registry's order, then the standings' revision bumped (last: it
    locks the league's row until the commit). Runs inside the caller's transaction, under
    the fixture's row lock (``results.fixture_lock``)."""
    league = fixture.league
    _competition_moves_on(league, fixture)
    for subscriber in subscribers():
        subscriber.handler(fixture)
    standings_sums_count(fixture)  # the kept per-entry sums (their lock, then the bump's)
    standings_invalidate(league)


def _competition_moves_on(league: League, fixture: Fixture) -> None:
    """Steps a–d of the module's list: series, starts decided by this game, the event,
    an open tournament's final table."""
    if fixture.series_id:
        series_progress(fixture.series_id)  # next game, or the winner into the next series
    event_starts_update(fixture)  # games whose start this game decides
    if league.event_kind == League.EventKind.GRAND_PRIX:
        grand_prix_progress(league)  # cancel once decided, extra game while tied
    elif league.format in ("GP", "GP+") and league.event_kind == League.EventKind.LEAGUE:
        grand_prix_league_progress(league)  # a GP league of DRRs: extra games too
    else:
        sequence_event_progress(league)  # a triple-threat or Challengers event ends
    if fixture.stage == Fixture.Stage.FINAL:  # an open tournament's final table
        counted = fixture.results.filter(state=Result.State.CONFIRMED).exists()
        League.objects.filter(pk=league.pk).update(
            status=League.Status.FINISHED if counted else League.Status.RUNNING
        )
