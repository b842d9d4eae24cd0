"""The fake Discord works with the real discord.py client: login, gateway handshake, events,
messages with components, threads, persistent and dynamic views, app commands and modals,
paginated history, reconnects, and which malformed gateway payloads the client survives."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakes.fakediscord import FakeDiscord

GENERAL = "1300000000000000001"
REVIEW = "1300000000000000002"
FORUM = "1300000000000000003"
OLD_THREAD = "1300000000000000004"
ALICE = "1400000000000000001"
BOB = "1400000000000000002"
EDITORS = "1500000000000000001"
MANAGE_GUILD = 1 << 5
GUILD = discord.Object(int(FakeDiscord.GUILD_ID))


def run(coro, timeout: float = 30):
    """Run one test coroutine with an overall bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def intents() -> discord.Intents:
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.guild_messages = True
    chosen.message_content = True
    chosen.members = False
    return chosen


class FastBot(commands.Bot):
    """discord.py sleeps 5 s before every IDENTIFY after the first; tests need not wait."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def make_bot(**kwargs: Any) -> FastBot:
    return FastBot(command_prefix="!", intents=intents(), guild_ready_timeout=0.05, **kwargs)


def populate(fake: FakeDiscord) -> None:
    fake.add_channel(GENERAL, "general")
    fake.add_channel(REVIEW, "summary-review")
    fake.add_channel(FORUM, "announcements", type_=15)
    fake.add_channel(OLD_THREAD, "last week", type_=11, parent_id=REVIEW)
    fake.add_role(EDITORS, "editors", MANAGE_GUILD)
    fake.add_member(ALICE, "alice", global_name="Alice", roles=[EDITORS])
    fake.add_member(BOB, "bob", nick="Bobby")


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, bot: commands.Bot) -> AsyncIterator[asyncio.Task]:
    """Start `bot` against `fake`; on exit close it, await its task and restore the globals."""
    undo = fake.patch()
    task = asyncio.create_task(bot.start("fake.token"))
    try:
        ready = asyncio.ensure_future(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task.done():
                task.result()  # raises the client's error
            raise TimeoutError("the bot did not become ready in 10 s")
        yield task
    finally:
        await bot.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
        undo()


def listen(bot: commands.Bot, event: str, into: list) -> None:
    """Append each `event`'s first argument (True when it has none) to `into`."""

    async def listener(*args: Any) -> None:
        into.append(args[0] if args else True)

    bot.add_listener(listener, event)


async def until(predicate: Callable[[], Any], timeout: float = 5, what: str = "condition") -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


# ---- 1. login, READY, GUILD_CREATE and message events ---------------------------------------


