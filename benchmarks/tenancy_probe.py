"""Probe of issue 21's tenancy, revocation, malformed-request and retry items, black-box.

The Slack side runs as `summarybot run` serves it (the Bolt app behind aiohttp at /slack/events
on 127.0.0.1:0, its Web API client pointed at the fake Slack); the review page runs as
`bot.web.site.ReviewSite` against the core and the in-memory fake port. Measured:

* foreign events: signed Events API requests carrying another team's `team_id` (a new message,
  an edit and a delete of a stored message): how many changed the database;
* revocation: after an editor is removed from the editors' user group, an admin is demoted, or
  a user is deactivated, how many seconds (of an injected clock, stepped by one second) until
  the review page's `page_caller` sees it: with the Slack event (`subteam_members_changed`,
  `user_change`) delivered, and with it lost (the TTL backstop);
* the HTTP status of each malformed request (Events API and review page), and whether a 404
  carries the security headers;
* `summarybot_events_received` after one event and its redelivery (`X-Slack-Retry-Num`).

    python benchmarks/tenancy_probe.py [--database URL]

Prints one Markdown table per part. Runs against whatever `bot` package the current directory
holds, so the same script measures a checkout before and after a change.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

REPO = Path.cwd()
sys.path.insert(0, str(REPO))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

import bot.slack.directory as directory_module  # noqa: E402
from bot.core import metrics  # noqa: E402
from bot.core.router import core_for  # noqa: E402
from bot.ops.config import load_config  # noqa: E402
from bot.ops.env import Environment  # noqa: E402
from bot.slack.app import SlackBot  # noqa: E402
from bot.slack.run import EVENTS_PATH, slack_client  # noqa: E402
from storage.db import make_engine, make_sessionmaker, migrate  # noqa: E402
from storage.records import WorkspaceRecord  # noqa: E402
from tests.fakes.fakeslack import (  # noqa: E402
    FakeSlack,
    command_body,
    event_body,
    signed_headers,
)
from tests.support.waiting import eventually, stored  # noqa: E402

SECRET = "signing-secret"
HERO = "C0HERO"
FOREIGN = "T0OTHER"
NOW_TS = "1795600000.000100"


class Clock:
    """A monotonic clock the probe steps by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def use_clock(directory: Any, clock: Clock) -> None:
    """Point the directory's cache at `clock`: its `clock` field when it has one, else the
    module's `time` (the code before the change read `time.monotonic()` there)."""
    if hasattr(directory, "clock"):
        directory.clock = clock
    else:
        directory_module.time = types.SimpleNamespace(monotonic=clock)


def received(kind: str) -> float:
    labels = {"platform": "slack", "kind": kind}
    return metrics.REGISTRY.get_sample_value("summarybot_events_received_total", labels) or 0.0


class World:
    """The fake Slack, the bot, and its Events API served over HTTP."""

    def __init__(self, fake: FakeSlack, sessions: Any) -> None:
        self.fake = fake
        self.sessions = sessions
        client = slack_client(Environment(slack_bot_token="xoxb-test", slack_api_url=fake.url))
        make_core = core_for(sessions, load_config(), platform="slack")
        self.bot = SlackBot(make_core, client, signing_secret=SECRET)
        self.core = self.bot.core
        self.url = ""
        self.runner: web.AppRunner | None = None

    async def start(self) -> None:
        self.runner = web.AppRunner(self.bot.web_app(EVENTS_PATH))
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}{EVENTS_PATH}"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        self.core.close()

    async def post(self, body: str, headers: dict[str, str]) -> int:
        async with (
            aiohttp.ClientSession() as http,
            http.post(self.url, data=body.encode(), headers=headers) as got,
        ):
            return got.status

    async def signed(self, body: str, content_type: str = "application/json", **extra: str) -> int:
        headers = signed_headers(SECRET, body, content_type=content_type) | extra
        return await self.post(body, headers)

    async def command(self, user: str, text: str) -> None:
        url = self.fake.response_url()
        body = command_body("/summary", text, user_id=user, channel_id=HERO, response_url=url)
        assert await self.signed(body, "application/x-www-form-urlencoded") == 200
        await eventually(lambda: url in self.fake.responses_by_url)


def message(ts: str, text: str) -> dict:
    return {"type": "message", "channel": HERO, "user": "UANA", "ts": ts, "text": text}


