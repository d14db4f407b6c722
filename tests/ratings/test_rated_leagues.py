"""Issue 32, point 1: rated play as a trust decision, in the open (docs/ratings.md, "Rated
leagues"). A league's games move ratings only when a rating officer sanctioned it; the
sanction and its withdrawal replay the ratings on commit; a rated player is handed to an
account only by staff."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import transaction

from games.engine import simulate_game
from ratings.models import LeagueRatingDecision, PlayerRating, RatingChange, RatingGame
from ratings.services.rated_leagues import league_rating_decide, league_rating_request
from ratings.services.ratings import NOT_SANCTIONED, ratings_recompute, ratings_update
from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import ConfirmedEmail, Entry, PlayerClaim
from tournaments.services.entries import claim_create, claim_decide, invitation_create
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.results import game_log_submit

PAIRS = (["black", "yellow"], ["green", "red"])


@pytest.fixture(autouse=True)
def _every_league_rated(settings):
    settings.RATED_LEAGUES = "sanctioned"  # the default (the folder's conftest sets "all")


def verified(username, **extra):
    user = make_user(username, **extra)
    ConfirmedEmail.objects.create(user=user, email=user.email)
    return user


def officer(username="officer"):
    """A rating officer: the group the migration makes, with its permission. A
    transactional test that ran before on the same worker flushed the tables, the
    migration's group with them (post_migrate makes the permissions again, not the group):
    it is made again here as the migration makes it (that the migration makes it is
    ``test_the_migration_keeps_leagues_rated_today_rated``'s to check)."""
    permission = Permission.objects.get(codename="sanction_league")
    group, _ = Group.objects.get_or_create(name="Rating officers")
    group.permissions.add(permission)
    user = make_user(username)
    user.groups.add(group)
    return user


def simulated_game(league, by, a, b, seed):
    """A 2T game between ``a`` and ``b``, its log made by the engine's simulator and
    uploaded by ``by`` (milliseconds each: the issue's farm)."""
    ea, _ = Entry.objects.get_or_create(league=league, player=a)
    eb, _ = Entry.objects.get_or_create(league=league, player=b)
    fixture = make_fixture(league, list(zip([ea, eb], PAIRS, strict=True)), "black")
    log = simulate_game(
        rules=league.rules_spec,
        board=league.board,
        players={a.name: PAIRS[0], b.name: PAIRS[1]},
        first="black",
        seed=seed,
    )
    for i, event in enumerate(log["events"]):
        event["t"] = 2 * (i + 1)
    game_log_submit(fixture=fixture, content=json.dumps(log), by=by)
    return fixture


def snapshot():
    return sorted(
        PlayerRating.objects.filter(games__gt=0).values_list("player__name", "mu", "sigma", "games")
    )


def history():
    return sorted(
        RatingChange.objects.values_list("player__name", "game_id", "mu_after", "sigma_after")
    )


def test_the_farm_leaves_the_made_up_player_unrated_and_off_the_ratings_page(db, client):
    """A fresh account confirms its address, makes a league and two players without
    accounts of its own, and uploads ten simulated logs: nobody is rated."""
    farmer = verified("farmer")
    league = make_league(farmer, format="2T", confirmation_required=False)
    champ = make_player("Champ", created_by=farmer, shared=False)
    dummy = make_player("Dummy", created_by=farmer, shared=False)
    for seed in range(10):
        simulated_game(league, farmer, champ, dummy, seed)
    ratings_update()
    assert RatingGame.objects.count() == 10
    assert set(RatingGame.objects.values_list("skip_reason", flat=True)) == {NOT_SANCTIONED}
    assert not PlayerRating.objects.filter(player__in=[champ, dummy], games__gt=0).exists()
    page = client.get("/ratings/").content.decode()
    assert "Champ" not in page and "Dummy" not in page


def test_sanctioning_rates_the_games_and_withdrawing_removes_them(
    db, client, django_capture_on_commit_callbacks
):
    """A rated league (Ann, Bo) and an unrated one (Ann, Xena), games interleaved: the
    sanction rates the second league's games by the replay (equal to a recompute from
    scratch), the withdrawal takes them out again, with no shell step."""
    staff = make_user("boss", staff=True)
    owner = verified("owner")
    rated, farm = (make_league(owner, format="2T", confirmation_required=False) for _ in "12")
    ann = make_player("Ann", created_by=owner)
    bo, xena = make_player("Bo", created_by=owner), make_player("Xena", created_by=owner)
    with django_capture_on_commit_callbacks(execute=True):
        league_rating_decide(league=rated, by=staff, rated=True, reason="club season")
    for seed in range(6):
        simulated_game(rated, owner, ann, bo, seed)
        simulated_game(farm, owner, xena, ann, 100 + seed)
    ratings_update()
    only_rated = snapshot()
    assert {name for name, *_ in only_rated} == {"Ann", "Bo"}

    request = league_rating_request(league=farm, by=owner, note="our second division")
    with django_capture_on_commit_callbacks(execute=True):  # the replay runs on commit
        decision = league_rating_decide(league=farm, by=officer(), rated=True, reason="ok")
    assert decision.pk == request.pk and decision.state == LeagueRatingDecision.State.APPROVED
    assert decision.decided_by.username == "officer" and decision.decided_at
    sanctioned = snapshot()
    assert {name for name, *_ in sanctioned} == {"Ann", "Bo", "Xena"}
    assert dict((n, g) for n, _, _, g in sanctioned)["Ann"] == 12
    replayed = history()
    ratings_recompute()
    assert snapshot() == sanctioned and history() == replayed

    with django_capture_on_commit_callbacks(execute=True):
        league_rating_decide(league=farm, by=staff, rated=False, reason="games not played")
    assert snapshot() == only_rated
    assert not RatingChange.objects.filter(player=xena).exists()
    withdrawn = history()
    ratings_recompute()
    assert snapshot() == only_rated and history() == withdrawn
    assert "Xena" not in client.get("/ratings/").content.decode()
    states = list(farm.rating_decisions.order_by("id").values_list("state", "reason"))
    assert states == [("approved", "ok"), ("revoked", "games not played")]


def test_only_staff_or_rating_officers_decide_and_a_refusal_says_why(db):
    owner = verified("owner")
    league = make_league(owner, format="2T")
    league_rating_request(league=league, by=owner)
    with pytest.raises(ServiceError, match="requested already"):
        league_rating_request(league=league, by=owner)
    with pytest.raises(NotAllowed):
        league_rating_request(league=league, by=make_user("stranger"))
    with pytest.raises(NotAllowed, match="rating officer"):
        league_rating_decide(league=league, by=owner, rated=True)
    with pytest.raises(ServiceError, match="say why"):
        league_rating_decide(league=league, by=officer(), rated=False)
    league.refresh_from_db()
    assert not league.rated
    decision = league_rating_decide(
        league=league, by=make_user("s", staff=True), rated=False, reason="no fixtures list"
    )
    assert decision.state == LeagueRatingDecision.State.REFUSED
    assert decision.reason == "no fixtures list"


def test_a_claim_of_a_rated_player_waits_for_staff(db, django_capture_on_commit_callbacks):
    """The farm's second half: a sock account claims the rated account-less player and the
    creator approves. Once the player has a rating, only staff may hand it over."""
    owner = verified("owner")
    league = make_league(owner, format="2T", confirmation_required=False)
    with django_capture_on_commit_callbacks(execute=True):
        league_rating_decide(league=league, by=make_user("s", staff=True), rated=True)
    champ = make_player("Champ", created_by=owner, shared=False)
    dummy = make_player("Dummy", created_by=owner, shared=False)
    simulated_game(league, owner, champ, dummy, 1)
    ratings_update()
    assert RatingChange.objects.filter(player=champ).exists()
    claim = claim_create(player=champ, by=make_user("sock"))
    with pytest.raises(NotAllowed, match="only staff"):
        claim_decide(claim=claim, by=owner, approve=True)
    claim.refresh_from_db()
    champ.refresh_from_db()
    assert claim.state == PlayerClaim.State.OPEN and champ.user_id is None
    with pytest.raises(NotAllowed, match="only staff"):  # nor through an invitation
        invitation_create(
            league=make_league(owner, format="2T", status="registration"), by=owner, player=champ
        )
    # an unrated player is still the creator's to hand over
    unrated = make_player("Newbie", created_by=owner, shared=False)
    other = claim_create(player=unrated, by=make_user("newbie"))
    assert claim_decide(claim=other, by=owner, approve=True).state == "approved"
    with transaction.atomic():
        done = claim_decide(claim=claim, by=make_user("s2", staff=True), approve=True)
    assert done.state == PlayerClaim.State.APPROVED


def test_the_pages_say_rated_or_unrated_and_why_in_english_and_german(db, client):
    owner = verified("owner")
    league = make_league(owner, format="2T", confirmation_required=False)
    a, b = make_player("Ann", created_by=owner), make_player("Bo", created_by=owner)
    fixture = simulated_game(league, owner, a, b, 3)
    client.force_login(owner)
    pages = {
        "create": "/leagues/new/",
        "manage": f"/leagues/{league.slug}/manage/",
        "league": f"/leagues/{league.slug}/",
        "game": f"/games/{fixture.pk}/",
    }
    for name, url in pages.items():
        html = client.get(url).content.decode()
        assert 'data-rated="false"' in html, name
        assert "until" in html or "not sanctioned" in html or "rating officer" in html, name
    manage = client.get(pages["manage"]).content.decode()
    assert "Ask for a rating" in manage
    client.post(f"/leagues/{league.slug}/manage/rating/", {"note": "club season"})
    assert "a rating was requested" in client.get(pages["league"]).content.decode()
    assert "Ask for a rating" not in client.get(pages["manage"]).content.decode()

    # the rating officer's queue: a page with approve / refuse and a reason
    client.force_login(officer())
    queue = client.get("/rating-requests/").content.decode()
    assert league.name in queue and "club season" in queue
    client.post(f"/rating-requests/{league.slug}/", {"rated": "1", "reason": "FIDE-style"})
    league.refresh_from_db()
    assert league.rated
    client.force_login(owner)
    for name, url in pages.items():
        html = client.get(url).content.decode()
        want = 'data-rated="false"' if name == "create" else 'data-rated="true"'
        assert want in html, name
    assert "sanctioned by officer" in client.get(pages["game"]).content.decode()
    client.cookies["django_language"] = "de"
    assert "Gewertet: anerkannt von officer" in client.get(pages["league"]).content.decode()
    assert "Eine neue Liga ist ungewertet" in client.get(pages["create"]).content.decode()


def test_the_queue_is_for_staff_and_rating_officers_only(db, client):
    client.force_login(verified("owner"))
    assert client.get("/rating-requests/").status_code == 403
    client.force_login(officer())
    assert client.get("/rating-requests/").status_code == 200


def test_the_api_says_whether_a_league_is_rated_read_only(db, client, settings):
    owner = verified("owner")
    league = make_league(owner, format="2T")
    client.force_login(owner)
    url = f"/api/v1/leagues/{league.slug}/"
    body = client.get(url).json()
    assert body["rated"] is False and "not sanctioned" in body["rated_why"]
    client.patch(url, {"rated": True}, content_type="application/json")
    league.refresh_from_db()
    assert not league.rated  # read-only
    league_rating_decide(league=league, by=officer(), rated=True, reason="club")
    listed = client.get("/api/v1/leagues/").json()
    row = next(r for r in listed["results"] if r["slug"] == league.slug)
    assert row["rated"] is True and "sanctioned by officer" in row["rated_why"]
    settings.RATED_LEAGUES = "all"
    assert client.get(url).json()["rated_why"] == "Every league on this site is rated."


def test_the_migration_keeps_leagues_rated_today_rated(db):
    """Upgrading changes nothing for honest federations: a league whose owner is staff or
    has a confirmed address stays rated (an approval recorded by nobody); an unverified
    owner's league stays unrated, as it was."""
    from importlib import import_module
    from pathlib import Path

    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    import tournaments.migrations as migrations

    (path,) = Path(migrations.__file__).parent.glob("*_rated_leagues.py")  # renumbered or not
    keep_rated = import_module(f"tournaments.migrations.{path.stem}").keep_rated
    verified_league = make_league(verified("fed"), format="2T")
    staff_league = make_league(make_user("boss", staff=True), format="2T")
    plain_league = make_league(make_user("plain"), format="2T")
    # the models as that migration saw them (the decisions were still the tournaments')
    apps = MigrationLoader(connection).project_state(("tournaments", path.stem)).apps
    keep_rated(apps, None)
    rated = {lg.pk: lg.rated for lg in type(plain_league).objects.all()}
    assert rated == {verified_league.pk: True, staff_league.pk: True, plain_league.pk: False}
    kept = LeagueRatingDecision.objects.get(league=verified_league)
    assert kept.state == "approved" and kept.decided_by is None and "before" in kept.reason
    group = Group.objects.get(name="Rating officers")
    assert group.permissions.filter(codename="sanction_league").exists()
