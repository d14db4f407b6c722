"""Forms of the pages: uploading a game log, confirming, disputing, resolving, and the
results desk's hand entry, void and forfeit."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django import forms
from django.contrib import messages
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.services import MAX_LOG_BYTES
from tournaments.models import Result
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.hand_results import format_kind


class LogUploadForm(forms.Form):
    """A ``maedn-log/1`` log as a file or pasted text (one of the two)."""

    file = forms.FileField(
        label=_("Log file"),
        required=False,
        help_text=format_lazy(
            _("a .json file as your game client saved it (at most {size} MB)"),
            size=f"{MAX_LOG_BYTES / (1024 * 1024):g}",
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    content = forms.CharField(
        label=_("…or paste the log"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "code"}),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        text = data.get("content") or ""
        if upload and text.strip():
            raise forms.ValidationError(_("Upload a file or paste the log, not both."), code="both")
        if not upload and not text.strip():
            raise forms.ValidationError(
                _("Choose a log file or paste the log's text."), code="empty"
            )
        data["log"] = _read_upload(upload) if upload else text
        return data


def _read_upload(upload) -> bytes:
    """An uploaded log's bytes; a file larger than any game log is refused unread."""
    if upload.size > MAX_LOG_BYTES:
        raise forms.ValidationError(
            _("The file is larger than %(size)s MB; a game log is much smaller.")
            % {"size": f"{MAX_LOG_BYTES / (1024 * 1024):g}"},
            code="size",
        )
    return upload.read()


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label=_("What is wrong with this result?"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class ResolveForm(forms.Form):
    accept = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[("1", _("accept: the result counts")), ("0", _("reject: the result is void"))],
        coerce=lambda v: v == "1",
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=_("Note"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


def parse_rolls(rounds: Iterable[str]) -> list[dict[str, int]]:
    """Die rolls typed round by round, each round ``name roll`` pairs separated by commas
    (``Ann 5, Ben 5``), as ``[{name: roll}, …]``; blank rounds and pairs are skipped. The
    tie-break and seeding forms both read their rolls with it.

    A ``ValidationError`` names the round (counting the rounds given) of a pair that is not
    a name and a plain number (ASCII digits only: ``²`` or ``٣`` are no rolls), a roll
    outside 1–6, or a name that rolls twice in one round."""
    parsed: list[dict[str, int]] = []
    for text in rounds:
        pairs = [pair.strip() for pair in text.split(",") if pair.strip()]
        if pairs:
            parsed.append(_parse_round(pairs, number=len(parsed) + 1))
    return parsed


def _roll_error(message, number: int, **params) -> forms.ValidationError:
    return forms.ValidationError(message, code="rolls", params={"n": number, **params})


def _parse_round(pairs: list[str], number: int) -> dict[str, int]:
    """One round's ``name roll`` pairs: each name once, each roll a die's."""
    round_: dict[str, int] = {}
    seen: set[str] = set()
    for pair in pairs:
        name, roll = _parse_roll(pair, number)
        if name.casefold() in seen:
            raise _roll_error(_("round %(n)s: %(name)s rolls once per round"), number, name=name)
        seen.add(name.casefold())
        round_[name] = roll
    return round_


def _parse_roll(pair: str, number: int) -> tuple[str, int]:
    """A name and a roll of 1 to 6 in plain ASCII digits."""
    bits = pair.rsplit(None, 1)
    if len(bits) != 2 or not (bits[1].isascii() and bits[1].isdigit()):
        raise _roll_error(
            _("round %(n)s: write each roll as a name and a number, e.g. Ann 5"), number
        )
    name, roll = bits[0].strip(), int(bits[1])
    if not 1 <= roll <= 6:
        raise _roll_error(
            _("round %(n)s: %(name)s rolled %(roll)s, but a die shows 1 to 6"),
            number,
            name=name,
            roll=bits[1],
        )
    return name, roll


ROLL_ROUNDS = re.compile(r"[;\n]")


def split_roll_rounds(text: str) -> list[str]:
    """The one roll syntax of the seeding and tie-break forms: rounds separated by a new
    line or a ``;`` (``Ann 5, Ben 5; Ann 2, Ben 6``), pairs inside a round by commas."""
    return ROLL_ROUNDS.split(text or "")


class TieBreakRollForm(forms.Form):
    """A roll-off typed as rounds: ``Ann 5, Ben 5; Ann 2, Ben 6`` (re-rolls after ``;`` or
    on the next line)."""

    rolls = forms.CharField(
        label=_("Rolls, round by round"),
        max_length=500,
        help_text=_('e.g. "Ann 5, Ben 5; Ann 2, Ben 6": a round per ";", re-rolls of ties after'),
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def clean_rolls(self) -> list[dict[str, int]]:
        rounds = parse_rolls(split_roll_rounds(self.cleaned_data["rolls"]))
        if not rounds:
            raise forms.ValidationError(_("enter at least one round of rolls"))
        return rounds


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


class ForfeitForm(ReasonForm):
    loser = forms.TypedChoiceField(label=_("Who forfeits?"), coerce=int, widget=forms.RadioSelect)

    def __init__(self, *args, fixture, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["loser"].choices = [
            (s.entry_id, s.entry.player.name) for s in fixture.seats.all()
        ]


def _game_time_error() -> forms.ValidationError:
    return forms.ValidationError(
        _("Write the game time as minutes:seconds, e.g. 42:30."), code="time"
    )


def _parse_game_time(text: str) -> float | None:
    """``mm:ss``, ``h:mm:ss`` or whole minutes → seconds."""
    text = text.strip()
    if not text:
        return None
    parts = _time_parts(text)
    if len(parts) == 1:
        return float(parts[0] * 60)
    if not _clock_like(parts):
        raise _game_time_error()
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return float(seconds)


def _time_parts(text: str) -> list[int]:
    try:
        return [int(p) for p in text.split(":")]
    except ValueError:
        raise _game_time_error() from None


def _clock_like(parts: list[int]) -> bool:
    """``m:ss`` or ``h:mm:ss``: nothing negative, minutes and seconds under 60."""
    return len(parts) <= 3 and all(p >= 0 for p in parts) and all(p < 60 for p in parts[1:])


#: the formats whose hand results name a winner and count pawns
THREAT_KINDS = ("threat", "threat-plus")


class HandResultForm(forms.Form):
    """A result without a log, with the fields the game's format records
    (``tournaments.services.hand_results``). ``typed()`` gives the service's arguments."""

    def __init__(self, *args, fixture, reason_required: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fixture = fixture
        self.kind = format_kind(fixture.game_format)
        self.seats = list(fixture.seats.all())
        self.player_fields: list[tuple[str, list[str]]] = []
        self.colour_fields: list[str] = []
        if self.kind in THREAT_KINDS:
            self._add_threat_fields()
        elif self.kind == "grand-prix":
            self._add_colour_fields()
        else:
            self._add_count_fields()
        self.fields["reason"] = forms.CharField(
            label=_("Reason") if reason_required else _("Note (optional)"),
            required=reason_required,
            max_length=2000,
            widget=forms.Textarea(attrs={"rows": 2}),
        )

    def _add(self, key: str, field: forms.Field) -> str:
        self.fields[key] = field
        return key

    def _place_field(self, seat) -> str:
        return self._add(
            f"place_{seat.entry_id}",
            forms.IntegerField(
                label=_("Place"), min_value=1, max_value=len(self.seats), required=False
            ),
        )

    def _add_threat_fields(self) -> None:
        """2T/3T(+): the winner; per player the counted pawns, the colours completed (+) and
        the place (more than two players); the game time (+)."""
        names = [(s.entry_id, s.entry.player.name) for s in self.seats]
        self.fields["winner"] = forms.TypedChoiceField(
            label=_("Winner"), choices=names, coerce=int, widget=forms.RadioSelect
        )
        plus = self.kind == "threat-plus"
        for seat in self.seats:
            keys = [self._counted_field(seat, most=8 if plus else 4)]
            if plus:
                keys.append(self._completed_field(seat))
            if len(self.seats) > 2:
                keys.append(self._place_field(seat))
            self.player_fields.append((seat.entry.player.name, keys))
        if plus:
            self.fields["game_time"] = forms.CharField(
                label=_("Game time (minutes:seconds)"), required=False, max_length=12
            )

    def _counted_field(self, seat, most: int) -> str:
        return self._add(
            f"counted_{seat.entry_id}",
            forms.IntegerField(
                label=_("Counted pawns"), min_value=0, max_value=most, required=False
            ),
        )

    def _completed_field(self, seat) -> str:
        return self._add(
            f"completed_{seat.entry_id}",
            forms.IntegerField(
                label=_("Colours completed"), min_value=0, max_value=2, required=False
            ),
        )

    def _add_colour_fields(self) -> None:
        """Grand Prix: a place for every colour, shown with its player."""
        places = [("", "–")] + [
            (n, n) for n in range(1, sum(len(s.colours) for s in self.seats) + 1)
        ]
        for seat in self.seats:
            for colour in seat.colours:
                key = self._add(
                    f"colour_{colour}",
                    forms.TypedChoiceField(
                        label=colour,
                        choices=places,
                        coerce=int,
                        empty_value=None,
                        required=False,
                    ),
                )
                self.fields[key].owner = seat.entry.player.name
                self.colour_fields.append(key)

    def _add_count_fields(self) -> None:
        """Every other format: per player the place and the count points."""
        for seat in self.seats:
            keys = [
                self._place_field(seat),
                self._add(
                    f"points_{seat.entry_id}",
                    forms.IntegerField(label=_("Count points"), min_value=0, required=False),
                ),
            ]
            self.player_fields.append((seat.entry.player.name, keys))

    def player_rows(self):
        return [(name, [self[key] for key in keys]) for name, keys in self.player_fields]

    def colour_rows(self):
        return [(self[key], self.fields[key].owner) for key in self.colour_fields]

    def clean_game_time(self):
        return _parse_game_time(self.cleaned_data.get("game_time") or "")

    def typed(self) -> dict:
        """Keyword arguments of ``result_enter`` / ``result_report`` (without the winner's
        entry, given as ``winner_id``)."""
        out: dict = {}
        if (places := self._per_player("place")) is not None:
            out["placings"] = _placings(places, players=len(self.seats))
        if self.kind in THREAT_KINDS:
            out.update(self._typed_threat())
        elif self.kind == "grand-prix":
            out["colour_places"] = self._colour_places()
        elif (points := self._per_player("points")) is not None:
            out["count_points"] = points
        return out

    def _per_player(self, prefix: str) -> dict[int, int] | None:
        """The values given of the players' ``prefix`` fields by entry; None: none given."""
        given = {s.entry_id: self.cleaned_data.get(f"{prefix}_{s.entry_id}") for s in self.seats}
        return {e: v for e, v in given.items() if v is not None} or None

    def _typed_threat(self) -> dict:
        """The winner, and the counted pawns, colours completed and game time given."""
        given = {"counted_pawns": self._per_player("counted")}
        if self.kind == "threat-plus":
            given["completed_colours"] = self._per_player("completed")
            given["game_time"] = self.cleaned_data.get("game_time")
        return {
            "winner_id": self.cleaned_data.get("winner"),
            **{key: value for key, value in given.items() if value is not None},
        }

    def _colour_places(self) -> dict[str, int]:
        data = self.cleaned_data
        return {
            key.removeprefix("colour_"): data[key]
            for key in self.colour_fields
            if data.get(key) is not None
        }


def _placings(places: dict[int, int], players: int) -> list[int]:
    """The entries in the order of their places: every player's, each place once."""
    if len(places) != players:
        raise forms.ValidationError(_("Give every player's place, or none."))
    if len(set(places.values())) != len(places):
        raise forms.ValidationError(_("Give each place to one player only."))
    return sorted(places, key=places.__getitem__)


def hand_result_send(form: HandResultForm, service, *, fixture, by) -> tuple[int, str] | None:
    """Send a valid hand-result ``form`` of ``fixture`` to ``service`` (``result_report``
    or ``result_enter``) as ``by`` (an account or a result link's holder): None when it is
    taken, else the HTTP status and the message why not (the service's refusal, or the
    form's own inconsistency found by ``typed()``); a refusal changes nothing."""
    try:
        typed = form.typed()
        winner_id = typed.pop("winner_id", None)
        winner = next((s.entry for s in form.seats if s.entry_id == winner_id), None)
        service(fixture=fixture, by=by, winner=winner, reason=form.cleaned_data["reason"], **typed)
    except ServiceError as exc:
        return (403 if isinstance(exc, NotAllowed) else 400), exc.localized()
    except forms.ValidationError as exc:
        return 400, " ".join(exc.messages)
    return None


def log_upload_told(request, upload) -> None:
    """Tell the uploader what became of an accepted log (the game page and the private
    result link alike): counted, waiting for the opponent, or the same log again."""
    counts = upload.result.state == Result.State.CONFIRMED
    if not upload.created:  # the very same log again: nothing new was stored
        messages.info(
            request,
            gettext("This log was submitted before; nothing changed.")
            + " "
            + (
                gettext("Its result counts.")
                if counts
                else gettext("Its result waits for the opponent's confirmation.")
            ),
        )
    elif counts:
        messages.success(request, gettext("The log was accepted and the result counts."))
    else:
        messages.success(
            request,
            gettext("The log was accepted. The result counts once your opponent confirms it."),
        )
