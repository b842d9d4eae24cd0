"""Shared machinery of the live-ingest load and fault benchmarks (`load_slack.py`,
`load_discord.py`, `faults.py`).

* a fresh database: a SQLite file in a temporary directory, or a fresh schema on a PostgreSQL
  server (created and dropped as tests/conftest.py does);
* `StoreProbe`: wraps `bot.core.router.Core.store` in this process to time every call and note when
  each message first became visible (the call returned after its commit), and injects faults
  (an unavailable database, a killed bot);
* `Child`: a worker process started with `spawn` (the load generator, or the fake Discord), so
  that the bot under test has its own interpreter and GIL; it is always ended in `finally`;
* the Slack sender that runs in that child: correctly signed Events API requests over real
  HTTP, in lanes (a lane sends its events in order, each at its scheduled time), with a
  3 s timeout as Slack has;
* the fake Discord's child: `tests/fakediscord.py` serving the gateway and dispatching
  MESSAGE_CREATE at a fixed rate.

Everything listens on and talks to 127.0.0.1 only. Times are `time.monotonic()`, which on Linux
is one clock for all processes, so a send time in the child and a store time in the bot
process can be subtracted.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import hashlib
import hmac
import json
import logging
import multiprocessing
import os
import platform
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT_DIR = REPO / "benchmarks" / "out"

# The targets on 2 cores with SQLite, for both load scripts.
TARGET_RATE = 500.0
TARGET_SECONDS = 60.0
TARGET_STORE_P99_MS = 50.0
for _path in (str(REPO / "tests"), str(REPO)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import sqlalchemy  # noqa: E402
from sqlalchemy import create_engine, func, select, text  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402
from sqlalchemy.orm import Session, sessionmaker  # noqa: E402

from bot.config import Config  # noqa: E402
from bot.core.port import Caller  # noqa: E402
from bot.core.router import Core, core_for  # noqa: E402
from bot.core.settings import change_setting  # noqa: E402
from bot.ops.config import load_config  # noqa: E402
from storage.db import make_engine, make_sessionmaker, migrate  # noqa: E402
from storage.messages import upsert_workspace  # noqa: E402
from storage.models import Message, Workspace  # noqa: E402
from storage.records import WorkspaceRecord  # noqa: E402

SECRET = "bench-signing-secret"
SLACK_TIMEOUT_S = 3.0  # Slack retries an event whose request is not answered within 3 s
# Sender result statuses that are not HTTP codes.
CONN_ERROR, TIMEOUT, SKIPPED = -1, -2, -3

log = logging.getLogger("bench")


# ---- statistics ---------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank percentile (q in 0..100) of `values`; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def dist_ms(seconds: Sequence[float]) -> dict[str, Any]:
    """p50/p90/p99/max/mean in milliseconds of durations given in seconds."""
    if not seconds:
        return {"n": 0, "p50": None, "p90": None, "p99": None, "max": None, "mean": None}

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)

    return {
        "n": len(seconds),
        "p50": ms(percentile(seconds, 50)),
        "p90": ms(percentile(seconds, 90)),
        "p99": ms(percentile(seconds, 99)),
        "max": ms(max(seconds)),
        "mean": ms(sum(seconds) / len(seconds)),
    }


def worst_seconds(
    samples: Sequence[tuple[float, float]], since: float, top: int = 5
) -> list[dict[str, Any]]:
    """(time, latency s) samples grouped by whole second after `since`: the `top` seconds
    with the highest p99, to show whether the tail is spread out or a few stalls."""
    buckets: dict[int, list[float]] = {}
    for at, latency in samples:
        buckets.setdefault(int(at - since), []).append(latency)
    ranked = sorted(buckets.items(), key=lambda kv: percentile(kv[1], 99) or 0, reverse=True)
    return [
        {"second": second, "n": len(values), **{k: dist_ms(values)[k] for k in ("p99", "max")}}
        for second, values in ranked[:top]
    ]


def fmt(value: Any, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.1f}{unit}" if abs(value) >= 10 else f"{value:.2f}{unit}"
    return f"{value}{unit}"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def write_json(name: str, data: dict[str, Any]) -> Path:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUT_DIR / name
    path.write_text(json.dumps(data, indent=2, default=str) + "\n")
    return path


def run_meta(database_url: str) -> dict[str, Any]:
    """Where and on what the figures were taken."""

    def git(*args: str) -> str:
        try:
            result = subprocess.run(
                ["git", *args], cwd=REPO, capture_output=True, text=True, timeout=10
            )
            return result.stdout.rstrip()
        except (OSError, subprocess.SubprocessError):
            return ""

    import aiohttp
    import slack_bolt.version

    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "git_head": git("rev-parse", "--short", "HEAD").strip(),
        "git_subject": git("log", "-1", "--format=%s").strip(),
        "git_dirty_files": [line[3:] for line in git("status", "--porcelain").splitlines()],
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "database": database_url.split("@")[-1].split("?")[0] if "@" in database_url else "sqlite",
        "sqlalchemy": sqlalchemy.__version__,
        "aiohttp": aiohttp.__version__,
        "slack_bolt": slack_bolt.version.__version__,
        "discord.py": metadata.version("discord.py"),
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
        "other_activity_at_start": other_activity(),
    }


def other_activity() -> list[str]:
    """Other test or benchmark processes running now (they would share the CPUs)."""
    mine = {os.getpid(), os.getppid()}
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        try:
            parts = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text().split()
        except OSError:
            continue
        if len(stat) > 3 and int(stat[3]) in mine:
            continue  # a child of this run (the sender, the fake Discord)
        line = " ".join(p.decode(errors="replace") for p in parts if p)
        if any(word in line for word in ("pytest", "benchmarks/", "summarybot", "postgres:")):
            postgres = line.startswith("postgres:")
            if postgres and ("(" not in line or line.rstrip().endswith("idle")):
                continue  # the server's own processes, and idle client connections
            found.append(f"{entry.name}: {line[:120]}")
    return found


class LogCounter(logging.Handler):
    """Counts warnings and errors per logger and prints only the first few of each."""

    def __init__(self, show: int = 3) -> None:
        super().__init__(logging.WARNING)
        self.show = show
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        key = f"{record.name}:{record.levelname}"
        self.counts[key] += 1
        if self.counts[key] <= self.show:
            first = record.getMessage().splitlines()[0][:200]
            exc = ""
            if record.exc_info and record.exc_info[1] is not None:
                exc = f" [{type(record.exc_info[1]).__name__}: {str(record.exc_info[1])[:120]}]"
            print(f"  log {key}: {first}{exc}", file=sys.stderr)
            if self.counts[key] == self.show:
                print(f"  log {key}: (further ones only counted)", file=sys.stderr)


def thread_cpu(thread_id: int) -> float:
    """CPU seconds a thread of this process has used (its own clock, Linux)."""
    return time.clock_gettime(time.pthread_getcpuclockid(thread_id))


def quiet_logging() -> LogCounter:
    counter = LogCounter()
    root = logging.getLogger()
    root.handlers[:] = [counter]
    root.setLevel(logging.WARNING)
    return counter


# ---- databases ----------------------------------------------------------------------------


@contextlib.contextmanager
def fresh_database(base_url: str | None) -> Iterator[str]:
    """An empty database URL: a SQLite file in a temporary directory (base_url None), or a
    fresh schema on the PostgreSQL server of `base_url`, dropped afterwards."""
    if not base_url:
        with tempfile.TemporaryDirectory(prefix="summarybot-bench-") as tmp:
            yield f"sqlite:///{Path(tmp) / 'bench.db'}"
        return
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base_url)
    try:
        with admin.begin() as connection:
            connection.execute(text(f"CREATE SCHEMA {schema}"))
        separator = "&" if "?" in base_url else "?"
        yield f"{base_url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()


def open_database(url: str) -> tuple[sqlalchemy.Engine, sessionmaker[Session]]:
    engine = make_engine(url)
    migrate(engine)
    return engine, make_sessionmaker(engine)


def enable_channels(
    sessions: sessionmaker[Session], config: Config, workspace: WorkspaceRecord, channels: list[str]
) -> None:
    """What `/summary channels add` stores, set directly (no backfill is triggered)."""
    with sessions.begin() as session:
        workspace_id = upsert_workspace(session, workspace)
        caller = Caller("UBENCHADMIN", "Bench Admin", is_admin=True)
        change_setting(
            session, config, workspace_id, "channels", channels, caller, datetime.now(UTC)
        )


def stored_messages(sessions: sessionmaker[Session], platform_name: str) -> dict[str, str]:
    """platform id -> text of every stored message of the platform's workspaces."""
    with sessions() as session:
        rows = session.execute(
            select(Message.platform_id, Message.text)
            .join(Workspace, Workspace.id == Message.workspace_id)
            .where(Workspace.platform == platform_name)
        ).all()
    return dict(rows)


