"""Members' news in a draft: placed under its topic, a line of its own that says who sent
it, never dropped by the budget, and kept when another drafter rewrites the section."""

from __future__ import annotations

from datetime import date

from factories import T0, TOPICS, msg

from summarizer.draft import make_draft
from summarizer.grouping import group_by_topic
from summarizer.news import keep_news, news_line, place_news
from summarizer.types import NewsItem, Section


def item(text: str, **kw) -> NewsItem:
    return NewsItem(kw.pop("id", "1"), kw.pop("sender", "Ana Ruiz"), text, T0, **kw)


def draft(messages, news, max_chars: int = 3000):
    return make_draft(
        messages,
        TOPICS,
        workspace="Lab",
        week_start=date(2026, 11, 9),
        title="Lab weekly",
        max_chars=max_chars,
        news=news,
    )


def test_sent_text_goes_under_the_topic_its_words_point_to() -> None:
    placed = place_news([item("The new scheduler cut preemption waits in half")], {}, TOPICS)
    assert list(placed) == ["iris"]


def test_news_with_no_evidence_goes_to_the_catch_all() -> None:
    placed = place_news([item("We have stickers now, ask at the desk")], {}, TOPICS)
    assert list(placed) == ["other"]


def test_a_marked_message_goes_where_the_drafter_placed_it() -> None:
    # Its words say Iris, but its thread is about the hero run: grouping decides.
    root = msg("hero run crashed at step 1200", channel="hero-run", id="r1", thread_id="r1")
    reply = msg("the scheduler fix is in", id="r2", thread_id="r1")
    grouped = group_by_topic([root, reply], TOPICS)
    news = item("the scheduler fix is in", message_id="r2", author="Ana Ruiz", sender="Ben Ode")
    assert list(place_news([news], grouped, TOPICS)) == ["hero-run"]


def test_the_line_says_who_sent_it_in_the_newsletter_voice() -> None:
    line = news_line(item("I released v2.1 of the loader", sender="Ben Ode", author="Ana Ruiz"))
    assert line == "- Ana Ruiz released v2.1 of the loader (sent in by Ben Ode)."
    own = news_line(item("Stickers at the desk @everyone", sender="Ben Ode"))
    assert own.endswith("(sent in by Ben Ode).") and "@everyone" not in own


def test_news_is_in_the_draft_whatever_the_budget() -> None:
    chatter = [
        msg(f"hero run checkpoint {n} saved at 41% MFU", channel="hero-run") for n in range(40)
    ]
    news = [item("The Iris scheduler now preempts by priority", sender="Ben Ode", id="7")]
    sections = {s.topic: s for s in draft(chatter, news, max_chars=200).sections}
    assert sections["iris"].markdown == (
        "- The Iris scheduler now preempts by priority (sent in by Ben Ode)."
    )
    assert "hero-run" in sections  # the drafter's own section is still there


def test_news_on_a_topic_with_a_section_joins_it_with_its_source() -> None:
    chat = msg("dedup audit finished: 3% of shards were duplicates", channel="data", id="d1")
    news = item(chat.text, message_id="d1", author="Ana Ruiz", sender="Ben Ode", channel="data")
    (section,) = [s for s in draft([chat], [news]).sections if s.topic == "data"]
    lines = section.markdown.splitlines()
    assert lines[-1].endswith("(sent in by Ben Ode).") and len(lines) >= 2
    assert section.sources.count("d1") == 1


def test_a_rewritten_section_keeps_its_news_lines() -> None:
    line = "- The Iris scheduler now preempts by priority (sent in by Ben Ode)"
    drafted = [Section("iris", "Iris", f"- The scheduler was rewritten.\n{line}")]
    rewritten = [Section("iris", "Iris", "Ana Ruiz rewrote the scheduler.", drafter="llm")]
    (kept,) = keep_news(rewritten, drafted)
    assert kept.markdown == f"Ana Ruiz rewrote the scheduler.\n{line}"
    assert keep_news(drafted, drafted) == drafted


def test_a_message_many_members_marked_is_one_line_crediting_them() -> None:
    story = msg("The Ledger story using our sensor data is out", channel="data", id="s1")
    senders = ["Ben Ode", "Mia Park", "Li Wei", "Eva Sand", "Tom Hale"]
    news = [
        item(story.text, id=str(n), sender=name, message_id="s1", author="Ana Ruiz")
        for n, name in enumerate([*senders, "Mia Park"])
    ]
    lines = [ln for s in draft([story], news).sections for ln in s.markdown.splitlines()]
    marked = [ln for ln in lines if "(sent in by" in ln]
    assert len(marked) == 1
    assert marked[0].endswith("(sent in by Ben Ode, Mia Park and 3 others).")
    two = draft([story], news[:2]).sections
    assert any(
        ln.endswith("(sent in by Ben Ode and Mia Park).")
        for s in two
        for ln in s.markdown.splitlines()
    )


def test_a_news_line_is_a_whole_sentence_and_an_older_draft_s_line_is_still_one() -> None:
    from summarizer.evaluate import cut_sentences
    from summarizer.news import is_news_line

    line = news_line(item("Stickers at the desk, ask Bo", sender="Ben Ode"))
    assert cut_sentences(line) == [] and is_news_line(line)
    assert is_news_line("- Stickers at the desk, ask Bo (sent in by Ben Ode)")
