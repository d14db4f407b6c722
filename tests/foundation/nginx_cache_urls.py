"""The site's URLs plus two answers marked shareable (``public, s-maxage=30``), one of them
setting a cookie, each with a body no other answer has: what nginx stores shows as the same
body twice (tests/foundation/test_nginx_cache.py)."""

import uuid

from django.http import HttpResponse
from django.urls import path

from config.urls import urlpatterns as site


def public(request):
    response = HttpResponse(uuid.uuid4().hex)
    response["Cache-Control"] = "public, max-age=0, s-maxage=30"
    return response


def public_with_cookie(request):
    response = public(request)
    response.set_cookie("visitor", uuid.uuid4().hex)
    return response


urlpatterns = [
    path("nginx-test/public/", public),
    path("nginx-test/public-with-cookie/", public_with_cookie),
    *site,
]
