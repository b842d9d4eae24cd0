"""Load test of live Discord ingest through the gateway.

The fake Discord of tests/fakediscord.py runs in a separate process (gateway websocket and REST
on 127.0.0.1); the bot under test is the real `SummaryClient` (discord.py) with a fresh
database, connected to it as `summarybot run` connects to Discord. Once it is ready, the fake
dispatches MESSAGE_CREATE at a fixed rate (one gateway connection: one ordered stream).

Measured:

* held rate: MESSAGE_CREATE dispatched per second by the fake, and messages stored per second;
* storage latency: from the dispatch to the end of the `Core.store` call that committed the
  message (`Core.store` is wrapped in this process), and the store calls alone;
* the backlog the bot builds (time from the last dispatch until everything is stored);
* exactly once: rows, distinct ids, missing, extra, text mismatches; then 5% of the same
  message objects (same ids) are dispatched again, which must add no rows;
* where the tail comes from: store calls over 20 ms, full garbage collections (gen 2) and
  the worst seconds; --gc-freeze shows the effect of `gc.freeze()` after start-up.

    python benchmarks/load_discord.py --rate 500 --seconds 60

A Markdown table goes to stdout, the figures to benchmarks/out/load_discord.json (or --out).
Every phase is bounded; the whole run is cancelled after --hard-cap seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import sys
import time
import traceback
from typing import Any

import loadkit as kit
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord.run import point_at
from storage.records import WorkspaceRecord


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=500.0, help="MESSAGE_CREATE per second")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to dispatch")
    parser.add_argument("--dup-fraction", type=float, default=0.05)
    parser.add_argument("--database", default=None, help="PostgreSQL URL (default: SQLite)")
    parser.add_argument("--drain-timeout", type=float, default=30.0)
    parser.add_argument("--hard-cap", type=float, default=120.0, help="seconds, whole run")
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() in the bot process before the timed phase (what the bot would gain "
        "by freezing its start-up objects: no long full collections)",
    )
    parser.add_argument("--out", default="load_discord.json", help="file name in benchmarks/out")
    args = parser.parse_args(argv)
    if not 0 < args.rate <= 5000 or not 0 < args.seconds <= 600:
        parser.error("rate 0-5000, seconds 0-600")
    return args


async def run(args: argparse.Namespace, report: dict[str, Any]) -> None:
    config = kit.default_config()
    logs = kit.quiet_logging()
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    with kit.fresh_database(args.database) as url:
        report["meta"] = kit.run_meta(url)
        engine, sessions = kit.open_database(url)
        probe = kit.StoreProbe().install()
        gc_monitor = kit.GcMonitor().install()
        fake = kit.Child(kit.discord_fake_main, "fake-discord")
        client: Any = None
        task: asyncio.Task[None] | None = None
        sampler = kit.TaskSampler()
        try:
            _, api_base, gateway_url, guild_id, guild_name = await fake.recv(timeout=60)
            point_at(api_base, gateway_url)
            kit.enable_channels(
                sessions,
                config,
                WorkspaceRecord("discord", guild_id, guild_name),
                [kit.DISCORD_CHANNEL],
            )
            make_core = kit.core_for(sessions, config, platform="discord")
            client = kit.make_fast_client()(make_core, guild_ready_timeout=0.05)
            await client.login("fake.token")
            task = asyncio.create_task(client.run_connected())
            await asyncio.wait_for(client.wait_until_ready(), 20)
            await asyncio.sleep(0.5)  # on_ready's command sync and catch-up (empty) settle

            # ---- pass 1: MESSAGE_CREATE at the fixed rate ----
            count = int(args.rate * args.seconds)
            start_at = time.monotonic() + 1.0 + count / 20_000  # the fake builds them first
            stop_at = start_at + args.seconds + 5
            fake.send(("send", args.rate, args.seconds, start_at, stop_at))
            if args.gc_freeze:
                gc.collect()
                gc.freeze()
            sampler.start()
            cpu0, wall0 = time.process_time(), time.monotonic()
            _, results = await fake.recv(timeout=stop_at - time.monotonic() + 30)
            cpu_pct = 100 * (time.process_time() - cpu0) / (time.monotonic() - wall0)
            dispatched = {mid: sent for mid, _, sent in results if sent is not None}
            drained = await kit.wait_until(
                lambda: dispatched.keys() <= probe.first_stored.keys(), args.drain_timeout
            )
            await sampler.stop()
            sent_times = list(dispatched.values())
            first, last_sent = min(sent_times), max(sent_times)
            stored_ids = dispatched.keys() & probe.first_stored.keys()
            last_store = max((probe.first_stored[m] for m in stored_ids), default=None)
            storage = [probe.first_stored[m] - dispatched[m] for m in stored_ids]
            slips = [max(0.0, sent - due) for _, due, sent in results if sent is not None]
            rows, distinct = kit.row_counts(sessions, "discord")
            texts = kit.stored_messages(sessions, "discord")
            expected = {mid: kit.message_text(i) for i, (mid, _, _) in enumerate(results)}
            pass1 = {
                "events": count,
                "dispatched": len(dispatched),
                "not_dispatched": count - len(dispatched),
                "dispatch_span_s": round(last_sent - first, 3),
                "dispatch_rate": round(len(dispatched) / max(last_sent - first, 1e-9), 1),
                "stored": len(stored_ids),
                "stored_rate": round(len(stored_ids) / (last_store - first), 1)
                if last_store
                else None,
                "slip_ms": kit.dist_ms(slips),
                "storage_latency_ms": kit.dist_ms(storage),
                "store_call_ms": kit.dist_ms(probe.call_durations(since=start_at)),
                "store_stalls": probe.stalls(since=start_at),
                "worst_seconds": kit.worst_seconds(
                    [(dispatched[m], probe.first_stored[m] - dispatched[m]) for m in stored_ids],
                    start_at,
                ),
                "gc": gc_monitor.summary(since=start_at, until=time.monotonic()),
                "drained": drained,
                "backlog_at_end_s": round(last_store - last_sent, 3) if last_store else None,
                "max_tasks": max(sampler.samples, default=None),
                "bot_cpu_pct": round(cpu_pct, 1),
                "rows": rows,
                "distinct_ids": distinct,
                "duplicate_rows": rows - distinct,
                "missing": len(dispatched.keys() - texts.keys()),
                "extra": len(texts.keys() - expected.keys()),
                "text_mismatch": sum(
                    1 for m, t in texts.items() if m in expected and expected[m] != t
                ),
                "inserts": probe.counts["new"],
            }
            report["pass1"] = pass1

            # ---- pass 2: 5% of the same messages again ----
            rng = random.Random(1)
            chosen = rng.sample(sorted(stored_ids), int(len(stored_ids) * args.dup_fraction))
            calls_before, counts_before = len(probe.calls), dict(probe.counts)
            chosen_before = len(set(chosen) & kit.stored_messages(sessions, "discord").keys())
            span = len(chosen) / args.rate
            fake.send(("redispatch", chosen, args.rate, time.monotonic() + span + 5))
            _, dup_results = await fake.recv(timeout=span + 30)
            redispatched = sum(1 for _, _, sent in dup_results if sent is not None)
            await kit.wait_until(
                lambda: len(probe.calls) - calls_before >= redispatched, args.drain_timeout
            )
            rows2, distinct2 = kit.row_counts(sessions, "discord")
            chosen_after = len(set(chosen) & kit.stored_messages(sessions, "discord").keys())
            report["pass2_duplicates"] = {
                "redispatched": redispatched,
                "store_calls": len(probe.calls) - calls_before,
                "new": probe.counts["new"] - counts_before.get("new", 0),
                "updated": probe.counts["updated"] - counts_before.get("updated", 0),
                "unchanged": probe.counts["unchanged"] - counts_before.get("unchanged", 0),
                "rows_added": chosen_after - chosen_before,  # all stored before: 0 expected
                "rows_added_total": rows2 - rows,  # > 0 only if pass 1 had not drained
                "duplicate_rows": rows2 - distinct2,
            }
        finally:
            await sampler.stop()
            if client is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.close(), 10)
            if task is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 10)
            fake.close()
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
            probe.uninstall()
            gc_monitor.uninstall()
            engine.dispose()
            report["store_errors"] = dict(probe.errors)
            report["log_counts"] = dict(logs.counts)


def verdicts(args: argparse.Namespace, report: dict[str, Any]) -> dict[str, Any]:
    p1, p2 = report.get("pass1", {}), report.get("pass2_duplicates", {})
    store_p99 = (p1.get("storage_latency_ms") or {}).get("p99")
    return {
        "rate_held": bool(p1)
        and args.rate >= kit.TARGET_RATE
        and args.seconds >= kit.TARGET_SECONDS
        and p1.get("not_dispatched") == 0
        and (p1.get("stored_rate") or 0) >= 0.98 * kit.TARGET_RATE,
        "storage_p99_under_50ms": store_p99 is not None and store_p99 < kit.TARGET_STORE_P99_MS,
        "zero_loss": bool(p1) and p1.get("missing") == 0,
        "zero_duplicates": bool(p1)
        and p1.get("duplicate_rows") == 0
        and p2.get("rows_added") == 0
        and p2.get("duplicate_rows") == 0,
    }


def stalls(p1: dict[str, Any]) -> str:
    found = p1.get("store_stalls") or {}
    if not found:
        return "-"
    took = found.get("took_ms") or []
    return f"{found.get('count')}" + (f" (longest {max(took):.0f} ms)" if took else "")


def gc_full(p1: dict[str, Any]) -> str:
    full = (p1.get("gc") or {}).get("gen2") or {}
    return f"{full.get('count')}, {kit.fmt(full.get('max_ms'))} ms" if full else "-"


def ms3(d: dict[str, Any]) -> str:
    return f"{kit.fmt(d.get('p50'))} / {kit.fmt(d.get('p99'))} / {kit.fmt(d.get('max'))} ms"


def print_report(args: argparse.Namespace, report: dict[str, Any]) -> None:
    p1, p2, meta = report.get("pass1", {}), report.get("pass2_duplicates", {}), report["meta"]
    v = report.get("verdicts", {})
    mark = {True: "met", False: "MISSED"}
    slip = p1.get("slip_ms", {})
    rows = [
        ("target rate / duration", f"{args.rate:g} ev/s for {args.seconds:g} s", ""),
        (
            "planned / dispatched (not dispatched)",
            f"{p1.get('events')} / {p1.get('dispatched')} ({p1.get('not_dispatched')})",
            "",
        ),
        ("dispatch rate held by the fake", f"{kit.fmt(p1.get('dispatch_rate'))} ev/s", ""),
        ("stored rate", f"{kit.fmt(p1.get('stored_rate'))} ev/s", mark.get(v.get("rate_held"))),
        (
            "dispatch slip p99 / max",
            f"{kit.fmt(slip.get('p99'))} / {kit.fmt(slip.get('max'))} ms",
            "",
        ),
        (
            "storage latency p50 / p99 / max",
            ms3(p1.get("storage_latency_ms", {})),
            mark.get(v.get("storage_p99_under_50ms")),
        ),
        ("Core.store call p50 / p99 / max", ms3(p1.get("store_call_ms", {})), ""),
        ("store calls > 20 ms (each blocks the loop)", stalls(p1), ""),
        ("full GC (gen 2) pauses: count, longest", gc_full(p1), ""),
        ("backlog after last dispatch", kit.fmt(p1.get("backlog_at_end_s"), " s"), ""),
        ("max asyncio tasks (backlog)", p1.get("max_tasks"), ""),
        ("bot process CPU while dispatching", kit.fmt(p1.get("bot_cpu_pct"), " %"), ""),
        ("rows / distinct ids", f"{p1.get('rows')} / {p1.get('distinct_ids')}", ""),
        (
            "missing / extra / text mismatch",
            f"{p1.get('missing')} / {p1.get('extra')} / {p1.get('text_mismatch')}",
            mark.get(v.get("zero_loss")),
        ),
        (
            "re-dispatched / rows added / unchanged",
            f"{p2.get('redispatched')} / {p2.get('rows_added')} / {p2.get('unchanged')}",
            mark.get(v.get("zero_duplicates")),
        ),
        ("store errors", report.get("store_errors") or "none", ""),
        ("gc.freeze() before the timed phase", args.gc_freeze, ""),
    ]
    print(
        f"\n## Discord gateway load ({meta.get('database')}, {meta.get('cpus')} CPUs, "
        f"git {meta.get('git_head')})\n"
    )
    print(kit.markdown_table(["metric", "value", "target"], rows))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict[str, Any] = {"args": vars(args), "meta": {}}
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
