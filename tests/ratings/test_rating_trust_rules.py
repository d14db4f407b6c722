"""Issue 22, point 3: ratings cannot be farmed through self-made leagues. Each trust rule
of docs/ratings.md ("Which games are rated") with a game it rates and one it does not:

1. the league's owner is verified (staff, or a confirmed e-mail address);
2. a result without an engine-validated log is rated only when every player at the
   board holds an account.
"""

from __future__ import annotations

from ratings.models import PlayerRating, RatingGame
from ratings.services.ratings import (
    HAND_RESULT_WITHOUT_ACCOUNTS,
    UNVERIFIED_ORGANIZER,
    ratings_recompute,
    ratings_update,
)
from tests.builders import build_league, make_fixture, make_league, make_player, make_user
from tests.examples import example_text
from tournaments.models import ConfirmedEmail, Entry
from tournaments.services.results import game_log_submit, result_enter

PAIRS = (["black", "yellow"], ["green", "red"])


def verified(username):
    user = make_user(username)
    ConfirmedEmail.objects.create(user=user, email=user.email)
    return user


def hand_game(league, organizer, winner, loser):
    """A 2T game between two players, its result entered by hand by ``organizer``."""
    entries = []
    for player in (winner, loser):
        entry, _ = Entry.objects.get_or_create(league=league, player=player)
        entries.append(entry)
    fixture = make_fixture(league, list(zip(entries, PAIRS, strict=True)), "black")
    result_enter(
        fixture=fixture,
        by=organizer,
        winner=entries[0],
        counted_pawns={entries[1].pk: 2},
        reason="by hand",
    )
    return fixture


def with_account(name):
    return make_player(name, user=make_user(f"acc-{name.lower()}"))


def test_the_issues_farm_moves_nothing(db):
    """An account makes a league, an account-less "Shill", and two hand results against
    Ben: Ben's rating stays, Shill gets none."""
    honest = verified("honest")
    ben, cleo = with_account("Ben"), with_account("Cleo")
    hand_game(make_league(honest, format="2T"), honest, cleo, ben)
    ratings_update()
    before = PlayerRating.objects.get(player=ben).display

    farmer = make_user("farmer")  # no confirmed address
    league = make_league(farmer, format="2T")
    shill = make_player("Shill")
    for _ in range(2):
        hand_game(league, farmer, shill, ben)
    ratings_update()
    assert PlayerRating.objects.get(player=ben).display == before
    assert not PlayerRating.objects.filter(player=shill).exists()
    skipped = RatingGame.objects.filter(fixture__league=league)
    assert {g.skip_reason for g in skipped} == {UNVERIFIED_ORGANIZER}
    assert all(g.places is None for g in skipped)


def test_rule_1_an_unverified_owner_rates_nothing_until_the_address_is_confirmed(db):
    owner = make_user("owner")
    ann, bob = with_account("Ann"), with_account("Bob")
    hand_game(make_league(owner, format="2T"), owner, ann, bob)
    ratings_update()
    assert RatingGame.objects.get().skip_reason == UNVERIFIED_ORGANIZER
    assert not PlayerRating.objects.exists()
    # confirmed later: the full recompute decides again
    ConfirmedEmail.objects.create(user=owner, email=owner.email)
    ratings_recompute()
    assert RatingGame.objects.get().skip_reason == ""
    assert PlayerRating.objects.filter(player__in=[ann, bob]).count() == 2


def test_rule_1_a_staff_owner_is_verified(db):
    staff = make_user("staffer", staff=True)
    ann, bob = with_account("Ann"), with_account("Bob")
    hand_game(make_league(staff, format="2T"), staff, ann, bob)
    ratings_update()
    assert PlayerRating.objects.filter(player__in=[ann, bob]).count() == 2


def test_rule_2_a_hand_result_with_a_player_without_an_account_is_not_rated(db):
    owner = verified("owner")
    league = make_league(owner, format="2T")
    ann, ghost = with_account("Ann"), make_player("Ghost")
    hand_game(league, owner, ann, ghost)
    ratings_update()
    assert RatingGame.objects.get().skip_reason == HAND_RESULT_WITHOUT_ACCOUNTS
    assert not PlayerRating.objects.exists()


def test_rule_2_a_hand_result_between_account_holders_is_rated(db):
    owner = verified("owner")
    ann, bob = with_account("Ann"), with_account("Bob")
    hand_game(make_league(owner, format="2T"), owner, ann, bob)
    ratings_update()
    game = RatingGame.objects.get()
    assert game.skip_reason == "" and game.places is not None
    assert PlayerRating.objects.filter(player__in=[ann, bob]).count() == 2


def test_rule_2_a_validated_log_rates_players_without_accounts(db):
    owner = verified("owner")
    league = build_league(owner, None, None)  # erin and carol without accounts
    g1 = league.test_objects["g1"]
    game_log_submit(fixture=g1, content=example_text("valid-league-2tplus.json"), by=owner)
    ratings_update()
    assert RatingGame.objects.get().skip_reason == ""
    assert PlayerRating.objects.count() == 2


def test_the_recompute_applies_the_same_rules(db):
    farmer = make_user("farmer")
    owner = verified("owner")
    ann, bob, ghost = with_account("Ann"), with_account("Bob"), make_player("Ghost")
    hand_game(make_league(farmer, format="2T"), farmer, ann, bob)
    hand_game(make_league(owner, format="2T"), owner, ann, ghost)
    hand_game(make_league(owner, format="2T"), owner, bob, ann)
    ratings_update()
    incremental = sorted(PlayerRating.objects.values_list("player__name", "mu", "sigma"))
    ratings_recompute()
    assert sorted(PlayerRating.objects.values_list("player__name", "mu", "sigma")) == incremental
    reasons = sorted(RatingGame.objects.values_list("skip_reason", flat=True))
    assert reasons == sorted(["", HAND_RESULT_WITHOUT_ACCOUNTS, UNVERIFIED_ORGANIZER])
    assert {r.player.name: r.games for r in PlayerRating.objects.all()} == {"Ann": 1, "Bob": 1}
