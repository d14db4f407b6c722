"""Uploading a game log: validated by the engine and against the fixture, stored once,
the result derived from it."""

import json

import pytest

from games.models import GameLog
from tests.builders import example, example_text
from tournaments.models import Fixture, RejectedSubmission, Result
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.results import game_log_submit

LOG = "valid-league-2tplus.json"


def test_a_valid_log_becomes_a_pending_result_derived_from_the_log(table):
    fixture = table["fixture"]
    result = game_log_submit(fixture=fixture, content=example_text(LOG), by=table["erin"])
    assert result.state == Result.State.PENDING
    assert result.verified and result.source == Result.Source.LOG
    carol = fixture.seats.get(position=1).entry
    erin = fixture.seats.get(position=0).entry
    assert result.winner_id == carol.pk  # expected.jsonl: winner carol
    assert result.placings == [carol.pk, erin.pk]
    # 2T+: counted pawns over both colours; the winner has all 8 home
    assert result.counted_pawns[str(carol.pk)] == 8
    assert 0 <= result.counted_pawns[str(erin.pk)] <= 7
    assert result.completed_colours[str(carol.pk)] == 2
    assert result.colour_places[:2] == [carol.pk, carol.pk]  # rot, grün finished first
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SUBMITTED
    stored = GameLog.objects.get()
    assert stored.content == example_text(LOG)  # unchanged, byte for byte
    assert len(stored.sha256) == 64


def test_an_identical_reupload_is_recognised_not_duplicated(table):
    first = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    again = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["carol"])
    assert again.pk == first.pk
    assert GameLog.objects.count() == 1
    assert Result.objects.count() == 1


def test_a_log_breaking_the_rules_is_rejected_and_kept_as_an_attempt(table):
    data = example(LOG)
    data["events"][5]["die"] = 9
    with pytest.raises(ServiceError) as err:
        game_log_submit(fixture=table["fixture"], content=json.dumps(data), by=table["erin"])
    assert err.value.event == 5
    assert "(event 6)" in err.value.message  # counted from 1, as the replay does
    assert not GameLog.objects.exists() and not Result.objects.exists()
    attempt = RejectedSubmission.objects.get()
    assert attempt.event == 5 and attempt.submitted_by == table["erin"]
    table["fixture"].refresh_from_db()
    assert table["fixture"].status == Fixture.Status.SCHEDULED


def _swap_colours(table, data):
    a, b = table["fixture"].seats.order_by("position")
    a.colours, b.colours = b.colours, a.colours
    a.save()
    b.save()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda t, d: (
                type(t["fixture"])
                .objects.filter(pk=t["fixture"].pk)
                .update(starting_colour="green")
            ),
            "the log starts with black, but this game's starting colour is green",
        ),
        (
            lambda t, d: (
                type(t["league"]).objects.filter(pk=t["league"].pk).update(rules_preset="league")
            ),
            "end is 'both-colours' instead of 'first-colour'",
        ),
        (_swap_colours, "this game's player of black+yellow is carol"),
        (
            lambda t, d: d["players"].__setitem__("ERIK", d["players"].pop("erin")),
            "names the player of black+yellow 'ERIK'",
        ),
        (
            lambda t, d: type(t["league"]).objects.filter(pk=t["league"].pk).update(board=6),
            "the log is for board 4",
        ),
    ],
)
def test_a_log_of_another_game_is_rejected_naming_what_differs(table, change, expected):
    data = example(LOG)
    change(table, data)
    fixture = type(table["fixture"]).objects.get(pk=table["fixture"].pk)
    with pytest.raises(ServiceError) as err:
        game_log_submit(fixture=fixture, content=json.dumps(data), by=table["erin"])
    assert expected in err.value.message
    assert not Result.objects.exists()
    assert RejectedSubmission.objects.count() == 1


def test_an_incomplete_log_does_not_decide_a_league_game(table):
    data = example(LOG)
    data["events"] = data["events"][:50]
    with pytest.raises(ServiceError, match="ends before the game is decided"):
        game_log_submit(fixture=table["fixture"], content=json.dumps(data), by=table["erin"])


@pytest.mark.parametrize("content", ["", "{", "[]", '{"format": "maedn-log/1"}', b"\xff\xfe"])
def test_garbage_is_rejected_with_a_message(table, content):
    with pytest.raises(ServiceError) as err:
        game_log_submit(fixture=table["fixture"], content=content, by=table["erin"])
    assert err.value.message
    assert not Result.objects.exists()


def test_only_players_at_the_board_or_organizers_may_submit(table):
    with pytest.raises(NotAllowed):
        game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["stranger"])
    assert not RejectedSubmission.objects.exists()


def test_an_organizers_upload_counts_at_once(table):
    result = game_log_submit(
        fixture=table["fixture"], content=example_text(LOG), by=table["organizer"]
    )
    assert result.state == Result.State.CONFIRMED
    table["league"].refresh_from_db()
    assert table["league"].results_revision == 1


def test_without_confirmation_a_players_valid_log_counts_at_once(table):
    table["league"].confirmation_required = False
    table["league"].save()
    result = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    assert result.state == Result.State.CONFIRMED


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["meta"].update(note="a\u0000b"), "NUL character"),
        (lambda d: d["players"].__setitem__("\u0000erin", d["players"].pop("erin")), "NUL"),
        (lambda d: d["meta"].update(note="\ud800"), "unpaired surrogate"),
    ],
)
def test_unstorable_characters_are_refused_and_the_attempt_is_recorded(table, change, message):
    data = example(LOG)
    change(data)
    with pytest.raises(ServiceError, match=message):
        game_log_submit(fixture=table["fixture"], content=json.dumps(data), by=table["erin"])
    assert RejectedSubmission.objects.count() == 1
    assert not GameLog.objects.exists()
