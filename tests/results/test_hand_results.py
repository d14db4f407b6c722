"""Results entered without a log carry what the format records (tournament.md, "Games and
their results"), and standings count them as they count a log's result."""

import pytest

from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Result, StandingsRow
from tournaments.services.errors import ServiceError
from tournaments.services.results import result_enter, result_report
from tournaments.services.standings import standings_recompute


def league_game(format, seats, starting="black"):
    org = make_user()
    league = make_league(org, format=format)
    players = [make_player(f"{format}-{name}", user=make_user()) for name, _ in seats]
    fixture = make_fixture(
        league, [(p, c) for p, (_, c) in zip(players, seats, strict=False)], starting
    )
    entries = [s.entry for s in fixture.seats.order_by("position")]
    return org, league, fixture, entries, players


@pytest.mark.django_db
def test_a_gp_game_entered_by_hand_scores_gp_points_per_colour_place():
    org, league, fixture, (a, b), _ = league_game(
        "GP", [("a", ["black", "green"]), ("b", ["yellow", "red"])]
    )
    # places: black 1st, yellow 2nd, green 3rd (a finished both), red 4th
    result_enter(
        fixture=fixture,
        by=org,
        reason="played on paper",
        colour_places={"black": 1, "yellow": 2, "green": 3, "red": 4},
    )
    result = Result.objects.get(fixture=fixture, state="confirmed")
    assert result.winner_id == a.pk
    assert result.colour_places == [a.pk, b.pk, a.pk, b.pk]
    assert result.both_finished == [a.pk, b.pk]
    standings_recompute(league.pk)
    points = dict(StandingsRow.objects.values_list("entry_id", "points"))
    # 10 + 4 + 2 bonus for finishing both first; 6 + 3
    assert points == {a.pk: 16.0, b.pk: 9.0}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "places, field, words",
    [
        ({"black": 1, "yellow": 2, "green": 3}, "colour_places", "red"),
        ({"black": 1, "yellow": 1, "green": 3, "red": 4}, "colour_places", "1 to 4"),
        ({"black": 1, "yellow": 2, "green": 3, "blue": 4}, "colour_places", "blue"),
    ],
)
def test_bad_gp_places_are_refused_naming_the_field(places, field, words):
    org, _, fixture, _, _ = league_game("GP", [("a", ["black", "green"]), ("b", ["yellow", "red"])])
    with pytest.raises(ServiceError) as exc:
        result_enter(fixture=fixture, by=org, reason="x", colour_places=places)
    assert exc.value.field == field and words in exc.value.message
    assert not Result.objects.filter(fixture=fixture).exists()


@pytest.mark.django_db
def test_a_gp_game_does_not_take_counted_pawns():
    org, _, fixture, (a, b), _ = league_game(
        "GP", [("a", ["black", "green"]), ("b", ["yellow", "red"])]
    )
    with pytest.raises(ServiceError) as exc:
        result_enter(fixture=fixture, by=org, reason="x", winner=a, counted_pawns={b.pk: 2})
    assert exc.value.field == "counted_pawns"


@pytest.mark.django_db
def test_2tplus_by_hand_records_completed_colours_and_game_time():
    _org, _league, fixture, (a, b), (_, pb) = league_game(
        "2T+", [("a", ["black", "yellow"]), ("b", ["green", "red"])]
    )
    result = result_report(
        fixture=fixture,
        by=pb.user,
        winner=b,
        counted_pawns={a.pk: 5, b.pk: 8},
        completed_colours={a.pk: 1},
        game_time=1800.0,
    )
    assert result.state == "pending"
    assert result.completed_colours == {str(a.pk): 1, str(b.pk): 2}
    assert result.game_time == 1800.0
    assert result.placings == [b.pk, a.pk]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "typed, field",
    [
        ({"counted_pawns": {"A": 3}, "completed_colours": {"A": 1}}, "completed_colours"),
        ({"counted_pawns": {"A": 7}, "completed_colours": {"A": 0}}, "completed_colours"),
        ({"completed_colours": {"B": 1}}, "completed_colours"),
        ({"game_time": -5.0}, "game_time"),
        ({"game_time": 90000.0}, "game_time"),
        ({"counted_pawns": {"A": 8}}, "counted_pawns"),
        ({"colour_places": {"black": 1}}, "colour_places"),
    ],
)
def test_bad_2tplus_fields_are_refused_naming_the_field(typed, field):
    org, _, fixture, (a, b), _ = league_game(
        "2T+", [("a", ["black", "yellow"]), ("b", ["green", "red"])]
    )
    ids = {"A": a.pk, "B": b.pk}
    for name in ("counted_pawns", "completed_colours"):
        if name in typed:
            typed[name] = {ids[k]: v for k, v in typed[name].items()}
    with pytest.raises(ServiceError) as exc:
        result_enter(fixture=fixture, by=org, reason="x", winner=b, **typed)
    assert exc.value.field == field
    assert not Result.objects.filter(fixture=fixture).exists()


