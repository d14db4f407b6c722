"""The notifications moved out of the accounts app onto the tables it made: a database
migrated before the move keeps every notice and switch (nothing copied, no table renamed),
the models' content types follow them, and going back restores the old state."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrations import migration

BEFORE = [("accounts", "0007_notification_kinds"), ("notifications", None)]


@pytest.mark.django_db(transaction=True)
def test_an_existing_database_keeps_its_notices_across_the_move():
    user = get_user_model().objects.create_user("mover", "mover@example.org", "x" * 12)
    with migration("accounts", "0007_notification_kinds", "0008_notifications_moved_out") as m:
        MigrationExecutor(connection).migrate(BEFORE)  # the notifications app not there yet
        note = m.old.get_model("accounts", "Notification").objects.create(
            user_id=user.pk, kind="result_awaiting", key="result_awaiting:1:", subject="s", body="b"
        )
        m.old.get_model("accounts", "NotificationPreference").objects.create(
            user_id=user.pk, kind="game_overdue", email=False
        )
        assert ContentType.objects.filter(app_label="accounts", model="notification").exists()
        new = m.run()
        with pytest.raises(LookupError):
            new.get_model("accounts", "Notification")
        moved = new.get_model("notifications", "Notification").objects.get()
        assert (moved.pk, moved.user_id, moved.key) == (note.pk, user.pk, "result_awaiting:1:")
        switch = new.get_model("notifications", "NotificationPreference").objects.get()
        assert (switch.kind, switch.email, switch.inbox) == ("game_overdue", False, True)
        labels = set(
            ContentType.objects.filter(
                model__in=("notification", "notificationpreference")
            ).values_list("app_label", flat=True)
        )
        assert labels == {"notifications"}
    from notifications.models import Notification

    assert Notification._meta.db_table == "accounts_notification"
    assert Notification.objects.get().pk == note.pk
