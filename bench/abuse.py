"""A normal visitor's standings page while anonymous attackers replay large logs.

Issue #11 point 6: ``POST /replay/`` once needed no login and had no throttle, so two
clients posting a large log kept the web workers busy and slowed everyone. This script
loads the demo into a scratch PostgreSQL database, starts gunicorn on 127.0.0.1 twice,
"before" (replay throttle off, no size bound for anonymous visitors: the old behaviour)
and "after" (the defaults), and in each run has ATTACKERS threads post a large log to
/replay/ while one visitor fetches the standings page. Prints the visitor's p50/p95 and
what the attackers got. Bounded: loopback only, a fixed number of seconds per run.

    .venv/bin/python bench/abuse.py [--seconds 10] [--attackers 2] [--workers 2]
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


def csrf_session() -> tuple[str, str]:
    """An anonymous visitor's CSRF cookie and form token for /replay/."""
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request("GET", "/replay/")
    response = conn.getresponse()
    body = response.read().decode()
    cookie = response.getheader("Set-Cookie", "").split(";", 1)[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    conn.close()
    return cookie, token


def attack(stop: float, log: str, codes: dict, lock: threading.Lock) -> None:
    cookie, token = csrf_session()
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "content": log})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
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


def run(label: str, extra_env: dict, args, log: str) -> None:
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
        codes: dict = {}
        lock = threading.Lock()
        stop = time.monotonic() + args.seconds
        attackers = [
            threading.Thread(target=attack, args=(stop, log, codes, lock))
            for _ in range(args.attackers)
        ]
        for thread in attackers:
            thread.start()
        time.sleep(0.5)
        visits = []
        while time.monotonic() < stop:
            visits.append(fetch(PAGE)[1])
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
    args = parser.parse_args()
    log = large_log(args.log_kb * 1024)
    print(
        f"{args.attackers} anonymous attackers posting a {len(log) / 1024:.0f} KB log to "
        f"/replay/ for {args.seconds:.0f} s; one visitor on {PAGE}; gunicorn "
        f"{args.workers} workers, PostgreSQL ({DB_URL.rsplit('/', 1)[1]})"
    )
    prepare()
    run(
        "before (no replay throttle, no anonymous bound)",
        {"THROTTLE_REPLAY": "off", "REPLAY_ANONYMOUS_MAX_BYTES": str(10**9)},
        args,
        log,
    )
    run("after (defaults)", {}, args, log)


if __name__ == "__main__":
    main()
