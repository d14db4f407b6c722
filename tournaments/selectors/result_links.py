"""Read queries of the private result link page (``/r/<token>/``): the entry's games in its
league with every result version, and what the link holder may do at each."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from tournaments.actors import LinkHolder
from tournaments.models import Entry, Fixture, Result, ResultLink, Seat
from tournaments.permissions import CONFIRM, DISPUTE, SUBMIT, ResultActions, result_actions
from tournaments.selectors.games import current_result
from tournaments.selectors.prefetch import seats_prefetch


@dataclass(frozen=True)
class LinkGame:
    fixture: Fixture
    seat: Seat
    opponents: list[Seat]
    result: Result | None
    actions: ResultActions

    @property
    def starts(self) -> bool:
        return self.fixture.starting_colour in self.seat.colours

    @property
    def can_submit(self) -> bool:
        return self.actions.allows(SUBMIT)

    @property
    def can_confirm(self) -> bool:
        return self.result is not None and self.actions.allows(CONFIRM)

    @property
    def can_dispute(self) -> bool:
        return self.result is not None and self.actions.allows(DISPUTE)


def _fixtures(entry: Entry):
    return (
        Fixture.objects.filter(league_id=entry.league_id, seats__entry=entry)
        .select_related("league", "cycle", "series", "start_depends_on")
        .prefetch_related(
            seats_prefetch(),
            Prefetch(
                "results",
                queryset=Result.objects.select_related(
                    "winner__player", "submitted_by", "submitted_via__entry__player"
                )
                .defer("reason")
                .order_by("-created_at", "-id"),
                to_attr="all_results",
            ),
        )
        .order_by("round", "number", "pk")
    )


def link_games(link: ResultLink) -> list[LinkGame]:
    """The link's entry's games in its league, in schedule order, with the actions the
    holder has at each (``permissions.result_actions``, the services' own answer)."""
    holder = LinkHolder(link)
    games = []
    for fixture in _fixtures(link.entry):
        seats = list(fixture.seats.all())
        seat = next(s for s in seats if s.entry_id == link.entry_id)
        games.append(
            LinkGame(
                fixture=fixture,
                seat=seat,
                opponents=[s for s in seats if s.entry_id != link.entry_id],
                result=current_result(fixture),
                actions=result_actions(holder, fixture, results=fixture.all_results),
            )
        )
    return games


def link_fixture(link: ResultLink, pk: int) -> Fixture | None:
    """One of the link's entry's games (with its results), or None for any other game."""
    return _fixtures(link.entry).filter(pk=pk).first()
