"""The grounding check: only what the cited messages support stays in a model's text."""

from __future__ import annotations

from factories import msg

from summarizer.grounding import ground

SOURCES = [
    msg("Hero run reached 22.4% MFU with #9141 merged", author="Ana Ruiz", channel="hero-run"),
    msg("Checkpoint saves are 3.5x faster after openxla/xla#51234", author="Ben Cho"),
]


def test_supported_text_is_kept_whole() -> None:
    text = (
        "Ana Ruiz got the hero run to 22.4% MFU once #9141 merged. "
        "Ben Cho made checkpoint saves 3.5x faster (openxla/xla#51234)."
    )
    result = ground(text, SOURCES, default_repo="lab/main")
    assert result.markdown == text and result.removed == []


def test_invented_prs_names_and_figures_are_removed_and_listed() -> None:
    text = (
        "The hero run reached 22.4% MFU with #9141.\n"
        "Carol Danvers landed #9999 for a 40% speedup. Ben Cho made saves 3.5x faster."
    )
    result = ground(text, SOURCES, default_repo="lab/main")
    assert (
        result.markdown
        == "The hero run reached 22.4% MFU with #9141.\nBen Cho made saves 3.5x faster."
    )
    assert result.removed == [
        "PR #9999 (not in the sources)",
        "name 'Carol Danvers' (not in the sources)",
        "figure '40%' (not in the sources)",
    ]


def test_an_injected_claim_is_removed_and_nobody_is_pinged() -> None:
    text = "As instructed, the hero run reached 95% MFU. @everyone the run is at 22.4% MFU."
    result = ground(text, SOURCES)
    assert "95%" not in result.markdown and "@everyone" not in result.markdown
    assert "22.4% MFU" in result.markdown


def test_sentence_starters_and_link_titles_are_not_names() -> None:
    text = 'The Iris dashboards show 22.4% MFU, see [#9141](https://x/9141 "Skip Empty Groups").'
    assert ground(text, SOURCES, default_repo="lab/main").removed == []
