"""Evaluating a draft against the summary its editors published."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from summarizer.evaluate import (
    cut_sentences,
    evaluate,
    report,
    rouge_n,
    split_paragraphs,
    split_sections,
    word_count,
)
from summarizer.prrefs import normalise, parse_pr_refs
from summarizer.render import to_markdown
from summarizer.types import DraftSummary, Section

EXAMPLE = (
    Path(__file__).resolve().parents[3]
    / "shared"
    / "examples"
    / "week-2026-08-10-published-summary.md"
)
REPO = "marin-community/marin"

HERO = "The hero run reached 23.9% MFU with #9170, guarded by #9141. Ana Ruiz led it."
IRIS = "Preemption now respects gang bands (#9140); median wait fell to 1.1 min. Bo Chen."
DATA = "Dedup audit (#9128) found 98.7% precision over 600 pairs."


def doc(title: str, **sections: str) -> str:
    """A summary in the drafts' Markdown: "# title", then a "## " block per section."""
    parts = [f"# {title}"] + [
        f"## {name.replace('_', ' ')}\n\n{body}" for name, body in sections.items()
    ]
    return "\n\n".join(parts) + "\n"


# --- splitting ---------------------------------------------------------------------------


def test_split_sections_drops_the_title_and_keeps_the_preamble() -> None:
    text = (
        "# Week\n\nIntro line.\n\n## Hero run\n\nBody one.\n\n### Detail\n\nMore.\n\n"
        "## Iris\n\nTwo.\n"
    )
    assert split_sections(text) == {
        "": "Intro line.",
        "Hero run": "Body one.\n\n### Detail\n\nMore.",
        "Iris": "Two.",
    }


def test_split_sections_without_preamble_headings_in_code_and_repeated_titles() -> None:
    text = "# Week\n\n## A\n\n```\n## not a heading\n```\n\n## A\n\nagain\n"
    assert split_sections(text) == {"A": "```\n## not a heading\n```", "A (2)": "again"}
    assert split_sections("") == {}
    assert split_sections("# Only a title\n") == {}


def test_split_paragraphs_drops_a_title_line_and_comments() -> None:
    text = (
        "<!-- a note -->\nMarin: Week of August 10th summary\n\n"
        "First para.\nStill first.\n\n\nSecond.\n"
    )
    assert split_paragraphs(text) == {"¶1": "First para.\nStill first.", "¶2": "Second."}
    # A first paragraph that reads as a sentence is kept.
    assert split_paragraphs("Short first paragraph.\n\nSecond.") == {
        "¶1": "Short first paragraph.",
        "¶2": "Second.",
    }


# --- recall ------------------------------------------------------------------------------


def test_a_draft_identical_to_the_reference_scores_full_marks() -> None:
    text = doc("Week", Hero_run=HERO, Iris=IRIS, Data=DATA)
    result = evaluate(text, text, people=["Ana Ruiz", "Bo Chen"], default_repo=REPO)
    assert (result.pr_recall, result.people_recall, result.figure_recall) == (1.0, 1.0, 1.0)
    assert result.placement == 1.0 and (result.placed, result.placeable) == (4, 4)
    assert [(s.title, s.reference_title, s.change) for s in result.sections] == [
        ("Hero run", "Hero run", 0.0),
        ("Iris", "Iris", 0.0),
        ("Data", "Data", 0.0),
    ]
    assert result.missing_prs == result.missing_people == result.extra_prs == []


def test_a_number_that_counts_something_else_is_no_reference_pr() -> None:
    reference = doc("Week", Field_day="Generator #2 ran dry at 3am; 1,392 contacts logged.")
    draft = doc("Week", Field_day="1,392 contacts logged.")
    result = evaluate(draft, reference)
    assert (result.prs_found, result.prs_total, result.pr_recall) == (0, 0, 1.0)


def test_partial_recall_is_the_exact_share_and_lists_what_is_missing() -> None:
    reference = doc(
        "Week",
        Hero_run="Ana Ruiz took the run to 23.9% MFU (#101, #102). Bo Chen fixed #103.",
        Data="Cy Diaz sped up the shuffle 3× with #104.",
    )
    draft = doc(
        "Week",
        Hero_run="Ana Ruiz: 23.9% MFU with #101 and #102, also #107.",
        Data="Bo Chen fixed #103 and the shuffle got faster.",
    )
    result = evaluate(draft, reference, people=["Ana Ruiz", "Bo Chen", "Cy Diaz", "Di Ng"])
    assert result.pr_recall == 3 / 4
    assert result.missing_prs == ["#104"]
    assert result.extra_prs == ["#107"]
    assert result.people_recall == 2 / 3  # Di Ng is known but not in the reference
    assert result.missing_people == ["Cy Diaz"]
    assert result.figure_recall == 1 / 2
    assert result.missing_figures == ["3×"]
    assert (result.prs_found, result.prs_total, result.people_total) == (3, 4, 3)


