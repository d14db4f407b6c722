"""Read queries about leagues: look-up, the home page's list, a league's overview and
its players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Case, Count, IntegerField, OuterRef, Q, Subquery, Value, When

from tournaments.models import (
    Entry,
    Fixture,
    League,
    Player,
    Result,
    Series,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.selectors.links import link_maker

PUBLIC_STATUSES = (League.Status.RUNNING, League.Status.PLAYOFFS, League.Status.FINISHED)


def league_get(slug: str) -> League:
    """The league with that address (raises ``League.DoesNotExist``)."""
    return League.objects.select_related("owner").get(slug=slug)


#: leagues on one page of the home page's list
HOME_LEAGUES_PER_PAGE = 20


def home_leagues_queryset():
    """Public leagues that are running, in their playoffs or finished: running first, then
    in their playoffs, then finished; newest first within each (a query to page)."""
    order = Case(
        When(status=League.Status.RUNNING, then=Value(0)),
        When(status=League.Status.PLAYOFFS, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    return (
        League.objects.filter(is_public=True, status__in=PUBLIC_STATUSES)
        .annotate(status_order=order)
        .order_by("status_order", "-created_at", "-pk")
    )


def home_leagues(page: int | str | None = 1, per_page: int | None = None):
    """One page (a Django ``Page``) of :func:`home_leagues_queryset` (the columns the home
    page shows), each league with its ``entry_count``, its ``links`` (league, standings,
    schedule) and, when finished, its ``champion``: a fixed number of queries whatever the
    site's history (the count, the page, the entries, the champions)."""
    shown = home_leagues_queryset().only("pk", "slug", "name", "format", "status", "created_at")
    paginator = Paginator(shown, per_page or HOME_LEAGUES_PER_PAGE)
    page_obj = paginator.get_page(page)
    leagues = list(page_obj.object_list)
    counts = dict(
        Entry.objects.filter(league__in=[lg.pk for lg in leagues], state=Entry.State.ACCEPTED)
        .values_list("league_id")
        .annotate(n=Count("id"))
        .values_list("league_id", "n")
    )
    champs = champions(leagues)
    # the links of each row, the patterns reversed once (not three ``{% url %}`` a row)
    links = {
        name: link_maker(f"tournaments:{name}") for name in ("league", "standings", "schedule")
    }
    for league in leagues:
        league.entry_count = counts.get(league.pk, 0)
        league.champion = champs.get(league.pk)
        league.links = {name: make(league.slug) for name, make in links.items()}
    page_obj.object_list = leagues
    return page_obj


@dataclass
class LeagueOverview:
    league: League
    entries: list[Entry]
    organizers: list[Any]
    fixture_counts: dict[str, int]
    games_total: int
    games_counted: int


def league_overview(league: League) -> LeagueOverview:
    entries = list(league.entries.filter(state=Entry.State.ACCEPTED).select_related("player"))
    organizers = list(league.organizers.all())
    if league.owner not in organizers:
        organizers.insert(0, league.owner)
    counts = dict(
        league.fixtures.values_list("status").annotate(n=Count("id")).values_list("status", "n")
    )
    counted = sum(counts.get(status, 0) for status in Fixture.COUNTED_STATUSES)
    total = sum(n for s, n in counts.items() if s != Fixture.Status.CANCELLED)
    return LeagueOverview(league, entries, organizers, counts, total, counted)


def entry_players(league: League) -> list[Player]:
    return [
        e.player for e in league.entries.filter(state=Entry.State.ACCEPTED).select_related("player")
    ]


def league_champion(league: League) -> Player | None:
    """The champion of a finished league: the winner of the last playoff series, else
    the top of the final table."""

    if league.status != League.Status.FINISHED:
        return None
    final = (
        Series.objects.filter(league=league, next_series__isnull=True, winner__isnull=False)
        .select_related("winner__player")
        .order_by("-round")
        .first()
    )
    if final is not None:
        return final.winner.player
    snapshot = StandingsSnapshot.objects.filter(league=league, stage="league").first()
    row = (
        snapshot.rows.select_related("entry__player").order_by("position").first()
        if snapshot
        else None
    )
    return row.entry.player if row else None


