"""Asking for a notification: the services name an event (kind, object id, stamp) and, on
commit, queue the notifications app's task ``notifications.notify`` by name (tournaments
never imports notifications, the layer above); that task works out the recipients and sends
each message once."""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction

from tournaments.services.broker import broker_paused, publish_failed

logger = logging.getLogger(__name__)

NOTIFY_TASK = "notifications.notify"

#: the events (``notifications.models.Kind`` has the same codes)
RESULT_AWAITING = "result_awaiting"  # a Result is pending: its opponent(s)
DISPUTE_OPENED = "dispute_opened"  # a Result was disputed: the league's organizers
DECISION_MADE = "decision_made"  # a Result was decided (stamp: how): the game's players
SCHEDULE_CHANGED = "schedule_changed"  # a League's schedule (stamp: what): its entrants
STANDINGS_FAILED = "standings_failed"  # a League's recompute failed (stamp: revision): organizers
ENTRY_INVITED = "entry_invited"  # an Entry of an account holder awaits acceptance: them
JOIN_REQUESTED = "join_requested"  # an Entry was requested: the league's organizers
JOIN_DECIDED = "join_decided"  # a League (stamp: "user id:approved|refused"): that user
CLAIM_OPENED = "claim_opened"  # a PlayerClaim is open: who may vouch for the player
CLAIM_DECIDED = "claim_decided"  # a PlayerClaim was decided (stamp: its state): the claimer
#: a ResultLink was revoked because its player now has an account: the league's organizers
RESULT_LINK_REVOKED = "result_link_revoked"
#: a League (stamp: "player id:entry id" of the entry, gone): the league's organizers
INVITATION_DECLINED = "invitation_declined"
#: not a notice: what the notices of (stamp kind, object) asked for is done; their inbox
#: items stop being new
ACTION_DONE = "action_done"


def done_on_commit(kind: str, object_id: int) -> None:
    """Once committed: the notices of (``kind``, ``object_id``) are dealt with (a result
    confirmed or disputed, an invitation answered, a request or claim decided)."""
    notify_on_commit(ACTION_DONE, object_id, kind)


def notify_on_commit(kind: str, object_id: int, stamp: str = "") -> None:
    """Once the current transaction commits, queue the notification of one event. ``stamp``
    tells apart events of one kind on one object (a result confirmed, then voided); the
    same (kind, object, stamp) is one event, notified at most once per recipient."""
    transaction.on_commit(lambda: notify_enqueue(kind, object_id, stamp))


def notify_enqueue(kind: str, object_id: int, stamp: str = "") -> None:
    """Send the notification task, unless a publish failed a moment ago (each try would
    cost the request another broker timeout; the notification is lost, as with a failed
    publish)."""
    if broker_paused():
        logger.warning("not enqueuing notification %s %s %s: broker down", kind, object_id, stamp)
        return
    try:
        task = current_app.tasks.get(NOTIFY_TASK)  # registered here: honours eager mode
        if task is not None:
            task.apply_async(args=(kind, object_id, stamp), ignore_result=True)
        else:
            current_app.send_task(NOTIFY_TASK, args=(kind, object_id, stamp), ignore_result=True)
    except Exception as exc:  # a broker outage must not fail the write; the message is lost
        publish_failed()
        logger.warning("could not enqueue notification %s %s %s: %r", kind, object_id, stamp, exc)
