"""The history table leaves half of each page free (issue 31, docs/ratings.md "What a
correction writes"): a replay rewrites history rows without changing any indexed column,
and with room on the page PostgreSQL updates them in place (a heap-only tuple: none of the
table's four indexes is touched), which halved the cost of rewriting every row. It applies
to rows written after it: ``manage.py ratings_recompute`` writes the whole history anew.
PostgreSQL only (a storage parameter); nothing elsewhere."""

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

    return apply


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(fillfactor(50), fillfactor(None))]