def test_prs_are_compared_after_normalising_with_the_default_repo_and_aliases() -> None:
    reference = "# W\n\n## A\n\nLanded #12, MarinSkyRL#5 and openxla/xla#7.\n"
    draft = (
        "# W\n\n## A\n\nLanded [#12](https://github.com/marin-community/marin/pull/12), "
        "https://github.com/marin-community/MarinSkyRL/pull/5 and `#99` in code.\n"
    )
    aliases = {"MarinSkyRL": "marin-community/MarinSkyRL"}
    result = evaluate(draft, reference, default_repo=REPO, repo_aliases=aliases)
    assert result.missing_prs == ["openxla/xla#7"]
    assert result.extra_prs == []  # "#99" is inside code: not a citation
    # Without a default repo, a bare "#12" still matches a link to some repo's PR 12.
    assert evaluate(draft, reference).pr_recall == 2 / 3


def test_people_are_whole_words_and_the_longest_known_name_wins() -> None:
    reference = "# W\n\n## A\n\nWill Held and Tim O’Donnell shipped it; Williams reviewed.\n"
    draft = "# W\n\n## A\n\nTim O'Donnell shipped it with Will.\n"
    result = evaluate(draft, reference, people=["Will", "Will Held", "Tim O'Donnell"])
    # "Will" alone is not in the reference: not in "Will Held", not in "Williams".
    assert result.missing_people == ["Will Held"]
    assert result.people_recall == 1 / 2


def test_figures_must_appear_verbatim_not_inside_a_longer_number() -> None:
    reference = "# W\n\n## A\n\nMFU went to 20% and throughput to 850 tokens/s.\n"
    draft = "# W\n\n## A\n\nMFU went to 120% and throughput to 1,850 tokens/s.\n"
    result = evaluate(draft, reference)
    assert result.figure_recall == 0.0
    assert result.missing_figures == ["20%", "850 tokens/s"]


def test_an_amount_of_money_is_a_figure() -> None:
    reference = "# W\n\n## A\n\nThe dean covers the $1,200 room fee; tickets are £5.\n"
    draft = "# W\n\n## A\n\nThe dean covers the room fee; tickets are £5.\n"
    assert evaluate(draft, reference).missing_figures == ["1,200"]


def test_a_duration_in_hours_and_minutes_is_a_figure() -> None:
    reference = "# W\n\n## A\n\nThe helmet took 41h12m; the pipeline went from 6h12m to 3m10s.\n"
    draft = "# W\n\n## A\n\nThe helmet print finished; the pipeline went from 6h12m to 3m10s.\n"
    assert evaluate(draft, reference).missing_figures == ["41h12m"]


def test_a_time_taken_is_a_figure_and_a_clock_time_is_not() -> None:
    reference = (
        "# W\n\n## A\n\nThe record fell to 1:12:48.300 and the relay to 31:02.450; the "
        "server went down at 2026-10-12 14:02:33 and came back at 14:40:00 UTC.\n"
    )
    draft = "# W\n\n## A\n\nThe record fell to 1:12:48.300.\n"
    assert evaluate(draft, reference).missing_figures == ["31:02.450"]


def test_a_score_said_with_what_it_changed_to_is_a_figure_and_a_version_is_not() -> None:
    reference = (
        "# W\n\n## A\n\nThe model went from 91.2 to 86.9 on GSM8K; the 3.1 to 3.2 guide and "
        "the bump from 1.2.3 to 1.2.4 are in.\n"
    )
    draft = "# W\n\n## A\n\nThe model was rescored on GSM8K.\n"
    assert evaluate(draft, reference).missing_figures == ["91.2"]


def test_how_many_came_signed_up_voted_or_downloaded_is_a_figure() -> None:
    reference = (
        "# W\n\n## A\n\n64 sign-ups in 23 teams; 41 players came; 74 votes; 31,540 this week.\n"
    )
    draft = "# W\n\n## A\n\n64 sign-ups; 41 players came.\n"
    assert evaluate(draft, reference).missing_figures == ["23 teams", "74 votes", "31,540"]


