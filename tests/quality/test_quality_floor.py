"""The draft-quality floor: no figure of benchmarks/quality.py may fall below its record.

Runs the same measurement as `python benchmarks/quality.py --set dev` (build every dev
week's three shapes, import and draft each with the real CLI) and compares the figures,
never timings, with `benchmarks/devset/floor.json`. Raise the floor with
`quality.py --write-floor` when the drafter gets better.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType


def test_checked_in_truth_matches_the_source(quality: ModuleType, tmp_path: Path) -> None:
    for folder in quality.devweeks.weeks():
        built = quality.devweeks.build_week(folder, tmp_path / folder.name)
        assert json.loads((folder / "truth.json").read_text()) == built, folder.name


def test_draft_quality_is_no_worse_than_the_floor(quality: ModuleType) -> None:
    floor = json.loads(quality.FLOOR.read_text())
    results = quality.run(["dev"])
    assert set(floor) == set(quality.floor_figures(results))
    assert quality.regressions(results, floor) == []
