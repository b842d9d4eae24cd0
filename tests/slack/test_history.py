"""Slack channels by name, backfill progress and catching up after downtime, through the
real Bolt app and AsyncWebClient against the fake Slack on 127.0.0.1."""

from __future__ import annotations

import asyncio

import bot.core.history
from bot.core.settings import workspace_settings
from bot.ops.config import load_config
from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_week import HERO, Slack, ts
from tests.support.waiting import eventually, stored

INTRO = "C0INTRO"


def message(user: str, at: str, text: str, **extra) -> dict:
    return {"type": "message", "user": user, "ts": at, "text": text, **extra}


def test_a_channel_typed_by_name_is_found_joined_and_backfilled(sessions, monkeypatch) -> None:
    monkeypatch.setattr(bot.core.history, "UPDATE_EVERY_S", 0.0)  # report every batch

    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            fake.add_user("UANA", "Ana Ruiz")
            fake.add_channel(HERO, "hero-run")
            for n in range(3):
                fake.add_channel(f"C0OTHER{n}", f"other-{n}")
            fake.add_channel(INTRO, "introductions")
            fake.history[INTRO] = [
                message("UANA", ts(18, 9, n), f"Hello, I am new here ({n})") for n in range(5)
            ]
            s = Slack(fake, sessions)
            monkeypatch.setattr("bot.slack.history.PAGE_SIZE", 2)
            monkeypatch.setattr("bot.slack.directory.CHANNELS_PAGE", 2)

            # Typed as plain text, not a <#C…|…> mention.
            reply = await s.command("UADMIN", "channels add #introductions")
            assert reply["response_type"] == "ephemeral" and "not found" not in reply["text"]
            with sessions() as session:
                assert workspace_settings(session, load_config(), 1).channels == [INTRO]
            await eventually(lambda: any("stored since" in m["text"] for m in fake.ephemeral))
            assert [c.params["channel"] for c in fake.called("conversations.join")] == [INTRO]
            # The progress is for the admin's eyes only, where they typed the command; the
            # channels see none of it.
            assert {(m["channel"], m["user"]) for m in fake.ephemeral} == {(HERO, "UADMIN")}
            progress = [m["text"] for m in fake.ephemeral]
            assert progress[0] == "Fetching #introductions history since 2026-11-16…"
            assert "Fetching #introductions history… 2 messages so far" in progress
            assert progress[-1] == "#introductions: 5 messages stored since 2026-11-16."
            assert fake.messages_in(HERO) == [] and fake.messages_in(INTRO) == []
            assert len([k for k in stored(sessions) if k.startswith(INTRO)]) == 5

            # The list is paginated and cached: a second name costs no request; an unknown
            # name re-reads it once, then says so.
            listed = len(fake.called("conversations.list"))
            assert listed == 3  # five channels, two a page
            await s.command("UADMIN", "review-channel #hero-run")
            assert len(fake.called("conversations.list")) == listed
            monkeypatch.setattr("bot.slack.directory.CHANNELS_RETRY_S", 0.0)
            refused = await s.command("UADMIN", "channels add #nowhere")
            assert refused["text"] == "#nowhere was not found in this workspace."
            assert len(fake.called("conversations.list")) == listed + 3
            # Of two, the one found is added, and the answer says which was not.
            partial = await s.command("UADMIN", "channels add #hero-run #nosuch")
            assert partial["text"].startswith(f"Logging #{HERO} from now on.")
            assert (
                "\n#nosuch was not found in this workspace, so it was not added.\n"
                in (partial["text"])
            )
            with sessions() as session:
                assert workspace_settings(session, load_config(), 1).channels == [HERO, INTRO]

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_catching_up_fetches_late_replies_under_old_roots_and_deletes(sessions) -> None:
    """While the bot was down: a reply under a thread started two weeks ago, an edit, a
    delete. On start the open week (from Monday 23rd, less a day for time zones) is re-read
    and compared."""

    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            fake.add_user("UANA", "Ana Ruiz")
            fake.add_user("UBEN", "Ben Cho")
            fake.add_channel(HERO, "hero-run")
            old_root = message(
                "UANA", ts(9, 9), "Plan for the hero run restarts", thread_ts=ts(9, 9)
            )
            old_root.update(reply_count=1, latest_reply=ts(9, 10))
            first_reply = message("UBEN", ts(9, 10), "Agreed", thread_ts=ts(9, 9))
            kept = message("UANA", ts(22, 9), "MFU at 22.4% (#9141)")
            doomed = message("UBEN", ts(22, 10), "Wrong number, ignore")
            fake.history[HERO] = [doomed, kept, old_root]
            fake.replies[(HERO, ts(9, 9))] = [old_root, first_reply]
            s = Slack(fake, sessions)
            await s.enable_hero()
            assert set(stored(sessions)) == {f"{HERO}:{ts(22, 9)}", f"{HERO}:{ts(22, 10)}"}

            # The bot is down; meanwhile:
            late = message(
                "UBEN", ts(22, 12), "Restarted from step 2318: 23.0% MFU", thread_ts=ts(9, 9)
            )
            fake.replies[(HERO, ts(9, 9))].append(late)
            old_root.update(reply_count=2, latest_reply=ts(22, 12))
            kept.update(text="MFU at 22.5% (#9141)", edited={"user": "UANA", "ts": ts(22, 13)})
            fake.history[HERO].remove(doomed)

            await s.core.catch_up()
            now = stored(sessions)
            assert now[f"{HERO}:{ts(22, 12)}"] == "Restarted from step 2318: 23.0% MFU"
            assert now[f"{HERO}:{ts(22, 9)}"] == "MFU at 22.5% (#9141)"
            assert f"{HERO}:{ts(22, 10)}" not in now
            assert f"{HERO}:{ts(9, 10)}" not in now  # the old reply is not re-stored
            # Not at set-up (the thread had no reply since then), and now only that thread.
            (replies,) = fake.called("conversations.replies")
            assert replies.params["ts"] == ts(9, 9)

    asyncio.run(asyncio.wait_for(scenario(), 30))
