"""Adversarial text shapes for the text functions that run on member text, generated
systematically from pieces their patterns care about, and a way to tell linear time from
worse without a clock budget: how much longer a text `SCALE` times as long takes.

A shape is a function of a length `n` that returns a text of exactly `n` characters: one
piece repeated, a piece then another repeated, or a pair of pieces repeated, each with and
without a closing piece. `python -m tests.hostile.text_shapes` lists the shapes whose
functions scale worst, which is how a shape worth a test is found.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

# Pieces the patterns of prrefs, mrkdwn, links and the previews treat specially.
PIECES = (
    *("PR", "PRs", "pull", "pull request", "#", "#1", "1", "owner/repo#", "a"),
    *(" ", "\t", ":", ",", "and ", "&", "&quot;", '"', "'", "\n"),
    *("<", ">", "<http", "<https://x", "|", "[", "]", "(", ")", "](", "](http://x"),
    *("`", "```", "~", "*", "_", "@", "!", "<@", "<#", "https://", "www.", "github.com/"),
    *(".", "-", "/", "**", "[a](http://x", '[a](http://x "', "PR 1, "),
)
SCALE = 4


@dataclass(frozen=True, slots=True)
class Shape:
    """A family of texts: `text(n)` has `n` characters."""

    name: str
    head: str
    body: str
    tail: str = ""

    def text(self, n: int) -> str:
        room = n - len(self.head) - len(self.tail)
        repeated = self.body * (room // len(self.body) + 1)
        return self.head + repeated[:room] + self.tail


def shapes() -> list[Shape]:
    """Every piece repeated; every piece before every other repeated; every pair of pieces
    repeated; the repeated ones also closed by ")" and ">"."""
    found = [Shape(f"{p!r}*", "", p) for p in PIECES]
    for a, b in itertools.product(PIECES, repeat=2):
        found.append(Shape(f"{a!r}+{b!r}*", a, b))
        found.append(Shape(f"({a!r}{b!r})*", "", a + b))
    found += [Shape(s.name + "+')'", s.head, s.body, ")") for s in found[: len(PIECES)]]
    return found


def seconds(func: Callable[[str], object], text: str, floor: float = 0.002) -> float:
    """The least processor time of a few runs of `func(text)`, each repeated until it takes
    `floor`. Processor time of this thread, so other work on the machine counts little."""
    best = float("inf")
    for _ in range(3):
        runs, start = 0, time.thread_time()
        while True:
            func(text)
            runs += 1
            elapsed = time.thread_time() - start
            if elapsed >= floor:
                break
        best = min(best, elapsed / runs)
    return best


def growth(func: Callable[[str], object], shape: Shape, n: int) -> float:
    """How many times longer `func` takes on the shape at `SCALE * n` characters than at
    `n`: about `SCALE` when linear, `SCALE ** 2` when quadratic."""
    return seconds(func, shape.text(SCALE * n)) / seconds(func, shape.text(n))


def worst_shapes(
    func: Callable[[str], object], n: int, limit: float, all_shapes: list[Shape] | None = None
) -> dict[str, float]:
    """The shapes on which `func` grows faster than `limit`, with their growth. One quick run
    at `n` and `SCALE * n` screens every shape; those that look slow are measured with care
    at `SCALE * n` and `SCALE ** 2 * n`, where a fixed cost per call (or a first garbage
    collection) no longer hides how the time grows."""
    slow = {}
    for shape in all_shapes or shapes():
        small, large = shape.text(n), shape.text(SCALE * n)
        start = time.thread_time()
        func(small)
        middle = time.thread_time()
        func(large)
        end = time.thread_time()
        if end - middle > limit * (middle - start):
            # Slow twice running, so that one unlucky measurement is not taken for a shape.
            ratio = min(growth(func, shape, SCALE * n) for _ in range(2))
            if ratio > limit:
                slow[shape.name] = ratio
    return slow


if __name__ == "__main__":
    from bot.core.mrkdwn import to_mrkdwn
    from bot.discord.preview import discord_html
    from bot.slack.preview import slack_html
    from summarizer.prrefs import parse_pr_refs

    for name, func in (
        ("parse_pr_refs", parse_pr_refs),
        ("to_mrkdwn", to_mrkdwn),
        ("slack_html", slack_html),
        ("discord_html", discord_html),
    ):
        found = worst_shapes(func, 2000, 2.5 * SCALE)
        print(name, len(found), sorted(found.items(), key=lambda kv: -kv[1])[:15], flush=True)
