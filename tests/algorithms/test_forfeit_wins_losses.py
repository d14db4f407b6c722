"""Issue 34 point 3: a forfeit counts as the forfeiting player's loss and the win of every
other player at the board (a 3T forfeit has no single winner) — property-tested over
random three-player tables with forfeits; and the head-to-head of two players who did
not forfeit is untouched by a forfeit (they did not play each other)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.standings import GameOutcome, compute_standings

PLAYERS = ("a", "b", "c")


@st.composite
def tables(draw):
    games = []
    for number in range(draw(st.integers(1, 12))):
        order = draw(st.permutations(PLAYERS))
        if draw(st.booleans()):
            loser = order[-1]
            games.append(GameOutcome(number, PLAYERS, player_placings=order, forfeit_loser=loser))
        else:
            games.append(GameOutcome(number, PLAYERS, winner=order[0], player_placings=order))
    return games


@settings(max_examples=200, deadline=None)
@given(tables())
def test_every_forfeit_is_one_loss_and_a_win_for_each_other_player(games):
    rows = {
        r.entry: r.values for r in compute_standings(PLAYERS, games, ("won_lost", "head_to_head"))
    }
    for player in PLAYERS:
        wins = sum(
            1
            for g in games
            if (g.winner == player) or (g.forfeit_loser is not None and g.forfeit_loser != player)
        )
        losses = sum(
            1
            for g in games
            if g.forfeit_loser == player or (g.forfeit_loser is None and g.winner != player)
        )
        record = rows[player]["won_lost"]
        assert (record.wins, record.losses) == (wins, losses)
        assert record.wins + record.losses == len(games)


def test_a_player_who_won_two_games_then_forfeited_the_rest_is_last():
    won = [
        GameOutcome(1, PLAYERS, winner="a", player_placings=("a", "b", "c")),
        GameOutcome(2, PLAYERS, winner="a", player_placings=("a", "c", "b")),
    ]
    forfeits = [
        GameOutcome(n, PLAYERS, player_placings=("b", "c", "a"), forfeit_loser="a")
        for n in range(3, 7)
    ]
    rows = compute_standings(PLAYERS, won + forfeits, ("won_lost", "head_to_head"))
    assert rows[-1].entry == "a"
    assert str(rows[-1].values["won_lost"]) == "2–4"
    # b and c: 4–2 each; the forfeits' placings (b before c) give neither an edge
    assert rows[0].values["head_to_head"] == rows[1].values["head_to_head"] == 0
