"""Where the real exports and recordings of ../shared/data/real are, when they are there."""

from __future__ import annotations

from pathlib import Path

import pytest

REAL_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "real"


def real_data(name: str) -> Path:
    """A folder of ../shared/data/real, or skip: a fresh clone has no shared data."""
    path = REAL_DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not present (a fresh clone has no ../shared/data/real)")
    return path
