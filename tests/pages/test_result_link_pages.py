"""Private result link pages (issue 25): ``/r/<token>/`` for a player without an account,
the organizer's links on the manage page and on the printed score sheets, and what never
shows the token."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.html import escape

from tests.builders import (
    PASSWORD,
    example_text,
    make_user,
    result_link_world,
)
from tournaments.models import Entry, RejectedSubmission, Result, ResultLink
from tournaments.services.result_links import result_link_revoke
from tournaments.services.results import game_log_submit
from tournaments.web.printing import qr_svg

LOG = "valid-league-2tplus.json"


@pytest.fixture
def world(db):
    return result_link_world()


def private_headers(response):
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert "noindex" in response["X-Robots-Tag"]


def upload(client, token, fixture, name=LOG):
    return client.post(f"/r/{token}/games/{fixture.pk}/upload/", {"content": example_text(name)})


def test_the_page_lists_her_games_in_that_league_only(world):
    response = Client().get(f"/r/{world['token']}/")
    assert response.status_code == 200
    private_headers(response)
    html = response.content.decode()
    assert "Results of erin" in html and f'id="game-{world["g1"].pk}"' in html
    assert f'id="game-{world["g2"].pk}"' not in html  # dave's game
    assert f'id="game-{world["b1"].pk}"' not in html  # her game in another league
    assert "Submit the log" in html
    # the header's log-in link does not carry the token to the log-in page's address
    assert "next=/&" in html.replace('"', "&") or '?next=/"' in html
    assert f"next=/r/{world['token']}" not in html and "%2Fr%2F" not in html


def test_unknown_tampered_and_revoked_tokens_are_the_same_404(world):
    token = world["token"]
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    bodies = set()
    for bad in (tampered, "x" * 32, "short"):
        response = Client().get(f"/r/{bad}/")
        assert response.status_code == 404
        private_headers(response)
        bodies.add(response.content.replace(bad.encode(), b"T"))
    result_link_revoke(entry=world["entry"], by=world["organizer"])
    response = Client().get(f"/r/{token}/")
    assert response.status_code == 404
    bodies.add(response.content.replace(token.encode(), b"T"))
    assert len(bodies) == 1 and b"erin" not in bodies.pop()
    assert upload(Client(), token, world["g1"]).status_code == 404
    assert not Result.objects.exists()


def test_she_uploads_her_games_log_and_it_says_so(world):
    client = Client()
    response = upload(client, world["token"], world["g1"])
    assert response.status_code == 302
    assert response["Location"] == f"/r/{world['token']}/#game-{world['g1'].pk}"
    private_headers(response)
    result = Result.objects.get()
    assert result.submitted_via == world["link"] and result.submitted_by is None
    assert result.state == Result.State.PENDING
    page = client.get(f"/r/{world['token']}/").content.decode()
    assert "The log was accepted" in page and "you sent it" in page
    assert "Confirm this result" not in page  # the two-person rule
    # the public game page says who sent it, and never shows the token
    game = login(world["carol"]).get(f"/games/{world['g1'].pk}/").content.decode()
    assert "erin submitted this result" in game
    assert "through their private result link" in game
    assert world["token"] not in game


def test_carol_confirms_on_the_game_page_and_erin_confirms_through_her_link(world):
    sent = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["carol"])
    client = Client()
    page = client.get(f"/r/{world['token']}/").content.decode()
    assert "Confirm this result" in page and "Dispute this result" in page
    response = client.post(f"/r/{world['token']}/games/{world['g1'].pk}/results/{sent.pk}/confirm/")
    assert response.status_code == 302
    sent.refresh_from_db()
    assert sent.state == Result.State.CONFIRMED and sent.decided_via == world["link"]
    game = Client().get(f"/games/{world['g1'].pk}/").content.decode()
    assert "Confirmed by erin through their private result link" in game


def test_she_disputes_with_a_reason(world):
    sent = game_log_submit(fixture=world["g1"], content=example_text(LOG), by=world["carol"])
    url = f"/r/{world['token']}/games/{world['g1'].pk}/results/{sent.pk}/dispute/"
    client = Client()
    empty = client.post(url, {f"dispute-{world['g1'].pk}-reason": " "})
    assert empty.status_code == 400
    sent.refresh_from_db()
    assert sent.state == Result.State.PENDING
    done = client.post(url, {f"dispute-{world['g1'].pk}-reason": "we played twice"})
    assert done.status_code == 302
    sent.refresh_from_db()
    assert sent.state == Result.State.DISPUTED and sent.decision_note == "we played twice"


def test_a_bad_log_is_refused_with_the_clear_error_in_her_language(world):
    response = upload(Client(), world["token"], world["g1"], "invalid-house-jump.json")
    assert response.status_code == 400
    private_headers(response)
    assert "The log was rejected (event" in response.content.decode()
    assert not Result.objects.exists()
    assert RejectedSubmission.objects.get().submitted_via == world["link"]
    german = Client()
    german.cookies["django_language"] = "de"
    response = upload(german, world["token"], world["g1"], "invalid-house-jump.json")
    html = response.content.decode()
    assert response.status_code == 400 and "Ereignis" in html
    assert "Ergebnisse von erin" in german.get(f"/r/{world['token']}/").content.decode()


def test_another_entrys_game_or_another_leagues_game_is_a_404(world):
    for fixture in (world["g2"], world["b1"]):
        response = upload(Client(), world["token"], fixture)
        assert response.status_code == 404
    sent = game_log_submit(fixture=world["b1"], content=example_text(LOG), by=world["carol"])
    for path in (
        f"/r/{world['token']}/games/{world['b1'].pk}/results/{sent.pk}/confirm/",
        f"/r/{world['token']}/games/{world['g1'].pk}/results/{sent.pk}/confirm/",  # wrong game
    ):
        assert Client().post(path).status_code == 404
    sent.refresh_from_db()
    assert sent.state == Result.State.PENDING
    assert Result.objects.count() == 1 and not RejectedSubmission.objects.exists()


def test_the_token_opens_no_api_or_admin_door(world):
    token = world["token"]
    g1 = world["g1"]
    client = Client()
    for headers in (
        {"HTTP_AUTHORIZATION": f"Token {token}"},
        {"HTTP_AUTHORIZATION": f"Bearer {token}"},
    ):
        response = client.post(
            f"/api/v1/fixtures/{g1.pk}/log/",
            example_text(LOG),
            content_type="application/json",
            **headers,
        )
        assert response.status_code in (401, 403)
    response = client.post(
        f"/api/v1/fixtures/{g1.pk}/log/?token={token}",
        example_text(LOG),
        content_type="application/json",
    )
    assert response.status_code in (401, 403)
    # the game page's own form needs a log-in, whatever the token
    response = client.post(f"/games/{g1.pk}/submit/?token={token}", {"content": example_text(LOG)})
    assert response.status_code == 302 and "/login" in response["Location"]
    assert client.get(f"/admin/?token={token}").status_code == 302
    assert not Result.objects.exists()


def test_link_posts_are_throttled_like_anonymous_posts(world, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "submissions": "2/min",
        },
    }
    client = Client(REMOTE_ADDR="10.9.8.7")
    report_form = f"/r/{world['token']}/games/{world['g1'].pk}/report/"
    for _ in range(3):  # showing a form is not a write: it uses none of the allowance
        assert client.get(report_form).status_code == 200
    for _ in range(2):
        upload(client, world["token"], world["g1"], "invalid-house-jump.json")
    refused = upload(client, world["token"], world["g1"])
    assert refused.status_code == 429
    assert not Result.objects.exists()


def login(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_the_organizer_creates_shows_rotates_and_withdraws_links(world):
    client = login(world["organizer"])
    dave = Entry.objects.get(league=world["a"], player__name="dave")
    page = client.get("/leagues/league-a/manage/").content.decode()
    assert f"/r/{world['token']}/" in page  # shown to the organizer
    assert "create a link" in page  # for dave
    response = client.post(f"/leagues/league-a/manage/entries/{dave.pk}/result-link/")
    assert response.status_code == 302
    assert ResultLink.objects.filter(entry=dave, revoked_at__isnull=True).exists()
    client.post(f"/leagues/league-a/manage/entries/{world['entry'].pk}/result-link/")  # rotate
    assert Client().get(f"/r/{world['token']}/").status_code == 404
    new = ResultLink.objects.get(entry=world["entry"], revoked_at__isnull=True)
    client.post(f"/leagues/league-a/manage/entries/{world['entry'].pk}/result-link/revoke/")
    new.refresh_from_db()
    assert new.revoked_at is not None and new.revoked_by == world["organizer"]
    # no link for a player with an account
    assert "carol" not in page.split('id="result-links"')[1].split("</section>")[0]


def test_nobody_else_sees_or_makes_links(world):
    for client in (Client(), login(world["carol"]), login(make_user("otto"))):
        page = client.get("/leagues/league-a/manage/")
        assert page.status_code in (302, 403, 404)
        response = client.post(f"/leagues/league-a/manage/entries/{world['entry'].pk}/result-link/")
        assert response.status_code in (302, 403, 404)
        assert "/r/" not in response.get("Location", "")
    assert ResultLink.objects.count() == 1
    for path in ("/leagues/league-a/", "/leagues/league-a/schedule/", f"/games/{world['g1'].pk}/"):
        assert world["token"] not in login(world["carol"]).get(path).content.decode()


def test_the_printed_sheet_carries_her_link_only_when_the_organizer_prints_it(world):
    g1 = world["g1"]
    url = f"http://testserver/r/{world['token']}/"
    printed = login(world["organizer"]).get(f"/games/{g1.pk}/sheet/?links=1")
    html = printed.content.decode()
    assert url in html
    assert str(qr_svg(url, "Private result link of erin")) in html
    assert printed["Referrer-Policy"] == "no-referrer" and "no-store" in printed["Cache-Control"]
    # the game's own QR code stays, for carol (an account)
    assert f"http://testserver/games/{g1.pk}/#upload-heading" in html
    round_sheets = login(world["organizer"]).get("/leagues/league-a/sheets/?round=1&links=1")
    assert url in round_sheets.content.decode()
    for client, path in (
        (Client(), f"/games/{g1.pk}/sheet/?links=1"),
        (login(world["carol"]), f"/games/{g1.pk}/sheet/?links=1"),
        (login(world["organizer"]), f"/games/{g1.pk}/sheet/"),
        (Client(), "/leagues/league-a/sheets/?round=1&links=1"),
    ):
        response = client.get(path)
        assert response.status_code == 200 and world["token"] not in response.content.decode()


def test_posts_work_without_a_referer_and_the_language_switches_by_link(world):
    """With no-referrer, Chromium sends ``Origin: null``: the link's posts must not depend
    on Django's CSRF origin check (the token in the address is the credential)."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        f"/r/{world['token']}/games/{world['g1'].pk}/upload/",
        {"content": example_text("invalid-house-jump.json")},
        HTTP_ORIGIN="null",
    )
    assert response.status_code == 400  # refused for the log, not for CSRF
    refilled = escape(example_text("invalid-house-jump.json"))
    assert refilled in response.content.decode()  # the pasted log is in the form again
    switched = client.get(f"/r/{world['token']}/?lang=de")
    assert switched.status_code == 302 and switched["Location"] == f"/r/{world['token']}/"
    assert switched.cookies["django_language"].value == "de"
    assert "Ergebnisse von erin" in client.get(f"/r/{world['token']}/").content.decode()
    assert Client().get(f"/r/{'x' * 32}/?lang=de").status_code == 404


