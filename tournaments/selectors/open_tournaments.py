"""Reads of an open tournament: its preliminary ranking computed now, and who must roll
before the final table can be seated. The services (``services.open_tournaments``) seat and
draw from these; the next step (``selectors.next_step``) names the tie."""

from __future__ import annotations

from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.standings import compute_standings
from tournaments.models import Entry, League
from tournaments.selectors.standings_inputs import league_metrics, outcomes_for, roll_offs_for


def preliminary_rows(league: League):
    """The preliminary ranking (placement points → wins → die roll), computed now.
    Raises ``AlgorithmError`` when the results cannot be ranked."""
    accepted = league.entries.filter(state=Entry.State.ACCEPTED)  # withdrawn ones stay ranked
    entries = list(accepted.order_by("pk").values_list("pk", flat=True))
    return compute_standings(
        entries, outcomes_for(league), league_metrics(league), roll_offs=roll_offs_for(league)
    )


def final_table_rows(league: League):
    """The preliminary ranking of the players still playing (on a championship day, while
    check-in is open, of those checked in: an absent player is not seated at the final
    table, the next one moves up; docs/decisions.md)."""
    playing = league.entries.playing()
    if league.checkin_opened_at is not None:
        playing = playing.filter(checked_in_at__isnull=False)
    active = set(playing.values_list("pk", flat=True))
    return [r for r in preliminary_rows(league) if r.entry in active]


def cut_tie(league: League, rows) -> list[str]:
    """The names of the players sharing the last place at the final table with a player
    below the cut (they need a tie-break roll first), or []."""
    size = league.final_table_size
    if not size or len(rows) <= size or rows[size].rank > size:
        return []
    names = dict(league.entries.values_list("pk", "player__name"))
    return [names[r.entry] for r in rows if r.rank == rows[size].rank]


def final_table_cut_tie(league: League) -> list[str]:
    """Who must roll before the final table can be seated (``open_final_table`` refuses
    until they have): the players tied for its last place with one below the cut; [] when
    none (or when the results cannot be ranked yet)."""
    try:
        return cut_tie(league, final_table_rows(league))
    except AlgorithmError:
        return []