def champions(leagues) -> dict[int, Player]:
    """League id → champion (a ``Player`` of its name and slug only), for the finished
    leagues among ``leagues`` (the rule of :func:`league_champion`) in two queries of plain
    values, whatever their number."""

    ids = [lg.pk for lg in leagues if lg.status == League.Status.FINISHED]
    if not ids:
        return {}
    out = _final_winners(ids)
    rest = [pk for pk in ids if pk not in out]
    if rest:
        out |= _table_leaders(rest)
    return out


def _final_winners(ids: list[int]) -> dict[int, Player]:
    """League id → the winner of its latest final, by a correlated subquery (DISTINCT ON
    is PostgreSQL's: the embedded default runs on SQLite); one query."""
    last_final = (
        Series.objects.filter(
            league_id=OuterRef("league_id"), next_series__isnull=True, winner__isnull=False
        )
        .order_by("-round", "-pk")
        .values("pk")[:1]
    )
    finals = Series.objects.filter(league_id__in=ids, pk=Subquery(last_final)).values_list(
        "league_id", "winner__player_id", "winner__player__name", "winner__player__slug"
    )
    return {league_id: Player(pk=pk, name=name, slug=slug) for league_id, pk, name, slug in finals}


def _table_leaders(ids: list[int]) -> dict[int, Player]:
    """League id → the first of its league-stage table; one query."""
    first_row = (
        StandingsRow.objects.filter(snapshot_id=OuterRef("snapshot_id"))
        .order_by("position", "pk")
        .values("pk")[:1]
    )
    tops = StandingsRow.objects.filter(
        snapshot__league_id__in=ids, snapshot__stage="league", pk=Subquery(first_row)
    ).values_list(
        "snapshot__league_id", "entry__player_id", "entry__player__name", "entry__player__slug"
    )
    return {league_id: Player(pk=pk, name=name, slug=slug) for league_id, pk, name, slug in tops}


def withdrawal_forfeits(entry: Entry) -> list[Fixture]:
    """The games a withdrawal would forfeit (the rule of ``entry_withdraw``): every game of
    the entry without a counted result."""

    return list(
        Fixture.objects.filter(seats__entry=entry)
        .exclude(
            status__in=[
                Fixture.Status.CONFIRMED,
                Fixture.Status.FORFEITED,
                Fixture.Status.CANCELLED,
            ]
        )
        .exclude(results__state=Result.State.CONFIRMED)
        .prefetch_related("seats__entry__player")
        .order_by("cycle__number", "round", "number")
        .distinct()
    )


def my_entries(user) -> list[Entry]:
    """The signed-in user's entries in every league (invitations, requests and accepted)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Entry.objects.filter(player__user=user)
        .select_related("league", "player")
        .order_by("-league__created_at")
    )


def my_organized(user) -> list[League]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        League.objects.filter(Q(owner=user) | Q(organizers=user)).distinct().order_by("-created_at")
    )


@dataclass(frozen=True)
class ContentStamp:
    """What a league's stored renderings are keyed by: the league's content revision
    (``LeagueRevision``: raised by the database with every change its pages show) and the
    time the ratings writer last wrote (its state row is saved with every rating it
    writes: the rating beside each name)."""

    league_id: int
    is_public: bool
    revision: int
    ratings: str

    @property
    def etag(self) -> str:
        return f"c{self.league_id}-{self.revision}-{self.ratings}"


def _content_stamp_sql(where: str) -> str:
    """The league's content stamp, of the league ``where`` picks (``l`` the league's row):
    one builder for every form, so a reworded condition cannot silently drift."""
    return f"""
SELECT l.id, l.is_public, COALESCE(v.n, 0),
       (SELECT extract(epoch FROM r.updated_at)::text FROM tournaments_ratingstate r
        ORDER BY r.id LIMIT 1)
