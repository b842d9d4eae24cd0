"""Pinned Slack messages: from exports (`pinned_to`, channels.json `pins`), from history, and
live (`pin_added` / `pin_removed` through the real Bolt app, its client on the fake Slack)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import select

from bot.core.ingest import import_paths
from bot.ops.formats import EXPORT_FORMATS
from storage.models import Message
from tests.fakes.fakeslack import FakeSlack
from tests.slack.test_export import CHANNELS, make_export, msg
from tests.slack.test_week import HERO, Slack, slack_world, ts  # noqa: F401
from tests.support.realdata import real_data
from tests.support.waiting import eventually


def pins(sessions) -> dict[str, bool]:  # noqa: ANN001 (a sessionmaker)
    """Every stored message's pinned flag, by platform id."""
    with sessions() as session:
        return dict(session.execute(select(Message.platform_id, Message.pinned)).all())


def test_an_export_s_pinned_messages_are_stored_pinned(sessions, tmp_path: Path) -> None:
    channels = [{**CHANNELS[0], "pins": [{"id": "1452837319.000003", "type": "C"}]}, CHANNELS[1]]
    notice = msg(
        "1452837400.000001",
        "<@U1|ada> pinned a message to this channel.",
        subtype="pinned_item",
        item_type="C",
        attachments=[{"ts": "1452837318.000002", "text": "Release 2.1 is out"}],
    )
    day = [
        msg("1452837318.000002", "Release 2.1 is out", pinned_to=["C1"]),
        msg("1452837319.000003", "Meetup on Thursday"),  # listed in channels.json
        msg("1452837320.000004", "lunch?"),
        notice,
    ]
    root = make_export(tmp_path / "export", {"general/2016-01-15.json": day}, channels=channels)
    report = import_paths(sessions, [root], EXPORT_FORMATS)
    assert report.errors == []
    assert pins(sessions) == {
        "C1:1452837318.000002": True,
        "C1:1452837319.000003": True,
        "C1:1452837320.000004": False,
    }  # the notice is not content


def test_houstondatavis_pinned_message_comes_out_pinned(sessions) -> None:
    """The real export lists one pin in channels.json (#datajam), of a message that does not
    carry `pinned_to`, next to the "pinned a message" notice, which is not stored."""
    report = import_paths(sessions, [real_data("slack-houstondatavis")], EXPORT_FORMATS)
    assert report.errors == []
    stored = pins(sessions)
    assert {pid for pid, pinned in stored.items() if pinned} == {"C061A0WJG:1444755381.000003"}
    assert "C061A0WJG:1444755463.000006" not in stored  # the pinned_item notice
    with sessions() as session:
        text = session.scalar(
            select(Message.text).where(Message.platform_id == "C061A0WJG:1444755381.000003")
        )
    assert text.startswith("New data jam event posted.")


def pin_event(kind: str, message_ts: str, item_type: str = "message") -> dict:
    """A `pin_added` / `pin_removed` event as Slack sends it."""
    item = {"type": item_type, "channel": HERO, "created": 1763888400, "created_by": "UADMIN"}
    if item_type == "message":
        item["message"] = {"type": "message", "user": "UANA", "ts": message_ts, "text": "..."}
    else:
        item["file"] = {"id": "F0FILE"}
    return {
        "type": kind,
        "user": "UADMIN",
        "channel_id": HERO,
        "item": item,
        "item_user": "UANA",
        "pin_count": 1,
        "event_ts": ts(20, 9),
    }


def test_pins_from_history_and_live_pin_events(sessions, slack_world) -> None:  # noqa: F811
    checkpoint, root = f"{HERO}:{ts(18, 9)}", f"{HERO}:{ts(17, 10)}"

    async def scenario() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            fake.history[HERO][0]["pinned_to"] = [HERO]  # the checkpoint post, pinned
            s = Slack(fake, sessions)
            await s.enable_hero()
            assert pins(sessions)[checkpoint] is True  # read from history
            assert pins(sessions)[root] is False

            assert await s.event(pin_event("pin_added", ts(17, 10))) == 200
            await eventually(lambda: pins(sessions)[root])
            assert await s.event(pin_event("pin_removed", ts(18, 9))) == 200
            await eventually(lambda: not pins(sessions)[checkpoint])

            # A pin of a message never stored stores nothing; a pinned file is no message.
            before = pins(sessions)
            assert await s.event(pin_event("pin_added", ts(19, 23))) == 200
            assert await s.event(pin_event("pin_added", ts(17, 10), item_type="file")) == 200
            assert pins(sessions) == before

    asyncio.run(asyncio.wait_for(scenario(), 30))
