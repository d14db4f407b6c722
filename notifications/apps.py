"""The notifications app: who is told of which tournament event, the inbox, e-mail sent
once (or in a daily digest), each user's switches and the one-click unsubscribe."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from notifications import tasks  # noqa: F401, PLC0415 (registers notifications.notify with Celery; loads models: only in ready())
