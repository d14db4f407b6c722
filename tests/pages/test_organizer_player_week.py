"""Issue 34, organizers and players (points 12 …): what the pages say at each stage of a
league, checked on the pages themselves (EN and DE)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.builders import make_league, make_player, make_snapshot, make_user
from tournaments.models import Entry, League, Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(db):
    return make_user("orga")


def _get(client: Client, url: str, lang: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, url
    return response.content.decode()


def _finished_xleague(organizer) -> League:
    league = make_league(
        organizer, "finished-x", format="2T+", playoffs={"kind": "xleague"}, status="finished"
    )
    ann, ben, cat = (
        Entry.objects.create(league=league, player=make_player(n)) for n in ("Ann", "Ben", "Cat")
    )
    make_snapshot(league, [ann, ben, cat], provisional=False)
    Series.objects.create(
        league=league,
        round=2,
        slot=1,
        name="Final Series",
        first_to=4,
        higher=ann,
        lower=ben,
        winner=ben,
    )
    return league


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_finished_league_names_its_champion_and_its_table_is_final(organizer, lang):
    league = _finished_xleague(organizer)
    client = Client()
    embed = f"/leagues/{league.slug}/embed/standings/?lang={lang}"
    for url in (f"/leagues/{league.slug}/standings/", embed):
        page = _get(client, url, lang)
        assert "the playoffs decide the title" not in page
        assert "die Playoffs entscheiden den Titel" not in page
        champion = "Champion" if lang == "en" else "Meister"
        assert f"{champion}: <strong>Ben</strong>" in page


def test_a_running_league_with_playoffs_is_still_settled_by_them(organizer):
    league = _finished_xleague(organizer)
    League.objects.filter(pk=league.pk).update(status="playoffs")
    page = _get(Client(), f"/leagues/{league.slug}/standings/")
    assert "settled: the playoffs decide the title" in page and "Champion" not in page


def test_an_open_tournaments_preliminary_table_is_not_final_before_the_final_table(organizer):
    league = make_league(organizer, "open-x", format="open", event_kind="open", final_table_size=4)
    entries = [
        Entry.objects.create(league=league, player=make_player(n)) for n in ("Pia", "Ole", "Uli")
    ]
    make_snapshot(league, entries, provisional=False, revision=league.results_revision)
    page = _get(Client(), f"/leagues/{league.slug}/standings/")
    assert "settled: the final table decides the title" in page
    assert '"badge badge-settled">final<' not in page
    from tournaments.services.leagues import league_set_status
    from tournaments.services.standings import standings_recompute

    league_set_status(league=league, status="finished", by=organizer)
    standings_recompute(league.pk)  # finishing asked for a new snapshot (a new page stamp)
    page = _get(Client(), f"/leagues/{league.slug}/standings/")
    assert "the final table decides" not in page


def test_a_finished_league_offers_no_tie_break_roll(organizer):
    from tournaments.services.errors import ServiceError
    from tournaments.services.tie_breaks import tie_break_roll_record

    league = _finished_xleague(organizer)
    client = Client()
    client.force_login(organizer)
    assert "Record a tie-break roll" not in _get(client, f"/leagues/{league.slug}/")
    with pytest.raises(ServiceError, match="has finished"):
        tie_break_roll_record(league=league, by=organizer, rolls=[{"Ann": 5, "Ben": 2}])
    League.objects.filter(pk=league.pk).update(status="running")
    assert "Record a tie-break roll" in _get(client, f"/leagues/{league.slug}/")


def test_a_grand_prix_before_any_game_says_no_game_has_counted(organizer):
    from tournaments.services.events import event_schedule
    from tournaments.services.leagues import entry_add, league_create
    from tournaments.services.players import player_create

    league = league_create(
        owner=organizer, name="GP Cup", format="GP", event_kind="grand-prix", games_planned=3
    )
    for name in ("Gina", "Hugo"):
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
    event_schedule(league=league, by=organizer, seed=1)
    page = _get(Client(), f"/leagues/{league.slug}/standings/")
    assert "The top is tied" not in page
    assert "No game has counted yet." in page
    assert "Noch kein Spiel wurde gewertet." in _get(
        Client(), f"/leagues/{league.slug}/standings/", "de"
    )
