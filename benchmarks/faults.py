"""Fault runs of live Slack ingest over the HTTP Events API: what is lost, and what comes back.

Each fault runs against a fresh database, the fake Slack (tests/fakeslack.py) for the Web API
and the bot's real Events API endpoint on 127.0.0.1, with correctly signed events sent by a
separate process at a modest rate (default 100 events/s for 10 s). The sender behaves like
Slack: open loop (each event goes at its time, whether or not earlier ones were answered; up
to --connections at once; the events of one out-of-order group go in order, each after the
previous one's answer), and a delivery not answered 200 within 3 s, or failed, is retried with
`X-Slack-Retry-Num` (Slack waits ~0 s, 1 min and 5 min; compressed here to --slack-retries,
default 0.5, 1.5 and 4 s; `--slack-retries none` turns them off). "Slack" keeps every message
in the fake's conversations.history as it is posted, so a backfill can find it.

Faults:

* duplicates: every event delivered twice (half as retries with the same event_id, half as
  plain re-deliveries) -> each message stored once;
* out of order: edits before their originals, edits reversed, deletes before and after edits,
  a delete before a late original; the stored state is compared with Slack's;
* bot killed and restarted: at 40% of the run the bot stops (pending work lost, socket
  closed) while "Slack" keeps sending into the void; at 60% a new bot object starts on the
  same port and calls `Core.catch_up()` as `summarybot run` does at start;
* database unavailable for 2 s: every store raises OperationalError (injected where the core
  touches the database, so the core's own retry runs); at the end `catch_up()` runs, then a
  full-window backfill shows what history could give back;
* database locked for 2 s: another connection holds the write lock (SQLite BEGIN IMMEDIATE,
  PostgreSQL LOCK TABLE messages IN EXCLUSIVE MODE);
* PostgreSQL restarted mid-stream (`pg_ctlcluster --skip-systemctl-redirect 15 main
  restart`): only with --database and --allow-pg-restart;
* two processes: two bot processes (real OS processes, each migrating at start as
  `summarybot run` does) on one PostgreSQL, the events spread over both as a proxy would, one
  process killed (SIGKILL) at 40% of the run; Slack's retries then reach the survivor. Sent,
  stored, lost and doubled go to the JSON under "two-process". Only with --database.

    python benchmarks/faults.py
    python benchmarks/faults.py --database postgresql+psycopg://postgres@127.0.0.1:5432/test

A Markdown table goes to stdout, the figures to benchmarks/out/faults.json (or --out). Every
phase is bounded; the whole run is cancelled after --hard-cap seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import loadkit as kit
from sqlalchemy import create_engine, text

from storage.records import WorkspaceRecord
from tests.fakes.fakeslack import FakeSlack, event_body

CH = kit.SLACK_CHANNEL
REPORT_FLAGS: dict[str, Any] = {}  # what the adapter under test does (seen on its first server)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=100.0, help="events per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="per fault")
    parser.add_argument(
        "--connections", type=int, default=512, help="the sender's connection cap (Slack: none)"
    )
    parser.add_argument("--slack-retries", default="0.5,1.5,4", help='delays, or "none"')
    parser.add_argument("--outage", type=float, default=2.0, help="seconds of DB outage/lock")
    parser.add_argument("--database", default=None, help="PostgreSQL URL (default: SQLite)")
    parser.add_argument("--allow-pg-restart", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated fault names")
    parser.add_argument("--hard-cap", type=float, default=120.0, help="seconds, whole run")
    parser.add_argument("--out", default="faults.json", help="file name in benchmarks/out")
    args = parser.parse_args(argv)
    if not 0 < args.rate <= 1000 or not 2 <= args.seconds <= 60 or not 0 < args.outage <= 10:
        parser.error("rate 0-1000, seconds 2-60, outage 0-10")
    if args.allow_pg_restart and not args.database:
        parser.error("--allow-pg-restart needs --database (PostgreSQL)")
    delays = () if args.slack_retries == "none" else args.slack_retries.split(",")
    args.retry_delays = tuple(float(d) for d in delays)
    return args


# ---- a fault run's world ------------------------------------------------------------------


@dataclass
class Sent:
    """What one fault run sends: event bodies, and for each the message it concerns."""

    events: list[tuple[float, int, str, int]] = field(default_factory=list)
    pids: list[str | None] = field(default_factory=list)  # the message, for `message` events
    kinds: list[str] = field(default_factory=list)
    # What Slack holds at the end (platform id -> text); raw messages for conversations.history
    # with the offset at which each was posted.
    truth: dict[str, str] = field(default_factory=dict)
    history: list[tuple[float, dict]] = field(default_factory=list)


class Rig:
    """A fresh database, the fake Slack and one bot server; the probe around Core.store."""

    def __init__(self, args: argparse.Namespace, sender: kit.Child) -> None:
        self.args, self.sender = args, sender
        self.config = kit.default_config()
        self.stack = contextlib.AsyncExitStack()
        self.probe = kit.StoreProbe()
        self.fake: FakeSlack
        self.server: kit.SlackServer
        self.url = ""

    async def __aenter__(self) -> Rig:
        try:
            self.url = self.stack.enter_context(kit.fresh_database(self.args.database))
            self.engine, self.sessions = kit.open_database(self.url)
            self.stack.callback(self.engine.dispose)
            self.probe.install()
            self.stack.callback(self.probe.uninstall)
            self.fake = await self.stack.enter_async_context(FakeSlack())
            kit.populate_slack(self.fake)
            self.fake.history[CH] = []
            self.server = await self.start_server()
            kit.enable_channels(
                self.sessions, self.config, WorkspaceRecord("slack", self.fake.TEAM, "Lab"), [CH]
            )
            await self.server.warm(kit.SLACK_USERS, CH)
        except BaseException:
            await self.stack.aclose()
            raise
        return self

    async def start_server(self, port: int = 0) -> kit.SlackServer:
        server = kit.SlackServer(self.sessions, self.config, self.fake.url)
        await server.start(port)
        self.stack.push_async_callback(server.stop)
        return server

    async def __aexit__(self, *exc: object) -> None:
        await self.stack.aclose()

    async def send(
        self, sent: Sent, during: Callable[[float], Awaitable[Any]] | None = None
    ) -> tuple[list[Any], list[Any], Any]:
        """Send `sent.events` (Slack's retries included), feeding the fake's history as the
        messages are posted; `during(start_at)` runs alongside (the fault)."""
        span = max(offset for offset, *_ in sent.events)
        start_at = time.monotonic() + 0.3
        grace = sum(self.args.retry_delays) + 2 * kit.SLACK_TIMEOUT_S + 2
        plan = kit.SlackPlan(
            self.server.url,
            sent.events,
            max(lane for _, lane, *_ in sent.events) + 1,
            start_at,
            start_at + span + grace,
            retry_delays=self.args.retry_delays,
            max_connections=self.args.connections,
        )
        self.sender.send(("send", plan))
        feeder = asyncio.create_task(self._feed_history(sent, start_at))
        fault = asyncio.create_task(during(start_at)) if during else None
        try:
            _, results, retries = await self.sender.recv(timeout=span + grace + 30)
        finally:
            feeder.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await feeder
        outcome = await asyncio.wait_for(fault, 90) if fault else None
        self.fake.history[CH] = [raw for _, raw in sent.history]  # all posted by now
        return results, retries, outcome

    async def _feed_history(self, sent: Sent, start_at: float) -> None:
        pending = sorted(sent.history, key=lambda item: item[0])
        posted = 0
        while posted < len(pending):
            now = time.monotonic() - start_at
            while posted < len(pending) and pending[posted][0] <= now:
                self.fake.history[CH].append(pending[posted][1])
                posted += 1
            await asyncio.sleep(0.05)

    async def settle(self, results: list[Any], retries: list[Any], timeout: float = 10) -> None:
        """Wait (bounded) until the work the bot acknowledged has been stored."""
        calls = -1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and calls != len(self.probe.calls):
            calls = len(self.probe.calls)
            await asyncio.sleep(0.3)


def new_messages(args: argparse.Namespace, count: int, spacing: float) -> list[tuple[str, str]]:
    """`count` (ts, user) pairs with unique increasing ts starting now."""
    t0_us = int(time.time() * 1_000_000)
    step_us = max(2, int(spacing * 1_000_000))
    return [
        (kit.slack_ts(t0_us + i * step_us), kit.SLACK_USERS[i % len(kit.SLACK_USERS)])
        for i in range(count)
    ]


def plain_stream(args: argparse.Namespace) -> Sent:
    """Unique messages at the run's rate: each posted at its send time."""
    count = int(args.rate * args.seconds)
    sent = Sent()
    for i, (ts, user) in enumerate(new_messages(args, count, 1 / args.rate)):
        body = event_body(kit.slack_message(CH, user, ts, kit.message_text(i)))
        offset = i / args.rate
        pid = f"{CH}:{ts}"
        sent.events.append((offset, i, body, 0))  # open loop: each event on its own
        sent.pids.append(pid)
        sent.kinds.append("message")
        sent.truth[pid] = kit.message_text(i)
        sent.history.append((offset, _history_raw(user, ts, kit.message_text(i))))
    return sent


def _history_raw(user: str, ts: str, text_: str, edited_ts: str | None = None) -> dict:
    raw = {"type": "message", "user": user, "ts": ts, "text": text_}
    if edited_ts:
        raw["edited"] = {"user": user, "ts": edited_ts}
    return raw


# ---- accounting ---------------------------------------------------------------------------


def account(rig: Rig, sent: Sent, results: list[Any], retries: list[Any]) -> dict[str, Any]:
    """What Slack holds against what the database holds, and how each message got there."""
    REPORT_FLAGS.setdefault("process_before_response", rig.server.process_before_response)
    stored = kit.stored_messages(rig.sessions, "slack")
    rows, distinct = kit.row_counts(rig.sessions, "slack")
    probe = rig.probe
    truth = sent.truth
    live = {p for p, source in probe.first_source.items() if source == "live"}
    backfilled = {p for p, source in probe.first_source.items() if source == "backfill"}
    messages = [i for i, kind in enumerate(sent.kinds) if kind == "message"]
    first_ok = {sent.pids[i] for i in messages if results[i][3] == 200}
    first_failed = {sent.pids[i] for i in messages if results[i][3] != 200}
    retried_ok = {sent.pids[i] for i, _, _, _, status in retries if status == 200}
    statuses = Counter(str(r[3]) for r in results)
    ok = [r for r in results if r[3] == 200]
    return {
        "deliveries": len(results) + len(retries),
        "first_try_statuses": dict(statuses),
        "slack_retries": len(retries),
        "slack_retries_ok": sum(1 for r in retries if r[4] == 200),
        "http_ms": kit.dist_ms([r[2] - r[1] for r in ok]),
        "truth": len(truth),
        "stored_live": len(truth.keys() & live),
        "lost_live": len(truth.keys() - live),
        "recovered_by_backfill": len((truth.keys() - live) & backfilled & stored.keys()),
        "missing_after": len(truth.keys() - stored.keys()),
        "acked_not_stored_live": len(first_ok - live - retried_ok)
        if sent.kinds.count("message") == len(sent.kinds)
        else None,
        "first_try_failed": len(first_failed),
        "saved_by_slack_retry": len(first_failed & retried_ok & live),
        "extra": len(stored.keys() - truth.keys()),
        "stale_text": sum(1 for p, t in truth.items() if p in stored and stored[p] != t),
        "rows": rows,
        "duplicate_rows": rows - distinct,
        "store": dict(probe.counts),
        "store_errors": dict(probe.errors),
        "store_call_ms": kit.dist_ms(probe.call_durations()),
    }


# ---- the faults ---------------------------------------------------------------------------


async def fault_duplicates(args: argparse.Namespace, sender: kit.Child) -> dict[str, Any]:
    base = plain_stream(argparse.Namespace(**{**vars(args), "rate": args.rate / 2}))
    sent = Sent(truth=base.truth, history=base.history)
    for i, (offset, _, body, _) in enumerate(base.events):
        for copy in (0, 1):
            n = 2 * i + copy
            retry = 1 if copy and i % 2 == 0 else 0  # odd i: a plain re-delivery
            sent.events.append((offset + copy / args.rate, n, body, retry))
            sent.pids.append(base.pids[i])
            sent.kinds.append("message")
    async with Rig(args, sender) as rig:
        results, retries, _ = await rig.send(sent)
        await rig.settle(results, retries)
        row = account(rig, sent, results, retries)
    row["notes"] = (
        f"{len(base.events)} messages x 2 deliveries; rows {row['rows']}, inserts "
        f"{row['store'].get('new', 0)}, unchanged {row['store'].get('unchanged', 0)}"
    )
    return row


OOO_PATTERNS = {
    # name: (steps in delivery order, whether Slack still has the message at the end)
    "in order: original, edit": (("O", "E1"), True),
    "edit before original": (("E1", "O"), True),
    "edits reversed (edit 2, edit 1)": (("O", "E2", "E1"), True),
    "original, edit, delete": (("O", "E1", "D"), False),
    "delete before the edit (late edit)": (("O", "D", "E1"), False),
    "delete before the original (late original)": (("D", "O"), False),
    "delete, edit, original (all reversed)": (("D", "E1", "O"), False),
}


async def fault_out_of_order(args: argparse.Namespace, sender: kit.Child) -> dict[str, Any]:
    target = int(args.rate * args.seconds)
    patterns = list(OOO_PATTERNS.items())
    groups: list[tuple[str, str, str, tuple[str, ...], bool]] = []
    pairs = new_messages(args, target, 1 / args.rate)
    n_events = 0
    while n_events < target:
        name, (steps, kept) = patterns[len(groups) % len(patterns)]
        ts, user = pairs[len(groups)]
        groups.append((name, ts, user, steps, kept))
        n_events += len(steps)
    sent = Sent()
    expected_by_pid: dict[str, tuple[str, bool]] = {}
    n = 0
    for g, (name, ts, user, steps, kept) in enumerate(groups):
        pid = f"{CH}:{ts}"
        seconds = int(ts.split(".")[0])
        texts = {"O": f"original {g}", "E1": f"edit one {g}", "E2": f"edit two {g}"}
        final = "E2" if "E2" in steps else "E1"
        for step in steps:
            event_ts = kit.slack_ts((seconds + 3) * 1_000_000 + n)
            if step == "O":
                event = kit.slack_message(CH, user, ts, texts["O"])
            elif step == "D":
                event = kit.slack_delete(CH, ts, event_ts)
            else:
                edited = f"{seconds + (1 if step == 'E1' else 2)}.{ts.split('.')[1]}"
                event = kit.slack_edit(CH, user, ts, texts[step], edited, event_ts)
            # A group's events go, in order, through one lane.
            sent.events.append((n / args.rate, g, event_body(event), 0))
            sent.pids.append(pid)
            sent.kinds.append(step)
            n += 1
        expected_by_pid[pid] = (name, kept)
        if kept:
            sent.truth[pid] = texts[final]
            edited = f"{seconds + (2 if final == 'E2' else 1)}.{ts.split('.')[1]}"
            sent.history.append((0.0, _history_raw(user, ts, texts[final], edited)))
    async with Rig(args, sender) as rig:
        results, retries, _ = await rig.send(sent)
        await rig.settle(results, retries)
        before = kit.stored_messages(rig.sessions, "slack")
        await kit.backfilling(rig.server.core.catch_up)
        row = account(rig, sent, results, retries)
        after = kit.stored_messages(rig.sessions, "slack")
    per_pattern: dict[str, Counter[str]] = {name: Counter() for name in OOO_PATTERNS}
    for pid, (name, kept) in expected_by_pid.items():
        tally = per_pattern[name]
        tally["groups"] += 1
        if kept and pid not in before:
            tally["missing"] += 1
        elif kept and before[pid] != sent.truth[pid]:
            tally["stale (older text kept)"] += 1
        elif not kept and pid in before:
            tally["resurrected (deleted on Slack, stored here)"] += 1
            tally["resurrected, text: " + before[pid].rsplit(" ", 1)[0]] += 1
        else:
            tally["as on Slack"] += 1
        if pid in after and pid not in before:
            tally["added by catch_up"] += 1
    row["per_pattern"] = {name: dict(tally) for name, tally in per_pattern.items()}
    wrong = {
        name: {k: v for k, v in tally.items() if k not in ("groups", "as on Slack")}
        for name, tally in per_pattern.items()
        if tally["as on Slack"] != tally["groups"]
    }
    row["notes"] = f"{len(groups)} messages, {len(sent.events)} events; differs from Slack: " + (
        "; ".join(f"{name}: {dict(v)}" for name, v in wrong.items()) or "nothing"
    )
    return row


async def fault_kill_restart(args: argparse.Namespace, sender: kit.Child) -> dict[str, Any]:
    sent = plain_stream(args)
    down_at, up_at = 0.4 * args.seconds, 0.6 * args.seconds
    async with Rig(args, sender) as rig:
        log: dict[str, Any] = {}

        async def crash_and_restart(start_at: float) -> None:
            await asyncio.sleep(max(0.0, start_at + down_at - time.monotonic()))
            port = rig.server.port
            await rig.server.kill(rig.probe)
            log["killed_at_stored"] = len(rig.probe.first_stored)
            await asyncio.sleep(max(0.0, start_at + up_at - time.monotonic()))
            rig.server = await rig.start_server(port)
            log["restarted"] = True
            t0 = time.monotonic()
            before = set(rig.probe.first_stored)
            await kit.backfilling(rig.server.core.catch_up)  # as `summarybot run` does at start
            log["catch_up_s"] = round(time.monotonic() - t0, 3)
            log["catch_up_added"] = sum(
                1
                for p in rig.probe.first_stored.keys() - before
                if rig.probe.first_source[p] == "backfill"
            )

        results, retries, _ = await rig.send(sent, crash_and_restart)
        await rig.settle(results, retries)
        row = account(rig, sent, results, retries)
    refused = sum(1 for r in results if r[3] == kit.CONN_ERROR)
    row["restart"] = log
    row["notes"] = (
        f"down {down_at:g}-{up_at:g} s; {refused} first deliveries refused; catch_up at restart "
        f"stored {log.get('catch_up_added')} in {log.get('catch_up_s')} s; Slack retries "
        f"saved {row['saved_by_slack_retry']}"
    )
    return row


async def fault_db_outage(args: argparse.Namespace, sender: kit.Child) -> dict[str, Any]:
    sent = plain_stream(args)
    outage_at = 0.4 * args.seconds
    async with Rig(args, sender) as rig:

        async def outage(start_at: float) -> None:
            await asyncio.sleep(max(0.0, start_at + outage_at - time.monotonic()))
            rig.probe.fail_until = time.monotonic() + args.outage

        results, retries, _ = await rig.send(sent, outage)
        await rig.settle(results, retries)
        lost_before = len(sent.truth.keys() - kit.stored_messages(rig.sessions, "slack").keys())
        await kit.backfilling(rig.server.core.catch_up)
        after_catch_up = len(sent.truth.keys() - kit.stored_messages(rig.sessions, "slack").keys())
        row = account(rig, sent, results, retries)
        # What history could give back: a backfill of the whole window, not from the newest
        # stored message (catch_up's starting point).
        core = rig.server.core

        async def from_the_start(workspace: object, channel: str) -> None:
            return None

        core.last_stored_at = from_the_start  # type: ignore[method-assign, assignment]
        workspace = await rig.server.bot.directory.workspace()
        await kit.backfilling(lambda: rig.server.core.backfill(workspace, CH))
        after_full = len(sent.truth.keys() - kit.stored_messages(rig.sessions, "slack").keys())
    row["missing_before_catch_up"] = lost_before
    row["missing_after_catch_up"] = after_catch_up
    row["missing_after_full_backfill"] = after_full
    row["fault_point"] = rig.probe.fault_point
    row["notes"] = (
        f"{args.outage:g} s of OperationalError at {outage_at:g} s (raised in "
        f"{rig.probe.fault_point}); missing before catch_up {lost_before}, after catch_up "
        f"{after_catch_up}, after a full-window backfill {after_full}; Slack retries saved "
        f"{row['saved_by_slack_retry']}"
    )
    return row


async def fault_db_lock(args: argparse.Namespace, sender: kit.Child) -> dict[str, Any]:
    sent = plain_stream(args)
    lock_at = 0.4 * args.seconds
    async with Rig(args, sender) as rig:
        held: dict[str, Any] = {}

        def hold() -> None:
            t0 = time.monotonic()
            if rig.url.startswith("sqlite"):
                path = rig.url.removeprefix("sqlite:///")
                connection = sqlite3.connect(path, isolation_level=None, timeout=5)
                try:
                    connection.execute("BEGIN IMMEDIATE")
                    held["locked_after_s"] = round(time.monotonic() - t0, 3)
                    time.sleep(args.outage)
                    connection.execute("COMMIT")
                finally:
                    connection.close()
            else:
                engine = create_engine(rig.url)
                try:
                    with engine.begin() as connection:
                        connection.execute(text("LOCK TABLE messages IN EXCLUSIVE MODE"))
                        held["locked_after_s"] = round(time.monotonic() - t0, 3)
                        time.sleep(args.outage)
                finally:
                    engine.dispose()
            held["held_s"] = round(time.monotonic() - t0, 3)

        async def lock(start_at: float) -> None:
            await asyncio.sleep(max(0.0, start_at + lock_at - time.monotonic()))
            thread = threading.Thread(target=hold, name="db-lock", daemon=True)
            thread.start()
            await asyncio.to_thread(thread.join, args.outage + 15)

        results, retries, _ = await rig.send(sent, lock)
        await rig.settle(results, retries)
        row = account(rig, sent, results, retries)
    timeouts = sum(1 for r in results if r[3] == kit.TIMEOUT)
    row["lock"] = held
    row["notes"] = (
        f"write lock held {held.get('held_s')} s at {lock_at:g} s; HTTP max "
        f"{row['http_ms']['max']} ms, {timeouts} first deliveries timed out (> 3 s)"
    )
    return row


async def fault_pg_restart(args: argparse.Namespace, sender: kit.Child) -> dict[str, Any]:
    sent = plain_stream(args)
    restart_at = 0.4 * args.seconds
    async with Rig(args, sender) as rig:
        done: dict[str, Any] = {}

        async def restart(start_at: float) -> None:
            await asyncio.sleep(max(0.0, start_at + restart_at - time.monotonic()))
            t0 = time.monotonic()
            proc = await asyncio.create_subprocess_exec(
                "pg_ctlcluster", "--skip-systemctl-redirect", "15", "main", "restart",
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
            try:
                out, _ = await asyncio.wait_for(proc.communicate(), 60)
            except TimeoutError:
                proc.kill()
                out = b"timed out"
            done.update(rc=proc.returncode, s=round(time.monotonic() - t0, 2), out=out[-300:])

        results, retries, _ = await rig.send(sent, restart)
        await rig.settle(results, retries)
        await kit.backfilling(rig.server.core.catch_up)
        row = account(rig, sent, results, retries)
    row["restart"] = {k: (v.decode(errors="replace") if isinstance(v, bytes) else v)
                      for k, v in done.items()}  # fmt: skip
    row["notes"] = f"pg_ctlcluster restart at {restart_at:g} s took {done.get('s')} s"
    return row


def bot_process_main(conn: Any) -> None:
    """One bot process of the two-process run: answers ("start", database_url, slack_api_url)
    with ("ready", pid, port) once its Events API listens on 127.0.0.1; ends on ("stop",)."""
    asyncio.run(_bot_process(conn))


async def _bot_process(conn: Any) -> None:
    kit.quiet_logging()
    _, url, api_url = await kit.child_recv(conn, timeout=60)
    engine, sessions = kit.open_database(url)  # migrates, as `summarybot run` does
    server = kit.SlackServer(sessions, kit.default_config(), api_url)
    await server.start()
    await server.warm(kit.SLACK_USERS, CH)
    conn.send(("ready", os.getpid(), server.port))
    await kit.child_recv(conn, timeout=600)
    await server.stop()
    server.core.close()
    engine.dispose()


async def fault_two_process(args: argparse.Namespace, sender: kit.Child) -> dict[str, Any]:
    sent = plain_stream(args)
    kill_at = 0.4 * args.seconds
    bots = [kit.Child(bot_process_main, f"bot-{n}") for n in range(2)]
    try:
        with kit.fresh_database(args.database) as url:
            engine, sessions = kit.open_database(url)
            try:
                async with FakeSlack() as fake:
                    kit.populate_slack(fake)
                    enable = WorkspaceRecord("slack", fake.TEAM, "Lab")
                    kit.enable_channels(sessions, kit.default_config(), enable, [CH])
                    for bot in bots:
                        bot.send(("start", url, fake.url))
                    ready = [await bot.recv(timeout=60) for bot in bots]
                    urls = tuple(f"http://127.0.0.1:{port}/slack/events" for _, _, port in ready)
                    return await _two_process_run(args, sender, sent, bots, urls, kill_at, sessions)
            finally:
                engine.dispose()
    finally:
        for bot in bots:
            bot.close()


async def _two_process_run(
    args: argparse.Namespace,
    sender: kit.Child,
    sent: Sent,
    bots: list[kit.Child],
    urls: tuple[str, ...],
    kill_at: float,
    sessions: Any,
) -> dict[str, Any]:
    span = max(offset for offset, *_ in sent.events)
    start_at = time.monotonic() + 0.3
    grace = sum(args.retry_delays) + 2 * kit.SLACK_TIMEOUT_S + 2
    plan = kit.SlackPlan(
        urls[0],
        sent.events,
        max(lane for _, lane, *_ in sent.events) + 1,
        start_at,
        start_at + span + grace,
        retry_delays=args.retry_delays,
        max_connections=args.connections,
        urls=urls,
    )
    sender.send(("send", plan))
    await asyncio.sleep(max(0.0, start_at + kill_at - time.monotonic()))
    bots[0].proc.kill()  # SIGKILL: no clean-up, its connections simply drop
    _, results, retries = await sender.recv(timeout=span + grace + 30)
    stored: dict[str, str] = {}
    for _ in range(20):  # what the survivor acknowledged is committed; wait for stragglers
        now = kit.stored_messages(sessions, "slack")
        if now == stored:
            break
        stored = now
        await asyncio.sleep(0.3)
    rows, distinct = kit.row_counts(sessions, "slack")
    truth = sent.truth
    to_killed = [i for i in range(len(results)) if plan.url_for(i, 0) == urls[0]]
    failed_first = [i for i in to_killed if results[i][3] != 200]
    retried_ok = {i for i, _, _, _, status in retries if status == 200}
    figures = {
        "sent": len(truth),
        "stored": len(truth.keys() & stored.keys()),
        "lost": len(truth.keys() - stored.keys()),
        "doubled": rows - distinct,
        "killed_at_s": kill_at,
        "deliveries": len(results) + len(retries),
        "to_killed_process_failed": len(failed_first),
        "saved_by_retry_to_survivor": len(set(failed_first) & retried_ok),
        "first_try_statuses": dict(Counter(str(r[3]) for r in results)),
        "slack_retries": len(retries),
        "slack_retries_ok": len(retried_ok),
        "http_ms": kit.dist_ms([r[2] - r[1] for r in results if r[3] == 200]),
    }
    return {
        **figures,
        "two-process": {k: figures[k] for k in ("sent", "stored", "lost", "doubled")},
        "truth": len(truth),
        "stored_live": figures["stored"],
        "lost_live": figures["lost"],
        "recovered_by_backfill": 0,
        "missing_after": figures["lost"],
        "extra": len(stored.keys() - truth.keys()),
        "stale_text": sum(1 for p, t in truth.items() if p in stored and stored[p] != t),
        "duplicate_rows": rows - distinct,
        "notes": (
            f"2 processes, events alternated between them; one SIGKILLed at {kill_at:g} s; "
            f"{len(failed_first)} deliveries to it failed, Slack's retries to the survivor "
            f"stored {len(set(failed_first) & retried_ok)}; sent {len(truth)}, stored "
            f"{figures['stored']}, lost {figures['lost']}, doubled {figures['doubled']}"
        ),
    }


FAULTS: dict[str, tuple[str, Callable[..., Awaitable[dict[str, Any]]]]] = {
    "duplicates": ("duplicate deliveries (every event twice)", fault_duplicates),
    "out-of-order": ("out-of-order edits and deletes", fault_out_of_order),
    "kill-restart": ("bot killed and restarted mid-stream", fault_kill_restart),
    "db-outage": ("database unavailable (OperationalError)", fault_db_outage),
    "db-lock": ("database write-locked by another connection", fault_db_lock),
    "pg-restart": ("PostgreSQL restarted mid-stream", fault_pg_restart),
    "two-process": ("two bot processes, one killed mid-stream", fault_two_process),
}


async def run(args: argparse.Namespace, report: dict[str, Any]) -> None:
    logs = kit.quiet_logging()
    chosen = [name for name in FAULTS if not args.only or name in args.only.split(",")]
    if "pg-restart" in chosen and not args.allow_pg_restart:
        chosen.remove("pg-restart")
        report["skipped"] = {"pg-restart": "needs --database and --allow-pg-restart"}
    if "two-process" in chosen and not args.database:
        chosen.remove("two-process")
        report.setdefault("skipped", {})["two-process"] = "needs --database (PostgreSQL)"
    with kit.fresh_database(args.database) as url:
        report["meta"] = kit.run_meta(url)
    sender = kit.Child(kit.slack_sender_main, "slack-sender")
    try:
        await sender.recv(timeout=60)
        for name in chosen:
            title, fault = FAULTS[name]
            print(f"  running {name} ...", file=sys.stderr)
            started = time.monotonic()
            try:
                row = await asyncio.wait_for(fault(args, sender), args.seconds + 45)
            except Exception as error:  # one broken fault must not hide the others
                row = {"error": f"{type(error).__name__}: {error}"}
            row["fault"], row["title"] = name, title
            row["wall_s"] = round(time.monotonic() - started, 1)
            report["faults"].append(row)
            if "two-process" in row:
                report["two-process"] = row["two-process"]
    finally:
        sender.close()
        report["log_counts"] = dict(logs.counts)
        report.update(REPORT_FLAGS)


def print_report(args: argparse.Namespace, report: dict[str, Any]) -> None:
    meta = report.get("meta", {})
    print(
        f"\n## Slack fault runs ({meta.get('database')}, {args.rate:g} ev/s for {args.seconds:g} s"
        f" each, Slack retries {args.slack_retries}, process_before_response "
        f"{report.get('process_before_response')}, git {meta.get('git_head')})\n"
    )
    rows = []
    for row in report["faults"]:
        if "error" in row:
            rows.append((row["title"], "-", "-", "-", "-", "-", "-", row["error"]))
            continue
        rows.append(
            (
                row["title"],
                row["deliveries"],
                row["truth"],
                row["stored_live"],
                row["lost_live"],
                row["recovered_by_backfill"],
                row["missing_after"],
                row.get("notes", ""),
            )
        )
    headers = [
        "fault",
        "deliveries sent",
        "messages on Slack",
        "stored live",
        "lost live",
        "recovered by backfill",
        "missing at end",
        "notes",
    ]
    print(kit.markdown_table(headers, rows))
    print()
    details = [
        (
            row["fault"],
            row.get("first_try_statuses"),
            f"{row.get('slack_retries')} / {row.get('slack_retries_ok')}",
            row.get("acked_not_stored_live"),
            row.get("extra"),
            row.get("stale_text"),
            row.get("duplicate_rows"),
            f"{(row.get('http_ms') or {}).get('p99')} / {(row.get('http_ms') or {}).get('max')}",
            row.get("store_errors") or "none",
        )
        for row in report["faults"]
        if "error" not in row
    ]
    print(
        kit.markdown_table(
            [
                "fault",
                "first-try statuses",
                "Slack retries / ok",
                "acked, never stored live",
                "extra rows",
                "stale text",
                "duplicate rows",
                "HTTP p99 / max ms",
                "store errors",
            ],
            details,
        )
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict[str, Any] = {"args": dict(vars(args)), "faults": []}
    started = time.monotonic()
    status = 0
    try:
        asyncio.run(asyncio.wait_for(run(args, report), args.hard_cap))
    except TimeoutError:
        report["error"] = f"hard cap of {args.hard_cap:g} s reached"
        status = 2
    except Exception as error:  # still print and write what was measured
        traceback.print_exc()
        report["error"] = f"{type(error).__name__}: {error}"
        status = 1
    report["wall_s"] = round(time.monotonic() - started, 1)
    report["other_activity_at_end"] = kit.other_activity()
    print_report(args, report)
    path = kit.write_json(args.out, report)
    print(f"\nJSON: {path.relative_to(kit.REPO)}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
