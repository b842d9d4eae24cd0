"""A link and its comment sent as two messages are read, placed and drafted as one share."""

from __future__ import annotations

from factories import TOPICS, msg
from test_extractive import draft

from summarizer.grouping import group_by_topic
from summarizer.link_comments import joined_link_comments

SLIDES = "https://example.org/talks/tokenizer-deep-dive"


def test_a_comment_typed_just_after_its_link_is_one_bullet_with_the_link() -> None:
    link = msg(f"{SLIDES}\nTokenizer deep dive", minutes=10, id="link")
    comment = msg("slides from the tokenizer talk on Thursday, recording to follow", minutes=11)
    d = draft([link, comment])
    text = "\n".join(s.markdown for s in d.sections)
    assert "slides from the tokenizer talk" in text.lower()
    assert SLIDES in text
    assert text.count("\n- ") + text.startswith("- ") == 1  # one bullet, not a link and a line
    assert [s.topic for s in d.sections] == ["data"]  # the comment's keyword places the link
    assert "link" in d.sections[0].sources


def test_a_comment_typed_just_before_its_link_comes_first() -> None:
    [share] = joined_link_comments(
        [msg("the dedup report for the web shard", minutes=1), msg(SLIDES, minutes=2)]
    )
    assert share.text == f"the dedup report for the web shard {SLIDES}"


def test_messages_far_apart_or_by_two_people_stay_apart() -> None:
    later = [msg(SLIDES, minutes=20), msg("worth a read before the dedup sync", minutes=25)]
    others = [
        msg(SLIDES, minutes=30, author="Ana Ruiz"),
        msg("worth a read before the dedup sync", minutes=31, author="Ben Cho"),
    ]
    assert len(joined_link_comments(later)) == 2
    assert len(joined_link_comments(others)) == 2


def test_the_nearer_comment_is_the_links_and_the_other_stays_a_message() -> None:
    before = msg("we should show the tokenizer numbers at the sync", minutes=40)
    messages = [
        before,
        msg(SLIDES, minutes=42),
        msg("is the sheet with this week's tokenizer numbers", minutes=42),
    ]
    joined = joined_link_comments(messages)
    assert [m.text for m in joined] == [
        before.text,
        f"The sheet with this week's tokenizer numbers: {SLIDES}",
    ]


def test_a_long_message_after_a_link_is_not_its_comment() -> None:
    quote = (
        "From that post, the part that matters:\n> the tokenizer is trained on a sample of "
        "the corpus\n> and its vocabulary is fixed before training starts"
    )
    assert len(joined_link_comments([msg(SLIDES, minutes=50), msg(quote, minutes=51)])) == 2


def test_a_joined_share_goes_to_one_topic() -> None:
    grouped = group_by_topic(
        [msg(SLIDES, minutes=60, id="s"), msg("the new tokenizer benchmark", minutes=61)],
        TOPICS,
    )
    assert [m.id for m in grouped["data"]] == ["s"]
    assert grouped["other"] == []


def test_a_comment_going_on_from_its_link_says_what_the_link_is() -> None:
    [share] = joined_link_comments(
        [msg(SLIDES, minutes=1), msg("is a form to share an email for a signup", minutes=2)]
    )
    assert share.text == f"A form to share an email for a signup: {SLIDES}"
