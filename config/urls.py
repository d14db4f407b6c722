from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from accounts.views import admin_login, set_language
from config.health import healthz


def favicon(request):
    """Browsers and feed readers ask /favicon.ico on their own (pages link the SVG icon)."""
    return redirect(static("favicon.svg"), permanent=True)


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/login/", admin_login, name="admin-login-throttled"),
    path("admin/", admin.site.urls),
    # Switching the language changes a cookie (and a logged-in account's language, a
    # harmless preference), so it needs no CSRF token; that keeps anonymous pages free of
    # per-visitor tokens, so they can be cached whole.
    path("i18n/setlang/", set_language, name="set_language"),
    path("accounts/notifications/", include("notifications.urls")),
    path("accounts/", include("accounts.urls")),
    path("api/", include("tournaments.api.docs_urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("live/", include("live.urls")),
    path("", include("tournaments.web.urls")),
]
