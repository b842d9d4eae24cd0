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
    link = '[#9141](https://github.com/lab/main/pull/9141 "Skip Empty Groups")'
    text = f"The Iris dashboards show 22.4% MFU, see {link}."
    assert ground(text, SOURCES, default_repo="lab/main").removed == []


def test_a_sentence_the_cited_words_do_not_support_is_removed() -> None:
    """A real name and a real message are not enough: the sentence's words must be there."""
    mfu = msg("Hero run MFU is at 22.4% after the attention kernel fix", author="Ana Ruiz")
    text = (
        "The hero run was cancelled and the team is moving to TPUs. "
        "Ana Ruiz got the hero run to 22.4% MFU with the attention kernel fix."
    )
    result = ground(text, [mfu])
    assert result.markdown == (
        "Ana Ruiz got the hero run to 22.4% MFU with the attention kernel fix."
    )
    assert result.removed == [
        "sentence 'The hero run was cancelled and the team is moving to TPUs.' "
        "(its words are not in the sources)"
    ]


def test_paraphrase_and_short_lines_pass_the_word_check() -> None:
    saves = msg("Checkpoint saves are 3.5x faster after #9123", author="Ben Cho")
    text = "Ben Cho made saving checkpoints 3.5x faster (#9123).\nAlso merged:"
    assert ground(text, [saves], default_repo="lab/main").removed == []


def test_link_targets_must_come_from_the_sources() -> None:
    sources = [
        msg("Design doc: https://docs.example.org/iris-plan. Landed #9141", author="Ana Ruiz"),
    ]
    text = (
        "Ana Ruiz landed [#9141](https://github.com/lab/main/pull/9141) "
        "([plan](https://docs.example.org/iris-plan)).\n"
        "Ana Ruiz landed [#9141](https://evil.example.com/x) per https://evil.example.com/y."
    )
    result = ground(text, sources, default_repo="lab/main")
    assert result.markdown == (
        "Ana Ruiz landed [#9141](https://github.com/lab/main/pull/9141) "
        "([plan](https://docs.example.org/iris-plan)).\n"
        "Ana Ruiz landed #9141 per ."
    )
    assert result.removed == [
        "link 'https://evil.example.com/x' (not in the sources)",
        "link 'https://evil.example.com/y' (not in the sources)",
    ]


def test_a_pr_link_may_use_the_issues_or_pull_page_and_the_permalink_counts() -> None:
    source = msg("Landed #9141 for the scheduler", permalink="https://chat.example/m/1")
    text = (
        "Ana Ruiz landed [#9141](https://github.com/lab/main/issues/9141) for the scheduler "
        "([thread](https://chat.example/m/1))."
    )
    assert ground(text, [source], default_repo="lab/main").removed == []
