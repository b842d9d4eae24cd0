"""The Discord adapter with the review page enabled: the real discord.py client against the
fake Discord on 127.0.0.1, a week drafted and posted in the review thread, and the page's
site asking the guild who each user is (`Core.page_caller`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import timedelta

from bot.core.port import Caller, CommandEvent, MessageEvent, Reply
from bot.core.review_links import PageLinks, PageSigner
from bot.core.router import core_for
from bot.ops.config import load_config
from bot.web.site import Desk, ReviewSite
from storage.drafts import list_drafts
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.core.test_access import MONDAY, NOW
from tests.discord.test_week import FastClient
from tests.fakes.fakediscord import FakeDiscord

HERO, REVIEW, PUB = "1300000000000000001", "1300000000000000002", "1300000000000000003"
ADMIN, EDITOR, OUTSIDER = "1400000000000000001", "1400000000000000002", "1400000000000000005"
EDITORS_ROLE, MODS_ROLE = "1500000000000000001", "1500000000000000002"
MANAGE_GUILD = 1 << 5
SECRET = "discord-page-test-secret-0123456789"


def populate(fake: FakeDiscord) -> None:
    """The guild: three channels, an admin (by a role with Manage Server), an editor (by
    the Editors role) and a member who is neither."""
    for channel, name in ((HERO, "hero-run"), (REVIEW, "review"), (PUB, "pub")):
        fake.add_channel(channel, name)
    fake.add_role(EDITORS_ROLE, "Editors")
    fake.add_role(MODS_ROLE, "Mods", MANAGE_GUILD)
    fake.add_member(ADMIN, "ada", global_name="Ada Admin", roles=[MODS_ROLE])
    fake.add_member(EDITOR, "eve", global_name="Eve Editor", roles=[EDITORS_ROLE])
    fake.add_member(OUTSIDER, "max", global_name="Max Member")


class ReadyClient(FastClient):
    """Says when its `on_ready` work (command sync, then the catch-up) is done: a catch-up
    still running when the test logs its message re-reads the fake's history, finds the
    message missing there and rightly deletes it."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self.caught_up = asyncio.Event()

    async def on_ready(self) -> None:
        await super().on_ready()
        self.caught_up.set()


class DiscordSide:
    """The adapter under test, its review page's site, and the draft it posted."""

    def __init__(self, fake: FakeDiscord, sessions, public_url: str) -> None:  # noqa: ANN001
        self.fake = fake
        self.signer = PageSigner(SECRET)
        links = PageLinks(self.signer, public_url, "discord")
        make_core = core_for(
            sessions, load_config(), clock=lambda: NOW, platform="discord", page=links
        )
        self.client = ReadyClient(make_core, guild_ready_timeout=0.05)
        self.core = self.client.core
        self.port = self.client.port
        desk = Desk(self.core.review, self.core.page_caller)
        self.site = ReviewSite(self.signer, public_url, {"discord": desk}, clock=lambda: NOW)
        self.workspace = WorkspaceRecord("discord", fake.GUILD_ID, fake.guild_name)
        self.draft_id = 0
        self.section_id = 0

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[DiscordSide]:
        await self.client.login("fake.token")
        task = asyncio.create_task(self.client.run_connected())
        try:
            await asyncio.wait_for(self.client.caught_up.wait(), 10)
            yield self
        finally:
            await self.client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
            self.core.close()

    async def say(self, text: str) -> Reply:
        """A command of the admin's (the grammar under the slash commands)."""
        admin = Caller(ADMIN, "Ada Admin", is_admin=True)
        return await self.core.on_command(CommandEvent(self.workspace, admin, text, HERO))

    async def draft_week(self) -> None:
        """Set up with the editors given as the Editors role, one message logged, the week
        drafted and posted in the review thread."""
        for text in (
            "channels add #hero-run",
            "review-channel #review",
            "publish add #pub",
            f"editors add <@&{EDITORS_ROLE}>",
        ):
            assert (await self.say(text)).ok, text
        person = PersonRecord("ana", "Ana Ruiz")
        text = "Hero run reached 22.4% MFU after #812."
        message = MessageRecord("m1", person, MONDAY + timedelta(hours=10), text)
        hero = ChannelRecord(HERO, "hero-run")
        assert await self.core.on_message(MessageEvent(self.workspace, hero, message))
        assert (await self.say("draft 2026-11-16")).ok
        workspace_id = await self.core.workspace_id(self.workspace)
        with self.core.sessions() as session:
            (draft,) = list_drafts(session, workspace_id)
            self.draft_id, self.section_id = draft.id, draft.sections[0].id

    async def press_page_button(self, user: str) -> dict:
        """The Open review page button pressed in the thread by `user`: the follow-up the
        presser alone sees."""
        header = self.header()
        await self.fake.interact(
            self.fake.button(f"page:{self.draft_id}"),
            type_=3,
            user_id=user,
            channel_id=REVIEW,
            message=header,
        )
        (followup,) = await self.fake.followups()
        return followup

    def header(self) -> dict:
        (header,) = self.fake.sent(REVIEW)
        return header

    def thread_text(self) -> str:
        return "\n".join(m["content"] for m in self.fake.sent(self.header()["id"]))
