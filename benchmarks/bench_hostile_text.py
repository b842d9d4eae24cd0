"""Worst times of the text functions on hostile 40,000-character texts, and the memory of
reading a deeply nested export.

1. Every adversarial shape of `tests.hostile.text_shapes` is timed at `--screen` characters
   for each function; the `--top` slowest are timed again at 40,000 (the message cap) and the
   worst is printed with its shape.
2. The review page's preview of 40,000 `[` (both platforms).
3. Reading a DiscordChatExporter file nested `--depth` deep inside its messages (about 40 KB
   at 20,000): time and tracemalloc peak until it is refused; then the depth check alone on a
   `--mb` MB ordinary export (time and peak), what every import now pays.

    python benchmarks/bench_hostile_text.py
    python benchmarks/bench_hostile_text.py --skip-nesting --top 3

Run it from a checkout of the code to measure (it imports the package from the current
folder).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).parent)]

from bench_big_import import write_dce  # noqa: E402

from bot.core.ingest import ImportFileError  # noqa: E402
from bot.core.mrkdwn import to_mrkdwn  # noqa: E402
from bot.discord.export import DiscordExportSource  # noqa: E402
from bot.discord.preview import discord_html  # noqa: E402
from bot.slack.preview import slack_html  # noqa: E402
from summarizer.prrefs import parse_pr_refs  # noqa: E402
from tests.hostile.text_shapes import shapes  # noqa: E402

CAP = 40_000
FUNCTIONS: dict[str, Callable[[str], object]] = {
    "parse_pr_refs": parse_pr_refs,
    "to_mrkdwn": to_mrkdwn,
    "slack_html (preview)": slack_html,
    "discord_html (preview)": discord_html,
}


def once(func: Callable[[str], object], text: str) -> float:
    start = time.perf_counter()
    func(text)
    return time.perf_counter() - start


def worst_at_cap(func: Callable[[str], object], screen: int, top: int) -> tuple[float, str]:
    """The slowest shape at the cap among the `top` slowest at `screen` characters."""
    timed = sorted(((once(func, s.text(screen)), s) for s in shapes()), key=lambda t: -t[0])
    return max((once(func, s.text(CAP)), s.name) for _, s in timed[:top])


def text_figures(screen: int, top: int) -> None:
    print(f"Worst time on a {CAP:,}-character text ({len(shapes())} shapes screened):")
    for name, func in FUNCTIONS.items():
        seconds, shape = worst_at_cap(func, screen, top)
        print(f"  {name:24} {seconds:8.3f} s   {shape}")
    print(f"Preview of {CAP:,} '[' characters:")
    for name in ("slack_html (preview)", "discord_html (preview)"):
        print(f"  {name:24} {once(FUNCTIONS[name], '[' * CAP):8.3f} s")


def nested_dce(path: Path, depth: int) -> Path:
    """A DCE file whose second message is an array nested `depth` deep."""
    document = {
        "guild": {"id": "500", "name": "Lab"},
        "channel": {"id": "600", "type": "GuildTextChat", "name": "general"},
        "messages": [{"id": "1", "type": "Default", "content": "hi"}, "DEEP"],
    }
    path.write_text(json.dumps(document).replace('"DEEP"', "[" * depth + "]" * depth))
    return path


def read_all(path: Path) -> str:
    """Read the file as an import does; what became of it."""
    try:
        batch = DiscordExportSource(str(path), path).read()
        count = sum(1 for _ in batch.messages)
    except ImportFileError as error:
        return f"refused: {error.problem}"
    return f"read {count} messages"


def measured(work: Callable[[], object]) -> tuple[float, float, object]:
    """Seconds, tracemalloc peak (MB) and result of `work()`."""
    tracemalloc.start()
    start = time.perf_counter()
    result = work()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return seconds, peak, result


def nesting_figures(depth: int, megabytes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = nested_dce(Path(folder) / "nested.json", depth)
        size = path.stat().st_size / 1024
        seconds, peak, result = measured(lambda: read_all(path))
        print(f"DCE file nested {depth:,} deep ({size:,.0f} KB): {seconds:.2f} s, ", end="")
        print(f"peak {peak:,.1f} MB")
        print(f"  {result}")
        try:
            from bot.core.json_depth import file_chunks, too_deep
        except ImportError:
            return  # the code measured has no depth check
        big = Path(folder) / "big.json"
        write_dce(big, megabytes)
        seconds, peak, deep = measured(lambda: too_deep(file_chunks(big)))
        print(
            f"Depth check of an ordinary {megabytes} MB export: {seconds:.2f} s "
            f"({megabytes / seconds:,.0f} MB/s), peak {peak:.1f} MB, too deep: {deep}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screen", type=int, default=2000, help="characters per screened shape")
    parser.add_argument("--top", type=int, default=5, help="slowest shapes timed at the cap")
    parser.add_argument("--depth", type=int, default=20_000)
    parser.add_argument("--mb", type=int, default=200, help="size of the ordinary export")
    parser.add_argument("--skip-text", action="store_true")
    parser.add_argument("--skip-nesting", action="store_true")
    args = parser.parse_args()
    if not args.skip_text:
        text_figures(args.screen, args.top)
    if not args.skip_nesting:
        nesting_figures(args.depth, args.mb)


if __name__ == "__main__":
    main()
