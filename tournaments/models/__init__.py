"""Leagues, players, entries, DRR cycles, fixtures (scheduled games), results, playoff
series, standings snapshots and the standings sums kept by the counting transaction.

Business rules live in ``tournaments/services/``; these classes hold data and the database
constraints that keep it consistent under concurrent writes. The ratings' models live in
the ratings app (``ratings/models.py``).
"""

from tournaments.models.entries import Entry, EntryQuerySet
from tournaments.models.fixtures import Cycle, CycleSeed, Fixture, OpenRound, Seat, Series
from tournaments.models.invitations import ConfirmedEmail, Invitation, PlayerClaim
from tournaments.models.leagues import League, LeagueRevision, PlayersRevision, SiteRevision
from tournaments.models.mail import MailSent
from tournaments.models.players import Player
from tournaments.models.result_links import ResultLink
from tournaments.models.results import RejectedSubmission, Result, TieBreakRoll
from tournaments.models.standings import StandingsFailure, StandingsRow, StandingsSnapshot
from tournaments.models.standings_sums import (
    StandingsTally,
    StandingsTallyEntry,
    StandingsTallyGame,
    StandingsTallyPair,
)

__all__ = [
    "ConfirmedEmail",
    "Cycle",
    "CycleSeed",
    "Entry",
    "EntryQuerySet",
    "Fixture",
    "Invitation",
    "League",
    "LeagueRevision",
    "MailSent",
    "OpenRound",
    "Player",
    "PlayerClaim",
    "PlayersRevision",
    "RejectedSubmission",
    "Result",
    "ResultLink",
    "Seat",
    "Series",
    "SiteRevision",
    "StandingsFailure",
    "StandingsRow",
    "StandingsSnapshot",
    "StandingsTally",
    "StandingsTallyEntry",
    "StandingsTallyGame",
    "StandingsTallyPair",
    "TieBreakRoll",
]
