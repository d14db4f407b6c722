from django.contrib import admin
from django.urls import include, path

from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("tournaments.accounts_urls")),
    path("api/", include("tournaments.api.docs_urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("", include("tournaments.urls")),
]