def test_bot_connects_sees_the_guild_and_gets_message_events():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            bot = make_bot()
            created: list[discord.Message] = []
            edits: list[discord.RawMessageUpdateEvent] = []
            deletes: list[discord.RawMessageDeleteEvent] = []
            listen(bot, "on_message", created)
            listen(bot, "on_raw_message_edit", edits)
            listen(bot, "on_raw_message_delete", deletes)

            async with running(fake, bot) as task:
                # login asked for the user and the application; the IDENTIFY carried the intents
                paths = [r.path for r in fake.requests]
                assert paths[:2] == ["/users/@me", "/oauth2/applications/@me"]
                assert fake.identifies[0]["token"] == "fake.token"
                assert fake.identifies[0]["intents"] == intents().value
                assert fake.connections == 1
                assert bot.user.id == int(FakeDiscord.BOT_ID)
                assert bot.application_id == int(FakeDiscord.APP_ID)

                [guild] = bot.guilds
                assert guild.id == int(FakeDiscord.GUILD_ID)
                assert guild.owner_id == int(FakeDiscord.OWNER_ID)
                assert guild.default_role.id == guild.id
                assert guild.get_role(int(EDITORS)).permissions.manage_guild
                assert {c.name for c in guild.text_channels} == {"general", "summary-review"}
                assert isinstance(guild.get_channel(int(FORUM)), discord.ForumChannel)
                old = guild.get_thread(int(OLD_THREAD))
                assert old is not None and old.parent_id == int(REVIEW)
                assert guild.me is not None and guild.me.bot
                # without the members intent Discord sends only the bot's own member
                assert guild.get_member(int(ALICE)) is None

                first = fake.message(GENERAL, ALICE, "We shipped the importer")
                await fake.dispatch("MESSAGE_CREATE", first)
                await until(lambda: created, what="on_message")
                [message] = created
                assert message.content == "We shipped the importer"
                assert message.id == int(first["id"])
                assert message.channel.id == int(GENERAL)
                assert isinstance(message.author, discord.Member)
                assert message.author.display_name == "Alice"
                assert message.guild.id == int(FakeDiscord.GUILD_ID)

                edited = dict(first, content="We shipped the importer (v2)")
                edited["edited_timestamp"] = datetime.now(UTC).isoformat()
                await fake.dispatch("MESSAGE_UPDATE", edited)
                await until(lambda: edits, what="on_raw_message_edit")
                assert edits[0].message_id == message.id
                assert edits[0].message.content == "We shipped the importer (v2)"
                assert edits[0].cached_message.content == "We shipped the importer"

                await fake.dispatch(
                    "MESSAGE_DELETE",
                    {"id": first["id"], "channel_id": GENERAL, "guild_id": fake.GUILD_ID},
                )
                await until(lambda: deletes, what="on_raw_message_delete")
                assert deletes[0].message_id == message.id
                assert deletes[0].cached_message is not None

                # a reply in a thread, with a reference and a mention
                reply = fake.message(
                    OLD_THREAD, BOB, "<@1400000000000000001> nice", reference=first["id"]
                )
                reply["mentions"] = [fake._mention(ALICE)]
                await fake.dispatch("MESSAGE_CREATE", reply)
                await until(lambda: len(created) == 2, what="the reply")
                assert created[1].type is discord.MessageType.reply
                assert created[1].reference.message_id == message.id
                assert isinstance(created[1].channel, discord.Thread)
                assert [m.id for m in created[1].mentions] == [int(ALICE)]

            assert task.done() and task.exception() is None

    run(scenario())


def test_without_the_message_content_intent_others_messages_arrive_empty():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            chosen = intents()
            chosen.message_content = False
            bot = FastBot(command_prefix="!", intents=chosen, guild_ready_timeout=0.05)
            created: list[discord.Message] = []
            listen(bot, "on_message", created)
            async with running(fake, bot):
                await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, ALICE, "secret"))
                mention = fake.message(
                    GENERAL, ALICE, f"<@{fake.BOT_ID}> hi", mentions=[fake.BOT_ID]
                )
                await fake.dispatch("MESSAGE_CREATE", mention)
                await until(lambda: len(created) == 2, what="two messages")
                assert [m.content for m in created] == ["", f"<@{fake.BOT_ID}> hi"]

    run(scenario())


def test_a_privileged_intent_not_enabled_in_the_portal_ends_the_client():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            fake.privileged_intents_enabled = 0
            undo = fake.patch()
            bot = make_bot()
            try:
                with pytest.raises(discord.PrivilegedIntentsRequired):
                    await asyncio.wait_for(bot.start("fake.token"), 10)
            finally:
                await bot.close()
                undo()

    run(scenario())


def test_members_intent_chunks_the_guild_and_rest_lookups_work():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            chosen = intents()
            chosen.members = True
            bot = FastBot(command_prefix="!", intents=chosen, guild_ready_timeout=0.05)
            base, gateway = (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            )
            async with running(fake, bot):
                assert fake.api_base == discord.http.Route.BASE
                [chunk] = [f for f in fake.gateway_received if f["op"] == 8]
                assert chunk["d"]["guild_id"] == int(fake.GUILD_ID)
                guild = bot.guilds[0]
                assert guild.chunked
                alice = guild.get_member(int(ALICE))
                assert alice.display_name == "Alice"
                assert [r.name for r in alice.roles] == ["@everyone", "editors"]
                assert alice.guild_permissions.manage_guild
                assert guild.get_member(int(BOB)).display_name == "Bobby"

                fetched = await guild.fetch_member(int(BOB))
                assert fetched.nick == "Bobby"
                with pytest.raises(discord.NotFound):
                    await guild.fetch_member(1)
                channels = await guild.fetch_channels()
                assert {c.id for c in channels} == {int(GENERAL), int(REVIEW), int(FORUM)}
                assert {r.name for r in await guild.fetch_roles()} == {"@everyone", "editors"}
            assert base == discord.http.Route.BASE
            assert gateway == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY

    run(scenario())


