"""WebSocket routes of live play."""

from django.urls import path

from live.consumers import RoomConsumer

websocket_urlpatterns = [path("ws/live/<str:token>/", RoomConsumer.as_asgi())]
