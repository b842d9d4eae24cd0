"""Word-level differences between two texts, for the review page's history: which words an
edit removed and added, with a few unchanged words around each change and the long
unchanged stretches between changes shortened to an ellipsis."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Literal

# A word with the spaces after it: a changed line break shows, a re-spaced word does not
# split in two.
_TOKEN_RE = re.compile(r"\S+\s*|\s+")
CONTEXT_WORDS = 4  # unchanged words kept on each side of a change
ELLIPSIS = "… "


@dataclass(frozen=True, slots=True)
class DiffPart:
    """A run of text that stayed, was removed or was added."""

    kind: Literal["same", "removed", "added"]
    text: str


def word_diff(before: str, after: str) -> list[DiffPart]:
    """How `after` differs from `before`, word by word; empty when they are the same."""
    if before == after:
        return []
    old, new = _TOKEN_RE.findall(before), _TOKEN_RE.findall(after)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    opcodes = matcher.get_opcodes()
    parts: list[DiffPart] = []
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            parts.append(_context(old[i1:i2], first=index == 0, last=index == len(opcodes) - 1))
            continue
        if i2 > i1:
            parts.append(DiffPart("removed", "".join(old[i1:i2])))
        if j2 > j1:
            parts.append(DiffPart("added", "".join(new[j1:j2])))
    return [part for part in parts if part.text]


def _context(words: list[str], *, first: bool, last: bool) -> DiffPart:
    """An unchanged stretch: the words next to a change, the rest as an ellipsis."""
    head = [] if first else words[:CONTEXT_WORDS]
    tail = [] if last else words[-CONTEXT_WORDS:]
    if len(head) + len(tail) >= len(words):
        return DiffPart("same", "".join(words))
    return DiffPart("same", "".join(head) + ELLIPSIS + "".join(tail))
