"""What benchmarks/quality.py counts: a PR is in the draft only where its text shows it."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from types import ModuleType
from typing import Any


def _case(quality: ModuleType) -> Any:
    truth = quality.weeksets.Truth(
        prs={"lab/main#12": frozenset({"data"}), "lab/main#13": frozenset({"data"})},
        default_repo="lab/main",
    )
    return quality.weeksets.Case(
        set="dev",
        week="w",
        shape="by-channel",
        config="dev",
        export=Path("."),
        config_file=None,
        monday=date(2026, 11, 16),
        truth=truth,
        reference="",
        placeable=True,
    )


def test_a_pr_a_section_lists_but_does_not_show_is_not_recalled(quality: ModuleType) -> None:
    drafted = {
        "sections": [
            {
                "topic": "data",
                "title": "Data",
                # #13 is in the section's list of PRs, but its sentence went: no reader sees it.
                "markdown": "- The loader streams rows ([#12](https://github.com/lab/main/pull/12)).",
                "prs": ["lab/main#12", "lab/main#13"],
                "people": [],
                "sources": [],
            }
        ]
    }
    figures = quality.measure(drafted, _case(quality), {})
    assert figures["pr_recall"] == 0.5
    assert figures["missing_prs"] == ["lab/main#13"]
