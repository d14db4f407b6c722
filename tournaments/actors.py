"""Who acts on a result: an account (a Django user, anonymous included), or the holder of an
entry's private result link (``LinkHolder``).

The results services (``game_log_upload``/``game_log_submit``, ``result_report``,
``result_confirm``, ``result_dispute``, …) take this actor as their ``user`` argument, and
``tournaments.permissions.result_actions`` answers for it: a link holder is the entry's
player at that entry's own games (its seat), in that league only. It is never
authenticated, never staff, never an organizer, so every organizer action, every other
entry's game and every other league stay refused by the same checks as for an anonymous
visitor. What it records is said on the result (``Result.submitted_via`` /
``decided_via``): a link holder is not an account, so ``submitted_by``/``decided_by`` stay
empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import ResultLink


@dataclass(frozen=True)
class LinkHolder:
    """Whoever opened ``link`` (live, checked by ``result_links.link_for_token``): acts as
    ``link.entry``'s player in ``link.entry.league`` and nowhere else."""

    link: ResultLink

    # the attributes the permission checks read from a user: none of an account's rights
    is_authenticated = False
    is_anonymous = True
    is_staff = False
    is_superuser = False
    pk = None
    id = None

    @property
    def entry_id(self) -> int:
        return self.link.entry_id

    @property
    def league_id(self) -> int:
        return self.link.entry.league_id

    def __str__(self) -> str:
        return f"result link of {self.link.entry.player.name}"


def link_holder(actor) -> LinkHolder | None:
    return actor if isinstance(actor, LinkHolder) else None


def account(actor):
    """The account behind ``actor`` to record as who did it, or None (anonymous, link)."""
    return actor if getattr(actor, "is_authenticated", False) else None


def via_link(actor) -> ResultLink | None:
    """The result link ``actor`` acts through, to record on what it did, or None."""
    return actor.link if isinstance(actor, LinkHolder) else None