# ---- 2. messages with buttons, allowed mentions, threads ------------------------------------


def test_bot_posts_components_without_pings_and_starts_a_thread():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            bot = make_bot()
            created: list[discord.Message] = []
            listen(bot, "on_message", created)
            async with running(fake, bot):
                channel = bot.get_channel(int(REVIEW))
                view = discord.ui.View()
                view.add_item(
                    discord.ui.Button(
                        label="Approve", custom_id="approve:1", style=discord.ButtonStyle.success
                    )
                )
                view.add_item(discord.ui.Button(label="Edit", custom_id="edit:1"))
                draft = await channel.send(
                    "Draft for <@1400000000000000001> @everyone",
                    view=view,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                assert draft.author.id == bot.user.id
                assert draft.id > 0 and draft.channel.id == int(REVIEW)

                [sent] = fake.sent(REVIEW)
                assert sent["id"] == str(draft.id)
                assert sent["content"] == "Draft for <@1400000000000000001> @everyone"
                assert sent["allowed_mentions"] == {"parse": []}
                assert sent["components"] == [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 2,
                                "style": 3,
                                "disabled": False,
                                "label": "Approve",
                                "custom_id": "approve:1",
                            },
                            {
                                "type": 2,
                                "style": 2,
                                "disabled": False,
                                "label": "Edit",
                                "custom_id": "edit:1",
                            },
                        ],
                    }
                ]
                # the fake's mention model: nothing is pinged with AllowedMentions.none()
                assert sent["mentions"] == [] and sent["mention_everyone"] is False
                [post] = [r for r in fake.requests if r.method == "POST"]
                assert post.path == f"/channels/{REVIEW}/messages"
                assert post.json_body["allowed_mentions"] == {"parse": []}

                # Discord echoes the bot's own message through the gateway
                await until(lambda: created, what="the echoed MESSAGE_CREATE")
                assert created[0].id == draft.id and created[0].author == bot.user

                thread = await draft.create_thread(name="Week 46 review")
                [made] = fake.threads
                assert made["id"] == str(draft.id)  # a thread from a message shares its id
                assert made["parent_id"] == REVIEW and made["type"] == 11
                assert made["name"] == "Week 46 review"
                assert thread.id == draft.id and thread.parent_id == int(REVIEW)
                await until(lambda: bot.get_channel(thread.id) is not None, what="THREAD_CREATE")

                note = await thread.send("Reply here with corrections")
                assert [m["content"] for m in fake.sent(str(thread.id))] == [
                    "Reply here with corrections"
                ]
                assert note.channel.id == thread.id
                assert fake.sent(REVIEW)[0]["thread"]["id"] == str(thread.id)

                # edits replace content and components; deletes remove the message
                await draft.edit(content="Draft v2", view=None)
                [after_edit] = fake.sent(REVIEW)
                assert after_edit["content"] == "Draft v2"
                assert after_edit["components"] == []
                assert after_edit["edited_timestamp"] is not None
                await note.delete()
                assert fake.sent(str(thread.id)) == []
                assert fake.deleted == [(str(thread.id), str(note.id))]

                # a file goes as multipart with payload_json; the fake lists it
                upload = await channel.send(
                    "summary attached", file=discord.File(io.BytesIO(b"# Week 46\n"), "w46.md")
                )
                assert [a.filename for a in upload.attachments] == ["w46.md"]
                assert fake.requests[-1].files == [
                    {"name": "files[0]", "filename": "w46.md", "size": 10}
                ]
                assert fake.requests[-1].json_body["content"] == "summary attached"

                # a forum post: the starter message shares the thread's id
                forum = bot.get_channel(int(FORUM))
                post_thread, starter = await forum.create_thread(name="Week 46", content="Out!")
                assert post_thread.id == starter.id
                assert [m["content"] for m in fake.sent(str(post_thread.id))] == ["Out!"]

                assert fake.unhandled == []

    run(scenario())


# ---- 3. persistent views and dynamic items --------------------------------------------------


class Approve(discord.ui.DynamicItem[discord.ui.Button], template=r"approve:(?P<id>\d+)"):
    def __init__(self, draft_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Approve", custom_id=f"approve:{draft_id}", style=discord.ButtonStyle.success
            )
        )
        self.draft_id = draft_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Approve:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"ok {self.draft_id}", ephemeral=True)


