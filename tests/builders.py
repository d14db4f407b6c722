"""Builders of test data with the ORM, shared by every test package (the services are what
the tests exercise, so the data they start from is written directly)."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Max
from django.utils import timezone

from games.engine import simulate_game
from tests.examples import EXAMPLES, LOG_2TPLUS, example, example_bytes, example_text
from tournaments.formats import get_format
from tournaments.models import (
    Cycle,
    Entry,
    Fixture,
    League,
    Player,
    Seat,
    StandingsRow,
    StandingsSnapshot,
)

__all__ = [
    "EXAMPLES",
    "LOG_2TPLUS",
    "PASSWORD",
    "build_league",
    "build_site",
    "example",
    "example_bytes",
    "example_text",
    "make_fixture",
    "make_league",
    "make_player",
    "make_snapshot",
    "make_user",
]

PASSWORD = "pw-for-tests-only"
_counter = itertools.count(1)


def make_user(username: str | None = None, *, staff: bool = False, **extra):
    """A user with the password :data:`PASSWORD` and the address ``<username>@example.org``."""
    username = username or f"user{next(_counter)}"
    extra.setdefault("email", f"{username}@example.org")
    return get_user_model().objects.create_user(
        username=username, password=PASSWORD, is_staff=staff, **extra
    )


def make_player(name: str, user=None, *, shared: bool = True, created_by=None) -> Player:
    """A player; without an account it is ``shared`` unless told otherwise, so any
    organizer may enter it (tests of who may enter whom pass ``shared=False``)."""
    return Player.objects.create(
        name=name,
        slug=name.lower().replace(" ", "-"),
        user=user,
        shared=shared and user is None,
        created_by=created_by,
    )


def make_league(owner, slug: str | None = None, *, format: str = "2T+", **fields) -> League:
    """A running league of ``format`` with that format's board, rules and tie-breaks; the
    name is made from the slug (a fresh ``league-<n>`` if none is given)."""
    fmt = get_format(format)
    slug = slug or f"league-{next(_counter)}"
    values: dict[str, Any] = {
        "name": slug.replace("-", " ").title(),
        "slug": slug,
        "format": format,
        "board": fmt.board,
        "rules_preset": fmt.preset,
        "precedence": list(fmt.default_precedence),
        "status": League.Status.RUNNING,
    }
    values.update(fields)
    return League.objects.create(owner=owner, **values)


def make_fixture(
    league: League,
    seats: list[tuple[Entry | Player, list[str]]],
    starting_colour: str,
    *,
    round: int = 1,
    number: int | None = None,
    **fields,
) -> Fixture:
    """A game of ``league`` (number: the league's next, label ``G<number>``) with ``seats``
    in at-board order; a seat given by a Player gets that player's entry (made if missing)."""
    if number is None:
        number = (league.fixtures.aggregate(n=Max("number"))["n"] or 0) + 1
    fields.setdefault("label", f"G{number}")
    fixture = Fixture.objects.create(
        league=league, round=round, number=number, starting_colour=starting_colour, **fields
    )
    for position, (who, colours) in enumerate(seats):
        entry = (
            Entry.objects.get_or_create(league=league, player=who)[0]
            if isinstance(who, Player)
            else who
        )
        Seat.objects.create(fixture=fixture, entry=entry, position=position, colours=colours)
    return fixture


def make_snapshot(league, entries, *, revision=1, provisional=True, stage="league"):
    """A standings snapshot of ``entries`` in that order: the first won its game, the others
    lost theirs."""
    snap = StandingsSnapshot.objects.create(
        league=league,
        stage=stage,
        results_revision=revision,
        provisional=provisional,
        games_played=1,
        games_total=2,
        precedence=list(league.precedence),
    )
    for i, entry in enumerate(entries):
        StandingsRow.objects.create(
            snapshot=snap,
            entry=entry,
            rank=i + 1,
            position=i + 1,
            played=1,
            wins=1 if i == 0 else 0,
            losses=0 if i == 0 else 1,
            metrics={
                "games_played": 1,
                "wins": 1 - min(i, 1),
                "losses": min(i, 1),
                "won_lost": {
                    "text": f"{1 - min(i, 1)}–{min(i, 1)}",
                    "wins": 1 - min(i, 1),
                    "losses": min(i, 1),
                },
                "head_to_head": None,
                "counted_pawns_difference": 8 - 13 * min(i, 1),
                "completed_colours": 2 - min(i, 1),
            },
            separated_by="",
        )
    return snap


def build_league(owner, erin_user, carol_user, **fields) -> League:
    """A running 2T+ league "spring" with xleague playoffs: erin and carol, one DRR of two
    games (G1 matches the example log valid-league-2tplus.json: erin black + yellow, carol
    green + red, black starts). ``league.test_objects`` holds the entries, games and cycle."""
    values: dict[str, Any] = {
        "name": "Spring League",
        "precedence": [
            "won_lost",
            "head_to_head",
            "counted_pawns_difference",
            "completed_colours",
        ],
        "playoffs": {"kind": "xleague"},
    }
    values.update(fields)
    lg = make_league(owner, values.pop("slug", "spring"), **values)
    erin = Player.objects.create(name="erin", slug="erin", user=erin_user)
    carol = Player.objects.create(name="carol", slug="carol", user=carol_user)
    e_erin = Entry.objects.create(league=lg, player=erin, preferred_colours=["black", "yellow"])
    e_carol = Entry.objects.create(league=lg, player=carol, preferred_colours=["green", "red"])
    cycle = Cycle.objects.create(league=lg, number=1, rolls=[{"erin": 5, "carol": 3}])
    when = timezone.now() + timedelta(days=2)
    g1 = make_fixture(
        lg,
        [(e_erin, ["black", "yellow"]), (e_carol, ["green", "red"])],
        "black",
        cycle=cycle,
        round=1,
        number=1,
        scheduled_at=when,
    )
    g2 = make_fixture(
        lg,
        [(e_carol, ["green", "red"]), (e_erin, ["black", "yellow"])],
        "green",
        cycle=cycle,
        round=2,
        number=2,
    )
    lg.test_objects = {"erin": e_erin, "carol": e_carol, "g1": g1, "g2": g2, "cycle": cycle}
    return lg


def erin_against_carol(*, counts_at_once: bool = False) -> dict[str, Any]:
    """A 2T+ league with one game: erin (black+yellow, first mentioned, so black starts)
    against carol (green+red) — the players of ../shared/examples/valid-league-2tplus.json.
    ``counts_at_once``: the league needs no confirmation. Keys: organizer, erin, carol
    (their users), league, fixture."""
    organizer = make_user("org")
    erin_user, carol_user = make_user("erin_u"), make_user("carol_u")
    erin = make_player("erin", user=erin_user)
    carol = make_player("carol", user=carol_user)
    league = make_league(organizer, format="2T+")
    if counts_at_once:
        League.objects.filter(pk=league.pk).update(confirmation_required=False)
        league.refresh_from_db()
    fixture = make_fixture(
        league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black"
    )
    return {
        "organizer": organizer,
        "erin": erin_user,
        "carol": carol_user,
        "league": league,
        "fixture": fixture,
    }


def result_link_world() -> dict:
    """The scene of the private-result-link tests: erin has no account, carol has one.
    League A: G1 erin v carol (the example log's game), G2 dave v carol. League B (same
    organizer): erin v carol again. erin's entry in A has a live result link."""
    from tournaments.models import Entry
    from tournaments.services.result_links import result_link_create

    organizer = make_user("olga")
    carol_user = make_user("carol_u")
    erin = make_player("erin", created_by=organizer)
    carol = make_player("carol", user=carol_user)
    dave = make_player("dave", created_by=organizer)
    a = make_league(organizer, "league-a", format="2T+")
    b = make_league(organizer, "league-b", format="2T+")
    g1 = make_fixture(a, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black")
    g2 = make_fixture(a, [(dave, ["black", "yellow"]), (carol, ["green", "red"])], "black")
    b1 = make_fixture(b, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black")
    entry = Entry.objects.get(league=a, player=erin)
    link, token = result_link_create(entry=entry, by=organizer)
    return {
        "organizer": organizer,
        "carol": carol_user,
        "a": a,
        "b": b,
        "g1": g1,
        "g2": g2,
        "b1": b1,
        "entry": entry,
        "link": link,
        "token": token,
    }


def build_site(scale: int = 1, *, logs: bool = True) -> dict[str, Any]:
    """A site whose history grows with ``scale``, bulk-created (fast at 5×): the tests of
    bounded answers build it at two sizes and compare queries and bytes.

    - ``big``: a running 2T+ league (organizer ``owner``) of 6 entries and ``scale`` DRRs
      of 5 rounds × 3 games; every game but the last DRR's last round is confirmed (a
      result with ``decided_at``; with ``logs``, a stored log each), a standings snapshot;
    - ``8 + 2 × scale`` finished public 3T leagues (ranking level 1: more than the World
      Rankings' window of 9 at any scale) of 2 of 4 players and one counted game each,
      with a league-stage snapshot (champions);
    - ``6 + 4 × scale`` players, each rated, with a rated game and a change per counted
      seat;
    - ``me``: the account of the big league's first player (their games grow with scale).

    Keys: owner, me (users), big (league), fixture (a counted game of ``big``), scheduled
    (a game still to play), player (``me``'s player), players, leagues (the finished)."""
    import hashlib

    from games.models import GameLog
    from ratings.models import PlayerRating, RatingChange, RatingGame
    from tournaments.models import Result

    tag = next(_counter)
    now = timezone.now()
    owner = make_user(f"site-owner-{tag}")
    me = make_user(f"site-me-{tag}")
    players = Player.objects.bulk_create(
        Player(
            name=f"Site {tag} Player {i:03d}",
            slug=f"site-{tag}-player-{i:03d}",
            user=me if i == 0 else None,
            shared=i != 0,
            created_by=owner if i else None,
        )
        for i in range(6 + 4 * scale)
    )
    big = make_league(owner, f"site-{tag}-big", drr_count=scale, results_revision=scale)
    entries = Entry.objects.bulk_create(Entry(league=big, player=p) for p in players[:6])
    cycles = Cycle.objects.bulk_create(
        Cycle(league=big, number=c + 1, rolls=[]) for c in range(scale)
    )
    rounds, ring = [], list(range(6))  # the circle method: 5 rounds of 3 games
    for _ in range(5):
        rounds.append([(ring[i], ring[5 - i]) for i in range(3)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    fixtures, pairs = [], []
    for cycle in cycles:
        for rnd, games in enumerate(rounds, start=1):
            for n, pair in enumerate(games, start=1):
                open_ = cycle.number == scale and rnd == 5
                fixtures.append(
                    Fixture(
                        league=big,
                        cycle=cycle,
                        round=rnd,
                        number=(rnd - 1) * 3 + n,
                        label=f"G{(rnd - 1) * 3 + n}",
                        starting_colour="black",
                        scheduled_at=now + timedelta(days=rnd - (0 if open_ else 40)),
                        status=Fixture.Status.SCHEDULED if open_ else Fixture.Status.CONFIRMED,
                    )
                )
                pairs.append([entries[pair[0]], entries[pair[1]]])
    leagues = []
    for i in range(8 + 2 * scale):
        lg = make_league(
            owner,
            f"site-{tag}-final-{i:03d}",
            format="3T",
            status=League.Status.FINISHED,
            ranking_level=1,
        )
        a, b = players[6 + (2 * i) % 4], players[6 + (2 * i + 1) % 4]
        pair = Entry.objects.bulk_create([Entry(league=lg, player=a), Entry(league=lg, player=b)])
        fixtures.append(
            Fixture(
                league=lg,
                round=1,
                number=1,
                label="G1",
                starting_colour="black",
                scheduled_at=now - timedelta(days=60),
                status=Fixture.Status.CONFIRMED,
            )
        )
        pairs.append(pair)
        lg.test_entries = pair
        leagues.append(lg)
    fixtures = Fixture.objects.bulk_create(fixtures)
    Seat.objects.bulk_create(
        Seat(fixture=f, entry=e, position=k, colours=[["black", "yellow"], ["green", "red"]][k])
        for f, pair in zip(fixtures, pairs, strict=True)
        for k, e in enumerate(pair)
    )
    counted = [
        (f, pair)
        for f, pair in zip(fixtures, pairs, strict=True)
        if f.status == Fixture.Status.CONFIRMED
    ]
    game_logs: list[Any] = [None] * len(counted)
    if logs:
        text = example_text("valid-league-2tplus.json")
        game_logs = GameLog.objects.bulk_create(
            GameLog(
                sha256=hashlib.sha256(f"{tag}-{f.pk}".encode() + text.encode()).hexdigest(),
                content=text,
                size=len(text),
                board=4,
                rules="league",
                players={},
                first="black",
                complete=True,
                events=10,
                seat_faces={},
                seat_stats={},
            )
            for f, _ in counted
        )
    results = Result.objects.bulk_create(
        Result(
            fixture=f,
            source=Result.Source.LOG if log else Result.Source.REPORT,
            state=Result.State.CONFIRMED,
            game_log=log,
            winner=pair[0],
            placings=[e.pk for e in pair],
            counted_pawns={str(pair[0].pk): 8, str(pair[1].pk): -5},
            completed_colours={str(pair[0].pk): 2, str(pair[1].pk): 0},
            verified=bool(log),
            decided_by=owner,
            decided_at=now - timedelta(days=30, minutes=k),
        )
        for k, ((f, pair), log) in enumerate(zip(counted, game_logs, strict=True))
    )
    rated = RatingGame.objects.bulk_create(
        RatingGame(
            fixture=f,
            result=r,
            places=[[e.player_id, k + 1] for k, e in enumerate(pair)],
            applied=True,
            played_at=r.decided_at,
        )
        for (f, pair), r in zip(counted, results, strict=True)
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            player_id=e.player_id,
            game=g,
            fixture=f,
            sequence=g.pk,
            place=k + 1,
            mu_before=25,
            sigma_before=8,
            mu_after=26 - 2 * k,
            sigma_after=7.5,
            display_before=1000,
            display_after=1010 - 20 * k,
            win_probability=0.5,
            played_at=g.played_at,
        )
        for (f, pair), g in zip(counted, rated, strict=True)
        for k, e in enumerate(pair)
    )
    PlayerRating.objects.bulk_create(
        PlayerRating(
            player=p,
            mu=25 + i % 7,
            sigma=5,
            display=1000 + 10 * (i % 7),
            games=3,
            last_played_at=now - timedelta(days=30),
        )
        for i, p in enumerate(players)
    )
    make_snapshot(big, entries, revision=scale)
    for lg in leagues:
        make_snapshot(lg, lg.test_entries, revision=1, provisional=False)
    return {
        "owner": owner,
        "me": me,
        "big": big,
        "fixture": counted[0][0],
        "scheduled": next(f for f in fixtures if f.status == Fixture.Status.SCHEDULED),
        "player": players[0],
        "players": players,
        "leagues": leagues,
    }


def stopped_open_game(limit: int | None, last_t: float | None):
    """An open tournament's four-player game (time limit ``limit`` minutes, or none) and the
    log of its first 160 events, stopped unfinished, their times rising to ``last_t``
    seconds: (organizer, league, fixture, log text)."""
    organizer = make_user()
    league = make_league(
        organizer, format="open", confirmation_required=False, time_limit_minutes=limit
    )
    names = {"red": "Ria", "black": "Sam", "yellow": "Tom", "green": "Uli"}
    players = {c: make_player(n) for c, n in names.items()}
    fixture = make_fixture(league, [(players[c], [c]) for c in names], "red")
    log = simulate_game(
        rules="classic", players={n: [c] for c, n in names.items()}, first="red", seed=11
    )
    log["events"] = log["events"][:160]
    for i, event in enumerate(log["events"]):
        event["t"] = round((last_t or 0) * (i + 1) / 160, 1)
    return organizer, league, fixture, json.dumps(log)
