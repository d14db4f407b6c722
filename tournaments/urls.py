from django.urls import include, path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("leagues/<slug:slug>/schedule/", views.league_schedule, name="schedule"),
    path("leagues/<slug:slug>/standings/", views.league_standings, name="standings"),
    path(
        "leagues/<slug:slug>/standings/table/",
        views.standings_fragment,
        name="standings-fragment",
    ),
    path("leagues/<slug:slug>/playoffs/", views.league_playoffs, name="playoffs"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/<int:pk>/submit/", views.game_submit, name="game-submit"),
    path(
        "games/<int:pk>/results/<int:result_id>/confirm/",
        views.result_confirm,
        name="result-confirm",
    ),
    path(
        "games/<int:pk>/results/<int:result_id>/dispute/",
        views.result_dispute,
        name="result-dispute",
    ),
    path(
        "games/<int:pk>/results/<int:result_id>/resolve/",
        views.result_resolve,
        name="result-resolve",
    ),
    path("games/<int:pk>/logs/<int:log_id>.json", views.game_log_raw, name="game-log"),
    path("games/<int:pk>/logs/<int:log_id>/replay.json", views.game_replay, name="game-replay"),
    path("players/<slug:slug>/", views.player_detail, name="player"),
    path("replay/", include("games.urls")),
]
