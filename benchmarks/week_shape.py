"""The shape of an imported chat: how long messages are, how many PR refs, threads, reactions.

`shape(engine)` reads it from a database the importer wrote, so a real export, a dev-set week
and the benchmark's synthetic week are measured the same way. From the command line it imports
each path given into a temporary SQLite file and prints one row per path:

    python benchmarks/week_shape.py /path/to/export ... [--markdown]

The benchmark generator (`bench_pipeline.SyntheticWeek`) was tuned against these figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import sqlalchemy
from sqlalchemy import Engine

from bot.core.ingest import import_paths
from bot.ops.formats import EXPORT_FORMATS
from storage.db import make_engine, make_sessionmaker, migrate


@dataclass(frozen=True, slots=True)
class Shape:
    """What a chat looks like; shares are of all messages."""

    messages: int
    channels: int  # top-level channels with messages
    threads: int
    people: int
    median_chars: float
    p90_chars: float
    p99_chars: float
    refs_per_message: float
    share_with_refs: float
    share_in_threads: float
    threads_per_channel: float
    reactions_per_message: float
    share_with_reactions: float
    share_with_code: float
    share_with_links: float


def _quantile(values: Sequence[int], q: float) -> float:
    """The q-quantile of sorted `values` (nearest rank); 0 for none."""
    if not values:
        return 0.0
    return float(values[min(len(values) - 1, int(q * len(values)))])


def shape(engine: Engine) -> Shape:
    """The shape of every message stored in `engine`'s database."""
    with engine.connect() as conn:
        rows = conn.execute(
            sqlalchemy.text(
                "SELECT m.text, m.thread_id, m.reaction_count, m.author_id,"
                " coalesce(c.parent_id, c.id), (SELECT count(*) FROM pr_refs r"
                " WHERE r.message_id = m.id) FROM messages m JOIN channels c"
                " ON c.id = m.channel_id"
            )
        ).all()
    n = len(rows) or 1
    lengths = sorted(len(text) for text, *_ in rows)
    threads = {thread for _, thread, *_ in rows if thread is not None}
    channels = {channel for *_, channel, _ in rows}
    return Shape(
        messages=len(rows),
        channels=len(channels),
        threads=len(threads),
        people=len({author for _, _, _, author, *_ in rows}),
        median_chars=statistics.median(lengths) if lengths else 0.0,
        p90_chars=_quantile(lengths, 0.9),
        p99_chars=_quantile(lengths, 0.99),
        refs_per_message=sum(r[5] for r in rows) / n,
        share_with_refs=sum(1 for r in rows if r[5]) / n,
        share_in_threads=sum(1 for r in rows if r[1] is not None) / n,
        threads_per_channel=len(threads) / (len(channels) or 1),
        reactions_per_message=sum(r[2] for r in rows) / n,
        share_with_reactions=sum(1 for r in rows if r[2]) / n,
        share_with_code=sum(1 for r in rows if "`" in r[0]) / n,
        share_with_links=sum(1 for r in rows if "http" in r[0]) / n,
    )


def shape_of_export(path: Path) -> Shape:
    """Import `path` into a temporary SQLite file and measure it."""
    with tempfile.TemporaryDirectory(prefix="summarybot-shape-") as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'shape.db'}")
        try:
            migrate(engine)
            report = import_paths(make_sessionmaker(engine), [path], EXPORT_FORMATS)
            for error in report.errors:
                print(f"  import error: {error}", file=sys.stderr)
            return shape(engine)
        finally:
            engine.dispose()


SHORT_COLUMNS = (
    ("messages", "messages", "{:,}"),
    ("channels", "channels", "{}"),
    ("threads", "threads", "{:,}"),
    ("people", "people", "{}"),
    ("median_chars", "median chars", "{:.0f}"),
    ("p90_chars", "p90 chars", "{:.0f}"),
    ("refs_per_message", "refs/msg", "{:.2f}"),
    ("reactions_per_message", "reactions/msg", "{:.2f}"),
)
FULL_COLUMNS = (
    *SHORT_COLUMNS[:6],
    ("p99_chars", "p99 chars", "{:.0f}"),
    ("refs_per_message", "refs/msg", "{:.2f}"),
    ("share_with_refs", "with refs", "{:.0%}"),
    ("share_in_threads", "in threads", "{:.0%}"),
    ("threads_per_channel", "threads/channel", "{:.1f}"),
    ("reactions_per_message", "reactions/msg", "{:.2f}"),
    ("share_with_reactions", "with reactions", "{:.0%}"),
    ("share_with_code", "with code", "{:.0%}"),
    ("share_with_links", "with links", "{:.0%}"),
)


def shape_table(
    rows: Sequence[tuple[str, Shape]], columns: Sequence[tuple[str, str, str]] = SHORT_COLUMNS
) -> str:
    """A Markdown table, one row per (label, shape)."""
    lines = [
        "| week | " + " | ".join(title for _, title, _ in columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for label, week in rows:
        values = asdict(week)
        cells = " | ".join(fmt.format(values[key]) for key, _, fmt in columns)
        lines.append(f"| {label} | {cells} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", type=Path, nargs="+", help="exports to measure")
    args = parser.parse_args(argv)
    rows = [("/".join(path.parts[-2:]), shape_of_export(path)) for path in args.paths]
    print(shape_table(rows, FULL_COLUMNS))


if __name__ == "__main__":
    main()