def test_editor_notes_and_the_quiet_week_placeholder_are_not_part_of_the_draft() -> None:
    draft = DraftSummary(
        "ws",
        date(2026, 11, 16),
        date(2026, 11, 23),
        "Week",
        [
            Section(
                "hero-run",
                "Hero run",
                "Landed #101.",
                drafter="llm",
                warnings=["removed a sentence citing #103:\nAna Ruiz said 99% for #104"],
            )
        ],
        notes=["GitHub details are missing for 1 PR(s): marin-community/marin#102."],
    )
    reference = "# Week\n\n## Hero run\n\nLanded #101 and #102.\n"
    markdown = to_markdown(draft)
    assert "> Note for the editor (llm): removed" in markdown
    result = evaluate(markdown, reference, people=["Ana Ruiz"], default_repo=REPO)
    assert result.missing_prs == [f"{REPO}#102"]
    assert result.extra_prs == []  # not #103 or #104 from the notes
    # "landed 1" against "landed 1 and 2": 2 matching words out of 2 + 4.
    assert result.sections[0].change == pytest.approx(1 - 2 * 2 / 6)
    quiet = DraftSummary("ws", date(2026, 11, 16), date(2026, 11, 23), "Week")
    result = evaluate(to_markdown(quiet), reference, default_repo=REPO)
    assert result.sections == []
    assert result.pr_recall == 0.0
    assert result.unmatched_reference == ["Hero run"]
    assert "The draft has no sections." in report(result)


# --- sections ----------------------------------------------------------------------------


def test_placement_counts_prs_the_draft_puts_under_the_wrong_section() -> None:
    reference = doc("Week", Hero_run="Landed #101 and #102.", Iris="Shipped #103.")
    right = doc("Week", Hero_run="Landed #101, then #102.", Iris="Shipped #103.")
    wrong = doc("Week", Hero_run="Landed #101.", Iris="Shipped #103, and #102 too.")
    assert evaluate(right, reference).placement == 1.0
    result = evaluate(wrong, reference)
    assert result.pr_recall == 1.0
    assert result.placement == 2 / 3 and (result.placed, result.placeable) == (2, 3)


def test_sections_match_by_title_case_insensitively_else_by_shared_prs() -> None:
    reference = doc("Week", HERO_RUN=HERO, Scheduling=IRIS)
    draft = doc("Week", Hero_run=HERO, Iris=IRIS, Misc="Lunch was great on Tuesday.")
    result = evaluate(draft, reference, topics={"hero run": "hero-run", "Iris": "iris"})
    assert [(s.topic, s.reference_title) for s in result.sections] == [
        ("hero-run", "HERO RUN"),
        ("iris", "Scheduling"),
        ("misc", None),  # no topic given: an id made from the title
    ]
    assert result.sections[2].change == 1.0
    assert result.placement == 1.0


def test_change_is_zero_when_untouched_and_high_when_rewritten() -> None:
    reference = doc(
        "Week",
        Hero_run=HERO,
        Iris="Scheduling: the whole band logic was redone by the team after a long review "
        "and now behaves predictably for everyone involved (#9140).",
    )
    draft = doc("Week", Hero_run=f"**{HERO}**", Iris=IRIS)  # bold markup is no change
    hero, iris = evaluate(draft, reference).sections
    assert hero.change == 0.0
    assert iris.change > 0.8
    slightly = doc("Week", Hero_run=HERO.replace("guarded", "protected"), Iris=IRIS)
    assert 0 < evaluate(slightly, reference).sections[0].change < 0.1


def test_a_prose_reference_is_split_into_paragraphs_and_matched_by_overlap() -> None:
    reference = (
        "Marin: Week of November 16th summary\n\n"
        "Scheduling got better: gang bands are respected (#9140) and waits fell to 1.1 min.\n\n"
        "On the hero run, MFU reached 23.9% with the grouped GEMM #9170; #9141 guards it.\n\n"
        "The data team audited dedup precision over 600 pairs and found it high.\n"
    )
    draft = doc("Week", Hero_run=HERO, Iris=IRIS, Data=DATA)
    result = evaluate(draft, reference, default_repo=REPO)
    assert not result.reference_headed
    assert [(s.topic, s.reference_title) for s in result.sections] == [
        ("hero-run", "¶2"),
        ("iris", "¶1"),
        ("data", "¶3"),  # no shared PR: matched by shared words
    ]
    assert result.placement == 1.0 and result.placeable == 3
    assert result.missing_prs == [] and result.extra_prs == [f"{REPO}#9128"]
    text = report(result)
    assert "Reference paragraph" in text and "¶2" in text


