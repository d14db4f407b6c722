"""Live play under load, through real WebSocket connections: Daphne servers, the Redis
channel layer and PostgreSQL, computer-only rooms each watched by a spectator connection.

1. Latency at a human pace: ``--rooms`` rooms, each moving about once a second (the
   computer's pause); the delay from a move being applied (the state built right after the
   commit) to the spectator receiving it: p50, p95, p99.
2. Capacity: rooms playing flat out (no pause), for each of ``--capacity-rooms``: the moves
   per second the machine sustains, the latency, and where the CPU goes (the servers,
   nginx, the workers, this database's PostgreSQL backends, this client: by PID, below).

Modes (``--mode``): **embedded** — the computer's steps and timers on the Daphne servers'
own timer threads (no broker), the clients connected to the servers directly, on
``--embedded-servers`` servers (1 by default: the embedded default is one process);
**production** — the production topology (README, docs/configuration.md, ``make
prod-local``): nginx from ``config/nginx.conf.template`` in front of the Daphne servers (one
upstream with all of them; every client connects through nginx), the steps and timers as
Celery tasks with a countdown through the Redis broker (``BENCH_BROKER_URL``), run by
``--workers`` Celery worker processes; **production-process** — the same, but the steps on
the servers' own timers (``LIVE_STEPS=process``). CPU is counted **by PID** from
``/proc/<pid>/stat``, each process with its descendants: the Daphne servers, nginx (master
and workers), the Celery workers, and this database's PostgreSQL backends (their PIDs from
``pg_stat_activity``, looked at every 0.1 s: a lower bound, ``BackendMeter``); Redis is
shared with the machine's other users and not counted.
After the modes, each production mode's figures are printed as ratios against the embedded
mode's in the same run. The servers listen on ``HELPER_PORT_BASE``, ``+1``, … (nginx on
``HELPER_PORT_BASE + 50``) when that is set.

3. Connections, measured once on one server (after the modes): how many spectators one
   process lets in per second (``--connects``: handshake and the first state; with its CPU
   per connect, so the connects per second the process would take with a core of its own),
   and what ``--idle`` idle spectator connections of one room cost it in memory (resident
   size before and after, per connection).

4. Issue 23's other targets, in the last mode of ``--mode`` (the production default,
   ``production-process``, last by default), each printed with its target:

   * ``timers``: ``--timer-rooms`` rooms whose red seat is held by a connected person who
     never moves, with a ``--turn-seconds`` turn timer, beside ``--timer-load-rooms``
     computer rooms at a human pace: how late each timeout move is applied (its
     ``applied_at`` minus the roll's ``deadline``), p50/p95/p99/max (p99 < 250 ms);
   * ``flood``: ``--flood-rooms`` rooms at a human pace with a spectator each, the other
     rooms' latency quiet, while one anonymous connection floods a server (sending as
     fast as it can; closed with 4429 after its burst, it reconnects at once and floods
     again), and quiet again; the servers keep the default message limits (p95 within
     20 % of its quiet value);
   * ``failover``: ``--failover-clients`` clients spread over ``--failover-rooms`` rooms on
     two servers; one server is killed (SIGKILL); its clients reconnect to the other as
     the page's JS does (500 ms, doubling up to 5 s, each wait spread ±50 %) — the time
     until every one is back and has received a new move (≤ 60 s);
   * ``abuse`` (issue 33): ``--abuse-rooms`` rooms at a human pace, the other rooms'
     latency quiet, while one address uses everything the limits allow —
     ``--abuse-connections`` sockets each sending ``--abuse-rate`` ``state`` requests a
     second about a game of 400 rolls — and quiet again (p95 within 1.5× of quiet);
   * ``connects`` and ``idle`` as in 3 (``--idle`` 10,000 by default: one process holding
     them, the open-files limit raised for the bench and its servers);
   * ``faults`` (issue 33; always the production topology with the steps on the servers'
     timers, and a ``redis-server`` of its own on ``HELPER_PORT_BASE + 60`` as broker and
     channel layer): ``--fault-rooms`` computer rooms, ``--fault-timer-rooms`` rooms whose
     person never moves (a ``--turn-seconds`` timer) and ``--fault-player-rooms`` rooms
     whose page moves (0.5–1.5 s after its turn; the 60 s timer), each page through nginx
     and reconnecting and asking for the state as live.js does; then in turn (``--faults``)
     a Daphne server killed (-9; started again after the window), the worker with beat
     killed (-9) and started again at once (as a supervisor would), Redis killed and
     started again (empty), Redis hung ``--fault-hang`` s (SIGSTOP, SIGCONT), each watched
     ``--fault-window`` s: the seconds until every room's page sees a move again after the
     fault ends (max, p95) and until the server applies one, events a page was shown that
     the final log does not hold, rolls doubled, every step's lateness, the servers' and
     workers' tracebacks and log lines; every final log validated and its dice checked
     against the room's seed; the seats a person still holds after every page has left.

``--phases`` (or ``--skip``) picks among human, capacity, timers, flood, failover,
connects, idle, abuse, faults. ``--strength`` sets the computers' strength (``random`` by
default: the platform's cost without the player's thinking; ``strong`` measures rooms of the strong
player, whose decisions cost milliseconds each, docs/engine.md). Bounded in time and
count, loopback only. Needs PostgreSQL and Redis:

    python bench/online.py [--mode embedded,production,production-process] [--rooms 200]
                           [--seconds 20] [--servers 2] [--workers 2]
                           [--capacity-rooms 10,40,100] [--capacity-seconds 12]
                           [--connects 1000] [--idle 10000] [--phases …] [--skip …]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/maedn_bench_live")
os.environ.setdefault("CHANNEL_LAYER_URL", "redis://127.0.0.1:6379/4")
os.environ["CELERY_BROKER_URL"] = ""  # the embedded default: in-process timers
os.environ.setdefault("LOG_LEVEL", "WARNING")
os.environ["LIVE_ROOMS_PER_ACCOUNT"] = os.environ["LIVE_ROOMS_PER_ADDRESS"] = "100000"
# one key for this run, here and in the servers: the host's session cookie is valid there
os.environ["SECRET_KEY"] = RUN_SECRET = secrets.token_urlsafe(40)

import django  # noqa: E402


def setup_database() -> None:
    import psycopg

    url = os.environ["DATABASE_URL"]
    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
    )


def cpu_ticks(pids: list[int]) -> float:
    """User + system CPU seconds of these processes and their children."""
    total = 0.0
    hz = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / hz
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def with_descendants(pids: list[int]) -> list[int]:
    """``pids`` and every process below them (nginx's and Celery's workers are alive, so
    their CPU is not yet in their parent's children's times), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each process (without its children's)."""
    hz = os.sysconf("SC_CLK_TCK")
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[pid] = sum(int(x) for x in fields[11:13]) / hz
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


def cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two ``cpu_by_pid`` samples (a process born in between counts
    from 0; one that died in between is lost — the servers, workers, nginx and the
    persistent backends (CONN_MAX_AGE) live through a window)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


class BackendMeter:
    """CPU seconds of the PostgreSQL backends connected to this bench's database, by PID:
    a thread lists them (``pg_stat_activity``) every ``every`` seconds and adds what each
    used since it last looked (a backend first seen after the start counts from 0). A
    backend that lives and dies between two looks is missed, and one that dies loses its
    last ``every`` seconds: a lower bound (the Celery workers' connections come and go)."""

    def __init__(self, every: float = 0.1) -> None:
        import threading

        self.every, self.total, self.seen = every, 0.0, {}
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        import psycopg

        first = True
        with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
            while not self.stopped.is_set():
                rows = conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid()"
                ).fetchall()
                ticks = cpu_by_pid([pid for (pid,) in rows])
                for pid, t in ticks.items():
                    if pid not in self.seen and first:
                        self.seen[pid] = t
                    self.total += t - self.seen.get(pid, 0.0)
                    self.seen[pid] = t
                first = False
                self.stopped.wait(self.every)

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(5)


def machine_busy() -> tuple[float, float]:
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


STRENGTH = "random"
"""The computer rooms' strength (``--strength``)."""


