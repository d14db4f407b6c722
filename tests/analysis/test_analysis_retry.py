"""Running a failed move analysis again (issue #15): the service ``analysis_retry``
(tournaments/services/analyses.py) re-queues only a failed row, with a conditional UPDATE,
and sends ``games.analyse`` once on commit; everything it refuses changes nothing. The
game page shows organizers the reason and an "Analyse again" button (others: "not
available"), the results desk lists the league's failed analyses with the same button,
and ``POST /api/v1/fixtures/{id}/analysis/retry/`` does the same through the API."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from celery.canvas import Signature
from django.urls import reverse
from django.utils import timezone

from games import analysis as worker
from games.models import GameAnalysis
from tests.analysis.conftest import LOG
from tests.builders import example_text, make_user
from tests.concurrently import run_concurrently
from tournaments.models import League
from tournaments.services import analyses
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.results import game_log_submit

pytestmark = pytest.mark.django_db


def _state(row: GameAnalysis) -> tuple:
    row = GameAnalysis.objects.get(pk=row.pk)
    return (row.status, row.error, row.claim, row.started_at, row.finished_at, row.created_at)


@pytest.fixture
def failed(table, analyses_on, fast_analyse):
    """The counted log of erin against carol, its analysis failed in the
    worker with the engine's message."""
    counted = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    row = GameAnalysis.objects.get(log=counted.game_log)
    with mock.patch.object(worker, "analyse", side_effect=ValueError("no such move at 12")):
        assert worker.analysis_run(row.pk)["status"] == "failed"
    row.refresh_from_db()
    assert (row.status, row.format, row.claim) == ("failed", "maedn-analysis/5", "")
    return row


@pytest.fixture
def sends():
    """What analysis_send published (its claim runs; the real publish is tested below)."""
    from celery import current_app

    sent: list[int] = []
    lock = threading.Lock()

    def record(name, args=(), **kwargs):
        with lock:
            sent.append(args[0])
        return True

    current_app.conf.task_always_eager = False
    try:
        with mock.patch.object(analyses, "task_send", side_effect=record):
            yield sent
    finally:
        current_app.conf.task_always_eager = True


# --- the service -----------------------------------------------------------------------------