class Slow(discord.ui.DynamicItem[discord.ui.Button], template=r"slow:(?P<id>\d+)"):
    def __init__(self, draft_id: int) -> None:
        super().__init__(discord.ui.Button(label="Slow", custom_id=f"slow:{draft_id}"))
        self.draft_id = draft_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Slow:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(content=f"working on {self.draft_id}")
        await interaction.followup.send("done", ephemeral=True)


class Publish(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Publish", custom_id="publish", style=discord.ButtonStyle.primary)
    async def publish(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        allowed = interaction.permissions.manage_guild
        content = f"Published by {interaction.user.display_name}" if allowed else "not allowed"
        await interaction.response.edit_message(content=content, view=None)


class ViewBot(FastBot):
    async def setup_hook(self) -> None:
        self.add_view(Publish())
        self.add_dynamic_items(Approve, Slow)


def test_persistent_view_and_dynamic_items_answer_button_clicks():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            bot = ViewBot(command_prefix="!", intents=intents(), guild_ready_timeout=0.05)
            async with running(fake, bot):
                # no message given: the fake makes a bot message holding that button
                body = await fake.interact(
                    fake.button("approve:7"), type_=3, user_id=ALICE, channel_id=REVIEW
                )
                assert body["type"] == 4
                assert body["data"]["content"] == "ok 7"
                assert body["data"]["flags"] == 64  # ephemeral
                interaction = fake.interactions[-1]
                assert interaction["member"]["permissions"] == str(fake.permissions_of(ALICE))
                assert interaction["message"]["components"][0]["components"][0]["custom_id"] == (
                    "approve:7"
                )

                callback = fake.requests[-1]
                assert callback.path == (
                    f"/interactions/{interaction['id']}/{interaction['token']}/callback"
                )
                assert callback.query == {"with_response": "1"}
                # a second answer to one interaction is refused, as Discord does
                async with aiohttp.ClientSession() as session:
                    url = fake.api_base + callback.path
                    async with session.post(url, json={"type": 6}) as response:
                        assert response.status == 400
                        assert response.headers["Content-Type"] == "application/json"
                        assert (await response.json())["code"] == 40060

                # a deferred (thinking) answer, then the original edited, then a followup
                body = await fake.interact(
                    fake.button("slow:3"), type_=3, user_id=BOB, channel_id=REVIEW
                )
                assert body == {"type": 5, "data": {"flags": 64}}
                edit, followup = await fake.followups(count=2)
                assert edit["method"] == "PATCH" and edit["message_id"] == "@original"
                assert edit["body"]["content"] == "working on 3"
                assert followup["method"] == "POST"
                assert followup["body"]["content"] == "done"
                assert followup["body"]["flags"] == 64

                # the persistent view's button edits the bot's own message (type 7)
                channel = bot.get_channel(int(REVIEW))
                draft = await channel.send("Ready to publish", view=Publish())
                body = await fake.interact(
                    fake.button("publish"), type_=3, user_id=ALICE, channel_id=REVIEW
                )
                assert body["type"] == 7
                assert body["data"]["content"] == "Published by Alice"
                assert body["data"]["components"] == []
                [now] = [m for m in fake.sent(REVIEW) if m["id"] == str(draft.id)]
                assert now["content"] == "Published by Alice" and now["components"] == []

                # Bob has no Manage Server permission
                await channel.send("Again", view=Publish())
                body = await fake.interact(
                    fake.button("publish"), type_=3, user_id=BOB, channel_id=REVIEW
                )
                assert body["data"]["content"] == "not allowed"

                # nobody answers an unknown custom_id: the fake times out like a user would
                with pytest.raises(TimeoutError):
                    await fake.interact(
                        fake.button("nothing"),
                        type_=3,
                        user_id=BOB,
                        channel_id=REVIEW,
                        timeout=0.3,
                    )

    run(scenario())


# ---- 4. app commands, modals ----------------------------------------------------------------


class EditModal(discord.ui.Modal, title="Edit draft"):
    body = discord.ui.TextInput(label="Body", style=discord.TextStyle.long)
    note = discord.ui.TextInput(label="Note", required=False)

    def __init__(self, text: str, submitted: list[tuple[str, str]]) -> None:
        super().__init__()
        self.body.default = text
        self.submitted = submitted

    async def on_submit(self, interaction: discord.Interaction) -> None:
        self.submitted.append((self.body.value, self.note.value))
        await interaction.response.send_message("saved", ephemeral=True)


def summary_group(submitted: list[tuple[str, str]]) -> app_commands.Group:
    group = app_commands.Group(name="summary", description="The weekly summary")

    @group.command(name="draft", description="Draft from text")
    @app_commands.describe(text="What to put in")
    async def draft(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(f"draft: {text}", ephemeral=True)

    @group.command(name="edit", description="Edit in a modal")
    async def edit(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_modal(EditModal(text, submitted))

    @group.command(name="channel", description="Publish to a channel")
    async def channel(
        interaction: discord.Interaction, where: discord.TextChannel, who: discord.Member
    ) -> None:
        await interaction.response.send_message(f"to {where.name} for {who.display_name}")

    return group


def subcommand(name: str, **options: tuple[int, Any]) -> list[dict]:
    """The options of a chat-input interaction that calls subcommand `name` with
    option name -> (option type, value)."""
    values = [{"type": t, "name": n, "value": v} for n, (t, v) in options.items()]
    return [{"type": 1, "name": name, "options": values}]


def test_app_command_group_sync_call_and_modal_round_trip():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            submitted: list[tuple[str, str]] = []
            bot = make_bot()
            bot.tree.add_command(summary_group(submitted), guild=GUILD)
            async with running(fake, bot):
                synced = await bot.tree.sync(guild=GUILD)
                assert [c.name for c in synced] == ["summary"]
                assert synced[0].id > 0
                [sync] = fake.commands_synced
                assert sync["guild_id"] == fake.GUILD_ID
                [command] = sync["commands"]
                assert command["name"] == "summary"
                subcommands = {o["name"]: o for o in command["options"]}
                assert set(subcommands) == {"draft", "edit", "channel"}
                [text] = subcommands["draft"]["options"]
                assert (text["name"], text["type"], text["required"]) == ("text", 3, True)
                put = [r for r in fake.requests if r.method == "PUT"][0]
                assert put.path == f"/applications/{fake.APP_ID}/guilds/{fake.GUILD_ID}/commands"

                data = fake.slash("summary", subcommand("draft", text=(3, "hi")))
                assert data["guild_id"] == fake.GUILD_ID  # a guild command, as synced
                body = await fake.interact(data, type_=2, user_id=ALICE, channel_id=REVIEW)
                assert body["type"] == 4
                assert body["data"]["content"] == "draft: hi"
                assert body["data"]["flags"] == 64

                # resolved channel and member options
                options = subcommand("channel", where=(7, GENERAL), who=(6, BOB))
                data = fake.slash("summary", options)
                assert set(data["resolved"]) == {"channels", "users", "members"}
                body = await fake.interact(data, type_=2, user_id=ALICE, channel_id=REVIEW)
                assert body["data"]["content"] == "to general for Bobby"
                assert "flags" not in body["data"]  # not ephemeral

                # a modal: type 9 with the text inputs, then the submit reaches on_submit
                data = fake.slash("summary", subcommand("edit", text=(3, "old")))
                body = await fake.interact(data, type_=2, user_id=ALICE, channel_id=REVIEW)
                assert body["type"] == 9
                assert body["data"]["title"] == "Edit draft"
                rows = body["data"]["components"]
                assert [row["type"] for row in rows] == [1, 1]
                first = rows[0]["components"][0]
                assert (first["type"], first["label"], first["style"]) == (4, "Body", 2)
                assert first["value"] == "old" and first["required"] is True
                inputs = fake.modal_inputs(body)
                assert set(inputs) == {"Body", "Note"}

                submit = fake.modal_submit(
                    body["data"]["custom_id"], {inputs["Body"]: "new text", inputs["Note"]: ""}
                )
                body = await fake.interact(submit, type_=5, user_id=ALICE, channel_id=REVIEW)
                assert body["type"] == 4 and body["data"]["content"] == "saved"
                assert submitted == [("new text", "")]

                # global sync goes to the other route
                await bot.tree.sync()
                assert fake.commands_synced[-1] == {"guild_id": None, "commands": []}

    run(scenario())


# ---- 5. malformed gateway payloads ----------------------------------------------------------


def _partial_update(fake: FakeDiscord) -> dict:
    return {
        "id": "1234",
        "channel_id": GENERAL,
        "guild_id": FakeDiscord.GUILD_ID,
        "content": "partial",
    }


def _without(key: str) -> Callable[[FakeDiscord], dict]:
    def build(fake: FakeDiscord) -> dict:
        message = fake.message(GENERAL, ALICE, "x")
        message.pop(key)
        return message

    return build


# name -> (how to send it, payload or builder, the exception that ends bot.start(), or None)
MALFORMED: dict[str, tuple[str, Any, type[BaseException] | None]] = {
    "text frame that is not JSON": ("raw", "not json", ValueError),
    "JSON that is not an object": ("raw", "[]", AttributeError),
    # kept as the start of a zlib-stream message (no 00 00 ff ff suffix): silently buffered
    "binary frame that is not zlib": ("raw", b"\x00\x01garbage", None),
    "unknown op code": ("raw", {"op": 42, "d": None}, None),
    "unknown event type": ("event", ("SOMETHING_NEW", {"x": 1}), None),
    "op 0 with d null": ("raw", {"op": 0, "s": 99, "t": "MESSAGE_CREATE", "d": None}, TypeError),
    "MESSAGE_UPDATE without type (partial)": (
        "event",
        ("MESSAGE_UPDATE", _partial_update),
        KeyError,
    ),
    "MESSAGE_CREATE without type": ("event", ("MESSAGE_CREATE", _without("type")), KeyError),
    "MESSAGE_CREATE with a non-numeric id": (
        "event",
        ("MESSAGE_CREATE", lambda f: {**f.message(GENERAL, ALICE, "x"), "id": "abc"}),
        ValueError,
    ),
    # with `member` (as Discord sends for guild members) the member handler needs the author
    "MESSAGE_CREATE without author": (
        "event",
        ("MESSAGE_CREATE", _without("author")),
        AttributeError,
    ),
    "MESSAGE_CREATE in an unknown channel": (
        "event",
        ("MESSAGE_CREATE", lambda f: f.message("999", ALICE, "x")),
        None,
    ),
    "MESSAGE_DELETE without channel_id": (
        "event",
        ("MESSAGE_DELETE", {"id": "5", "guild_id": FakeDiscord.GUILD_ID}),
        KeyError,
    ),
    "MESSAGE_REACTION_ADD without type": (
        "event",
        (
            "MESSAGE_REACTION_ADD",
            {
                "user_id": ALICE,
                "channel_id": GENERAL,
                "message_id": "5",
                "guild_id": FakeDiscord.GUILD_ID,
                "emoji": {"id": None, "name": "x"},
            },
        ),
        KeyError,
    ),
    "INTERACTION_CREATE without attachment_size_limit": (
        "event",
        (
            "INTERACTION_CREATE",
            {
                "id": "5",
                "application_id": FakeDiscord.APP_ID,
                "type": 3,
                "token": "t",
                "version": 1,
                "data": {"custom_id": "a", "component_type": 2},
            },
        ),
        KeyError,
    ),
}


async def _send_malformed(fake: FakeDiscord, how: str, payload: Any) -> None:
    if how == "raw":
        await fake.send_raw(payload)
        return
    event, data = payload
    await fake.dispatch(event, data(fake) if callable(data) else data)


@pytest.mark.parametrize("case", list(MALFORMED))
def test_which_malformed_gateway_payloads_the_client_survives(case):
    how, payload, fatal = MALFORMED[case]

    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            bot = make_bot()
            created: list[discord.Message] = []
            listen(bot, "on_message", created)
            async with running(fake, bot) as task:
                await _send_malformed(fake, how, payload)
                if fatal is not None:
                    # the parser's exception leaves the gateway loop and ends bot.start()
                    with pytest.raises(fatal):
                        await asyncio.wait_for(task, 5)
                    assert not bot.is_closed()  # not closed: the client just stops listening
                    return
                await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, ALICE, "later"))
                await until(lambda: any(m.content == "later" for m in created), what="later")
                assert not task.done()

    run(scenario())


def guard_parsers(bot: commands.Bot, dropped: list[tuple[str, BaseException]]) -> None:
    """What an adapter can do: discord.py keeps its gateway event parsers in the dict
    `bot._connection.parsers` (private API, checked in 2.7.1), called without try/except.
    Wrapping them turns a malformed event into a logged, dropped event."""

    def guarded(name: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
        def call(data: Any) -> None:
            try:
                parse(data)
            except Exception as error:  # drop the one event, keep the client
                dropped.append((name, error))

        return call

    parsers = bot._connection.parsers
    for name, parse in list(parsers.items()):
        parsers[name] = guarded(name, parse)


def test_guarded_parsers_survive_malformed_events_and_connect_restarts_after_a_crash():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            bot = make_bot()
            dropped: list[tuple[str, BaseException]] = []
            guard_parsers(bot, dropped)
            created: list[discord.Message] = []
            listen(bot, "on_message", created)
            async with running(fake, bot) as task:
                for how, payload, fatal in MALFORMED.values():
                    if how == "event" and fatal is not None:
                        await _send_malformed(fake, how, payload)
                await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, ALICE, "still here"))
                await until(lambda: created, what="the message after the bad events")
                assert not task.done()
                assert sorted(name for name, _ in dropped) == [
                    "INTERACTION_CREATE",
                    "MESSAGE_CREATE",
                    "MESSAGE_CREATE",
                    "MESSAGE_CREATE",
                    "MESSAGE_DELETE",
                    "MESSAGE_REACTION_ADD",
                    "MESSAGE_UPDATE",
                ]

                # a frame that is not JSON fails before any parser: bot.start() ends, but the
                # same client can connect again (a new session: IDENTIFY, not RESUME)
                await fake.send_raw("not json")
                with pytest.raises(ValueError):
                    await asyncio.wait_for(task, 5)
                # Close the dead socket first, as the adapter does: its heartbeat thread
                # would outlive the test's event loop otherwise.
                await bot.ws.close(code=4000)
                again = asyncio.create_task(bot.connect())
                try:
                    await until(lambda: len(fake.identifies) == 2, what="a second IDENTIFY")
                    await fake.wait_ready()
                    await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, BOB, "back"))
                    await until(lambda: created[-1].content == "back", what="back")
                    assert fake.connections == 2 and fake.resumes == []
                finally:
                    await bot.close()
                    await asyncio.wait_for(again, 5)

    run(scenario())


