"""URLs of live play's pages."""

from django.urls import path

from live import views

app_name = "live"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("fixture/<int:pk>/", views.fixture_room, name="fixture-room"),
    path("<str:token>/", views.room_page, name="room"),
    path("<str:token>/log.json", views.room_log, name="log"),
    path("<str:token>/replay/", views.room_replay, name="replay"),
    path("<str:token>/replay.json", views.room_replay_json, name="replay-json"),
    path("<str:token>/no-show/", views.no_show, name="no-show"),
]
