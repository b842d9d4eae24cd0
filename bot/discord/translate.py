"""discord.py objects in the core's neutral terms."""

from __future__ import annotations

import discord

from bot.discord.export import embed_texts, plain_markup
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord

PLATFORM = "discord"


def workspace_of(guild: discord.Guild) -> WorkspaceRecord:
    return WorkspaceRecord(PLATFORM, str(guild.id), guild.name)


def own_id(client: discord.Client) -> int:
    """The bot's user id (known from login on, before any event arrives)."""
    if client.user is None:
        raise RuntimeError("the Discord client is not logged in")
    return client.user.id


def channel_of(channel: discord.abc.Snowflake) -> ChannelRecord:
    """A channel, or a thread with the channel it lives under."""
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        return ChannelRecord(
            str(channel.id),
            channel.name,
            parent_platform_id=str(channel.parent_id),
            parent_name=parent.name if parent is not None else None,
        )
    return ChannelRecord(str(channel.id), getattr(channel, "name", str(channel.id)))


def record_of(message: discord.Message) -> MessageRecord | None:
    """The neutral record of a member's message; None for system messages and empty ones.

    Mentions are resolved to display names (`clean_content`) and the rest of Discord's
    markup turned into words as an export's is (`plain_markup`), embeds add their text: to
    `preview` for a member's message, to `text` for a bot's or a webhook's (`embed_texts`).
    `pinned` comes with every message Discord sends, a pin or unpin included (as an edit).
    """
    if message.type not in (discord.MessageType.default, discord.MessageType.reply):
        return None
    author = message.author
    by_a_member = not author.bot and message.webhook_id is None
    embeds = (embed.to_dict() for embed in message.embeds)
    own, previews = embed_texts(embeds, by_a_member)
    text, preview = _joined([plain_markup(message.clean_content), *own]), _joined(previews)
    if not text and not preview:
        return None
    return MessageRecord(
        platform_id=str(message.id),
        author=PersonRecord(str(author.id), author.display_name, author.bot),
        created_at=message.created_at,
        text=text,
        preview=preview,
        thread_id=_thread_of(message),
        reply_to_id=_reply_to(message),
        edited_at=message.edited_at,
        reaction_count=sum(r.count for r in message.reactions),
        permalink=message.jump_url,
        pinned=message.pinned,
    )


def reactor_of(payload: discord.RawReactionActionEvent) -> PersonRecord | None:
    """Who added a reaction, when the gateway says (it sends the member on an add)."""
    member = payload.member
    if member is None:
        return None
    return PersonRecord(str(member.id), member.display_name, member.bot)


def _joined(parts: list[str]) -> str:
    return "\n".join(p.strip() for p in parts if p and p.strip())


def _thread_of(message: discord.Message) -> str | None:
    if isinstance(message.channel, discord.Thread):
        return str(message.channel.id)
    # A thread started from a message has the message's id.
    return str(message.id) if message.thread is not None else None


def _reply_to(message: discord.Message) -> str | None:
    ref = message.reference
    if ref is None or ref.message_id is None or ref.channel_id != message.channel.id:
        return None
    return str(ref.message_id)
