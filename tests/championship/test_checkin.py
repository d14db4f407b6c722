"""Issue 36, check-in: the desk marks players checked in and paid, players check
themselves in with the venue's QR code (signed in or through their private result link),
and once check-in is open only the checked-in are drawn (the others sit the round out)."""

from __future__ import annotations

import pytest

from tests.builders import make_user
from tournaments.actors import LinkHolder
from tournaments.models import Entry
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.open_tournaments import open_round_draw
from tournaments.services.players import player_create
from tournaments.services.result_links import result_link_create
from tournaments.services.results import result_enter


@pytest.fixture
def day(db):
    organizer = make_user("olga")
    anna_user = make_user("anna_u")
    league = league_create(
        owner=organizer,
        name="Open Day",
        format="open",
        games_planned=3,
        points_scheme=[5, 3, 1, 0],
        time_limit_minutes=40,
        confirmation_required=False,
    )
    entries = []
    for i in range(10):
        player = player_create(name=f"Player {i:02d}", shared=True)
        if i == 0:
            player.user = anna_user
            player.save()
        entries.append(entry_add(league=league, player=player, by=organizer))
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(state="accepted")
    return {"org": organizer, "anna": anna_user, "league": league, "entries": entries}


def test_the_desk_checks_in_and_out_and_marks_paid_idempotently(day):
    entry, org = day["entries"][3], day["org"]
    first = champ.entry_check_in(entry=entry, by=org)
    assert first.checked_in_at is not None
    again = champ.entry_check_in(entry=entry, by=org)
    assert again.checked_in_at == first.checked_in_at  # twice keeps the first time
    assert champ.entry_check_in(entry=entry, by=org, checked_in=False).checked_in_at is None
    assert champ.entry_mark_paid(entry=entry, by=org).paid_at is not None
    assert champ.entry_mark_paid(entry=entry, by=org, paid=False).paid_at is None


def test_only_organizers_mark_paid_or_check_others_in(day):
    entry = day["entries"][3]
    with pytest.raises(NotAllowed):
        champ.entry_mark_paid(entry=entry, by=day["anna"])
    champ.checkin_open(league=day["league"], by=day["org"])
    token = champ_reads.venue_token(Entry.objects.get(pk=entry.pk).league)
    with pytest.raises(NotAllowed, match="only yourself"):
        champ.entry_check_in(entry=entry, by=day["anna"], venue_token=token)
    assert Entry.objects.get(pk=entry.pk).checked_in_at is None


def test_a_player_checks_in_with_the_venue_code_while_check_in_is_open(day):
    anna = day["entries"][0]
    with pytest.raises(ServiceError, match="not open"):
        champ.entry_check_in(entry=anna, by=day["anna"], venue_token="x" * 20)
    league = champ.checkin_open(league=day["league"], by=day["org"])
    token = champ_reads.venue_token(league)
    with pytest.raises(NotAllowed, match=r"not .or no longer. valid"):
        champ.entry_check_in(entry=anna, by=day["anna"], venue_token="y" * 20)
    assert champ.entry_check_in(entry=anna, by=day["anna"], venue_token=token).checked_in_at
    with pytest.raises(NotAllowed):  # a player does not check themselves out
        champ.entry_check_in(entry=anna, by=day["anna"], venue_token=token, checked_in=False)
    # opening again makes a new venue code: the old poster stops working
    league = champ.checkin_open(league=league, by=day["org"])
    assert champ_reads.venue_token(league) != token
    other = day["entries"][1]
    link, _ = result_link_create(entry=other, by=day["org"])
    with pytest.raises(NotAllowed):
        champ.entry_check_in(entry=other, by=LinkHolder(link), venue_token=token)
    done = champ.entry_check_in(
        entry=other, by=LinkHolder(link), venue_token=champ_reads.venue_token(league)
    )
    assert done.checked_in_at is not None
    with pytest.raises(NotAllowed):  # a link acts for its own entry only
        champ.entry_check_in(
            entry=anna, by=LinkHolder(link), venue_token=champ_reads.venue_token(league)
        )


def test_check_in_codes_match_exactly(day):
    league, entry = day["league"], day["entries"][4]
    code = champ_reads.checkin_code(entry)
    assert champ_reads.entry_for_code(league, code).pk == entry.pk
    assert champ_reads.entry_for_code(league, f"  {code.lower()} ").pk == entry.pk
    pk, mac = code.split("-")
    wrong = "A" if mac[0] != "A" else "B"
    assert champ_reads.entry_for_code(league, f"{pk}-{wrong}{mac[1:]}") is None
    assert champ_reads.entry_for_code(league, pk) is None
    other = day["entries"][5]
    assert champ_reads.checkin_code(other) != code
    listing = champ_reads.checkin_list(league, code)
    assert [e.pk for e in listing.entries] == [entry.pk] and listing.exact.pk == entry.pk
    assert len(champ_reads.checkin_list(league, "Player 0").entries) == 10
    assert [e.player.name for e in champ_reads.checkin_list(league, "r 07").entries] == [
        "Player 07"
    ]


def _play(league, org, number):
    for fixture in league.fixtures.filter(round=number).prefetch_related("seats"):
        seats = [s.entry_id for s in fixture.seats.all()]
        result_enter(fixture=fixture, by=org, placings=seats, reason="score sheet")


def test_once_check_in_is_open_only_the_checked_in_are_drawn(day):
    league, org, entries = day["league"], day["org"], day["entries"]
    open_round_draw(league=league, by=org, seed=3)  # before check-in: everybody
    assert league.fixtures.filter(round=1).count() == 3  # 10 → 4 + 3 + 3
    _play(league, org, 1)
    champ.checkin_open(league=league, by=org)
    here = entries[:7]
    for entry in here:
        champ.entry_check_in(entry=entry, by=org)
    open_round_draw(league=league, by=org)
    seated = set(league.fixtures.filter(round=2).values_list("seats__entry_id", flat=True))
    assert seated == {e.pk for e in here}  # the three missing sit round 2 out
    _play(league, org, 2)
    champ.entry_check_in(entry=entries[8], by=org)  # arrives late: plays from round 3
    open_round_draw(league=league, by=org)
    seated = set(league.fixtures.filter(round=3).values_list("seats__entry_id", flat=True))
    assert seated == {e.pk for e in here} | {entries[8].pk}
    _play(league, org, 3)
    from tournaments.selectors import open_tournaments as open_reads

    rows = {r.entry: r for r in open_reads.preliminary_rows(league)}
    assert rows[entries[9].pk].values["games_played"] == 1  # round 1 only: no points for 2 and 3
