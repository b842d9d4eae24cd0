"""The operator's journey through the core and the fake port, with no dead ends: the first
review arrives once a review channel is set, replies name channels and people, the header
says when it is published, metrics count what is stored, and mass mentions never leak."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.core import metrics
from bot.core.port import ButtonPress, Caller, CommandEvent, MessageEvent
from bot.core.router import Core
from bot.core.settings import change_setting
from bot.ops.config import load_config
from storage.drafts import list_drafts
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort

LAB = WorkspaceRecord("slack", "T1", "Lab")
ADMIN = Caller("UADMIN", "Ada Admin", is_admin=True)
CAROL = Caller("UCAROL", "Carol Diaz")
HERO = ChannelRecord("CHERO01", "hero-run")
IRIS = ChannelRecord("CIRIS01", "iris")
RANDOM = ChannelRecord("CRANDOM1", "random")
MONDAY = datetime(2026, 11, 16, tzinfo=UTC)
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def port() -> FakePort:
    return FakePort(
        channel_ids={"hero-run": "CHERO01", "iris": "CIRIS01", "review": "CREVIEW1"},
        names={"UCAROL": "Carol Diaz", "UADMIN": "Ada Admin", "announce": "announce"},
    )


@pytest.fixture
def core(sessions, port) -> Core:
    return Core(sessions, load_config(), port, clock=lambda: NOW)


def command(core: Core, caller: Caller, text: str):
    return run(core.on_command(CommandEvent(LAB, caller, text, "C-any")))


def chat(core: Core, channel: ChannelRecord, pid: str, text: str, hours: float = 10) -> bool:
    ana = PersonRecord("UANA", "Ana Ruiz")
    message = MessageRecord(pid, ana, MONDAY + timedelta(hours=hours), text)
    return run(core.on_message(MessageEvent(LAB, channel, message)))


def a_logged_week(core: Core) -> None:
    assert command(core, ADMIN, "channels add #hero-run #iris").ok
    assert chat(core, HERO, "1", "Hero run at 21.4% MFU after #812.")
    assert chat(core, IRIS, "2", "Iris preemption is off for CPU jobs (#820).", 11)


def catch_up(core: Core) -> None:
    """The first start: the scheduler catches up last week, with no review channel yet."""

    async def start() -> None:
        await core.scheduler.start()
        await core.scheduler.shutdown()

    run(start())


# --- item 1: the first review arrives --------------------------------------------------------


def test_a_draft_stored_before_the_review_channel_is_posted_when_one_is_set(
    core, port, sessions
) -> None:
    a_logged_week(core)
    catch_up(core)
    with sessions() as session:
        assert [d.status for d in list_drafts(session)] == ["drafted"]
    assert not port.messages

    reply = command(core, ADMIN, "review-channel #review")

    assert reply.ok
    assert "Drafts will be posted for review in #review." in reply.text
    assert "The draft of the week of 2026-11-16 is up for review." in reply.text
    (header,) = port.in_channel("CREVIEW1")
    assert len(port.thread(header.posted)) == 2


def test_a_week_up_for_review_is_not_posted_again(core, port) -> None:
    a_logged_week(core)
    catch_up(core)
    assert command(core, ADMIN, "review-channel #review").ok
    assert command(core, ADMIN, "draft 2026-11-16").text.startswith(
        "The week of 2026-11-16 is already drafted (draft "
    )
    assert len(port.in_channel("CREVIEW1")) == 1


def test_draft_and_regenerate_post_what_was_never_posted(core, port, sessions) -> None:
    a_logged_week(core)
    catch_up(core)
    # The review channel is set behind the bot's back (another process, an old version).
    with sessions.begin() as session:
        change_setting(session, core.config, 1, "review_channel", "CREVIEW1", ADMIN, NOW)

    regenerated = command(core, ADMIN, "regenerate")
    assert regenerated.ok and "is up for review" in regenerated.text
    assert len(port.in_channel("CREVIEW1")) == 1
    # Now up for review: asking again posts nothing twice.
    assert "already drafted" in command(core, ADMIN, "draft 2026-11-16").text
    assert len(port.in_channel("CREVIEW1")) == 1


def test_draft_posts_the_stored_week(core, port, sessions) -> None:
    a_logged_week(core)
    catch_up(core)
    with sessions.begin() as session:
        change_setting(session, core.config, 1, "review_channel", "CREVIEW1", ADMIN, NOW)

    reply = command(core, ADMIN, "draft 2026-11-16")

    assert reply.text == "The draft of the week of 2026-11-16 is up for review."
    assert len(port.in_channel("CREVIEW1")) == 1


def test_an_admin_is_told_what_is_still_to_set_up_until_all_is_set(core) -> None:
    first = command(core, ADMIN, "channels")
    assert first.text.endswith(
        "Still to set up: a review channel (/summary review-channel #channel), a publish "
        "channel (/summary publish add #channel), editors (/summary editors add @person) and "
        "channels to log (/summary channels add #channel)."
    )
    assert "Still to set up" not in command(core, CAROL, "channels").text  # not an admin
    for text in ("review-channel #review", "publish add #announce", "editors add <@UCAROL>"):
        assert "Still to set up" in command(core, ADMIN, text).text
    assert "Still to set up" not in command(core, ADMIN, "channels add #hero-run").text


# --- items 3 and 4: names, never ids or escaped mentions -----------------------------------


def test_lists_show_names_and_a_channel_stored_by_id_is_removed_by_name(core) -> None:
    a_logged_week(core)

    assert command(core, ADMIN, "channels").text.startswith("Logged channels: #hero-run, #iris.")
    removed = command(core, ADMIN, "channels remove #hero-run")
    assert removed.text.startswith("Stopped logging #hero-run. Logged channels: #iris.")


def test_editors_and_audit_name_people_without_mentions(core) -> None:
    added = command(core, ADMIN, "editors add <@UCAROL>")
    audit = command(core, ADMIN, "audit")

    assert added.text.startswith("@Carol Diaz can now edit and approve drafts.")
    assert "editors +@Carol Diaz" in audit.text and "Ada Admin: editors" in audit.text
    for reply in (added, audit):
        assert "<@" not in reply.text and "&lt;" not in reply.text


# --- item 5: a section by topic id or title ------------------------------------------------


def test_edit_and_history_take_a_topic_id_or_title_of_the_current_draft(core, port) -> None:
    for text in ("review-channel #review", "editors add <@UCAROL>"):
        command(core, ADMIN, text)
    a_logged_week(core)
    catch_up(core)

    assert command(core, CAROL, "edit hero-run Ana's run hit 21.4% MFU (#812).").ok
    assert command(core, CAROL, 'edit "IRIS" Iris: no preemption for CPU jobs (#820).').ok
    history = command(core, CAROL, "history Hero run")

    assert history.text.startswith("History of Hero run (section 1 of draft 1):\n1. Carol Diaz, ")
    thread = "\n".join(m.text for m in port.messages.values())
    assert "Ana's run hit 21.4% MFU" in thread and "no preemption for CPU jobs" in thread
    assert command(core, CAROL, "edit kernels x").text == (
        "The current draft (draft 1, week of 2026-11-16) has no section 'kernels'."
    )
    member = Caller("UMAX", "Max Member")
    assert command(core, member, "edit hero-run x").text == "Only editors can edit the summary."


# --- item 6: the header says "published" ----------------------------------------------------


def test_the_review_header_says_published_once_publishing_is_done(core, port) -> None:
    for text in ("review-channel #review", "publish add #announce", "editors add <@UCAROL>"):
        command(core, ADMIN, text)
    a_logged_week(core)
    catch_up(core)
    (header,) = port.in_channel("CREVIEW1")
    approve = header.buttons[0]

    assert run(core.on_button(ButtonPress(LAB, CAROL, approve.action_id))).ok

    text = port.messages[header.posted.message_id].text
    assert "published" in text.splitlines()[0]
    assert "Approved by Carol Diaz; published 2026-11-23." in text
    assert "publishing" not in text


# --- item 8: metrics count what is stored ---------------------------------------------------


def _sample(name: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, {"platform": "slack"}) or 0.0


def test_metrics_count_only_stored_messages(core) -> None:
    a_logged_week(core)
    stored = _sample("summarybot_messages_stored_total")
    duplicates = _sample("summarybot_duplicates_dropped_total")

    assert not chat(core, RANDOM, "9", "An unlogged channel's message.")
    assert chat(core, HERO, "3", "A new message in a logged channel.")
    assert not chat(core, HERO, "3", "A new message in a logged channel.")  # delivered twice

    assert _sample("summarybot_messages_stored_total") == stored + 1
    assert _sample("summarybot_duplicates_dropped_total") == duplicates + 1


# --- item 9: mass mentions -----------------------------------------------------------------


def test_a_mass_mention_never_becomes_a_bare_word_in_the_draft(core, port) -> None:
    command(core, ADMIN, "review-channel #review")
    assert command(core, ADMIN, "channels add #hero-run").ok
    # What the Slack converter makes of `<!channel>` and `<!here>`, and Discord's @everyone.
    for pid, text in [
        ("1", "@channel Hero run at 21.4% MFU after #812 landed today."),
        ("2", "@here checkpoint writes are 3.5x faster with #815."),
        ("3", "@everyone EP64 sweep finished at 243k tokens/s (#816)."),
    ]:
        assert chat(core, HERO, pid, text)
    catch_up(core)

    (header,) = port.in_channel("CREVIEW1")
    (section,) = port.thread(header.posted)
    assert "21.4% MFU" in section.text and "EP64 sweep" in section.text
    words = set(section.text.lower().replace("@", " ").split())
    assert not words & {"channel", "here", "everyone"}