# ---- 6. history paging ----------------------------------------------------------------------


def test_history_pages_through_250_messages_in_three_requests():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            start = datetime(2025, 11, 10, 9, 0, tzinfo=UTC)
            messages = [
                fake.message(
                    GENERAL,
                    ALICE if i % 2 else BOB,
                    f"m{i}",
                    timestamp=start + timedelta(minutes=i),
                )
                for i in range(260)
            ]
            fake.history[GENERAL] = list(reversed(messages))  # any order; served sorted
            ids = [int(m["id"]) for m in messages]
            assert ids == sorted(ids)

            bot = make_bot()
            async with running(fake, bot):
                channel = bot.get_channel(int(GENERAL))
                before = len(fake.requests)
                got = [m async for m in channel.history(limit=250, after=discord.Object(ids[4]))]
                assert [m.content for m in got] == [f"m{i}" for i in range(5, 255)]
                pages = [r for r in fake.requests[before:] if r.path.endswith("/messages")]
                assert [r.query for r in pages] == [
                    {"limit": "100", "after": str(ids[4])},
                    {"limit": "100", "after": str(ids[104])},
                    {"limit": "50", "after": str(ids[204])},
                ]

                # after a datetime, newest first by default, before, around
                got = [
                    m
                    async for m in channel.history(
                        limit=3, after=start + timedelta(minutes=1, seconds=30)
                    )
                ]
                assert [m.content for m in got] == ["m2", "m3", "m4"]
                got = [m async for m in channel.history(limit=3)]
                assert [m.content for m in got] == ["m259", "m258", "m257"]
                got = [m async for m in channel.history(limit=2, before=discord.Object(ids[10]))]
                assert [m.content for m in got] == ["m9", "m8"]
                got = [m async for m in channel.history(limit=5, around=discord.Object(ids[100]))]
                assert [m.content for m in got] == ["m102", "m101", "m100", "m99", "m98"]
                # everything in history, oldest first, until it runs out
                got = [m async for m in channel.history(limit=None, oldest_first=True)]
                assert len(got) == 260 and got[0].content == "m0"

                fetched = await channel.fetch_message(ids[7])
                assert fetched.content == "m7"
                with pytest.raises(discord.NotFound):
                    await channel.fetch_message(123)

    run(scenario())