# --- empty cases and the report ----------------------------------------------------------


def test_an_empty_reference_has_nothing_to_recall() -> None:
    draft = doc("Week", Hero_run=HERO)
    for reference in ("", "# Week\n", "<!-- nothing yet -->\n"):
        result = evaluate(draft, reference, people=["Ana Ruiz"])
        assert result.reference_empty
        assert (result.pr_recall, result.people_recall, result.figure_recall) == (1.0, 1.0, 1.0)
        assert result.placement == 1.0 and result.placeable == 0
        assert result.sections[0].reference_title is None
        assert result.extra_prs == ["#9170", "#9141"]
        assert "The reference is empty: there is nothing to recall" in report(result)


def test_both_empty() -> None:
    result = evaluate("", "")
    assert result.sections == [] and result.pr_recall == 1.0
    text = report(result)
    assert "The draft has no sections." in text
    assert "(the reference has no PR: nothing to recall)" in text


def test_the_report_is_a_table_of_the_figures_sections_and_what_is_missing() -> None:
    reference = doc(
        "Week",
        Hero_run="Ana Ruiz: 23.9% MFU (#101, #102). Bo Chen fixed #103.",
        Data="Cy Diaz sped up the shuffle 3× with #104. "
        + " ".join(f"#{n}" for n in range(110, 130)),
    )
    draft = doc(
        "Week", Hero_run="Ana Ruiz: 23.9% MFU with #101 and #102.", Iris="Bo Chen fixed #103."
    )
    result = evaluate(draft, reference, people=["Ana Ruiz", "Bo Chen", "Cy Diaz"])
    text = report(result)
    lines = text.splitlines()
    assert " ".join(lines[0].split()) == "PR recall 12.5% 3 of 24 reference PRs cited"
    assert lines[1].startswith("People recall") and "66.7%" in lines[1]
    assert lines[2].startswith("Figure recall") and "50.0%" in lines[2]
    # The draft's Iris section shares #103 with the reference's Hero run, so it matches it.
    assert lines[3].split()[:3] == ["Placement", "100.0%", "3"]
    assert [line.split()[0] for line in lines[4:8]] == ["ROUGE-1", "Words", "Cut", "Bots"]
    assert lines[9].split() == ["Section", "Reference", "section", "Change"]
    assert lines[10].split() == ["hero-run", "Hero", "run", "30.0%"]
    assert lines[11].split()[:3] == ["iris", "Hero", "run"]
    assert "Missing PRs (21): #104, #110, #111" in text
    assert ", #123, and 6 more\n" in text  # at most 15 listed
    assert "Missing people (1): Cy Diaz" in text
    assert "Missing figures (1): 3×" in text
    assert "Reference sections no draft section matches: Data" in text


# --- the real published example ----------------------------------------------------------


@pytest.fixture(scope="module")
def example() -> str:
    if not EXAMPLE.exists():
        pytest.skip(f"{EXAMPLE} is not present (a fresh clone has no ../shared)")
    return EXAMPLE.read_text(encoding="utf-8")


PEOPLE = ["Matt Wittmann", "Rafal Wojdyla", "Will Held", "Benjamin Feuer", "Russell Power"]


def test_the_example_against_itself_is_perfect(example: str) -> None:
    paragraphs = split_paragraphs(example)
    assert len(paragraphs) == 15
    assert not any(p.startswith("Marin: Week of") for p in paragraphs.values())
    result = evaluate(example, example, people=PEOPLE, default_repo=REPO)
    assert (result.pr_recall, result.people_recall, result.figure_recall) == (1.0, 1.0, 1.0)
    assert result.placement == 1.0
    assert result.prs_total > 50 and result.people_total == len(PEOPLE)
    assert [(s.topic, s.reference_title, s.change) for s in result.sections] == [
        (key, key, 0.0) for key in paragraphs
    ]


