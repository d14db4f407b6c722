"""Home, rules, league, schedule, playoffs and player pages: what they show."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine.rules import PRESET_OPTIONS, explain
from games.stats import log_stats
from tests.builders import example_text, make_fixture, make_league
from tournaments.models import Entry, League, Player, Result

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    """The page's visible text, whitespace collapsed (tags removed)."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_home_lists_public_active_leagues_and_latest_results(client, league, submitted, owner):
    make_league(owner, name="Draft Cup", slug="draft-cup", status=League.Status.DRAFT)
    make_league(owner, name="Hidden Cup", slug="hidden-cup", is_public=False)
    make_league(owner, name="Old Cup", slug="old-cup", status=League.Status.FINISHED)
    response = client.get(reverse("tournaments:home"))
    assert response.status_code == 200
    text = text_of(response)
    assert "Spring League" in text and "Old Cup" in text
    assert "Draft Cup" not in text and "Hidden Cup" not in text
    assert text.index("Spring League") < text.index("Old Cup")  # running before finished
    # the latest confirmed result: G1, won by carol (the example log's winner)
    assert reverse("tournaments:game", args=[league.test_objects["g1"].pk]) in response.text
    assert re.search(r'class="winner">carol<', response.text)


def test_home_hides_results_of_private_leagues(client, owner, erin_user, carol_user):
    from tests.builders import build_league
    from tournaments.services.results import game_log_submit

    hidden = build_league(owner, erin_user, carol_user, slug="hidden", is_public=False)
    game_log_submit(
        fixture=hidden.test_objects["g1"],
        content=example_text("valid-league-2tplus.json"),
        by=owner,
    )
    assert Result.objects.filter(state="confirmed").count() == 1
    response = client.get(reverse("tournaments:home"))
    assert "/leagues/hidden/" not in response.text
    assert "No results yet." in response.text


def test_rules_page_explains_every_preset(client):
    response = client.get(reverse("tournaments:rules"))
    assert response.status_code == 200
    text = text_of(response)
    for preset in PRESET_OPTIONS:
        assert f'id="preset-{preset.replace("+", "-")}"' in response.text
        for sentence in explain(preset)[1:]:
            assert sentence in text
    assert '<th scope="row"><code>three_tries</code></th>' in response.text


def test_league_page_shows_format_rules_entrants_and_organizers(client, league, owner):
    response = client.get(reverse("tournaments:league", args=["spring"]))
    assert response.status_code == 200
    text = text_of(response)
    assert "Double threat XL (2T+)" in text
    assert "running" in text
    # rules in words, from the engine
    assert "The game ends when a player has finished all of their colours" in text
    # entrants with their allied colours (chips carry the colour name and letter)
    assert "erin" in text and "carol" in text
    assert re.search(r"erin</a>.*?black.*?yellow", response.text, re.S)
    assert owner.username in text
    assert "XLeague" in text


def test_schedule_by_drr_and_round_with_seats_colours_and_result(client, league, submitted):
    response = client.get(reverse("tournaments:schedule", args=["spring"]))
    assert response.status_code == 200
    text = text_of(response)
    assert "Double round-robin 1" in text
    assert "Round 1" in text and "Round 2" in text
    g1_row = re.search(
        r"<tr>\s*<th scope=\"row\"><a href=\"/games/\d+/\">G1</a>.*?</tr>", response.text, re.S
    )
    assert g1_row, "G1 row missing"
    row = g1_row.group(0)
    # at-board order: erin first, then carol; colours as chips; starting colour black
    assert row.index("erin") < row.index("carol")
    assert "confirmed" in row
    assert "carol won" in row
    assert "(counted pawns: 8)" in row  # carol finished both colours: 8 counted pawns (2T+)
    g2_row = re.search(r"G2</a>.*?</tr>", response.text, re.S).group(0)
    assert g2_row.index("carol") < g2_row.index("erin")
    assert "scheduled" in g2_row


def test_schedule_filters_by_player(client, league, owner):
    dave = Player.objects.create(name="dave", slug="dave")
    e_dave = Entry.objects.create(league=league, player=dave)
    make_fixture(
        league,
        [(e_dave, ["green", "red"]), (league.test_objects["carol"], ["black", "yellow"])],
        "green",
        cycle=league.test_objects["cycle"],
        round=3,
        number=3,
    )
    everyone = text_of(client.get(reverse("tournaments:schedule", args=["spring"])))
    assert "G1" in everyone and "G3" in everyone
    response = client.get(reverse("tournaments:schedule", args=["spring"]) + "?player=dave")
    text = text_of(response)
    assert "G3" in text and "G1" not in text and "G2" not in text
    assert '<option value="dave" selected>' in response.text
    unknown = client.get(reverse("tournaments:schedule", args=["spring"]) + "?player=nobody")
    assert "That player is not entered in this league." in unknown.text
    assert "G1" not in text_of(unknown)


