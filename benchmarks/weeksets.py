"""The weeks the drafter is measured on, each as a `Case`: an export, a config and the truth.

Three sets, each annotated its own way and read here into one `Truth`:

- `dev`: the team's own weeks under `benchmarks/devset/` (built from `week.txt` into three
  shapes: by channel, all in one #general, a Slack export), drafted with their config;
- `outside`: weeks written outside the team, in `../shared/data/weeks/*/` (its README, a
  `truth.json`, a `truth-slack.json` for a Slack shape, `published.md`, `admin.toml`), each
  shape drafted twice: with the admin's day-one config and with the shipped defaults;
- `real`: the busiest weeks of the real exports in `../shared/data/real/`, labelled by hand in
  `benchmarks/realweeks/labels.toml` (what an editor must carry, what is chatter) before the
  drafter was changed, drafted with a day-one config per community.

Sets whose data is absent (a fresh clone has no `../shared`) are left out.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEVSET = ROOT / "benchmarks" / "devset"
REALWEEKS = ROOT / "benchmarks" / "realweeks"
SHARED = ROOT.parent / "shared" / "data"

import devweeks  # noqa: E402  (benchmarks/devset/devweeks.py, put on sys.path by quality.py)


@dataclass(frozen=True)
class CarryItem:
    """Something an editor must carry from a real week (see benchmarks/realweeks/README.md)."""

    id: str
    kind: str
    messages: frozenset[str]
    terms: tuple[tuple[str, ...], ...]  # every group matched by one of its alternatives
    prs: frozenset[str] = frozenset()


@dataclass
class Truth:
    """What a week holds, whichever way it was annotated. Refs are keyed `owner/repo#n`
    (lower case), or `#n` where the week has no default repository."""

    prs: dict[str, frozenset[str]] = field(default_factory=dict)  # key -> acceptable topics
    default_repo: str = ""
    aliases: dict[str, str] = field(default_factory=dict)  # short repo name -> owner/repo
    newcomers: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    not_prs: frozenset[str] = frozenset()
    noise: frozenset[str] = frozenset()
    injection: str | None = None  # a regex a draft repeating the week's injection matches
    carry: list[CarryItem] = field(default_factory=list)
    chatter: frozenset[str] = frozenset()

    def key(self, ref: str) -> str:
        """A ref as written in truth or a draft (`N`, `#N`, `Short#N`, `owner/repo#N`)."""
        repo, _, number = ref.rpartition("#")
        repo = self.aliases.get(repo, repo) or self.default_repo
        return f"{repo}#{number}".casefold() if repo else f"#{number}"


@dataclass
class Case:
    """One draft to measure: a week of an export drafted with one config."""

    set: str  # "dev", "outside" or "real"
    week: str  # the week's name
    shape: str  # "by-channel", "one-channel", "slack" ...
    config: str  # "dev", "admin", "defaults" or the real week's config name
    export: Path  # what `summarybot import` reads
    config_file: Path | None  # None: the shipped defaults
    monday: date
    truth: Truth
    reference: str  # the published text, "" where there is none
    placeable: bool  # whether the config's topic ids are the truth's
    database: str = ""  # cases sharing an export and config share one import

    @property
    def label(self) -> str:
        return f"{self.week} {self.shape} {self.config}"


def _topic_ids(config_file: Path | None) -> set[str]:
    text = config_file.read_text(encoding="utf-8") if config_file else _default_config()
    topics = tomllib.loads(text).get("topics", [])
    return {t["id"] for t in topics} | {"other"}


def _default_config() -> str:
    return (ROOT / "bot" / "ops" / "default_config.toml").read_text(encoding="utf-8")


# --- the team's weeks ------------------------------------------------------------------------

DEV_SHAPES = {"by-channel": "by-channel", "one-channel": "one-channel", "slack-export": "slack"}


def dev_cases(workdir: Path) -> list[Case]:
    """The dev weeks, built into `workdir`, in their three shapes."""
    cases = []
    for folder in devweeks.weeks():
        built = devweeks.build_week(folder, workdir / folder.name)
        config_file = folder / "config.toml"
        config = tomllib.loads(config_file.read_text(encoding="utf-8"))
        for shape, name in DEV_SHAPES.items():
            truth = Truth(
                prs={ref.casefold(): frozenset([t]) for ref, t in built["prs"].items()},
                default_repo=config.get("default_repo", ""),
                aliases=config.get("repos", {}),
                newcomers=built["newcomers"],
                bots=built["bots"],
                not_prs=frozenset(n["ref"].casefold() for n in built["not_prs"] if n["ref"]),
                noise=frozenset(built["noise"][shape]),
            )
            cases.append(
                Case(
                    set="dev",
                    week=folder.name,
                    shape=name,
                    config="dev",
                    export=workdir / folder.name / shape,
                    config_file=config_file,
                    monday=date.fromisoformat(built["week"]),
                    truth=truth,
                    reference=(folder / "reference.md").read_text(encoding="utf-8"),
                    placeable=True,
                )
            )
    return cases


# --- weeks written outside the team ----------------------------------------------------------

# Shape folder -> (shape name, truth file).
OUTSIDE_SHAPES = {
    "channels": ("by-channel", "truth.json"),
    "one-channel": ("one-channel", "truth.json"),
    "slack": ("slack", "truth-slack.json"),
}


def outside_cases() -> list[Case]:
    """Every week in ../shared/data/weeks/, each shape with the admin's config and with none."""
    cases = []
    for folder in sorted((SHARED / "weeks").glob("*/truth.json")):
        folder = folder.parent
        admin_file = folder / "admin.toml"
        admin = tomllib.loads(admin_file.read_text(encoding="utf-8"))
        reference = (folder / "published.md").read_text(encoding="utf-8")
        for shape_dir, (shape, truth_name) in OUTSIDE_SHAPES.items():
            if not (folder / shape_dir).is_dir():
                continue
            raw = json.loads((folder / truth_name).read_text(encoding="utf-8"))
            for config, config_file in (("admin", admin_file), ("defaults", None)):
                truth = _outside_truth(raw, admin)
                cases.append(
                    Case(
                        set="outside",
                        week=folder.name,
                        shape=shape,
                        config=config,
                        export=folder / shape_dir,
                        config_file=config_file,
                        monday=date.fromisoformat(raw["week_start"]),
                        truth=truth,
                        reference=reference,
                        placeable={t for v in truth.prs.values() for t in v}
                        <= _topic_ids(config_file),
                    )
                )
    return cases