def test_rate_limits_are_retried_and_failures_surface():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            fake.history[GENERAL] = [fake.message(GENERAL, ALICE, "only")]
            bot = make_bot()
            async with running(fake, bot):
                channel = bot.get_channel(int(GENERAL))
                fake.rate_limit_next("GET", rf"/channels/{GENERAL}/messages", retry_after=0.05)
                got = [m async for m in channel.history(limit=10)]
                assert [m.content for m in got] == ["only"]
                assert [r.path for r in fake.requests[-2:]] == [f"/channels/{GENERAL}/messages"] * 2

                fake.fail_next("POST", rf"/channels/{GENERAL}/messages")
                with pytest.raises(discord.Forbidden):
                    await channel.send("nope")
                assert fake.sent(GENERAL) == []

                # unknown routes answer 404 and are listed
                with pytest.raises(discord.NotFound):
                    await bot.http.request(discord.http.Route("GET", "/nothing/here"))
                assert fake.unhandled[-1].path == "/nothing/here"

    run(scenario())


# ---- 7. reconnects --------------------------------------------------------------------------


def test_disconnect_resumes_and_an_invalid_session_identifies_again():
    async def scenario():
        async with FakeDiscord() as fake:
            populate(fake)
            bot = make_bot()
            created: list[discord.Message] = []
            resumed: list[bool] = []
            listen(bot, "on_message", created)
            listen(bot, "on_resumed", resumed)
            async with running(fake, bot) as task:
                await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, ALICE, "one"))
                await until(lambda: len(created) == 1, what="one")

                await fake.disconnect(4000)
                await fake.wait_ready()
                await until(lambda: resumed, what="on_resumed")
                assert fake.connections == 2
                assert len(fake.identifies) == 1
                [resume] = fake.resumes
                assert resume["token"] == "fake.token"
                assert resume["seq"] >= 3  # READY, GUILD_CREATE, MESSAGE_CREATE
                await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, ALICE, "two"))
                await until(lambda: len(created) == 2, what="two")

                # op 9 (not resumable): the client starts a new session with IDENTIFY
                await fake.invalidate_session()
                await fake.wait_ready()  # the new session (dispatch would wait for it too)
                assert len(fake.identifies) == 2
                await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, BOB, "three"))
                await until(lambda: len(created) == 3, what="three")
                assert fake.connections == 3
                assert [m.content for m in created] == ["one", "two", "three"]

                # op 7 RECONNECT: close and RESUME
                await fake.request_reconnect()
                await fake.wait_ready()
                assert len(fake.resumes) == 2 and fake.connections == 4
                await fake.dispatch("MESSAGE_CREATE", fake.message(GENERAL, BOB, "four"))
                await until(lambda: len(created) == 4, what="four")
                assert not task.done()

    run(scenario())


