from __future__ import annotations

import os

import pytest

from tests.celery_worker import (
    WorkerProcess,
    broker_url_for_worker,
    use_real_broker,
    xdist_worker_index,
)


def pytest_configure(config):
    """Under pytest-xdist (``-n``, see pyproject.toml) every test process gets its own
    resources: pytest-django names the test database ``test_<name>_gwN`` itself, the live
    server binds a free port, the cache is the per-process local-memory one; the Redis
    broker of the real-worker tests is made per process here (tests/celery_worker.py)."""
    if not config.pluginmanager.hasplugin("django"):  # e.g. tests/engine with -p no:django
        return
    from django.conf import settings

    settings.TEST_CELERY_BROKER_URL = broker_url_for_worker(
        settings.TEST_CELERY_BROKER_URL,
        xdist_worker_index(),
        os.environ.get("TEST_CELERY_BROKER_DBS", ""),
    )
    _flush_by_delete()


def _flush_by_delete() -> None:
    """After each transactional test (``transactional_db``, ``live_server``, the browser,
    live-server and real-worker tests) Django empties every table with ``flush``: on
    PostgreSQL one ``TRUNCATE`` of all of them, which gives each table new files and waits
    for them on disk — about a second a test on a loaded machine. The tables of a test hold
    a few rows, so ``DELETE FROM`` each, in the same one transaction, empties them in
    milliseconds: Django's foreign keys are ``DEFERRABLE INITIALLY DEFERRED`` (checked at the
    commit, when every table is empty) and the only triggers (the league revisions',
    migration 0017) find no league left to raise at that commit. A flush that resets the
    sequences or cascades to tables outside the list keeps the ``TRUNCATE``."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush
    if getattr(truncate, "by_delete", False):
        return

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        delete = style.SQL_KEYWORD("DELETE FROM")
        return [" ".join(f"{delete} {style.SQL_FIELD(self.quote_name(t))};" for t in tables)]

    sql_flush.by_delete = True
    DatabaseOperations.sql_flush = sql_flush


#: tests that start a worker, servers or a browser, or run the real analysis engine: all
#: also ``slow`` (left out of the fast suite, ``pytest -m "not slow"``)
SLOW_KINDS = ("celery_worker", "browser", "live_servers", "real_engine")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        kinds = any(item.get_closest_marker(kind) for kind in SLOW_KINDS)
        if kinds or "celery_worker" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def celery_worker(transactional_db):
    """A real Celery worker (subprocess) consuming the Redis test broker, and this process's
    Celery app switched to that broker. Tests using it see committed data only, hence the
    transactional database."""
    with use_real_broker() as app:
        app.control.purge()
        worker = WorkerProcess()
        try:
            worker.wait_ready()
            yield worker
        finally:
            worker.stop()


@pytest.fixture(autouse=True)
def _one_celery_app(request):
    """The services send tasks through ``current_app``: a test that leaves another Celery
    app current (``Celery()`` makes itself current by default) sends every later test's
    tasks of this process to that app's broker. Such a test fails here, and the platform's
    app is made current again."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from celery import _state

    from config.celery_app import app

    yield
    if _state.get_current_app() is not app:
        _state._set_current_app(app)
        pytest.fail("the test left another Celery app current: make it with set_as_current=False")


@pytest.fixture(scope="session", autouse=True)
def _timer_threads_let_go(request):
    """Live play's in-process timer threads keep their database connections; they close
    them before the test database is dropped (set up after it, so torn down before).
    Without pytest-django (``-p no:django``, the engine's tests) there is nothing to do."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    request.getfixturevalue("django_db_setup")
    yield
    from live.dispatch import timer_close_connections

    timer_close_connections()


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Pages cache rendered HTML per snapshot: every test starts with an empty cache."""
    if not request.config.pluginmanager.hasplugin("django"):  # no Django, no cache
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _league_revisions_raised_at_once(request):
    """A league's content revision is raised at the commit (deferred triggers, migration
    0017); a test inside one rolled-back transaction never commits, so its revisions are
    raised at the end of each statement instead, as every commit does in production."""
    marker = request.node.get_closest_marker("django_db")
    names = request.fixturenames
    transactional = (
        "transactional_db" in names
        or "live_server" in names
        or bool(marker and marker.kwargs.get("transaction"))
    )
    if transactional or not ("db" in names or marker is not None):
        yield
        return
    request.getfixturevalue("db")
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS maedn_revision IMMEDIATE")
    yield


@pytest.fixture(autouse=True)
def _language_and_time_zone_of_a_fresh_process(request):
    """A request through the test client leaves the language it asked for (LocaleMiddleware's
    ``activate``) active in this thread after the test; what a later test renders outside a
    request (a notification's text) would then be German or English by the order the tests
    ran in. Every test starts as a fresh process does: the default language and time zone."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import timezone, translation

        translation.deactivate()
        timezone.deactivate()


@pytest.fixture(autouse=True)
def _broker_outage_forgotten(request):
    """A failed publish pauses this process's publishing for a few seconds
    (tournaments/services/broker.py): a test that made one must not pause the next test."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from tournaments.services.broker import publish_succeeded

        publish_succeeded()


@pytest.fixture(autouse=True)
def _celery_may_join_results():
    """Celery keeps "a task is running here, joining a result would block" in one flag per
    process (``celery._state``), not per thread: an eager task run by a background thread
    of an earlier test (a live room's timer, a broadcast held by a hung Redis) sets it for
    the whole process while it runs, and a later test's ``result.get()`` in the main
    thread is then refused ("Never call result.get() within a task!"). Every test starts
    as a fresh process does: not inside a task."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield
