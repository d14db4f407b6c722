"""Issue 22: opening a league game's room (``POST /live/fixture/<id>/``) answers 404 both
for a game that does not exist and for a private league's game the user may not see (a
redirect would tell the game exists)."""

from __future__ import annotations

from django.test import Client

from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Entry


def test_a_private_game_is_as_missing_as_a_missing_one(db):
    owner = make_user("owner")
    league = make_league(owner, "hidden", is_public=False)
    entries = [
        Entry.objects.create(league=league, player=make_player(n, make_user(f"u-{n}")))
        for n in ("erin", "carol")
    ]
    fixture = make_fixture(
        league, [(entries[0], ["black", "yellow"]), (entries[1], ["green", "red"])], "black"
    )
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.post(f"/live/fixture/{fixture.pk}/").status_code == 404
    assert stranger.post(f"/live/fixture/{fixture.pk + 1000}/").status_code == 404
    # someone who may see it still gets the usual answer (a redirect: room or refusal)
    player = Client()
    player.force_login(entries[0].player.user)
    assert player.post(f"/live/fixture/{fixture.pk}/").status_code == 302
