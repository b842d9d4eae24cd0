"""The chat-voice checker: pasted chat is told from a newsletter's sentences."""

from __future__ import annotations

import pytest

from summarizer.voice import chat_voice, items, markers


@pytest.mark.parametrize(
    ("item", "marker"),
    [
        ("**Ana Ruiz**: the loader is fixed now.", "paste"),
        ("**Ana Ruiz** wrote: The loader is fixed.", "paste"),
        ("Ana Ruiz fixed the loader, so I can rerun it.", "first person"),
        ("The team said we should rerun it.", "first person"),
        ("Ana Ruiz fixed the loader (#12) 🎉.", "emoji"),
        ("Ana Ruiz fixed the loader :tada:.", "emoji"),
        ("Ana Ruiz posted the photos:-) see the album.", "emoji"),
        ("Ana Ruiz posted the photos :D", "emoji"),
        ("Ana Ruiz fixed the loader for @ben.", "mention"),
        ("Not yet, the DirectWrite path still fails.", "reply opener"),
        ("Ana Ruiz fixed it. Thanks for the report.", "reply opener"),
        ("No, the loader still fails.", "reply opener"),
        ("the loader is fixed (#12).", "lower-case start"),
        ("Ana fixed the loader. looks like glibc was to blame.", "lower-case start"),
    ],
)
def test_each_marker_of_chat_is_found(item: str, marker: str) -> None:
    assert marker in markers(item)


@pytest.mark.parametrize(
    "item",
    [
        "Russell Power cut structured telemetry queries from ~8.5 s to ~200 ms (#8379).",
        'Ana Ruiz called it "the best run we have had" in the thread.',
        "`uv` is now the default installer (#12, Ana Ruiz).",
        "vLLM 0.9 and x86_64 0.14 were released this week.",
        "No regressions were found in the nightly evals.",
        "Ana Ruiz (University of Lagos) works on speech recognition.",
        "See [the write-up](https://example.org/a/we/my) by Ana Ruiz.",
        "Tobi Weber wrote up [60 clusters later: what we learned](https://blog.example/60).",
        "Ana Ruiz wrote to ana@example.org about the US release.",
        "Training ran at 10:30:00 UTC on 64 GPUs.",
        "The mix is 3:2 (code:prose) this week (#14).",
        "The types derive Debug, Eq etc. on every platform (#315).",
        "The loader is out. Exactly-once sinks are the default (Ana Ruiz).",
        "Thanks to everyone who filled in the survey: 1,240 responses (Ana Ruiz).",
        "The working bee is on **Sunday 24 May, 10am-1pm**: the timber rack gets cleared.",
        "The choir sings Price's Adoration (arr. for strings) on Saturday.",
        "Each flight needs an H or I motor and a stable rocket.",
        "Tasha Greene starts as a **Software Engineer I at Relay Payments** on Monday.",
        "Priya N. fixed the sheet: 13-10.",
    ],
)
def test_a_newsletters_sentences_carry_no_marker(item: str) -> None:
    assert markers(item) == ()


def test_items_are_list_items_and_prose_paragraphs() -> None:
    markdown = (
        "# Title\n\n## Section\n\n- First item\n  continues here.\n- Second item.\n\n"
        "A paragraph of prose\nover two lines.\n\n> a note\n\n```\ncode we wrote\n```\n"
    )
    assert items(markdown) == [
        "First item continues here.",
        "Second item.",
        "A paragraph of prose over two lines.",
    ]


def test_the_share_counts_items_with_any_marker() -> None:
    report = chat_voice("- Ana Ruiz fixed the loader.\n- **Ben**: we fixed it lol\n")
    assert report.items == 2
    assert report.share == 0.5
    assert report.chat[0][1] == ("paste", "first person")
