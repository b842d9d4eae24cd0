"""A week on Discord end to end: the real discord.py client against the fake Discord on
127.0.0.1 (gateway and REST), driving the core through the adapter."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from sqlalchemy import select

from bot.core.port import Caller, CommandEvent
from bot.core.router import core_for
from bot.discord.client import SummaryClient
from bot.ops.config import load_config
from storage.drafts import list_drafts
from storage.models import Message
from storage.records import WorkspaceRecord
from tests.fakes.fakediscord import FakeDiscord
from tests.support.waiting import eventually, stored

NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # Monday: the weekly run drafts Nov 16-22
HERO, REVIEW, ANNOUNCE, RANDOM = (
    "1300000000000000001",
    "1300000000000000002",
    "1300000000000000003",
    "1300000000000000004",
)
ADMIN, EDITOR, ANA, BEN = (
    "1400000000000000001",
    "1400000000000000002",
    "1400000000000000003",
    "1400000000000000004",
)
MANAGE_GUILD = 1 << 5
OPTION_TYPES = {"member": 6, "channel": 7, "role": 8, "days": 4, "open": 5}  # others: strings


class FastClient(SummaryClient):
    """discord.py waits 5 s before every IDENTIFY after the first; tests need not. `ready`
    is set once `on_ready`'s work (command sync, the catch-up) is done: a catch-up still
    reading the fake's history when a test sends a message live would rightly judge it
    deleted."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self.ready = asyncio.Event()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None

    async def on_ready(self) -> None:
        await super().on_ready()
        self.ready.set()


def on(day: int, hour: int) -> datetime:
    return datetime(2026, 11, day, hour, tzinfo=UTC)


def populate(fake: FakeDiscord) -> None:
    for channel, name in [
        (HERO, "hero-run"),
        (REVIEW, "summary-review"),
        (ANNOUNCE, "announcements"),
        (RANDOM, "random"),
    ]:
        fake.add_channel(channel, name)
    fake.add_member(ADMIN, "ada", global_name="Ada Admin", permissions=MANAGE_GUILD)
    fake.add_member(EDITOR, "eve", global_name="Eve Editor")
    fake.add_member(ANA, "ana", global_name="Ana Ruiz")
    fake.add_member(BEN, "ben", global_name="Ben Cho")
    fake.history[HERO] = [
        fake.message(
            HERO, ANA, "Hero run crashed at step 2318; fix in #9141", timestamp=on(17, 10)
        ),
        fake.message(
            HERO, BEN, "With #9141 we are back at 22.4% MFU and 243k tokens/s", timestamp=on(17, 11)
        ),
    ]


class Bot:
    """The adapter under test, started against the fake."""

    def __init__(self, fake: FakeDiscord, sessions) -> None:
        self.fake = fake
        make_core = core_for(sessions, load_config(), clock=lambda: NOW, platform="discord")
        self.client = FastClient(make_core, guild_ready_timeout=0.05)
        self.core = self.client.core
        self.port = self.client.port

    @contextlib.asynccontextmanager
    async def running(self):
        await self.client.login("fake.token")
        task = asyncio.create_task(self.client.run_connected())
        try:
            await asyncio.wait_for(self.client.ready.wait(), 10)
            yield self
        finally:
            await self.client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
            # As `summarybot run` does: a backfill still writing once the test has ended
            # would hold its tables while the fixture drops the schema (a deadlock in CI).
            self.core.close()

    async def slash(self, user: str, command: str, *path: str, **values: str) -> dict:
        """/`command` `path...` option:value...; the deferred answer's follow-up. Options
        named channel, member and role are pickers (their values are ids)."""
        leaf = [{"name": k, "type": OPTION_TYPES.get(k, 3), "value": v} for k, v in values.items()]
        options = [{"name": path[-1], "type": 1, "options": leaf}]
        for group in reversed(path[:-1]):
            options = [{"name": group, "type": 2, "options": options}]
        data = self.fake.slash(command, options)
        callback = await self.fake.interact(data, type_=2, user_id=user, channel_id=HERO)
        assert callback["type"] == 5  # deferred: the core may take a while
        (followup,) = await self.fake.followups()
        return followup["body"]

    async def say(self, user: str, text: str) -> str:
        """The core's answer to `text` from `user`: the grammar under the slash commands,
        through the real Discord port (as the fake's guild model says who `user` is)."""
        member = self.fake.members[user]
        caller = Caller(
            user,
            member["user"]["global_name"] or member["user"]["username"],
            bool(self.fake.permissions_of(user) & MANAGE_GUILD),
            tuple(member["roles"]),
        )
        workspace = WorkspaceRecord("discord", self.fake.GUILD_ID, self.fake.guild_name)
        return (await self.core.on_command(CommandEvent(workspace, caller, text, HERO))).text


