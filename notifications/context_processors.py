"""The header's unread-notification count: at most one query per request (a signed-in
visitor's, and only when a template shows it), none for an anonymous one."""

from __future__ import annotations

from functools import partial

from notifications.services import unread_count


def _unread(request) -> int:
    """The count, asked once per request however many templates the request renders
    (a page and the fragments it renders with ``request``)."""
    try:
        return request._unread_notifications
    except AttributeError:
        request._unread_notifications = unread_count(request.user)
        return request._unread_notifications


def unread_known(request, count: int) -> None:
    """The count, read by the caller with its own statement (a stored page's stamp asks
    for it in the same query): the header then shows it without asking again."""
    request._unread_notifications = count


def notifications(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # a callable: the template calls it where it shows the count, so a page that does not
    # (a fragment, a mail) costs nothing
    return {"unread_notifications": partial(_unread, request)}
