"""Account pages, mounted at /accounts/: sign up, log in and out, password change and reset
(e-mail), the API token page. The URL names are Django's own (``login``, ``logout``,
``password_reset``, … as in ``django.contrib.auth.urls``, not namespaced, so that Django's
views, the admin and base.html find them) plus ``signup`` and ``api_token``. The
notification pages under /accounts/notifications/ are the notifications app's
(``notifications/urls.py``)."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views as accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
    path("login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path(
        "logout/",
        auth_views.LogoutView.as_view(template_name="registration/logged_out.html"),
        name="logout",
    ),
    path(
        "password/change/",
        accounts.TokenRevokingPasswordChangeView.as_view(
            template_name="registration/password_change_form.html",
            success_url=reverse_lazy("password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="registration/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        accounts.ThrottledPasswordResetView.as_view(
            template_name="registration/password_reset_form.html",
            email_template_name="registration/password_reset_email.txt",
            subject_template_name="registration/password_reset_subject.txt",
            success_url=reverse_lazy("password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="registration/password_reset_done.html"
        ),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        accounts.TokenRevokingPasswordResetConfirmView.as_view(
            template_name="registration/password_reset_confirm.html",
            success_url=reverse_lazy("password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="registration/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("token/", accounts.api_token, name="api_token"),
]
