"""A message that quotes an earlier one answers it: a reply, and a sign the quoted one is news."""

from __future__ import annotations

from factories import msg
from test_extractive import draft

from summarizer.quotes import quoted_replies

STATEMENT = (
    "Reading both papers, annealing is a poor fit for splitting one search across "
    "many machines, while a population of genomes splits naturally"
)


def test_a_quoting_message_replies_to_the_quoted_one_which_counts_the_reply() -> None:
    said = msg(STATEMENT, author="Ana Ruiz", channel="data", minutes=1, id="said")
    other = msg("the cluster is back up", author="Ben Cho", channel="data", minutes=2)
    answer = msg(
        "> annealing is a poor fit for splitting one search across many machines\n"
        "so we go with the genetic one?",
        author="Ben Cho",
        channel="data",
        minutes=3,
    )
    found = quoted_replies([said, other, answer])
    assert found[2].reply_to_id == "said"
    assert found[0].replies == said.replies + 1
    assert found[1] == other


def test_short_quotes_own_quotes_and_other_channels_link_nothing() -> None:
    said = msg(STATEMENT, author="Ana Ruiz", channel="data", minutes=1)
    short = msg("> a poor fit\nagreed", author="Ben Cho", channel="data", minutes=2)
    own = msg(f"> {STATEMENT}\nand the paper agrees", author="Ana Ruiz", channel="data", minutes=3)
    elsewhere = msg(f"> {STATEMENT}\nsee data", author="Ben Cho", channel="iris", minutes=4)
    found = quoted_replies([said, short, own, elsewhere])
    assert [m.reply_to_id for m in found[1:]] == [None, None, None]
    assert found[0].replies == said.replies


def test_a_conclusion_someone_quoted_to_answer_is_drafted() -> None:
    said = msg(STATEMENT, author="Ana Ruiz", channel="data", minutes=1)
    answer = msg(
        "> annealing is a poor fit for splitting one search across many machines\n"
        "so which one do we use then",
        author="Ben Cho",
        channel="data",
        minutes=30,
    )
    text = "\n".join(s.markdown for s in draft([said, answer]).sections)
    assert "poor fit for splitting one search" in text
