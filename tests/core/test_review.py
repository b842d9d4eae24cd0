"""The review workflow through the fake port: draft, review thread, edits, regenerate,
approval, publishing exactly once, and every refusal."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.core.ingest import store_batch
from bot.core.port import Caller
from bot.core.privacy import on_delete
from bot.core.review import ReviewWorkflow
from bot.core.settings import change_setting
from bot.ops.config import load_config
from storage.db import make_engine, make_sessionmaker
from storage.drafts import list_drafts
from storage.models import Delivery, DraftRow, SectionRevision
from storage.privacy import REMOVED_TEXT
from storage.records import ChannelRecord, ImportBatch, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort, InjectedFailure

WEEK = date(2026, 11, 16)
T0 = datetime(2026, 11, 17, 9, tzinfo=UTC)
WORKSPACE = WorkspaceRecord("discord", "g1", "Lab")
ADMIN = Caller("U-admin", "Ada Admin", is_admin=True)
EDITOR = Caller("U-ed", "Eve Editor")
MEMBER = Caller("U-x", "Max Member")
CONFIG = load_config()


def run(coro):
    return asyncio.run(coro)


def say(channel: str, pid: str, author: str, text: str, minutes: int = 0) -> ImportBatch:
    person = PersonRecord(author.lower().replace(" ", "."), author)
    message = MessageRecord(
        pid,
        person,
        T0 + timedelta(minutes=minutes),
        text,
        permalink=f"https://chat.example/{channel}/{pid}",
    )
    return ImportBatch("test", WORKSPACE, ChannelRecord(f"c-{channel}", channel), [message])


@pytest.fixture
def week(sessions):
    """A small week, and a workspace with review and publish channels and one editor."""
    batches = [
        say("hero-run", "1", "Ana Ruiz", "Hero run hit 22.4% MFU at 243k tokens/s with #812."),
        say("hero-run", "2", "Ben Cho", "Checkpoint saves 3.5x faster after #815 landed.", 5),
        say("iris", "3", "Lu Fern", "Iris scheduler: preemption is off for CPU jobs (#820).", 9),
        say("data", "4", "Nadia Haddad", "Dedup audit: 98.7% precision on 600 pairs (#828).", 12),
        say("general", "5", "Max Member", "@everyone lunch is at noon today, see you there", 20),
    ]
    with sessions.begin() as session:
        for batch in batches:
            store_batch(session, batch)
        for key, value in [
            ("review_channel", "C-review"),
            ("publish_channels", ["C-pub", "C-pub2"]),
            ("editors", ["U-ed"]),
        ]:
            change_setting(session, CONFIG, 1, key, value, ADMIN, datetime.now(UTC))
    return sessions


def add_sweep(sessions) -> None:
    """Eight more hero-run results, so the hero section runs long."""
    with sessions.begin() as session:
        for n in range(8):
            text = f"Sweep arm {n} reached {20 + n}.1% MFU at {n + 2}x batch size (#9{n})."
            store_batch(session, say("hero-run", f"h{n}", f"Member {n}", text, 30 + n))


@pytest.fixture
def port() -> FakePort:
    return FakePort()


@pytest.fixture
def flow(week, port) -> ReviewWorkflow:
    return ReviewWorkflow(week, CONFIG, port)


def draft_of(sessions) -> DraftRow:
    with sessions() as session:
        (draft,) = list_drafts(session, 1)
        draft.sections  # noqa: B018 (load them before the session closes)
        return draft


def section(sessions, topic: str):
    return next(s for s in draft_of(sessions).sections if s.topic == topic)


def test_the_draft_is_posted_for_review_as_a_header_and_a_thread(flow, port, week) -> None:
    reply = run(flow.draft_and_post(1, WEEK))
    assert reply.ok, reply.text
    (header,) = port.in_channel("C-review")
    assert "Week 2026-11-16 to 2026-11-22: 3 sections" in header.text
    assert [b.action_id for b in header.buttons] == [
        f"approve:{draft_of(week).id}",
        f"regenerate:{draft_of(week).id}",
        f"discard:{draft_of(week).id}",
    ]
    thread = port.thread(header.posted)
    assert len(thread) == 3
    hero = section(week, "hero-run")
    assert thread[0].posted.message_id in hero.review_message_ids
    assert "22.4% MFU" in thread[0].text
    assert "[1](https://chat.example/hero-run/1)" in thread[0].text  # one click to the source
    assert [b.action_id for b in thread[0].buttons] == [f"edit:{hero.id}", f"history:{hero.id}"]
    assert draft_of(week).status == "in_review"
    assert not port.in_channel("C-pub")


def test_drafting_a_drafted_week_again_posts_nothing(flow, port) -> None:
    run(flow.draft_and_post(1, WEEK))
    before = len(port.messages)
    reply = run(flow.draft_and_post(1, WEEK + timedelta(days=3)))
    assert "already drafted" in reply.text and len(port.messages) == before


def test_a_long_section_is_split_across_messages_never_cut(week) -> None:
    with week.begin() as session:
        for n in range(8):
            store_batch(
                session,
                say(
                    "hero-run",
                    f"h{n}",
                    "Ana Ruiz",
                    f"Sweep arm {n} reached {20 + n}.1% MFU, {n}x steps (#9{n}).",
                    30 + n,
                ),
            )
    port = FakePort(max_message_chars=400)
    run(ReviewWorkflow(week, CONFIG, port).draft_and_post(1, WEEK))
    hero = section(week, "hero-run")
    assert len(hero.review_message_ids) > 1
    texts = [port.messages[m].text for m in hero.review_message_ids]
    assert all(len(t) <= 400 for t in texts)
    assert "243k tokens/s" in " ".join(texts)
    assert port.messages[hero.review_message_ids[-1]].buttons  # buttons on the last chunk


def test_editing_twice_keeps_revisions_and_updates_the_thread(flow, port, week) -> None:
    run(flow.draft_and_post(1, WEEK))
    hero = section(week, "hero-run")
    run(flow.open_editor(1, EDITOR, hero.id, "trigger-1"))
    assert port.editors_opened == [("trigger-1", hero.id, "Hero run", hero.markdown)]
    assert run(flow.edit_section(1, EDITOR, hero.id, "Ana's run reached 22.4% MFU.")).ok
    reply = run(flow.edit_section(1, EDITOR, hero.id, "The hero run reached 22.4% MFU (#812)."))
    assert reply.text == "Hero run (section 1 of draft 1) updated (revision 2)."
    message = port.messages[hero.review_message_ids[0]]
    assert "The hero run reached 22.4% MFU (#812)." in message.text and message.edits == 2
    history = run(flow.history(1, EDITOR, hero.id)).text
    assert history.count("Eve Editor") == 2 and "Ana's run reached" in history


def test_regenerate_brings_in_late_messages_but_keeps_edited_sections(flow, port, week) -> None:
    run(flow.draft_and_post(1, WEEK))
    hero = section(week, "hero-run")
    run(flow.edit_section(1, EDITOR, hero.id, "Edited by hand."))
    with week.begin() as session:
        store_batch(
            session,
            say(
                "iris", "6", "Lu Fern", "Iris node agent exports XID counts every 15 s (#831).", 60
            ),
        )
        store_batch(session, say("hero-run", "7", "Ana Ruiz", "Late: 23.9% MFU on #833.", 61))
    reply = run(flow.regenerate(1, EDITOR, draft_of(week).id))
    assert "1 edited section kept as the editors left it" in reply.text
    assert section(week, "hero-run").markdown == "Edited by hand."
    iris = section(week, "iris")
    assert "#831" in iris.markdown
    assert "#831" in port.messages[iris.review_message_ids[0]].text  # thread shows it too


def test_approve_publishes_to_every_channel_once_and_pings_nobody(flow, port, week) -> None:
    run(flow.draft_and_post(1, WEEK))
    reply = run(flow.approve(1, EDITOR, draft_of(week).id))
    assert reply.ok, reply.text
    for channel in ("C-pub", "C-pub2"):
        text = "\n".join(m.text for m in port.in_channel(channel))
        assert text.startswith("# Lab: Week of November 16th summary")
        assert "22.4% MFU" in text
        assert not re.search(r"@(everyone|here)\b|<@|<!", text)
    draft = draft_of(week)
    assert (draft.status, draft.approved_by) == ("published", "Eve Editor")
    assert draft.published_markdown.startswith("# Lab: Week of November 16th summary")
    assert "Approved by Eve Editor" in port.in_channel("C-review")[0].text


def test_a_publish_interrupted_after_the_second_chunk_resumes_without_duplicates(week) -> None:
    add_sweep(week)
    port = FakePort(max_message_chars=400)
    flow = ReviewWorkflow(week, CONFIG, port)
    run(flow.draft_and_post(1, WEEK))
    draft_id = draft_of(week).id
    port.fail("post", after=2)
    with pytest.raises(InjectedFailure):
        run(flow.approve(1, EDITOR, draft_id))
    assert len(port.in_channel("C-pub")) == 2
    assert draft_of(week).status == "approved"  # approved, not yet published

    assert run(flow.publish(draft_id)).ok
    first = [m.text for m in port.in_channel("C-pub")]
    second = [m.text for m in port.in_channel("C-pub2")]
    assert first == second and len(first) > 2 and len(set(first)) == len(first)
    with week() as session:
        count = session.scalar(select(func.count()).select_from(Delivery))
    assert count == 2 * len(first)
    before = len(port.messages)
    run(flow.publish(draft_id))  # publishing again posts nothing
    assert len(port.messages) == before


def test_refusals_change_nothing(flow, port, week) -> None:
    run(flow.draft_and_post(1, WEEK))
    draft = draft_of(week)
    hero = section(week, "hero-run")
    posts = len(port.messages)

    reply = run(flow.approve(1, MEMBER, draft.id))
    assert not reply.ok and reply.text == "Only editors can approve the summary."
    reply = run(flow.edit_section(1, MEMBER, hero.id, "vandalism"))
    assert not reply.ok and reply.text == "Only editors can edit the summary."
    assert not run(flow.regenerate(1, MEMBER, draft.id)).ok
    assert not run(flow.discard(1, MEMBER, draft.id)).ok
    refused = run(flow.open_editor(1, MEMBER, hero.id, "t"))
    assert refused.text == "Only editors can edit the summary."
    assert not run(flow.edit_section(1, EDITOR, 999, "x")).ok
    empty = run(flow.edit_section(1, EDITOR, hero.id, "   "))
    assert empty.text.startswith("The new text is empty")
    assert (
        draft_of(week).status == "in_review" and section(week, "hero-run").markdown == hero.markdown
    )
    assert len(port.messages) == posts and not port.editors_opened

    run(flow.approve(1, EDITOR, draft.id))
    reply = run(flow.edit_section(1, EDITOR, hero.id, "too late"))
    assert not reply.ok
    assert reply.text == (
        "The summary of the week of 2026-11-16 is already published; it can no longer be edited."
    )
    assert not run(flow.regenerate(1, EDITOR, draft.id)).ok
    with week() as session:
        assert session.scalar(select(func.count()).select_from(SectionRevision)) == 0


def test_approval_needs_a_publish_channel(week, port) -> None:
    with week.begin() as session:
        change_setting(session, CONFIG, 1, "publish_channels", [], ADMIN, datetime.now(UTC))
    flow = ReviewWorkflow(week, CONFIG, port)
    run(flow.draft_and_post(1, WEEK))
    reply = run(flow.approve(1, EDITOR, draft_of(week).id))
    assert not reply.ok and "No publish channel is set" in reply.text
    assert draft_of(week).status == "in_review"


def test_a_quiet_week_posts_a_short_note(flow, port, week) -> None:
    reply = run(flow.draft_and_post(1, date(2026, 11, 2)))
    assert "quiet" in reply.text
    (note,) = port.in_channel("C-review")
    assert "A quiet week: nothing worth summarising was logged" in note.text
    assert not port.thread(note.posted)


def test_an_interrupted_review_post_resumes_without_duplicates(flow, port, week) -> None:
    port.fail("reply", after=1)
    with pytest.raises(InjectedFailure):
        run(flow.draft_and_post(1, WEEK))
    run(flow.post_for_review(draft_of(week).id))
    (header,) = port.in_channel("C-review")
    assert len(port.thread(header.posted)) == 3
    assert draft_of(week).status == "in_review"


def test_two_processes_racing_produce_one_draft(week, database_url) -> None:
    """Two workflows with their own engines, as two bot processes on one database."""
    engines = [make_engine(database_url) for _ in range(2)]
    ports = [FakePort(), FakePort()]
    flows = [
        ReviewWorkflow(make_sessionmaker(e), CONFIG, p) for e, p in zip(engines, ports, strict=True)
    ]

    async def race():
        return await asyncio.gather(*(f.draft_and_post(1, WEEK) for f in flows))

    replies = run(race())
    for engine in engines:
        engine.dispose()
    with week() as session:
        assert session.scalar(select(func.count()).select_from(DraftRow)) == 1
    assert sum(len(p.in_channel("C-review")) for p in ports) == 1
    assert any("already drafted" in r.text or "another process" in r.text for r in replies)


def test_a_deleted_source_blocks_approval_until_an_edit_and_never_publishes(
    flow, port, week
) -> None:
    run(flow.draft_and_post(1, WEEK))
    run(on_delete(flow, 1, "1", T0 + timedelta(days=1)))  # Ana's hero-run message
    hero = section(week, "hero-run")
    assert hero.markdown == REMOVED_TEXT and "22.4% MFU" not in hero.markdown
    refused = run(flow.approve(1, EDITOR, draft_of(week).id))
    assert not refused.ok and "Hero run: a source message was deleted: 1" in refused.text
    assert not port.in_channel("C-pub")
    assert run(flow.edit_section(1, EDITOR, hero.id, "Checkpoints save 3.5x faster.")).ok
    assert run(flow.approve(1, EDITOR, draft_of(week).id)).ok
    published = draft_of(week).published_markdown
    assert "22.4% MFU" not in published and "3.5x faster" in published


def test_regenerate_redrafts_a_section_whose_text_was_removed(flow, week) -> None:
    run(flow.draft_and_post(1, WEEK))
    hero = section(week, "hero-run")
    run(flow.edit_section(1, EDITOR, hero.id, "Edited: 22.4% MFU and faster checkpoints."))
    run(on_delete(flow, 1, "1", T0 + timedelta(days=1)))
    assert run(flow.regenerate(1, EDITOR, draft_of(week).id)).ok
    hero = section(week, "hero-run")
    assert hero.flags == [] and "22.4% MFU" not in hero.markdown
    assert "3.5x" in hero.markdown  # drafted again from the messages left


def quiet_workspace(sessions, settings: dict) -> None:
    """The workspace, with nothing logged in the week of WEEK, and `settings`."""
    with sessions.begin() as session:
        store_batch(session, say("general", "0", "Ana Ruiz", "hello", minutes=-20_000))
        for key, value in settings.items():
            change_setting(session, CONFIG, 1, key, value, ADMIN, datetime.now(UTC))


def test_a_quiet_draft_made_before_the_weeks_messages_were_logged_is_drafted_again(
    sessions, port
) -> None:
    """A first start drafts last week before any channel is logged: a quiet note. Once the
    history is in, `/summary draft` (or the schedule) drafts the week for real."""
    quiet_workspace(sessions, {"review_channel": "C-review", "editors": ["U-ed"]})
    flow = ReviewWorkflow(sessions, CONFIG, port)
    assert "quiet" in run(flow.draft_and_post(1, WEEK)).text
    (note,) = port.in_channel("C-review")
    with sessions.begin() as session:
        store_batch(session, say("hero-run", "1", "Ana Ruiz", "Hero run hit 22.4% MFU (#812)."))
        store_batch(session, say("iris", "3", "Lu Fern", "Iris preemption is off for CPU (#820)."))

    reply = run(flow.draft_and_post(1, WEEK, post_stored=True))
    assert reply.ok, reply.text
    assert "was quiet when drafted and now has 2 logged messages, so it was drafted again" in (
        reply.text
    )
    assert "up for review" in reply.text
    (header,) = port.in_channel("C-review")  # the quiet note became the header
    assert header.posted == note.posted and "A quiet week" not in header.text
    assert "2 sections" in header.text
    assert [b.label for b in header.buttons][:2] == ["Approve", "Regenerate"]
    assert "22.4% MFU" in "\n".join(m.text for m in port.thread(header.posted))
    assert draft_of(sessions).status == "in_review"
    assert "already drafted" in run(flow.draft_and_post(1, WEEK)).text


def test_a_quiet_week_whose_messages_are_all_chatter_stays_quiet(sessions, port) -> None:
    quiet_workspace(sessions, {"review_channel": "C-review"})
    flow = ReviewWorkflow(sessions, CONFIG, port)
    run(flow.draft_and_post(1, WEEK))
    with sessions.begin() as session:
        store_batch(session, say("general", "9", "Max Member", "lol"))
    reply = run(flow.draft_and_post(1, WEEK))
    assert "drafted again from the 1 message logged for it: nothing worth summarising" in (
        reply.text
    )
    (note,) = port.in_channel("C-review")
    assert "A quiet week" in note.text and not note.buttons


def test_a_week_already_drafted_says_how_to_draft_it_again(flow, port, week) -> None:
    run(flow.draft_and_post(1, WEEK))
    again = run(flow.draft_and_post(1, WEEK)).text
    draft_id = draft_of(week).id
    assert f"drafted (draft {draft_id}, in review); `/summary regenerate` drafts it again" in again
    run(flow.discard(1, EDITOR, draft_id))
    gone = run(flow.draft_and_post(1, WEEK)).text
    assert gone == f"The week of 2026-11-16 is already drafted (draft {draft_id}, discarded)."


def test_the_header_counts_one_section_pr_and_person_in_the_singular(sessions, port) -> None:
    quiet_workspace(sessions, {"review_channel": "C-review"})
    with sessions.begin() as session:
        store_batch(session, say("hero-run", "1", "Ana Ruiz", "Hero run hit 22.4% MFU (#812)."))
    run(ReviewWorkflow(sessions, CONFIG, port).draft_and_post(1, WEEK))
    (header,) = port.in_channel("C-review")
    assert "Week 2026-11-16 to 2026-11-22: 1 section, 1 PR, 1 person." in header.text


def test_setting_the_review_channel_posts_a_quiet_week_drafted_again(sessions, port) -> None:
    """Drafted quiet before any set-up (no review channel either), the week's messages
    logged since: the draft posted when the review channel is set is the real one."""
    quiet_workspace(sessions, {})
    flow = ReviewWorkflow(sessions, CONFIG, port)
    assert "No review channel is set" in run(flow.draft_and_post(1, WEEK)).text
    with sessions.begin() as session:
        store_batch(session, say("hero-run", "1", "Ana Ruiz", "Hero run hit 22.4% MFU (#812)."))
        change_setting(session, CONFIG, 1, "review_channel", "C-review", ADMIN, datetime.now(UTC))
    (reply,) = run(flow.post_waiting(1))
    assert "so it was drafted again" in reply.text and "up for review" in reply.text
    (header,) = port.in_channel("C-review")
    assert "1 section" in header.text
    assert "22.4% MFU" in port.thread(header.posted)[0].text