async def foreign_events(w: World) -> list[tuple[str, str]]:
    own = message("1795600000.000001", "Own team's message (#9300)")
    assert await w.signed(event_body(own)) == 200
    await eventually(lambda: f"{HERO}:{own['ts']}" in stored(w.sessions))
    before = stored(w.sessions)
    new = message("1795600000.000002", "Another team's message")
    edit = {
        "type": "message",
        "subtype": "message_changed",
        "channel": HERO,
        "hidden": True,
        "ts": "1795600000.000003",
        "message": {"type": "message", "user": "UANA", "ts": own["ts"], "text": "Rewritten"},
    }
    delete = {
        "type": "message",
        "subtype": "message_deleted",
        "channel": HERO,
        "hidden": True,
        "ts": "1795600000.000004",
        "deleted_ts": own["ts"],
    }
    rows = []
    for name, event in (("new message", new), ("edit", edit), ("delete", delete)):
        status = await w.signed(event_body(event, team=FOREIGN))
        after = stored(w.sessions)
        changed = after != before
        rows.append((f"foreign {name}", f"HTTP {status}, database changed: {changed}"))
        before = after
    refused = metrics.REGISTRY.get_sample_value(
        "summarybot_foreign_events_total", {"platform": "slack"}
    )
    rows.append(("foreign events counted", "no metric" if refused is None else f"{refused:.0f}"))
    return rows


async def retries(w: World) -> list[tuple[str, str]]:
    event = message("1795600000.000010", "Delivered twice (#9301)")
    body = event_body(event, event_id="EvRETRY1")
    start = received("message")
    assert await w.signed(body) == 200
    assert await w.signed(body, **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "timeout"})
    rows = stored(w.sessions)
    return [
        ("rows for the message", str(sum(1 for k in rows if k.endswith(event["ts"])))),
        ("events_received added", f"{received('message') - start:.0f}"),
    ]


async def revocation(w: World) -> list[tuple[str, str]]:
    fake = w.fake
    ws_id = await w.core.workspace_id(WorkspaceRecord("slack", FakeSlack.TEAM, "Lab"))
    clock = Clock()
    use_clock(w.bot.directory, clock)
    group = fake.usergroups["S0EDITORS"]

    async def seconds_until(user_id: str, revoked, change, event: dict | None) -> str:  # noqa: ANN001
        """Seconds of the clock until `revoked(caller)` after `change()` (and the event)."""
        assert not revoked(await w.core.page_caller(ws_id, user_id))  # cached from here
        change()
        if event is not None:
            await w.signed(event_body(event))
        for second in range(3601):
            if revoked(await w.core.page_caller(ws_id, user_id)):
                return f"{second} s"
            clock.now += 1
        return "> 3600 s"

    def left_group(caller) -> bool:  # noqa: ANN001
        return caller is None or "S0EDITORS" not in caller.roles

    def demoted(caller) -> bool:  # noqa: ANN001
        return caller is None or not caller.is_admin

    def deactivated(caller) -> bool:  # noqa: ANN001
        return caller is None

    admin = fake.users["UADM2"]
    removed = {
        "type": "subteam_members_changed",
        "subteam_id": "S0EDITORS",
        "team_id": FakeSlack.TEAM,
        "removed_users": ["UEVE"],
        "removed_users_count": 1,
    }
    cases = [
        ("editor removed from the user group", "UEVE", left_group, {"users": []}, removed),
        ("admin demoted", "UADM2", demoted, {"is_admin": False}, None),
        ("user deactivated", "UADM2", deactivated, {"deleted": True}, None),
    ]
    rows = []
    for delivered in (True, False):
        for name, user_id, revoked, change, event in cases:
            group["users"] = ["UEVE"]
            admin.update(is_admin=True, deleted=False)
            clock.now += 4000  # past every cache
            target = group if user_id == "UEVE" else admin
            event = event or {"type": "user_change", "user": {**admin, **change}}
            took = await seconds_until(
                user_id,
                revoked,
                lambda target=target, change=change: target.update(change),
                event if delivered else None,
            )
            how = "event delivered" if delivered else "event lost"
            rows.append((f"{name} ({how})", took))
    return rows


async def malformed_events(w: World) -> list[tuple[str, str]]:
    event = event_body(message("1795600000.000020", "x"))
    cases: list[tuple[str, str, dict[str, str]]] = [
        ("unsigned event", event, {"Content-Type": "application/json"}),
        (
            "empty timestamp",
            event,
            {
                "Content-Type": "application/json",
                "X-Slack-Request-Timestamp": "",
                "X-Slack-Signature": "v0=00",
            },
        ),
    ]
    for name, body in (
        ("signed JSON list", '["event_callback"]'),
        ("signed JSON string", '"event_callback"'),
        ("signed JSON number", "7"),
        ("signed event that is a list", json.dumps({"type": "event_callback", "event": []})),
        ("signed form payload that is a list", "payload=%5B1%5D"),
        ("signed body not JSON", "{event_callback"),
    ):
        ctype = (
            "application/x-www-form-urlencoded"
            if body.startswith("payload")
            else ("application/json")
        )
        cases.append((name, body, signed_headers(SECRET, body, content_type=ctype)))
    return [(name, str(await w.post(body, headers))) for name, body, headers in cases]


