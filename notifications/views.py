"""Notification pages: the inbox, the settings (each kind's e-mail and inbox switch) and
the one-click unsubscribe of an e-mail's link (a signed token; GET from the link, POST
from a mail client's List-Unsubscribe-Post)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.services import language_of, language_set
from notifications import services as notifications


@login_required
@require_http_methods(["GET", "POST"])
def inbox(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        if "id" in request.POST:  # these ones (none, if none of them is a number)
            ids = [int(i) for i in request.POST.getlist("id") if i.isascii() and i.isdecimal()]
            notifications.mark_read(request.user, ids)
        else:  # "mark all as read"
            notifications.mark_read(request.user, None)
        return redirect("notifications")
    return render(
        request,
        "registration/notifications.html",
        {"items": notifications.inbox(request.user)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    rows = notifications.preferences(request.user)
    if request.method == "POST" and "digest-form" in request.POST:
        notifications.digest_set(request.user, "daily_digest" in request.POST)
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notifications_settings")
    if request.method == "POST" and "language" in request.POST:
        language = request.POST["language"]
        if language in dict(settings.LANGUAGES):
            language_set(request.user, language)
            translation.activate(language)
            messages.success(request, _("Your language is saved; e-mails come in it too."))
            response = redirect("notifications_settings")
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language)
            return response
    if request.method == "POST":
        notifications.preferences_set(
            request.user,
            {
                kind: (f"email-{kind}" in request.POST, f"inbox-{kind}" in request.POST)
                for kind, _label, _e, _i in rows
            },
        )
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notifications_settings")
    return render(
        request,
        "registration/notification_settings.html",
        {
            "rows": rows,
            "account_language": language_of(request.user),
            "daily_digest": notifications.digest_of(request.user),
            "languages": settings.LANGUAGES,
        },
    )


@csrf_exempt  # the signed token is the authority; RFC 8058 one-click POSTs carry no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    done = notifications.unsubscribe(token)
    if done is None:
        return render(request, "registration/unsubscribed.html", {"invalid": True}, status=400)
    _user, kind = done
    return render(request, "registration/unsubscribed.html", {"kind": kind})
