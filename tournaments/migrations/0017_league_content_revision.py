"""``League.content_revision``: raised by PostgreSQL triggers whenever a row the league's
pages show changes, so a rendering stored under it is exact (docs/pages.md, "Stored
renderings"). Statement-level triggers with transition tables: a statement creating a
DRR's thousands of games raises the revision once. On another database (SQLite) no trigger
is made and the pages never store a rendering under the revision (``tournaments.web.
revisions``)."""

from django.db import migrations, models

#: (table, how its changed rows name their leagues: SQL over the transition table ``c``)
TOUCHING = [
    ("tournaments_fixture", "SELECT c.league_id FROM c"),
    ("tournaments_entry", "SELECT c.league_id FROM c"),
    ("tournaments_cycle", "SELECT c.league_id FROM c"),
    ("tournaments_series", "SELECT c.league_id FROM c"),
    ("tournaments_openround", "SELECT c.league_id FROM c"),
    ("tournaments_tiebreakroll", "SELECT c.league_id FROM c"),
    ("tournaments_league_organizers", "SELECT c.league_id FROM c"),
    ("tournaments_standingssnapshot", "SELECT c.league_id FROM c"),
    ("tournaments_standingsfailure", "SELECT c.league_id FROM c"),
    ("tournaments_leagueratingdecision", "SELECT c.league_id FROM c"),
    (
        "tournaments_seat",
        "SELECT f.league_id FROM c JOIN tournaments_fixture f ON f.id = c.fixture_id",
    ),
    (
        "tournaments_result",
        "SELECT f.league_id FROM c JOIN tournaments_fixture f ON f.id = c.fixture_id",
    ),
    (
        "tournaments_rejectedsubmission",
        "SELECT f.league_id FROM c JOIN tournaments_fixture f ON f.id = c.fixture_id",
    ),
    (
        "tournaments_cycleseed",
        "SELECT y.league_id FROM c JOIN tournaments_cycle y ON y.id = c.cycle_id",
    ),
    (
        "tournaments_standingsrow",
        "SELECT s.league_id FROM c JOIN tournaments_standingssnapshot s ON s.id = c.snapshot_id",
    ),
    # a player's name, suffix or link shows on every league they are entered in
    (
        "tournaments_player",
        "SELECT e.league_id FROM c JOIN tournaments_entry e ON e.player_id = c.id",
    ),
    # a game page shows its log's stored figures and its move analysis (the analyses'
    # task writes them long after the result)
    (
        "games_gamelog",
        "SELECT f.league_id FROM c JOIN tournaments_result r ON r.game_log_id = c.id"
        " JOIN tournaments_fixture f ON f.id = r.fixture_id",
    ),
    (
        "games_gameanalysis",
        "SELECT f.league_id FROM c JOIN tournaments_result r ON r.game_log_id = c.log_id"
        " JOIN tournaments_fixture f ON f.id = r.fixture_id",
    ),
    # an owner's confirmed address decides a club install's "rated" line
    (
        "tournaments_confirmedemail",
        "SELECT l.id FROM c JOIN tournaments_league l ON l.owner_id = c.user_id",
    ),
]

#: tables whose rows only show through an update
UPDATE_ONLY = {"tournaments_player"}

#: the user names of the owner, the organizers, the rating officers and of who sent or
#: decided a result, and the staff flag (the "rated" line) show on the league's pages: a row trigger, only when one of them changed
#: (a sign-in writes ``last_login``, which no league shows)
USER_ROW = """
CREATE OR REPLACE FUNCTION maedn_touch_auth_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tournaments_league SET content_revision = content_revision + 1
    WHERE id IN (
        SELECT id FROM tournaments_league WHERE id IN (
            SELECT l.id FROM tournaments_league l WHERE l.owner_id = NEW.id
            UNION SELECT o.league_id FROM tournaments_league_organizers o WHERE o.user_id = NEW.id
            UNION SELECT d.league_id FROM tournaments_leagueratingdecision d
                WHERE d.decided_by_id = NEW.id OR d.requested_by_id = NEW.id
            UNION SELECT f.league_id FROM tournaments_result r
                JOIN tournaments_fixture f ON f.id = r.fixture_id
                WHERE r.submitted_by_id = NEW.id OR r.decided_by_id = NEW.id
        ) ORDER BY id FOR UPDATE
    );
    RETURN NULL;
END $$;
CREATE TRIGGER maedn_touch_update AFTER UPDATE OF username, is_staff ON auth_user FOR EACH ROW
    WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.is_staff IS DISTINCT FROM NEW.is_staff)
    EXECUTE FUNCTION maedn_touch_auth_user();
"""

