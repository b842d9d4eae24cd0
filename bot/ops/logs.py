"""Logging for the running bot: plain lines, or JSON objects with SUMMARYBOT_LOG_FORMAT=json.

Nothing at INFO carries a token or a message's text: the bot logs ids, counts and outcomes,
and the chat libraries, which may log payloads, are kept at WARNING.
"""

from __future__ import annotations

import logging

from pythonjsonlogger.json import JsonFormatter

from bot.platforms import registered

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
CHATTY = (
    "httpx",
    "httpcore",
    *(name for platform in registered() for name in platform.loggers),
    "aiohttp.access",
    "apscheduler",
    "alembic",  # migrations applied at start: "Context impl SQLiteImpl." is no news
)


def configure(log_format: str = "text", level: int = logging.INFO) -> None:
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(
            JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s",
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            )
        )
    else:
        handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in CHATTY:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))
