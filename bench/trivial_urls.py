"""The site's URLs plus the bench peers: ``/bench/trivial/`` answers ``HttpResponse("ok")``
behind every middleware (bench/settings_scale.py), what a page costs at the least; and
``/bench/trivial-post/``, an API POST behind the same middleware, authentication (token or
session, as every ``/api/v1/`` view) and JSON renderer that only answers 201, what an
authenticated API write costs at the least (bench/standings.py --production)."""

from django.http import HttpResponse
from django.urls import path
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from config.urls import urlpatterns as site
from tournaments.api.base import ApiView

TRIVIAL_PATH = "/bench/trivial/"
TRIVIAL_POST_PATH = "/bench/trivial-post/"


def trivial(request):
    return HttpResponse("ok")


class TrivialPost(ApiView):
    """An authenticated POST that writes nothing: the peer of an upload."""

    permission_classes = [IsAuthenticated]

    def post(self, request):
        return Response({"ok": True}, status=status.HTTP_201_CREATED)


urlpatterns = [
    path(TRIVIAL_PATH.strip("/") + "/", trivial, name="bench-trivial"),
    path(TRIVIAL_POST_PATH.strip("/") + "/", TrivialPost.as_view(), name="bench-trivial-post"),
    *site,
]