def test_the_api_says_a_result_came_through_a_link(world):
    upload(Client(), world["token"], world["g1"])
    sent = Result.objects.get()
    body = Client().get(f"/api/v1/results/{sent.pk}/").json()
    assert body["submitted_by"] is None
    assert body["submitted_through_link"] == world["entry"].pk
    assert body["decided_through_link"] is None
    assert world["token"] not in str(body)


def test_staff_list_and_withdraw_links_in_the_admin_without_seeing_tokens(world):
    staff = make_user("root", staff=True, is_superuser=True)
    client = login(staff)
    listing = client.get("/admin/tournaments/resultlink/")
    assert listing.status_code == 200 and world["token"] not in listing.content.decode()
    response = client.post(
        "/admin/tournaments/resultlink/",
        {"action": "withdraw", "_selected_action": [world["link"].pk]},
    )
    assert response.status_code == 302
    world["link"].refresh_from_db()
    assert world["link"].revoked_by == staff
    assert Client().get(f"/r/{world['token']}/").status_code == 404


# --- a game played without a log, reported by hand through the link ---------------------


def hand_report(client, token, fixture, winner, **extra):
    """The 2T+ form: winner, counted pawns and colours completed, game time."""
    loser = next(s.entry for s in fixture.seats.all() if s.entry_id != winner.pk)
    data = {
        "winner": winner.pk,
        f"counted_{loser.pk}": "5",
        f"completed_{loser.pk}": "1",
        "game_time": "41:30",
        "reason": "",
        **extra,
    }
    return client.post(f"/r/{token}/games/{fixture.pk}/report/", data)


