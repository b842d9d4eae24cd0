"""The environment's Discord shard settings: which shards this process holds."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.ops.cli import app
from bot.ops.env import Environment


def shards(**values: object):
    return Environment(_env_file=None, **values).discord_shards()


def test_without_a_shard_count_the_bot_is_not_sharded() -> None:
    assert shards() is None


def test_a_process_holds_the_shards_it_is_given_of_the_count() -> None:
    assert shards(discord_shard_count=4, discord_shard_ids="3, 1") == ([1, 3], 4)


def test_a_shard_count_alone_holds_every_shard() -> None:
    assert shards(discord_shard_count=2) == ([0, 1], 2)


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"discord_shard_ids": "0"}, "needs DISCORD_SHARD_COUNT"),
        ({"discord_shard_count": 2, "discord_shard_ids": "2"}, "from 0 to 1"),
        ({"discord_shard_count": 2, "discord_shard_ids": "zero"}, "comma-separated"),
        ({"discord_shard_count": 0}, "1 or more"),
    ],
)
def test_shard_settings_that_cannot_work_are_refused_with_the_reason(values, problem) -> None:
    with pytest.raises(ValueError, match=problem):
        shards(**values)


def test_run_refuses_shard_settings_that_cannot_work_before_connecting(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env to read
    monkeypatch.setenv("DISCORD_TOKEN", "fake.token")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0,1")
    monkeypatch.delenv("DISCORD_SHARD_COUNT", raising=False)
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        result = CliRunner().invoke(app, ["--database", f"sqlite:///{tmp_path}/t.db", "run"])
    finally:
        root.handlers[:], root.level = handlers, level
    assert result.exit_code == 2
    assert "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT" in result.stderr
