"""Loading the TOML configuration.

The shipped `default_config.toml` (beside this module) documents every key. A user's file
overrides the keys it sets; a `[[topics]]` list in it replaces the default topics as a whole.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

from pydantic import ValidationError

from bot.config import Config


class ConfigError(Exception):
    """A configuration file that cannot be used, with the file and the problem in words."""


def _default_data() -> dict:
    return tomllib.loads(files("bot.ops").joinpath("default_config.toml").read_text("utf-8"))


def load_config(path: Path | None = None) -> Config:
    """The default configuration, overridden by the TOML file at `path` when given."""
    data = _default_data()
    source = "the default configuration"
    if path is not None:
        source = str(path)
        try:
            user = tomllib.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such configuration file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: cannot be read ({exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
        data = _merge(data, user)
        _resolve_style_example(data, path.parent)
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'file'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(f"{source}: {problems}") from None


def _resolve_style_example(data: dict, folder: Path) -> None:
    """A relative `[llm] style_example` path is read from the config file's folder."""
    llm = data.get("llm")
    if not isinstance(llm, dict):
        return
    value = llm.get("style_example")
    if isinstance(value, str) and value.strip() and "\n" not in value:
        candidate = folder / Path(value.strip()).expanduser()
        if candidate.is_file():
            llm["style_example"] = str(candidate)


def _merge(default: dict, user: dict) -> dict:
    """Tables merge key by key; everything else, lists included, is replaced."""
    merged = dict(default)
    for key, value in user.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged
