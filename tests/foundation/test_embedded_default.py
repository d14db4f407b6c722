"""The run command's path: SQLite, Celery in-process, the demo season loaded, pages served.
Runs the real management commands in a subprocess against a scratch SQLite file."""

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import django
django.setup()
from django.test import Client
from tournaments.models import League, StandingsRow
from ratings.models import PlayerRating
assert League.objects.count() == 7, League.objects.count()  # + 2 finished 3T cups
assert StandingsRow.objects.filter(played__gt=0).exists()
# a ratings table across the leagues, and a world ranking from the two cups
assert PlayerRating.objects.count() == 12, PlayerRating.objects.count()
assert len(set(PlayerRating.objects.values_list("display", flat=True))) > 5
client = Client()
ranking = client.get("/api/v1/rankings/").json()
assert len(ranking) == 5 and ranking[0]["points"] > ranking[-1]["points"], ranking
for url in ["/", "/leagues/xleague-demo/standings/", "/leagues/nine-2t-plus/schedule/",
            "/leagues/grand-prix-six/standings/", "/leagues/grand-prix-six/schedule/",
            "/leagues/open-club-night/standings/", "/leagues/open-club-night/schedule/",
            "/leagues/triple-threat-mixed/schedule/",
            "/ratings/", "/rankings/", "/players/anna/", "/healthz", "/admin/login/"]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
gp = League.objects.get(slug="grand-prix-six")
assert gp.board == 6 and gp.fixtures.filter(status="confirmed").exists()
assert all(len(s.colours) == 2 for f in gp.fixtures.all() for s in f.seats.all())
assert League.objects.get(slug="open-club-night").fixtures.filter(stage="final").exists()
tt = League.objects.get(slug="triple-threat-mixed")
assert sorted({f.format or tt.format for f in tt.fixtures.all()}) == ["3T", "3T+", "GP"]
# three XLeague games have a move analysis (the platform's own); their game pages show it
from games.models import GameAnalysis
done = GameAnalysis.objects.filter(status="done", format="maedn-analysis/5")
assert done.count() == 3, list(GameAnalysis.objects.values_list("status", "format"))
fixture = done.first().log.results.first().fixture
page = client.get(f"/games/{fixture.pk}/").content.decode()
assert 'id="analysis-data"' in page and "analysis-summary" in page
assert client.get("/leagues/xleague-demo/dice/").status_code == 200
print("ok")
"""


def test_demo_season_on_the_embedded_default(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL"}}
    env.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings.base",
        LOG_LEVEL="WARNING",
    )

    def run(*args):
        result = subprocess.run(
            [sys.executable, *args],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    run("manage.py", "migrate", "--noinput", "-v0")
    out = run("manage.py", "demo", "--if-empty")
    assert "XLeague demo season" in out
    assert "nothing to do" in run("manage.py", "demo", "--if-empty")  # idempotent
    assert run("-c", CHECK).strip().endswith("ok")
