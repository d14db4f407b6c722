"""Account pages: sign up (an account and its player profile), log in with throttling, the
API token page for bots and scripts, and the site's language switch (``set_language``: a
signed-in visitor's choice becomes the account's). Log out, password change and password
reset are Django's own views (``accounts/urls.py``, templates in templates/registration/).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language as django_set_language

from accounts.forms import SignupForm
from accounts.services import account_signup, language_set
from accounts.tokens import api_token_get, api_token_revoke, api_token_rotate, token_auth_available
from core.errors import ServiceError
from core.throttles import (
    LOGIN_THROTTLES,
    PASSWORD_RESET_THROTTLES,
    SIGNUP_THROTTLES,
    refused_for,
    throttled_view,
    too_many_requests,
)
from tournaments.services.entries import invitation_from_token


def _redirect_target(request: HttpRequest) -> str:
    """Where to go after signing up: ``next`` (a path on this site, e.g. back to the
    invitation that sent the person here), else the default."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return getattr(settings, "LOGIN_REDIRECT_URL", "/") or "/"


def _invitation_of(target: str):
    """The open invitation whose page ``target`` (the sign-up's ``next``) is, or None."""

    try:
        match = resolve(urlsplit(target).path)
    except Resolver404:
        return None
    if match.view_name != "tournaments:invitation":
        return None
    try:
        invitation = invitation_from_token(match.kwargs["token"])
    except ServiceError:
        return None
    return invitation if invitation.is_open else None


#: a sign-up refusal's field → the form's field it is shown at (else the whole form)
SIGNUP_FIELDS = {"name": "player_name", "username": "username", "claim": "claim"}


def _signup_throttled(request: HttpRequest) -> HttpResponse | None:
    """HTTP 429 for a sign-up past its address's limits (``signup``, ``signup_day``)."""
    if request.method != "POST":
        return None
    retry_after = refused_for(request, SIGNUP_THROTTLES)
    if retry_after is None:
        return None
    response = too_many_requests(request, retry_after)
    response["Retry-After"] = str(retry_after)
    return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and its player profile in one step, then log in. Sign-ups from
    one client address are limited (``signup``, ``signup_day``: HTTP 429 past them)."""
    if request.user.is_authenticated:
        return redirect(_redirect_target(request))
    throttled = _signup_throttled(request)
    if throttled is not None:
        return throttled
    target = _redirect_target(request)
    invitation = _invitation_of(target)
    form = SignupForm(request.POST or None, initial={"player_name": invitation and invitation.name})
    if invitation is not None and invitation.entry_id:
        # they become the invitation's player on accepting: no name (nor claim) to choose
        del form.fields["player_name"], form.fields["claim"]
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = account_signup(
                username=data["username"],
                email=data["email"],
                password=data["password1"],
                player_name=data.get("player_name", ""),
                claim=data.get("claim", False),
                invitation=invitation,
            )
        except ServiceError as exc:
            form.add_error(SIGNUP_FIELDS.get(exc.field or ""), exc.localized())
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if data.get("claim"):
                messages.info(
                    request,
                    _(
                        "Your account is ready. An organizer confirms that you are "
                        "%(name)s; you are told when they have decided."
                    )
                    % {"name": data["player_name"]},
                )
            return redirect(target)
    return render(
        request,
        "registration/signup.html",
        {
            "form": form,
            "next": request.POST.get("next") or request.GET.get("next", ""),
            "invitation": invitation,
        },
    )


def _throttled_page(request: HttpRequest, retry_after: int) -> HttpResponse:
    return too_many_requests(request, retry_after, offer_reset=True)


class ThrottledLoginView(LoginView):
    """Django's log-in view, refusing further attempts (HTTP 429) from one address, or for
    one user name from one address, past the ``login`` / ``login_account`` rates."""

    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        retry_after = refused_for(request, LOGIN_THROTTLES, self)
        if retry_after is not None:
            # The form is shown again unvalidated: validating it would try the password.
            context = self.get_context_data(
                form=self.get_form(), throttled=True, retry_after=retry_after
            )
            response = self.render_to_response(context, status=429)
            response["Retry-After"] = str(retry_after)
            return response
        return super().post(request, *args, **kwargs)


#: the admin's log-in form under the same limits as the site's
admin_login = throttled_view(LOGIN_THROTTLES, _throttled_page)(admin.site.login)


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's password-reset form, at most ``password_reset`` requests per address and
    ``password_reset_email`` mails per e-mail address."""

    def post(self, request, *args, **kwargs):
        retry_after = refused_for(request, PASSWORD_RESET_THROTTLES, self)
        if retry_after is not None:
            response = _throttled_page(request, retry_after)
            response["Retry-After"] = str(retry_after)
            return response
        return super().post(request, *args, **kwargs)


class TokenRevokingPasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Setting a new password through a reset link also revokes the account's API token:
    whoever knew the old password may have taken the token too."""

    def form_valid(self, form):
        response = super().form_valid(form)
        api_token_revoke(form.user)
        return response


class TokenRevokingPasswordChangeView(auth_views.PasswordChangeView):
    """Changing the password revokes the account's API token (make a new one on the token
    page)."""

    def form_valid(self, form):
        response = super().form_valid(form)
        api_token_revoke(form.user)
        return response


@never_cache  # the page shows a secret: no browser or proxy may keep it
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """Show the account's API token; POST creates it, or replaces it with a new one."""
    available = token_auth_available()
    if available and request.method == "POST":
        api_token_rotate(request.user)
        return redirect("api_token")
    token = api_token_get(request.user)
    return render(request, "registration/token.html", {"token": token, "available": available})


def _set_language(request: HttpRequest) -> HttpResponse:

    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        language_set(request.user, language)
    return response


_set_language_checked = csrf_protect(_set_language)


@csrf_exempt  # checked below for signed-in visitors only
@require_http_methods(["POST"])
def set_language(request: HttpRequest) -> HttpResponse:
    """The site's language switch (Django's ``set_language``); while logged in it also
    becomes the account's language, the one its e-mails are written in.

    A signed-in visitor's switch must carry the CSRF token (the header's form has it):
    otherwise another site could change the account's language, and with it its mails'
    (issue 32). An anonymous visitor's switch only sets their own language cookie and
    needs none, so the public pages render no token and stay cacheable by shared caches
    (``tournaments/web/caching.py``: a page that sets a CSRF cookie is private)."""
    if request.user.is_authenticated:
        return _set_language_checked(request)
    return _set_language(request)
