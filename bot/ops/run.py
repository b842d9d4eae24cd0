"""`summarybot run`: the composition root of the running bot. One event loop runs the
platform connection, the scheduler and the core."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Awaitable, Callable, Iterator

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.core.review_links import PageLinks, PageSigner
from bot.core.router import Core, core_for
from bot.drafting.github.client import GitHubClient
from bot.drafting.llm.client import LLMClient
from bot.drafting.service import MakeGitHub, MakeLLM
from bot.ops.env import Environment
from bot.ops.health import Health, Probe, start_health_server
from bot.web.proxies import parse_proxies
from bot.web.site import Desk, ReviewSite, start_site

log = logging.getLogger(__name__)


class NoPlatform(Exception):
    """No platform has the tokens it needs in the environment."""


class LLMNotConfigured(Exception):
    """The config names no model."""


async def serve(
    engine: Engine, sessions: sessionmaker[Session], config: Config, env: Environment
) -> None:
    """Run until SIGTERM or SIGINT (or cancelled): connect every platform with a token, start
    each one's scheduler, finish what a crash left (review posts, publishing), and backfill
    what was said while the bot was away. On the signal, the schedulers are shut down and
    every connection closed before this returns."""
    if not env.slack_bot_token and not env.discord_token:
        raise NoPlatform(
            "no platform token is set: set DISCORD_TOKEN, or SLACK_BOT_TOKEN with "
            "SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP); see the README"
        )
    cores: list[Core] = []
    probes: dict[str, Probe] = {}
    stops: list[Callable[[], Awaitable[None]]] = []
    signer = page_signer(env)
    desks: dict[str, Desk] = {}
    stopping = asyncio.Event()
    with _stop_on_signals(stopping):
        try:
            if env.slack_bot_token:
                core, stop, probes["slack"], desks["slack"] = await _start_slack(
                    sessions, config, env, signer
                )
                cores.append(core)
                stops.append(stop)
            if env.discord_token:
                core, stop, probes["discord"] = await _start_discord(sessions, config, env, signer)
                desks["discord"] = Desk(core.review, core.page_caller)
                cores.append(core)
                stops.append(stop)
            for core in cores:
                await core.scheduler.start()
                await core.resume()
            health = Health(engine, probes, lambda: all(c.scheduler.running for c in cores))
            server = await start_health_server(
                health, env.summarybot_health_port, env.summarybot_health_host
            )
            stops.append(server.cleanup)
            if signer is not None and desks:
                site = ReviewSite(
                    signer,
                    env.summarybot_public_url,
                    desks,
                    trusted_proxies=parse_proxies(env.summarybot_trusted_proxies),
                )
                stops.append(
                    await start_site(site, env.summarybot_web_port, env.summarybot_web_host)
                )
                log.info(
                    "review page at %s (listening on %s port %s)",
                    env.summarybot_public_url,
                    env.summarybot_web_host,
                    env.summarybot_web_port,
                )
            # Everything loaded at start-up lives as long as the process: moving it out of the
            # collector's reach removed the 70-85 ms full collections behind the p99 latency.
            gc.freeze()
            log.info(
                "running; health and metrics on %s port %s",
                env.summarybot_health_host,
                env.summarybot_health_port,
            )
            await stopping.wait()
        finally:
            for core in cores:
                await core.scheduler.shutdown()
            for stop in reversed(stops):
                await stop()
            for core in cores:
                core.close()
    log.info("stopped cleanly")


@contextlib.contextmanager
def _stop_on_signals(stopping: asyncio.Event) -> Iterator[None]:
    """SIGTERM (Kubernetes, systemd, `docker stop`) and SIGINT (Ctrl-C) set `stopping`; one
    that comes during start-up stops the bot as soon as start-up is done."""
    loop = asyncio.get_running_loop()
    signals = (signal.SIGTERM, signal.SIGINT)
    for number in signals:
        loop.add_signal_handler(number, _on_signal, number, stopping)
    try:
        yield
    finally:
        for number in signals:
            loop.remove_signal_handler(number)


def _on_signal(number: int, stopping: asyncio.Event) -> None:
    log.info("%s received: stopping", signal.Signals(number).name)
    stopping.set()


def page_signer(env: Environment) -> PageSigner | None:
    """The review page's signer, when SUMMARYBOT_SECRET_KEY and SUMMARYBOT_PUBLIC_URL are
    both set (else the page and its button are off)."""
    if not (env.summarybot_secret_key and env.summarybot_public_url):
        return None
    return PageSigner(env.summarybot_secret_key)


def llm_client_for(config: Config, env: Environment) -> MakeLLM:
    """Makes the client of the configured endpoint, or says what is missing."""
    if not config.llm.model:
        raise LLMNotConfigured(
            "the LLM drafter needs a model: set [llm] model (and base_url) in the config"
        )
    return lambda: LLMClient(
        base_url=config.llm.base_url, model=config.llm.model, api_key=env.llm_api_key
    )


def llm_for(config: Config, env: Environment) -> MakeLLM | None:
    """Makes the LLM drafter's client, when the config names a model."""
    try:
        return llm_client_for(config, env)
    except LLMNotConfigured:
        return None


def github_for(env: Environment) -> MakeGitHub:
    """Makes the GitHub client drafting uses (when `[github] enabled` in the config)."""
    return lambda: GitHubClient(base_url=env.github_api_url, token=env.github_token)


async def _start_slack(
    sessions: sessionmaker[Session], config: Config, env: Environment, signer: PageSigner | None
) -> tuple[Core, Callable[[], Awaitable[None]], Probe, Desk]:
    from bot.slack.app import SlackBot
    from bot.slack.run import slack_client, start_slack

    make_core = core_for(
        sessions,
        config,
        platform="slack",
        github=github_for(env),
        llm=llm_for(config, env),
        page=PageLinks(signer, env.summarybot_public_url, "slack") if signer else None,
    )

    bot = SlackBot(make_core, slack_client(env), env.slack_signing_secret)
    core = bot.core
    stop, connected = await start_slack(bot, env)
    await core.catch_up()
    return core, stop, connected, Desk(core.review, core.page_caller)


async def _start_discord(
    sessions: sessionmaker[Session], config: Config, env: Environment, signer: PageSigner | None
) -> tuple[Core, Callable[[], Awaitable[None]], Probe]:
    from bot.discord.run import discord_client, point_at, start_discord

    point_at(env.discord_api_url, env.discord_gateway_url)

    make_core = core_for(
        sessions,
        config,
        platform="discord",
        github=github_for(env),
        llm=llm_for(config, env),
        page=PageLinks(signer, env.summarybot_public_url, "discord") if signer else None,
    )

    client = discord_client(make_core, env.discord_shards())
    core = client.core
    task = await start_discord(client, env.discord_token)

    async def stop() -> None:
        await client.close()
        await asyncio.wait_for(task, 10)

    async def connected() -> bool:
        return client.is_ready() and not client.is_closed()

    log.info("Discord: connecting")  # it backfills on ready
    return core, stop, connected
