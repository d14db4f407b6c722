"""Live play under load, through real WebSocket connections: Daphne servers, the Redis
channel layer and PostgreSQL, computer-only rooms each watched by a spectator connection.

1. Latency at a human pace: ``--rooms`` rooms, each moving about once a second (the
   computer's pause); the delay from a move being applied (the state built right after the
   commit) to the spectator receiving it: p50, p95, p99.
2. Capacity: rooms playing flat out (no pause), for each of ``--capacity-rooms``: the moves
   per second the machine sustains, the latency, and where the CPU goes (servers,
   PostgreSQL, Redis, this client).

Modes (``--mode``): **embedded** — the computer's steps and timers on the Daphne servers'
own timer threads (no broker); **production** — the steps and timers as Celery tasks with
a countdown through the Redis broker (``BENCH_BROKER_URL``), run by ``--workers`` Celery
worker processes; **production-process** — the same broker and workers, but the steps on
the servers' own timers (``LIVE_STEPS=process``). The CPU per move is printed per process
kind (servers, workers; PostgreSQL and Redis are every such process on the machine).
The servers listen on ``HELPER_PORT_BASE``, ``+1``, … when that is set.

3. Connections, measured once on one server (after the modes): how many spectators one
   process lets in per second (``--connects``: handshake and the first state; with its CPU
   per connect, so the connects per second the process would take with a core of its own),
   and what ``--idle`` idle spectator connections of one room cost it in memory (resident
   size before and after, per connection).

Bounded in time and count, loopback only. Needs PostgreSQL and Redis (``make bench``):

    python bench/online.py [--mode embedded,production] [--rooms 200] [--seconds 20]
                           [--servers 2] [--workers 2]
                           [--capacity-rooms 10,40,100] [--capacity-seconds 12]
                           [--connects 1000] [--idle 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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


def pids_named(name: str) -> list[int]:
    out = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def machine_busy() -> tuple[float, float]:
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


def make_rooms(n: int) -> list[tuple[int, str]]:
    """``n`` computer-only rooms, waiting: the host's connection to each starts it, so the
    first step is scheduled where the servers schedule steps (their timer, or the broker)."""
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
        room = services.room_create(host=host, rules="online", mode="computer", strength="random")
        room.seats.update(kind="computer", user=None)
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


async def watch(url: str, token: str, latencies: list[float], stop: asyncio.Event, ready):
    import websockets

    host = url.split("//", 1)[1]
    async with CONNECTING:  # a few handshakes at a time (Daphne drops one not accepted in 5 s)
        for attempt in range(5):
            try:
                ws = await websockets.connect(
                    f"ws://{host}/ws/live/{token}/",
                    origin=f"http://{host}",
                    max_size=2**22,
                    additional_headers={"Cookie": HOST_COOKIE},
                    open_timeout=30,
                )
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
            if message.get("type") == "state" and message.get("last") and "events" not in message:
                latencies.append(received - message["applied_at"])


CONNECTING: asyncio.Semaphore
FAILED_CONNECTS: list[str] = []


async def run_phase(servers, rooms, seconds: float, warmup: float = 3.0):
    global CONNECTING
    CONNECTING = asyncio.Semaphore(10)
    FAILED_CONNECTS.clear()
    latencies: list[float] = []
    stop = asyncio.Event()
    connected = [0]

    def ready():
        connected[0] += 1

    tasks = [
        asyncio.ensure_future(watch(servers[i % len(servers)].url, token, latencies, stop, ready))
        for i, (_, token) in enumerate(rooms)
    ]
    while connected[0] < len(rooms):
        await asyncio.sleep(0.05)
        if any(t.done() and t.exception() for t in tasks):
            raise next(t.exception() for t in tasks if t.done() and t.exception())
    await asyncio.sleep(warmup)
    ids = [pk for pk, _ in rooms]
    latencies.clear()
    server_pids = [s.process.pid for s in servers]
    worker_pids = [w.process.pid for w in WORKERS]
    pg, redis = pids_named("postgres"), pids_named("redis-server")
    before = (
        await asyncio.to_thread(total_moves, ids),
        cpu_ticks(server_pids),
        cpu_ticks(pg),
        cpu_ticks(redis),
        cpu_ticks([os.getpid()]),
        machine_busy(),
        time.monotonic(),
        cpu_ticks(worker_pids),
    )
    await asyncio.sleep(seconds)
    after = (
        await asyncio.to_thread(total_moves, ids),
        cpu_ticks(server_pids),
        cpu_ticks(pg),
        cpu_ticks(redis),
        cpu_ticks([os.getpid()]),
        machine_busy(),
        time.monotonic(),
        cpu_ticks(worker_pids),
    )
    sample = list(latencies)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = after[6] - before[6]
    busy = (after[5][0] - before[5][0]) / max(1, after[5][1] - before[5][1])
    return {
        "moves_per_s": (after[0] - before[0]) / wall,
        "received": len(sample),
        "p50_ms": pct(sample, 50),
        "p95_ms": pct(sample, 95),
        "p99_ms": pct(sample, 99),
        "cpu_servers": (after[1] - before[1]) / wall,
        "cpu_postgres": (after[2] - before[2]) / wall,
        "cpu_redis": (after[3] - before[3]) / wall,
        "cpu_client": (after[4] - before[4]) / wall,
        "cpu_workers": (after[7] - before[7]) / wall,
        "machine_busy": busy,
        "connect_retries": len(FAILED_CONNECTS),
    }


def pct(values: list[float], p: int) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(len(values) * p / 100))]


DEBUG_SERVERS = False
MODE = "embedded"
WORKERS: list = []
N_WORKERS = 2


def start_worker(env: dict[str, str]):
    """One Celery worker process, solo pool (production mode): ``tests/processes.py``."""
    from tests.processes import CeleryWorker

    return CeleryWorker({**os.environ, **env}, log_path=ROOT / "var" / "bench-worker.log")


def start_servers(n: int, pause: float):
    from tests.live.servers import Daphne

    env = {
        "LIVE_COMPUTER_PAUSE": str(pause),
        "LIVE_AUTO_PAUSE": str(pause),
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "CONN_MAX_AGE": "600",
        "LIVE_ROOMS_PER_ACCOUNT": "100000",
        "LIVE_ROOMS_PER_ADDRESS": "100000",
        "LIVE_MESSAGES_PER_SECOND": "1000",
        "CELERY_BROKER_URL": os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
        if MODE.startswith("production")
        else "",
        # production-process: a broker and workers, but the steps on the servers' own timers
        "LIVE_STEPS": "process" if MODE == "production-process" else "celery",
    }
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
    WORKERS.clear()
    if MODE.startswith("production"):
        worker_env = {**env, "DATABASE_URL": os.environ["DATABASE_URL"]}
        WORKERS.extend(start_worker(worker_env) for _ in range(N_WORKERS))
        time.sleep(5)  # the workers connect to the broker
    return servers


def stop_all(servers) -> None:
    for s in [*servers, *WORKERS]:
        s.stop()
    WORKERS.clear()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def spectator(url: str, token: str):
    """An anonymous spectator's connection, once it has the room's state."""
    import websockets

    host = url.split("//", 1)[1]
    ws = await websockets.connect(
        f"ws://{host}/ws/live/{token}/", origin=f"http://{host}", open_timeout=60
    )
    await ws.recv()
    return ws


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
                opened.append(await spectator(server.url, token))

        await asyncio.gather(*(keep() for _ in range(idle)))
        await asyncio.sleep(5)  # settled: nothing moves in the room
        after = rss_mb(pid)
        print(
            f"idle connections on one server: {len(opened)} spectators of one room; resident "
            f"memory {before:.0f} MB → {after:.0f} MB: {1024 * (after - before) / idle:.1f} KB "
            f"per connection; load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)


def show(title: str, r: dict) -> None:
    print(
        f"{title}: {r['moves_per_s']:7.1f} moves/s applied, {r['received']} received; "
        f"latency p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms; "
        f"CPU cores: servers {r['cpu_servers']:.2f}, workers {r['cpu_workers']:.2f}, "
        f"postgres {r['cpu_postgres']:.2f}, "
        f"redis {r['cpu_redis']:.2f}, client {r['cpu_client']:.2f}; "
        f"machine busy {100 * r['machine_busy']:.0f}%; CPU per move: servers "
        f"{1000 * r['cpu_servers'] / max(r['moves_per_s'], 1e-9):.1f} ms, workers "
        f"{1000 * r['cpu_workers'] / max(r['moves_per_s'], 1e-9):.1f} ms, postgres "
        f"{1000 * r['cpu_postgres'] / max(r['moves_per_s'], 1e-9):.1f} ms; "
        f"load average {os.getloadavg()[0]:.1f}; connects retried {r['connect_retries']}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", default="50,100,200", help="room counts at human pace")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between moves")
    parser.add_argument("--capacity-rooms", default="10,40,100")
    parser.add_argument("--capacity-seconds", type=float, default=12)
    parser.add_argument(
        "--debug-servers", action="store_true", help="run the servers with DEBUG on (as before)"
    )
    parser.add_argument("--mode", default="embedded,production,production-process")
    parser.add_argument("--workers", type=int, default=2, help="Celery workers (production)")
    parser.add_argument("--connects", type=int, default=1000, help="spectators connecting")
    parser.add_argument("--idle", type=int, default=2000, help="idle spectators held open")
    args = parser.parse_args()
    global DEBUG_SERVERS, MODE, N_WORKERS, HOST_COOKIE
    DEBUG_SERVERS = args.debug_servers
    N_WORKERS = args.workers
    setup_database()
    django.setup()
    from django.contrib.auth import get_user_model

    get_user_model().objects.get_or_create(username="bench-host")
    HOST_COOKIE = host_cookie()
    for mode in [m for m in args.mode.split(",") if m]:
        MODE = mode
        workers = f", {N_WORKERS} Celery workers" if mode.startswith("production") else ""
        print(
            f"== {mode}: {os.cpu_count()} CPUs, {args.servers} Daphne servers (DEBUG "
            f"{'on' if DEBUG_SERVERS else 'off'}){workers}, Redis, PostgreSQL",
            flush=True,
        )
        servers = start_servers(args.servers, args.pause)
        try:
            for n in [int(x) for x in args.rooms.split(",") if x]:
                rooms = make_rooms(n)
                result = asyncio.run(run_phase(servers, rooms, args.seconds))
                show(f"{mode} human pace, {n:4d} rooms ({args.pause:g} s per move)", result)
        finally:
            stop_all(servers)

        if args.capacity_rooms:
            servers = start_servers(args.servers, 0.0)
            try:
                for n in [int(x) for x in args.capacity_rooms.split(",")]:
                    rooms = make_rooms(n)
                    result = asyncio.run(run_phase(servers, rooms, args.capacity_seconds, 2.0))
                    show(f"{mode} flat out, {n:4d} rooms", result)
            finally:
                stop_all(servers)

    if args.connects or args.idle:
        MODE = "embedded"
        print("== connections: one Daphne server (DEBUG off), one waiting room", flush=True)
        servers = start_servers(1, args.pause)
        try:
            rooms = make_rooms(1)  # waiting: nothing moves, the connections stay idle
            asyncio.run(connections_phase(servers[0], rooms[0][1], args.connects, args.idle))
        finally:
            stop_all(servers)


if __name__ == "__main__":
    main()
