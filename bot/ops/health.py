"""`/healthz` and `/metrics` for operators: is the bot healthy, and what has it been doing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import Engine, text

from bot.core import metrics

Probe = Callable[[], Awaitable[bool]]


class Health:
    """What makes the bot healthy: its database answers, every platform it serves is
    connected, and its scheduler runs."""

    def __init__(
        self, engine: Engine, platforms: Mapping[str, Probe], scheduler_running: Callable[[], bool]
    ) -> None:
        self.engine = engine
        self.platforms = dict(platforms)
        self.scheduler_running = scheduler_running

    def database_ok(self) -> bool:
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception:
            return False
        return True

    async def report(self) -> dict[str, Any]:
        """The health report; the database is asked on a worker thread, so a slow database
        never stalls the event loop (nor the platforms' connections)."""
        platforms = {name: await probe() for name, probe in self.platforms.items()}
        last = metrics.REGISTRY.get_sample_value("summarybot_last_stored_timestamp_seconds")
        report = {
            "database": await asyncio.to_thread(self.database_ok),
            "platforms": platforms,
            "scheduler": self.scheduler_running(),
            "last_stored_age_seconds": round(time.time() - last, 1) if last else None,
        }
        healthy = report["database"] and report["scheduler"] and all(platforms.values())
        return {"status": "ok" if healthy else "unhealthy", **report}


def health_app(health: Health) -> web.Application:
    async def healthz(_request: web.Request) -> web.Response:
        report = await health.report()
        return web.json_response(report, status=200 if report["status"] == "ok" else 503)

    async def metrics_page(_request: web.Request) -> web.Response:
        body = generate_latest(metrics.REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_page)
    return app


DEFAULT_HOST = "127.0.0.1"  # unauthenticated: this machine only, unless opened on purpose


async def start_health_server(health: Health, port: int, host: str = DEFAULT_HOST) -> web.AppRunner:
    """Serve /healthz and /metrics on `host` (loopback by default; the image sets
    SUMMARYBOT_HEALTH_HOST=0.0.0.0 so Docker can map the port); returns the runner (its
    `addresses`, and `cleanup` to stop it)."""
    runner = web.AppRunner(health_app(health))
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
