"""Issue 22: ``X-Forwarded-Proto`` marks a request as HTTPS only when a trusted proxy is
configured (``NUM_PROXIES`` > 0); otherwise any client could send the header."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.foundation.test_settings import PRODUCTION, READ_VARIABLES, REPO_ROOT

PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps(getattr(settings, "SECURE_PROXY_SSL_HEADER", None)))
"""


def proxy_header(**overrides: str):
    env = {k: v for k, v in os.environ.items() if k not in READ_VARIABLES}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base", EMAIL_BACKEND="smtp")
    env.update(PRODUCTION, **overrides)
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_no_proxy_no_forwarded_proto():
    assert proxy_header() is None
    assert proxy_header(NUM_PROXIES="0") is None


def test_behind_a_proxy_the_header_is_trusted():
    assert proxy_header(NUM_PROXIES="1") == ["HTTP_X_FORWARDED_PROTO", "https"]
