"""Accounts: sign up (an account and its player profile), log in with throttling, and the
API token page for bots and scripts. Log out, password change and password reset are
Django's own views (``tournaments/accounts_urls.py``, templates in templates/registration/).
"""

from __future__ import annotations

import math

from django import forms
from django.apps import apps
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from tournaments.api.auth import LOGIN_THROTTLES, token_auth_available
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import player_create


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"), help_text=_("for resetting your password"), required=True
    )
    player_name = forms.CharField(
        label=_("Player name"),
        max_length=100,
        required=False,
        help_text=_("the name shown in leagues and game logs (default: your user name)"),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_player_name(self) -> str:
        return (self.cleaned_data.get("player_name") or "").strip()


def _redirect_target(request: HttpRequest) -> str:
    return getattr(settings, "LOGIN_REDIRECT_URL", "/") or "/"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and its player profile in one step, then log in."""
    if request.user.is_authenticated:
        return redirect(_redirect_target(request))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["player_name"] or form.cleaned_data["username"]
        try:
            with transaction.atomic():
                user = form.save()
                player_create(name=name, user=user)
        except ServiceError as exc:
            form.add_error("player_name" if exc.field == "name" else None, exc.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_redirect_target(request))
    return render(request, "registration/signup.html", {"form": form})


class ThrottledLoginView(LoginView):
    """Django's log-in view, refusing further attempts (HTTP 429) from one address or for
    one user name past the ``login`` / ``login_account`` rates."""

    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        throttles = [throttle() for throttle in LOGIN_THROTTLES]
        refused = [t for t in throttles if not t.allow_request(request, self)]
        if refused:
            # The form is shown again unvalidated: validating it would try the password.
            retry_after = math.ceil(max(t.wait() or 0 for t in refused))
            context = self.get_context_data(
                form=self.get_form(), throttled=True, retry_after=retry_after
            )
            response = self.render_to_response(context, status=429)
            response["Retry-After"] = str(retry_after)
            return response
        return super().post(request, *args, **kwargs)


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """Show the account's API token; POST creates it, or replaces it with a new one."""
    available = token_auth_available()
    token = None
    if available:
        token_model = apps.get_model("authtoken", "Token")
        if request.method == "POST":
            with transaction.atomic():
                token_model.objects.filter(user=request.user).delete()
                token_model.objects.create(user=request.user)
            return redirect("api_token")
        token = token_model.objects.filter(user=request.user).first()
    return render(request, "registration/token.html", {"token": token, "available": available})
