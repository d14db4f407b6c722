"""Games and results through the API: submitting logs (JSON body or file), the two-person
rule, organizer corrections, and the log served back byte for byte."""

from __future__ import annotations

import json

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import GameLog
from tests.api.conftest import error_of
from tests.builders import example, example_bytes, make_fixture
from tournaments.models import Fixture, RejectedSubmission, Result
from tournaments.services.results import result_enter


def submit(world, role="player", body=None, **kwargs):
    return world.client(role).post(
        f"/api/v1/fixtures/{world.fixture.pk}/log/",
        example_bytes() if body is None else body,
        content_type="application/json",
        **kwargs,
    )


def test_a_player_submits_a_log_as_the_json_body(world):
    response = submit(world)
    assert response.status_code == 201, response.content
    result = response.json()
    assert result["state"] == "pending" and result["source"] == "log" and result["verified"]
    assert result["winner"] == world.entries["carol"].pk  # carol wins the example game
    assert result["submitted_by"] == "player"
    assert result["counted_pawns"] == {str(world.entries["carol"].pk): 8} | {
        str(world.entries["erin"].pk): result["counted_pawns"][str(world.entries["erin"].pk)]
    }
    log = GameLog.objects.get()
    assert log.content.encode("utf-8") == example_bytes()
    assert result["game_log"] == log.sha256


