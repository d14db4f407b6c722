"""The accounts app: sign-up, log-in with its throttles, password reset, API tokens."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"