def make_rooms(
    n: int, timer_rooms: int = 0, turn_seconds: int = 1, player_rooms: int = 0
) -> list[tuple[int, str]]:
    """``n`` computer-only rooms, waiting: the host's connection to each starts it, so the
    first step is scheduled where the servers schedule steps (their timer, or the broker).
    Then ``timer_rooms`` online rooms with a ``turn_seconds`` timer whose seats are the
    host's (connected through the bench's watcher, who never moves: every roll with a
    choice times out, the others are the server's automatic moves), then ``player_rooms``
    such rooms with the default turn timer (the faults phase's clients move in them)."""
    from django.contrib.auth import get_user_model

    from live import services
    from live.models import Room
    from live.services import timers

    host, _ = get_user_model().objects.get_or_create(username="bench-host")
    # rooms of an earlier phase stop (a step does nothing for a room that is not playing)
    Room.objects.filter(host=host, status=Room.Status.PLAYING).update(status=Room.Status.ABANDONED)
    Room.objects.filter(host=host, status=Room.Status.WAITING).update(status=Room.Status.ABANDONED)
    timers.later = lambda *a, **k: None  # this process schedules nothing
    rooms = []
    for _ in range(n):
        room = services.room_create(host=host, rules="online", mode="computer", strength=STRENGTH)
        room.seats.update(kind="computer", user=None)
        rooms.append((room.pk, room.token))
    for seconds in [turn_seconds] * timer_rooms + [None] * player_rooms:
        room = services.room_create(
            host=host, rules="online", mode="online", strength="random", turn_seconds=seconds
        )
        room.seats.update(kind="human", user=host, original=host)
        rooms.append((room.pk, room.token))
    return rooms


HOST_COOKIE = ""


def host_cookie() -> str:
    from django.contrib.auth import get_user_model

    from tests.live.servers import session_cookie

    return session_cookie(get_user_model().objects.get(username="bench-host"))


def total_moves(ids: list[int]) -> int:
    from django.db.models import Sum

    from live.models import Room

    return Room.objects.filter(pk__in=ids).aggregate(n=Sum("move_number"))["n"] or 0


async def _room_socket(url: str, token: str):
    """A socket to a room as the bench's host (its session cookie), through ``url``."""
    import websockets

    host = url.split("//", 1)[1]
    return await websockets.connect(
        f"ws://{host}/ws/live/{token}/",
        origin=f"http://{host}",
        max_size=2**22,
        additional_headers={"Cookie": HOST_COOKIE},
        open_timeout=30,
    )


async def watch(
    url: str,
    token: str,
    latencies: list[float],
    stop: asyncio.Event,
    ready,
    lateness: list[float] | None = None,
):
    """The host's connection to a room: it starts the room, then records each move's delay
    (and, with ``lateness``, how late each timeout move came after its roll's deadline)."""
    import websockets

    deadlines: dict[int, float] = {}

    async with CONNECTING:  # a few handshakes at a time (Daphne drops one not accepted in 5 s)
        for attempt in range(5):
            try:
                ws = await _room_socket(url, token)
                await ws.recv()  # the state: connected
                break
            except (OSError, websockets.exceptions.WebSocketException) as exc:
                FAILED_CONNECTS.append(repr(exc)[:80])
                if attempt == 4:
                    raise
                await asyncio.sleep(0.5)
    async with ws:
        await ws.send(json.dumps({"type": "start", "room": token}))  # the host starts it
        ready()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            received = time.time()
            message = json.loads(raw)
            if message.get("type") != "state":
                continue
            last = message.get("last")
            if last and "events" not in message:
                latencies.append(received - message["applied_at"])
                TIMED.append((received, received - message["applied_at"]))
            if lateness is not None:
                if message.get("deadline"):
                    deadlines[message["move_number"]] = message["deadline"]
                if last and last.get("by") == "timeout" and last.get("number") in deadlines:
                    lateness.append(message["applied_at"] - deadlines.pop(last["number"]))


CONNECTING: asyncio.Semaphore
FAILED_CONNECTS: list[str] = []
TIMED: list[tuple[float, float]] = []
"""(received at, latency) of every move the watchers saw: the abuse phase's profile."""


async def run_phase(servers, rooms, seconds: float, warmup: float = 3.0, lateness=None):
    """The rooms played for ``seconds`` after ``warmup``: one window's figures."""
    return (await run_windows(servers, rooms, [("", seconds, None)], warmup, lateness))[0]


async def run_windows(servers, rooms, windows, warmup: float = 3.0, lateness=None):
    """Every room watched by its host's connection (spread over the servers), then each
    window ``(name, seconds, background)`` measured in turn: ``background`` (a coroutine
    function taking a stop event, or None) runs during it. A figure per window."""
    global CONNECTING
    CONNECTING = asyncio.Semaphore(10)
    FAILED_CONNECTS.clear()
    latencies: list[float] = []
    stop = asyncio.Event()
    connected = [0]

    def ready():
        connected[0] += 1

    tasks = [
        asyncio.ensure_future(
            watch(
                PROXY.url if PROXY else servers[i % len(servers)].url,
                token,
                latencies,
                stop,
                ready,
                lateness,
            )
        )
        for i, (_, token) in enumerate(rooms)
    ]
    while connected[0] < len(rooms):
        await asyncio.sleep(0.05)
        if any(t.done() and t.exception() for t in tasks):
            raise next(t.exception() for t in tasks if t.done() and t.exception())
    await asyncio.sleep(warmup)
    ids = [pk for pk, _ in rooms]
    server_pids = with_descendants([s.process.pid for s in servers])
    worker_pids = with_descendants([w.process.pid for w in WORKERS])
    proxy_pids = with_descendants([PROXY.process.pid]) if PROXY else []

    meter = BackendMeter()

    async def sample():
        return (
            await asyncio.to_thread(total_moves, ids),
            cpu_by_pid(server_pids),
            meter.total,
            cpu_by_pid(proxy_pids),
            cpu_ticks([os.getpid()]),
            machine_busy(),
            time.monotonic(),
            cpu_by_pid(worker_pids),
        )

    results = []
    for _name, seconds, background in windows:
        bg_stop = asyncio.Event()
        bg = asyncio.ensure_future(background(bg_stop)) if background else None
        latencies.clear()
        TIMED.clear()
        started_at = time.time()
        if lateness is not None:
            lateness.clear()
        before = await sample()
        await asyncio.sleep(seconds)
        after = await sample()
        taken = list(latencies)
        if bg is not None:
            bg_stop.set()
            await asyncio.gather(bg, return_exceptions=True)
        wall = after[6] - before[6]
        busy = (after[5][0] - before[5][0]) / max(1, after[5][1] - before[5][1])
        results.append(
            {
                "moves_per_s": (after[0] - before[0]) / wall,
                "received": len(taken),
                "p50_ms": pct(taken, 50),
                "p95_ms": pct(taken, 95),
                "p99_ms": pct(taken, 99),
                "cpu_servers": cpu_delta(before[1], after[1]) / wall,
                "cpu_postgres": (after[2] - before[2]) / wall,
                "cpu_proxy": cpu_delta(before[3], after[3]) / wall,
                "cpu_client": (after[4] - before[4]) / wall,
                "cpu_workers": cpu_delta(before[7], after[7]) / wall,
                "machine_busy": busy,
                "connect_retries": len(FAILED_CONNECTS),
                "p95_by_second": [
                    pct([lat for at, lat in TIMED if k <= at - started_at < k + 1], 95)
                    for k in range(int(seconds))
                ],
            }
        )
    meter.stop()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return results


def pct(values: list[float], p: int) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(len(values) * p / 100))]


DEBUG_SERVERS = False
MODE = "embedded"
WORKERS: list = []
PROXY = None
"""nginx in front of the servers (production modes), or None: the clients connect to it."""
RESULTS: list[tuple[str, str, dict]] = []
"""(mode, phase label, figures) of the human-pace and flat-out runs: the ratios at the end."""
N_WORKERS = 2


def start_worker(env: dict[str, str], beat: bool = False):
    """One Celery worker process, solo pool (production mode): ``tests/processes.py``; with
    ``beat``, Celery beat in it (the sweep of lost timers, as in production)."""
    from tests.processes import CeleryWorker

    schedule = ROOT / "var" / f"bench-beat-{os.getpid()}" if beat else None
    return CeleryWorker(
        {**os.environ, **env}, log_path=ROOT / "var" / "bench-worker.log", beat_schedule=schedule
    )