def test_she_reports_her_game_by_hand_and_carol_confirms_it(world):
    client = Client()
    token, g1, erin = world["token"], world["g1"], world["entry"]
    page = client.get(f"/r/{token}/").content.decode()
    assert f"/r/{token}/games/{g1.pk}/report/" in page  # beside the upload form
    form = client.get(f"/r/{token}/games/{g1.pk}/report/")
    assert form.status_code == 200
    private_headers(form)
    html = form.content.decode()
    assert 'name="winner"' in html and f'name="counted_{erin.pk}"' in html
    assert f'action="/r/{token}/games/{g1.pk}/report/"' in html
    assert f"next=/r/{token}" not in html  # the log-in link does not carry the token
    response = hand_report(client, token, g1, erin)
    assert response.status_code == 302
    assert response["Location"] == f"/r/{token}/#game-{g1.pk}"
    private_headers(response)
    result = Result.objects.get()
    assert result.source == Result.Source.REPORT and not result.verified
    assert result.submitted_via == world["link"] and result.submitted_by is None
    assert result.state == Result.State.PENDING and result.winner == erin
    assert result.game_time == 41 * 60 + 30
    page = client.get(f"/r/{token}/").content.decode()
    assert "The result is reported" in page and "you sent it" in page
    assert "Confirm this result" not in page  # the two-person rule
    # a second report is refused: the first one waits for carol
    again = client.get(f"/r/{token}/games/{g1.pk}/report/")
    assert again.status_code == 400 and "awaiting confirmation" in again.content.decode()
    assert hand_report(client, token, g1, erin).status_code == 400
    assert Result.objects.count() == 1
    login(world["carol"]).post(f"/games/{g1.pk}/results/{result.pk}/confirm/")
    result.refresh_from_db()
    assert result.state == Result.State.CONFIRMED