#: league columns whose change shows nowhere (a worker's claim on the standings recompute)
QUIET = "ARRAY['content_revision', 'standings_claimed_until']"

LEAGUE_ROW = f"""
CREATE OR REPLACE FUNCTION maedn_league_revise() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- never set from outside: a save() of a league read earlier cannot take it back
    IF NEW.content_revision <> OLD.content_revision
       OR (to_jsonb(NEW) - {QUIET}) IS DISTINCT FROM (to_jsonb(OLD) - {QUIET}) THEN
        NEW.content_revision := OLD.content_revision + 1;
    ELSE
        NEW.content_revision := OLD.content_revision;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER maedn_league_revise BEFORE UPDATE ON tournaments_league
    FOR EACH ROW EXECUTE FUNCTION maedn_league_revise();
"""


def _function(table: str, leagues: str) -> str:
    """One function per table: raise the revision of the leagues of the changed rows (locked
    in id order, so two statements touching the same leagues never deadlock each other)."""
    return f"""
CREATE OR REPLACE FUNCTION maedn_touch_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tournaments_league SET content_revision = content_revision + 1
    WHERE id IN (
        SELECT id FROM tournaments_league WHERE id IN ({leagues}) ORDER BY id FOR UPDATE
    );
    RETURN NULL;
END $$;
"""


def forwards_sql() -> list[str]:
    out = [LEAGUE_ROW, USER_ROW]
    for table, leagues in TOUCHING:
        events = ["UPDATE"] if table in UPDATE_ONLY else ["INSERT", "UPDATE", "DELETE"]
        body = leagues.replace("FROM c", "FROM changed c")
        out.append(_function(table, body))
        for event in events:
            refs = {
                "INSERT": "NEW TABLE AS changed",
                "DELETE": "OLD TABLE AS changed",
                "UPDATE": "NEW TABLE AS changed",
            }[event]
            out.append(
                f"CREATE TRIGGER maedn_touch_{event.lower()} AFTER {event} ON {table} "
                f"REFERENCING {refs} FOR EACH STATEMENT EXECUTE FUNCTION maedn_touch_{table}();"
            )
    return out


def backwards_sql() -> list[str]:
    out = ["DROP TRIGGER IF EXISTS maedn_league_revise ON tournaments_league;"]
    out.append("DROP FUNCTION IF EXISTS maedn_league_revise();")
    out.append("DROP TRIGGER IF EXISTS maedn_touch_update ON auth_user;")
    out.append("DROP FUNCTION IF EXISTS maedn_touch_auth_user();")
    for table, _ in TOUCHING:
        for event in ("insert", "update", "delete"):
            out.append(f"DROP TRIGGER IF EXISTS maedn_touch_{event} ON {table};")
        out.append(f"DROP FUNCTION IF EXISTS maedn_touch_{table}();")
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
        migrations.AddField(
            model_name="league",
            name="content_revision",
            field=models.PositiveBigIntegerField(
                db_default=0,
                default=0,
                editable=False,
                help_text="raised by the database with every change of what the league's pages "
                "show (the league, its entries, players, games, seats, results, DRRs, series, "
                "standings; migration 0017's triggers, PostgreSQL): the key of their stored "
                "renderings",
            ),
        ),
        migrations.RunPython(_run(forwards_sql), _run(backwards_sql)),
    ]
