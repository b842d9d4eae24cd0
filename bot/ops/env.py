"""Tokens and deployment settings, read from the environment (or a `.env` file)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.core.platform import Platform
from bot.platforms import registered


class Deployment(BaseSettings):
    """What every deployment sets, whichever platforms it runs on."""

    summarybot_health_port: int = 8080  # /healthz and /metrics
    # Where they listen: this machine only by default (they need no login); 0.0.0.0 opens them.
    summarybot_health_host: str = "127.0.0.1"
    # The review page (both set to enable it): the address editors' browsers reach the bot
    # at (an HTTPS proxy in front of SUMMARYBOT_WEB_HOST:PORT), and the key that signs links.
    summarybot_public_url: str | None = None
    summarybot_secret_key: str | None = None
    summarybot_web_host: str = "127.0.0.1"
    summarybot_web_port: int = 8081
    # The HTTPS proxies in front of the page (addresses or networks, comma-separated): only
    # their X-Forwarded-For is believed, for the link exchange's per-client rate limit.
    summarybot_trusted_proxies: str = ""
    summarybot_log_format: str = "text"  # "json" for one JSON object per log line

    github_token: str | None = None  # optional: raises GitHub's rate limit
    github_api_url: str = "https://api.github.com"  # GitHub Enterprise Server: https://HOST/api/v3

    llm_api_key: str | None = None  # for the LLM drafter's endpoint, when it needs one


def environment_class(platforms: Sequence[Platform]) -> type[Deployment]:
    """The settings of a deployment on `platforms`: each platform's (`Platform.settings`)
    and the `Deployment`'s. Unset tokens mean "not on that platform"; nothing here is ever
    logged."""
    return type(
        "Environment",
        (*(platform.settings for platform in platforms), Deployment),
        {
            "__doc__": environment_class.__doc__,
            "__module__": __name__,
            "model_config": SettingsConfigDict(env_file=".env", extra="ignore"),
        },
    )


Environment = environment_class(registered())
"""The environment of the registered platforms (`bot.platforms`)."""


def read_environment() -> Deployment:
    """The environment of the platforms registered now, read from the process environment
    and `.env`."""
    return environment_class(registered())()
