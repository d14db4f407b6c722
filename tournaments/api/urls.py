"""API v1 routes, mounted at /api/v1/ by config/urls.py."""

from django.urls import path, re_path

from tournaments.api import views

app_name = "api"

urlpatterns = [
    # accounts
    path("auth/token/", views.AuthTokenView.as_view(), name="auth-token"),
    path("me/", views.MeView.as_view(), name="me"),
    # players
    path("players/", views.PlayerListView.as_view(), name="player-list"),
    path("players/<slug:slug>/", views.PlayerDetailView.as_view(), name="player-detail"),
    path(
        "players/<slug:slug>/schedule.ics",
        views.PlayerScheduleView.as_view(),
        name="player-schedule",
    ),
    # leagues
    path("leagues/", views.LeagueListView.as_view(), name="league-list"),
    path("leagues/<slug:slug>/", views.LeagueDetailView.as_view(), name="league-detail"),
    path("leagues/<slug:slug>/status/", views.LeagueStatusView.as_view(), name="league-status"),
    path(
        "leagues/<slug:slug>/organizers/",
        views.LeagueOrganizerView.as_view(),
        name="league-organizers",
    ),
    path("leagues/<slug:slug>/entries/", views.EntryListView.as_view(), name="entry-list"),
    path(
        "leagues/<slug:slug>/entries/<int:entry_id>/",
        views.EntryDetailView.as_view(),
        name="entry-detail",
    ),
    path(
        "leagues/<slug:slug>/entries/<int:entry_id>/withdraw/",
        views.EntryWithdrawView.as_view(),
        name="entry-withdraw",
    ),
    path("leagues/<slug:slug>/cycles/", views.CycleListView.as_view(), name="cycle-list"),
    path(
        "leagues/<slug:slug>/cycles/<int:number>/",
        views.CycleDetailView.as_view(),
        name="cycle-detail",
    ),
    path(
        "leagues/<slug:slug>/cycles/<int:number>/late-order/",
        views.CycleLateOrderView.as_view(),
        name="cycle-late-order",
    ),
    path("leagues/<slug:slug>/playoffs/", views.PlayoffsView.as_view(), name="playoffs"),
    path("leagues/<slug:slug>/series/", views.SeriesListView.as_view(), name="series-list"),
    path("leagues/<slug:slug>/standings/", views.StandingsView.as_view(), name="standings"),
    # exports
    path(
        "leagues/<slug:slug>/standings.csv",
        views.StandingsCsvView.as_view(),
        name="standings-csv",
    ),
    path(
        "leagues/<slug:slug>/schedule.ics",
        views.LeagueScheduleView.as_view(),
        name="league-schedule",
    ),
    path(
        "leagues/<slug:slug>/archive.json",
        views.LeagueArchiveView.as_view(),
        name="league-archive",
    ),
    # playoffs
    path("series/<int:pk>/", views.SeriesDetailView.as_view(), name="series-detail"),
    # games and results
    path("fixtures/", views.FixtureListView.as_view(), name="fixture-list"),
    path("fixtures/<int:pk>/", views.FixtureDetailView.as_view(), name="fixture-detail"),
    path("fixtures/<int:pk>/log/", views.FixtureLogView.as_view(), name="fixture-log"),
    path("fixtures/<int:pk>/report/", views.FixtureReportView.as_view(), name="fixture-report"),
    path("fixtures/<int:pk>/result/", views.FixtureResultView.as_view(), name="fixture-result"),
    path("fixtures/<int:pk>/forfeit/", views.FixtureForfeitView.as_view(), name="fixture-forfeit"),
    path("fixtures/<int:pk>/void/", views.FixtureVoidView.as_view(), name="fixture-void"),
    path("fixtures/<int:pk>/results/", views.FixtureResultsView.as_view(), name="fixture-results"),
    path(
        "fixtures/<int:pk>/rejections/",
        views.FixtureRejectionsView.as_view(),
        name="fixture-rejections",
    ),
    path("results/<int:pk>/", views.ResultDetailView.as_view(), name="result-detail"),
    path("results/<int:pk>/log/", views.ResultLogView.as_view(), name="result-log"),
    path("results/<int:pk>/confirm/", views.ResultConfirmView.as_view(), name="result-confirm"),
    path("results/<int:pk>/dispute/", views.ResultDisputeView.as_view(), name="result-dispute"),
    path("results/<int:pk>/resolve/", views.ResultResolveView.as_view(), name="result-resolve"),
    # Anything else under /api/v1/: a JSON 404 in the API's error format (not the site's page).
    re_path(r"^", views.endpoint_not_found, name="not-found"),
]
