"""The standings sums kept by the counting transaction (issue 31, docs/results.md "Sums
kept by the counting transaction"), and on PostgreSQL the triggers that mark them stale
when a counted result or a seat is changed in place by hand."""

from decimal import Decimal

import django.db.models.deletion
from django.db import migrations, models

import tournaments.models.standings_sums

#: the columns of a result that make what it adds to the standings (frozen here: the
#: selectors' RESULT_FIELDS and the fixture)
COUNTED = "fixture_id winner_id placings colour_places both_finished counted_pawns".split()
COUNTED += "completed_colours game_time forfeit_loser_id".split()


def _row(alias: str, columns) -> str:
    return "(" + ", ".join(f"{alias}.{c}" for c in columns) + ")"


#: A counted result's fields, or a seat's game or entry, changed in place: never by the
#: services (a new version is written instead), only by hand. The kept sums of the
#: league(s) concerned are marked stale (an id sum no set of results has), so that the next
#: recompute rebuilds them instead of trusting sums that no longer hold the results.
STALE = f"""
CREATE OR REPLACE FUNCTION maedn_standings_sums_stale() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tournaments_standingstally SET result_id_sum = -1
        WHERE league_id IN (SELECT f.league_id FROM tournaments_fixture f
                            WHERE f.id IN (OLD.fixture_id, NEW.fixture_id));
    RETURN NULL;
END $$;
CREATE TRIGGER maedn_standings_sums AFTER UPDATE ON tournaments_result FOR EACH ROW
    WHEN (OLD.state = 'confirmed' AND NEW.state = 'confirmed'
          AND {_row("OLD", COUNTED)} IS DISTINCT FROM {_row("NEW", COUNTED)})
    EXECUTE FUNCTION maedn_standings_sums_stale();
CREATE TRIGGER maedn_standings_sums AFTER UPDATE ON tournaments_seat FOR EACH ROW
    WHEN ((OLD.fixture_id, OLD.entry_id) IS DISTINCT FROM (NEW.fixture_id, NEW.entry_id))
    EXECUTE FUNCTION maedn_standings_sums_stale();
"""

UNSTALE = """
DROP TRIGGER IF EXISTS maedn_standings_sums ON tournaments_result;
DROP TRIGGER IF EXISTS maedn_standings_sums ON tournaments_seat;
DROP FUNCTION IF EXISTS maedn_standings_sums_stale();
"""


def _on_postgresql(sql: str):
    """A RunPython function running ``sql`` on PostgreSQL only (no kept sums elsewhere:
    the table is computed from every game)."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_league_content_revision"),
    ]

    operations = [
        migrations.CreateModel(
            name="StandingsTally",
            fields=[
                (
                    "league",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="standings_tally",
                        serialize=False,
                        to="tournaments.league",
                    ),
                ),
                (
                    "results",
                    models.PositiveIntegerField(default=0, help_text="counted results held"),
                ),
                (
                    "result_id_sum",
                    models.BigIntegerField(default=0, help_text="the sum of their ids"),
                ),
                (
                    "not_plain",
                    models.PositiveIntegerField(default=0, help_text="of them, not plain"),
                ),
                (
                    "built_at",
                    models.DateTimeField(auto_now_add=True, help_text="last rebuilt from scratch"),
                ),
            ],
        ),
        migrations.CreateModel(
            name="StandingsTallyGame",
            fields=[
                (
                    "fixture",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tournaments.fixture",
                    ),
                ),
                (
                    "results",
                    models.PositiveSmallIntegerField(default=1, help_text="counted results held"),
                ),
                ("result_id_sum", models.BigIntegerField(default=0)),
                ("plain", models.BooleanField(default=True)),
                ("seats", models.JSONField(default=list)),
                (
                    "pairs",
                    models.JSONField(
                        default=list, help_text="[[a, b, ±1], …]: head-to-head, a < b"
                    ),
                ),
                (
                    "tally",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="games",
                        to="tournaments.standingstally",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="StandingsTallyEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("played", models.IntegerField(default=0)),
                ("wins", models.IntegerField(default=0)),
                ("losses", models.IntegerField(default=0)),
                (
                    "pawns",
                    tournaments.models.standings_sums.ExactNumberField(
                        default=Decimal("0"), help_text="counted pawns difference"
                    ),
                ),
                (
                    "colours",
                    tournaments.models.standings_sums.ExactNumberField(
                        default=Decimal("0"), help_text="completed colours"
                    ),
                ),
                (
                    "game_time",
                    tournaments.models.standings_sums.ExactNumberField(
                        default=Decimal("0"), help_text="the known times, exactly"
                    ),
                ),
                (
                    "times_unknown",
                    models.IntegerField(default=0, help_text="games without a known time"),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournaments.entry",
                    ),
                ),
                (
                    "tally",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="tournaments.standingstally",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("tally", "entry"), name="tally_entry_unique")
                ],
            },
        ),
        migrations.CreateModel(
            name="StandingsTallyPair",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("score", models.IntegerField(default=0)),
                (
                    "a",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournaments.entry",
                    ),
                ),
                (
                    "b",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournaments.entry",
                    ),
                ),
                (
                    "tally",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pairs",
                        to="tournaments.standingstally",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("tally", "a", "b"), name="tally_pair_unique")
                ],
            },
        ),
        migrations.RunPython(_on_postgresql(STALE), _on_postgresql(UNSTALE)),
    ]
