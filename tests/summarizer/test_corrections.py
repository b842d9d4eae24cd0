"""A value its author corrected in a reply is drafted as corrected."""

from __future__ import annotations

from datetime import date

from factories import TOPICS, msg

from summarizer.corrections import corrected
from summarizer.draft import make_draft


def _drafted(*messages) -> str:
    summary = make_draft(
        messages,
        TOPICS,
        workspace="Lab",
        week_start=date(2026, 11, 16),
        title="Week",
        max_chars=12000,
    )
    return "\n".join(s.markdown for s in summary.sections)


def test_a_figure_corrected_in_its_thread_is_drafted_corrected() -> None:
    post = msg(
        "the scheduler landed (#2214). on the 96-sample benchmark wall time went from "
        "6h12m to 4h14m, with zero OOM kills",
        channel="iris",
        id="p1",
        thread_id="p1",
    )
    fixed = msg(
        "correction: wall time is *4h41m*, not 4h14m, I transposed the digits",
        channel="iris",
        thread_id="p1",
    )
    text = _drafted(post, fixed)
    assert "6h12m to 4h41m" in text
    assert "4h14m" not in text and "correction" not in text.casefold()


def test_a_correction_giving_only_the_new_figure_replaces_the_one_of_its_unit() -> None:
    post = msg(
        "#412 is merged: payloads went from 1.9 KB to 1.17 KB per round, about 40% smaller",
        channel="data",
        id="p2",
    )
    fixed = msg("correction, 38% (1.90 → 1.17). rounded the wrong way", reply_to_id="p2")
    text = corrected([post, fixed])
    assert [m.text for m in text] == [
        "#412 is merged: payloads went from 1.9 KB to 1.17 KB per round, about 38% smaller"
    ]


def test_a_time_corrected_in_a_reply_reads_corrected_and_others_corrections_do_not() -> None:
    night = msg("Build Night: Friday Oct 30, 7–10pm, Main Hall", id="p3", author="Gabi")
    fixed = msg(
        "correction: it starts at *6pm*, not 7. still ends at 10", reply_to_id="p3", author="Gabi"
    )
    talk = msg("the talk is at 5pm in room 12", id="p4", author="Bo")
    doubt = msg("correction: 6pm, not 5pm", reply_to_id="p4", author="Cy")
    vague = msg("we had 12 people, not bad for a Friday", reply_to_id="p4", author="Bo")
    kept = corrected([night, fixed, talk, doubt, vague])
    assert [m.text for m in kept] == [
        "Build Night: Friday Oct 30, 6pm–10pm, Main Hall",
        "the talk is at 5pm in room 12",
        "correction: 6pm, not 5pm",
        "we had 12 people, not bad for a Friday",
    ]
