"""Malformed and unauthenticated HTTP requests get a 4xx, never a 500: to the Slack Events
API endpoint (real HTTP to the bot's aiohttp app, the fake Slack behind it) and to the review
page (aiohttp's test client over the core and the fake port). Every answer of the review page,
error pages included, carries its security headers."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from tests.core.test_access import snapshot
from tests.fakes.fakeslack import FakeSlack, event_body, signed_headers
from tests.slack.test_events_path import message, served
from tests.slack.test_week import HERO, SECRET, Slack, slack_world, ts  # noqa: F401
from tests.support.waiting import stored
from tests.web.test_review_site import EDITOR, Bot, csrf_of, open_page, scenario

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


EVENT = event_body(message(9, "Never stored"))
# body, headers (or a content type: signed as the request is sent, as a signature is good for
# five minutes only), the status expected
EVENTS_API: dict[str, tuple[bytes, dict[str, str] | str, int]] = {
    "unsigned": (EVENT.encode(), {"Content-Type": JSON}, 401),
    "empty timestamp": (
        EVENT.encode(),
        {"Content-Type": JSON, "X-Slack-Request-Timestamp": "", "X-Slack-Signature": "v0=0"},
        401,
    ),
    "timestamp not a number": (
        EVENT.encode(),
        {"Content-Type": JSON, "X-Slack-Request-Timestamp": "soon", "X-Slack-Signature": "v0"},
        401,
    ),
    "not UTF-8": (b"\xff\xfe" + EVENT.encode(), {"Content-Type": JSON}, 400),
    "signed JSON list": (b'["event_callback"]', JSON, 400),
    "signed JSON string": (b'"event_callback"', JSON, 400),
    "signed JSON number": (b"7", JSON, 400),
    "signed, not JSON": (b"{event_callback", JSON, 400),
    "signed, event a list": (
        json.dumps({"type": "event_callback", "event": []}).encode(),
        JSON,
        400,
    ),
    "signed form, payload a list": (b"payload=%5B1%5D", FORM, 400),
    "signed form, payload not JSON": (b"payload=%7Bx", FORM, 400),
}


@pytest.mark.parametrize("case", list(EVENTS_API))
def test_malformed_events_api_requests_get_a_4xx(sessions, slack_world, case: str) -> None:  # noqa: F811
    body, headers, status = EVENTS_API[case]
    if isinstance(headers, str):
        headers = signed_headers(SECRET, body.decode(), content_type=headers)

    async def go() -> None:
        async with FakeSlack() as fake:
            slack_world(fake)
            s = Slack(fake, sessions)
            await s.enable_hero()
            before = stored(sessions)
            async with served(s) as url, aiohttp.ClientSession() as http:
                async with http.post(url, data=body, headers=headers) as got:
                    assert got.status == status
                assert stored(sessions) == before
                # The endpoint still takes the next event.
                event = event_body(message(10, "Still logging"))
                signed = signed_headers(SECRET, event, content_type=JSON)
                async with http.post(url, data=event, headers=signed) as got:
                    assert got.status == 200
                assert stored(sessions)[f"{HERO}:{ts(20, 10)}"] == "Still logging"

    asyncio.run(asyncio.wait_for(go(), 30))


SECURITY_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "Cache-Control")


def _secured(response: aiohttp.ClientResponse) -> bool:
    return all(name in response.headers for name in SECURITY_HEADERS)


@pytest.fixture
def bot(sessions) -> Bot:
    return Bot(sessions)


def test_odd_tokens_and_cookies_are_refused_not_failed(bot: Bot) -> None:
    async def body(client: TestClient) -> None:
        for token in ("é.é", bot.link(EDITOR.user_id)[:-2] + "é"):
            got = await client.get("/review/open", params={"t": token})
            assert got.status == 403 and _secured(got)
            got = await client.post("/review/open", data={"t": token})
            assert got.status == 403 and _secured(got)
        got = await client.get("/review/open?t=%FF.%FF%FE")  # bytes that are not UTF-8
        assert got.status == 403
        for cookie in ("é.é", "%C3%A9.%C3%A9"):
            raw = f"summarybot_review={cookie}".encode().decode("latin-1")
            got = await client.get(f"/review/{bot.draft}", headers={"Cookie": raw})
            assert got.status == 403 and _secured(got)

    scenario(bot, body)


def test_odd_forms_are_refused_and_change_nothing(bot: Bot, sessions) -> None:
    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        csrf = csrf_of(html)
        save = f"/review/{bot.draft}/sections/{bot.section}"
        before = snapshot(sessions)
        got = await client.post(save, data={"csrf": "é" * 43, "revision": "0", "text": "x"})
        assert got.status == 400 and _secured(got)
        for name in ("csrf", "text", "revision"):
            fields = {"csrf": csrf, "revision": "0", "text": "Sent as a file."}
            form = aiohttp.FormData()
            for key, value in fields.items():
                if key == name:
                    form.add_field(key, value.encode(), filename=f"{key}.txt")
                else:
                    form.add_field(key, value)
            got = await client.post(save, data=form)
            assert got.status == 400, name
            assert "a file where text belongs" in await got.text()
        exchange = aiohttp.FormData()
        exchange.add_field("t", bot.link(EDITOR.user_id).encode(), filename="t.txt")
        assert (await client.post("/review/open", data=exchange)).status == 400
        assert snapshot(sessions) == before

    scenario(bot, body)


def test_every_error_page_carries_the_security_headers(bot: Bot) -> None:
    async def body(client: TestClient) -> None:
        await open_page(client, bot.link(EDITOR.user_id))
        missing = await client.get("/review/nothing-here")
        assert missing.status == 404 and _secured(missing)
        wrong_method = await client.get(f"/review/{bot.draft}/approve")
        assert wrong_method.status == 405 and _secured(wrong_method)
        assert "POST" in wrong_method.headers["Allow"]
        too_large = await client.post(f"/review/{bot.draft}/approve", data={"csrf": "x" * 2**21})
        assert too_large.status == 413 and _secured(too_large)

    scenario(bot, body)


def test_a_save_whose_thread_message_is_gone_says_it_was_saved(bot: Bot) -> None:
    """The revision is committed before the thread's message is updated; when that update
    fails (the message was deleted), the editor is told the text is saved, not shown a 500."""

    async def body(client: TestClient) -> None:
        _, html = await open_page(client, bot.link(EDITOR.user_id))
        csrf = csrf_of(html)
        bot.port.fail("update")  # as Slack answers message_not_found
        save = f"/review/{bot.draft}/sections/{bot.section}"
        form = {"csrf": csrf, "revision": "0", "text": "Saved while the thread was gone."}
        got = await client.post(save, data=form)
        assert got.status == 200 and _secured(got)
        text = await got.text()
        assert "was saved (revision 1)" in text
        assert "could not be updated" in text
        state = await (await client.get(f"/review/{bot.draft}/state")).json()
        (section,) = [s for s in state["sections"] if s["id"] == bot.section]
        assert (section["revision"], section["markdown"]) == (1, form["text"])
        # Saving the next revision works as usual once the thread can be updated.
        form = {"csrf": csrf, "revision": "1", "text": "The next revision."}
        assert "updated (revision 2)" in await (await client.post(save, data=form)).text()

    scenario(bot, body)
