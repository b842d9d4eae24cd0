"""/healthz and /metrics, and `summarybot run` serving them next to a Slack connection."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from pathlib import Path

import aiohttp

from bot.ops.config import load_config
from bot.ops.env import Environment
from bot.ops.health import Health, health_app, start_health_server
from bot.ops.logs import configure
from bot.ops.run import serve
from storage.db import make_engine
from tests.fakes.fakeslack import FakeSlack, event_payload


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


def test_healthz_says_what_is_wrong(engine) -> None:
    async def check() -> None:
        connected = {"slack": True}

        async def slack() -> bool:
            return connected["slack"]

        health = Health(engine, {"slack": slack}, lambda: True)
        from aiohttp.test_utils import TestClient, TestServer

        async with TestClient(TestServer(health_app(health))) as client:
            response = await client.get("/healthz")
            body = await response.json()
            assert response.status == 200 and body["status"] == "ok"
            assert body["database"] and body["platforms"] == {"slack": True}
            connected["slack"] = False
            response = await client.get("/healthz")
            assert response.status == 503 and (await response.json())["platforms"]["slack"] is False

        broken = Health(make_engine("sqlite:////nonexistent/dir/x.db"), {}, lambda: False)
        report = await broken.report()
        assert (
            report["status"] == "unhealthy" and not report["database"] and not report["scheduler"]
        )

    asyncio.run(check())


def test_run_serves_health_and_metrics_next_to_slack(sessions, engine, monkeypatch) -> None:
    port = free_port()
    monkeypatch.setenv("SUMMARYBOT_HEALTH_PORT", str(port))

    async def scenario() -> None:
        async with FakeSlack() as fake:
            fake.add_user("UANA", "Ana Ruiz")
            fake.add_channel("C0HERO", "hero-run")
            env = Environment(
                slack_bot_token="xoxb-test",
                slack_app_token="xapp-test",
                slack_api_url=fake.url,
                summarybot_health_port=port,
            )
            task = asyncio.create_task(serve(engine, sessions, load_config(), env))
            try:
                deadline = time.monotonic() + 10
                while True:
                    try:
                        status, body = await get(f"http://127.0.0.1:{port}/healthz")
                        if status == 200:
                            break
                    except aiohttp.ClientError:
                        pass
                    assert time.monotonic() < deadline, "the bot never became healthy"
                    await asyncio.sleep(0.05)
                report = json.loads(body)
                assert report["platforms"] == {"slack": True} and report["scheduler"]
                await fake.send_envelope(
                    "events_api",
                    event_payload(
                        {
                            "type": "message",
                            "channel": "C0HERO",
                            "user": "UANA",
                            "ts": "1763370000.000100",
                            "text": "not logged: channel not enabled",
                        }
                    ),
                )
                status, metrics = await get(f"http://127.0.0.1:{port}/metrics")
                assert status == 200
                assert (
                    'summarybot_events_received_total{kind="message",platform="slack"}' in metrics
                )
                assert "summarybot_storage_seconds_bucket" in metrics
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_json_logs_carry_no_tokens(capsys) -> None:
    configure("json")
    logging.getLogger("bot.test").info("stored %d message(s)", 3)
    line = capsys.readouterr().err.strip().splitlines()[-1]
    record = json.loads(line)
    assert record["message"] == "stored 3 message(s)" and record["level"] == "INFO"
    assert logging.getLogger("httpx").level == logging.WARNING
    configure("text")


def test_health_listens_on_loopback_unless_opened(engine, monkeypatch) -> None:
    monkeypatch.delenv("SUMMARYBOT_HEALTH_HOST", raising=False)
    assert Environment(_env_file=None).summarybot_health_host == "127.0.0.1"
    monkeypatch.setenv("SUMMARYBOT_HEALTH_HOST", "0.0.0.0")
    assert Environment(_env_file=None).summarybot_health_host == "0.0.0.0"

    async def serve_default() -> list:
        server = await start_health_server(Health(engine, {}, lambda: True), free_port())
        try:
            return [address[0] for address in server.addresses]
        finally:
            await server.cleanup()

    assert asyncio.run(serve_default()) == ["127.0.0.1"]
    # The image opens them (Docker maps the port); compose publishes it on loopback only.
    root = Path(__file__).parents[2]
    assert "SUMMARYBOT_HEALTH_HOST=0.0.0.0" in (root / "Dockerfile").read_text()
    assert "SUMMARYBOT_HEALTH_HOST: 0.0.0.0" in (root / "compose.yaml").read_text()


def test_the_database_check_runs_off_the_event_loop(engine, monkeypatch) -> None:
    health = Health(engine, {}, lambda: True)
    threads = []

    def database_ok() -> bool:
        threads.append(threading.current_thread())
        return True

    monkeypatch.setattr(health, "database_ok", database_ok)
    assert asyncio.run(health.report())["database"]
    assert threads and threads[0] is not threading.main_thread()
