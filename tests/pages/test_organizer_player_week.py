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


# --- 13. deadlines: overdue is past the result deadline, and a link's result has a sender --


def test_my_games_marks_a_past_deadline_overdue_and_lists_only_the_next_ones(
    client, league, erin_user
):
    from datetime import timedelta

    from django.utils import timezone

    g1, g2 = league.test_objects["g1"], league.test_objects["g2"]
    now = timezone.now()
    g1.deadline = now - timedelta(days=2)
    g1.save()
    g2.deadline = now + timedelta(days=3)
    g2.save()
    client.force_login(erin_user)
    response = client.get("/me/")
    page = response.context["page"]
    assert [i.fixture for i in page.overdue] == [g1]
    assert [i.fixture for i in page.deadlines] == [g2]
    text = response.content.decode()
    overdue, upcoming = text.index("Past their deadline"), text.index("Next deadlines")
    assert "overdue" in text[overdue:upcoming]
    assert f"/games/{g1.pk}/" in text[overdue:upcoming]
    deadlines = text[upcoming : text.index("</section>", upcoming)]
    assert f"/games/{g1.pk}/" not in deadlines and f"/games/{g2.pk}/" in deadlines
    german = client.get("/me/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Frist abgelaufen" in german and "überfällig" in german


def test_the_desks_overdue_games_are_past_their_result_deadline(league):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.selectors.desk import overdue_fixtures

    g1, g2 = league.test_objects["g1"], league.test_objects["g2"]
    now = timezone.now()
    # G1 was played yesterday, its result is due on Sunday: not overdue yet
    g1.scheduled_at, g1.deadline = now - timedelta(days=1), now + timedelta(days=3)
    g1.save()
    # G2 has no deadline and its time has passed: overdue
    g2.scheduled_at, g2.deadline = now - timedelta(hours=2), None
    g2.save()
    assert list(overdue_fixtures(league)) == [g2]
    g1.deadline = now - timedelta(minutes=1)
    g1.save()
    assert set(overdue_fixtures(league)) == {g1, g2}


def test_a_result_sent_through_a_private_link_names_its_sender(client, league, owner, erin_user):
    from tournaments.models import Player, Result
    from tournaments.services.result_links import result_link_create

    g1, carol = league.test_objects["g1"], league.test_objects["carol"]
    Player.objects.filter(pk=carol.player_id).update(user=None)  # links: players without one
    carol.refresh_from_db()
    link, _token = result_link_create(entry=carol, by=owner)
    Result.objects.create(
        fixture=g1, source="report", state="pending", winner=carol, submitted_via=link
    )
    client.force_login(erin_user)
    text = client.get("/me/").content.decode()
    assert "submitted by carol" in text and "submitted by –" not in text
    client.force_login(owner)
    desk = client.get(f"/leagues/{league.slug}/desk/").content.decode()
    assert "Submitted by carol" in desk or "<td>carol</td>" in desk


# --- 19. German: colours, series names, messages as sentences; accent-blind search --------


def test_the_colour_preference_lists_colours_in_the_readers_language():
    from django.utils import translation

    from tournaments.web.organize_forms import ColoursForm

    with translation.override("de"):
        labels = [str(label) for _v, label in ColoursForm(board=4).fields["first"].choices]
    assert labels[1:] == ["rot", "schwarz", "gelb", "grün"]


def test_a_refused_upload_and_a_form_error_read_as_sentences():
    from types import SimpleNamespace

    from tournaments.web.templatetags.maedn import upload_error

    rejection = SimpleNamespace(error_code="", error_params={}, error="the log is empty")
    assert upload_error(rejection) == "The log is empty"


@pytest.mark.parametrize(
    ("stored", "german"),
    [
        ("Final", "Finale"),
        ("Semi-final 2", "Halbfinale 2"),
        ("Qualifying Series", "Qualifikationsserie"),
        ("Round of 16 – 3", "Runde der letzten 16 – 3"),
        ("Club final", "Club final"),  # an organizer's own name stays
    ],
)
def test_series_names_are_german_in_german(stored, german):
    from django.utils import translation

    from tournaments.web.templatetags.maedn import series_name

    with translation.override("de"):
        assert series_name(stored) == german
    assert series_name(stored) == stored


def test_the_german_bracket_embed_says_finale(organizer):
    league = _finished_xleague(organizer)
    page = _get(Client(), f"/leagues/{league.slug}/embed/bracket/?lang=de")
    assert "Finalserie" in page and "Stand von Finalserie" in page
    assert "Final Series" not in page


def test_search_on_sqlite_ignores_accents(tmp_path):
    """The embedded mode's SQLite: "pia" finds "Pía", "Pía" finds "Pia" (a subprocess: the
    tests' database is PostgreSQL)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_SETTINGS")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", DEBUG="1")
    script = (
        "from tournaments.models import Player\n"
        "from tournaments.selectors.search import search\n"
        "from django.contrib.auth.models import AnonymousUser\n"
        "Player.objects.create(name='Pía Müller', slug='pia-m')\n"
        "Player.objects.create(name='Pia Schmidt', slug='pia-s')\n"
        "for q in ('pia', 'Pía', 'MULLER'):\n"
        "    r = search(q, AnonymousUser())\n"
        "    print('|'.join([r.method, q] + sorted(p.name for p in r.players)))\n"
    )
    for args in (["migrate", "-v0"], ["shell", "-c", script]):
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("substring|")]
    assert lines == [
        "substring|pia|Pia Schmidt|Pía Müller",
        "substring|Pía|Pia Schmidt|Pía Müller",
        "substring|MULLER|Pía Müller",
    ]


# --- 20. the same log twice; the schedule's counted pawns; the analysis' capture line ------


def test_uploading_the_same_log_again_says_nothing_changed(client, league, erin_user):
    from tests.builders import example_text
    from tournaments.models import Result

    g1 = league.test_objects["g1"]
    client.force_login(erin_user)
    log = example_text("valid-league-2tplus.json")
    first = client.post(f"/games/{g1.pk}/submit/", {"content": log}, follow=True)
    assert "The log was accepted" in first.content.decode()
    again = client.post(f"/games/{g1.pk}/submit/", {"content": log}, follow=True).content.decode()
    assert "This log was submitted before; nothing changed." in again
    assert "The log was accepted" not in again
    assert Result.objects.filter(fixture=g1).count() == 1


def test_the_schedule_labels_the_counted_pawns(client, league, submitted):
    page = _get(client, f"/leagues/{league.slug}/schedule/")
    assert "counted pawns: " in page
    assert "(8 pawns)" not in page and "(0 pawns)" not in page


# --- 17. a draft is deleted, a finished league archived ------------------------------------


def test_the_owner_deletes_a_league_without_games_and_not_one_with_games(organizer):
    from tournaments.services.leagues import league_create

    draft = league_create(owner=organizer, name="Duplicate Cup", format="2T")
    client = Client()
    client.force_login(organizer)
    manage = _get(client, f"/leagues/{draft.slug}/manage/")
    assert "Delete the league" in manage
    unticked = client.post(f"/leagues/{draft.slug}/manage/delete/", follow=True)
    assert League.objects.filter(pk=draft.pk).exists() and "Tick the box" in unticked.text
    done = client.post(f"/leagues/{draft.slug}/manage/delete/", {"confirm": "1"}, follow=True)
    assert not League.objects.filter(pk=draft.pk).exists()
    assert "Duplicate Cup is deleted." in done.text
    # a co-organizer may not, nor may anyone once games exist
    other = league_create(owner=organizer, name="Other Cup", format="2T")
    co = make_user("co-org")
    other.organizers.add(co)
    client.force_login(co)
    assert client.post(f"/leagues/{other.slug}/manage/delete/", {"confirm": "1"}).status_code == 403
    played = _finished_xleague(organizer)
    from tests.builders import make_fixture

    make_fixture(played, [(e, ["red", "black"]) for e in played.entries.all()[:1]], "red")
    client.force_login(organizer)
    assert "Delete the league" not in _get(client, f"/leagues/{played.slug}/manage/")
    refused = client.post(f"/leagues/{played.slug}/manage/delete/", {"confirm": "1"})
    assert refused.status_code == 400 and League.objects.filter(pk=played.pk).exists()


def test_a_finished_league_is_archived_out_of_the_search(organizer):
    league = _finished_xleague(organizer)
    assert league.name in _get(Client(), "/search/?q=finished")
    client = Client()
    client.force_login(organizer)
    assert "Archive this league" in _get(client, f"/leagues/{league.slug}/manage/")
    client.post(f"/leagues/{league.slug}/manage/archive/")
    league.refresh_from_db()
    assert not league.is_public and not league.registration_open
    assert league.name not in _get(Client(), "/search/?q=finished")
    assert Client().get(f"/leagues/{league.slug}/").status_code == 404
    assert _get(client, f"/leagues/{league.slug}/")  # its organizer still sees it


# --- 18. templates keep their promise; one "Playoffs" tab ---------------------------------


def test_the_triple_threat_template_is_ranked_and_the_organizer_tab_is_the_draw(organizer):
    from tournaments.services.league_settings import TEMPLATES

    assert TEMPLATES["triple-threat"].values["ranking_level"] == 1
    league = _finished_xleague(organizer)
    client = Client()
    client.force_login(organizer)
    page = _get(client, f"/leagues/{league.slug}/manage/")
    assert page.count(">Playoffs</a>") == 1 and ">Playoff draw</a>" in page


# --- 9. "Embed on your site" gives the code ------------------------------------------------


def test_embed_on_your_site_gives_the_iframe_code_with_its_choices(organizer):
    league = _finished_xleague(organizer)
    standings = _get(Client(), f"/leagues/{league.slug}/standings/")
    assert f'href="/leagues/{league.slug}/embed/"' in standings
    page = _get(
        Client(),
        f"/leagues/{league.slug}/embed/?what=bracket&theme=dark&lang=de&width=500&height=300&auto=1",
    )
    snippet = page[page.index('id="embed-snippet"') : page.index("</textarea>")]
    src = f"/leagues/{league.slug}/embed/bracket/?theme=dark&amp;lang=de"
    assert "&lt;iframe src=&quot;http://testserver" + src in snippet
    assert "width=&quot;500&quot; height=&quot;300&quot;" in snippet
    assert "data-maedn-embed" in snippet and "maedn-embed-height" in snippet
    assert "e.origin !== &quot;http://testserver&quot;" in snippet  # only this site's messages
    assert 'data-copy="embed-snippet"' in page and "Copy the code" in page
    # without auto-height: no script; the defaults when nothing is chosen
    plain = _get(Client(), f"/leagues/{league.slug}/embed/?what=schedule&width=9999")
    plain_snippet = plain[plain.index('id="embed-snippet"') : plain.index("</textarea>")]
    assert "&lt;script" not in plain_snippet and "width=&quot;2000&quot;" in plain_snippet
    first = _get(Client(), f"/leagues/{league.slug}/embed/")
    assert "data-maedn-embed" in first  # auto-height on by default
