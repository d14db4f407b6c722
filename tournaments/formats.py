"""The competition formats of tournament.md: who sits where, which rules, what is recorded."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.algorithms.standings import (
    LEAGUE_PRECEDENCE,
    OPEN_PRECEDENCE,
)


@dataclass(frozen=True)
class Format:
    code: str
    label: str
    board: int  # default board
    players_per_game: int
    colours_per_player: int
    layout: str  # "side-by-side" | "opposite" | "single"
    preset: str  # default rules preset
    counted_pawns: str  # "best-colour" | "both-colours" | "none"
    default_precedence: tuple[str, ...]

    @property
    def allied(self) -> bool:
        return self.colours_per_player == 2


FORMATS: dict[str, Format] = {
    f.code: f
    for f in (
        Format(
            "2T",
            "Double threat (2T)",
            4,
            2,
            2,
            "side-by-side",
            "league",
            "best-colour",
            LEAGUE_PRECEDENCE,
        ),
        Format(
            "2T+",
            "Double threat XL (2T+)",
            4,
            2,
            2,
            "side-by-side",
            "league-2t+",
            "both-colours",
            LEAGUE_PRECEDENCE,
        ),
        Format(
            "3T",
            "Triple threat (3T)",
            6,
            3,
            2,
            "side-by-side",
            "league",
            "best-colour",
            LEAGUE_PRECEDENCE,
        ),
        Format(
            "3T+",
            "Triple threat XL (3T+)",
            6,
            3,
            2,
            "side-by-side",
            "league-3t+",
            "both-colours",
            LEAGUE_PRECEDENCE,
        ),
        Format("GP", "Grand Prix (GP)", 4, 2, 2, "opposite", "league-gp", "none", ("gp_points",)),
        Format(
            "GP+",
            "Grand Prix plus (GP+)",
            4,
            2,
            2,
            "opposite",
            "league-gp",
            "none",
            ("gp_plus_points",),
        ),
        Format("open", "Open tournament", 4, 4, 1, "single", "classic", "none", OPEN_PRECEDENCE),
    )
}

FORMAT_CHOICES = [(f.code, f.label) for f in FORMATS.values()]


def get_format(code: str) -> Format:
    try:
        return FORMATS[code]
    except KeyError:
        known = ", ".join(FORMATS)
        raise ValueError(f"unknown format {code!r}; the formats are {known}") from None