@pytest.mark.django_db
def test_2t_refuses_completed_colours_and_game_time():
    org, _, fixture, (a, b), _ = league_game(
        "2T", [("a", ["black", "yellow"]), ("b", ["green", "red"])]
    )
    with pytest.raises(ServiceError) as exc:
        result_enter(fixture=fixture, by=org, reason="x", winner=a, game_time=100.0)
    assert exc.value.field == "game_time"
    result = result_enter(fixture=fixture, by=org, reason="x", winner=a, counted_pawns={b.pk: 3})
    assert result.counted_pawns == {str(a.pk): 4, str(b.pk): 3}


def open_game():
    return league_game(
        "open",
        [("a", ["black"]), ("b", ["yellow"]), ("c", ["green"]), ("d", ["red"])],
    )


@pytest.mark.django_db
def test_open_game_by_placings_scores_placement_points():
    org, league, fixture, (a, b, c, d), _ = open_game()
    result_enter(fixture=fixture, by=org, reason="x", placings=[c.pk, a.pk, d.pk, b.pk])
    standings_recompute(league.pk)
    points = dict(StandingsRow.objects.values_list("entry_id", "points"))
    assert points == {c.pk: 5.0, a.pk: 3.0, d.pk: 1.0, b.pk: 0.0}


@pytest.mark.django_db
def test_open_game_by_count_points_is_placed_by_them():
    org, _, fixture, (a, b, c, d), _ = open_game()
    result = result_enter(
        fixture=fixture,
        by=org,
        reason="time limit",
        count_points={a.pk: 40, b.pk: 120, c.pk: 75, d.pk: 0},
    )
    assert result.placings == [b.pk, c.pk, a.pk, d.pk]
    assert result.winner_id == b.pk
    assert result.count_points[str(b.pk)] == 120


@pytest.mark.django_db
def test_open_count_point_ties_need_the_placings_and_placings_must_agree():
    org, _, fixture, (a, b, c, d), _ = open_game()
    tied = {a.pk: 40, b.pk: 40, c.pk: 75, d.pk: 0}
    with pytest.raises(ServiceError) as exc:
        result_enter(fixture=fixture, by=org, reason="x", count_points=tied)
    assert exc.value.field == "placings"
    with pytest.raises(ServiceError) as exc:
        result_enter(
            fixture=fixture,
            by=org,
            reason="x",
            count_points=tied,
            placings=[a.pk, c.pk, b.pk, d.pk],
        )
    assert exc.value.field == "placings" and "count points" in exc.value.message
    result = result_enter(
        fixture=fixture,
        by=org,
        reason="die roll: b",
        count_points=tied,
        placings=[c.pk, b.pk, a.pk, d.pk],
    )
    assert result.placings == [c.pk, b.pk, a.pk, d.pk]


@pytest.mark.django_db
def test_open_placings_must_name_every_player_once():
    org, _, fixture, (a, b, c, _d), _ = open_game()
    with pytest.raises(ServiceError) as exc:
        result_enter(fixture=fixture, by=org, reason="x", placings=[a.pk, b.pk, c.pk, c.pk])
    assert exc.value.field == "placings"
    with pytest.raises(ServiceError) as exc:
        result_enter(fixture=fixture, by=org, reason="x")
    assert exc.value.field == "placings"


@pytest.mark.django_db
def test_the_hand_form_refuses_one_place_for_two_players():
    from django.core.exceptions import ValidationError

    from tournaments.web.forms import HandResultForm

    _org, _league, fixture, (a, b, c, d), _ = open_game()
    data = {f"place_{e.pk}": place for e, place in zip((a, b, c, d), (1, 1, 3, 4), strict=True)}
    form = HandResultForm(data, fixture=fixture, reason_required=False)
    assert form.is_valid(), form.errors
    with pytest.raises(ValidationError, match="each place to one player only"):
        form.typed()
    good = {**data, f"place_{b.pk}": 2}
    form = HandResultForm(good, fixture=fixture, reason_required=False)
    assert form.is_valid() and form.typed()["placings"] == [a.pk, b.pk, c.pk, d.pk]
