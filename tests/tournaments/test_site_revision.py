"""The site's revision (``SiteRevision``, migration 0020) and the folding of the
per-session revision counters (``services.revisions.revisions_fold``): the site-wide
stamps read one sum, flat in the number of leagues; every league's raise and every league
made or deleted raises it (once a commit); folding the ended sessions' rows keeps the sums
and leaves a live session's row."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from tests.builders import make_league, make_player, make_user
from tournaments.models import League, LeagueRevision, PlayersRevision, SiteRevision
from tournaments.selectors import leagues as league_selectors
from tournaments.services.revisions import revisions_fold

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the triggers are PostgreSQL's"
)


def site_revision() -> int:
    return sum(SiteRevision.objects.values_list("n", flat=True))


def test_the_site_wide_stamps_read_no_league_row():
    """Flat: one sum of the live sessions' counters, not a digest of every league."""
    for sql in (
        league_selectors.SITE_STAMP_SQL,
        league_selectors.DIRECTORY_STAMP_SQL,
        league_selectors.RATINGS_STAMP_SQL,
    ):
        assert "tournaments_league" not in sql


@pytest.mark.django_db
def test_every_change_of_a_league_raises_the_site_revision():
    owner = make_user("sid")
    before = league_selectors.site_stamp()
    league = make_league(owner, "sitewide")
    made = league_selectors.site_stamp()
    assert made != before
    League.objects.filter(pk=league.pk).update(name="Renamed")
    renamed = league_selectors.site_stamp()
    assert renamed != made
    # the recompute worker's claim shows nowhere: neither the league's nor the site's
    n = LeagueRevision.objects.get(league=league).n
    from django.utils import timezone

    League.objects.filter(pk=league.pk).update(standings_claimed_until=timezone.now())
    assert league_selectors.site_stamp() == renamed
    assert LeagueRevision.objects.get(league=league).n == n
    player = make_player("Sam")
    from tournaments.models import Entry

    Entry.objects.create(league=league, player=player)
    entered = league_selectors.site_stamp()
    assert entered != renamed
    # (a league without entries: in the tests' immediate mode a cascade re-raises the
    # revision of a league being deleted; at the commit, in production, it finds none)
    gone = make_league(owner, "gone")
    made_too = league_selectors.site_stamp()
    assert made_too != entered
    League.objects.filter(pk=gone.pk).delete()
    assert league_selectors.site_stamp() != made_too


@pytest.mark.django_db(transaction=True)
def test_a_commit_raises_the_site_revision_once():
    owner = make_user("sue")
    start = site_revision()
    with transaction.atomic():
        one = make_league(owner, "one")
        make_league(owner, "two")
        League.objects.filter(pk=one.pk).update(name="One Renamed")
        assert site_revision() == start
    assert site_revision() == start + 1
    from tournaments.models import Entry

    Entry.objects.create(league=one, player=make_player("Eve"))
    assert site_revision() == start + 2
    League.objects.filter(pk=one.pk).delete()  # its entries with it, raised at the commit
    assert site_revision() == start + 3


@pytest.mark.django_db(transaction=True)
def test_folding_keeps_the_sums_and_the_live_sessions_rows():
    make_player("Fay")  # this session's own row in both tables
    owner = make_user("fold-owner")
    make_league(owner, "fold")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    # sessions that have ended (no server process has these ids)
    for model in (PlayersRevision, SiteRevision):
        model.objects.create(backend=2_000_000_001, n=5)
        model.objects.create(backend=2_000_000_002, n=7)
    sums = {m: sum(m.objects.values_list("n", flat=True)) for m in (PlayersRevision, SiteRevision)}
    before = (league_selectors.directory_stamp(), league_selectors.players_stamp())
    left = revisions_fold()
    for model in (PlayersRevision, SiteRevision):
        assert sum(model.objects.values_list("n", flat=True)) == sums[model]
        backends = set(model.objects.values_list("backend", flat=True))
        assert pid in backends and 0 in backends
        assert not backends & {2_000_000_001, 2_000_000_002}
    assert (league_selectors.directory_stamp(), league_selectors.players_stamp()) == before
    assert left["tournaments_siterevision"] == SiteRevision.objects.count()
    # a second fold finds nothing more to fold, and a later raise still adds
    revisions_fold()
    assert sum(SiteRevision.objects.values_list("n", flat=True)) == sums[SiteRevision]
    make_league(owner, "after-fold")
    assert sum(SiteRevision.objects.values_list("n", flat=True)) == sums[SiteRevision] + 1
