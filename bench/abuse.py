"""A normal visitor's standings page while attackers replay large logs.

Two cases, each run "before" and "after" against gunicorn on 127.0.0.1 (the demo loaded
into a scratch PostgreSQL database), ATTACKERS threads posting a log to /replay/ while one
visitor fetches the standings page; prints the visitor's p50/p95 and what the attackers
got. Bounded: loopback only, a fixed number of seconds per run.

* ``anonymous`` (issue #11 point 6): ``POST /replay/`` once needed no login and had no
  throttle. Before: replay throttle off, no size bound for visitors; after: the defaults.
* ``signed-in`` (issue #22 point 5): signed-in clients (one account each) upload a valid
  49,999-event log (every roll a 1, every pawn in the yard; 1.5 MB). Before: no cap on the
  events the page draws (``REPLAY_PAGE_MAX_EVENTS`` = 10**9: the whole log, as before the
  cap); after: the defaults (3,000 events drawn, the validator still checks all).

    .venv/bin/python bench/abuse.py [--case all|anonymous|signed-in] [--seconds 10]
                                    [--attackers 2] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pages import DB_URL, ENV, PORT, fetch, prepare, wait_until_serving  # noqa: E402

PAGE = "/leagues/nine-2t-plus/standings/"


def large_log(min_bytes: int) -> str:
    """A long valid game: classic rules on board 6 play until all but one colour finish."""
    from games.engine import simulate_game

    best = ""
    for seed in range(40):
        text = json.dumps(simulate_game(rules="classic", board=6, seed=seed))
        best = max(best, text, key=len)
        if len(best) >= min_bytes:
            break
    return best


def stuck_log(events: int = 49_999) -> str:
    """A valid log of ``events`` rolls of 1 (three tries per colour, every pawn stays in its
    yard): the cheapest log to validate that is as long as game-log.md allows."""
    colours = ["red", "black", "yellow", "green"]
    rolls = [{"colour": colours[(i // 3) % 4], "die": 1} for i in range(events)]
    return json.dumps({"format": "maedn-log/1", "rules": "league", "first": "red", "events": rolls})


def csrf_session(cookie: str = "", path: str = "/replay/") -> tuple[str, str]:
    """A CSRF cookie and form token for ``path`` (with the session ``cookie``, if any)."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = conn.getresponse()
    body = response.read().decode()
    csrf = next(
        (c.split(";", 1)[0] for c in response.headers.get_all("Set-Cookie") or [] if "csrf" in c),
        "",
    )
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    conn.close()
    return "; ".join(c for c in (cookie, csrf) if c), token


BENCH_PASSWORD = "bench-only-password-1"


def make_accounts(count: int) -> None:
    """``count`` accounts ``replayer-N`` in the bench database (run once, after prepare)."""
    code = (
        "from django.contrib.auth import get_user_model\n"
        f"for i in range({count}):\n"
        "    u, _ = get_user_model().objects.get_or_create(username=f'replayer-{i}')\n"
        f"    u.set_password('{BENCH_PASSWORD}'); u.save()\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def log_in(n: int) -> str:
    """Log ``replayer-n`` in through the login form; its session cookie."""
    cookie, token = csrf_session(path="/accounts/login/")
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": f"replayer-{n}", "password": BENCH_PASSWORD}
    )
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": cookie,
        "Referer": f"http://127.0.0.1:{PORT}/accounts/login/",
    }
    conn.request("POST", "/accounts/login/", body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    session = [
        c.split(";", 1)[0]
        for c in response.headers.get_all("Set-Cookie") or []
        if c.startswith("sessionid")
    ]
    conn.close()
    if response.status != 302 or not session:
        raise SystemExit(f"could not log replayer-{n} in ({response.status})")
    return session[0]


def as_upload(token: str, log: str) -> tuple[bytes, str]:
    """A multipart form with the log as the uploaded file (a pasted 1.5 MB log, URL-encoded,
    is beyond Django's 2.5 MB form limit; an uploaded file is not)."""
    boundary = "benchboundary7f3a"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f"{token}\r\n--{boundary}\r\nContent-Disposition: form-data; "
            f'name="file"; filename="log.json"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        + log.encode()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def attack(stop: float, log: str, codes: dict, lock: threading.Lock, session: str = "") -> None:
    cookie, token = csrf_session(session)
    if session:
        body, kind = as_upload(token, log)
    else:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "content": log})
        kind = "application/x-www-form-urlencoded"
    headers = {
        "Content-Type": kind,
        "Cookie": cookie,
        "Referer": f"http://127.0.0.1:{PORT}/replay/",
    }
    while time.monotonic() < stop:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
        conn.request("POST", "/replay/", body=body, headers=headers)
        response = conn.getresponse()
        size = len(response.read())
        conn.close()
        with lock:
            codes[response.status] = codes.get(response.status, 0) + 1
            codes["bytes"] = codes.get("bytes", 0) + size


