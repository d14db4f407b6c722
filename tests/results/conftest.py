import pytest

from tests.builders import make_fixture, make_league, make_player, make_user


@pytest.fixture
def table(db):
    """A 2T+ league with one game: erin (black+yellow, first mentioned, so black starts)
    against carol (green+red) — the players of ../shared/examples/valid-league-2tplus.json."""
    organizer = make_user("org")
    erin_user, carol_user = make_user("erin_u"), make_user("carol_u")
    erin = make_player("erin", user=erin_user)
    carol = make_player("carol", user=carol_user)
    league = make_league(organizer, format="2T+")
    fixture = make_fixture(
        league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black"
    )
    return {
        "organizer": organizer,
        "erin": erin_user,
        "carol": carol_user,
        "league": league,
        "fixture": fixture,
        "stranger": make_user("stranger"),
    }