def row_counts(sessions: sessionmaker[Session], platform_name: str) -> tuple[int, int]:
    """(rows, distinct platform ids) of the platform's stored messages."""
    with sessions() as session:
        rows, distinct = session.execute(
            select(func.count(Message.id), func.count(func.distinct(Message.platform_id)))
            .join(Workspace, Workspace.id == Message.workspace_id)
            .where(Workspace.platform == platform_name)
        ).one()
    return int(rows), int(distinct)


# ---- the store probe ----------------------------------------------------------------------

# Set in the task that runs a backfill, so that the probe can tell backfilled rows from live.
SOURCE: contextvars.ContextVar[str] = contextvars.ContextVar("bench_source", default="live")


class BotKilled(RuntimeError):
    """Raised by the probe for a core whose bot was "killed": its pending work is lost."""


@dataclass
class StoreProbe:
    """Wraps `Core.store` (class-wide, in this process): times every call and records when each
    message id first became visible, and by which path (live or backfill)."""

    calls: list[tuple[float, float, int]] = field(default_factory=list)  # start, end, messages
    first_stored: dict[str, float] = field(default_factory=dict)
    first_source: dict[str, str] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)  # new / updated / unchanged / ...
    errors: Counter[str] = field(default_factory=Counter)
    fail_until: float = 0.0  # monotonic time until which every store raises OperationalError
    dead: set[int] = field(default_factory=set)  # id() of cores whose bot was killed
    fault_point: str = ""
    _original: Callable[..., Any] | None = None
    _original_inner: Callable[..., Any] | None = None

    def install(self) -> StoreProbe:
        """Wrap `Core.store`. The injected database outage is raised where the database is
        used: inside `Core._store_once` when the core has one (so that the core's own retry of
        transient errors runs, as it would for a real outage), else inside `Core.store`."""
        original = self._original = Core.store
        probe = self
        inner_name = "_store_once" if hasattr(Core, "_store_once") else None
        self.fault_point = f"Core.{inner_name or 'store'}"
        if inner_name is not None:
            inner = self._original_inner = getattr(Core, inner_name)

            def store_once(core, session, workspace_id, workspace, channel, messages, *rest):  # noqa: ANN001, ANN002, ANN202
                probe._maybe_fail(len(messages))
                return inner(core, session, workspace_id, workspace, channel, messages, *rest)

            setattr(Core, inner_name, store_once)

        async def store(core, workspace, channel, messages):  # noqa: ANN001, ANN202
            start = time.monotonic()
            if id(core) in probe.dead:
                probe.errors["BotKilled"] += len(messages)
                raise BotKilled("the bot was killed before this event was stored")
            if inner_name is None:
                probe._maybe_fail(len(messages))
            try:
                counts = await original(core, workspace, channel, messages)
            except Exception as error:
                probe.errors[f"Core.store raised {type(error).__name__}"] += len(messages)
                raise
            end = time.monotonic()
            probe.calls.append((start, end, len(messages)))
            if counts is None:
                probe.counts["not_logged"] += len(messages)
                return counts
            probe.counts["new"] += counts.new
            probe.counts["updated"] += counts.updated
            probe.counts["unchanged"] += counts.unchanged
            source = SOURCE.get()
            for message in messages:
                if message.platform_id not in probe.first_stored:
                    probe.first_stored[message.platform_id] = end
                    probe.first_source[message.platform_id] = source
            return counts

        Core.store = store  # type: ignore[method-assign]
        return self

    def _maybe_fail(self, count: int) -> None:
        if time.monotonic() < self.fail_until:
            self.errors["OperationalError (injected)"] += count
            raise OperationalError(
                "INSERT INTO messages ...", {}, Exception("database unavailable (injected)")
            )

    def uninstall(self) -> None:
        if self._original is not None:
            Core.store = self._original  # type: ignore[method-assign]
            self._original = None
        if self._original_inner is not None:
            Core._store_once = self._original_inner  # type: ignore[attr-defined]
            self._original_inner = None

    def call_durations(self, since: float = 0.0, until: float = float("inf")) -> list[float]:
        return [end - start for start, end, _ in self.calls if since <= start <= until]

    def stalls(self, since: float = 0.0, over: float = 0.020) -> dict[str, Any]:
        """Store calls slower than `over` seconds: how many, and when (s after `since`).
        Each blocks the event loop, so every event that arrives meanwhile waits too."""
        slow = [(start, end - start) for start, end, _ in self.calls if start >= since]
        slow = [(start, took) for start, took in slow if took > over]
        return {
            "over_ms": over * 1000,
            "count": len(slow),
            "at_s": [round(start - since, 2) for start, _ in slow[:40]],
            "took_ms": [round(took * 1000, 1) for _, took in slow[:40]],
        }