#: the shared cache the web processes count throttles in (flushed before each run)
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/0")


def run(label: str, extra_env: dict, args, log: str, *, signed_in: bool = False) -> None:
    import redis

    redis.Redis.from_url(CACHE_URL).flushdb()
    env = dict(ENV, CACHE_URL=CACHE_URL, LOG_LEVEL="ERROR", **extra_env)
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{PORT}"]
    command += ["-w", str(args.workers), "--timeout", "120", "--log-level", "error"]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        wait_until_serving()
        fetch(PAGE)  # warm
        quiet = [fetch(PAGE)[1] for _ in range(50)]
        sessions = [log_in(n) if signed_in else "" for n in range(args.attackers)]
        codes: dict = {}
        lock = threading.Lock()
        stop = time.monotonic() + args.seconds
        attackers = [
            threading.Thread(target=attack, args=(stop, log, codes, lock, sessions[n]))
            for n in range(args.attackers)
        ]
        for thread in attackers:
            thread.start()
        time.sleep(0.5)
        visits = []
        timeouts = 0
        while time.monotonic() < stop:
            began = time.perf_counter()
            try:
                visits.append(fetch(PAGE)[1])
            except OSError:  # no answer within fetch's 10 s: counted as what it waited
                visits.append(time.perf_counter() - began)
                timeouts += 1
            time.sleep(0.05)
        for thread in attackers:
            thread.join()
        visits.sort()
        p95 = visits[int(0.95 * (len(visits) - 1))] * 1000
        sent = {k: v for k, v in codes.items() if k != "bytes"}
        print(
            f"{label}: visitor p50 {statistics.median(visits) * 1000:.1f} ms, "
            f"p95 {p95:.1f} ms over {len(visits)} visits (quiet p50 "
            f"{statistics.median(quiet) * 1000:.1f} ms); attackers got {sent}, "
            f"{codes.get('bytes', 0) / 1e6:.1f} MB of responses"
            + (f"; {timeouts} visits got no answer within 10 s" if timeouts else "")
        )
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--attackers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--log-kb", type=int, default=200)
    parser.add_argument("--case", choices=["all", "anonymous", "signed-in"], default="all")
    args = parser.parse_args()
    prepare()
    if args.case in ("all", "anonymous"):
        log = large_log(args.log_kb * 1024)
        print(
            f"{args.attackers} anonymous attackers posting a {len(log) / 1024:.0f} KB log to "
            f"/replay/ for {args.seconds:.0f} s; one visitor on {PAGE}; gunicorn "
            f"{args.workers} workers, PostgreSQL ({DB_URL.rsplit('/', 1)[1]})"
        )
        run(
            "before (no replay throttle, no anonymous bound)",
            {"THROTTLE_REPLAY": "off", "REPLAY_ANONYMOUS_MAX_BYTES": str(10**9)},
            args,
            log,
        )
        run("after (defaults)", {}, args, log)
    if args.case in ("all", "signed-in"):
        log = stuck_log()
        make_accounts(args.attackers)
        print(
            f"{args.attackers} signed-in clients (one account each) posting a valid "
            f"49,999-event log ({len(log) / 1024:.0f} KB) to /replay/ for {args.seconds:.0f} s;"
            f" one visitor on {PAGE}; gunicorn {args.workers} workers"
        )
        run(
            "before (no cap on the events drawn)",
            {"REPLAY_PAGE_MAX_EVENTS": str(10**9)},
            args,
            log,
            signed_in=True,
        )
        run("after (defaults)", {}, args, log, signed_in=True)


if __name__ == "__main__":
    main()