@contextlib.asynccontextmanager
async def bot_on_fake(
    sessions,  # noqa: ANN001 (a sessionmaker)
    *,
    log_hero: bool = True,
) -> AsyncIterator[tuple[FakeDiscord, Bot]]:
    """The bot running against a populated fake Discord (discord.py's HTTP pointed at it,
    and back after); `log_hero`: an admin has enabled #hero first."""
    async with FakeDiscord() as fake:
        populate(fake)
        undo = fake.patch()
        try:
            bot = Bot(fake, sessions)
            async with bot.running():
                if log_hero:
                    await bot.slash(ADMIN, "summary-admin", "channels", "add", channel=HERO)
                yield fake, bot
        finally:
            undo()


def test_a_week_on_discord(sessions) -> None:
    async def week() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            undo = fake.patch()
            try:
                first = Bot(fake, sessions)
                async with first.running():
                    await run_first_days(fake, first, sessions)
                # The bot was down while this was said; started again, it backfills.
                fake.history[HERO].append(
                    fake.message(
                        HERO, BEN, "While the bot was down: 61.2% on GSM8K", timestamp=on(21, 9)
                    )
                )
                second = Bot(fake, sessions)
                async with second.running():
                    await eventually(
                        lambda: any("61.2% on GSM8K" in t for t in stored(sessions).values())
                    )
                    await review_and_publish(fake, second, sessions)
            finally:
                undo()

    asyncio.run(asyncio.wait_for(week(), 60))


def heartbeats() -> int:
    """How many discord.py gateway heartbeat threads run in this process."""
    return sum(1 for t in threading.enumerate() if t.name.startswith("keep-alive-handler"))


async def run_first_days(fake: FakeDiscord, bot: Bot, sessions) -> None:
    # Commands are synced (globally, once) on ready.
    await eventually(lambda: fake.commands_synced)
    assert fake.commands_synced[0]["guild_id"] is None

    # A member's settings command is refused privately; the admin's enables the channel
    # and backfills its history.
    refused = await bot.slash(BEN, "summary-admin", "channels", "add", channel=HERO)
    assert refused["flags"] & 64 and "Only workspace admins" in refused["content"]
    for path, values in (
        (("channels", "add"), {"channel": HERO}),
        (("review-channel",), {"channel": REVIEW}),
        (("publish", "add"), {"channel": ANNOUNCE}),
        (("editors", "add"), {"member": EDITOR}),
    ):
        reply = await bot.slash(ADMIN, "summary-admin", *path, **values)
        assert "Only" not in reply["content"], reply
    # `channels add` answered at once; the backfill reports to the admin only (a DM).
    await eventually(lambda: any("stored since" in m["content"] for m in fake.dms(ADMIN)))
    assert fake.dms(ADMIN)[-1]["content"] == "#hero-run: 2 messages stored since 2026-11-16."
    assert fake.sent(HERO) == []
    assert sorted(stored(sessions).values()) == [
        "Hero run crashed at step 2318; fix in #9141",
        "With #9141 we are back at 22.4% MFU and 243k tokens/s",
    ]

    # Live: a message, its edit, a reaction, a delete; other channels and our own posts are
    # not logged; a malformed payload does not stop the bot.
    live = fake.message(HERO, ANA, "Sweep arm 13: 23.0% MFU, PR #9156", timestamp=on(19, 10))
    await fake.dispatch("MESSAGE_CREATE", live)
    await fake.dispatch("MESSAGE_CREATE", fake.message(RANDOM, BEN, "lunch?", timestamp=on(19, 11)))
    connections = fake.connections
    await fake.dispatch("MESSAGE_UPDATE", {"id": live["id"], "channel_id": HERO})  # no `type`
    after = fake.message(
        HERO, BEN, "Right after a malformed event: 1.7x faster", timestamp=on(19, 11)
    )
    await fake.dispatch("MESSAGE_CREATE", after)
    await eventually(lambda: after["id"] in stored(sessions))
    assert fake.connections == connections  # the bad event was dropped, the connection kept
    beating = heartbeats()
    await fake.send_raw("this is not JSON")  # breaks the connection: the bot connects again
    await eventually(lambda: len(fake.identifies) + len(fake.resumes) >= 2)
    await eventually(lambda: bot.client.is_ready())
    # The dropped connection's heartbeat stopped with it (else it outlives the event loop
    # and prints "Event loop is closed"): as many heartbeats as before.
    await eventually(lambda: heartbeats() == beating)
    edited = dict(
        live, content="Sweep arm 13: 23.1% MFU, PR #9156", edited_timestamp=on(19, 12).isoformat()
    )
    await fake.dispatch("MESSAGE_UPDATE", edited)
    await fake.dispatch(
        "MESSAGE_REACTION_ADD",
        {
            "type": 0,
            "burst": False,
            "emoji": {"id": None, "name": "🎉"},
            "user_id": BEN,
            "channel_id": HERO,
            "message_id": live["id"],
            "guild_id": fake.GUILD_ID,
        },
    )
    doomed = fake.history[HERO][0]["id"]
    await fake.dispatch(
        "MESSAGE_DELETE", {"id": doomed, "channel_id": HERO, "guild_id": fake.GUILD_ID}
    )
    await eventually(
        lambda: (
            stored(sessions).get(live["id"], "").startswith("Sweep arm 13: 23.1%")
            and doomed not in stored(sessions)
        )
    )
    with sessions() as session:
        assert (
            session.scalar(select(Message.reaction_count).where(Message.platform_id == live["id"]))
            == 1
        )
    assert not any(t == "lunch?" for t in stored(sessions).values())


