"""Service errors: what cannot be done and why, with a **code** and **parameters**.

A coded error (``coded("entries_closed", league=…)``) keeps its English message (logs, the
API's ``message`` in English) and is shown in the reader's language wherever it is shown
(``localized()``: pages, the API's ``message`` in the request's language with ``reason``
= the code alongside). Its wording lives once, in ``MESSAGES`` (translated in
``locale/``), instead of being matched by regular expressions over English sentences
(``web/error_text.py`` still does that for the engine's upload errors). Errors without a
code keep their English message everywhere."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

#: code → message template (English; ``%(name)s`` parameters), translated when shown
MESSAGES: dict[str, str] = {
    "entries_closed": gettext_noop("%(league)s is %(status)s; entries are closed"),
    "schedule_exists": gettext_noop("the schedule has been generated; entries are closed"),
    "already_entered": gettext_noop("%(player)s is already entered in %(league)s"),
    "invitation_open": gettext_noop(
        "%(names)s has not accepted the invitation yet; a player with an account takes part "
        "only after accepting. Wait for them or remove their entry, then %(then)s."
    ),
    "invitations_open": gettext_noop(
        "%(names)s have not accepted the invitation yet; a player with an account takes "
        "part only after accepting. Wait for them or remove their entry, then %(then)s."
    ),
    "finished_already": gettext_noop("%(league)s has finished already"),
    "not_started": gettext_noop("%(league)s has not started; there is nothing to finish"),
    "games_waiting": gettext_noop(
        "%(n)s game(s) still wait for a result; record, forfeit or void them first"
    ),
    "drrs_unseeded": gettext_noop(
        "%(league)s plays %(total)s DRR(s); %(left)s have not been seeded"
    ),
    "playoffs_undrawn": gettext_noop("the playoffs have not been drawn yet"),
    "series_undecided": gettext_noop("a playoff series has not been decided yet"),
    "event_unscheduled": gettext_noop("the event's games have not been scheduled yet"),
    "rounds_undrawn": gettext_noop("%(done)s of %(total)s preliminary rounds have been drawn"),
    "final_table_unseated": gettext_noop("the final table has not been seated yet"),
    "challengers_players": gettext_noop(
        "a Challengers event is two players; %(league)s has %(count)s"
    ),
    "triple_threat_players": gettext_noop(
        "a triple-threat event is three players; %(league)s has %(count)s"
    ),
    "gp_players": gettext_noop(
        "a Grand Prix on board %(board)s seats 2–%(most)s players; %(league)s has %(count)s"
    ),
    "event_scheduled": gettext_noop("the games of this event have been scheduled already"),
    "drr_needs_players": gettext_noop("a DRR needs at least two players; %(league)s has %(count)s"),
    "all_drrs_generated": gettext_noop(
        "%(league)s plays %(total)s DRR(s); all have been generated"
    ),
    "round_undecided": gettext_noop(
        "%(n)s game(s) of the last round have no counted result yet; the next round is drawn "
        "when they are decided"
    ),
    "final_table_tie": gettext_noop(
        "%(names)s are tied for the last place at the final table; record a tie-break roll "
        "between them first"
    ),
    "needs_three": gettext_noop(
        "%(format)s is played by three at a board: a DRR needs at least three players, not "
        "%(count)s"
    ),
    "all_rounds_drawn": gettext_noop("all %(total)s preliminary rounds are drawn"),
    "all_rounds_drawn_final": gettext_noop(
        "all %(total)s preliminary rounds are drawn; seat the final table next"
    ),
    "setting_fixed": gettext_noop("the schedule has been generated; %(setting)s is fixed now"),
    "setting_bounds": gettext_noop("%(setting)s must be a whole number from %(low)s to %(high)s"),
    "link_none": gettext_noop("%(player)s has no result link to withdraw"),
    "link_withdrawn": gettext_noop("this result link was withdrawn by the organizer"),
}


#: parameters whose values are words of ours (a verb, a status, a setting): translated too
TRANSLATED_PARAMS = ("then", "status", "setting")
#: those words, for the translation catalogue
WORDS = (
    gettext_noop("seed"),
    gettext_noop("schedule"),
    gettext_noop("draw"),
    gettext_noop("running"),
    gettext_noop("playoffs"),
    gettext_noop("finished"),
    gettext_noop("drr count"),
    gettext_noop("game formats"),
    gettext_noop("games planned"),
    gettext_noop("time limit minutes"),
    gettext_noop("final table size"),
    gettext_noop("rules preset"),
    gettext_noop("rules overrides"),
    gettext_noop("precedence"),
    gettext_noop("points scheme"),
)


class ServiceError(Exception):
    """A request that cannot be carried out; the message says what is wrong."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        event: int | None = None,
        code: str | None = None,
        params: dict | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.event = event
        self.code = code
        self.params = dict(params or {})

    def localized(self) -> str:
        """The message in the active language (a coded error), else as it was worded."""
        if self.code in MESSAGES:
            try:
                params = {
                    k: gettext(v) if k in TRANSLATED_PARAMS and isinstance(v, str) else v
                    for k, v in self.params.items()
                }
                return gettext(MESSAGES[self.code]) % params
            except (KeyError, TypeError, ValueError):  # a translation missing a parameter
                return self.message
        return self.message


class NotAllowed(ServiceError):
    """The user may not do this (not an organizer of the league, not at the board, …)."""


def coded(code: str, *, field: str | None = None, cls=ServiceError, **params) -> ServiceError:
    """A ServiceError of one of the ``MESSAGES`` (its English message filled in)."""
    return cls(MESSAGES[code] % params, field=field, code=code, params=params)
