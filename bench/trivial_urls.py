"""The site's URLs plus ``/bench/trivial/``: ``HttpResponse("ok")`` behind every middleware
(bench/settings_scale.py), what a page costs at the least."""

from django.http import HttpResponse
from django.urls import path

from config.urls import urlpatterns as site

TRIVIAL_PATH = "/bench/trivial/"


def trivial(request):
    return HttpResponse("ok")


urlpatterns = [path(TRIVIAL_PATH.strip("/") + "/", trivial, name="bench-trivial"), *site]
