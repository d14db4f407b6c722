"""One specification of the league settings: the create form, the settings form, the API
and the services refuse the same values with the same bounds (a DRR count of ``True``, 21
DRRs, 31 open rounds…), and an organizer changes a league's settings on the site through
the same checks."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.builders import make_user
from tournaments.api.leagues import LeagueCreateSerializer
from tournaments.models import League
from tournaments.services import league_settings as spec
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import league_create, league_update
from tournaments.services.players import player_create
from tournaments.services.schedule import cycle_create
from tournaments.web.organize_forms import LeagueForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(db):
    return make_user("organizer-olga")


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


BAD = [
    # (setting, bad value, the rest of a valid league of the kind that has it)
    ("drr_count", True, {"format": "2T"}),
    ("drr_count", 0, {"format": "2T"}),
    ("drr_count", 21, {"format": "2T"}),
    ("games_planned", 31, {"format": "open", "event_kind": "open"}),
    ("games_planned", 51, {"format": "GP", "event_kind": "grand-prix"}),
    ("time_limit_minutes", 4, {"format": "open", "event_kind": "open"}),
    ("final_table_size", 1, {"format": "open", "event_kind": "open"}),
    ("ranking_level", 5, {"format": "3T"}),
]


@pytest.mark.parametrize(("name", "value", "rest"), BAD)
def test_every_door_refuses_the_same_values(org, name, value, rest):
    # the service
    with pytest.raises(ServiceError) as caught:
        league_create(owner=org, name="Cup", **rest, **{name: value})
    assert caught.value.field == name
    # the API (the serializer is built from the same specification, the service checks)
    api = APIClient()
    api.force_authenticate(org)
    response = api.post("/api/v1/leagues/", {"name": "Cup", **rest, name: value}, format="json")
    assert response.status_code == 400, response.content
    # the create form
    form_value = "on" if value is True else str(value)
    post = {"name": "Cup", "playoffs_kind": "none", "prec_won_lost": "1", **rest}
    post[name] = form_value
    response = client_for(org).post(reverse("tournaments:league-create"), post)
    assert response.status_code == 400
    assert not League.objects.exists()


def test_a_drr_count_of_true_is_refused_on_update_as_on_create(org):
    league = league_create(owner=org, name="Cup", format="2T")
    for value in (True, 0, 21, "3"):
        with pytest.raises(ServiceError, match="the number of DRRs"):
            league_update(league=league, by=org, drr_count=value)
    assert League.objects.get(pk=league.pk).drr_count == 1


def test_form_and_serializer_bounds_are_the_specification():
    form = LeagueForm()
    serializer_fields = LeagueCreateSerializer().fields
    for name in ("drr_count", "games_planned", "time_limit_minutes", "ranking_level"):
        low, high = spec.SETTINGS[name].widest
        assert (form.fields[name].min_value, form.fields[name].max_value) == (low, high)
        assert (serializer_fields[name].min_value, serializer_fields[name].max_value) == (
            low,
            high,
        )
    kinds = {v for v, _label in form.fields["event_kind"].choices if v}
    assert kinds == set(League.EventKind.values) == set(serializer_fields["event_kind"].choices)


def test_every_format_template_of_the_regulations_prefills_the_form(org):
    client = client_for(org)
    for code, template in spec.TEMPLATES.items():
        response = client.get(reverse("tournaments:league-create"), {"template": code})
        html = response.content.decode()
        assert response.status_code == 200
        kind = template.values["event_kind"]
        assert f'<option value="{kind}" selected' in html, code
    # the kinds the regulations name all have a template
    kinds = {t.values["event_kind"] for t in spec.TEMPLATES.values()}
    assert kinds == set(League.EventKind.values)


def test_the_settings_page_changes_a_league_through_the_same_checks(org):
    league = league_create(owner=org, name="Cup", format="2T", drr_count=2)
    client = client_for(org)
    url = reverse("tournaments:manage-settings", args=[league.slug])
    page = client.get(url).content.decode()
    assert 'name="drr_count"' in page and 'value="2"' in page
    post = {
        "name": "Spring Cup",
        "drr_count": "21",
        "playoffs_kind": "none",
        "prec_won_lost": "1",
        "confirmation_required": "on",
    }
    response = client.post(url, post)
    assert response.status_code == 400
    assert League.objects.get(pk=league.pk).name == "Cup"  # nothing changed
    post["drr_count"] = "3"
    assert client.post(url, post).status_code == 302
    league.refresh_from_db()
    assert (league.name, league.drr_count) == ("Spring Cup", 3)
    # once the first DRR is seeded, the DRR count is shown but fixed
    for name in ("Ann", "Ben"):
        from tournaments.services.leagues import entry_add

        entry_add(league=league, player=player_create(name=name, shared=True), by=org)
    cycle_create(league=league, by=org, seed=1)
    page = client.get(url).content.decode()
    assert 'name="drr_count"' in page and "disabled" in page
    post.update(name="Autumn Cup", drr_count="5")
    assert client.post(url, post).status_code == 302
    league.refresh_from_db()
    assert (league.name, league.drr_count) == ("Autumn Cup", 3)


def test_event_settings_belong_to_their_kind(org):
    with pytest.raises(ServiceError, match="plays 3T, 3T\\+, not 2T"):
        league_create(
            owner=org, name="TT", format="2T", event_kind="triple-threat", game_formats=["2T"]
        )
    with pytest.raises(ServiceError, match="only a league of DRRs has playoffs"):
        league_create(
            owner=org,
            name="O",
            format="open",
            event_kind="open",
            playoffs={"kind": "xleague"},
        )
    league = league_create(
        owner=org, name="TT", format="3T", event_kind="triple-threat", game_formats=["3T", "GP"]
    )
    with pytest.raises(ServiceError, match="not a setting of"):
        league_update(league=league, by=org, drr_count=4)
    league_update(league=league, by=org, game_formats=["3T", "3T+", "GP"])
    assert League.objects.get(pk=league.pk).game_formats == ["3T", "3T+", "GP"]