def test_a_player_uploads_the_log_as_a_file(world):
    upload = SimpleUploadedFile("game.json", example_bytes(), content_type="application/json")
    response = world.client("opponent").post(
        f"/api/v1/fixtures/{world.fixture.pk}/log/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 201, response.content
    assert GameLog.objects.get().content.encode("utf-8") == example_bytes()


def test_the_same_log_again_is_recognised_not_duplicated(world):
    first = submit(world)
    again = submit(world, role="opponent")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert Result.objects.count() == 1 and GameLog.objects.count() == 1


def test_a_log_breaking_a_rule_is_rejected_naming_the_event(world):
    broken = example()
    events = broken["events"]
    index = next(i for i, e in enumerate(events) if e.get("move"))
    events[index]["die"] = 7
    response = submit(world, body=json.dumps(broken))
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert error["event"] == index
    assert f"event {index + 1}" in error["message"]  # text counts from 1, the field is the index
    assert not Result.objects.exists() and not GameLog.objects.exists()
    assert RejectedSubmission.objects.get().event == index


def test_a_log_of_another_game_is_rejected_with_the_differences(world):
    other = example("valid-league-gp.json")
    response = submit(world, body=json.dumps(other))
    assert response.status_code == 400
    assert "does not belong to this game" in error_of(response)["message"]
    assert not Result.objects.exists()


def test_an_empty_upload_is_a_clear_400(world):
    response = submit(world, body=b"")
    assert response.status_code == 400
    assert "empty" in error_of(response)["message"]
    response = world.client("player").post(
        f"/api/v1/fixtures/{world.fixture.pk}/log/", {}, format="multipart"
    )
    assert response.status_code == 400
    assert "empty" in error_of(response)["message"]


def test_other_content_types_are_refused(world):
    response = world.client("player").post(
        f"/api/v1/fixtures/{world.fixture.pk}/log/", "hello", content_type="text/plain"
    )
    assert response.status_code == 415
    assert error_of(response)["code"] == "unsupported_media_type"


def test_the_log_is_served_back_unchanged(world):
    submit(world)
    response = world.client("anonymous").get(f"/api/v1/fixtures/{world.fixture.pk}/log/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response.content == example_bytes()
    sha = GameLog.objects.get().sha256
    assert response["ETag"] == f'"{sha}"'
    result_id = Result.objects.get().pk
    again = world.client("anonymous").get(f"/api/v1/results/{result_id}/log/")
    assert again.content == example_bytes()


def test_a_game_without_a_log_has_none_to_serve(world):
    response = world.client("anonymous").get(f"/api/v1/fixtures/{world.fixture.pk}/log/")
    assert response.status_code == 404
    assert error_of(response)["message"] == "this game has no game log"


def test_confirm_then_the_result_counts(world):
    pending = submit(world).json()
    assert world.client("player").post(f"/api/v1/results/{pending['id']}/confirm/").status_code == (
        403
    )
    response = world.client("opponent").post(f"/api/v1/results/{pending['id']}/confirm/")
    assert response.status_code == 200
    assert response.json()["state"] == "confirmed"
    fixture = world.client("anonymous").get(f"/api/v1/fixtures/{world.fixture.pk}/").json()
    assert fixture["status"] == "confirmed"
    assert fixture["counted_result"]["id"] == pending["id"]
    assert fixture["open_result"] is None


def test_dispute_then_the_organizer_resolves(world):
    pending = submit(world).json()
    disputed = world.client("opponent").post(
        f"/api/v1/results/{pending['id']}/dispute/", {"reason": "I won"}, format="json"
    )
    assert disputed.status_code == 200 and disputed.json()["state"] == "disputed"
    # a disputed result cannot be confirmed by the players any more
    again = world.client("opponent").post(f"/api/v1/results/{pending['id']}/confirm/")
    assert again.status_code == 400
    assert "disputed" in error_of(again)["message"]
    resolved = world.client("co_organizer").post(
        f"/api/v1/results/{pending['id']}/resolve/",
        {"accept": True, "note": "log is valid"},
        format="json",
    )
    assert resolved.status_code == 200
    body = resolved.json()
    assert body["state"] == "confirmed" and body["decided_by"] == "co_organizer"


def test_a_dispute_needs_a_reason(world):
    pending = submit(world).json()
    response = world.client("opponent").post(
        f"/api/v1/results/{pending['id']}/dispute/", {}, format="json"
    )
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == "reason"
    assert error["fields"] == {"reason": ["This field is required."]}


def test_organizer_enters_voids_and_records_a_forfeit(world):
    org = world.client("organizer")
    url = f"/api/v1/fixtures/{world.fixture.pk}"
    entered = org.post(
        f"{url}/result/",
        {
            "winner": world.entries["erin"].pk,
            "counted_pawns": {str(world.entries["carol"].pk): 5},
            "reason": "score sheet",
        },
        format="json",
    )
    assert entered.status_code == 201, entered.content
    assert entered.json()["state"] == "confirmed"
    assert entered.json()["counted_pawns"][str(world.entries["carol"].pk)] == 5
    voided = org.post(f"{url}/void/", {"reason": "replay"}, format="json")
    assert voided.status_code == 200 and voided.json()["status"] == "scheduled"
    forfeit = org.post(
        f"{url}/forfeit/", {"loser": world.entries["erin"].pk, "reason": "no-show"}, format="json"
    )
    assert forfeit.status_code == 201
    assert forfeit.json()["winner"] == world.entries["carol"].pk
    assert Fixture.objects.get(pk=world.fixture.pk).status == "forfeited"
    history = org.get(f"{url}/results/").json()
    assert history["count"] == 2
    assert [r["state"] for r in history["results"]] == ["confirmed", "voided"]


def test_a_winner_who_is_not_at_the_board_is_a_field_error(world):
    response = world.client("organizer").post(
        f"/api/v1/fixtures/{world.fixture.pk}/result/",
        {"winner": world.entries["dave"].pk, "reason": "x"},
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "winner"
    response = world.client("organizer").post(
        f"/api/v1/fixtures/{world.fixture.pk}/result/",
        {"winner": 10**9, "reason": "x"},
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "winner"


def test_counted_pawns_keys_must_be_entry_ids(world):
    response = world.client("player").post(
        f"/api/v1/fixtures/{world.fixture.pk}/report/",
        {"winner": world.entries["erin"].pk, "counted_pawns": {"carol": 3}},
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "counted_pawns"


def test_rejected_submissions_are_listed_for_the_players(world):
    submit(world, body=b"{not json")
    response = world.client("opponent").get(f"/api/v1/fixtures/{world.fixture.pk}/rejections/")
    assert response.status_code == 200
    [rejection] = response.json()["results"]
    assert rejection["submitted_by"] == "player"
    assert "not valid JSON" in rejection["error"]


def test_fixture_filters(world):
    client = world.client("anonymous")
    assert client.get("/api/v1/fixtures/?player=erin").json()["count"] == 1
    assert client.get("/api/v1/fixtures/?player=dave").json()["count"] == 0
    assert client.get("/api/v1/fixtures/?league=other-league").json()["count"] == 0
    assert client.get("/api/v1/fixtures/?status=scheduled").json()["count"] == 1
    assert client.get("/api/v1/fixtures/?status=confirmed").json()["count"] == 0
    bad = client.get("/api/v1/fixtures/?status=nonsense")
    assert bad.status_code == 400
    assert error_of(bad)["field"] == "status"
    seats = client.get(f"/api/v1/fixtures/{world.fixture.pk}/").json()["seats"]
    assert seats == [
        {
            "position": 0,
            "entry": world.entries["erin"].pk,
            "player": {"slug": "erin", "name": "erin", "label": "erin"},
            "colours": ["black", "yellow"],
        },
        {
            "position": 1,
            "entry": world.entries["carol"].pk,
            "player": {"slug": "carol", "name": "carol", "label": "carol"},
            "colours": ["green", "red"],
        },
    ]


def test_the_game_list_takes_a_fixed_number_of_queries(world):
    client = world.client("player")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/v1/fixtures/").status_code == 200
        return len(captured)

    few = queries()
    for _ in range(8):
        fixture = make_fixture(
            world.league,
            [
                (world.entries["dave"], ["black", "yellow"]),
                (world.entries["carol"], ["green", "red"]),
            ],
            "black",
        )
        result_enter(
            fixture=fixture, by=world.users["organizer"], winner=world.entries["dave"], reason="x"
        )
    assert queries() == few


def test_report_refuses_a_field_the_format_does_not_record(world):
    response = world.client("player").post(
        f"/api/v1/fixtures/{world.fixture.pk}/report/",
        {"winner": world.entries["erin"].pk, "colour_places": {"black": 1}},
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "colour_places"


def test_result_carries_completed_colours_and_game_time(world):
    erin, carol = world.entries["erin"], world.entries["carol"]
    response = world.client("organizer").post(
        f"/api/v1/fixtures/{world.fixture.pk}/result/",
        {
            "winner": erin.pk,
            "counted_pawns": {str(carol.pk): 6},
            "completed_colours": {str(carol.pk): 1},
            "game_time": 1500,
            "reason": "score sheet",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["completed_colours"] == {str(erin.pk): 2, str(carol.pk): 1}
    assert body["game_time"] == 1500


def test_a_refusal_in_the_requests_language_with_its_code_alongside(world):
    broken = example()
    index = next(i for i, e in enumerate(broken["events"]) if e.get("move"))
    broken["events"][index]["die"] = 7
    response = submit(world, body=json.dumps(broken), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    error = error_of(response)
    assert error["reason"] == "log_rejected_at" and error["event"] == index
    assert error["message"].startswith(f"das Protokoll wurde abgelehnt (Ereignis {index + 1})")
    listed = world.client("player").get(
        f"/api/v1/fixtures/{world.fixture.pk}/rejections/", HTTP_ACCEPT_LANGUAGE="de"
    )
    row = listed.json()["results"][0]
    assert row["reason"] == "log_rejected_at"
    assert row["error"].startswith(f"the log was rejected (event {index + 1})")
    assert "ein Würfel zeigt eine ganze Zahl von 1 bis 6" in row["message"]