def test_an_organizer_requeues_a_failed_analysis_and_one_task_is_sent_on_commit(
    table, failed, sends, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        row = analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
        assert sends == []  # nothing before the commit
    assert row.pk == failed.pk
    status, error, claim, started, finished, created = _state(row)
    assert (status, error, claim, started, finished) == ("queued", "", "", None, None)
    assert created > failed.created_at  # queued anew (the catch-up's clock starts again)
    for callback in callbacks:
        callback()
    assert sends == [failed.pk]


def test_the_retry_publishes_exactly_one_games_analyse_task(
    table, failed, django_capture_on_commit_callbacks
):
    from celery import current_app

    current_app.conf.task_always_eager = False
    try:
        with (
            mock.patch.object(Signature, "apply_async", autospec=True) as publish,
            django_capture_on_commit_callbacks(execute=True),
        ):
            analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    finally:
        current_app.conf.task_always_eager = True
    publish.assert_called_once()
    signature = publish.call_args.args[0]
    assert (signature.task, tuple(signature.args)) == ("games.analyse", (failed.pk,))


def test_the_worker_claims_the_requeued_row_like_any_queued_one(table, failed, sends):
    analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    outcome = worker.analysis_run(failed.pk)  # the task's call: no retry_failed
    assert outcome == {"analysis": failed.pk, "status": "done", "stored": True}
    row = GameAnalysis.objects.get(pk=failed.pk)
    assert row.status == "done" and row.error == "" and row.data["format"] == "maedn-analysis/5"


def test_the_catch_up_does_not_send_a_just_requeued_row_again(
    table, failed, sends, django_capture_on_commit_callbacks
):
    GameAnalysis.objects.filter(pk=failed.pk).update(created_at=timezone.now() - timedelta(days=3))
    with django_capture_on_commit_callbacks(execute=True):
        analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    assert sends == [failed.pk]
    assert analyses.analyses_catch_up() == {"created": 0, "sent": 0}
    GameAnalysis.objects.filter(pk=failed.pk).update(
        queued_at=timezone.now() - analyses.RESEND_AFTER - timedelta(minutes=1),
        started_at=timezone.now() - timedelta(days=3),
    )
    assert analyses.analyses_catch_up()["sent"] == 1  # lost after all: sent again


@pytest.mark.parametrize("who", ["organizer", "co_organizer", "staff", "organizer_at_board"])
def test_the_leagues_organizers_and_staff_may(table, failed, sends, who):
    user = table["organizer"]
    if who == "co_organizer":
        user = make_user("co")
        table["league"].organizers.add(user)
    elif who == "staff":
        user = make_user("root", staff=True)
    elif who == "organizer_at_board":  # it decides nothing about the result
        user = table["erin"]
        table["league"].organizers.add(user)
    assert analyses.analysis_retry(fixture=table["fixture"], by=user).status == "queued"


def _refusals(table):
    from django.contrib.auth.models import AnonymousUser

    other_org = make_user("other_org")
    return {
        "the player": table["erin"],
        "the opponent": table["carol"],
        "anonymous": AnonymousUser(),
        "another league's organizer": other_org,
    }


def test_anyone_but_an_organizer_is_refused_and_nothing_changes(table, failed, sends):
    from tests.builders import make_league

    before = _state(failed)
    for who, user in _refusals(table).items():
        if who == "another league's organizer":
            make_league(user, "elsewhere")
        with pytest.raises(NotAllowed, match="only the league's organizers"):
            analyses.analysis_retry(fixture=table["fixture"], by=user)
    assert _state(failed) == before and sends == []


@pytest.mark.parametrize(
    ("status", "message"),
    [
        ("queued", "the analysis of this game is queued already"),
        ("running", "the analysis of this game is running now"),
        ("done", "the analysis of this game is done"),
    ],
)
def test_an_analysis_that_did_not_fail_is_not_run_again(table, failed, sends, status, message):
    GameAnalysis.objects.filter(pk=failed.pk).update(status=status, error="")
    before = _state(failed)
    with pytest.raises(ServiceError, match=message) as refused:
        analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    assert not isinstance(refused.value, NotAllowed)  # a 400, not a 403
    assert _state(failed) == before and sends == []


def test_refused_while_analyses_are_off(table, failed, sends, settings):
    settings.ANALYSIS_ENABLED = False
    before = _state(failed)
    with pytest.raises(ServiceError, match="move analyses are switched off"):
        analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    assert _state(failed) == before and sends == []


def test_refused_without_a_counted_log(analyses_on, sends, db):
    from tests.builders import erin_against_carol

    table = erin_against_carol()  # results need the opponent's confirmation
    with pytest.raises(ServiceError, match="no counted log"):  # no result at all
        analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    with pytest.raises(ServiceError, match="no counted log"):  # awaiting confirmation
        analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    assert not GameAnalysis.objects.exists() and sends == []


def test_refused_when_the_failed_row_is_of_other_settings(table, failed, sends, settings):
    # an older format's row: the current key has none (the catch-up makes one)
    GameAnalysis.objects.filter(pk=failed.pk).update(format="maedn-analysis/1")
    failed.refresh_from_db()
    before = _state(failed)
    with pytest.raises(ServiceError, match="no analysis under the current settings"):
        analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"])
    assert _state(failed) == before and sends == []


@pytest.mark.django_db(transaction=True)
def test_two_retries_at_once_requeue_once_and_send_one_task(
    table, analyses_on, fast_analyse, sends
):
    """Both read the row as failed (a barrier after the read), then both UPDATE on their
    own connections: the conditional UPDATE lets one through, the other is told."""
    counted = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    row = GameAnalysis.objects.get(log=counted.game_log)
    GameAnalysis.objects.filter(pk=row.pk).update(status="failed", error="ValueError: bad")
    sends.clear()  # the submission's own send
    read = analyses.counted_log_analysis
    both_read = threading.Barrier(2)

    def read_then_wait(fixture):
        found = read(fixture)
        both_read.wait(timeout=10)
        return found

    with mock.patch.object(analyses, "counted_log_analysis", side_effect=read_then_wait):
        outcomes = run_concurrently(
            lambda: analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"]),
            lambda: analyses.analysis_retry(fixture=table["fixture"], by=table["organizer"]),
        )
    done = [o for o in outcomes if isinstance(o, GameAnalysis)]
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(done) == 1 and len(refused) == 1, outcomes
    assert "queued already" in refused[0].message
    assert sends == [row.pk]
    assert GameAnalysis.objects.get(pk=row.pk).status == "queued"


# --- the game page ---------------------------------------------------------------------------


def game_url(table) -> str:
    return reverse("tournaments:game", args=[table["fixture"].pk])


def retry_url(table) -> str:
    return reverse("tournaments:game-analysis-retry", args=[table["fixture"].pk])


def test_an_organizer_sees_why_it_failed_and_the_button(client, table, failed):
    client.force_login(table["organizer"])
    html = client.get(game_url(table)).text
    assert 'id="analysis-failed"' in html
    assert "ValueError: no such move at 12" in html
    form = html[html.index(f'action="{retry_url(table)}"') :]
    form = form[: form.index("</form>")]
    assert 'name="csrfmiddlewaretoken"' in form and "Analyse again" in form


@pytest.mark.parametrize("who", ["erin", "carol", "stranger", "anonymous"])
def test_others_see_only_that_the_analysis_is_not_available(client, table, failed, who):
    if who == "stranger":
        client.force_login(make_user("stranger"))
    elif who != "anonymous":
        client.force_login(table[who])
    html = client.get(game_url(table)).text
    assert "The move analysis of this game is not available." in html
    assert "no such move" not in html and retry_url(table) not in html
    assert "Analyse again" not in html


def test_no_button_while_analyses_are_off(client, table, failed, settings):
    settings.ANALYSIS_ENABLED = False
    client.force_login(table["organizer"])
    html = client.get(game_url(table)).text
    assert "ValueError: no such move at 12" in html  # the reason, still
    assert retry_url(table) not in html
    assert "It cannot be queued again from this page" in html


def test_pressing_the_button_requeues_and_says_so(client, table, failed, sends):
    client.force_login(table["organizer"])
    response = client.post(retry_url(table))
    assert response.status_code == 302
    assert response["Location"] == game_url(table) + "#analysis"
    html = client.get(game_url(table)).text
    assert "The analysis is queued again" in html
    assert 'id="analysis-pending"' in html and retry_url(table) not in html
    assert GameAnalysis.objects.get(pk=failed.pk).status == "queued"


def test_pressing_it_twice_tells_the_second_time_in_german(client, table, failed, sends):
    client.force_login(table["organizer"])
    client.post(retry_url(table))
    response = client.post(retry_url(table), HTTP_ACCEPT_LANGUAGE="de", follow=True)
    assert "die Analyse dieser Partie steht schon in der Warteschlange" in response.text
    assert response.redirect_chain[-1][0].endswith("#analysis")
    assert GameAnalysis.objects.get(pk=failed.pk).status == "queued"


@pytest.mark.parametrize("who", ["erin", "stranger"])
def test_a_post_by_a_non_organizer_is_refused_and_changes_nothing(
    client, table, failed, sends, who
):
    client.force_login(table[who] if who in table else make_user(who))
    before = _state(failed)
    assert client.post(retry_url(table)).status_code == 403
    assert _state(failed) == before


def test_an_anonymous_post_is_sent_to_log_in(client, table, failed):
    before = _state(failed)
    response = client.post(retry_url(table))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert _state(failed) == before


def test_the_page_in_german(client, table, failed):
    client.force_login(table["organizer"])
    html = client.get(game_url(table), HTTP_ACCEPT_LANGUAGE="de").text
    assert "Die Analyse dieses Protokolls ist fehlgeschlagen." in html
    assert "Erneut analysieren" in html
    client.force_login(table["erin"])
    html = client.get(game_url(table), HTTP_ACCEPT_LANGUAGE="de").text
    assert "Die Zuganalyse dieser Partie ist nicht verfügbar." in html


def test_a_get_is_not_allowed(client, table, failed):
    client.force_login(table["organizer"])
    assert client.get(retry_url(table)).status_code == 405


# --- the results desk ------------------------------------------------------------------------


def test_the_desk_lists_failed_analyses_with_the_button(client, table, failed, sends):
    desk = reverse("tournaments:desk", args=[table["league"].slug])
    client.force_login(table["organizer"])
    html = client.get(desk).text
    section = html[html.index('id="failed-analyses"') :]
    section = section[: section.index("</section>")]
    assert "ValueError: no such move at 12" in section
    assert "erin" in section and "carol" in section
    assert f'action="{retry_url(table)}"' in section
    assert f'value="{desk}#failed-analyses"' in section
    response = client.post(retry_url(table), {"next": f"{desk}#failed-analyses"})
    assert response.status_code == 302 and response["Location"] == f"{desk}#failed-analyses"
    html = client.get(desk).text
    assert 'id="failed-analyses"' not in html  # nothing failed any more
    assert "The analysis is queued again" in html


def test_the_desk_lists_none_while_analyses_are_off(client, table, failed, settings):
    settings.ANALYSIS_ENABLED = False
    client.force_login(table["organizer"])
    html = client.get(reverse("tournaments:desk", args=[table["league"].slug])).text
    assert 'id="failed-analyses"' not in html


def test_the_desk_in_german(client, table, failed):
    client.force_login(table["organizer"])
    html = client.get(
        reverse("tournaments:desk", args=[table["league"].slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).text
    assert "Fehlgeschlagene Zuganalysen" in html and "Erneut analysieren" in html


# --- the API ---------------------------------------------------------------------------------


def api_url(table) -> str:
    return f"/api/v1/fixtures/{table['fixture'].pk}/analysis/retry/"


def api_client(user=None):
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_api_requeues_and_answers_the_analysis(table, failed, sends):
    response = api_client(table["organizer"]).post(api_url(table), format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["fixture"], body["status"], body["error"]) == (table["fixture"].pk, "queued", "")
    assert (body["format"], body["analysis"]) == ("maedn-analysis/5", None)
    get = api_client().get(f"/api/v1/fixtures/{table['fixture'].pk}/analysis/").json()
    assert get == body  # the same answer as GET …/analysis/


def test_the_api_refuses_a_second_retry_with_400(table, failed, sends):
    client = api_client(table["organizer"])
    assert client.post(api_url(table)).status_code == 200
    response = client.post(api_url(table))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid" and "queued already" in error["message"]


def test_the_api_refuses_a_player_with_403_and_anonymous_with_401(table, failed, sends):
    before = _state(failed)
    response = api_client(table["erin"]).post(api_url(table))
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_allowed"
    assert api_client().post(api_url(table)).status_code == 401
    assert _state(failed) == before and sends == []


def test_the_api_says_when_analyses_are_off_or_the_game_is_unknown(table, failed, settings):
    settings.ANALYSIS_ENABLED = False
    response = api_client(table["organizer"]).post(api_url(table))
    assert response.status_code == 400
    assert "switched off" in response.json()["error"]["message"]
    unknown = "/api/v1/fixtures/999999/analysis/retry/"
    assert api_client(table["organizer"]).post(unknown).status_code == 404


def test_the_api_hides_a_private_leagues_game(table, failed):
    League.objects.filter(pk=table["league"].pk).update(is_public=False)
    assert api_client(make_user("nosy")).post(api_url(table)).status_code == 404
    assert GameAnalysis.objects.get(pk=failed.pk).status == "failed"


def test_only_organizers_and_staff_see_why_an_analysis_failed_in_the_api(table, failed):
    """The worker's exception message is for the league's organizers and the staff, as on
    the game page; the players, anyone else and anonymous visitors get an empty ``error``."""
    url = f"/api/v1/fixtures/{table['fixture'].pk}/analysis/"
    for who in (table["organizer"], make_user("admin", staff=True)):
        body = api_client(who).get(url).json()
        assert (body["status"], body["error"]) == ("failed", "ValueError: no such move at 12")
    for who in (table["erin"], make_user("nosy"), None):
        body = api_client(who).get(url).json()
        assert (body["status"], body["error"]) == ("failed", "")
