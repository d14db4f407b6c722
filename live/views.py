"""The pages of live play: the lobby (open a room, public rooms), a room, its log and
replay, opening a league game's room and recording a no-show."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.throttles import LoginThrottle
from games.analysis import log_viewer_data
from games.engine.rules import PRESETS
from games.engine.variants import VARIANTS
from games.geometry import board_layout
from games.replay import replay_json
from live import services
from live.models import Room
from tournaments.models import Entry, Fixture
from tournaments.permissions import can_view, is_organizer
from tournaments.services.errors import ServiceError


def _int(value: str | None, default: int | None = None) -> int | None:
    try:
        return int(value) if value not in (None, "") else default
    except ValueError:
        return default


def _visible_room(request, token: str) -> Room:
    """The room of ``token`` as the visitor may see it (services.room_visible), else 404."""
    room = services.room_visible(token, request.user)
    if room is None:
        raise Http404("no such room")
    return room


def _room_settings(request) -> dict:
    """The lobby form's room settings (the service checks them)."""
    p = request.POST
    return {
        "board": _int(p.get("board"), 4),
        "rules": p.get("rules") or "online",
        "mode": p.get("mode") or Room.Mode.ONLINE,
        "turn_seconds": _int(p.get("turn_seconds")),
        "is_public": p.get("is_public") == "on",
        "variant": p.get("variant") or "",
        "strength": p.get("strength") or "heuristic",
        "names": [n for n in (p.get("names") or "").split(",")],
        "address": LoginThrottle().get_ident(request) or "",
    }


@require_http_methods(["GET", "POST"])
def lobby(request):
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        try:
            room = services.room_create(host=request.user, **_room_settings(request))
        except services.Refused as exc:
            error = exc.localized()
        else:
            return redirect("live:room", token=room.token)
    rooms = (
        Room.objects.filter(is_public=True, status__in=[Room.Status.WAITING, Room.Status.PLAYING])
        .select_related("host")
        .order_by("-created_at")[:50]
    )
    return render(
        request,
        "live/lobby.html",
        {
            "rooms": rooms,
            "presets": [(name, preset_label(name)) for name in sorted(PRESETS)],
            "variants": VARIANTS.values(),
            "modes": Room.Mode.choices,
            "error": error,
        },
        status=400 if error else 200,
    )


@require_GET
def room_page(request, token: str):
    room = _visible_room(request, token)
    state = services.room_state(room)
    return render(
        request,
        "live/room.html",
        {
            "room": room,
            "layout": board_layout(room.board),
            "state": state,
            "me": request.user.pk if request.user.is_authenticated else None,
            "is_host": request.user.is_authenticated and request.user.pk == room.host_id,
            "absent": _absent_entries(room),
            "records_no_shows": room.fixture_id is not None
            and is_organizer(request.user, room.fixture.league),
            "mode_label": dict(MODE_LABELS).get(room.mode, room.mode),
            "variant_label": VARIANT_LABELS.get(room.variant or "", room.variant),
            "rules_label": rules_label(room.rules),
            # a league game's reserved seats name their player (live.js)
            "reserved_players": {
                colour: name for name, colours in (room.players or {}).items() for colour in colours
            }
            if room.fixture_id
            else {},
            "dice": services.room_dice_check(room),
        },
    )


#: what the room page says of its settings (the lobby's words)
MODE_LABELS = [
    (Room.Mode.ONLINE, _lazy("Online (turn timer)")),
    (Room.Mode.COMPUTER, _lazy("Against the computer")),
    (Room.Mode.TABLE, _lazy("Around the table (one device)")),
]
VARIANT_LABELS = {
    "": _lazy("Full game"),
    "quick": _lazy("Quick: one pawn out, two pawns home win"),
    "first-capture": _lazy("First capture wins"),
}


#: the rule presets in the page's language (the engine's names are codes: "league")
PRESET_LABELS = {
    "league": _lazy("League rules (XMädn)"),
    "league-2t+": _lazy("League rules, double threat plus (2T+)"),
    "league-3t+": _lazy("League rules, triple threat plus (3T+)"),
    "league-gp": _lazy("League rules, Grand Prix"),
    "classic": _lazy("Classic rules (Schmidt)"),
    "online": _lazy("Online rules"),
}


def preset_label(name: str) -> str:
    return str(PRESET_LABELS.get(name, name))


def rules_label(rules) -> str:
    """A room's rules as the page says them: the preset's name in the page's language,
    "(changed)" when options differ from it."""
    if isinstance(rules, str):
        return preset_label(rules)
    if isinstance(rules, dict) and rules.get("preset"):
        label = preset_label(rules["preset"])
        return label if set(rules) == {"preset"} else _("%(preset)s (changed)") % {"preset": label}
    return str(rules)


def _absent_entries(room: Room) -> list[Entry]:
    """The league game's players, while it waits for them: the page hides each one as they
    sit down (live.js, from the state's seats)."""
    if not room.fixture_id or room.status != Room.Status.WAITING:
        return []
    here = set(room.seats.filter(kind="human").values_list("user_id", flat=True))
    return [
        s.entry
        for s in room.fixture.seats.select_related("entry__player")
        if s.entry.player.user_id not in here
    ]


@require_GET
def room_log(request, token: str):
    room = _visible_room(request, token)
    if room.status != Room.Status.FINISHED:
        raise Http404("the log is ready when the game is over")
    response = HttpResponse(services.room_log_text(room), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="maedn-live-{room.token}.json"'
    return response


@require_GET
def room_replay(request, token: str):
    room = _visible_room(request, token)
    if room.status != Room.Status.FINISHED:
        raise Http404("the replay is ready when the game is over")
    return render(
        request,
        "live/replay.html",
        {
            "room": room,
            "layout": board_layout(room.board),
            "replay_url": f"/live/{room.token}/replay.json",
            "raw_url": f"/live/{room.token}/log.json",
            "analysis": log_viewer_data(room.game_log),
        },
    )


@require_GET
def room_replay_json(request, token: str):
    room = _visible_room(request, token)
    if room.status != Room.Status.FINISHED:
        raise Http404("the replay is ready when the game is over")
    return HttpResponse(
        replay_json(services.room_log_text(room), players=_replay_players(room)),
        content_type="application/json",
    )


def _replay_players(room: Room) -> dict[int, str] | None:
    """Who sat at each colour (the log's ``meta.seats``) for a room whose log has no
    ``players`` (a casual room; a league game's log names its players)."""
    if room.players:
        return None
    return {
        s.index: _("computer") if s.kind == "computer" else services.seat_name(s)
        for s in services.room_seats(room)
    }


@login_required
@require_POST
def fixture_room(request, pk: int):
    fixture = get_object_or_404(Fixture.objects.select_related("league"), pk=pk)
    if not can_view(request.user, fixture.league):  # a private league's game: as if missing
        raise Http404("no such game")
    try:
        room = services.fixture_room_create(fixture=fixture, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.localized())
        return redirect("tournaments:game", pk=pk)
    return redirect("live:room", token=room.token)


@login_required
@require_POST
def no_show(request, token: str):
    room = _visible_room(request, token)
    entry = get_object_or_404(Entry, pk=_int(request.POST.get("entry"), 0))
    try:
        services.fixture_no_show(room=room, by=request.user, absent=entry)
    except ServiceError as exc:  # Refused, or the results service's own refusals
        messages.error(request, exc.localized())
    else:
        messages.success(request, _("The no-show was recorded as a forfeit."))
    return redirect("live:room", token=token)
