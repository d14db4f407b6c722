"""The site's URLs plus what the integrator mounts for this work (accounts at /accounts/,
the schema and docs at /api/): tests run against this URLconf until config/urls.py has
them, and against the same routes after."""

from django.urls import include, path

from config.urls import urlpatterns as site_urlpatterns


def _mounted(prefix: str) -> bool:
    return any(str(pattern.pattern) == prefix for pattern in site_urlpatterns)


urlpatterns = [
    *([] if _mounted("accounts/") else [path("accounts/", include("accounts.urls"))]),
    *([] if _mounted("api/") else [path("api/", include("tournaments.api.docs_urls"))]),
    *site_urlpatterns,
]
