"""Tokens and deployment settings, read from the environment (or a `.env` file)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


class Environment(BaseSettings):
    """Which platforms to start and how to reach them. Unset tokens mean "not on that
    platform"; nothing here is ever logged."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    slack_bot_token: str | None = None  # xoxb-...: enables Slack
    slack_app_token: str | None = None  # xapp-...: Socket Mode (no public URL needed)
    slack_signing_secret: str | None = None  # the HTTP Events API instead of Socket Mode
    slack_api_url: str = "https://slack.com/api/"  # GovSlack, proxies, end-to-end tests
    port: int = 3000  # where the HTTP Events API listens (POST /slack/events)
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

    discord_token: str | None = None  # the bot token: enables Discord
    discord_api_url: str | None = None  # REST base, e.g. a REST proxy (default: discord.com)
    discord_gateway_url: str | None = None  # gateway websocket (default: Discord's)
    # Several processes on Discord: the shard count, and this process's shard ids ("0,1"; all
    # of them when unset). A guild's events reach only the process with its shard.
    discord_shard_count: int | None = None
    discord_shard_ids: str | None = None

    def discord_shards(self) -> tuple[list[int], int] | None:
        """(this process's shard ids, the shard count), or None when not sharded; raises
        ValueError for ids that are not numbers below the count."""
        if self.discord_shard_count is None:
            if self.discord_shard_ids:
                raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
            return None
        count = self.discord_shard_count
        if count < 1:
            raise ValueError("DISCORD_SHARD_COUNT must be 1 or more")
        if not self.discord_shard_ids:
            return list(range(count)), count
        try:
            ids = sorted({int(part) for part in self.discord_shard_ids.split(",")})
        except ValueError:
            raise ValueError("DISCORD_SHARD_IDS is a comma-separated list of numbers") from None
        if not ids or ids[0] < 0 or ids[-1] >= count:
            raise ValueError(f"DISCORD_SHARD_IDS must be numbers from 0 to {count - 1}")
        return ids, count
