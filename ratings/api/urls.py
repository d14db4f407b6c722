"""The ratings' API routes, included by ``tournaments/api/urls.py`` inside the namespace
``api`` (the names and paths they have always had)."""

from django.urls import path

from ratings.api import ratings

urlpatterns = [
    path(
        "players/<slug:slug>/ratings/",
        ratings.PlayerRatingHistoryView.as_view(),
        name="player-ratings",
    ),
    # ratings and rankings
    path("ratings/", ratings.RatingListView.as_view(), name="rating-list"),
    path("ratings.csv", ratings.RatingCsvView.as_view(), name="ratings-csv"),
    path("rankings/", ratings.RankingsView.as_view(), name="rankings"),
    path("rankings.csv", ratings.RankingsCsvView.as_view(), name="rankings-csv"),
    path(
        "leagues/<slug:slug>/ranking/", ratings.LeagueRankingView.as_view(), name="league-ranking"
    ),
    path(
        "fixtures/<int:pk>/prediction/",
        ratings.FixturePredictionView.as_view(),
        name="fixture-prediction",
    ),
]
