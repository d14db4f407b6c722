"""Issue 36, a championship day's registration rules as plain functions (no database): the
waitlist moves up in order and never past the capacity, the deadline removes only the
absent who have not played, and the team classification adds the best members' points."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.algorithms.championship import (
    Registered,
    Waiting,
    deadline_release,
    promotions,
    team_ranking,
)

waitlists = st.lists(st.booleans(), max_size=30).map(
    lambda flags: [Waiting(i, present) for i, present in enumerate(flags)]
)


@given(
    capacity=st.none() | st.integers(0, 40),
    playing=st.integers(0, 50),
    waiting=waitlists,
    present_only=st.booleans(),
)
def test_promotions_fill_free_places_in_waitlist_order_and_never_past_capacity(
    capacity, playing, waiting, present_only
):
    moved = promotions(capacity, playing, waiting, present_only=present_only)
    eligible = [w.entry for w in waiting if w.present or not present_only]
    # in order, nobody skipped: the promoted are the first eligible ones
    assert list(moved) == eligible[: len(moved)]
    if capacity is None:
        assert list(moved) == eligible
    else:
        assert playing + len(moved) <= max(capacity, playing)
        # as many as fit: a free place stays empty only when nobody eligible waits
        assert len(moved) == min(max(0, capacity - playing), len(eligible))
    # applying the rule again after the moves promotes nobody who would exceed capacity
    rest = [w for w in waiting if w.entry not in moved]
    again = promotions(capacity, playing + len(moved), rest, present_only=present_only)
    if capacity is not None:
        assert playing + len(moved) + len(again) <= max(capacity, playing)
        assert again == () or playing + len(moved) < capacity


def test_after_the_deadline_an_absent_waiting_player_is_passed_over():
    waiting = [Waiting("a", False), Waiting("b", True), Waiting("c", True)]
    assert promotions(10, 9, waiting) == ("a",)
    assert promotions(10, 9, waiting, present_only=True) == ("b",)
    assert promotions(10, 10, waiting) == ()


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=40))
def test_the_deadline_releases_exactly_the_absent_who_have_not_played(flags):
    players = [Registered(i, checked_in, played) for i, (checked_in, played) in enumerate(flags)]
    released = set(deadline_release(players))
    for p in players:
        assert (p.entry in released) == (not p.checked_in and not p.has_played)


team_names = st.sampled_from(["", "Rot-Weiß", "Blau", "Grün", "aachen", "Aachen"])


@given(
    st.dictionaries(st.integers(0, 40), st.tuples(st.integers(0, 40), team_names), max_size=40),
    st.integers(0, 5),
)
def test_team_ranking_adds_the_best_members_and_orders_by_points(table, best):
    points = {e: p for e, (p, _t) in table.items()}
    teams = {e: t for e, (_p, t) in table.items()}
    rows = team_ranking(points, teams, best)
    named = {t for t in teams.values() if t}
    assert sorted(r.team for r in rows) == sorted(named)  # every team once
    for row in rows:
        mine = sorted((points[e] for e, t in teams.items() if t == row.team), reverse=True)
        assert row.members == len(mine)
        assert row.points == sum(mine[:best] if best else mine)
        assert [p for _e, p in row.counted] == (mine[:best] if best else mine)
    for above, below in itertools.pairwise(rows):
        assert above.points >= below.points
        assert above.rank <= below.rank
        same = (above.points, above.counted[0][1]) == (below.points, below.counted[0][1])
        assert (above.rank == below.rank) == same
    if rows:
        assert rows[0].rank == 1


def test_team_ranking_example_best_two_members():
    points = {1: 13, 2: 9, 3: 1, 4: 12, 5: 11, 6: 20}
    teams = {1: "Kassel", 2: "Kassel", 3: "Kassel", 4: "Mainz", 5: "Mainz", 6: ""}
    rows = team_ranking(points, teams, best=2)
    assert [(r.team, r.rank, r.points) for r in rows] == [("Mainz", 1, 23), ("Kassel", 2, 22)]
    assert rows[1].counted == ((1, 13), (2, 9))
    rows = team_ranking(points, teams)  # all members count
    # equal points: the best member decides (Kassel's 13 > Mainz's 12)
    assert [(r.team, r.rank, r.points) for r in rows] == [("Kassel", 1, 23), ("Mainz", 2, 23)]
    with pytest.raises(ValueError):
        team_ranking(points, teams, best=-1)