class FastShardedBot(commands.AutoShardedBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def test_each_guild_s_events_go_only_to_the_process_holding_its_shard() -> None:
    """Two processes, each with one shard of two: each gets its own guilds, and only the
    events of those guilds."""
    second_guild = "1100000000004194305"
    second_general = "1300000000000000099"

    async def scenario() -> None:
        async with FakeDiscord() as fake:
            populate(fake)
            fake.add_guild(second_guild, "Second Lab")
            fake.add_channel(second_general, "general", guild_id=second_guild)
            assert fake.shard_of(fake.GUILD_ID, 2) == 1 and fake.shard_of(second_guild, 2) == 0
            bots = [
                FastShardedBot(
                    command_prefix="!",
                    intents=intents(),
                    guild_ready_timeout=0.05,
                    shard_ids=[shard],
                    shard_count=2,
                )
                for shard in (0, 1)
            ]
            seen: list[list[discord.Message]] = [[], []]
            for bot, heard in zip(bots, seen, strict=True):
                listen(bot, "on_message", heard)
            async with running(fake, bots[0]), running(fake, bots[1]):
                assert [[str(g.id) for g in b.guilds] for b in bots] == [
                    [second_guild],
                    [fake.GUILD_ID],
                ]
                for n, channel in enumerate([GENERAL, second_general, GENERAL, second_general]):
                    await fake.dispatch("MESSAGE_CREATE", fake.message(channel, ALICE, f"m{n}"))
                await asyncio.sleep(0.3)
            assert [[m.content for m in heard] for heard in seen] == [["m1", "m3"], ["m0", "m2"]]

    run(scenario())
