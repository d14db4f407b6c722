"""The history table leaves half of each page free (issue 31, docs/ratings.md "What a
correction writes"): a replay rewrites history rows without changing any indexed column,
and with room on the page PostgreSQL rewrites them in place (heap-only tuples: none of the
table's four indexes is touched) — rewriting every row of a 90,000-row history took 0.8–1.3 s
instead of 4–5 s. The table is rewritten once so that the rows already there get the room
(``VACUUM FULL``: it locks the history table for the seconds it takes — about two at 100×
the demo, 223,625 rows — so the migration runs outside a transaction). PostgreSQL only (a
storage parameter); nothing elsewhere."""

from django.db import migrations


def fillfactor(value):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table = apps.get_model("ratings", "RatingChange")._meta.db_table
        if value is None:
            schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")
        else:
            schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {value})")
        schema_editor.execute(f"VACUUM FULL ANALYZE {table}")

    return apply


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(fillfactor(50), fillfactor(None))]
