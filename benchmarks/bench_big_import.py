"""Peak memory and time of importing one large DiscordChatExporter file, and a ZIP bomb.

Writes a DCE export of about `--mb` megabytes to a temporary folder (streamed to disk, never
held in memory), imports it with the real `summarybot import` into a fresh SQLite file in a
child process, and reports the child's wall time and peak RSS. With `--zip-bomb` it also
imports a small Slack export ZIP whose day file unpacks to `--bomb-mb` megabytes of spaces.

    python benchmarks/bench_big_import.py                 # ~1 GB (the target: < 500 MB RSS)
    python benchmarks/bench_big_import.py --mb 300 --zip-bomb
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

SENTENCE = (
    "the hero run reached 41.2% MFU after #8123 landed; checkpoint saves are 3.1x faster, "
    "see marin-community/marin#8124 and the dedup audit at 98.7% precision on 600 pairs"
)
WORDS = SENTENCE.split()


def write_dce(path: Path, megabytes: int) -> int:
    """Write a DCE export of about `megabytes` MB; how many messages it holds."""
    target = megabytes * 1024 * 1024
    start = datetime(2026, 11, 16, tzinfo=UTC)
    header = {
        "guild": {"id": "500", "name": "Bench"},
        "channel": {"id": "600", "type": "GuildTextChat", "name": "general"},
    }
    count = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header)[:-1] + ', "messages": [\n')
        written = 0
        while written < target:
            words = [WORDS[(count * 7 + k) % len(WORDS)] for k in range(20 + count % 40)]
            message = {
                "id": str(10**17 + count),
                "type": "Default",
                "timestamp": (start + timedelta(seconds=count % 600_000)).isoformat(),
                "timestampEdited": None,
                "content": " ".join(words),
                "author": {"id": str(700 + count % 40), "name": f"member{count % 40}"},
                "reactions": [{"count": count % 5}],
                "embeds": [],
                "mentions": [],
            }
            line = ("," if count else "") + json.dumps(message) + "\n"
            written += out.write(line)
            count += 1
        out.write("]}\n")
    return count


def write_zip_bomb(path: Path, megabytes: int) -> None:
    """A Slack export ZIP whose one day file unpacks to `megabytes` MB of spaces."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("users.json", "[]")
        archive.writestr("channels.json", json.dumps([{"id": "C1", "name": "general"}]))
        with archive.open("general/2026-11-17.json", "w", force_zip64=True) as member:
            member.write(b"[")
            chunk = b" " * (1024 * 1024)
            for _ in range(megabytes):
                member.write(chunk)
            member.write(b"]")


# The child reports its own peak RSS (VmHWM) as it exits.
CHILD = (
    "import atexit, resource, sys\n"
    "atexit.register(lambda: print('PEAK_KIB', "
    "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr))\n"
    "from bot.ops.cli import app\n"
    "app(prog_name='summarybot')\n"
)


def import_in_child(database: Path, *paths: Path) -> tuple[float, float, str]:
    """Run `summarybot import` in a child process: (seconds, peak RSS MiB, its report)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "--database", f"sqlite:///{database}", "import"]
        + [str(p) for p in paths],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    lines = done.stderr.strip().splitlines()
    peak_kib = int(next(line for line in lines if line.startswith("PEAK_KIB")).split()[1])
    report = " | ".join(line for line in lines if not line.startswith("PEAK_KIB"))
    return seconds, peak_kib / 1024, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=1024, help="size of the DCE file (MB)")
    parser.add_argument("--zip-bomb", action="store_true", help="also import a ZIP bomb")
    parser.add_argument("--bomb-mb", type=int, default=1024, help="the bomb's unpacked size")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-big-import-") as folder:
        tmp = Path(folder)
        if args.zip_bomb:
            bomb = tmp / "bomb.zip"
            write_zip_bomb(bomb, args.bomb_mb)
            seconds, rss, last = import_in_child(tmp / "bomb.db", bomb)
            size = bomb.stat().st_size / 1024
            print(
                f"ZIP bomb: {size:,.0f} KB ZIP unpacking to {args.bomb_mb:,} MB: "
                f"{seconds:.1f} s, peak RSS {rss:,.0f} MiB ({last})"
            )
        export = tmp / "big.json"
        messages = write_dce(export, args.mb)
        size_mb = export.stat().st_size / 1024 / 1024
        seconds, rss, last = import_in_child(tmp / "big.db", export)
        print(
            f"DCE export: {size_mb:,.0f} MB, {messages:,} messages: {seconds:.1f} s "
            f"({messages / seconds:,.0f} msgs/s), peak RSS {rss:,.0f} MiB ({last})"
        )


if __name__ == "__main__":
    main()
