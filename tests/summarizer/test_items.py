"""Work items as plain data: what the extractive drafter writes from, for other drafters."""

from __future__ import annotations

from factories import TOPICS, msg

from summarizer.extractive import draft_sections
from summarizer.grouping import group_by_topic
from summarizer.items import ItemFact, work_items


def test_each_item_has_its_facts_prs_figures_people_and_bullet() -> None:
    messages = [
        msg("Fixed the checkpoint stall in #9141, saves now take 40 s", channel="hero-run"),
        msg(
            "Hero run reached 22.4% MFU on the new racks",
            channel="hero-run",
            author="Ben Cho",
            id="b1",
        ),
        msg(
            "Hi all, I'm Chen Li, a compiler engineer in Taipei",
            channel="introductions",
            author="Chen Li",
        ),
    ]
    grouped = group_by_topic(messages, TOPICS)
    items = work_items(grouped, TOPICS)
    hero = {item.people[0]: item for item in items["hero-run"]}
    fix = hero["Ana Ruiz"]
    assert fix.prs[0].ref == "lab/main#9141"
    assert fix.prs[0].url == "https://github.com/lab/main/pull/9141"
    assert fix.figures == ("40 s",) and fix.sources == (messages[0].id,)
    assert fix.facts[0] == ItemFact(
        "Fixed the checkpoint stall in #9141, saves now take 40 s",
        "Ana Ruiz",
        messages[0].id,
        ("lab/main#9141",),
        ("40 s",),
    )
    assert hero["Ben Cho"].facts[0].message_id == "b1"
    # The bullets are the extractive drafter's own.
    section = next(s for s in draft_sections(grouped, TOPICS, 5000) if s.topic == "hero-run")
    assert {item.bullet for item in items["hero-run"]} == set(section.markdown.splitlines())
    (newcomer,) = items["introductions"]
    assert newcomer.people == ("Chen Li",) and "compiler engineer" in newcomer.bullet
    assert "Taipei" in newcomer.facts[0].text
