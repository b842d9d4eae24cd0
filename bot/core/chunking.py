"""Splitting long text into messages a platform accepts, never cutting a word or a link."""

from __future__ import annotations

import re

# Boundaries from the largest to the smallest, each with the text that rejoins its parts.
_BOUNDARIES = (
    (re.compile(r"\n{2,}"), "\n\n"),
    (re.compile(r"\n"), "\n"),
    (re.compile(r"(?<=[.!?])\s+"), " "),
    (re.compile(r"\s+"), " "),
)


def chunk(text: str, limit: int) -> list[str]:
    """`text` in pieces of at most `limit` characters, split at the largest boundary that fits:
    paragraphs, then lines, then sentences, then words. Only a single word longer than `limit`
    (a huge URL) is split inside."""
    if limit < 1:
        raise ValueError("limit must be positive")
    return _split(text.strip(), limit, 0)


def _split(text: str, limit: int, level: int) -> list[str]:
    if len(text) <= limit:
        return [text] if text else []
    if level == len(_BOUNDARIES):
        return [text[i : i + limit] for i in range(0, len(text), limit)]
    pattern, joiner = _BOUNDARIES[level]
    pieces: list[str] = []
    current = ""
    for part in pattern.split(text):
        for sub in _split(part.strip(), limit, level + 1):
            candidate = f"{current}{joiner}{sub}" if current else sub
            if len(candidate) <= limit:
                current = candidate
            else:
                pieces.append(current)
                current = sub
    if current:
        pieces.append(current)
    return pieces
