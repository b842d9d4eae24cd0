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


def test_the_items_cover_every_pr_the_extractive_draft_cites() -> None:
    """The LLM drafter writes from the items: it can cover all the extractive draft covers,
    PRs in list lines, beside code blocks, behind bare links and in integration posts too."""
    messages = [
        msg("RL PRs are up:\n• #8551 + #8562: a dashboard for RL runs", channel="rl"),
        msg("CLI cleanup is in (#8364). the verbs:\n```\ncli job cancel\n```", channel="iris"),
        msg("another one:\nhttps://github.com/lab/main/pull/8516\nprunes a prefix", channel="iris"),
        msg(
            "[lab/main] Pull request merged: #8498 Bump NCCL to 2.29",
            channel="hero-run",
            author="GitHub",
            is_bot=True,
        ),
        msg("Hero run at 22.4% MFU after #8499 landed", channel="hero-run", author="Ben Cho"),
    ]
    grouped = group_by_topic(messages, TOPICS)
    drafted = {ref for s in draft_sections(grouped, TOPICS, 300) for ref in s.prs}
    itemised = {
        p.ref for items in work_items(grouped, TOPICS).values() for i in items for p in i.prs
    }
    assert len(drafted) == 6 and drafted <= itemised


def test_a_welcome_is_an_item_saying_who_was_welcomed_not_who_welcomed() -> None:
    welcome = msg(
        "Please welcome Hana Kim, who joins us as a PhD student in the speech group.",
        author="Ana Ruiz",
    )
    (item,) = work_items(group_by_topic([welcome], TOPICS), TOPICS)["introductions"]
    said = "Ana Ruiz welcomed Hana Kim, who joins the team as a PhD student in the speech group."
    assert item.bullet == f"- {said}"
    assert [fact.text for fact in item.facts] == [said]
