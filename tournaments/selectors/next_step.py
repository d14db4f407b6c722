"""The organizer's next step in a league, for every event kind: enter players, wait for
invitations, seed the next DRR, schedule an event's games, draw the next open round, seat
the final table, wait for results, draw the playoffs, finish, or nothing (finished).

One function decides it from the league's state, so the manage page and the league page
offer the same, right, step (each is still refused by its service with the reason)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.board import DEFAULT_COLOURS
from tournaments.formats import get_format
from tournaments.models import Entry, Fixture, League
from tournaments.selectors.open_tournaments import final_table_cut_tie

UNDECIDED = (Fixture.Status.SCHEDULED, Fixture.Status.SUBMITTED, Fixture.Status.DISPUTED)
Kind = League.EventKind


@dataclass(frozen=True)
class NextStep:
    """``code``: finished, enter-players, wait-invitations, seed, schedule-event,
    draw-round, tie-break-roll, final-table, play, playoffs, finish. ``action``: the
    league page's POST action that performs it (``leagues.ACTIONS``), ``url``: the page
    where it is done."""

    code: str
    text: str
    action: str = ""
    url: str = ""
    button: str = ""


def players_needed(league: League) -> tuple[int, int | None]:
    """The fewest and most players the league's kind can start with."""
    if league.event_kind in FIXED_PLAYERS:
        return FIXED_PLAYERS[league.event_kind]
    if league.event_kind == Kind.GRAND_PRIX:
        return 2, len(DEFAULT_COLOURS[league.board]) // 2
    return (3 if get_format(league.format).players_per_game == 3 else 2), 64


#: the fewest and most players of the kinds that do not depend on the board or format
FIXED_PLAYERS = {Kind.TRIPLE_THREAT: (3, 3), Kind.CHALLENGERS: (2, 2), Kind.OPEN: (3, None)}


def _players_step(league: League, playing: int) -> NextStep | None:
    low, high = players_needed(league)
    invited = league.entries.filter(state=Entry.State.INVITED, withdrawn_at__isnull=True).count()
    if not _in_range(playing + invited, low, high):
        return NextStep(
            "enter-players",
            _("Enter or invite the players. %(wanted)s Entered so far: %(now)s.")
            % {"wanted": _players_wanted(low, high), "now": playing},
        )
    if league.event_kind == Kind.OPEN and playing == 5:
        return NextStep(
            "enter-players",
            _("Five players cannot be split into tables of 3–4: enter one more, or one fewer."),
        )
    if invited:
        return NextStep(
            "wait-invitations",
            ngettext(
                "%(n)s player has not accepted yet; the games wait for them.",
                "%(n)s players have not accepted yet; the games wait for them.",
                invited,
            )
            % {"n": invited},
        )
    return None


def _in_range(count: int, low: int, high: int | None) -> bool:
    """``count`` is at least ``low`` and at most ``high`` (None: no most)."""
    return low <= count and (high is None or count <= high)


def _players_wanted(low: int, high: int | None) -> str:
    """How many players the event wants, in words."""
    if high == low:
        return ngettext(
            "This event is played by exactly %(n)s player.",
            "This event is played by exactly %(n)s players.",
            low,
        ) % {"n": low}
    return _("At least %(n)s players take part.") % {"n": low}


def _play(league: League, waiting: int, what: str) -> NextStep:
    return NextStep(
        "play",
        ngettext(
            "%(what)s: %(n)s game waits for a result.",
            "%(what)s: %(n)s games wait for a result.",
            waiting,
        )
        % {"what": what, "n": waiting},
        url=reverse("tournaments:desk", args=[league.slug]),
        button=_("The results desk"),
    )


def _finish(league: League) -> NextStep:
    return NextStep(
        "finish",
        _("Every game has its result."),
        url=reverse("tournaments:manage-finish", args=[league.slug]),
        button=_("Finish the league"),
    )


