"""Creating players: a player profile (linked to an account) or a player without one."""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils.text import slugify

from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms import colours as colour_rules
from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.names import BadName, name_keys, normalise_name
from tournaments.formats import get_format
from tournaments.models import Entry, League, Player
from tournaments.permissions import may_share, organizes_any_league
from tournaments.services.errors import NotAllowed, ServiceError, coded, from_algorithm, why_of


def unique_slug(model, text: str, reserved: frozenset[str] = frozenset()) -> str:
    """A free slug made from ``text``: ``name``, else ``name-2``, ``name-3`` …; never one
    of ``reserved`` (words the site's routes use)."""
    base = slugify(text)[:90] or "item"
    slug, n = base, 2
    if slug in reserved:
        slug, n = f"{base}-{n}", n + 1
    while model.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def organizer_scope(organizer) -> Q:
    """The players an organizer's new player without an account must be told apart from
    (issue 34): those the organizer created (claimed since or not) and those entered in a
    league the organizer owns or co-organizes, where the names meet on one page."""

    leagues = League.objects.filter(Q(owner=organizer) | Q(organizers=organizer)).values("pk")
    entered = Entry.objects.filter(league__in=leagues).values("player_id")
    return Q(created_by=organizer) | Q(pk__in=entered)


def player_name_clash(name: str, *, organizer=None, exclude_pk: int | None = None) -> Player | None:
    """The existing player whose name is ``name`` or looks like it (equal confusable
    skeletons: ``Anna``, ``ANNA``, ``Αnna`` with a Greek Alpha) **in the scope where it
    must be unique**, or None. The one place that says what that scope is (issue 34: names
    repeat across organizers, as real clubs have two Annas): an organizer's players
    (``organizer_scope``) when ``organizer`` is given; with ``organizer=None``, every
    player of the site (used to find a player to claim or to suggest)."""
    key, folded = name_keys(name)
    found = Player.objects.filter(
        Q(name_key=key) | Q(name_key_folded=folded) | Q(name__iexact=name)
    )
    if organizer is not None:
        found = found.filter(organizer_scope(organizer))
    if exclude_pk is not None:
        found = found.exclude(pk=exclude_pk)
    return found.order_by("pk").first()


def player_name_check(
    name: str, *, organizer=None, exclude_pk: int | None = None, what="a player's name"
) -> str:
    """The validator of a player's name: ``name`` in its normal form (NFKC, single
    spaces), or ServiceError naming the refused character (control, tab, zero-width,
    bidirectional) or the player in the organizer's scope it is, or looks like (no scope,
    ``organizer=None``: only the form is checked; an account's own player is told apart by
    its user name, see ``player_names_distinguish``)."""
    try:
        name = normalise_name(name, what=what)
    except BadName as exc:
        raise from_algorithm(exc, field="name") from None
    if not name:
        raise coded("player_name_missing", field="name")
    if organizer is None:
        return name
    clash = player_name_clash(name, organizer=organizer, exclude_pk=exclude_pk)
    if clash is not None:
        raise _clash_error(name, clash)
    return name


def _clash_error(name: str, clash: Player):
    """``name`` is taken by the player ``clash``, or looks like its name."""
    if clash.name.casefold() == name.casefold():
        return coded("player_name_taken", field="name", name=clash.name)
    return coded("player_name_lookalike", field="name", name=name, other=clash.name)


def player_suffix(player: Player) -> str:
    """What tells ``player`` apart from others of a name that looks the same: ``@`` and the
    user name for an account (unique and itself checked for look-alikes), else the user
    name of the organizer who created it (names are unique per organizer), else the slug."""
    if player.user_id is not None:
        return "@" + player.user.get_username()
    if player.created_by_id is not None:
        return player.created_by.get_username()
    return player.slug


def player_names_distinguish(*names: str) -> int:
    """Keep ``Player.name_suffix`` right for every player whose name looks like one of
    ``names`` (equal confusable keys): a suffix when another player's name looks the same,
    none when it is alone. Called after a player is created, renamed, claimed or handed to
    an account. Returns how many rows changed."""
    query = Q()
    for name in names:
        key, folded = name_keys(name)
        query |= Q(name_key=key) | Q(name_key_folded=folded)
    if not query:
        return 0
    group = list(Player.objects.filter(query).select_related("user", "created_by"))
    changed = 0
    for player in group:
        wanted = player_suffix(player) if _has_twin(player, group) else ""
        if wanted != player.name_suffix:
            changed += Player.objects.filter(pk=player.pk).update(name_suffix=wanted)
    return changed


def _has_twin(player: Player, group: list[Player]) -> bool:
    """Another player of ``group`` has a name that looks like ``player``'s."""
    key, folded = player.name_key, player.name_key_folded
    return any(
        other.pk != player.pk and (other.name_key == key or other.name_key_folded == folded)
        for other in group
    )


def player_create(
    *, name: str, user=None, preferred_colours=None, created_by=None, shared: bool = False
) -> Player:
    """A player: with an account (``user``; its name needs no other check than its form)
    or without one, created by the organizer ``created_by`` (unique among the players
    that organizer meets: ``player_name_clash``)."""
    name = player_name_check(name, organizer=None if user is not None else created_by)
    try:
        with transaction.atomic():
            player = Player.objects.create(
                name=name,
                user=user,
                slug=unique_slug(Player, name),
                preferred_colours=list(preferred_colours or []),
                created_by=created_by,
                shared=bool(shared),
            )
    except IntegrityError:
        raise coded("player_exists", field="name", player=name) from None
    player_names_distinguish(name)
    # and again once committed: two organizers' Idas created at the same moment (each in a
    # transaction that could not see the other) are told apart by whichever commits last
    transaction.on_commit(lambda: player_names_distinguish(name))
    player.refresh_from_db(fields=["name_suffix"])
    return player


