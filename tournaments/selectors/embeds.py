"""What the embeds show, as plain data: a public league's standings, bracket and schedule,
read by the embed pages' templates and served as the public JSON (docs/api.md, "Embeds").
Only public leagues: an embed is for anyone's site."""

from __future__ import annotations

from typing import Any

from tournaments.models import League
from tournaments.selectors import playoffs as playoff_selectors
from tournaments.selectors import schedule as schedule_selectors
from tournaments.selectors import standings as standings_selectors

#: the version of the embed JSON's shape (a new field is added without a new version)
EMBED_VERSION = 1


def public_league(slug: str) -> League | None:
    return League.objects.filter(slug=slug, is_public=True).first()


def _league(league: League, base_url: str) -> dict[str, Any]:
    return {
        "slug": league.slug,
        "name": league.name,
        "format": league.format,
        "status": league.status,
        "url": f"{base_url}/leagues/{league.slug}/",
    }


def standings_data(league: League, base_url: str) -> dict[str, Any]:
    tables = []
    for snap in standings_selectors.standings_tables(league):
        tables.append(
            {
                "stage": snap.stage,
                "provisional": snap.provisional,
                "computed_at": snap.computed_at.isoformat(),
                "games_played": snap.games_played,
                "games_total": snap.games_total,
                "metrics": snap.metric_keys,
                "rows": [
                    {
                        "rank": row.rank,
                        "player": row.entry.player.name,
                        "player_url": f"{base_url}/players/{row.entry.player.slug}/",
                        "played": row.played,
                        "wins": row.wins,
                        "losses": row.losses,
                        "points": row.points,
                        "metrics": {k: (row.metrics or {}).get(k) for k in snap.metric_keys},
                    }
                    for row in snap.rows.all()
                ],
            }
        )
    return {"version": EMBED_VERSION, "league": _league(league, base_url), "tables": tables}


def _seat(seat, base_url: str) -> dict[str, Any]:
    return {
        "player": seat.entry.player.name,
        "player_url": f"{base_url}/players/{seat.entry.player.slug}/",
        "colours": list(seat.colours),
    }


def _winner_name(fixture) -> str | None:
    """The name of the counted result's winner (``confirmed_results`` prefetched)."""
    result = fixture.confirmed_results[0] if getattr(fixture, "confirmed_results", None) else None
    return result.winner.player.name if result and result.winner else None


def _fixture(fixture, base_url: str) -> dict[str, Any]:
    return {
        "id": fixture.pk,
        "label": fixture.label or str(fixture.number),
        "round": fixture.round,
        "url": f"{base_url}/games/{fixture.pk}/",
        "scheduled_at": fixture.scheduled_at.isoformat() if fixture.scheduled_at else None,
        "status": fixture.status,
        "starting_colour": fixture.starting_colour or None,
        "seats": [_seat(s, base_url) for s in fixture.seats.all()],
        "winner": _winner_name(fixture),
    }


def schedule_data(league: League, base_url: str) -> dict[str, Any]:
    blocks = []
    for block in schedule_selectors.current_schedule(league):
        blocks.append(
            {
                "kind": block.title_kind,
                "number": block.number,
                "name": block.name,
                "rounds": [
                    {
                        "number": rnd.number,
                        "games": [_fixture(f, base_url) for f in rnd.fixtures],
                        "byes": [p.name for p in rnd.byes],
                    }
                    for rnd in block.rounds
                ],
            }
        )
    return {"version": EMBED_VERSION, "league": _league(league, base_url), "blocks": blocks}


def _name(entry) -> str | None:
    """An entry's player's name (none for an empty place)."""
    return entry.player.name if entry else None


def _series(view, base_url: str) -> dict[str, Any]:
    """One playoff series: its players with seeds and scores, its winner and games."""
    s = view.series
    return {
        "name": s.name,
        "slot": s.slot,
        "status": s.status,
        "first_to": s.first_to,
        "head_start": view.head_start,
        "higher": {"seed": s.higher_seed, "player": _name(s.higher), "score": view.higher_score},
        "lower": {"seed": s.lower_seed, "player": _name(s.lower), "score": view.lower_score},
        "winner": _name(s.winner),
        "games": [f"{base_url}/games/{g.pk}/" for g in view.games],
    }


def bracket_data(league: League, base_url: str) -> dict[str, Any]:
    rounds = [
        {"round": number, "series": [_series(view, base_url) for view in views]}
        for number, views in playoff_selectors.playoffs(league)
    ]
    return {"version": EMBED_VERSION, "league": _league(league, base_url), "rounds": rounds}
