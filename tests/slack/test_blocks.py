"""What the Slack port sends: mrkdwn that pings nobody, Block Kit buttons, the edit modal."""

from __future__ import annotations

from bot.core.mrkdwn import to_mrkdwn
from bot.core.port import Button
from bot.slack.port import EDIT_ACTION, edit_modal, submitted_text


def test_mrkdwn_converts_markdown_and_escapes_every_mention() -> None:
    text = to_mrkdwn(
        "# Lab: Week\n- **Ana Ruiz**: [#812](https://github.com/o/r/issues/812) at 22% MFU, "
        "<!everyone> <!here> <!channel> <@U123> <#C1|general> a & b"
    )
    assert text.startswith("*Lab: Week*\n- *Ana Ruiz*: <https://github.com/o/r/issues/812|#812>")
    assert "<!" not in text and "<@" not in text and "<#" not in text
    assert "&lt;!everyone&gt;" in text and "a &amp; b" in text


def test_a_long_section_is_split_across_modal_inputs_and_joined_back() -> None:
    paragraphs = [f"Paragraph {n}: " + "word " * 150 for n in range(8)]
    text = "\n\n".join(p.strip() for p in paragraphs)
    view = edit_modal(7, "Hero run", text)
    inputs = [b["element"] for b in view["blocks"]]
    assert len(inputs) > 1 and all(len(e["initial_value"]) <= 3000 for e in inputs)
    assert view["private_metadata"] == "7"
    values = {
        b["block_id"]: {
            EDIT_ACTION: {"type": "plain_text_input", "value": b["element"]["initial_value"]}
        }
        for b in view["blocks"]
    }
    assert submitted_text({"state": {"values": values}}) == text


def test_post_sends_blocks_with_buttons_and_no_unfurls() -> None:
    import asyncio

    from bot.slack.port import SlackPort

    class Client:
        def __init__(self) -> None:
            self.calls: list[dict] = []

        async def chat_postMessage(self, **kwargs):  # noqa: N802 (slack_sdk's name)
            self.calls.append(kwargs)
            return {"channel": "C1", "ts": "1.000100"}

    client = Client()
    posted = asyncio.run(
        SlackPort(client).post("C1", "**Draft** <!here>", [Button("Approve", "approve:3")])
    )
    assert (posted.channel_id, posted.message_id) == ("C1", "1.000100")
    (call,) = client.calls
    assert call["unfurl_links"] is False
    section, actions = call["blocks"]
    assert section["text"]["text"] == "*Draft* &lt;!here&gt;"
    assert actions["elements"][0]["action_id"] == "approve:3"
    assert actions["elements"][0]["style"] == "primary"
    assert "confirm" not in actions["elements"][0]  # only a button that asks for one