def start_servers(n: int, pause: float, extra_env: dict[str, str | None] | None = None):
    from tests.live.servers import Daphne

    env = {
        "LIVE_COMPUTER_PAUSE": str(pause),
        "LIVE_AUTO_PAUSE": str(pause),
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "CONN_MAX_AGE": "600",
        "LIVE_ROOMS_PER_ACCOUNT": "100000",
        "LIVE_ROOMS_PER_ADDRESS": "100000",
        "LIVE_MESSAGES_PER_SECOND": "1000",
        # every bench client is 127.0.0.1: no per-address budget (the flood and abuse
        # phases keep the default)
        "LIVE_MESSAGES_PER_ADDRESS": "0",
        "CELERY_BROKER_URL": os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
        if MODE.startswith("production")
        else "",
        # production-process: a broker and workers, but the steps on the servers' own timers
        "LIVE_STEPS": "process" if MODE == "production-process" else "celery",
    }
    for key, value in (extra_env or {}).items():  # None: the setting's default
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    if DEBUG_SERVERS:
        env["DEBUG"] = "1"
    else:  # as in production: DEBUG off (no query log, no debug cursors)
        env.update(
            DEBUG="",
            SECRET_KEY=RUN_SECRET,  # this run only
            ALLOWED_HOSTS="127.0.0.1,localhost",
            ALLOW_PLAIN_HTTP="1",
            CACHE_URL="locmem://",
            EMAIL_BACKEND="locmem",
        )
    base = int(os.environ.get("HELPER_PORT_BASE", "0") or 0)
    servers = [
        Daphne(database_url=os.environ["DATABASE_URL"], env=env, port=base + i if base else None)
        for i in range(n)
    ]
    for s in servers:
        s.wait_ready()
    global PROXY
    SERVER_ENV.clear()
    SERVER_ENV.update(env)
    try:
        PROXY = start_proxy(servers) if MODE.startswith("production") else None
    except Exception:
        for s in servers:
            s.stop()
        raise
    WORKERS.clear()
    if MODE.startswith("production"):
        worker_env = {**env, "DATABASE_URL": os.environ["DATABASE_URL"]}
        WORKERS.extend(start_worker(worker_env, beat=i == 0) for i in range(N_WORKERS))
        time.sleep(5)  # the workers connect to the broker
    return servers


def start_proxy(servers):
    """nginx from ``config/nginx.conf.template`` (as ``make prod-local`` fills it in), with
    every server in its ``asgi`` upstream; its per-address connection limit raised, since
    every bench client comes from 127.0.0.1 (the template's 100 is per visitor address)."""
    from tests.processes import free_port, nginx_from_template

    base = int(os.environ.get("HELPER_PORT_BASE", "0") or 0)
    port = base + 50 if base else free_port()
    return nginx_from_template(
        port=port,
        app=f"127.0.0.1:{servers[0].port}",  # no pages in this bench
        asgi=[f"127.0.0.1:{s.port}" for s in servers],
        directory=ROOT / "var" / f"bench-nginx-{port}",
        open_limits=True,
    )


def stop_all(servers) -> None:
    global PROXY
    for s in [*servers, *WORKERS, *([PROXY] if PROXY else [])]:
        s.stop()
    WORKERS.clear()
    PROXY = None


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def spectator(url: str, token: str, quiet: bool = False):
    """An anonymous spectator's connection, once it has the room's state. ``quiet``: its
    client sends no pings of its own (an idle page's only traffic is the server's)."""
    import websockets

    host = url.split("//", 1)[1]
    ws = await websockets.connect(
        f"ws://{host}/ws/live/{token}/",
        origin=f"http://{host}",
        open_timeout=60,
        max_size=2**22,
        ping_interval=None if quiet else 20,
    )
    await ws.recv()
    return ws