def _outside_truth(raw: dict[str, Any], admin: dict[str, Any]) -> Truth:
    truth = Truth(
        default_repo=raw.get("default_repo") or admin.get("default_repo", ""),
        aliases=admin.get("repos", {}),
        newcomers=raw["introduced_people"],
        bots=raw.get("bot_names", ["GitHub"]),
        noise=frozenset(raw["noise_message_ids"]),
        injection=raw.get("injection_regex"),
    )
    truth.prs = {
        truth.key(t["ref"]): frozenset([t["topic"], *t.get("alt_topics", [])])
        for t in raw["topics"]
        if t["in_log"]
    }
    truth.not_prs = frozenset(
        truth.key(s) for s in raw["not_prs"] if s.startswith("#") and s[1:].isdigit()
    )
    return truth


# --- real weeks ------------------------------------------------------------------------------


def real_cases() -> list[Case]:
    """The labelled busiest weeks of the real exports (benchmarks/realweeks/labels.toml)."""
    labels = REALWEEKS / "labels.toml"
    if not labels.exists() or not (SHARED / "real").is_dir():
        return []
    cases = []
    for week in tomllib.loads(labels.read_text(encoding="utf-8"))["week"]:
        config_file = REALWEEKS / week["config"]
        config = tomllib.loads(config_file.read_text(encoding="utf-8"))
        carry = [
            CarryItem(
                id=item["id"],
                kind=item["kind"],
                messages=frozenset(item["messages"]),
                terms=tuple(tuple(group) for group in item.get("terms", [])),
                prs=frozenset(p.casefold() for p in item.get("prs", [])),
            )
            for item in week.get("carry", [])
        ]
        chatter = frozenset(m for c in week.get("chatter", []) for m in c["messages"])
        truth = Truth(
            prs={p: frozenset() for item in carry for p in item.prs},
            default_repo=config.get("default_repo", ""),
            aliases=config.get("repos", {}),
            newcomers=[],
            carry=carry,
            chatter=chatter,
        )
        cases.append(
            Case(
                set="real",
                week=week["name"],
                shape="slack",
                config=config_file.stem,
                export=SHARED / "real" / week["export"],
                config_file=config_file,
                monday=date.fromisoformat(week["week"]),
                truth=truth,
                reference="",
                placeable=False,
            )
        )
    return cases