def next_step(league: League) -> NextStep:
    if league.status == League.Status.FINISHED:
        return NextStep("finished", _("The season is over."))
    fixtures = league.fixtures.exclude(status=Fixture.Status.CANCELLED)
    if not fixtures.exists():
        playing = league.entries.playing().count()
        if step := _players_step(league, playing):
            return step
    step = {Kind.LEAGUE: _league_step, Kind.OPEN: _open_step}.get(league.event_kind, _event_step)
    return step(league, fixtures)


def _event_step(league: League, fixtures) -> NextStep:
    """A triple-threat, Challengers or Grand Prix event: schedule, play, finish."""
    if not fixtures.exists():
        return NextStep(
            "schedule-event",
            _("Every player is in: schedule the event's games."),
            action="schedule-event",
            button=_("Schedule the event's games"),
        )
    if waiting := fixtures.filter(status__in=UNDECIDED).count():
        return _play(league, waiting, _("The event is being played"))
    return _finish(league)


def _league_step(league: League, fixtures) -> NextStep:
    cycles = league.cycles.count()
    seed = NextStep(
        "seed",
        _("Seed DRR %(n)s of %(total)s by die roll; its schedule is drawn at once.")
        % {"n": cycles + 1, "total": league.drr_count},
        url=reverse("tournaments:seed", args=[league.slug]),
        button=_("Seed DRR %(n)s") % {"n": cycles + 1},
    )
    if cycles == 0:
        return seed
    regular = fixtures.filter(series__isnull=True)
    if waiting := regular.filter(status__in=UNDECIDED).count():
        return _play(league, waiting, _("DRR %(n)s is being played") % {"n": cycles})
    if cycles < league.drr_count:
        return seed
    return _playoffs_step(league, fixtures)


def _playoffs_step(league: League, fixtures) -> NextStep:
    """After the DRRs: draw the playoffs, play them, finish."""
    if league.playoffs and not league.series.exists():
        return NextStep(
            "playoffs",
            _("The table is settled: draw the playoffs."),
            url=reverse("tournaments:playoffs-setup", args=[league.slug]),
            button=_("Preview and draw the playoffs"),
        )
    if waiting := fixtures.filter(series__isnull=False, status__in=UNDECIDED).count():
        return _play(league, waiting, _("The playoffs are being played"))
    if league.series.filter(winner__isnull=True).exists():
        return NextStep("play", _("A playoff series waits for its next game."))
    return _finish(league)


def _open_step(league: League, fixtures) -> NextStep:
    rounds = league.open_rounds.filter(is_final=False).count()
    final = fixtures.filter(stage=Fixture.Stage.FINAL).exists()
    if waiting := fixtures.filter(status__in=UNDECIDED).count():
        what = _("The final table") if final else _("Round %(n)s") % {"n": rounds}
        return _play(league, waiting, what)
    if rounds < league.games_planned:
        return NextStep(
            "draw-round",
            _("Draw round %(n)s of %(total)s: tables by lot, colours redrawn.")
            % {"n": rounds + 1, "total": league.games_planned},
            action="draw-round",
            button=_("Draw round %(n)s") % {"n": rounds + 1},
        )
    if league.final_table_size and not final:
        return _final_table_step(league)
    return _finish(league)


def _final_table_step(league: League) -> NextStep:
    """Seat the final table, once a tie for its last place is rolled off."""
    if tied := final_table_cut_tie(league):
        return NextStep(
            "tie-break-roll",
            _(
                "%(names)s are tied for the last place at the final table: record a "
                "tie-break roll between them on the league page, then seat the final "
                "table."
            )
            % {"names": ", ".join(tied)},
            url=reverse("tournaments:league", args=[league.slug]) + "#tie-break-roll",
            button=_("Record the tie-break roll"),
        )
    return NextStep(
        "final-table",
        _("The preliminary rounds are over: the best %(n)s play the final table.")
        % {"n": league.final_table_size},
        action="final-table",
        button=_("Seat the final table"),
    )