class GcMonitor:
    """Times the garbage collector's pauses in this process (gc.callbacks), by generation."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
        self._started: float | None = None

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        now = time.monotonic()
        if phase == "start":
            self._started = now
        elif self._started is not None:
            self.pauses[info["generation"]].append((self._started, now - self._started))
            self._started = None

    def install(self) -> GcMonitor:
        gc.callbacks.append(self)
        return self

    def uninstall(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self)

    def summary(self, since: float = 0.0, until: float = float("inf")) -> dict[str, Any]:
        result = {}
        for generation, pauses in self.pauses.items():
            took = [p for start, p in pauses if since <= start <= until]
            result[f"gen{generation}"] = {
                "count": len(took),
                "total_ms": round(sum(took) * 1000, 1),
                "max_ms": round(max(took) * 1000, 1) if took else None,
            }
        full = [start for start, _ in self.pauses[2] if since <= start <= until]
        result["gen2_at_s"] = [round(start - since, 2) for start in full[:40]]
        return result


async def backfilling(coro_factory: Callable[[], Any]) -> Any:
    """Run a backfill in a task of its own marked as such for the probe."""

    async def marked() -> Any:
        SOURCE.set("backfill")
        return await coro_factory()

    return await asyncio.create_task(marked())


async def wait_until(check: Callable[[], bool], timeout: float, step: float = 0.02) -> bool:
    """Poll `check` until true or `timeout` seconds passed; whether it became true."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(step)
    return True


