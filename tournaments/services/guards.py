"""The checks a service makes before it writes: answers of ``tournaments.permissions``
turned into ``NotAllowed`` (not this user's to do) or ``ServiceError`` (not now), with
the refusal's code and parameters."""

from __future__ import annotations

from tournaments.models import League
from tournaments.permissions import Refusal, ResultActions, is_organizer
from tournaments.services.errors import NotAllowed, ServiceError, coded


def refusal_error(refusal: Refusal) -> ServiceError:
    """A permission refusal as the error a service raises (and a page or the API shows in
    its reader's language): ``NotAllowed`` when forbidden, else ``ServiceError``."""
    cls = NotAllowed if refusal.forbidden else ServiceError
    return coded(refusal.code, cls=cls, **refusal.params)


def require_organizer(user, league: League) -> None:
    if not is_organizer(user, league):
        raise coded("organizers_only", cls=NotAllowed, league=league.name)


def require_action(actions: ResultActions, action: str, *, who_only: bool = False) -> None:
    """Refuse ``action`` as ``actions`` says; with ``who_only`` only a refusal of the user
    (the game's state is checked again later, under the fixture's lock)."""
    refusal = actions.refusal(action)
    if refusal is None:
        return
    if refusal.forbidden or not who_only:
        raise refusal_error(refusal)


def require_no_refusal(refusal: Refusal | None) -> None:
    """Raise the refusal of a ``tournaments.permissions`` check, if any."""
    if refusal is not None:
        raise refusal_error(refusal)