def test_a_wrong_hand_report_is_refused_and_changes_nothing(world):
    response = hand_report(Client(), world["token"], world["g1"], world["entry"], game_time="forty")
    assert response.status_code == 400
    assert "minutes:seconds" in response.content.decode()
    assert not Result.objects.exists()


def test_no_hand_report_for_another_entrys_or_another_leagues_game(world):
    carol_entry = world["g2"].seats.get(entry__player__name="carol").entry
    for fixture, winner in ((world["g2"], carol_entry), (world["b1"], world["entry"])):
        client = Client()
        assert client.get(f"/r/{world['token']}/games/{fixture.pk}/report/").status_code == 404
        response = hand_report(client, world["token"], fixture, winner)
        assert response.status_code == 404
        private_headers(response)
    assert not Result.objects.exists()


def test_no_hand_report_once_the_link_is_withdrawn(world):
    client = Client()
    url = f"/r/{world['token']}/games/{world['g1'].pk}/report/"
    assert client.get(url).status_code == 200  # the form was open …
    result_link_revoke(entry=world["entry"], by=world["organizer"])
    response = hand_report(client, world["token"], world["g1"], world["entry"])
    assert response.status_code == 404  # … and is gone with the link
    assert client.get(url).status_code == 404
    assert not Result.objects.exists()


def test_a_withdrawn_link_is_refused_by_the_service_too(world):
    """The page was served while the link was live; the service checks the link again
    under the game's lock, so a report racing the withdrawal is refused."""
    from tournaments.actors import LinkHolder
    from tournaments.services.errors import NotAllowed
    from tournaments.services.results import result_report

    holder = LinkHolder(world["link"])
    result_link_revoke(entry=world["entry"], by=world["organizer"])
    with pytest.raises(NotAllowed):
        result_report(fixture=world["g1"], by=holder, winner=world["entry"])
    assert not Result.objects.exists()
