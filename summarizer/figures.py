"""Finding the figures a summary must keep: percentages, throughput, sizes, speedups, steps."""

from __future__ import annotations

import re

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# Longest units first: the regex takes the first alternative that matches.
_UNIT = (
    r"%"
    r"|[kKMB]?\s?(?:tokens?|tok|samples?|examples?|seqs?)/s(?:ec)?(?:/(?:GPU|chip|device))?"
    r"|(?:s|ms|sec)/step|steps?/s"
    r"|[kKMGTP]i?B\b"
    r"|x\b|×"
    r"|-?(?:steps?|epochs?)\b"
    r"|(?:ms|s|sec|seconds|min|minutes|h|hours|days)\b"
    r"|[kMBT]\b"
    r"|(?:GPUs?|TPUs?|nodes?|chips?|racks?|ranks?|records|documents|docs|sources|tokens|params)\b"
)
FIGURE_RE = re.compile(
    rf"(?<![\w#/.:-])(?:~|≈)?(?:{_NUMBER})[ \u202f]?(?:{_UNIT})"
    # "56/300" style fractions of trials or tasks
    rf"|(?<![\w#/.:-])\d+/\d+(?![\w/])",
)


def find_figures(text: str) -> list[str]:
    """The figures in `text`, as written, in order."""
    return [m.group(0).strip() for m in FIGURE_RE.finditer(text)]


def count_figures(text: str) -> int:
    """How many figures `text` holds (cheaper than listing them)."""
    return sum(1 for _ in FIGURE_RE.finditer(text))