def test_playoffs_show_series_with_head_start_and_score(client, league, series, owner):
    from tournaments.models import Fixture

    game = Fixture.objects.create(
        league=league, series=series, round=1, number=1, starting_colour="green"
    )
    Result.objects.create(
        fixture=game,
        source=Result.Source.ORGANIZER,
        state=Result.State.CONFIRMED,
        winner=league.test_objects["erin"],
        placings=[league.test_objects["erin"].pk, league.test_objects["carol"].pk],
    )
    response = client.get(reverse("tournaments:playoffs", args=["spring"]))
    assert response.status_code == 200
    text = text_of(response)
    assert "Final Series" in text and "first to 4 wins" in text
    # carol (higher seed) 1 from the head start, erin 1 from her win
    scores = re.findall(r'<td class="num score">(\d+)', response.text)
    assert scores == ["1", "1"]
    assert "includes the 1–0 head start" in text


def test_playoffs_without_head_start(client, league, series):
    series.head_start = False
    series.save()
    response = client.get(reverse("tournaments:playoffs", args=["spring"]))
    assert re.findall(r'<td class="num score">(\d+)', response.text) == ["0", "0"]


def test_player_page_results_colours_and_log_statistics(client, league, submitted):
    response = client.get(reverse("tournaments:player", args=["erin"]))
    assert response.status_code == 200
    text = text_of(response)
    assert "Spring League" in text
    assert "0 won, 1 lost" in text
    # statistics summed over erin's colours in the log (black = seat 1, yellow = seat 2)
    stats = log_stats(example_text("valid-league-2tplus.json"))
    rolls = stats[1]["rolls"] + stats[2]["rolls"]
    sixes = stats[1]["sixes"] + stats[2]["sixes"]
    captures = stats[1]["captures"] + stats[2]["captures"]
    captured = stats[1]["captured"] + stats[2]["captured"]
    assert f'Rolls</th><td class="num">{rolls}<' in response.text.replace("\n", "")
    assert f"{sixes} (" in text
    assert f'Captures made</th><td class="num">{captures}<' in response.text
    assert f'Pawns captured by others</th><td class="num">{captured}<' in response.text
    assert f"{rolls:.1f}" in text  # one logged game: rolls per game = rolls


def test_player_statistics_come_from_the_cache_without_loading_logs(
    client, league, submitted, django_assert_max_num_queries
):
    url = reverse("tournaments:player", args=["carol"])
    client.get(url)  # fills the cache
    # the player, their entries, one row per game (records, colours, statistics), the games
    # shown (their seats and results), the other seats (opponents), the analysed results,
    # the rating chart's values and the last rating changes: none per game
    with django_assert_max_num_queries(10):
        response = client.get(url)
    assert "Statistics from game logs" in response.text
    assert "No counted game with a log yet." not in response.text


def test_unknown_pages_are_404(client, league):
    assert client.get(reverse("tournaments:league", args=["nope"])).status_code == 404
    assert client.get(reverse("tournaments:player", args=["nope"])).status_code == 404
    assert client.get(reverse("tournaments:game", args=[99999])).status_code == 404


def test_every_page_has_a_language_switcher_and_a_skip_link(client, league, submitted):
    g1 = league.test_objects["g1"]
    for url in [
        reverse("tournaments:home"),
        reverse("tournaments:rules"),
        reverse("tournaments:league", args=["spring"]),
        reverse("tournaments:schedule", args=["spring"]),
        reverse("tournaments:standings", args=["spring"]),
        reverse("tournaments:playoffs", args=["spring"]),
        reverse("tournaments:game", args=[g1.pk]),
        reverse("tournaments:player", args=["erin"]),
        reverse("tournaments:games:replay"),
    ]:
        html = client.get(url).content.decode()
        assert 'action="/i18n/setlang/"' in html, url
        assert '<option value="de" lang="de"' in html, url
        assert 'href="#main"' in html, url
        assert "<th>" not in html, f"{url}: a header cell without scope"


@pytest.mark.parametrize("games", [2, 30])
def test_schedule_and_player_queries_do_not_grow_with_the_league(
    client, league, submitted, games, django_assert_max_num_queries
):
    objs = league.test_objects
    for n in range(3, games + 1):
        make_fixture(
            league,
            [(objs["erin"], ["black", "yellow"]), (objs["carol"], ["green", "red"])],
            "black",
            cycle=objs["cycle"],
            round=n,
            number=n,
        )
    with django_assert_max_num_queries(8):
        response = client.get(reverse("tournaments:schedule", args=["spring"]))
    assert response.text.count('<th scope="row"><a href="/games/') == games
    client.get(reverse("tournaments:player", args=["erin"]))  # fills the statistics cache
    with django_assert_max_num_queries(10):  # the same at 2 and 30 games
        client.get(reverse("tournaments:player", args=["erin"]))
    with django_assert_max_num_queries(10):
        client.get(reverse("tournaments:game", args=[objs["g1"].pk]))
