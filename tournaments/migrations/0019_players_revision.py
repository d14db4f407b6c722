"""``PlayersRevision``: the players' revision, raised by the database at the commit of every
transaction that made, changed or deleted a player, for the pages that show players
whatever their leagues (the search, the API's list of players) and the site-wide tables
(ratings, rankings): docs/pages.md, "Stored renderings".

The player table's deferred trigger of migration 0017 (which raises the leagues a player
is entered in, on an update) now fires on inserts and deletes too and, after the leagues,
adds one to the counter of its database session (``pg_backend_pid()``): a session runs
one transaction at a time, so no two committing transactions ever wait for the same
counter row, whatever else they raise (no lock-order cycle with the leagues' rows). The
revision is the sum of the counters. On another database (SQLite) nothing is made and
nothing is stored under it."""

from django.db import migrations, models

RAISE = """
CREATE OR REPLACE FUNCTION maedn_players_raise() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    now text := txid_current() || ':' || statement_timestamp();
BEGIN
    IF current_setting('maedn.players_raised', true) = now THEN
        RETURN;
    END IF;
    PERFORM set_config('maedn.players_raised', now, true);
    INSERT INTO tournaments_playersrevision (backend, n) VALUES (pg_backend_pid(), 1)
        ON CONFLICT (backend) DO UPDATE SET n = tournaments_playersrevision.n + 1;
END $$;
"""


def _player_trigger(*, players: bool) -> str:
    """The player table's trigger: its leagues raised (an update: a rename, a suffix, an
    account linked shows on their pages), then, with ``players``, the players' revision
    (any insert, update or delete)."""
    events = "INSERT OR UPDATE OR DELETE" if players else "UPDATE"
    also = "PERFORM maedn_players_raise();" if players else ""
    return f"""
CREATE OR REPLACE FUNCTION maedn_touch_tournaments_player() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r tournaments_player%ROWTYPE;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    PERFORM maedn_league_raise(t.id)
        FROM (SELECT e.league_id FROM tournaments_entry e WHERE e.player_id = r.id) AS t(id)
        ORDER BY t.id;
    {also}
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS maedn_revision ON tournaments_player;
CREATE CONSTRAINT TRIGGER maedn_revision AFTER {events} ON tournaments_player
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    EXECUTE FUNCTION maedn_touch_tournaments_player();
"""


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
        ("tournaments", "0018_standings_sums"),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayersRevision",
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
            _run([RAISE, _player_trigger(players=True)]),
            _run(
                [
                    _player_trigger(players=False),
                    "DROP FUNCTION IF EXISTS maedn_players_raise();",
                ]
            ),
        ),
    ]
