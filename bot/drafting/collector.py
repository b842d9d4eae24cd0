"""Drafting a week with Python's cyclic garbage collector paused (process-wide, so it is
done here, around the summarizer's pure calls, and not inside them)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while the block runs, then set back.

    Drafting a week allocates millions of small objects (sentences, word sets, work items)
    that live until the draft is done, and the collector, started by allocations, would walk
    all of them again and again: a fifth of the drafting time of a 100k-message week.
    Drafting makes no reference cycles, so its garbage is still freed at once by reference
    counting. Other threads (the bot's event loop) go without the collector for the draft's
    second or two.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
