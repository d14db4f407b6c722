"""Players' details of issue 12.8: upload errors in German, one event numbering (from 1, as
the replay counts), the replay opening where a log was refused, export links, the styled
404 page, and the head-to-head column saying what it shows."""

from __future__ import annotations

import json

from django.urls import reverse

from tests.builders import example_text
from tournaments.web.templatetags.maedn import metric_value

LOG = "valid-league-2tplus.json"


def bad_log(event: int = 3) -> str:
    data = json.loads(example_text(LOG))
    data["events"][event]["die"] = 7
    return json.dumps(data)


def test_a_refused_upload_reads_in_german_and_links_to_the_replay(client, league, erin_user):
    client.force_login(erin_user)
    url = reverse("tournaments:game-submit", args=[league.test_objects["g1"].pk])
    page = client.post(url, {"content": bad_log()}, HTTP_ACCEPT_LANGUAGE="de").text
    assert "Das Protokoll wurde abgelehnt (Ereignis 4)" in page
    assert "würfelte 7, aber ein Würfel zeigt eine ganze Zahl von 1 bis 6" in page
    assert f'action="{reverse("tournaments:games:replay")}#step-3"' in page
    assert "Wiedergabe dort öffnen, wo Ereignis 4 abgelehnt wurde" in page


def test_the_replay_of_a_refused_log_opens_before_the_offending_event(client):
    response = client.post(reverse("tournaments:games:replay"), {"content": bad_log(3)})
    assert response.status_code == 400
    assert "(event 4)" in response.text
    assert 'data-start-step="3"' in response.text
    replay = json.loads(
        response.text.split('id="replay-data" type="application/json">')[1].split("</script>")[0]
    )
    assert len(replay["steps"]) == 3  # the three events before the refused one
    assert "data-moves" in response.text


def test_export_links_on_the_schedule_standings_and_player_pages(client, league):
    slug = league.slug
    schedule = client.get(reverse("tournaments:schedule", args=[slug])).text
    assert f"/api/v1/leagues/{slug}/schedule.ics" in schedule
    standings = client.get(reverse("tournaments:standings", args=[slug])).text
    assert f"/api/v1/leagues/{slug}/standings.csv" in standings
    player = league.test_objects["erin"].player
    page = client.get(reverse("tournaments:player", args=[player.slug])).text
    assert f"/api/v1/players/{player.slug}/schedule.ics" in page


def test_the_404_page_is_the_sites_own(client, settings, db):
    settings.DEBUG = False
    response = client.get("/leagues/no-such-league/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    assert "Diese Seite gibt es nicht" in response.text and 'class="site-header"' in response.text


def test_head_to_head_shows_a_signed_score_or_a_dash():
    assert metric_value({"head_to_head": 2}, "head_to_head") == "+2"
    assert metric_value({"head_to_head": -1}, "head_to_head") == "−1"
    assert metric_value({"head_to_head": None}, "head_to_head") == "–"


def test_mismatch_parts_are_translated_one_by_one():
    from django.utils import translation

    from tournaments.services.errors import coded, coded_text

    error = coded(
        "log_mismatch",
        why=[
            coded_text("log_board", log=6, league="Spring", board=4),
            coded_text("log_incomplete"),
            "the log's rules differ from the league's (league): x",  # an uncoded part
        ],
    )
    text = (
        "this log does not belong to this game: the log is for board 6, but Spring plays on "
        "board 4; the log ends before the game is decided; upload the complete log of the game"
        "; the log's rules differ from the league's (league): x"
    )
    assert error.message == text
    with translation.override("de"):
        german = error.localized()
    assert german.startswith("dieses Protokoll gehört nicht zu dieser Partie: ")
    assert "das Protokoll ist für Brett 6, aber Spring spielt auf Brett 4" in german
    assert "das Protokoll endet, bevor die Partie entschieden ist; lade" in german
    assert german.endswith("the log's rules differ from the league's (league): x")  # stays English
    with translation.override("en"):
        assert error.localized() == text