class TaskSampler:
    """Samples the number of live asyncio tasks (a proxy for the listener backlog)."""

    def __init__(self, period: float = 0.1) -> None:
        self.period = period
        self.samples: list[int] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            self.samples.append(len(asyncio.all_tasks()))
            await asyncio.sleep(self.period)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


# ---- child processes ----------------------------------------------------------------------


class Child:
    """A worker process (spawned, so nothing of this process's event loop is inherited) with a
    duplex pipe. `close()` asks it to stop, then terminates it by its own handle."""

    def __init__(self, target: Callable[[Any], None], name: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child_end = context.Pipe(duplex=True)
        self.proc = context.Process(target=target, args=(child_end,), name=name, daemon=True)
        self.proc.start()
        child_end.close()

    def send(self, message: Any) -> None:
        self.conn.send(message)

    async def recv(self, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while not self.conn.poll():
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{self.proc.name}: no answer within {timeout:.0f} s")
            if not self.proc.is_alive():
                raise RuntimeError(f"{self.proc.name} exited with {self.proc.exitcode}")
            await asyncio.sleep(0.01)
        return self.conn.recv()

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            if self.proc.is_alive():
                self.conn.send(("stop",))
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self.conn.close()


async def child_recv(conn: Any, timeout: float) -> Any:
    """In a child: the next message from the parent, polled so the child's loop keeps running;
    ("stop",) when the parent is gone or silent for `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if conn.poll():
                return conn.recv()
        except (EOFError, OSError):
            return ("stop",)
        if time.monotonic() >= deadline:
            return ("stop",)
        await asyncio.sleep(0.01)


# ---- Slack: events and the sender ---------------------------------------------------------


def slack_ts(micros: int) -> str:
    return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"


def slack_message(channel: str, user: str, ts: str, text_: str) -> dict[str, Any]:
    """A `message` event (and the same shape as conversations.history returns it)."""
    return {
        "type": "message",
        "channel": channel,
        "user": user,
        "ts": ts,
        "text": text_,
        "team": "T0LAB",
        "channel_type": "channel",
        "event_ts": ts,
    }


def slack_edit(
    channel: str, user: str, ts: str, text_: str, edited_ts: str, event_ts: str
) -> dict[str, Any]:
    return {
        "type": "message",
        "subtype": "message_changed",
        "channel": channel,
        "hidden": True,
        "ts": event_ts,
        "event_ts": event_ts,
        "channel_type": "channel",
        "message": {
            "type": "message",
            "user": user,
            "ts": ts,
            "text": text_,
            "edited": {"user": user, "ts": edited_ts},
        },
    }


def slack_delete(channel: str, ts: str, event_ts: str) -> dict[str, Any]:
    return {
        "type": "message",
        "subtype": "message_deleted",
        "channel": channel,
        "hidden": True,
        "ts": event_ts,
        "event_ts": event_ts,
        "channel_type": "channel",
        "deleted_ts": ts,
    }


def message_text(i: int) -> str:
    """A plain chat line (no markup, so the stored text equals the sent text)."""
    kinds = (
        "Run {i}: loss {x:.3f} at step {s}, see #{pr}",
        "Checkpoint {i} saved in {x:.1f} s on {s} hosts",
        "Sweep arm {i}: {x:.1f}% MFU; PR #{pr} merged",
        "Question {i}: why does shard {s} take {x:.2f} s to load?",
    )
    return kinds[i % len(kinds)].format(i=i, x=(i * 37 % 1000) / 7, s=i % 4096, pr=9000 + i % 700)


def sign(secret: str, body: str) -> dict[str, str]:
    """The headers Slack signs an Events API request with (v0 HMAC-SHA256, now)."""
    timestamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256)
    return {
        "Content-Type": "application/json",
        "X-Slack-Request-Timestamp": timestamp,
        "X-Slack-Signature": f"v0={digest.hexdigest()}",
    }


@dataclass
class SlackPlan:
    """What the sender child sends: events[i] = (offset_s, lane, body, retry_num); each lane
    sends its events in order, each no earlier than start_at + offset_s."""

    url: str
    events: list[tuple[float, int, str, int]]
    lanes: int
    start_at: float
    stop_at: float  # nothing is sent after this (monotonic)
    timeout: float = SLACK_TIMEOUT_S
    secret: str = SECRET
    # Slack's own retries of a delivery that failed (no 200 within 3 s, an HTTP error, no
    # connection): delays after each failed attempt. Slack waits ~0 s, 1 min, 5 min; empty:
    # no retries (the load test sends its own).
    retry_delays: tuple[float, ...] = ()
    max_connections: int = 0  # 0: one per lane
    # Several bot processes behind a proxy: event i goes to urls[i % n], its k-th retry to
    # urls[(i + k) % n] (so a retry reaches another process). Empty: everything to `url`.
    urls: tuple[str, ...] = ()

    def url_for(self, index: int, attempt: int) -> str:
        """Where delivery `attempt` (0: the first) of event `index` goes."""
        if not self.urls:
            return self.url
        return self.urls[(index + attempt) % len(self.urls)]


def slack_sender_main(conn: Any) -> None:
    """The load generator's process: answers ("send", SlackPlan) with ("done", results,
    retries) where results[i] = (due, sent, answered, status) of the first delivery and
    retries = [(i, attempt, sent, answered, status)]; ends on ("stop",)."""
    asyncio.run(_slack_sender(conn))


async def _slack_sender(conn: Any) -> None:
    conn.send(("ready", os.getpid()))
    while True:
        message = await child_recv(conn, timeout=600)
        if message[0] != "send":
            return
        plan: SlackPlan = message[1]
        conn.send(("done", *await _send_plan(plan)))


async def _send_plan(plan: SlackPlan) -> tuple[list[Any], list[Any]]:
    import aiohttp

    results: list[Any] = [None] * len(plan.events)
    retries: list[tuple[int, int, float, float, int]] = []
    retry_tasks: list[asyncio.Task[None]] = []
    lanes: list[list[int]] = [[] for _ in range(plan.lanes)]
    for index, event in enumerate(plan.events):
        lanes[event[1]].append(index)
    connector = aiohttp.TCPConnector(limit=plan.max_connections or plan.lanes)
    timeout = aiohttp.ClientTimeout(total=plan.timeout)

    reasons = {TIMEOUT: "http_timeout", CONN_ERROR: "connection_failed"}

    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:

        async def post(index: int, retry: int, reason: str) -> tuple[float, float, int]:
            body = plan.events[index][2]
            headers = sign(plan.secret, body)
            if retry:
                headers["X-Slack-Retry-Num"] = str(retry)
                headers["X-Slack-Retry-Reason"] = reason
            sent = time.monotonic()
            try:
                url = plan.url_for(index, retry)
                async with http.post(url, data=body.encode(), headers=headers) as answer:
                    await answer.read()
                    status = answer.status
            except TimeoutError:
                status = TIMEOUT
            except (aiohttp.ClientError, OSError):
                status = CONN_ERROR
            return sent, time.monotonic(), status

        def schedule_retry(index: int, attempt: int, status: int) -> None:
            if attempt > len(plan.retry_delays):
                return
            delay = plan.retry_delays[attempt - 1]
            reason = reasons.get(status, "http_error")
            retry_tasks.append(asyncio.create_task(retry_later(index, attempt, delay, reason)))

        async def retry_later(index: int, attempt: int, delay: float, reason: str) -> None:
            await asyncio.sleep(delay)
            if time.monotonic() >= plan.stop_at:
                return
            sent, answered, status = await post(index, attempt, reason)
            retries.append((index, attempt, sent, answered, status))
            if status != 200:
                schedule_retry(index, attempt + 1, status)

        async def lane(indices: list[int]) -> None:
            for index in indices:
                offset, _, _, retry = plan.events[index]
                due = plan.start_at + offset
                now = time.monotonic()
                if now >= plan.stop_at:
                    results[index] = (due, None, None, SKIPPED)
                    continue
                if due > now:
                    await asyncio.sleep(due - now)
                sent, answered, status = await post(index, retry, "http_timeout")
                results[index] = (due, sent, answered, status)
                if status != 200:
                    schedule_retry(index, retry + 1, status)

        async def everything() -> None:
            await asyncio.gather(*(lane(indices) for indices in lanes if indices))
            while any(not task.done() for task in retry_tasks):
                await asyncio.gather(*retry_tasks)

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(everything(), max(1.0, plan.stop_at - time.monotonic() + 10))
        for task in retry_tasks:
            task.cancel()
    for index, result in enumerate(results):
        if result is None:
            results[index] = (plan.start_at + plan.events[index][0], None, None, SKIPPED)
    return results, retries


def spread_lanes(count: int, lanes: int) -> list[int]:
    return [i % lanes for i in range(count)]


def summarize_sends(
    results: Sequence[tuple[float, float | None, float | None, int]],
) -> dict[str, Any]:
    """Held rate, HTTP latency and how far the sender slipped behind its schedule."""
    statuses = Counter(r[3] for r in results)
    ok = [r for r in results if r[3] == 200]
    sent = [r for r in results if r[1] is not None]
    if not sent:
        return {"statuses": dict(statuses), "sent": 0, "ok": 0}
    first = min(r[1] for r in sent)
    last = max(r[2] for r in sent)
    span = max(last - first, 1e-9)
    return {
        "sent": len(sent),
        "ok": len(ok),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "span_s": round(span, 3),
        "held_rate": round(len(ok) / span, 1),
        "http_ms": dist_ms([r[2] - r[1] for r in ok]),
        "slip_ms": dist_ms([max(0.0, r[1] - r[0]) for r in sent]),
        "first_sent": first,
        "last_answered": last,
    }


# ---- the Slack bot under test -------------------------------------------------------------

SLACK_CHANNEL = "C0LOAD"
SLACK_USERS = [f"U0LOAD{n:02d}" for n in range(20)]


def populate_slack(fake: Any) -> None:
    fake.add_user("UBENCHADMIN", "Bench Admin", admin=True)
    for n, user in enumerate(SLACK_USERS):
        fake.add_user(user, f"Person {n:02d}")
    fake.add_channel(SLACK_CHANNEL, "load-test")


class SlackServer:
    """One "process" of the Slack bot: its own Core and Bolt app behind aiohttp on 127.0.0.1,
    as `bot.slack.run.start_slack` serves it (but on loopback). `kill()` stops it as a crash
    would: the listener work still pending is lost, the socket closes."""

    def __init__(self, sessions: sessionmaker[Session], config: Config, api_url: str) -> None:
        from bot.ops.env import Environment
        from bot.slack.app import SlackBot
        from bot.slack.run import slack_client

        env = Environment(slack_bot_token="xoxb-bench", slack_api_url=api_url)
        client = slack_client(env)
        self.bot = SlackBot(
            core_for(sessions, config, platform="slack"), client, signing_secret=SECRET
        )
        self.core = self.bot.core
        self.runner: Any = None
        self.port = 0

    async def start(self, port: int = 0) -> None:
        from aiohttp import web

        from bot.slack.run import EVENTS_PATH

        self.runner = web.AppRunner(self.bot.web_app(EVENTS_PATH), shutdown_timeout=1.0)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", port)
        try:
            await site.start()
        except BaseException:
            await self.runner.cleanup()
            self.runner = None
            raise
        self.port = self.runner.addresses[0][1]

    @property
    def url(self) -> str:
        from bot.slack.run import EVENTS_PATH

        return f"http://127.0.0.1:{self.port}{EVENTS_PATH}"

    async def warm(self, users: Sequence[str], channel: str) -> None:
        """Fill the adapter's directory caches (team, people, channel name) before timing."""
        await self.bot.directory.workspace()
        await self.bot.directory.people([{"user": user} for user in users])
        await self.bot.directory.channel_name(channel)

    async def stop(self) -> None:
        if self.runner is not None:
            runner, self.runner = self.runner, None
            await runner.cleanup()

    async def kill(self, probe: StoreProbe) -> None:
        probe.dead.add(id(self.core))
        await self.stop()

    @property
    def process_before_response(self) -> bool:
        return bool(self.bot.app.process_before_response)


# ---- Discord ------------------------------------------------------------------------------

DISCORD_CHANNEL = "1300000000000000042"
DISCORD_AUTHORS = [f"14000000000000001{n:02d}" for n in range(20)]


def discord_fake_main(conn: Any) -> None:
    """The fake Discord's process: serves the gateway and REST, then on ("send", rate,
    seconds, start_at) dispatches MESSAGE_CREATE at that rate and answers ("done", [(id,
    due, sent)]); ("redispatch", ids, rate) sends the same message objects again."""
    asyncio.run(_discord_fake(conn))


async def _discord_fake(conn: Any) -> None:
    from tests.fakes.fakediscord import FakeDiscord

    async with FakeDiscord(echo_own_messages=False) as fake:
        fake.add_channel(DISCORD_CHANNEL, "load-test")
        for n, author in enumerate(DISCORD_AUTHORS):
            fake.add_member(author, f"person{n:02d}", global_name=f"Person {n:02d}")
        conn.send(("urls", fake.api_base, fake.gateway_url, fake.GUILD_ID, fake.guild_name))
        built: dict[str, dict] = {}
        while True:
            message = await child_recv(conn, timeout=600)
            kind = message[0]
            if kind == "send":
                _, rate, seconds, start_at, stop_at = message
                count = int(rate * seconds)
                wall0 = time.time() + (start_at - time.monotonic())
                messages = [
                    fake.message(
                        DISCORD_CHANNEL,
                        DISCORD_AUTHORS[i % len(DISCORD_AUTHORS)],
                        message_text(i),
                        timestamp=datetime.fromtimestamp(wall0 + i / rate, UTC),
                    )
                    for i in range(count)
                ]
                built.update((m["id"], m) for m in messages)
                schedule = [(start_at + i / rate, m) for i, m in enumerate(messages)]
                conn.send(("done", await _dispatch_schedule(fake, schedule, stop_at)))
            elif kind == "redispatch":
                _, ids, rate, stop_at = message
                start = time.monotonic() + 0.05
                schedule = [(start + n / rate, built[i]) for n, i in enumerate(ids)]
                conn.send(("done", await _dispatch_schedule(fake, schedule, stop_at)))
            else:
                return


async def _dispatch_schedule(
    fake: Any, schedule: list[tuple[float, dict]], stop_at: float
) -> list[tuple[str, float, float | None]]:
    results: list[tuple[str, float, float | None]] = []
    for due, message in schedule:
        now = time.monotonic()
        if now >= stop_at:
            results.append((message["id"], due, None))
            continue
        if due > now:
            await asyncio.sleep(due - now)
        sent = time.monotonic()
        try:
            await fake.dispatch("MESSAGE_CREATE", message)
        except (RuntimeError, ConnectionError, TimeoutError):
            results.append((message["id"], due, None))
            continue
        results.append((message["id"], due, sent))
    return results


def make_fast_client() -> type:
    """`SummaryClient` without discord.py's 5 s wait before a re-IDENTIFY (as the tests)."""
    from bot.discord.client import SummaryClient

    class FastClient(SummaryClient):
        async def before_identify_hook(
            self, shard_id: int | None, *, initial: bool = False
        ) -> None:
            return None

    return FastClient


def default_config() -> Config:
    return load_config()
