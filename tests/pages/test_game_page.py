"""The game page: result, players and colours, the replay data and raw log, and the forms
(upload a log, confirm, dispute, resolve) calling the result services."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.builders import example_text
from tournaments.models import Fixture, RejectedSubmission, Result

pytestmark = pytest.mark.django_db

LOG = "valid-league-2tplus.json"


def game_url(league, name="g1"):
    return reverse("tournaments:game", args=[league.test_objects[name].pk])


def submit_url(league, name="g1"):
    return reverse("tournaments:game-submit", args=[league.test_objects[name].pk])


def test_game_page_shows_result_players_colours_and_replay(client, league, submitted):
    response = client.get(game_url(league))
    assert response.status_code == 200
    html = response.text
    # players in at-board order with their colours, winner marked, placings, counted pawns
    rows = re.findall(r'<tr>\s*<td class="num">(\d)</td>\s*<th scope="row"><a [^>]*>(\w+)', html)
    assert rows == [("1", "erin"), ("2", "carol")]
    carol_row = re.search(r'class="winner">carol</a>.*?</tr>', html, re.S).group(0)
    cells = re.findall(r'<td class="num">([^<]+)</td>', carol_row)
    e_carol = league.test_objects["carol"].pk
    assert cells[0] == "1"  # first place
    assert cells[1] == str(submitted.counted_pawns[str(e_carol)]) == "8"
    assert cells[2] == "2"  # both colours finished
    assert cells[3] == str(submitted.captures[str(e_carol)])
    assert "validated game log" in html and "verified by the validator" in html
    # the replay viewer with its data URL and the raw log link
    log_id = submitted.game_log_id
    assert (
        f'data-replay-url="/games/{league.test_objects["g1"].pk}/logs/{log_id}/replay.json"' in html
    )
    assert 'id="replay-viewer"' in html and 'tabindex="0"' in html
    assert html.count('class="field"') == 40  # the 40-field track of board 4
    assert "js/replay.js" in html


def test_raw_log_is_served_exactly_as_uploaded(client, league, submitted):
    url = reverse(
        "tournaments:game-log", args=[league.test_objects["g1"].pk, submitted.game_log_id]
    )
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response.content.decode("utf-8") == example_text(LOG)
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_log_of_another_game_is_404(client, league, submitted):
    url = reverse(
        "tournaments:game-log", args=[league.test_objects["g2"].pk, submitted.game_log_id]
    )
    assert client.get(url).status_code == 404


def test_replay_json_names_players_by_seat(client, league, submitted):
    url = reverse(
        "tournaments:game-replay", args=[league.test_objects["g1"].pk, submitted.game_log_id]
    )
    response = client.get(url)
    assert response.status_code == 200
    data = json.loads(response.content)
    # only what static/js/replay.js reads is sent
    assert set(data) == {"track_length", "start", "seats", "steps"}
    assert set(data["seats"][0]) == {"seat", "css", "label", "symbol", "player", "used", "neutral"}
    assert {k for step in data["steps"] for k in step} <= {
        "seat",
        "die",
        "try",
        "move",
        "pawns",
        "turn",
        "text",
    }
    assert len(data["steps"]) == 581
    by_seat = {s["seat"]: (s["css"], s["player"], s["label"]) for s in data["seats"]}
    # the log renames colours (rot, schwarz, …); the viewer shows the league's names
    assert by_seat[0] == ("red", "carol", "red")
    assert by_seat[1] == ("black", "erin", "black")
    assert by_seat[3] == ("green", "carol", "green")
    assert data["steps"][0]["seat"] == 1  # black (schwarz) starts
    assert data["steps"][0]["text"].startswith("black rolls")
    assert data["steps"][-1]["turn"] is None and "the game is over" in data["steps"][-1]["text"]
    # a stuck colour's tries are numbered (the viewer's try line), one-try rolls are not
    tries = [step["try"] for step in data["steps"] if "try" in step]
    assert tries and all(of == 3 and 1 <= k <= 3 for k, of in tries)
    assert data["steps"][0]["try"] == [1, 3]  # everyone starts in the yard: stuck


def test_player_uploads_pasted_log_then_opponent_confirms(client, league, erin_user, carol_user):
    client.force_login(erin_user)
    response = client.post(submit_url(league), {"content": example_text(LOG)})
    assert response.status_code == 302
    page = client.get(game_url(league))
    assert "The log was accepted." in page.text
    result = Result.objects.get(fixture=league.test_objects["g1"])
    assert result.state == Result.State.PENDING
    assert "awaiting confirmation" in page.text
    assert "Confirm this result" not in page.text  # the submitter cannot confirm
    assert "Dispute this result" not in page.text  # nor dispute their own upload (issue 24)

    client.force_login(carol_user)
    page = client.get(game_url(league))
    assert "Confirm this result" in page.text
    response = client.post(
        reverse("tournaments:result-confirm", args=[league.test_objects["g1"].pk, result.pk])
    )
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.state == Result.State.CONFIRMED
    assert Fixture.objects.get(pk=league.test_objects["g1"].pk).status == "confirmed"
    assert "it counts now" in client.get(game_url(league)).text


def test_upload_as_a_file(client, league, carol_user):
    client.force_login(carol_user)
    upload = SimpleUploadedFile("game.json", example_text(LOG).encode(), "application/json")
    response = client.post(submit_url(league), {"file": upload})
    assert response.status_code == 302
    assert Result.objects.get(fixture=league.test_objects["g1"]).state == Result.State.PENDING


def test_invalid_log_shows_the_service_message_and_keeps_the_text(client, league, erin_user):
    client.force_login(erin_user)
    data = json.loads(example_text(LOG))
    data["events"][3]["die"] = 7
    pasted = json.dumps(data)
    response = client.post(submit_url(league), {"content": pasted})
    assert response.status_code == 400
    assert "The log was rejected (event 4)" in response.text
    assert 'role="alert"' in response.text
    textarea = re.search(r"<textarea[^>]*>(.*?)</textarea>", response.text, re.S).group(1)
    assert json.loads(textarea.replace("&quot;", '"').replace("&amp;", "&")) == data
    assert not Result.objects.exists()
    assert RejectedSubmission.objects.filter(fixture=league.test_objects["g1"]).count() == 1


def test_log_of_another_game_is_refused_with_the_reason(client, league, erin_user):
    client.force_login(erin_user)
    response = client.post(submit_url(league, "g2"), {"content": example_text(LOG)})
    assert response.status_code == 400
    assert "This log does not belong to this game" in response.text
    assert "starting colour is green" in response.text


def test_empty_form_is_a_form_error(client, league, erin_user):
    client.force_login(erin_user)
    response = client.post(submit_url(league), {"content": "   "})
    assert response.status_code == 400
    assert "Choose a log file or paste the log" in response.text


def test_outsider_may_not_upload(client, league, outsider):
    client.force_login(outsider)
    response = client.post(submit_url(league), {"content": example_text(LOG)})
    assert response.status_code == 403
    assert "Only the players at this game" in response.text
    assert "Upload the game log" not in response.text  # no form for outsiders
    assert not Result.objects.exists()


def test_anonymous_upload_goes_to_login(client, league):
    response = client.post(submit_url(league), {"content": example_text(LOG)})
    assert response.status_code == 302
    assert "next=" in response["Location"]
    page = client.get(game_url(league))
    assert "to upload this game" in page.text


def test_dispute_needs_a_reason_and_then_an_organizer_resolves(
    client, league, erin_user, carol_user, owner
):
    client.force_login(erin_user)
    client.post(submit_url(league), {"content": example_text(LOG)})
    result = Result.objects.get()
    g1 = league.test_objects["g1"].pk

    client.force_login(carol_user)
    dispute = reverse("tournaments:result-dispute", args=[g1, result.pk])
    response = client.post(dispute, {"reason": ""})
    assert response.status_code == 400
    response = client.post(dispute, {"reason": "we played a different game"})
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.state == Result.State.DISPUTED
    page = client.get(reverse("tournaments:game", args=[g1]))
    assert "disputed" in page.text and "Decide" not in page.text

    client.force_login(owner)
    page = client.get(reverse("tournaments:game", args=[g1]))
    assert "Organizer&#x27;s decision" in page.text or "Organizer's decision" in page.text
    response = client.post(
        reverse("tournaments:result-resolve", args=[g1, result.pk]),
        {"accept": "1", "note": "checked the log"},
    )
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.state == Result.State.CONFIRMED


def test_confirming_a_confirmed_result_from_a_stale_page_is_harmless(
    client, league, submitted, carol_user
):
    client.force_login(carol_user)
    url = reverse("tournaments:result-confirm", args=[league.test_objects["g1"].pk, submitted.pk])
    response = client.post(url)
    assert response.status_code == 302
    submitted.refresh_from_db()
    assert submitted.state == Result.State.CONFIRMED


def test_disputing_a_confirmed_result_shows_the_service_message(
    client, league, submitted, carol_user
):
    client.force_login(carol_user)
    url = reverse("tournaments:result-dispute", args=[league.test_objects["g1"].pk, submitted.pk])
    response = client.post(url, {"reason": "wrong"})
    assert response.status_code == 400
    assert "Only a pending result can be disputed" in response.text


def test_forms_need_post(client, league, erin_user):
    client.force_login(erin_user)
    assert client.get(submit_url(league)).status_code == 405


def test_standalone_replay_checks_a_pasted_log_without_storing_it(client):
    from games.models import GameLog

    url = reverse("tournaments:games:replay")
    response = client.post(url, {"content": example_text("valid-league-3tplus-board6.json")})
    assert response.status_code == 200
    assert 'id="replay-data"' in response.text
    assert response.text.count('class="field"') == 48  # board 6
    assert not GameLog.objects.exists()
    bad = client.post(url, {"content": example_text("invalid-wrong-distance.json")})
    assert bad.status_code == 400
    assert "(event 54)" in bad.text
