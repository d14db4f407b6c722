"""The accounts app: sign-up, log-in with its throttles, password reset, API tokens."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from accounts.signals import username_key_keep

        post_save.connect(
            username_key_keep, sender=get_user_model(), dispatch_uid="accounts.username_key"
        )