def test_removing_a_paragraph_loses_exactly_its_prs(example: str) -> None:
    paragraphs = split_paragraphs(example)
    removed = next(k for k, p in paragraphs.items() if "cold-start" in p)
    kept = "\n\n".join(p for k, p in paragraphs.items() if k != removed)
    draft = "Marin: Week of August 10th summary\n\n" + kept

    def refs(text: str) -> list[str]:
        return [normalise(r, REPO) for r in parse_pr_refs(text)]

    lost = [r for r in refs(paragraphs[removed]) if r not in refs(kept)]
    assert lost == [f"{REPO}#8225", f"{REPO}#8171", f"{REPO}#8172"]
    result = evaluate(draft, example, people=PEOPLE, default_repo=REPO)
    assert result.missing_prs == lost
    assert result.pr_recall == (result.prs_total - 3) / result.prs_total
    assert result.extra_prs == []
    assert result.unmatched_reference == [removed]
    assert result.placement == 1.0
    assert all(s.change == 0.0 and s.reference_title != removed for s in result.sections)


# --- text figures ------------------------------------------------------------------------


def test_word_count_ignores_link_targets_comments_and_notes() -> None:
    text = (
        "<!-- draft -->\n## Hero run\n\n- **Ana Ruiz** fixed it ([#12](https://x.io/pull/12)).\n\n"
        "> Note for the editor: ignore me please\n"
    )
    assert word_count(text) == 7  # Hero run Ana Ruiz fixed it 12
    assert word_count("") == 0


def test_word_count_leaves_out_a_links_hover_title() -> None:
    titled = '- Fixed it ([#12](https://x.io/pull/12 "Fix the loader, by ana")).'
    assert word_count(titled) == 3  # Fixed it 12


def test_rouge_n_f1() -> None:
    assert rouge_n("the cat sat", "the cat sat", 1) == 1.0
    assert rouge_n("the cat sat", "the cat sat", 2) == 1.0
    assert rouge_n("a b", "c d", 1) == 0.0
    assert rouge_n("", "c d", 2) == 0.0
    # Candidate "the cat" against "the cat sat": unigrams P=1, R=2/3; bigrams P=1, R=1/2.
    assert rouge_n("The cat", "the cat sat", 1) == pytest.approx(0.8)
    assert rouge_n("The cat", "the cat sat", 2) == pytest.approx(2 / 3)
    # Counts are clipped: a repeated word is matched at most as often as the reference has it.
    assert rouge_n("the the the", "the cat", 1) == pytest.approx(2 * (1 / 3) * 0.5 / (1 / 3 + 0.5))


def test_cut_sentences() -> None:
    text = (
        "# Title\n\n## Hero run\n\n"
        "- **Ana** raised the fanout from 64 to 1024 ([#8486](https://x.io/8486)).\n"
        "- **Bo** introduced himself: I work on genomic models and…\n"
        "- **Cy** said to tweak them: **Dee**: looks right.\n"
        "- **Eve** asked whether it works\n"
        "- **Fay** shipped it (finally!)\n"
        "- ハル: よろしくお願いします！\n"
        "- Gil swept remat (full vs. Every arm ran `f(x` on one node.\n"
        "A paragraph wrapped\nover two lines ends here.\n"
        "```\nno punctuation in code\n```\n"
        "| a | b |\n> quoted\n"
        "Ends with dots...\n"
    )
    assert cut_sentences(text) == [
        "- **Bo** introduced himself: I work on genomic models and…",
        "- **Cy** said to tweak them: **Dee**: looks right.",
        "- **Eve** asked whether it works",
        "- Gil swept remat (full vs. Every arm ran `f(x` on one node.",
        "Ends with dots...",
    ]
    assert cut_sentences("") == []


def test_the_benchmark_figures_are_reported_too() -> None:
    reference = (
        "# Week\n\n## Hero run\n\nAna Ruiz took the run to 23.9% MFU (#8101).\n\n"
        "## Introductions\n\nBo Chen and Cy Diaz joined this week.\n"
    )
    draft = (
        "# Week\n\n## Hero run\n\n- **GitHub**: Ana Ruiz took the run to 23.9% MFU #8101 and\n\n"
        "## Introductions\n\n- **Bo Chen**, a data engineer in Lagos.\n"
    )
    result = evaluate(draft, reference, people=["Ana Ruiz", "Bo Chen", "Cy Diaz"], bots=["GitHub"])
    assert (result.newcomers_found, result.newcomers_total) == (1, 2)
    assert result.missing_newcomers == ["Cy Diaz"]
    assert result.bots_named == ["GitHub"]
    assert len(result.cut_lines) == 1
    assert 0 < result.rouge2 < result.rouge1 < 1
    assert result.reference_words < result.draft_words + 10
    text = report(result)
    assert "Newcomers" in text and "Bots named as people (1): GitHub" in text
