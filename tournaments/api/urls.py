"""API v1 routes, mounted at /api/v1/ by config/urls.py."""

from django.urls import include, path, re_path

from accounts import api as accounts
from tournaments.api import (
    analyses,
    base,
    cycles,
    entries,
    events,
    exports,
    fixtures,
    leagues,
    players,
    playoffs,
    results,
    standings,
)

app_name = "api"

urlpatterns = [
    # accounts
    path("auth/token/", accounts.AuthTokenView.as_view(), name="auth-token"),
    path("me/", accounts.MeView.as_view(), name="me"),
    # players
    path("players/", players.PlayerListView.as_view(), name="player-list"),
    path("players/<slug:slug>/", players.PlayerDetailView.as_view(), name="player-detail"),
    path("players/<slug:slug>/shared/", players.PlayerSharedView.as_view(), name="player-shared"),
    path(
        "players/<slug:slug>/schedule.ics",
        exports.PlayerScheduleView.as_view(),
        name="player-schedule",
    ),
    # ratings and rankings (the ratings app), with a league's ranking and a game's prediction
    path("", include("ratings.api.urls")),
    # leagues
    path("leagues/", leagues.LeagueListView.as_view(), name="league-list"),
    path("leagues/<slug:slug>/", leagues.LeagueDetailView.as_view(), name="league-detail"),
    path("leagues/<slug:slug>/status/", leagues.LeagueStatusView.as_view(), name="league-status"),
    path(
        "leagues/<slug:slug>/organizers/",
        leagues.LeagueOrganizerView.as_view(),
        name="league-organizers",
    ),
    path("leagues/<slug:slug>/entries/", entries.EntryListView.as_view(), name="entry-list"),
    path(
        "leagues/<slug:slug>/entries/<int:entry_id>/",
        entries.EntryDetailView.as_view(),
        name="entry-detail",
    ),
    path(
        "leagues/<slug:slug>/entries/<int:entry_id>/withdraw/",
        entries.EntryWithdrawView.as_view(),
        name="entry-withdraw",
    ),
    path("leagues/<slug:slug>/cycles/", cycles.CycleListView.as_view(), name="cycle-list"),
    path(
        "leagues/<slug:slug>/cycles/<int:number>/",
        cycles.CycleDetailView.as_view(),
        name="cycle-detail",
    ),
    path(
        "leagues/<slug:slug>/cycles/<int:number>/late-order/",
        cycles.CycleLateOrderView.as_view(),
        name="cycle-late-order",
    ),
    path("leagues/<slug:slug>/playoffs/", playoffs.PlayoffsView.as_view(), name="playoffs"),
    # events and formats
    path(
        "leagues/<slug:slug>/event/schedule/",
        events.EventScheduleView.as_view(),
        name="event-schedule",
    ),
    path("leagues/<slug:slug>/grand-prix/", events.GrandPrixView.as_view(), name="grand-prix"),
    path(
        "leagues/<slug:slug>/grand-prix/extra-game/",
        events.GrandPrixExtraGameView.as_view(),
        name="grand-prix-extra-game",
    ),
    path(
        "leagues/<slug:slug>/open-rounds/", events.OpenRoundListView.as_view(), name="open-rounds"
    ),
    path(
        "leagues/<slug:slug>/open-rounds/final/",
        events.OpenFinalTableView.as_view(),
        name="open-final-table",
    ),
    path(
        "leagues/<slug:slug>/final-ranking/",
        events.OpenFinalRankingView.as_view(),
        name="open-final-ranking",
    ),
    path(
        "leagues/<slug:slug>/tie-break-rolls/",
        events.TieBreakRollListView.as_view(),
        name="tie-break-rolls",
    ),
    path("leagues/<slug:slug>/series/", playoffs.SeriesListView.as_view(), name="series-list"),
    path("leagues/<slug:slug>/standings/", standings.StandingsView.as_view(), name="standings"),
    # exports
    path(
        "leagues/<slug:slug>/standings.csv",
        exports.StandingsCsvView.as_view(),
        name="standings-csv",
    ),
    path(
        "leagues/<slug:slug>/schedule.ics",
        exports.LeagueScheduleView.as_view(),
        name="league-schedule",
    ),
    path(
        "leagues/<slug:slug>/archive.json",
        exports.LeagueArchiveView.as_view(),
        name="league-archive",
    ),
    # playoffs
    path("series/<int:pk>/", playoffs.SeriesDetailView.as_view(), name="series-detail"),
    # games and results
    path("fixtures/", fixtures.FixtureListView.as_view(), name="fixture-list"),
    path("fixtures/<int:pk>/", fixtures.FixtureDetailView.as_view(), name="fixture-detail"),
    path("fixtures/<int:pk>/log/", fixtures.FixtureLogView.as_view(), name="fixture-log"),
    path(
        "fixtures/<int:pk>/analysis/",
        analyses.FixtureAnalysisView.as_view(),
        name="fixture-analysis",
    ),
    path(
        "fixtures/<int:pk>/analysis/retry/",
        analyses.FixtureAnalysisRetryView.as_view(),
        name="fixture-analysis-retry",
    ),
    path("fixtures/<int:pk>/report/", fixtures.FixtureReportView.as_view(), name="fixture-report"),
    path("fixtures/<int:pk>/result/", fixtures.FixtureResultView.as_view(), name="fixture-result"),
    path(
        "fixtures/<int:pk>/forfeit/", fixtures.FixtureForfeitView.as_view(), name="fixture-forfeit"
    ),
    path("fixtures/<int:pk>/void/", fixtures.FixtureVoidView.as_view(), name="fixture-void"),
    path(
        "fixtures/<int:pk>/tie-roll/", events.FixtureTieRollView.as_view(), name="fixture-tie-roll"
    ),
    path("fixtures/<int:pk>/start/", events.FixtureStartView.as_view(), name="fixture-start"),
    path(
        "fixtures/<int:pk>/results/", fixtures.FixtureResultsView.as_view(), name="fixture-results"
    ),
    path(
        "fixtures/<int:pk>/rejections/",
        fixtures.FixtureRejectionsView.as_view(),
        name="fixture-rejections",
    ),
    path("results/<int:pk>/", results.ResultDetailView.as_view(), name="result-detail"),
    path("results/<int:pk>/log/", results.ResultLogView.as_view(), name="result-log"),
    path("results/<int:pk>/confirm/", results.ResultConfirmView.as_view(), name="result-confirm"),
    path("results/<int:pk>/dispute/", results.ResultDisputeView.as_view(), name="result-dispute"),
    path("results/<int:pk>/resolve/", results.ResultResolveView.as_view(), name="result-resolve"),
    # Anything else under /api/v1/: a JSON 404 in the API's error format (not the site's page).
    re_path(r"^", base.endpoint_not_found, name="not-found"),
]