FROM tournaments_league l LEFT JOIN tournaments_leaguerevision v ON v.league_id = l.id
WHERE {where}
"""


#: one statement, no ORM compile (asked on every visit of a league's stored pages); the
#: ratings writer's row keeps its historical table name (ratings/models.py ``RatingState``)
CONTENT_STAMP_SQL = _content_stamp_sql("l.slug = %s")
#: the same stamp, of the league of a game
GAME_STAMP_SQL = _content_stamp_sql(
    "l.id = (SELECT f.league_id FROM tournaments_fixture f WHERE f.id = %s)"
)
#: ... of the league of a result (the API's result) and of a playoff series
RESULT_STAMP_SQL = _content_stamp_sql(
    "l.id = (SELECT f.league_id FROM tournaments_result r0"
    " JOIN tournaments_fixture f ON f.id = r0.fixture_id WHERE r0.id = %s)"
)
SERIES_STAMP_SQL = _content_stamp_sql(
    "l.id = (SELECT s.league_id FROM tournaments_series s WHERE s.id = %s)"
)


def content_stamp(slug: str) -> ContentStamp | None:
    """The league's :class:`ContentStamp` (one query); None when there is no such league or
    the database keeps no revision (only PostgreSQL's triggers raise it: elsewhere nothing
    may be stored under it)."""
    if connection.vendor != "postgresql":
        return None
    return _stamp(CONTENT_STAMP_SQL, slug)


def game_content_stamp(pk: int) -> ContentStamp | None:
    """The :func:`content_stamp` of the league of game ``pk``."""
    return _stamp(GAME_STAMP_SQL, pk)


def result_content_stamp(pk: int) -> ContentStamp | None:
    """The :func:`content_stamp` of the league of result ``pk``."""
    return _stamp(RESULT_STAMP_SQL, pk)


def series_content_stamp(pk: int) -> ContentStamp | None:
    """The :func:`content_stamp` of the league of playoff series ``pk``."""
    return _stamp(SERIES_STAMP_SQL, pk)


def _stamp(sql: str, key) -> ContentStamp | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        found = cursor.fetchone()
    if found is None:
        return None
    league_id, is_public, revision, ratings = found
    return ContentStamp(league_id, is_public, revision, ratings or "-")


#: the revisions of a set of leagues (a player's, a pair's, an account's), digested: a
#: change of any of them (or one added or gone) changes it; revisions only grow, and the
#: list names each league, so no two states give the same text
LEAGUES_DIGEST = "md5(string_agg(l.id || ':' || COALESCE(v.n, 0), ',' ORDER BY l.id))"
WITH_REVISIONS = "tournaments_league l LEFT JOIN tournaments_leaguerevision v ON v.league_id = l.id"

#: the site's revision (``SiteRevision``: raised with every league's revision and by every
#: league made or deleted; a sum of per-session counters, the ended sessions' folded into
#: one row): one sum, as flat as the live sessions, where a digest of every league's
#: revision grew with the leagues
SITE_REVISION = "(SELECT COALESCE(sum(x.n), 0) FROM tournaments_siterevision x)"

SITE_STAMP_SQL = f"SELECT {SITE_REVISION}"


def _player_stamp_sql(where: str) -> str:
    """The player page's stamp of the player ``where`` picks (``p`` the player's row): one
    builder for every form of it, so the forms cannot drift apart."""
    return f"""
SELECT p.id, md5(p::text),
       (SELECT {LEAGUES_DIGEST} FROM {WITH_REVISIONS}
        WHERE l.id IN (SELECT e.league_id FROM tournaments_entry e WHERE e.player_id = p.id)),
       (SELECT extract(epoch FROM r.updated_at)::text FROM tournaments_ratingstate r
        ORDER BY r.id LIMIT 1)
FROM tournaments_player p WHERE {where}
"""


#: a player's page: the player's row (a rename, a suffix, an account linked), the leagues
#: they are entered in (their games, results, opponents) and the ratings writer's time
PLAYER_STAMP_SQL = _player_stamp_sql("p.slug = %s")


def site_stamp() -> str | None:
    """The site's revision (the home page: its leagues and newest results; every league's
    revision raises it); None where no revision is kept."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(SITE_STAMP_SQL)
        (revision,) = cursor.fetchone()
    return f"s{revision}"