def raise_open_files() -> int:
    """The open-files limit of this process (and so of the servers it starts) raised to
    its hard limit: 10,000 connections are 10,000 descriptors on each side."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        want = hard if hard != resource.RLIM_INFINITY else 1_048_576
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


async def connections_phase(server, token: str, connects: int, idle: int) -> None:
    """Connects per second into one server, then the memory of ``idle`` open spectators."""
    pid = server.process.pid
    if connects:
        in_flight = asyncio.Semaphore(50)

        async def one() -> None:
            async with in_flight:
                ws = await spectator(server.url, token)
                await ws.close()

        cpu0, client0, t0 = cpu_ticks([pid]), cpu_ticks([os.getpid()]), time.monotonic()
        await asyncio.gather(*(one() for _ in range(connects)))
        wall = time.monotonic() - t0
        cpu, client = cpu_ticks([pid]) - cpu0, cpu_ticks([os.getpid()]) - client0
        print(
            f"connects into one server: {connects} spectators (50 at a time, each until its "
            f"first state) in {wall:.1f} s: {connects / wall:.0f} connects/s; server CPU "
            f"{1000 * cpu / connects:.2f} ms per connect (so {connects / max(cpu, 1e-9):.0f} "
            f"connects/s on a core of its own), client CPU {1000 * client / connects:.2f} ms; "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    if idle:
        await asyncio.sleep(2)
        before = rss_mb(pid)
        opened = []
        in_flight = asyncio.Semaphore(50)

        async def keep() -> None:
            async with in_flight:
                opened.append(await spectator(server.url, token, quiet=True))

        t0 = time.monotonic()
        results = await asyncio.gather(*(keep() for _ in range(idle)), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        opening = time.monotonic() - t0
        await asyncio.sleep(5)  # settled: nothing moves in the room
        after = rss_mb(pid)
        still = sum(1 for ws in opened if ws.state.name == "OPEN")
        print(
            f"idle connections on one server: {len(opened)} spectators of one room opened in "
            f"{opening:.0f} s ({len(failed)} failed{': ' + repr(failed[0])[:80] if failed else ''}"
            f"), {still} still open after 5 s; resident memory {before:.0f} MB → {after:.0f} MB: "
            f"{1024 * (after - before) / max(1, len(opened)):.1f} KB per connection (target: "
            f"one process holds 10,000); load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)


def timers_phase(servers, load_rooms: int, timer_rooms: int, turn_seconds: int, seconds):
    """Timer lateness under load: how late the server applies a timed-out move."""
    rooms = make_rooms(load_rooms, timer_rooms, turn_seconds)
    lateness: list[float] = []
    # the first choices come once pawns are out: the timers are measured after a warm-up
    result = asyncio.run(run_phase(servers, rooms, seconds, warmup=15.0, lateness=lateness))
    show(f"{MODE} timers: {load_rooms} computer rooms + {timer_rooms} timer rooms, load", result)
    print(
        f"{MODE} timer lateness ({timer_rooms} rooms, {turn_seconds} s turn timer, seats held "
        f"by a connected person who never moves, beside {load_rooms} rooms at 1 move/s): "
        f"{len(lateness)} timeouts; applied after the deadline p50 {pct(lateness, 50):.0f} ms, p95 "
        f"{pct(lateness, 95):.0f} ms, p99 {pct(lateness, 99):.0f} ms, max "
        f"{pct(lateness, 100):.0f} ms (target: p99 < 250 ms); load average "
        f"{os.getloadavg()[0]:.1f}",
        flush=True,
    )


async def flood(url: str, token: str, stop: asyncio.Event, counts: dict) -> None:
    """One anonymous connection sending as fast as it can; closed (4429 after its burst),
    it connects again at once and goes on."""
    import websockets

    host = url.split("//", 1)[1]
    frame = json.dumps({"type": "ping", "at": 1})
    while not stop.is_set():
        try:
            async with websockets.connect(
                f"ws://{host}/ws/live/{token}/", origin=f"http://{host}", open_timeout=30
            ) as ws:
                counts["connects"] += 1
                while not stop.is_set():
                    for _ in range(50):
                        await ws.send(frame)
                    counts["sent"] += 50
                    await asyncio.sleep(0)
        except websockets.exceptions.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
            counts["closed"][code] = counts["closed"].get(code, 0) + 1
        except (OSError, websockets.exceptions.WebSocketException):
            counts["failed"] += 1
            await asyncio.sleep(0.05)


def flood_phase(n_rooms: int, seconds: float, pause: float) -> None:
    """The other rooms' latency without, with and again without one flooding connection,
    with the servers' default message limits."""
    limits = {
        "LIVE_MESSAGES_PER_SECOND": None,
        "LIVE_MESSAGE_BURST": None,
        "LIVE_MESSAGES_PER_ADDRESS": None,
    }
    servers = start_servers(2, pause, limits)
    counts: dict = {"connects": 0, "sent": 0, "closed": {}, "failed": 0}
    try:
        rooms = make_rooms(n_rooms + 1)
        target, watched = rooms[0], rooms[1:]

        async def flooding(stop):
            started = time.monotonic()
            await flood(servers[0].url, target[1], stop, counts)
            counts["seconds"] = time.monotonic() - started

        windows = [("quiet", seconds, None), ("flood", seconds, flooding), ("quiet", seconds, None)]
        quiet1, flooded, quiet2 = asyncio.run(run_windows(servers, watched, windows))
    finally:
        stop_all(servers)
    for name, r in (("quiet", quiet1), ("flooded", flooded), ("quiet again", quiet2)):
        show(f"{MODE} flood phase, {n_rooms} rooms, {name}", r)
    quiet_p95 = (quiet1["p95_ms"] + quiet2["p95_ms"]) / 2
    rate = counts["sent"] / max(counts.get("seconds", seconds), 1e-9)
    print(
        f"{MODE} flooding connection: {counts['sent']} messages sent ({rate:.0f}/s) over "
        f"{counts['connects']} connections, closed {counts['closed']}, {counts['failed']} "
        f"failed to connect; the other rooms' p95 {flooded['p95_ms']:.1f} ms flooded against "
        f"{quiet_p95:.1f} ms quiet: {100 * (flooded['p95_ms'] / quiet_p95 - 1):+.0f} % "
        f"(target: within 20 %); load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )


async def abuser(url: str, token: str, rate: float, stop: asyncio.Event, counts: dict) -> None:
    """One connection of the abusing address: it asks for the events once (as a page does),
    then sends a ``state`` request ``rate`` times a second (the per-connection limit) and
    reads every answer; closed, it connects again."""
    import websockets

    host = url.split("//", 1)[1]
    state = json.dumps({"type": "state"})
    while not stop.is_set():
        try:
            async with websockets.connect(
                f"ws://{host}/ws/live/{token}/",
                origin=f"http://{host}",
                open_timeout=30,
                max_size=2**22,
            ) as ws:
                counts["connects"] += 1
                await ws.recv()
                await ws.send(json.dumps({"type": "events", "since": 0}))

                async def read() -> None:
                    async for raw in ws:
                        counts["answers"] += 1
                        counts["bytes"] += len(raw)

                reader = asyncio.ensure_future(read())
                try:
                    while not stop.is_set():
                        await ws.send(state)
                        counts["sent"] += 1
                        await asyncio.sleep(1 / rate)
                finally:
                    reader.cancel()
        except websockets.exceptions.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
            counts["closed"][code] = counts["closed"].get(code, 0) + 1
        except (OSError, websockets.exceptions.WebSocketException):
            counts["failed"] += 1
            await asyncio.sleep(0.2)


def abuse_client(urls: str, token: str, conns: int, rate: float, seconds: float) -> None:
    """The abusing address as a process of its own (``--abuse-client``): its figures as
    one JSON line."""
    counts: dict = {"connects": 0, "sent": 0, "answers": 0, "bytes": 0, "closed": {}, "failed": 0}
    servers = urls.split(",")

    async def run() -> None:
        stop = asyncio.Event()
        tasks = [
            asyncio.ensure_future(abuser(servers[i % len(servers)], token, rate, stop, counts))
            for i in range(conns)
        ]
        started = time.monotonic()
        await asyncio.sleep(seconds)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        counts["seconds"] = time.monotonic() - started

    asyncio.run(run())
    counts["closed"] = {str(k): v for k, v in counts["closed"].items()}
    usage = resource.getrusage(resource.RUSAGE_SELF)
    counts["cpu"] = usage.ru_utime + usage.ru_stime  # the abusing client's own CPU seconds
    print(json.dumps(counts), flush=True)


def long_game_room(moves: int) -> tuple[int, str]:
    """A computer room played ``moves`` rolls here (its log as long as a whole game's),
    then left waiting for nothing: what the abusing address asks about."""
    from django.contrib.auth import get_user_model

    from live import services
    from live.models import Room

    (pk, token), *_ = make_rooms(1)
    host = get_user_model().objects.get(username="bench-host")
    room = Room.objects.get(pk=pk)
    services.room_start(room=room, by=host)
    for _ in range(moves):
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            break
        services.room_step(room_id=pk, move_number=room.move_number)
    # it stays "playing", its next step never scheduled: a long game on hold
    return pk, token


def abuse_phase(n_rooms: int, seconds: float, pause: float, conns: int, rate: float) -> None:
    """The other rooms' latency quiet, while one address uses everything the limits allow
    (``conns`` connections, each sending ``rate`` state requests a second about a long
    game), and quiet again; the servers keep the default limits."""
    limits = {
        "LIVE_MESSAGES_PER_SECOND": None,
        "LIVE_MESSAGE_BURST": None,
        "LIVE_MESSAGES_PER_ADDRESS": None,
        "LIVE_ADDRESS_BURST": None,
    }
    servers = start_servers(2, pause, limits)
    counts: dict = {"connects": 0, "sent": 0, "answers": 0, "bytes": 0, "closed": {}, "failed": 0}
    try:
        target = long_game_room(400)
        watched = make_rooms(n_rooms)

        async def abusing(stop):
            # in a process of its own: the watchers' loop here measures the other rooms
            # without sharing its CPU or its event loop with the abusing address's sockets
            urls = ",".join(s.url for s in servers)
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--abuse-client",
                urls,
                target[1],
                str(conns),
                str(rate),
                str(seconds),
                stdout=subprocess.PIPE,
            )
            out, _ = await child.communicate()
            counts.update(json.loads(out.decode().strip().splitlines()[-1]))

        windows = [("quiet", seconds, None), ("abuse", seconds, abusing), ("quiet", seconds, None)]
        quiet1, abused, quiet2 = asyncio.run(run_windows(servers, watched, windows))
    finally:
        stop_all(servers)
    for name, r in (("quiet", quiet1), ("abused", abused), ("quiet again", quiet2)):
        show(f"{MODE} abuse phase, {n_rooms} rooms, {name}", r)
    quiet_p95 = (quiet1["p95_ms"] + quiet2["p95_ms"]) / 2
    wall = max(counts.get("seconds", seconds), 1e-9)
    each = counts["bytes"] / max(1, counts["answers"])
    print(
        f"{MODE} abusing address: {conns} connections × {rate:g} state requests/s about a "
        f"game of 400 rolls: {counts['sent'] / wall:.0f} requests/s sent, "
        f"{counts['answers'] / wall:.0f} answers/s ({each:.0f} bytes each), "
        f"{counts['connects']} connects, closed {counts['closed']}, "
        f"{counts['failed']} failed; the other rooms' p95 {abused['p95_ms']:.1f} ms against "
        f"{quiet_p95:.1f} ms quiet: {abused['p95_ms'] / quiet_p95:.2f}× (target: ≤ 1.5×); "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    print(
        f"{MODE} abusing client's own CPU {counts.get('cpu', 0) / wall:.2f} cores (it shares "
        f"this machine's cores with the servers); the other rooms' p95 second by second: "
        + ", ".join(
            f"{name} " + " ".join(f"{v:.0f}" for v in r["p95_by_second"])
            for name, r in (("quiet", quiet1), ("abused", abused))
        )
        + " ms",
        flush=True,
    )


MOVE_NUMBER = re.compile(r'"move_number":\s*(\d+)')


async def failover_client(urls, first: int, token: str, cookie: str, t: dict, out: dict, ready):
    """A page's socket: connected to server ``first``; when it closes after the kill, it
    reconnects to the other server as live.js does (after 500 ms, doubling up to 5 s per
    failed try, each wait spread over half to one and a half times) and records when it is
    back and when it first sees a new move."""
    import websockets

    host = urls[first].split("//", 1)[1]
    headers = {"Cookie": cookie} if cookie else {}

    async def open_to(h):
        ws = await websockets.connect(
            f"ws://{h}/ws/live/{token}/",
            origin=f"http://{h}",
            additional_headers=headers,
            max_size=2**22,
            open_timeout=30,
            ping_interval=None,
        )
        number = int(MOVE_NUMBER.search(await ws.recv()).group(1))
        return ws, number

    retry = 0.5
    for attempt in range(10):  # as the page: 500 ms, doubling up to 5 s
        try:
            async with CONNECTING:
                ws, number = await open_to(host)
            break
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
            out["first_retries"] += 1
            if attempt == 9:
                out["never"] += 1
                ready()
                return
            await asyncio.sleep(retry * (0.5 + random.random()))
            retry = min(5.0, retry * 2)
    if cookie:
        await ws.send(json.dumps({"type": "start", "room": token}))
    ready()
    while True:
        try:
            raw = await ws.recv()
        except websockets.exceptions.ConnectionClosed:
            break
        if not t.get("killed") and (m := MOVE_NUMBER.search(raw)):
            number = int(m.group(1))
    if not t.get("killed"):
        return
    out["lost"] += 1
    other = urls[1 - first].split("//", 1)[1]
    retry = 0.5
    while True:
        await asyncio.sleep(retry * (0.5 + random.random()))
        try:
            ws, number = await open_to(other)
            break
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
            out["retries"] += 1
            retry = min(5.0, retry * 2)
    out["back"].append(time.monotonic() - t["killed"])
    async with ws:
        while True:
            m = MOVE_NUMBER.search(await ws.recv())
            if m and int(m.group(1)) > number:
                out["moving"].append(time.monotonic() - t["killed"])
                return


def failover_phase(n_clients: int, n_rooms: int, pause: float, limit: float) -> None:
    """``n_clients`` over ``n_rooms`` rooms on two servers; one server killed."""
    servers = start_servers(2, pause)
    rooms = make_rooms(n_rooms)
    t: dict = {}
    out: dict = {"lost": 0, "retries": 0, "back": [], "moving": [], "first_retries": 0, "never": 0}

    async def run() -> None:
        global CONNECTING
        CONNECTING = asyncio.Semaphore(20)
        connected = [0]

        def ready():
            connected[0] += 1

        urls = [s.url for s in servers]
        tasks, owners = [], []
        for i in range(n_clients):
            _, token = rooms[i % n_rooms]
            cookie = HOST_COOKIE if i < n_rooms else ""  # the host starts the room
            # a room's clients on both servers, its host (and so its timer) on either
            first = (i + i // n_rooms) % 2
            tasks.append(
                asyncio.ensure_future(failover_client(urls, first, token, cookie, t, out, ready))
            )
            owners.append(first)
        started = shown = time.monotonic()
        while connected[0] < n_clients:
            await asyncio.sleep(0.2)
            if any(x.done() and x.exception() for x in tasks):
                raise next(x.exception() for x in tasks if x.done() and x.exception())
            if time.monotonic() - shown > 15:
                shown = time.monotonic()
                print(f"  … {connected[0]} of {n_clients} connected", flush=True)
        print(
            f"{MODE} failover: {n_clients} clients on {n_rooms} rooms over 2 servers connected "
            f"in {time.monotonic() - started:.0f} s ({out['first_retries']} tries refused and "
            f"retried, {out['never']} never in); load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        await asyncio.sleep(5)  # playing
        t["killed"] = time.monotonic()
        servers[0].kill()
        theirs = [x for x, o in zip(tasks, owners, strict=True) if o == 0]  # the killed one's
        await asyncio.wait(theirs, timeout=limit + 30)
        for x in tasks:
            x.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    try:
        asyncio.run(run())
    finally:
        stop_all(servers)
    lost = out["lost"]
    print(
        f"{MODE} failover: server killed (SIGKILL) with {lost} clients; back on the other "
        f"{len(out['back'])} (all after {pct(out['back'], 100) / 1000:.1f} s, p50 "
        f"{pct(out['back'], 50) / 1000:.1f} s; {out['retries']} connects refused and retried), "
        f"receiving moves again {len(out['moving'])} (all after "
        f"{pct(out['moving'], 100) / 1000:.1f} s, p50 {pct(out['moving'], 50) / 1000:.1f} s) "
        f"(target: all back and moving within 60 s); load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )


# --- faults (issue 33): the production topology survives any one process dying ------------

FAULT_RECOVERY = 10.0
"""The issue's target: every room moving again this many seconds after a fault ends."""
SERVER_ENV: dict[str, str] = {}
"""The environment the servers (and workers) of the last ``start_servers`` were given."""


class FaultRoom:
    """One room as its host's page saw it: when its move number grew, every event it was
    shown (``seen``: number → (received at, event)), the moves it sent and the answers."""

    def __init__(self, pk: int, token: str, kind: str) -> None:
        self.pk, self.token, self.kind = pk, token, kind  # kind: computer, timer or player
        self.number, self.status = 0, "waiting"
        self.moves: list[tuple[float, int]] = []
        self.seen: dict[int, tuple[float, dict]] = {}
        self.conflicts = self.refused = self.reconnects = 0
        self.sent: dict[int, list] = {}
        self.planned: dict[int, asyncio.Future] = {}  # a move on its way, by move number
        self.ended_at: float | None = None

    def receive(self, message: dict) -> dict | None:
        """Record a message; the new state if it is one."""
        if message.get("type") == "refused":
            self.refused += 1
        if message.get("type") != "state":
            return None
        now, last = time.time(), message.get("last")
        if last:
            event = {k: v for k, v in last.items() if k != "number"}
            earlier = self.seen.setdefault(last["number"], (now, event))[1]
            self.conflicts += earlier != event
        if message["move_number"] > self.number:
            self.number = message["move_number"]
            self.moves.append((now, self.number))
        if message["status"] != "playing" and self.status == "playing":
            self.ended_at = now
        self.status = message["status"]
        return message


def seat_on_turn(state: dict) -> dict | None:
    return next((s for s in state.get("seats", []) if s["colour"] == state.get("turn")), None)


def someone_thinking(room: FaultRoom, state: dict) -> bool:
    """As live.js: a person on turn with a choice, within their timer (+2 s), who is not
    this page having sent its move: silence is as it should be."""
    if state.get("move_number") in room.sent:
        return False
    seat = seat_on_turn(state)
    if not seat or seat["kind"] != "human" or len(state.get("legal") or []) < 2:
        return False
    return not state.get("deadline") or state["deadline"] > time.time() - 2


def my_choice(room: FaultRoom, state: dict, me: int) -> list | None:
    """The move a player room's client makes (a random legal one), if it is its turn."""
    if room.kind != "player" or state.get("status") != "playing":
        return None
    seat, legal = seat_on_turn(state), state.get("legal") or []
    if not seat or seat["kind"] != "human" or seat["user"] != me or len(legal) < 2:
        return None
    if state["move_number"] in room.planned:
        return None
    return random.choice(legal)[:3]


async def move_later(ws, room: FaultRoom, number: int, move: list) -> None:
    """A person's move at a human pace (0.5–1.5 s), unless the room moved meanwhile."""
    import websockets

    await asyncio.sleep(0.5 + random.random())
    if room.number == number:
        room.sent[number] = move
        message = {"type": "move", "room": room.token, "move_number": number, "move": move}
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            await ws.send(json.dumps(message))


async def fault_session(ws, room: FaultRoom, me: int, stop: asyncio.Event, state: dict) -> None:
    """One socket until it closes, or until the page gives up on it as live.js does: a
    playing room where the server should have moved and that was silent 6 s asks for the
    state; no answer within 5 s, it closes (and reconnects)."""
    import websockets

    heard, asked = time.time(), 0.0
    try:
        while not stop.is_set():
            move = my_choice(room, state, me)  # the person moves when it is their turn
            if move is not None:
                number = state["move_number"]
                room.planned[number] = asyncio.ensure_future(move_later(ws, room, number, move))
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                if asked and time.time() - asked > 5:
                    return
                quiet = time.time() - heard > 6 and state.get("status") == "playing"
                if not asked and quiet and not someone_thinking(room, state):
                    await ws.send(json.dumps({"type": "state"}))
                    asked = time.time()
                continue
            heard, asked = time.time(), 0.0
            state = room.receive(json.loads(raw)) or state
    except websockets.exceptions.ConnectionClosed:
        pass
    finally:
        await ws.close()


async def fault_connect(url: str, token: str):
    """The host's socket to a room through nginx, once it has the first state."""

    ws = await _room_socket(url, token)
    return ws, await ws.recv()


async def fault_client(url: str, room: FaultRoom, me: int, stop: asyncio.Event, ready) -> None:
    """A room's page for the whole phase: it starts the room, then reconnects whenever its
    socket closes as live.js does (500 ms, doubling up to 5 s, each wait spread ±50 %)."""
    import websockets

    retry, first = 0.5, True
    while not stop.is_set():
        try:
            async with CONNECTING:
                ws, raw = await fault_connect(url, room.token)
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
            await asyncio.sleep(retry * (0.5 + random.random()))
            retry = min(5.0, retry * 2)
            continue
        state = room.receive(json.loads(raw)) or {}
        if first:
            await ws.send(json.dumps({"type": "start", "room": room.token}))
            first, retry = False, 0.5
            ready()
        else:  # a move sent on the socket that closed may be lost: the person moves again
            room.reconnects += 1
            room.planned.clear()
        await fault_session(ws, room, me, stop, state)
        await asyncio.sleep(retry * (0.5 + random.random()))


def log_sizes(paths: list[Path]) -> dict[Path, int]:
    return {p: p.stat().st_size if p.exists() else 0 for p in paths}


LOG_RECORD = re.compile(r"^(\[?\d{4}-\d\d-\d\d[ T][\d:,.]+)")


def log_counts(marks: dict[Path, int]) -> dict[str, int]:
    """What the servers' and workers' logs got since ``marks``: tracebacks, and the log
    records (a timestamped line: a one-line warning or error) besides them."""
    tracebacks = records = 0
    for path, offset in marks.items():
        if not path.exists():
            continue
        with path.open("rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        tracebacks += text.count("Traceback (most recent call last)")
        records += sum(1 for line in text.splitlines() if LOG_RECORD.match(line))
    return {"tracebacks": tracebacks, "lines": records}


def log_paths(servers) -> list[Path]:
    return [*(s.log_path for s in servers), ROOT / "var" / "bench-worker.log"]


def kill_server(ctx: dict) -> float:
    """(a) kill -9 of one Daphne server; its pages reconnect through nginx to the other.
    The fault ends at once (the other server serves); it is restarted after the window."""
    ctx["servers"][0].kill()
    return time.time()


def restart_server(ctx: dict) -> None:
    """The killed server back on its port (as a supervisor would), for the next faults."""
    from tests.live.servers import Daphne

    old = ctx["servers"][0]
    old.stop()  # (its log file)
    ctx["servers"][0] = Daphne(
        database_url=os.environ["DATABASE_URL"], env=SERVER_ENV, port=old.port
    ).wait_ready()


def kill_worker(ctx: dict) -> float:
    """(b) kill -9 of the Celery worker with beat, started again at once (a supervisor's
    ``Restart=always``): the fault ends when its successor is started."""
    WORKERS[0].kill()
    WORKERS[0].stop()
    WORKERS[0] = start_worker({**SERVER_ENV, "DATABASE_URL": os.environ["DATABASE_URL"]}, True)
    return time.time()


def restart_redis(ctx: dict) -> float:
    """(c) the broker's and channel layer's Redis killed and started again, empty, on its
    port a second later: the fault ends when it answers."""
    from tests.processes import RedisServer

    port = ctx["redis"].port
    ctx["redis"].kill()
    ctx["redis"].stop()
    time.sleep(1)
    ctx["redis"] = RedisServer(port).wait_ready()
    return time.time()


def hang_redis(ctx: dict) -> float:
    """(d) Redis hung (SIGSTOP) for ``ctx["hang"]`` seconds, then SIGCONT."""
    import signal

    pid = ctx["redis"].process.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(ctx["hang"])
    finally:
        os.kill(pid, signal.SIGCONT)
    return time.time()


FAULTS = (
    ("daphne", "Daphne kill -9", kill_server, restart_server),
    ("worker", "worker kill -9 + restart", kill_worker, None),
    ("restart", "Redis restart", restart_redis, None),
    ("hang", "Redis hang", hang_redis, None),
)


async def inject_faults(ctx: dict, window: float, settle: float) -> list[dict]:
    """Each fault in turn: injected, then ``window`` seconds watched (the logs counted
    over it), then repaired where the fault leaves something to repair, and ``settle``."""
    out = []
    for key, name, inject, repair in FAULTS:
        if key not in ctx["which"]:
            continue
        marks = log_sizes(log_paths(ctx["servers"]))
        started = time.time()
        print(f"  … {name} at {time.strftime('%H:%M:%S')}", flush=True)
        ended = await asyncio.to_thread(inject, ctx)
        await asyncio.sleep(window)
        out.append({"name": name, "start": started, "end": ended, **log_counts(marks)})
        if repair:
            await asyncio.to_thread(repair, ctx)
        await asyncio.sleep(settle)
        out[-1]["until"] = time.time()
    return out


async def play_through_faults(ctx: dict, rooms: list[FaultRoom], me: int, args) -> list[dict]:
    """Every room's page connected through nginx; the rooms play; the faults in turn."""
    global CONNECTING
    CONNECTING = asyncio.Semaphore(10)
    stop, connected = asyncio.Event(), [0]

    def ready():
        connected[0] += 1

    tasks = [asyncio.ensure_future(fault_client(PROXY.url, r, me, stop, ready)) for r in rooms]
    while connected[0] < len(rooms):
        await asyncio.sleep(0.1)
    await asyncio.sleep(args.fault_settle + 10)  # pawns out: the timers' choices begin
    faults = await inject_faults(ctx, args.fault_window, args.fault_settle)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return faults


def seats_left(ids: list[int], bound: float) -> tuple[int, float]:
    """After every page has gone: seconds until no seat of a playing room is still a
    person's (the grace period, or the sweep for a count a dead server left), at most
    ``bound``; how many are left then."""
    from live.models import Room, Seat

    started = time.monotonic()
    while True:
        left = Seat.objects.filter(
            room_id__in=ids, room__status=Room.Status.PLAYING, kind=Seat.Kind.HUMAN
        ).count()
        waited = time.monotonic() - started
        if not left or waited > bound:
            return left, waited
        time.sleep(1)


def server_events(ids: list[int]) -> dict[int, dict]:
    """Every room's final log from the server: its events with their absolute times, the
    log's validation and its dice against the room's seed."""
    from games.engine import validate
    from games.engine.dice import die
    from live.models import Room, RoomEvent
    from live.services import room_log

    out = {}
    for room in Room.objects.filter(pk__in=ids):
        rows = list(
            RoomEvent.objects.filter(room=room)
            .order_by("number")
            .values_list("number", "data", "by")
        )
        start = room.started_at.timestamp() if room.started_at else 0.0
        seed = bytes(room.dice_seed) if room.dice_seed else b""
        out[room.pk] = {
            "events": {n: (start + d["t"], {**d, "by": by}) for n, d, by in rows},
            "numbers": [n for n, _, _ in rows],
            "start": start,
            "turn": room.turn_seconds,
            "valid": validate(room_log(room))["valid"],
            "dice": not seed or all(d["die"] == die(seed, n) for n, d, _ in rows),
        }
    return out


def step_lateness(log: dict, pause: float, since: float, until: float) -> list[tuple[str, float]]:
    """(by, seconds late) of every server step of a room applied within [since, until): a
    timeout after its roll's turn timer, a computer's or automatic move after the pause."""
    out, before = [], log["start"]
    for n in sorted(log["events"]):
        at, event = log["events"][n]
        wait = log["turn"] if event["by"] == "timeout" else pause
        if event["by"] != "player" and since <= at < until:
            out.append((event["by"], at - (before + wait)))
        before = at
    return out


def moving_again(room: FaultRoom, log: dict, end: float) -> tuple[float, float] | None:
    """Seconds after ``end`` until the room's page saw a new move, and until the server
    applied one; None for a room that was over by then."""
    if room.ended_at is not None and room.ended_at <= end:
        return None
    known = max((n for t, n in room.moves if t <= end), default=0)
    page = next((t - end for t, n in room.moves if t > end and n > known), float("inf"))
    server = min((at - end for at, _ in log["events"].values() if at > end), default=float("inf"))
    if room.status != "playing" and page == float("inf"):
        return None
    return page, server


def lost_or_doubled(room: FaultRoom, log: dict, since: float, until: float) -> tuple[int, int]:
    """Events a page was shown within [since, until) that the final log does not hold as
    shown (lost or replaced), and rolls shown twice differently or logged twice."""
    lost = sum(
        1
        for n, (t, event) in room.seen.items()
        if since <= t < until and log["events"].get(n, (0, None))[1] != event
    )
    doubled = len(log["numbers"]) - len(set(log["numbers"]))
    return lost, doubled


def fault_figures(fault: dict, rooms: list[FaultRoom], logs: dict, pause: float) -> dict:
    pairs = [(r, moving_again(r, logs[r.pk], fault["end"])) for r in rooms]
    pairs = [(r, a) for r, a in pairs if a is not None]
    again = [a for _, a in pairs]
    slowest = max(pairs, key=lambda p: p[1][0], default=(None, None))[0]
    late = [
        x for r in rooms for x in step_lateness(logs[r.pk], pause, fault["start"], fault["until"])
    ]
    lost = [lost_or_doubled(r, logs[r.pk], fault["start"], fault["until"]) for r in rooms]
    return {
        "rooms": len(again),
        "slowest": slowest.kind if slowest else "-",
        "page_max": max((p for p, _ in again), default=0.0),
        "page_p95": pct([p for p, _ in again], 95) / 1000,
        "server_max": max((s for _, s in again), default=0.0),
        "late_max": max((x for _, x in late), default=0.0),
        "timeout_late_max": max((x for by, x in late if by == "timeout"), default=0.0),
        "timeouts": sum(1 for by, _ in late if by == "timeout"),
        "lost": sum(x for x, _ in lost),
        "doubled": sum(y for _, y in lost) + sum(r.conflicts for r in rooms),
    }


def show_faults(faults: list[dict], rooms, logs: dict, pause: float, seats, bound: float) -> None:
    """The table: each fault against the issue's targets."""
    print(
        f"{'fault':<22} {'rooms':>5} {'moving again: pages max / p95':>30} {'server max':>10} "
        f"{'lost/doubled':>12} {'late max (timeouts)':>21} {'tracebacks/lines':>16}  result",
        flush=True,
    )
    for fault in faults:
        f = fault_figures(fault, rooms, logs, pause)
        ok = (
            f["page_max"] <= FAULT_RECOVERY
            and not f["lost"]
            and not f["doubled"]
            and f["late_max"] <= bound
            and not fault["tracebacks"]
        )
        print(
            f"{fault['name']:<22} {f['rooms']:>5} {f['page_max']:>20.1f} s / {f['page_p95']:.1f} s "
            f"{f['server_max']:>8.1f} s {f['lost']:>6}/{f['doubled']:<5} "
            f"{f['late_max']:>8.1f} s ({f['timeout_late_max']:.1f} s, {f['timeouts']}) "
            f"{fault['tracebacks']:>8}/{fault['lines']:<7}  {'pass' if ok else 'FAIL'} "
            f"(slowest: a {f['slowest']} room)",
            flush=True,
        )
    valid = sum(1 for log in logs.values() if log["valid"])
    dice = sum(1 for log in logs.values() if log["dice"])
    sent = sum(len(r.sent) for r in rooms)
    applied = sum(
        1
        for r in rooms
        for n in r.sent
        if logs[r.pk]["events"].get(n, (0, {}))[1].get("by") == "player"
    )
    left, waited, seat_bound = seats
    print(
        f"every room's final log: {valid} of {len(logs)} valid (the rules engine), dice of "
        f"{dice} from the room's seed; the pages sent {sent} moves, {applied} applied, "
        f"{sum(r.refused for r in rooms)} refused; {sum(r.reconnects for r in rooms)} "
        f"reconnects. Seats after every page left: {left} still a person's after "
        f"{waited:.0f} s (bound {seat_bound:.0f} s: grace + 3 heartbeats + a sweep) "
        f"{'pass' if not left else 'FAIL'}. Targets: moving again ≤ {FAULT_RECOVERY:.0f} s "
        f"after the fault ends, nothing lost or doubled, steps late ≤ {bound_text()} "
        f"(docs/live.md), no traceback; load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}",
        flush=True,
    )


def bound_text() -> str:
    from django.conf import settings

    live = settings.LIVE
    bound = live["SWEEP_AFTER"] + live["SWEEP_SECONDS"]
    return f"{bound:.0f} s (LIVE_SWEEP_AFTER + LIVE_SWEEP_SECONDS)"


def faults_phase(args) -> None:
    """The production topology (nginx, two Daphne servers, a Celery worker with beat and
    another, a Redis of its own as broker and channel layer) with computer rooms, timer
    rooms and rooms whose pages move, through the faults in turn (``FAULTS``)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tests.processes import RedisServer, free_port

    global MODE
    MODE = "production-process"  # the production topology, steps on the servers' timers
    base = int(os.environ.get("HELPER_PORT_BASE", "0") or 0)
    ctx: dict = {"redis": RedisServer(base + 60 if base else free_port()).wait_ready()}
    ctx.update(hang=args.fault_hang, which=args.faults.split(","))
    env = {"CELERY_BROKER_URL": ctx["redis"].url(0), "CHANNEL_LAYER_URL": ctx["redis"].url(1)}
    try:
        ctx["servers"] = servers = start_servers(2, args.pause, env)
        try:
            made = make_rooms(
                args.fault_rooms, args.fault_timer_rooms, args.turn_seconds, args.fault_player_rooms
            )
            kinds = ["computer"] * args.fault_rooms + ["timer"] * args.fault_timer_rooms
            rooms = [
                FaultRoom(pk, token, k)
                for (pk, token), k in zip(
                    made, [*kinds, *["player"] * args.fault_player_rooms], strict=True
                )
            ]
            me = get_user_model().objects.get(username="bench-host").pk
            faults = asyncio.run(play_through_faults(ctx, rooms, me, args))
            live = settings.LIVE
            bound = live["GRACE_SECONDS"] + 3 * live["HEARTBEAT_SECONDS"] + live["SWEEP_SECONDS"]
            seats = (*seats_left([r.pk for r in rooms if r.kind != "computer"], bound + 10), bound)
        finally:
            stop_all(servers)
    finally:
        ctx["redis"].stop()
    logs = server_events([r.pk for r in rooms])
    step_bound = live["SWEEP_AFTER"] + live["SWEEP_SECONDS"]
    print(
        f"{MODE} faults: {args.fault_rooms} computer rooms, {args.fault_timer_rooms} rooms "
        f"whose person never moves ({args.turn_seconds} s timer), {args.fault_player_rooms} "
        f"rooms whose pages move, at {args.pause:g} s a step, through nginx and 2 Daphne "
        f"servers, {N_WORKERS} Celery workers (beat in the first), Redis on port "
        f"{ctx['redis'].port}; each fault watched {args.fault_window:g} s",
        flush=True,
    )
    show_faults(faults, rooms, logs, args.pause, seats, step_bound)


def show(title: str, r: dict) -> None:
    print(
        f"{title}: {r['moves_per_s']:7.1f} moves/s applied, {r['received']} received; "
        f"latency p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms; "
        f"CPU cores (by PID): servers {r['cpu_servers']:.2f}, nginx {r['cpu_proxy']:.2f}, "
        f"workers {r['cpu_workers']:.2f}, postgres backends {r['cpu_postgres']:.2f}, "
        f"client {r['cpu_client']:.2f}; "
        f"machine busy {100 * r['machine_busy']:.0f}%; CPU per move: servers "
        f"{1000 * r['cpu_servers'] / max(r['moves_per_s'], 1e-9):.1f} ms, nginx "
        f"{1000 * r['cpu_proxy'] / max(r['moves_per_s'], 1e-9):.1f} ms, workers "
        f"{1000 * r['cpu_workers'] / max(r['moves_per_s'], 1e-9):.1f} ms, postgres "
        f"{1000 * r['cpu_postgres'] / max(r['moves_per_s'], 1e-9):.1f} ms; "
        f"load average {os.getloadavg()[0]:.1f}; connects retried {r['connect_retries']}",
        flush=True,
    )


def platform_cpu(r: dict) -> float:
    """The platform's own processes' CPU (cores): servers, nginx, workers, backends."""
    return r["cpu_servers"] + r["cpu_proxy"] + r["cpu_workers"] + r["cpu_postgres"]


def show_ratios() -> None:
    """Each production mode's runs against the embedded mode's same run (same phase and
    room count), measured in this process minutes apart on the same machine."""
    embedded = {label: r for mode, label, r in RESULTS if mode == "embedded"}
    for mode, label, r in RESULTS:
        e = embedded.get(label)
        if mode == "embedded" or e is None:
            continue
        per_move = platform_cpu(r) / max(r["moves_per_s"], 1e-9)
        per_move_e = platform_cpu(e) / max(e["moves_per_s"], 1e-9)
        moves, p95 = r["moves_per_s"], r["p95_ms"]
        print(
            f"ratio {mode} / embedded, {label}: moves/s {moves / max(e['moves_per_s'], 1e-9):.2f}"
            f" ({moves:.1f} / {e['moves_per_s']:.1f}), p95 "
            f"{p95 / max(e['p95_ms'], 1e-9):.2f} ({p95:.1f} / {e['p95_ms']:.1f} ms),"
            f" platform CPU per move {per_move / max(per_move_e, 1e-9):.2f} "
            f"({1000 * per_move:.1f} / {1000 * per_move_e:.1f} ms: servers, nginx, workers and "
            "this database's backends, by PID)",
            flush=True,
        )


PHASES = ("human", "capacity", "timers", "flood", "failover", "connects", "idle", "abuse", "faults")


def main() -> None:
    if sys.argv[1:2] == ["--abuse-client"]:
        urls, token, conns, rate, seconds = sys.argv[2:7]
        abuse_client(urls, token, int(conns), float(rate), float(seconds))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", default="50,100,200", help="room counts at human pace")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--servers", type=int, default=2, help="Daphne servers (production)")
    parser.add_argument(
        "--embedded-servers",
        type=int,
        default=1,
        help="Daphne servers of the embedded mode (1: the embedded default is one process)",
    )
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between moves")
    parser.add_argument("--capacity-rooms", default="10,40,100")
    parser.add_argument("--capacity-seconds", type=float, default=12)
    parser.add_argument(
        "--debug-servers", action="store_true", help="run the servers with DEBUG on (as before)"
    )
    parser.add_argument("--mode", default="embedded,production,production-process")
    parser.add_argument("--workers", type=int, default=2, help="Celery workers (production)")
    parser.add_argument("--connects", type=int, default=1000, help="spectators connecting")
    parser.add_argument("--idle", type=int, default=10000, help="idle spectators held open")
    parser.add_argument("--phases", default=",".join(PHASES), help="which phases run")
    parser.add_argument("--skip", default="", help="phases not to run")
    parser.add_argument("--timer-rooms", type=int, default=100)
    parser.add_argument("--timer-load-rooms", type=int, default=200)
    parser.add_argument("--turn-seconds", type=int, default=1)
    parser.add_argument("--strength", default="random", choices=["random", "heuristic", "strong"])
    parser.add_argument("--timer-seconds", type=float, default=20)
    parser.add_argument("--flood-rooms", type=int, default=100)
    parser.add_argument("--flood-seconds", type=float, default=10)
    parser.add_argument("--abuse-rooms", type=int, default=100)
    parser.add_argument("--abuse-seconds", type=float, default=10)
    parser.add_argument(
        "--abuse-connections", type=int, default=100, help="the abusing address's sockets"
    )
    parser.add_argument("--abuse-rate", type=float, default=10, help="state requests/s each")
    parser.add_argument("--failover-clients", type=int, default=5000)
    parser.add_argument("--failover-rooms", type=int, default=100)
    parser.add_argument("--failover-limit", type=float, default=60)
    parser.add_argument("--failover-pause", type=float, default=2.0, help="seconds per move")
    parser.add_argument("--faults", default="daphne,worker,restart,hang", help="which faults")
    parser.add_argument("--fault-rooms", type=int, default=20, help="computer rooms")
    parser.add_argument("--fault-timer-rooms", type=int, default=10)
    parser.add_argument("--fault-player-rooms", type=int, default=10)
    parser.add_argument("--fault-window", type=float, default=30, help="seconds watched")
    parser.add_argument("--fault-settle", type=float, default=10)
    parser.add_argument("--fault-hang", type=float, default=20, help="seconds Redis hangs")
    args = parser.parse_args()
    phases = [p for p in args.phases.split(",") if p and p not in args.skip.split(",")]
    unknown = [p for p in [*phases, *args.skip.split(",")] if p and p not in PHASES]
    if unknown:
        parser.error(f"unknown phases {unknown}; the phases: {', '.join(PHASES)}")
    global DEBUG_SERVERS, MODE, N_WORKERS, HOST_COOKIE, STRENGTH
    DEBUG_SERVERS = args.debug_servers
    STRENGTH = args.strength
    N_WORKERS = args.workers
    files = raise_open_files()
    setup_database()
    django.setup()
    from django.contrib.auth import get_user_model

    get_user_model().objects.get_or_create(username="bench-host")
    HOST_COOKIE = host_cookie()
    modes = [m for m in args.mode.split(",") if m]
    print(
        f"== bench/online.py: phases {', '.join(phases)}; modes {', '.join(modes)}; "
        f"computers {STRENGTH}; open "
        f"files {files}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
        flush=True,
    )
    for mode in modes:
        MODE = mode
        workers = f", {N_WORKERS} Celery workers" if mode.startswith("production") else ""
        n_servers = args.embedded_servers if mode == "embedded" else args.servers
        print(
            f"== {mode}: {os.cpu_count()} CPUs, {n_servers} Daphne servers (DEBUG "
            f"{'on' if DEBUG_SERVERS else 'off'}){workers}, Redis, PostgreSQL",
            flush=True,
        )
        if "human" in phases and args.rooms:
            servers = start_servers(n_servers, args.pause)
            try:
                for n in [int(x) for x in args.rooms.split(",") if x]:
                    rooms = make_rooms(n)
                    result = asyncio.run(run_phase(servers, rooms, args.seconds))
                    label = f"human pace, {n:4d} rooms ({args.pause:g} s per move)"
                    show(f"{mode} {label}", result)
                    RESULTS.append((mode, label, result))
            finally:
                stop_all(servers)

        if "capacity" in phases and args.capacity_rooms:
            servers = start_servers(n_servers, 0.0)
            try:
                for n in [int(x) for x in args.capacity_rooms.split(",")]:
                    rooms = make_rooms(n)
                    result = asyncio.run(run_phase(servers, rooms, args.capacity_seconds, 2.0))
                    show(f"{mode} flat out, {n:4d} rooms", result)
                    RESULTS.append((mode, f"flat out, {n:4d} rooms", result))
            finally:
                stop_all(servers)

    show_ratios()
    if modes:
        MODE = modes[-1]  # the other targets: in the last mode (production by default)
    if "timers" in phases:
        servers = start_servers(args.servers, args.pause)
        try:
            timers_phase(
                servers,
                args.timer_load_rooms,
                args.timer_rooms,
                args.turn_seconds,
                args.timer_seconds,
            )
        finally:
            stop_all(servers)
    if "flood" in phases:
        flood_phase(args.flood_rooms, args.flood_seconds, args.pause)
    if "abuse" in phases:
        abuse_phase(
            args.abuse_rooms,
            args.abuse_seconds,
            args.pause,
            args.abuse_connections,
            args.abuse_rate,
        )
    if "failover" in phases:
        failover_phase(
            args.failover_clients, args.failover_rooms, args.failover_pause, args.failover_limit
        )

    if "faults" in phases:
        faults_phase(args)

    connects = args.connects if "connects" in phases else 0
    idle = args.idle if "idle" in phases else 0
    if connects or idle:
        MODE = "embedded"
        print("== connections: one Daphne server (DEBUG off), one waiting room", flush=True)
        servers = start_servers(1, args.pause)
        try:
            rooms = make_rooms(1)  # waiting: nothing moves, the connections stay idle
            asyncio.run(connections_phase(servers[0], rooms[0][1], connects, idle))
        finally:
            stop_all(servers)


if __name__ == "__main__":
    main()