async def review_and_publish(fake: FakeDiscord, bot: Bot, sessions) -> None:
    # Monday 09:00: the scheduler drafts last week and posts it with its thread.
    await bot.core.scheduler.start()
    await bot.core.scheduler.shutdown()
    (header,) = fake.sent(REVIEW)
    assert header["allowed_mentions"] == {"parse": []}
    # Approve and Discard cannot be undone: their buttons ask first.
    assert [c["custom_id"] for c in header["components"][0]["components"]] == [
        "ask:approve:1",
        "regenerate:1",
        "ask:discard:1",
    ]
    (section,) = fake.sent(header["id"])  # the thread has the header's id
    assert "22.4% MFU" in section["content"] and "/channels/" in section["content"]

    # An editor edits the section in the modal.
    edit = section["components"][0]["components"][0]["custom_id"]
    modal = await fake.interact(
        fake.button(edit), type_=3, user_id=EDITOR, channel_id=header["id"], message=section
    )
    assert modal["type"] == 9
    (field,) = FakeDiscord.modal_inputs(modal).values()
    new_text = "Ana and Ben fixed the crash (#9141); the hero run is back at 22.4% MFU."
    saved = await fake.interact(
        fake.modal_submit(modal["data"]["custom_id"], {field: new_text}),
        type_=5,
        user_id=EDITOR,
        channel_id=header["id"],
    )
    assert saved["data"]["flags"] & 64 and "updated" in saved["data"]["content"]
    await eventually(lambda: new_text in fake.sent(header["id"])[0]["content"])

    # A member cannot approve: they are not even asked.
    await fake.interact(
        fake.button("ask:approve:1"), type_=3, user_id=BEN, channel_id=REVIEW, message=header
    )
    (refusal,) = await fake.followups()
    assert "Only editors" in refusal["body"]["content"]
    assert "components" not in refusal["body"] or not refusal["body"]["components"]
    # The editor's Approve asks, privately, before anything is published.
    await fake.interact(
        fake.button("ask:approve:1"), type_=3, user_id=EDITOR, channel_id=REVIEW, message=header
    )
    (asked,) = await fake.followups()
    question = asked["body"]
    assert question["flags"] & 64  # ephemeral
    assert question["content"] == (
        "Approve the draft of the week of 2026-11-16 and publish it now? Published posts "
        "cannot be taken back."
    )
    assert [(c["label"], c["custom_id"]) for c in question["components"][0]["components"]] == [
        ("Confirm", "approve:1"),
        ("Cancel", "cancel:1"),
    ]
    assert fake.sent(ANNOUNCE) == []
    await fake.interact(
        fake.button("cancel:1"),
        type_=3,
        user_id=EDITOR,
        channel_id=REVIEW,
        message=asked["message"],
    )
    (cancelled,) = await fake.followups()
    assert cancelled["body"]["content"] == "Cancelled: nothing was changed."
    assert fake.sent(ANNOUNCE) == []
    # Confirm publishes.
    await fake.interact(
        fake.button("approve:1"),
        type_=3,
        user_id=EDITOR,
        channel_id=REVIEW,
        message=asked["message"],
    )
    await fake.followups()
    published = fake.sent(ANNOUNCE)
    assert published and all(m["allowed_mentions"] == {"parse": []} for m in published)
    assert new_text in "\n".join(m["content"] for m in published)
    with sessions() as session:
        assert list_drafts(session, 1)[0].status == "published"
