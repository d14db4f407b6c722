"""``LeagueRevision``: a league's content revision, raised by PostgreSQL triggers at the
commit of every transaction that changed a row the league's pages show, so a rendering
stored under it is exact (docs/pages.md, "Stored renderings").

The triggers are deferred constraint triggers: they run at the commit, after every lock
the service took, and raise a row no service locks, so they add no lock-order cycle (a
transaction holding the revision row takes no further lock). One raise per league and
statement (the commit is one: every deferred event runs in it): later events find it done
(a transaction-local setting) and return at once, so a statement creating a DRR's thousands of games costs a
look-up each, one update in all. On another database (SQLite) no trigger is made and the
pages never store a rendering under the revision (``tournaments/selectors/leagues.py``)."""

import django.db.models.deletion
from django.db import migrations, models

#: (table, the league of a changed row ``r`` (its NEW, or OLD for a delete), as SQL)
TOUCHING = [
    ("tournaments_fixture", "r.league_id"),
    ("tournaments_entry", "r.league_id"),
    ("tournaments_cycle", "r.league_id"),
    ("tournaments_series", "r.league_id"),
    ("tournaments_openround", "r.league_id"),
    ("tournaments_tiebreakroll", "r.league_id"),
    ("tournaments_league_organizers", "r.league_id"),
    ("tournaments_standingssnapshot", "r.league_id"),
    ("tournaments_standingsfailure", "r.league_id"),
    ("tournaments_leagueratingdecision", "r.league_id"),
    (
        "tournaments_seat",
        "(SELECT f.league_id FROM tournaments_fixture f WHERE f.id = r.fixture_id)",
    ),
    (
        "tournaments_result",
        "(SELECT f.league_id FROM tournaments_fixture f WHERE f.id = r.fixture_id)",
    ),
    (
        "tournaments_rejectedsubmission",
        "(SELECT f.league_id FROM tournaments_fixture f WHERE f.id = r.fixture_id)",
    ),
    (
        "tournaments_cycleseed",
        "(SELECT y.league_id FROM tournaments_cycle y WHERE y.id = r.cycle_id)",
    ),
    (
        "tournaments_standingsrow",
        "(SELECT s.league_id FROM tournaments_standingssnapshot s WHERE s.id = r.snapshot_id)",
    ),
]

#: rows shown on the pages of several leagues: every league they name is raised
#: (table, the leagues of a changed row ``r``, a WHEN condition of an update or None)
TOUCHING_MANY = [
    # a player's name, suffix or account shows on every league they are entered in
    (
        "tournaments_player",
        "SELECT e.league_id FROM tournaments_entry e WHERE e.player_id = r.id",
        None,
    ),
    # a game page shows its log's stored figures and its move analysis (written by the
    # analyses' task long after the result)
    (
        "games_gamelog",
        "SELECT f.league_id FROM tournaments_result x"
        " JOIN tournaments_fixture f ON f.id = x.fixture_id WHERE x.game_log_id = r.id",
        None,
    ),
    (
        "games_gameanalysis",
        "SELECT f.league_id FROM tournaments_result x"
        " JOIN tournaments_fixture f ON f.id = x.fixture_id WHERE x.game_log_id = r.log_id",
        None,
    ),
    # an owner's confirmed address decides a club install's "rated" line
    (
        "tournaments_confirmedemail",
        "SELECT l.id FROM tournaments_league l WHERE l.owner_id = r.user_id",
        None,
    ),
    # the user names of the owner, the organizers, the rating officers and of who sent or
    # decided a result, and the staff flag (the "rated" line); a sign-in writes
    # ``last_login``, which no page shows
    (
        "auth_user",
        "SELECT l.id FROM tournaments_league l WHERE l.owner_id = r.id"
        " UNION SELECT o.league_id FROM tournaments_league_organizers o WHERE o.user_id = r.id"
        " UNION SELECT d.league_id FROM tournaments_leagueratingdecision d"
        " WHERE d.decided_by_id = r.id OR d.requested_by_id = r.id"
        " UNION SELECT f.league_id FROM tournaments_result x"
        " JOIN tournaments_fixture f ON f.id = x.fixture_id"
        " WHERE x.submitted_by_id = r.id OR x.decided_by_id = r.id",
        "OLD.username IS DISTINCT FROM NEW.username OR OLD.is_staff IS DISTINCT FROM NEW.is_staff",
    ),
]

RAISE = """
CREATE OR REPLACE FUNCTION maedn_league_raise(league bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    done text := 'maedn.raised_' || league;
    now text := txid_current() || ':' || statement_timestamp();
BEGIN
    IF league IS NULL OR current_setting(done, true) = now THEN
        RETURN;
    END IF;
    PERFORM set_config(done, now, true);
    INSERT INTO tournaments_leaguerevision (league_id, n)
        SELECT l.id, 1 FROM tournaments_league l WHERE l.id = league
        ON CONFLICT (league_id) DO UPDATE SET n = tournaments_leaguerevision.n + 1;
END $$;
"""

#: league columns whose change shows nowhere (a worker's claim on the standings recompute)
LEAGUE = """
CREATE OR REPLACE FUNCTION maedn_touch_tournaments_league() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM maedn_league_raise(NEW.id);
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER maedn_revision AFTER UPDATE ON tournaments_league
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN ((to_jsonb(NEW) - 'standings_claimed_until')
          IS DISTINCT FROM (to_jsonb(OLD) - 'standings_claimed_until'))
    EXECUTE FUNCTION maedn_touch_tournaments_league();
"""


def _trigger(table: str, body: str, when: str | None, events: str) -> str:
    condition = f"WHEN ({when})" if when else ""
    return f"""
CREATE OR REPLACE FUNCTION maedn_touch_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r {table}%ROWTYPE;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    {body}
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER maedn_revision AFTER {events} ON {table}
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW {condition}
    EXECUTE FUNCTION maedn_touch_{table}();
"""


def forwards_sql() -> list[str]:
    out = [RAISE, LEAGUE]
    for table, league in TOUCHING:
        body = f"PERFORM maedn_league_raise({league});"
        out.append(_trigger(table, body, None, "INSERT OR UPDATE OR DELETE"))
    for table, leagues, when in TOUCHING_MANY:
        # in the leagues' order: two such changes in one commit each (two players
        # renamed at once, sharing leagues) take the revision rows in the same order
        body = f"PERFORM maedn_league_raise(t.id) FROM ({leagues}) AS t(id) ORDER BY t.id;"
        events = "UPDATE" if when or table == "tournaments_player" else "INSERT OR UPDATE OR DELETE"
        out.append(_trigger(table, body, when, events))
    return out


def backwards_sql() -> list[str]:
    out = []
    for table in ["tournaments_league"] + [t[0] for t in TOUCHING + TOUCHING_MANY]:
        out.append(f"DROP TRIGGER IF EXISTS maedn_revision ON {table};")
        out.append(f"DROP FUNCTION IF EXISTS maedn_touch_{table}();")
    out.append("DROP FUNCTION IF EXISTS maedn_league_raise(bigint);")
    return out


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return  # no triggers: the pages do not store renderings there
        with schema_editor.connection.cursor() as cursor:
            for sql in statements():
                cursor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_championship_series_qualifiers"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("games", "0006_gamelog_uploaded_at_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="LeagueRevision",
            fields=[
                (
                    "league",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tournaments.league",
                    ),
                ),
                ("n", models.PositiveBigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(_run(forwards_sql), _run(backwards_sql)),
    ]
