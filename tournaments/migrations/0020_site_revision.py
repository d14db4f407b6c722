"""``SiteRevision``: one revision of every league together, raised by the database at the
commit of every transaction that raised any league's revision or made or deleted a league,
so the site-wide stamps (home, search, ratings, rankings, the API's lists of leagues and
games) read one sum instead of digesting every league's revision (flat however many leagues
there are: docs/pages.md, "Stored renderings").

Kept as ``PlayersRevision`` is: one counter per database session (``pg_backend_pid()``),
the revision their sum, so no two committing transactions wait for one row (no lock-order
cycle with the leagues' rows). ``maedn_league_raise`` (migration 0017) now also raises it,
once per transaction; the league table's deferred trigger now also fires on an insert or
a delete and raises it. The rows of sessions that ended are folded into row 0 by ``revisions_fold`` (a
periodic task), keeping the sum. On another database (SQLite) nothing is made."""

from django.db import migrations, models

SITE_RAISE = """
CREATE OR REPLACE FUNCTION maedn_site_raise() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    now text := txid_current() || ':' || statement_timestamp();
BEGIN
    IF current_setting('maedn.site_raised', true) = now THEN
        RETURN;
    END IF;
    PERFORM set_config('maedn.site_raised', now, true);
    INSERT INTO tournaments_siterevision (backend, n) VALUES (pg_backend_pid(), 1)
        ON CONFLICT (backend) DO UPDATE SET n = tournaments_siterevision.n + 1;
END $$;
"""


def _league_raise(*, site: bool) -> str:
    """Migration 0017's raise of one league, with ``site`` also the site's revision (every
    league raised: its pages, and so the site-wide ones, may show something new)."""
    also = "PERFORM maedn_site_raise();" if site else ""
    return f"""
CREATE OR REPLACE FUNCTION maedn_league_raise(league bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    done text := 'maedn.raised_' || league;
    now text := txid_current() || ':' || statement_timestamp();
BEGIN
    IF league IS NULL OR current_setting(done, true) = now THEN
        RETURN;
    END IF;
    PERFORM set_config(done, now, true);
    {also}
    INSERT INTO tournaments_leaguerevision (league_id, n)
        SELECT l.id, 1 FROM tournaments_league l WHERE l.id = league
        ON CONFLICT (league_id) DO UPDATE SET n = tournaments_leaguerevision.n + 1;
END $$;
"""


#: the league's own trigger (migration 0017's, on an update) now also on an insert and a
#: delete (the site's revision: a league made or deleted); the recompute worker's claim
#: (``standings_claimed_until``) still raises nothing. Same name, so whatever sets the
#: revision triggers ``IMMEDIATE`` (the tests) sets this one too.
LEAGUE = """
CREATE OR REPLACE FUNCTION maedn_touch_tournaments_league() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF (to_jsonb(NEW) - 'standings_claimed_until')
           IS DISTINCT FROM (to_jsonb(OLD) - 'standings_claimed_until') THEN
            PERFORM maedn_league_raise(NEW.id);
        END IF;
    ELSE
        PERFORM maedn_site_raise();
    END IF;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS maedn_revision ON tournaments_league;
CREATE CONSTRAINT TRIGGER maedn_revision AFTER INSERT OR UPDATE OR DELETE ON tournaments_league
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    EXECUTE FUNCTION maedn_touch_tournaments_league();
"""

#: migration 0017's
LEAGUE_BEFORE = """
CREATE OR REPLACE FUNCTION maedn_touch_tournaments_league() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM maedn_league_raise(NEW.id);
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS maedn_revision ON tournaments_league;
CREATE CONSTRAINT TRIGGER maedn_revision AFTER UPDATE ON tournaments_league
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN ((to_jsonb(NEW) - 'standings_claimed_until')
          IS DISTINCT FROM (to_jsonb(OLD) - 'standings_claimed_until'))
    EXECUTE FUNCTION maedn_touch_tournaments_league();
"""

BACKWARDS = [
    _league_raise(site=False),
    LEAGUE_BEFORE,
    "DROP FUNCTION IF EXISTS maedn_site_raise();",
]


def _run(statements: list[str]):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        with schema_editor.connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_players_revision"),
    ]

    operations = [
        migrations.CreateModel(
            name="SiteRevision",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("backend", models.IntegerField(unique=True)),
                ("n", models.PositiveBigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(
            _run([SITE_RAISE, _league_raise(site=True), LEAGUE]),
            _run(BACKWARDS),
        ),
    ]