#: the same stamp, of the player of an account ("My games")
USER_PLAYER_STAMP_SQL = _player_stamp_sql("p.user_id = %s")


def player_stamp(slug: str) -> str | None:
    """What a player's page shows, as one string (one query): see ``PLAYER_STAMP_SQL``;
    None for no such player or where no revision is kept."""
    return _player_stamp(PLAYER_STAMP_SQL, slug)


def user_player_stamp(user_id: int) -> str | None:
    """The :func:`player_stamp` of the account's player (None: the account has none)."""
    return _player_stamp(USER_PLAYER_STAMP_SQL, user_id)


def _player_stamp(sql: str, key) -> str | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        found = cursor.fetchone()
    return None if found is None else player_stamp_text(found)


def player_stamp_text(found: tuple) -> str:
    """The player page's stamp from the row of ``PLAYER_STAMP_SQL`` (or its other forms)."""
    pk, row, leagues, ratings = found
    return f"p{pk}-{row}-{leagues or '-'}-{ratings or '-'}"


def joined_stamp_text(prefix: str, found: tuple) -> str:
    """A stamp from the row of a stamp's statement: its columns joined."""
    return prefix + "-".join(str(part or "-") for part in found)


def content_stamp_text(found: tuple) -> str:
    """A league's content stamp (its ETag) from the row of ``CONTENT_STAMP_SQL``."""
    league_id, is_public, revision, ratings = found
    return ContentStamp(league_id, is_public, revision, ratings or "-").etag


#: the players' revision (``PlayersRevision``: every player made, changed or deleted; a sum
#: of per-session counters) and the ratings writer's last write, as sub-selects
PLAYERS_REVISION = "(SELECT COALESCE(sum(x.n), 0) FROM tournaments_playersrevision x)"
RATINGS_TIME = (
    "(SELECT extract(epoch FROM r.updated_at)::text FROM tournaments_ratingstate r"
    " ORDER BY r.id LIMIT 1)"
)

#: the pages that list players or leagues across the site: the site's revision and
#: the players' revision (the rankings, the search), and the ratings writer's time (the
#: ratings table)
DIRECTORY_STAMP_SQL = f"SELECT {SITE_REVISION}, {PLAYERS_REVISION}"
RATINGS_STAMP_SQL = f"SELECT {SITE_REVISION}, {PLAYERS_REVISION}, {RATINGS_TIME}"


def directory_stamp(*, ratings: bool = False) -> str | None:
    """What a site-wide page shows, as one string (one query): the site's revision (every
    league's: names, visibility, formats, entries, games, results, standings, series — and
    the players entered, whose rename raises their leagues; leagues made or deleted) and
    the players' revision (every player, entered anywhere or not); with ``ratings`` also
    the ratings writer's time (every rating it writes). None where no revision is kept."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(RATINGS_STAMP_SQL if ratings else DIRECTORY_STAMP_SQL)
        found = cursor.fetchone()
    return "d" + "-".join(str(part or "-") for part in found)


def players_stamp() -> str | None:
    """The players' revision alone (one query): the API's list of players shows nothing
    else. None where no revision is kept."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {PLAYERS_REVISION}")
        (n,) = cursor.fetchone()
    return f"n{n}"


#: a head-to-head: both players' rows and the revisions of the leagues both are entered in
#: (every game they sat at together is in one of them), the ratings writer's time left out
#: (the page shows no rating)
PAIR_STAMP_SQL = f"""
SELECT p.id, o.id, md5(p::text), md5(o::text),
       (SELECT {LEAGUES_DIGEST} FROM {WITH_REVISIONS}
        WHERE l.id IN (SELECT e.league_id FROM tournaments_entry e WHERE e.player_id = p.id)
          AND l.id IN (SELECT e.league_id FROM tournaments_entry e WHERE e.player_id = o.id))
FROM tournaments_player p, tournaments_player o WHERE p.slug = %s AND o.slug = %s
"""


def pair_stamp(slug: str, other: str) -> str | None:
    """What the head-to-head of two players shows (one query): see ``PAIR_STAMP_SQL``;
    None for a missing player, a player against themselves, or where no revision is
    kept."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(PAIR_STAMP_SQL, [slug, other])
        found = cursor.fetchone()
    if found is None or found[0] == found[1]:
        return None
    pk, other_pk, row, other_row, leagues = found
    return f"h{pk}-{other_pk}-{row}-{other_row}-{leagues or '-'}"


#: "My leagues" (/me/leagues/): the account's own columns the page reads (staff, address:
#: may they create a league), its confirmed addresses, its claims (with the claimed
#: player's name), and the revisions of the leagues its players are entered in and of
#: those it owns or organizes (entries, their states, names, statuses)
MY_LEAGUES_STAMP_SQL = f"""
SELECT md5(concat_ws('|', u.username, u.email, u.is_staff, u.is_active, u.is_superuser)),
       (SELECT md5(string_agg(c::text, ',' ORDER BY c.id)) FROM tournaments_confirmedemail c
        WHERE c.user_id = u.id),
       (SELECT md5(string_agg(k::text || '|' || p.name, ',' ORDER BY k.id))
        FROM tournaments_playerclaim k JOIN tournaments_player p ON p.id = k.player_id
        WHERE k.user_id = u.id),
       (SELECT {LEAGUES_DIGEST} FROM {WITH_REVISIONS}
        WHERE l.id IN (SELECT e.league_id FROM tournaments_entry e
                       JOIN tournaments_player p ON p.id = e.player_id WHERE p.user_id = u.id)
           OR l.owner_id = u.id
           OR l.id IN (SELECT o.league_id FROM tournaments_league_organizers o
                       WHERE o.user_id = u.id))
FROM auth_user u WHERE u.id = %s
"""


def my_leagues_stamp(user_id: int) -> str | None:
    """What "My leagues" shows of the account (one query): see ``MY_LEAGUES_STAMP_SQL``.
    None where no revision is kept."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(MY_LEAGUES_STAMP_SQL, [user_id])
        found = cursor.fetchone()
    return None if found is None else joined_stamp_text("m", found)


#: a league's manage page (the league by its address): its content stamp and what no league
#: revision covers — its open invitations (with their links), the claims on its players
#: (and the claimant's name), its players' private result links
MANAGE_STAMP_SQL = """
SELECT l.id, COALESCE(v.n, 0),
       (SELECT extract(epoch FROM r.updated_at)::text FROM tournaments_ratingstate r
        ORDER BY r.id LIMIT 1),
       (SELECT md5(string_agg(i::text, ',' ORDER BY i.id)) FROM tournaments_invitation i
        WHERE i.league_id = l.id),
       (SELECT md5(string_agg(k::text || '|' || COALESCE(u.username, ''), ',' ORDER BY k.id))
        FROM tournaments_playerclaim k LEFT JOIN auth_user u ON u.id = k.user_id
        WHERE k.player_id IN (SELECT e.player_id FROM tournaments_entry e
                              WHERE e.league_id = l.id)),
       (SELECT md5(string_agg(k::text, ',' ORDER BY k.id)) FROM tournaments_resultlink k
        WHERE k.entry_id IN (SELECT e.id FROM tournaments_entry e WHERE e.league_id = l.id))
FROM tournaments_league l LEFT JOIN tournaments_leaguerevision v ON v.league_id = l.id
WHERE l.slug = %s
"""


def manage_stamp(slug: str) -> str | None:
    """What a league's manage page shows beyond the visitor (one query): see
    ``MANAGE_STAMP_SQL``. None where no revision is kept."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(MANAGE_STAMP_SQL, [slug])
        found = cursor.fetchone()
    return None if found is None else joined_stamp_text("o", found)