def _slack_part(sessions: Any) -> dict[str, list[tuple[str, str]]]:
    async def go() -> dict[str, list[tuple[str, str]]]:
        async with FakeSlack() as fake:
            fake.add_user("UADMIN", "Ada Admin", admin=True)
            fake.add_user("UADM2", "Abe Admin", admin=True)
            fake.add_user("UEVE", "Eve Editor")
            fake.add_user("UANA", "Ana Ruiz")
            fake.add_usergroup("S0EDITORS", "editors", "Editors", ["UEVE"])
            fake.add_channel(HERO, "hero-run")
            w = World(fake, sessions)
            await w.start()
            try:
                await w.command("UADMIN", f"channels add <#{HERO}|hero-run>")
                await w.command("UADMIN", "editors add <!subteam^S0EDITORS|@editors>")
                await eventually(
                    lambda: any("stored since" in m["text"] for m in fake.messages_in(HERO))
                )
                return {
                    "Foreign team's events": await foreign_events(w),
                    "A redelivered event": await retries(w),
                    "Seconds until revocation reaches the review page": await revocation(w),
                    "Malformed Events API requests (HTTP status)": await malformed_events(w),
                }
            finally:
                await w.stop()

    return asyncio.run(asyncio.wait_for(go(), 120))


def _page_part(sessions: Any) -> list[tuple[str, str]]:
    from tests.web.test_review_site import EDITOR, Bot, csrf_of, open_page

    bot = Bot(sessions)
    rows: list[tuple[str, str]] = []

    async def go() -> None:
        async with TestClient(TestServer(bot.site.app())) as client:
            got = await client.get("/review/open", params={"t": "é.é"})
            rows.append(("non-ASCII link token", str(got.status)))
            got = await client.get("/review/open?t=%FF.%FF%FE")
            rows.append(("link token of bytes that are not UTF-8", str(got.status)))
            missing = await client.get("/review/nothing-here")
            headers = "with" if "Content-Security-Policy" in missing.headers else "without"
            rows.append(("unknown page", f"{missing.status} {headers} security headers"))
            _, html = await open_page(client, bot.link(EDITOR.user_id))
            csrf = csrf_of(html)
            save = f"/review/{bot.draft}/sections/{bot.section}"
            got = await client.post(save, data={"csrf": "é", "revision": "0", "text": "x"})
            rows.append(("non-ASCII CSRF value", str(got.status)))
            form = aiohttp.FormData()
            form.add_field("csrf", csrf.encode(), filename="csrf.txt")
            form.add_field("revision", "0")
            form.add_field("text", "x")
            got = await client.post(save, data=form)
            rows.append(("CSRF sent as a file field", str(got.status)))
            bot.port.fail("update")
            got = await client.post(
                save, data={"csrf": csrf, "revision": "0", "text": "Saved, thread gone."}
            )
            text = await got.text()
            says = "says saved" if "revision 1" in text else "does not say"
            rows.append(("save after the thread message was deleted", f"{got.status}, {says}"))
            client.session.cookie_jar.clear()
            cookie = {"Cookie": "summarybot_review=%C3%A9.%C3%A9; other=é"}
            got = await client.get(f"/review/{bot.draft}", headers=cookie)
            rows.append(("percent-encoded non-ASCII session cookie", str(got.status)))
            cookie = {"Cookie": "summarybot_review=é.é".encode().decode("latin-1")}
            got = await client.get(f"/review/{bot.draft}", headers=cookie)
            rows.append(("non-ASCII session cookie", str(got.status)))

    try:
        asyncio.run(asyncio.wait_for(go(), 60))
    finally:
        bot.core.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a database URL (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tables = {}
        for part in ("slack", "page"):
            engine = make_engine(args.database or f"sqlite:///{tmp}/{part}.db")
            migrate(engine)
            sessions = make_sessionmaker(engine)
            try:
                if part == "slack":
                    tables |= _slack_part(sessions)
                else:
                    tables["Malformed review-page requests (HTTP status)"] = _page_part(sessions)
            finally:
                engine.dispose()
    for title, rows in tables.items():
        print(f"\n### {title}\n\n| case | result |\n|---|---|")
        for case, result in rows:
            print(f"| {case} | {result} |")


if __name__ == "__main__":
    main()