def player_create_by(*, by, name: str, link_to_me: bool = False, preferred_colours=None) -> Player:
    """``by`` creates their own player profile (``link_to_me``, once per account), or, as an
    organizer of any league or staff, a player without an account."""
    if not getattr(by, "is_authenticated", False):
        raise coded("player_log_in", cls=NotAllowed)
    if link_to_me:
        _check_no_profile(by)
    else:
        _check_may_create_accountless(by)
    return player_create(
        name=name,
        user=by if link_to_me else None,
        preferred_colours=preferred_colours,
        created_by=None if link_to_me else by,
    )


def _check_no_profile(by) -> None:
    """An account has one player profile."""
    if Player.objects.filter(user=by).exists():
        raise coded("player_has_profile", field="link_to_me")


def _check_may_create_accountless(by) -> None:
    """Organizers (and staff) create players without an account, up to their limit."""
    if not organizes_any_league(by):
        raise coded("player_organizers_only", cls=NotAllowed)
    accountless_limit_check(by)


def player_set_shared(*, player: Player, by, shared: bool) -> Player:
    """Share a player without an account with every organizer (they may enter it in their
    leagues), or stop sharing it: the player's creator or staff. Entries made while it was
    shared stay."""
    if not may_share(by, player):
        if player.user_id is not None:
            raise coded("player_has_account", player=player.name)
        raise coded("player_creator_only", cls=NotAllowed, player=player.name)
    with transaction.atomic():
        updated = Player.objects.filter(pk=player.pk, user__isnull=True).update(shared=bool(shared))
        if not updated:
            raise coded("player_account_now", player=player.name)
    player.shared = bool(shared)
    return player


def accountless_limit_check(by) -> None:
    """Each organizer may create at most ``ACCOUNTLESS_PLAYERS_PER_ORGANIZER`` players
    without accounts (no squatting names); staff are not limited."""

    if getattr(by, "is_staff", False):
        return
    limit = getattr(settings, "ACCOUNTLESS_PLAYERS_PER_ORGANIZER", 200)
    made = Player.objects.filter(created_by=by).count()
    if made >= limit:
        raise coded("player_limit", field="name", made=made, limit=limit)


def player_set_colours(*, player: Player, by, preferred_colours) -> Player:
    """A player's preferred allied pair (staff, or the player). It also becomes the
    preference of their entries in leagues whose schedule is not generated yet, so it is
    never lost between profile and games."""
    if not (getattr(by, "is_staff", False) or (player.user_id and player.user_id == by.pk)):
        raise coded("colours_not_yours", cls=NotAllowed, player=player.name)
    colours = _colour_pair(preferred_colours)
    with transaction.atomic():
        player.preferred_colours = colours
        player.save(update_fields=["preferred_colours"])
        entries = player.entries.filter(league__cycles__isnull=True, withdrawn_at__isnull=True)
        for entry in entries.select_related("league").distinct():
            _pass_on_colours(entry, colours)
    return player


def _colour_pair(preferred_colours) -> list[str]:
    """A preferred pair (or single colour, or none) of the colours of the largest board."""
    colours = list(preferred_colours or [])
    known = DEFAULT_COLOURS[6]
    if not _a_pair(colours):
        raise coded("colours_pair", field="preferred_colours")
    unknown = [c for c in colours if c not in known]
    if unknown:
        raise coded(
            "colours_unknown",
            field="preferred_colours",
            unknown=", ".join(map(str, unknown)),
            known=", ".join(known),
        )
    return colours


def _a_pair(colours: list[str]) -> bool:
    """At most two colours, different ones."""
    return len(colours) <= 2 and len(set(colours)) == len(colours)


def _pass_on_colours(entry: Entry, colours: list[str]) -> None:
    """The profile's new pair becomes the entry's, where it is a pair on that league's
    board (else the entry keeps its own)."""
    try:
        entry.preferred_colours = check_pair(entry.league, colours)
    except ServiceError:
        return
    entry.save(update_fields=["preferred_colours"])


def fitting_pair(league: League, colours: list[str] | None) -> list[str]:
    """A profile's preferred pair where it fits the league's board and layout, else none
    (the entry then gets the colours the clash rule leaves)."""
    try:
        return check_pair(league, colours)
    except ServiceError:
        return []


def check_pair(league: League, colours: list[str] | None) -> list[str]:
    """A preferred allied pair (or single colour) valid for the league's format and board."""
    if not colours:
        return []
    fmt = get_format(league.format)
    try:
        unit = colour_rules.normalise(list(colours), DEFAULT_COLOURS[league.board], fmt.layout)
    except AlgorithmError as exc:
        raise coded("colours_pair_invalid", field="preferred_colours", why=why_of(exc)) from None
    return list(unit)


def calendar_link_rotate(*, player: Player, by) -> Player:
    """A new address for the player's calendar feed (My games): the link's version goes
    up, so the old signed link is a 404 from now on. The player's own account only."""
    if not getattr(by, "is_authenticated", False) or player.user_id != by.pk:
        raise coded("calendar_not_yours", cls=NotAllowed)
    Player.objects.filter(pk=player.pk).update(calendar_version=F("calendar_version") + 1)
    player.refresh_from_db(fields=["calendar_version"])
    return player
