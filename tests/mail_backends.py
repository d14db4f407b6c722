"""An e-mail backend for tests that run a real worker: it appends every message to
``$TEST_MAIL_DIR/sent.jsonl`` (so the test process sees what the worker sent) and fails
once for an address that has a ``fail-<address>`` marker file there (a failure the task's
retry must recover from without sending anything twice)."""

from __future__ import annotations

import json
import os
import smtplib
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend


class RecordingBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        folder = Path(os.environ["TEST_MAIL_DIR"])
        sent = 0
        for message in email_messages:
            for address in message.to:
                marker = folder / f"fail-{address}"
                if marker.exists():
                    marker.unlink()
                    raise smtplib.SMTPServerDisconnected(f"test failure for {address}")
            with (folder / "sent.jsonl").open("a", encoding="utf-8") as out:
                out.write(
                    json.dumps(
                        {
                            "to": message.to,
                            "subject": message.subject,
                            "headers": message.extra_headers,
                        }
                    )
                    + "\n"
                )
            sent += 1
        return sent


def sent_messages(folder: Path) -> list[dict]:
    path = folder / "sent.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
