"""The TOML configuration: defaults, overrides, and one clear error per mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.ops.config import ConfigError, load_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "summarybot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_default_config_has_the_standing_topics_and_a_catch_all() -> None:
    config = load_config()
    assert [t.id for t in config.topic_list] == [
        "hero-run",
        "iris",
        "data",
        "rl",
        "introductions",
        "other",
    ]
    assert config.timezone == "UTC"


def test_a_user_file_overrides_only_what_it_sets(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            """
name = "Marin"
default_repo = "marin-community/marin"
[repos]
MarinSkyRL = "marin-community/MarinSkyRL"
[draft]
max_chars = 4000
""",
        )
    )
    assert config.name == "Marin" and config.draft.max_chars == 4000
    assert config.repos == {"MarinSkyRL": "marin-community/MarinSkyRL"}
    assert [t.id for t in config.topic_list][0] == "hero-run"  # topics kept from the default


def test_topics_in_a_user_file_replace_the_defaults_and_get_a_catch_all(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            """
[[topics]]
id = "kernels"
title = "Kernels"
channels = ["#kernels"]
keywords = ["Pallas", "Triton"]
""",
        )
    )
    topics = config.topic_list
    assert [t.id for t in topics] == ["kernels", "other"]
    assert topics[0].channels == ("kernels",)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name = ", "not valid TOML"),
        ('timezone = "Mars/Olympus"', "unknown timezone 'Mars/Olympus'"),
        ('title_template = "{team} weekly"', "unknown placeholder(s) ['team']"),
        ('default_repo = "marin"', "'marin' is not of the form owner/repo"),
        ("colour = 3", "colour: Extra inputs are not permitted"),
        ('[[topics]]\nid = "x"\ntitle = "X"\npatterns = ["(unclosed"]', "not a valid regular"),
        ('[[topics]]\nid = "x"\ntitle = "X"\n[[topics]]\nid = "x"\ntitle = "Y"', "repeated: ['x']"),
        ('[[topics]]\nid = "Hero Run"\ntitle = "X"', "topics.0.id"),
        ("[draft]\nmax_chars = 10", "draft.max_chars"),
    ],
)
def test_mistakes_get_one_clear_error_naming_the_file(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value).startswith(str(path))
    assert expected in str(error.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")
