"""A figure its author corrected, read as corrected.

People post a result and then fix a number in a reply to it: "correction: wall time is
*4h41m*, not 4h14m", "correction, 38% (1.90 -> 1.17)", "starts at *6pm*, not 7". The draft
says what the post says, so the post is read with the corrected value in place of the wrong
one, and the correction, said, is left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from summarizer.figures import find_figures
from summarizer.types import SourceMessage

# A value a correction gives: a number with what is written onto it ("4h41m", "6pm", "38%",
# "19:30", "$1,200", "2.3 GB").
_VALUE = r"[~≈$€£]?\d[\w.,:]*(?:\s?%|\s(?:[KMGT]i?B|ms|s|min|h|am|pm)\b)?"
# "NEW, not OLD" / "NEW instead of OLD" (markup taken out first).
_NOT_RE = re.compile(rf"(?P<new>{_VALUE}),?\s+(?:not|instead of)\s+(?P<old>{_VALUE})")
_OPENS_CORRECTING_RE = re.compile(r"^\W*(?:correction|erratum|typo)\b", re.IGNORECASE)
_MARKUP_RE = re.compile(r"[*_`~]")
# The unit of a figure: what follows its number.
_UNIT_RE = re.compile(r"^[~≈$€£]?[\d.,]+\s?")


def corrected(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages` (in time order) with each message its author corrected in a reply to it
    read with the corrected values, and the correction left out; the others as they are."""
    by_id = {m.id: i for i, m in enumerate(messages)}
    found = list(messages)
    dropped: set[int] = set()
    for i, message in enumerate(messages):
        if not _may_correct(message.text):
            continue  # (most messages)
        target = message.reply_to_id or message.thread_id
        j = by_id.get(target or "")
        if j is None or j == i or found[j].author_id != message.author_id:
            continue
        text = _with_corrections(found[j].text, _MARKUP_RE.sub("", message.text))
        if text != found[j].text:
            found[j] = replace(found[j], text=text)
            dropped.add(i)
    return [m for i, m in enumerate(found) if i not in dropped]


def _may_correct(text: str) -> bool:
    """A cheap look: a correction opens as one or says what a value was "not"."""
    if _OPENS_CORRECTING_RE.match(text) is not None:
        return True
    if "not " not in text and "instead of" not in text:
        return False
    return _NOT_RE.search(_MARKUP_RE.sub("", text)) is not None


def _with_corrections(text: str, correction: str) -> str:
    """`text` with each "NEW, not OLD" of `correction` applied where OLD is in it once; where
    it says none and opens as a correction ("correction, 38%"), each of its figures in place
    of the one figure of `text` with the same unit."""
    pairs = [(_value(m["new"]), _value(m["old"])) for m in _NOT_RE.finditer(correction)]
    if not pairs and _OPENS_CORRECTING_RE.match(correction):
        pairs = [(new, old) for new in find_figures(correction) if (old := _same_unit(text, new))]
    for new, old in pairs:
        found = list(re.finditer(rf"(?<![\w.,]){re.escape(old)}(?![\w]|[.,]\d)", text))
        if len(found) == 1:
            text = f"{text[: found[0].start()]}{new}{text[found[0].end() :]}"
    return text


def _value(said: str) -> str:
    return said.strip().rstrip(".,:")


def _same_unit(text: str, figure: str) -> str | None:
    """The one figure of `text` with the unit of `figure` and another value; None where it
    has none or several."""
    unit = _UNIT_RE.sub("", figure)
    if not unit:
        return None
    alike = {f for f in find_figures(text) if _UNIT_RE.sub("", f) == unit and f != figure}
    return alike.pop() if len(alike) == 1 else None
