"""Load test of live Slack ingest over the HTTP Events API.

The bot runs as `summarybot run` serves it (a Bolt `AsyncApp` behind aiohttp at /slack/events,
here on 127.0.0.1:0) with a fresh database; its Web API client talks to the fake Slack of
tests/fakeslack.py. A load generator in a separate process sends correctly signed `message`
events over real HTTP at a fixed rate, each with a unique ts: by default from a few concurrent
sender lanes (each waits for its answer before its next event, so a slow bot is sent less and
the shortfall shows as "not sent"); with --open-loop every event goes at its time whether or
not earlier ones were answered, as Slack does (up to --connections at once).

Measured:

* held rate: events answered 200 per second over the sending span;
* HTTP latency (the sender's view: request sent to response read);
* storage latency: from the event's send to the end of the `Core.store` call that committed it
  (`Core.store` is wrapped in this process); and the duration of the store calls alone;
* ack-to-store lag: Bolt answers before its listener runs (unless process_before_response),
  so the script waits (bounded) for the store to catch up and reports how long that took;
* exactly once: rows, distinct ids, missing and extra ids, text mismatches; then a second
  pass re-sends 5% of the events as Slack retries (`X-Slack-Retry-Num: 1`, same event_id),
  which must add no rows;
* CPU per stored event of the bot's event loop thread (HTTP, Slack request handling, the
  adapter and core) and of its database thread (the stores), from the threads' CPU clocks:
  unlike rates on a shared machine, these barely depend on what else runs;
* where the tail comes from: store calls over 20 ms, full garbage collections (gen 2) and
  the worst seconds; --profile writes a cProfile of the bot process while sending;
  --gc-freeze shows the effect of `gc.freeze()` after start-up.

    python benchmarks/load_slack.py --rate 500 --seconds 60
    python benchmarks/load_slack.py --rate 500 --seconds 60 --open-loop
    python benchmarks/load_slack.py --seconds 10 \
        --database postgresql+psycopg://postgres@127.0.0.1:5432/test
    python benchmarks/load_slack.py --rate 2000 --seconds 20 --senders 64

Targets: the asked rate held, and p99 storage latency under 50 ms on PostgreSQL and 20 ms
on SQLite (`P99_TARGET_MS`).

A Markdown table goes to stdout, the figures to benchmarks/out/load_slack.json (or --out).
Every phase is bounded; the whole run is cancelled after --hard-cap seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import random
import sys
import threading
import time
import traceback
from typing import Any

import loadkit as kit

from storage.records import WorkspaceRecord
from tests.fakes.fakeslack import FakeSlack, event_body

P99_TARGET_MS = {"postgresql": 50.0, "sqlite": 20.0}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=500.0, help="events per second")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to send")
    parser.add_argument("--senders", type=int, default=8, help="concurrent sender lanes")
    parser.add_argument(
        "--open-loop",
        action="store_true",
        help="as Slack does: every event at its time, answered or not (up to --connections)",
    )
    parser.add_argument("--connections", type=int, default=512, help="cap with --open-loop")
    parser.add_argument("--retry-fraction", type=float, default=0.05)
    parser.add_argument("--database", default=None, help="PostgreSQL URL (default: SQLite)")
    parser.add_argument("--drain-timeout", type=float, default=30.0)
    parser.add_argument("--hard-cap", type=float, default=120.0, help="seconds, whole run")
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() in the bot process before the timed phase (what the bot would gain "
        "by freezing its start-up objects: no long full collections)",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the bot while sending")
    parser.add_argument("--out", default="load_slack.json", help="file name in benchmarks/out")
    args = parser.parse_args(argv)
    if not 0 < args.rate <= 5000 or not 0 < args.seconds <= 600 or not 1 <= args.senders <= 64:
        parser.error("rate 0-5000, seconds 0-600, senders 1-64")
    return args


def build_events(rate: float, seconds: float, lanes: int | None) -> tuple[list[Any], list[str]]:
    """The plan's events and each one's message platform id; ts unique and increasing."""
    count = int(rate * seconds)
    step_us = max(2, int(1_000_000 / rate))
    t0_us = int(time.time() * 1_000_000)
    events, pids = [], []
    for i in range(count):
        ts = kit.slack_ts(t0_us + i * step_us)
        user = kit.SLACK_USERS[i % len(kit.SLACK_USERS)]
        body = event_body(kit.slack_message(kit.SLACK_CHANNEL, user, ts, kit.message_text(i)))
        events.append((i / rate, i if lanes is None else i % lanes, body, 0))
        pids.append(f"{kit.SLACK_CHANNEL}:{ts}")
    return events, pids


async def run(args: argparse.Namespace, report: dict[str, Any]) -> None:
    config = kit.default_config()
    logs = kit.quiet_logging()
    with kit.fresh_database(args.database) as url:
        report["meta"] = kit.run_meta(url)
        engine, sessions = kit.open_database(url)
        probe = kit.StoreProbe().install()
        gc_monitor = kit.GcMonitor().install()
        sender = kit.Child(kit.slack_sender_main, "slack-sender")
        server: kit.SlackServer | None = None
        sampler = kit.TaskSampler()
        try:
            async with FakeSlack() as fake:
                kit.populate_slack(fake)
                server = kit.SlackServer(sessions, config, fake.url)
                await server.start()
                report["meta"]["process_before_response"] = server.process_before_response
                kit.enable_channels(
                    sessions,
                    config,
                    WorkspaceRecord("slack", fake.TEAM, "Lab"),
                    [kit.SLACK_CHANNEL],
                )
                await server.warm(kit.SLACK_USERS, kit.SLACK_CHANNEL)
                db_thread = await server.core.db.call(threading.get_ident)
                await sender.recv(timeout=60)  # ("ready", pid)

                # ---- pass 1: unique events at the fixed rate ----
                lanes = None if args.open_loop else args.senders
                events, pids = build_events(args.rate, args.seconds, lanes)
                start_at = time.monotonic() + 1.0
                plan = kit.SlackPlan(
                    server.url,
                    events,
                    len(events) if args.open_loop else args.senders,
                    start_at,
                    start_at + args.seconds + 5,
                    max_connections=args.connections if args.open_loop else 0,
                )
                sender.send(("send", plan))
                profiler = cProfile.Profile() if args.profile else None
                if args.gc_freeze:
                    gc.collect()
                    gc.freeze()
                sampler.start()
                cpu0, wall0 = time.process_time(), time.monotonic()
                threads0 = kit.thread_cpu(threading.get_ident()), kit.thread_cpu(db_thread)
                if profiler:
                    profiler.enable()
                try:
                    _, results, _ = await sender.recv(timeout=args.seconds + 30)
                finally:
                    if profiler:
                        profiler.disable()
                cpu_pct = 100 * (time.process_time() - cpu0) / (time.monotonic() - wall0)
                loop_cpu = kit.thread_cpu(threading.get_ident()) - threads0[0]
                db_cpu = kit.thread_cpu(db_thread) - threads0[1]
                sends = kit.summarize_sends(results)
                acked = {pids[i] for i, r in enumerate(results) if r[3] == 200}
                drained = await kit.wait_until(
                    lambda: acked <= probe.first_stored.keys(), args.drain_timeout
                )
                await sampler.stop()
                drain_done = time.monotonic()
                stored_times = [probe.first_stored[p] for p in acked if p in probe.first_stored]
                last_store = max(stored_times, default=None)
                sent_at = {pids[i]: r[1] for i, r in enumerate(results) if r[1] is not None}
                stored_acked = acked & probe.first_stored.keys()
                storage = [probe.first_stored[p] - sent_at[p] for p in stored_acked]
                first_sent = sends.get("first_sent", start_at)
                stored_span = (last_store - first_sent) if last_store else None
                rows, distinct = kit.row_counts(sessions, "slack")
                texts = kit.stored_messages(sessions, "slack")
                expected = {pids[i]: kit.message_text(i) for i in range(len(pids))}
                pass1 = {
                    "events": len(events),
                    **{k: v for k, v in sends.items() if k not in ("first_sent", "last_answered")},
                    "stored": len(acked & probe.first_stored.keys()),
                    "stored_rate": round(len(stored_times) / stored_span, 1)
                    if stored_span
                    else None,
                    "storage_latency_ms": kit.dist_ms(storage),
                    "store_call_ms": kit.dist_ms(probe.call_durations()),
                    "store_stalls": probe.stalls(since=start_at),
                    "worst_seconds": kit.worst_seconds(
                        [(sent_at[p], probe.first_stored[p] - sent_at[p]) for p in stored_acked],
                        start_at,
                    ),
                    "gc": gc_monitor.summary(since=start_at, until=drain_done),
                    "drained": drained,
                    "ack_to_store_lag_s": round(last_store - sends["last_answered"], 3)
                    if last_store and "last_answered" in sends
                    else None,
                    "drain_wait_s": round(drain_done - sends.get("last_answered", drain_done), 3),
                    "max_tasks": max(sampler.samples, default=None),
                    "bot_cpu_pct": round(cpu_pct, 1),
                    "cpu_us_per_event": {
                        "loop": round(1e6 * loop_cpu / max(len(stored_times), 1)),
                        "database": round(1e6 * db_cpu / max(len(stored_times), 1)),
                    },
                    "rows": rows,
                    "distinct_ids": distinct,
                    "duplicate_rows": rows - distinct,
                    "missing_acked": len(acked - texts.keys()),
                    "missing_sent": len(sent_at.keys() - texts.keys()),
                    "not_sent": len(events) - len(sent_at),
                    "extra": len(texts.keys() - expected.keys()),
                    "text_mismatch": sum(
                        1 for p, t in texts.items() if p in expected and expected[p] != t
                    ),
                    "inserts": probe.counts["new"],
                }
                report["pass1"] = pass1
                if profiler:
                    report["profile"] = write_profile(profiler, args.out)

                # ---- pass 2: 5% again as Slack retries (same body and event_id) ----
                rng = random.Random(1)
                acked_idx = [i for i, r in enumerate(results) if r[3] == 200]
                chosen = sorted(rng.sample(acked_idx, int(len(acked_idx) * args.retry_fraction)))
                retry_events = [
                    (n / args.rate, n % args.senders, events[i][2], 1) for n, i in enumerate(chosen)
                ]
                calls_before = len(probe.calls)
                counts_before = dict(probe.counts)
                chosen_pids = {pids[i] for i in chosen}
                chosen_rows_before = len(
                    chosen_pids & kit.stored_messages(sessions, "slack").keys()
                )
                start_at = time.monotonic() + 0.3
                span = len(retry_events) / args.rate
                sender.send(
                    (
                        "send",
                        kit.SlackPlan(
                            server.url, retry_events, args.senders, start_at, start_at + span + 5
                        ),
                    )
                )
                _, retry_results, _ = await sender.recv(timeout=span + 30)
                retried_ok = sum(1 for r in retry_results if r[3] == 200)
                await kit.wait_until(
                    lambda: len(probe.calls) - calls_before >= retried_ok, args.drain_timeout
                )
                rows2, distinct2 = kit.row_counts(sessions, "slack")
                chosen_rows_after = len(chosen_pids & kit.stored_messages(sessions, "slack").keys())
                report["pass2_retries"] = {
                    "resent": len(retry_events),
                    "ok": retried_ok,
                    "statuses": kit.summarize_sends(retry_results).get("statuses"),
                    "store_calls": len(probe.calls) - calls_before,
                    "new": probe.counts["new"] - counts_before.get("new", 0),
                    "updated": probe.counts["updated"] - counts_before.get("updated", 0),
                    "unchanged": probe.counts["unchanged"] - counts_before.get("unchanged", 0),
                    # rows of the re-sent messages: all were stored before, so 0 expected
                    "rows_added": chosen_rows_after - chosen_rows_before,
                    "rows_added_total": rows2 - rows,  # > 0 only if pass 1 had not drained
                    "duplicate_rows": rows2 - distinct2,
                }
        finally:
            await sampler.stop()
            if server is not None:
                await server.stop()
            sender.close()
            probe.uninstall()
            gc_monitor.uninstall()
            engine.dispose()
            report["store_errors"] = dict(probe.errors)
            report["log_counts"] = dict(logs.counts)


def write_profile(profiler: cProfile.Profile, out_name: str) -> dict[str, Any]:
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(30)
    out.write("\n\n---- by cumulative time ----\n")
    stats.sort_stats("cumulative").print_stats(40)
    path = kit.OUT_DIR / (out_name.removesuffix(".json") + "_profile.txt")
    kit.OUT_DIR.mkdir(parents=True, exist_ok=True)
    path.write_text(out.getvalue())
    return {"file": str(path.relative_to(kit.REPO))}


def verdicts(args: argparse.Namespace, report: dict[str, Any]) -> dict[str, Any]:
    p1 = report.get("pass1", {})
    p2 = report.get("pass2_retries", {})
    store_p99 = (p1.get("storage_latency_ms") or {}).get("p99")
    lost = p1.get("missing_sent")
    return {
        "rate_held": bool(p1)
        and p1.get("held_rate", 0) >= 0.98 * args.rate
        and p1.get("ok") == p1.get("events"),
        "storage_p99_met": store_p99 is not None and store_p99 < p99_target(args),
        "zero_loss": lost == 0 and p1.get("missing_acked") == 0,
        "zero_duplicates": bool(p1)
        and p1.get("duplicate_rows") == 0
        and p2.get("rows_added") == 0
        and p2.get("duplicate_rows") == 0,
    }


def p99_target(args: argparse.Namespace) -> float:
    """The p99 storage latency target (ms) for the database under test."""
    return P99_TARGET_MS["postgresql" if args.database else "sqlite"]


def print_report(args: argparse.Namespace, report: dict[str, Any]) -> None:
    p1, p2, meta = report.get("pass1", {}), report.get("pass2_retries", {}), report.get("meta", {})
    http, store = p1.get("http_ms", {}), p1.get("storage_latency_ms", {})
    calls, slip = p1.get("store_call_ms", {}), p1.get("slip_ms", {})
    v = report.get("verdicts", {})
    mark = {True: "met", False: "MISSED"}
    rows = [
        (
            "target rate / duration / senders",
            f"{args.rate:g} ev/s for {args.seconds:g} s / "
            + (
                f"open loop (<= {args.connections} connections)"
                if args.open_loop
                else f"{args.senders} lanes, each waits for its answer"
            ),
            "",
        ),
        (
            "events planned / sent / answered 200",
            f"{p1.get('events')} / {p1.get('sent')} / {p1.get('ok')}",
            "",
        ),
        ("not sent: sender behind schedule at cut-off", p1.get("not_sent"), ""),
        ("bot process CPU while sending", kit.fmt(p1.get("bot_cpu_pct"), " %"), ""),
        ("CPU per stored event: loop / database thread", cpu_split(p1), ""),
        ("load average at start / end", load(report), ""),
        ("statuses", p1.get("statuses"), ""),
        ("held rate (200s / span)", fmt_rate(p1.get("held_rate")), mark.get(v.get("rate_held"))),
        ("stored rate", fmt_rate(p1.get("stored_rate")), ""),
        (
            "sender slip p99 / max",
            f"{kit.fmt(slip.get('p99'))} / {kit.fmt(slip.get('max'))} ms",
            "",
        ),
        ("HTTP latency p50 / p99 / max", ms3(http), ""),
        (
            f"storage latency p50 / p99 / max (p99 < {p99_target(args):g} ms)",
            ms3(store),
            mark.get(v.get("storage_p99_met")),
        ),
        ("Core.store call p50 / p99 / max", ms3(calls), ""),
        ("store calls > 20 ms (each blocks the loop)", stalls(p1), ""),
        ("full GC (gen 2) pauses: count, longest", gc_full(p1), ""),
        ("ack-to-store lag at end", kit.fmt(p1.get("ack_to_store_lag_s"), " s"), ""),
        ("max asyncio tasks (backlog)", p1.get("max_tasks"), ""),
        ("rows / distinct ids", f"{p1.get('rows')} / {p1.get('distinct_ids')}", ""),
        (
            "lost: acked / sent but not stored; extra; text mismatch",
            f"{p1.get('missing_acked')} / {p1.get('missing_sent')}; {p1.get('extra')}; "
            f"{p1.get('text_mismatch')}",
            mark.get(v.get("zero_loss")),
        ),
        (
            "retries re-sent / rows added / unchanged",
            f"{p2.get('resent')} / {p2.get('rows_added')} / {p2.get('unchanged')}",
            mark.get(v.get("zero_duplicates")),
        ),
        ("store errors", report.get("store_errors") or "none", ""),
        ("gc.freeze() before the timed phase", args.gc_freeze, ""),
        ("process_before_response", meta.get("process_before_response"), ""),
    ]
    print(
        f"\n## Slack HTTP Events API load ({meta.get('database')}, {meta.get('cpus')} CPUs, "
        f"git {meta.get('git_head')})\n"
    )
    print(kit.markdown_table(["metric", "value", "target"], rows))


def cpu_split(p1: dict[str, Any]) -> str:
    cpu = p1.get("cpu_us_per_event") or {}
    return f"{cpu.get('loop', '-')} / {cpu.get('database', '-')} µs" if cpu else "-"


def load(report: dict[str, Any]) -> str:
    start = (report.get("meta") or {}).get("loadavg_at_start") or ["-"]
    end = report.get("loadavg_at_end") or ["-"]
    return f"{start[0]} / {end[0]} (1-minute)"


def stalls(p1: dict[str, Any]) -> str:
    found = p1.get("store_stalls") or {}
    if not found:
        return "-"
    took = found.get("took_ms") or []
    return f"{found.get('count')}" + (f" (longest {max(took):.0f} ms)" if took else "")


def gc_full(p1: dict[str, Any]) -> str:
    full = (p1.get("gc") or {}).get("gen2") or {}
    return f"{full.get('count')}, {kit.fmt(full.get('max_ms'))} ms" if full else "-"


def fmt_rate(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f} ev/s"


def ms3(d: dict[str, Any]) -> str:
    return f"{kit.fmt(d.get('p50'))} / {kit.fmt(d.get('p99'))} / {kit.fmt(d.get('max'))} ms"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict[str, Any] = {"args": vars(args)}
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
    report["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    report["other_activity_at_end"] = kit.other_activity()
    report["verdicts"] = verdicts(args, report)
    print_report(args, report)
    path = kit.write_json(args.out, report)
    print(f"\nJSON: {path.relative_to(kit.REPO)}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
