"""The site's URLs plus answers marked shareable (``public, s-maxage=30``), one of them
setting a cookie, each with a body no other answer has: what nginx stores shows as the same
body twice (tests/foundation/test_nginx_cache.py); and one stored for a second with a fixed
ETag, answered 304 when asked with it: nginx's revalidation of an expired copy."""

import uuid

from django.http import HttpResponse, HttpResponseNotModified
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


EXPIRING_ETAG = '"expiring-1"'


def expiring(request):
    if request.headers.get("If-None-Match") == EXPIRING_ETAG:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(uuid.uuid4().hex)
    response["ETag"] = EXPIRING_ETAG
    response["Cache-Control"] = "public, max-age=0, s-maxage=1"
    return response


urlpatterns = [
    path("nginx-test/expiring/", expiring),
    path("nginx-test/public/", public),
    path("nginx-test/public-with-cookie/", public_with_cookie),
    *site,
]
