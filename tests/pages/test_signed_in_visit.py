"""A stored signed-in page is the session and one statement (tournaments/web/personal.py,
``stored_visit``): the account, its inbox count, its organizer rights over the league and
the page's stamp read together, the session checked as Django checks it. Whatever changes
— the account's rights over the league, its password, its active flag, its name, the
page's content, the language — the next visit is never a page stored before the change
for someone who may no longer see it: a removed organizer gets the 403, a changed password
or a deactivated account the log-in page. The SQL form of the organizer rule agrees with
``is_organizer``; a query string the page does not know is sent to the page without it (no
stored page per made-up address)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.builders import PASSWORD, make_user
from tests.pages.test_stored_renderings import fresh, shows_the_truth, store, visit
from tournaments.models import League
from tournaments.permissions import IS_ORGANIZER_SQL, is_organizer
from tournaments.web.desk import DESK
from tournaments.web.entries import MY_LEAGUES
from tournaments.web.me import MY_GAMES
from tournaments.web.organize import MANAGE
from tournaments.web.personal import visit_statement

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers are PostgreSQL's"),
]


def urls(league) -> dict[str, str]:
    return {
        "me": "/me/",
        "my leagues": "/me/leagues/",
        "manage": f"/leagues/{league.slug}/manage/",
        "desk": f"/leagues/{league.slug}/desk/",
    }


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def statements_of(client, url: str) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        html = visit(client, url)
    return html, [q["sql"] for q in queries]


@pytest.mark.parametrize("page", ["me", "my leagues", "manage", "desk"])
def test_a_stored_visit_is_one_statement(league, owner, erin_user, page):
    user = owner if page in ("manage", "desk") else erin_user
    client = signed_in(user)
    url = urls(league)[page]
    first = visit(client, url)
    again, statements = statements_of(client, url)
    assert again == first
    # the session from the cache; the account, inbox, rights and stamp in one statement
    assert len(statements) == 1, statements
    assert statements[0].startswith("SELECT u.password")


def test_the_organizer_rule_in_sql_is_is_organizer(league, owner, erin_user, carol_user):
    co, staff, stranger = make_user("cora"), make_user("stan", staff=True), make_user("otto")
    league.organizers.add(co)
    other = League.objects.exclude(pk=league.pk).first() or league
    for user in (owner, co, staff, stranger, erin_user, carol_user):
        for each in {league, other}:
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT {IS_ORGANIZER_SQL} FROM auth_user u, tournaments_league l"
                    " WHERE u.id = %s AND l.id = %s",
                    [user.pk, each.pk],
                )
                (found,) = cursor.fetchone()
            assert found == is_organizer(user, each), (user, each)


@pytest.mark.parametrize("page", ["manage", "desk"])
def test_an_organizer_removed_gets_the_refusal_not_the_stored_page(league, owner, page):
    co = make_user("cora")
    league.organizers.add(co)
    client = signed_in(co)
    url = urls(league)[page]
    store(client, url)
    assert client.get(url).status_code == 200
    league.organizers.remove(co)
    assert client.get(url).status_code == 403
    league.organizers.add(co)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("page", ["manage", "desk"])
def test_staff_rights_taken_away_end_the_stored_page(league, page):
    stan = make_user("stan", staff=True)
    client = signed_in(stan)
    url = urls(league)[page]
    store(client, url)
    assert client.get(url).status_code == 200
    type(stan).objects.filter(pk=stan.pk).update(is_staff=False)  # no signal, no save
    assert client.get(url).status_code == 403


@pytest.mark.parametrize("page", ["me", "my leagues", "manage", "desk"])
def test_a_changed_password_or_a_deactivated_account_is_signed_out(league, owner, erin_user, page):
    user = owner if page in ("manage", "desk") else erin_user
    url = urls(league)[page]
    for change in ("password", "active"):
        client = signed_in(user)
        store(client, url)
        if change == "password":
            user.set_password(PASSWORD + "-new")
            user.save(update_fields=["password"])
        else:
            type(user).objects.filter(pk=user.pk).update(is_active=False)
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"], change
        type(user).objects.filter(pk=user.pk).update(is_active=True)
        user.refresh_from_db()


@pytest.mark.parametrize("page", ["me", "my leagues", "manage", "desk"])
def test_a_renamed_account_sees_its_new_name(league, owner, erin_user, page):
    user = owner if page in ("manage", "desk") else erin_user
    client = signed_in(user)
    url = urls(league)[page]
    store(client, url)
    type(user).objects.filter(pk=user.pk).update(username=f"{user.username}-renamed")
    html = shows_the_truth(client, url)
    assert f"{user.username}-renamed" in html


def test_a_co_organizer_made_owner_gets_the_owners_page(league, owner):
    co = make_user("cora")
    league.organizers.add(co)
    client = signed_in(co)
    url = urls(league)["manage"]
    as_co = store(client, url)
    League.objects.filter(pk=league.pk).update(owner=co)
    league.organizers.add(owner)
    as_owner = shows_the_truth(client, url)
    assert as_owner != as_co


def test_an_unknown_query_string_is_the_page_without_it(league, owner, erin_user):
    erin, olga = signed_in(erin_user), signed_in(owner)
    for client, url, to in (
        (erin, "/me/?games=everything", "/me/"),
        (erin, "/me/?games=all&x=1", "/me/?games=all"),
        (erin, "/me/leagues/?utm=1", "/me/leagues/"),
        (olga, f"{urls(league)['manage']}?page=2", urls(league)["manage"]),
        (olga, f"{urls(league)['desk']}?x", urls(league)["desk"]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"] == to, url
    cache.clear()
    visit(erin, "/me/")
    visit(erin, "/me/?games=all")
    for n in range(5):
        assert erin.get(f"/me/?games={n}").status_code == 302
    stored = [k for k in cache._cache if "personal-page:" in k]  # locmem's keys
    assert len(stored) == 2  # the page and ?games=all, nothing per made-up address
    assert visit(erin, "/me/?games=all") == fresh(erin, "/me/?games=all")


def test_the_statement_binds_the_account_as_a_parameter():
    """The inbox count is correlated with the statement's account row: no id is written
    into the SQL text (the statement is compiled once for every account)."""
    for page in (MY_GAMES, MY_LEAGUES, MANAGE, DESK):
        sql, params = visit_statement(page)
        assert sql.endswith("WHERE u.id = %s")
        assert "-987" not in sql and all(not isinstance(p, int) or p in (0, 1) for p in params)


def test_two_accounts_counts_are_their_own(league, owner, erin_user):
    from notifications.models import Notification

    Notification.objects.create(
        user=owner, kind="game_overdue", key="k", subject="s", in_inbox=True
    )
    olga, erin = signed_in(owner), signed_in(erin_user)
    for _ in range(2):
        assert 'id="unread-count">1<' in visit(olga, "/me/leagues/")
        assert 'id="unread-count">1<' not in visit(erin, "/me/leagues/")
