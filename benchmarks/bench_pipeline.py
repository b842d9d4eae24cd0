"""Benchmark of the whole pipeline on synthetic DiscordChatExporter weeks.

For each size N it writes a deterministic week of N messages as DCE JSON (one file per channel
and per thread), then measures:

* import: `bot.core.ingest.import_paths` into a fresh, migrated SQLite file;
* floor: the same files read with `json.load` and the same rows written with plain `sqlite3`
  `executemany` in one WAL transaction, the least any importer could do;
* draft: the drafting service on the imported database, in a fresh child process so that
  its `ru_maxrss` is the drafting high-water mark and not the importer's; a second child
  measures the `tracemalloc` peak (tracing slows Python down, so it is not timed).

Run from the repository root:

    python benchmarks/bench_pipeline.py --sizes 10000 100000

A Markdown table goes to stdout and the same figures to `benchmarks/out/results.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import platform
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import sqlalchemy
from week_shape import Shape, shape, shape_table

from bot.core.clock import utcnow
from bot.core.ingest import import_paths
from bot.core.settings import week_of, workspace_settings
from bot.drafting.compose import resolve_workspace
from bot.drafting.service import DraftingService
from bot.drafting.store import as_summary
from bot.ops.config import load_config
from bot.ops.formats import EXPORT_FORMATS
from storage.db import make_engine, make_sessionmaker, migrate
from storage.drafts import get_draft_by_id
from summarizer.render import to_markdown

OUT_DIR = Path(__file__).resolve().parent / "out"
DEFAULT_SIZES = (10_000, 100_000)

# Targets the figures are checked against.
MAX_IMPORT_OVER_FLOOR = 1.5  # in CPU time, for weeks of DRAFT_TARGET_SIZE messages or more
MAX_DRAFT_SECONDS = 5.0  # for weeks of up to DRAFT_TARGET_SIZE messages
DRAFT_TARGET_SIZE = 100_000
MAX_DRAFT_RSS_MIB = 500.0
MAX_SCALING = 12.0  # for ten times the messages

# --- the synthetic week ------------------------------------------------------------------------

WEEK_START = datetime(2026, 11, 16, tzinfo=UTC)  # Monday
DRAFT_DAY = date(2026, 11, 16)
WEEK_MS = 7 * 24 * 3600 * 1000
WEEK_START_MS = int(WEEK_START.timestamp() * 1000)
DISCORD_EPOCH_MS = 1_420_070_400_000
EXPORTED_AT = "2026-11-23T09:30:12.481523+00:00"

GUILD = {
    "id": "1100000000000000001",
    "name": "Marin",
    "iconUrl": "https://cdn.discordapp.com/icons/1100000000000000001/5b1f0c7a9e3d42c6.png",
}
CATEGORY = ("1100000000000000600", "Text Channels")
# name: (channel id, share of the week's top-level messages, the topic its messages are about)
CHANNELS = {
    "general": ("1100000000000000710", 0.17, "general"),
    "hero-run": ("1100000000000000720", 0.12, "hero-run"),
    "data": ("1100000000000000730", 0.09, "data"),
    "rl": ("1100000000000000740", 0.09, "rl"),
    "introductions": ("1100000000000000750", 0.03, "introductions"),
    "code-review": ("1100000000000000760", 0.12, "code-review"),
    "iris": ("1100000000000000777", 0.08, "iris"),
    "announcements": ("1100000000000000780", 0.02, "general"),
    "help": ("1100000000000000790", 0.06, "general"),
    "infra": ("1100000000000000800", 0.06, "iris"),
    "evals": ("1100000000000000810", 0.06, "rl"),
    "tokenizers": ("1100000000000000820", 0.05, "data"),
    "kernels": ("1100000000000000830", 0.05, "hero-run"),
}
INTRODUCTIONS = "introductions"

NAMES = (
    "Tomasz Kowalczyk", "Adaeze Okafor", "Rahul Deshpande", "Hiroshi Tanaka", "Nadia Haddad",
    "Lucía Fernández", "Owen Gallagher", "Quinn Abernathy", "Mei Chen", "Sofia Rossi",
    "Kwame Mensah", "Ingrid Johansson", "Diego Alvarez", "Priya Raman", "Jonas Becker",
    "Amara Nwosu", "Chloé Dubois", "Mateus Silva", "Yuki Sato", "Fatima Benali",
    "Liam O'Connor", "Ana Ruiz", "Ben Cho", "Elif Yılmaz", "Nikolai Petrov",
    "Grace Wanjiru", "Arjun Mehta", "Hannah Schmidt", "Marco Bianchi", "Leila Karimi",
    "Sam Whitfield", "Zoe Papadopoulos", "Tariq Aziz", "Camille Laurent", "Wei Zhang",
    "Olga Ivanova", "Daniel Kim", "Aisha Bello", "Pedro Costa", "Rosa Jiménez",
)  # fmt: skip
ROLES = (
    {"id": "1100000000000000201", "name": "Maintainer", "color": "#E67E22", "position": 4},
    {"id": "1100000000000000202", "name": "Core", "color": "#3498DB", "position": 3},
    {"id": "1100000000000000203", "name": "Contributor", "color": "#2ECC71", "position": 2},
)
BOT = {
    "id": "1100000000000000099",
    "name": "GitHub",
    "discriminator": "0000",
    "nickname": "GitHub",
    "color": None,
    "isBot": True,
    "roles": [],
    "avatarUrl": "https://cdn.discordapp.com/avatars/1100000000000000099/0c7a9e3d.png",
}
EMOJI = (("👀", "eyes"), ("🎉", "tada"), ("👍", "thumbsup"), ("🔥", "fire"), ("❤️", "heart"))

TEMPLATES = {
    "hero-run": (
        "Hero run is past step {step}, holding at {mfu} on the GB200 racks.",
        "Restarted from the step {step} checkpoint with the loader fix from {pr}.",
        "MFU dropped to {mfu} after the NCCL upgrade; reverting in {pr}.",
        "Step time is {steptime} with EP64 and the ragged all-to-all from {pr}, {speedup} faster.",
        "Checkpoint save now takes {secs} instead of 40 s thanks to {pr}.",
        "Rack {rack} crashed again at step {step}: CUDA_ERROR_LAUNCH_FAILED. Collecting traces.",
        "Memory per device is {mem} with full remat; {pr} should get us under the limit.",
        "The XLA flags from {pr} give {tps} in the {steps} sweep on {gpus}.",
        "Loss curve looks healthy through step {step}, no spikes since the restart.",
        "Throughput is steady at {tps} on {gpus} overnight.",
        "Is anyone watching the run this weekend? I am out on Saturday.",
        "Profiling the MoE layers: the all-to-all is about {pct} of the step.",
    ),
    "iris": (
        "The Iris scheduler now handles preemption on CoreWeave nodes, see {pr}.",
        "The node agent leaked {mem} per hour; {pr} fixes it.",
        "Gang scheduling for big jobs landed in {pr}. Queue wait went from 40 min to {secs}.",
        "The Grafana dashboard for kubelet restarts is up, thanks to {name}.",
        "Anyone seen pods stuck in Pending after the k8s upgrade?",
        "Bumped the controller so it keeps {gpus} busy during preemption, {pr}.",
        "Three nodes are cordoned for the firmware update until tomorrow.",
        "Scheduler latency p99 is down to {secs} after the cache change.",
        "Who owns the alert for disk pressure on the node agent?",
    ),
    "data": (
        "The dedup pass over the web shards removed {pct} of documents; numbers in {pr}.",
        "Tokenizer throughput is {tps} with the new Parquet reader from {pr}.",
        "The decontamination job finished: {pct} flagged against the eval sets.",
        "Embedding backfill is at {pct}, two more days to go.",
        "New data mix proposal in {pr}: more code, less forum text.",
        "DataKit now writes {mem} of shards per hour after {pr}.",
        "The new corpus snapshot is {mem} after filtering.",
        "Does the tokenizer handle the new code dataset, or do we need a retrain?",
        "Shards for the multilingual split are uploaded, {pct} smaller than last time.",
    ),
    "rl": (
        "The GRPO run with the new reward model reached {pct} on the held-out tasks.",
        "Rollout workers are {speedup} faster after batching the environments in {pr}.",
        "SkyRL integration is in {pr}; SFT warm start first, then a {steps} PPO run.",
        "Reward hacking again on the agentic tasks: trajectories that just print the answer.",
        "Policy eval: {frac} solved, up from 48/300 last week.",
        "Reward curves look flat after step {step}; trying a higher KL penalty.",
        "Rollouts now take {secs} each on average.",
        "Should we move the agentic evals to the nightly job?",
    ),
    "code-review": (
        "Could someone review {pr}? It touches the checkpoint loader.",
        "LGTM on {pr}, one nit about the config default.",
        "{pr} is ready for another look, I addressed the comments.",
        "Merged {pr} and {pr2}; CI is green.",
        "{pr} breaks the TPU tests, reverting.",
        "Please split {pr} into the refactor and the fix, {lines} lines is hard to review.",
        "I'll be slow on reviews this week, ping me if something is urgent.",
        "Reminder to add a test with every bug fix, please.",
    ),
    "general": (
        "Reminder: the weekly sync moved to Thursday 16:00 UTC.",
        "Has anyone tried the new JAX release with our stack?",
        "Wrote up notes from the reading group on MoE routing, link in the doc.",
        "Office hours tomorrow, bring your questions about {area}.",
        "The cluster will be down for maintenance on Saturday morning.",
        "Nice writeup {name}, the {speedup} speedup is impressive.",
        "Is there a doc on how to get access to the GB200 racks?",
        "Blog post draft about {area} is up for comments, it cites {pr}.",
    ),
}
CHIT_CHAT = (
    "thanks!", "lol", "+1", "nice", "thanks {name}!", "same here", "LGTM", "haha",
    "makes sense", "on it", ":tada:", "great work!", "👍", "ok", "will do",
)  # fmt: skip
INTRO_TEMPLATES = (
    "Hi everyone! I'm {me}, a PhD student at {uni} working on {area}. Excited to help out.",
    "Hello! My name is {me} and I work on {area} at {org}. Interested in the {team} work.",
    "Hey all, {me} here. I'm a research engineer based in {city}, background in {area}.",
    "Hi! I am {me}, I just joined from {org} and I am interested in {area}.",
)
WELCOMES = ("welcome {name}!", "Welcome aboard!", "welcome :wave:", "Welcome, glad to have you!")
FILLERS = {
    "uni": ("ETH Zurich", "Stanford", "the University of Lagos", "KAIST", "TU Delft", "McGill"),
    "org": ("a robotics startup", "Hugging Face", "a national lab", "a bank", "Mila"),
    "city": ("Nairobi", "Lisbon", "Seoul", "Toronto", "Warsaw", "Bangalore", "Austin"),
    "area": (
        "data curation", "RL for reasoning", "training infrastructure", "MoE routing",
        "evaluation", "tokenizers", "distributed systems", "kernel performance",
    ),
}  # fmt: skip
# Values in pasted code and logs.
CODE_FIELDS: dict[str, Callable[[random.Random], str]] = {
    "cfg": lambda rng: rng.choice(("llama_8b.yaml", "moe_64e.yaml", "tiny_debug.yaml")),
    "dp": lambda rng: str(rng.choice((8, 16, 32, 64))),
    "tp": lambda rng: str(rng.choice((1, 2, 4, 8))),
    "nodes": lambda rng: str(rng.choice((2, 4, 8, 16, 32))),
    "loss": lambda rng: f"{rng.uniform(1.6, 3.2):.4f}",
    "gnorm": lambda rng: f"{rng.uniform(0.1, 2.5):.3f}",
    "rank": lambda rng: str(rng.randrange(512)),
    "line": lambda rng: str(rng.randint(20, 900)),
    "task": lambda rng: rng.choice(("mmlu", "gsm8k", "humaneval", "arc_challenge", "hellaswag")),
    "run": lambda rng: f"{rng.getrandbits(40):010x}",
    "yy": lambda rng: str(rng.randint(3, 5)),
    "mm": lambda rng: f"{rng.randint(1, 12):02d}",
    "arxiv": lambda rng: f"{rng.randint(1, 19999):05d}",
}
# Figures of each kind, as people write them.
FIGURES: dict[str, Callable[[random.Random], str]] = {
    "mfu": lambda rng: f"{rng.uniform(15, 55):.1f}% MFU",
    "pct": lambda rng: f"{rng.uniform(0.5, 40):.1f}%",
    "tps": lambda rng: f"{rng.randint(120, 480)}k tokens/s",
    "mem": lambda rng: f"{rng.uniform(2, 80):.1f} GiB",
    "speedup": lambda rng: f"{rng.uniform(1.1, 3.5):.1f}x",
    "steps": lambda rng: f"{rng.choice((100, 300, 500, 1000, 2000))}-step",
    "steptime": lambda rng: f"{rng.uniform(0.4, 3.2):.2f} s/step",
    "secs": lambda rng: f"{rng.randint(3, 40)} s",
    "gpus": lambda rng: f"{rng.choice((64, 128, 256, 512))} GPUs",
}
# Lines of pasted code, logs and tracebacks; a code block holds a run of one kind.
CODE_LINES = {
    "shell": (
        "XLA_FLAGS=--xla_gpu_enable_command_buffer= python train.py --config {cfg}",
        "python -m marin.run --steps {step} --mesh data:{dp},model:{tp}",
        "srun -N {nodes} --gpus-per-node 8 bash scripts/launch.sh",
        "kubectl -n iris get pods -o wide | grep Pending",
        "gsutil -m cp -r gs://marin-us-central2/checkpoints/step-{step} .",
    ),
    "log": (
        "step {step} | loss {loss} | grad_norm {gnorm} | {tps} | {mfu}",
        "[rank {rank}] NCCL WARN Timeout waiting for peer after {secs}",
        "eval/{task}: {pct} (n=300)",
        "checkpoint saved to gs://marin-us-central2/checkpoints/step-{step} in {secs}",
        "WARNING: host {rank} memory at {mem} of 80.0 GiB",
    ),
    "traceback": (
        'File "marin/training/trainer.py", line {line}, in train_step',
        'File "marin/data/loader.py", line {line}, in __next__',
        'File "jax/_src/pjit.py", line {line}, in _pjit_call_impl',
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating {mem}",
        "RuntimeError: CUDA_ERROR_LAUNCH_FAILED on device {rank}",
    ),
}
LINKS = (
    "https://wandb.ai/marin-community/hero-run/runs/{run}",
    "https://docs.google.com/document/d/{run}/edit",
    "https://github.com/marin-community/marin/blob/main/docs/{area_slug}.md",
    "https://arxiv.org/abs/2{yy}{mm}.{arxiv}",
)
LONG_OPENERS = (
    "Status update on {area}:",
    "Summary of where {area} stands this week:",
    "A few notes from today's debugging session on {area}:",
    "Writing this down before I forget, re {area}:",
)

# The shape below was tuned against real exports and the dev-set weeks, measured with
# benchmarks/week_shape.py: median message ~80 characters, p90 ~300, p99 ~1,000; about 0.4
# PR refs a message; a fifth of messages in threads; ~0.15 reactions a message.
SHARE_CHIT_CHAT = 0.22
SHARE_LONG = 0.11  # multi-paragraph updates and bullet lists
SHARE_CODE = 0.05  # a pasted command, log or traceback
SHARE_LINK = 0.06  # a link to a run, a doc or a paper
SHARE_REPLIES = 0.15
SHARE_REACTIONS = 0.08
SHARE_EDITED = 0.05
SHARE_BOT_IN_CODE_REVIEW = 0.08
PR_OWN_AREA = 0.85  # share of a channel's PR mentions that are PRs of its own area
MESSAGES_PER_THREAD_FILE = 85  # one thread file per this many messages of the week


def _handle(full_name: str) -> str:
    """A Discord user name such as "lucia.f" for "Lucía Fernández"."""
    ascii_name = unicodedata.normalize("NFKD", full_name).encode("ascii", "ignore").decode()
    first, last = ascii_name.lower().replace("'", "").split(" ", 1)
    return f"{first}.{last[0]}"


def _iso(ms: int) -> str:
    """DCE's timestamp format: "2026-11-16T07:52:31.219+00:00"."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")


def _file_safe(name: str) -> str:
    """A thread name as DCE puts it in a file name."""
    return re.sub(r'[\\/:*?"<>|]', "_", name)


class _Slots(dict[str, str]):
    """Template fields, each drawn from the week's generator the first time it is used."""

    def __init__(self, week: SyntheticWeek, channel: str, **given: str) -> None:
        super().__init__(given)
        self.week = week
        self.channel = channel

    def __missing__(self, key: str) -> str:
        value = self.week.slot(key, self.channel)
        self[key] = value
        return value


class SyntheticWeek:
    """A deterministic week of `n` messages, written as DCE JSON files."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.rng = random.Random(n)
        self.sequence = 0
        self.pr_pool = max(200, n // 10)  # PRs under discussion grow with the chat
        self.authors = [self._author(i, name) for i, name in enumerate(NAMES)]
        self.stubs = [{k: v for k, v in a.items() if k != "roles"} for a in self.authors]
        self.weights = [1 / (i + 1) ** 0.7 for i in range(len(self.authors))]

    # --- people and ids ---

    def _author(self, index: int, full_name: str) -> dict[str, Any]:
        author_id = str(1100000000000000100 + index)
        roles = list(ROLES[: 1 + index % 3]) if index < 12 else [ROLES[2]]
        return {
            "id": author_id,
            "name": _handle(full_name),
            "discriminator": "0000",
            "nickname": full_name,
            "color": roles[0]["color"],
            "isBot": False,
            "roles": roles,
            "avatarUrl": f"https://cdn.discordapp.com/avatars/{author_id}/"
            f"{self.rng.getrandbits(128):032x}.png?size=512",
        }

    def snowflake(self, ms: int) -> str:
        """A Discord id for a message sent at `ms`: time in the high bits, a counter below."""
        self.sequence += 1
        return str(((ms - DISCORD_EPOCH_MS) << 22) | (self.sequence & 0x3FFFFF))

    def pick_author(self) -> dict[str, Any]:
        return self.rng.choices(self.authors, self.weights)[0]

    # --- text ---

    def slot(self, key: str, channel: str) -> str:
        """A random value for a template field."""
        rng = self.rng
        if key.startswith("pr"):
            return self.pr_ref(channel)
        if key in FIGURES:
            return FIGURES[key](rng)
        if key == "step":
            return f"{rng.randint(1000, 30000)}"
        if key == "rack":
            return str(rng.randint(1, 16))
        if key == "lines":
            return f"{rng.randint(4, 30) * 100}"
        if key == "frac":
            return f"{rng.randint(40, 250)}/300"
        if key == "name":
            return self.pick_author()["nickname"].split(" ")[0]
        if key in CODE_FIELDS:
            return CODE_FIELDS[key](rng)
        if key == "area_slug":
            return rng.choice(FILLERS["area"]).replace(" ", "-").lower()
        return rng.choice(FILLERS[key])

    def pr_number(self, channel: str) -> int:
        """A PR of the channel's area (any area in code-review); some PRs come up more often."""
        rng = self.rng
        areas = len(CHANNELS)
        own = channel != "code-review" and rng.random() < PR_OWN_AREA
        area = list(CHANNELS).index(channel) if own else rng.randrange(areas)
        return 7000 + areas * int(self.pr_pool / areas * rng.random() ** 2) + area

    def pr_ref(self, channel: str) -> str:
        """A PR reference in one of the forms people write."""
        rng = self.rng
        number = self.pr_number(channel)
        form = rng.random()
        if form < 0.5:
            return f"#{number}"
        if form < 0.7:
            return f"https://github.com/marin-community/marin/pull/{number}"
        if form < 0.8:
            return f"marin-community/marin#{number}"
        if form < 0.9:
            return f"PR {number}"
        return f"openxla/xla#{rng.randint(40000, 49999)}"

    def topic_text(self, channel: str) -> str:
        """Sentences about the channel's topic: one to three, or now and then a long update
        with a bullet list; sometimes with a pasted code block or a link."""
        rng = self.rng
        templates = TEMPLATES[CHANNELS[channel][2]]
        fill = _Slots(self, channel)
        if rng.random() < SHARE_LONG:
            opener = rng.choice(LONG_OPENERS).format_map(fill)
            bullets = rng.sample(templates, min(len(templates), rng.randint(3, 8)))
            text = (
                opener
                + "\n"
                + "\n".join(f"- {t.format_map(_Slots(self, channel))}" for t in bullets)
            )
        else:
            sentences = 1
            while sentences < 3 and rng.random() < 0.35:
                sentences += 1
            text = " ".join(t.format_map(fill) for t in rng.sample(templates, sentences))
        if rng.random() < SHARE_CODE:
            kind = rng.choice(list(CODE_LINES))
            lines = [
                rng.choice(CODE_LINES[kind]).format_map(_Slots(self, channel))
                for _ in range(int(rng.paretovariate(1.0)) + 2)
            ][:40]
            text += "\n```\n" + "\n".join(lines) + "\n```"
        if rng.random() < SHARE_LINK:
            text += " " + rng.choice(LINKS).format_map(fill)
        return text

    def text(self, channel: str, author: dict[str, Any], substantive: bool = False) -> str:
        rng = self.rng
        if channel == INTRODUCTIONS:
            me = author["nickname"].split(" ")[0]
            template = rng.choice(INTRO_TEMPLATES if rng.random() < 0.6 else WELCOMES)
            team = rng.choice([c for c in TEMPLATES if c != "general"])
            return template.format_map(_Slots(self, channel, me=me, team=team))
        if not substantive and rng.random() < SHARE_CHIT_CHAT:
            return rng.choice(CHIT_CHAT).format_map(_Slots(self, channel))
        return self.topic_text(channel)

    # --- messages ---

    def reactions(self) -> list[dict[str, Any]]:
        rng = self.rng
        if rng.random() >= SHARE_REACTIONS:
            return []
        result = []
        for name, code in rng.sample(EMOJI, 1 if rng.random() < 0.8 else 2):
            count = min(len(self.stubs), int(rng.paretovariate(1.8)))
            result.append(
                {
                    "emoji": {"id": "", "name": name, "code": code, "isAnimated": False},
                    "count": count,
                    "users": rng.sample(self.stubs, count),
                }
            )
        return result

    def message(
        self,
        ms: int,
        author: dict[str, Any],
        content: str,
        kind: str = "Default",
        reference: dict[str, Any] | None = None,
        embeds: Sequence[dict[str, Any]] = (),
    ) -> dict[str, Any]:
        """One message as DCE 2.x writes it."""
        edited = _iso(ms + self.rng.randint(60_000, 900_000))
        message = {
            "id": self.snowflake(ms),
            "type": kind,
            "timestamp": _iso(ms),
            "timestampEdited": edited if self.rng.random() < SHARE_EDITED else None,
            "callEndedTimestamp": None,
            "isPinned": False,
            "content": content,
            "author": author,
            "attachments": [],
            "embeds": list(embeds),
            "stickers": [],
            "reactions": self.reactions() if kind != "ThreadCreated" else [],
            "mentions": [],
            "inlineEmojis": [],
        }
        if reference is not None:
            message["reference"] = reference
        return message

    def bot_message(self, ms: int) -> dict[str, Any]:
        """A GitHub integration post: no content, the PR in an embed."""
        number = self.pr_number("code-review")
        title = f"[marin-community/marin] Pull request opened: #{number} {self.slot('area', '')}"
        embed = {
            "title": title,
            "url": f"https://github.com/marin-community/marin/pull/{number}",
            "timestamp": None,
            "description": "",
            "color": "#2ECC71",
            "fields": [],
            "images": [],
        }
        return self.message(ms, BOT, "", embeds=[embed])

    def chat_message(
        self, ms: int, channel: str, channel_id: str, recent: list[str], substantive: bool
    ) -> dict[str, Any]:
        """A person's message in a channel or thread, replying now and then to a recent one."""
        rng = self.rng
        if channel == "code-review" and not substantive and rng.random() < SHARE_BOT_IN_CODE_REVIEW:
            return self.bot_message(ms)
        author = self.pick_author()
        content = self.text(channel, author, substantive)
        share = 0.7 if content.lower().startswith("welcome") else SHARE_REPLIES
        if substantive or not recent or rng.random() >= share:
            message = self.message(ms, author, content)
        else:
            reference = {
                "type": "Default",
                "messageId": rng.choice(recent[-30:]),
                "channelId": channel_id,
                "guildId": GUILD["id"],
            }
            message = self.message(ms, author, content, "Reply", reference)
        recent.append(message["id"])
        return message

    def thread_notice(self, ms: int, author: dict[str, Any], thread_id: str) -> dict[str, Any]:
        reference = {
            "type": "Default",
            "messageId": None,
            "channelId": thread_id,
            "guildId": GUILD["id"],
        }
        return self.message(ms, author, "Started a thread.", "ThreadCreated", reference)

    # --- files ---

    def documents(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """(file name, DCE document) for every channel, then every thread."""
        rng = self.rng
        thread_sizes = [
            rng.randint(4, 30) for _ in range(max(2, self.n // MESSAGES_PER_THREAD_FILE))
        ]
        top_level = self.n - sum(thread_sizes)
        names = list(CHANNELS)
        channels = rng.choices(names, [CHANNELS[c][1] for c in names], k=top_level)
        times = [WEEK_START_MS + rng.randrange(WEEK_MS) for _ in range(top_level)]
        eligible = [i for i, c in enumerate(channels) if c != INTRODUCTIONS]
        starters = set(rng.sample(eligible, len(thread_sizes)))

        threads: list[tuple[str, dict[str, Any]]] = []
        for name in names:
            channel_id = CHANNELS[name][0]
            slots = sorted(
                (times[i], i in starters) for i in range(top_level) if channels[i] == name
            )
            messages: list[dict[str, Any]] = []
            recent: list[str] = []
            for ms, is_starter in slots:
                message = self.chat_message(ms, name, channel_id, recent, is_starter)
                messages.append(message)
                if is_starter:
                    messages.append(
                        self.thread_notice(ms + 20_000, message["author"], message["id"])
                    )
                    threads.append((name, message))
            messages.sort(key=lambda m: m["timestamp"])
            file_name = f"{GUILD['name']} - {CATEGORY[1]} - {name} [{channel_id}].json"
            yield file_name, self.channel_document(channel_id, name, messages)

        for (parent, starter), size in zip(threads, thread_sizes, strict=True):
            yield self.thread_document(parent, starter, size)

    def channel_document(
        self, channel_id: str, name: str, messages: list[dict[str, Any]]
    ) -> dict[str, Any]:
        channel = {
            "id": channel_id,
            "type": "GuildTextChat",
            "categoryId": CATEGORY[0],
            "category": CATEGORY[1],
            "name": name,
            "topic": None,
        }
        return _document(channel, messages)

    def thread_document(
        self, parent: str, starter: dict[str, Any], size: int
    ) -> tuple[str, dict[str, Any]]:
        """A thread started from `starter`: its id is the starter's, which comes first again."""
        rng = self.rng
        thread_id = starter["id"]
        start_ms = int(datetime.fromisoformat(starter["timestamp"]).timestamp() * 1000)
        last_ms = WEEK_START_MS + WEEK_MS - 1
        times = sorted(
            min(last_ms, start_ms + rng.randint(30_000, 36 * 3600_000)) for _ in range(size)
        )
        recent = [thread_id]
        messages = [starter]
        messages += [self.chat_message(ms, parent, thread_id, recent, False) for ms in times]
        title = " ".join(starter["content"].split()[:6]).rstrip(".,:;")
        channel = {
            "id": thread_id,
            "type": "GuildPublicThread",
            "categoryId": CHANNELS[parent][0],
            "category": parent,
            "name": title,
            "topic": None,
        }
        file_name = f"{GUILD['name']} - {parent} - {_file_safe(title)} [{thread_id}].json"
        return file_name, _document(channel, messages)


def _document(channel: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "guild": GUILD,
        "channel": channel,
        "dateRange": {"after": None, "before": None},
        "exportedAt": EXPORTED_AT,
        "messages": messages,
        "messageCount": len(messages),
    }


def write_week(n: int, folder: Path) -> tuple[int, int]:
    """Write the week of `n` messages into `folder`; (files, bytes) written."""
    folder.mkdir(parents=True)
    files = size = 0
    for file_name, document in SyntheticWeek(n).documents():
        path = folder / file_name
        with path.open("w", encoding="utf-8") as stream:
            json.dump(document, stream, ensure_ascii=False, indent=2)
        files += 1
        size += path.stat().st_size
    return files, size


# --- import ------------------------------------------------------------------------------------


def time_import(folder: Path, db: Path) -> tuple[float, float, int, int]:
    """Seconds `import_paths` takes over `folder` into a fresh database, in wall-clock and in
    this process's CPU time; (s, CPU s, new, errors)."""
    engine = make_engine(f"sqlite:///{db}")
    try:
        migrate(engine)
        sessions = make_sessionmaker(engine)
        gc.collect()
        start, cpu = time.perf_counter(), time.process_time()
        report = import_paths(sessions, [folder], EXPORT_FORMATS)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        engine.dispose()
    for error in report.errors:
        print(f"  import error: {error}", file=sys.stderr)
    return seconds, cpu, report.counts.new, len(report.errors)


# --- the floor ---------------------------------------------------------------------------------

FLOOR_SCHEMA = """
CREATE TABLE workspaces (
    id INTEGER PRIMARY KEY, platform TEXT NOT NULL, platform_id TEXT NOT NULL,
    name TEXT NOT NULL, UNIQUE (platform, platform_id));
CREATE TABLE channels (
    id INTEGER PRIMARY KEY, workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
    platform_id TEXT NOT NULL, name TEXT NOT NULL, parent_id INTEGER REFERENCES channels (id),
    UNIQUE (workspace_id, platform_id));
CREATE TABLE people (
    id INTEGER PRIMARY KEY, workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
    platform_id TEXT NOT NULL, display_name TEXT NOT NULL, is_bot BOOLEAN NOT NULL,
    UNIQUE (workspace_id, platform_id));
CREATE TABLE messages (
    id INTEGER PRIMARY KEY, workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
    channel_id INTEGER NOT NULL REFERENCES channels (id),
    author_id INTEGER NOT NULL REFERENCES people (id),
    platform_id TEXT NOT NULL, thread_id TEXT, reply_to_id TEXT, created_at DATETIME NOT NULL,
    edited_at DATETIME, text TEXT NOT NULL, reaction_count INTEGER NOT NULL,
    reply_count INTEGER NOT NULL, permalink TEXT, UNIQUE (workspace_id, platform_id));
CREATE INDEX ix_messages_workspace_created ON messages (workspace_id, created_at);
CREATE TABLE pr_refs (
    id INTEGER PRIMARY KEY, message_id INTEGER NOT NULL REFERENCES messages (id),
    repo TEXT, number INTEGER NOT NULL, raw TEXT NOT NULL);
CREATE INDEX ix_pr_refs_message_id ON pr_refs (message_id);
"""
# The PR refs the generator writes, found the plainest way: one regex, no look-alike rules.
FLOOR_REF = re.compile(
    r"(?:https://github\.com/(?P<url>[\w-]+/[\w.-]+)/pull/|(?P<repo>[\w-]+/[\w.-]+)#|PR #?|#)"
    r"(?P<number>\d+)"
)
INSERT_REF = "INSERT INTO pr_refs (message_id, repo, number, raw) VALUES (?, ?, ?, ?)"
FLOOR_KEPT_TYPES = frozenset({"Default", "Reply"})
FLOOR_THREAD_TYPES = frozenset({"GuildPublicThread", "GuildPrivateThread", "GuildNewsThread"})
INSERT_MESSAGE = """
INSERT INTO messages (workspace_id, channel_id, author_id, platform_id, thread_id, reply_to_id,
    created_at, edited_at, text, reaction_count, reply_count, permalink)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (workspace_id, platform_id) DO NOTHING
"""
UPSERT_PERSON = """
INSERT INTO people (workspace_id, platform_id, display_name, is_bot) VALUES (?, ?, ?, ?)
ON CONFLICT (workspace_id, platform_id) DO UPDATE SET display_name = excluded.display_name
"""
UPSERT_CHANNEL = """
INSERT INTO channels (workspace_id, platform_id, name, parent_id) VALUES (?, ?, ?, ?)
ON CONFLICT (workspace_id, platform_id) DO UPDATE SET name = excluded.name RETURNING id
"""


def _utc_text(value: str | None) -> str | None:
    """A DCE timestamp as SQLAlchemy stores a UTC datetime in SQLite."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value).astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(sep=" ", timespec="microseconds")


def _floor_text(raw: dict[str, Any]) -> str:
    content = raw.get("content") or ""
    parts = [content] if content.strip() else []
    for embed in raw.get("embeds") or ():
        parts.extend(embed[k] for k in ("title", "description") if (embed.get(k) or "").strip())
    return "\n".join(parts).strip()


def _floor_rows(
    document: dict[str, Any], ids: tuple[int, int], author_ids: dict[str, int]
) -> list[tuple[Any, ...]]:
    """One row per kept message of a DCE document, with the columns the project stores."""
    workspace_id, channel_id = ids
    channel = document["channel"]
    platform_channel = channel["id"]
    is_thread = channel.get("type") in FLOOR_THREAD_TYPES
    anchors = {
        m["reference"]["channelId"] for m in document["messages"] if m["type"] == "ThreadCreated"
    }
    link = f"https://discord.com/channels/{document['guild']['id']}/{platform_channel}/"
    rows = []
    for raw in document["messages"]:
        if raw["type"] not in FLOOR_KEPT_TYPES or not (text := _floor_text(raw)):
            continue
        message_id = raw["id"]
        thread_id = (
            platform_channel if is_thread else (message_id if message_id in anchors else None)
        )
        reference = raw.get("reference") or {}
        rows.append(
            (
                workspace_id,
                channel_id,
                author_ids[raw["author"]["id"]],
                message_id,
                thread_id,
                reference.get("messageId"),
                _utc_text(raw["timestamp"]),
                _utc_text(raw["timestampEdited"]),
                text,
                sum(r["count"] for r in raw.get("reactions") or ()),
                0,
                link + message_id,
            )
        )
    return rows


def _floor_people(
    conn: sqlite3.Connection, workspace_id: int, document: dict[str, Any]
) -> dict[str, int]:
    """One upsert of the document's distinct authors; their ids by platform id."""
    people = {
        m["author"]["id"]: (
            m["author"].get("nickname") or m["author"]["name"],
            m["author"]["isBot"],
        )
        for m in document["messages"]
    }
    conn.executemany(
        UPSERT_PERSON, [(workspace_id, pid, name, bot) for pid, (name, bot) in people.items()]
    )
    query = "SELECT platform_id, id FROM people WHERE workspace_id = ?"
    return dict(conn.execute(query, (workspace_id,)).fetchall())


def _floor_file(
    conn: sqlite3.Connection, workspace_id: int, path: Path, channel_ids: dict[str, int]
) -> int:
    """Store one file the plain way; the number of rows offered."""
    with path.open("rb") as stream:
        document = json.load(stream)
    channel = document["channel"]
    parent = channel["categoryId"] if channel.get("type") in FLOOR_THREAD_TYPES else None
    values = (workspace_id, channel["id"], channel["name"], channel_ids.get(parent))
    channel_id = conn.execute(UPSERT_CHANNEL, values).fetchone()[0]
    channel_ids[channel["id"]] = channel_id
    author_ids = _floor_people(conn, workspace_id, document)
    rows = _floor_rows(document, (workspace_id, channel_id), author_ids)
    last_id = conn.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
    conn.executemany(INSERT_MESSAGE, rows)
    query = "SELECT platform_id, id FROM messages WHERE id > ?"  # the rows just written
    message_ids = dict(conn.execute(query, (last_id,)).fetchall())
    conn.executemany(INSERT_REF, _floor_refs(rows, message_ids))
    return len(rows)


def _floor_refs(rows: list[tuple[Any, ...]], message_ids: dict[str, int]) -> list[tuple[Any, ...]]:
    """One row per distinct PR ref of each message row written (text is column 8, platform
    id 3); a thread's first message, stored with its channel, is not written again."""
    refs = []
    for row in rows:
        text = row[8]
        if (message_id := message_ids.get(row[3])) is None or not (
            "#" in text or "/pull/" in text or "PR " in text
        ):
            continue
        seen = set()
        for match in FLOOR_REF.finditer(text):
            key = (match["url"] or match["repo"], match["number"])
            if key not in seen:
                seen.add(key)
                refs.append((message_id, key[0], int(key[1]), match[0]))
    return refs


def time_floor(folder: Path, db: Path) -> tuple[float, float, int, int]:
    """Seconds the plain `json` + `sqlite3` import takes, wall-clock and CPU; (s, CPU s,
    messages stored, refs stored)."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.executescript(FLOOR_SCHEMA)
    gc.collect()
    start, cpu = time.perf_counter(), time.process_time()
    conn.execute("BEGIN")
    workspace_id = conn.execute(
        "INSERT INTO workspaces (platform, platform_id, name) VALUES (?, ?, ?) RETURNING id",
        ("discord", GUILD["id"], GUILD["name"]),
    ).fetchone()[0]
    channel_ids: dict[str, int] = {}
    for path in sorted(folder.glob("*.json"), key=str):
        _floor_file(conn, workspace_id, path, channel_ids)
    conn.execute("COMMIT")
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    stored = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    refs = conn.execute("SELECT count(*) FROM pr_refs").fetchone()[0]
    conn.close()
    return seconds, cpu, stored, refs


# --- drafting, in a child process ----------------------------------------------------------------


def _peak_rss_mib() -> tuple[float, str]:
    """This process's own resident-set high-water mark in MiB, and where it was read.

    `ru_maxrss` is not reset by exec on Linux: the kernel keeps the pre-exec maximum, so a
    child started by a large parent reports the parent's high-water mark, not its own. VmHWM in
    /proc/self/status belongs to the current address space only; it is used where it exists.
    """
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024, "VmHWM"
    except (OSError, ValueError):
        pass
    return _ru_maxrss_mib(), "ru_maxrss"


def _ru_maxrss_mib() -> float:
    """`ru_maxrss` in MiB (it is KiB on Linux, bytes on macOS)."""
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss / 2**20 if sys.platform == "darwin" else maxrss / 1024


def draft_in_this_process(db: Path, trace: bool) -> dict[str, Any]:
    """Draft the benchmark week of `db` once; what it took, as a JSON-ready dict."""
    engine = make_engine(f"sqlite:///{db}")
    sessions = make_sessionmaker(engine)
    config = load_config()
    peak = None
    with sessions() as session:
        workspace = resolve_workspace(session, None)
        settings = workspace_settings(session, config, workspace.id)
    week = week_of(settings, workspace.id, workspace.name, DRAFT_DAY)
    service = DraftingService(sessions, config, utcnow)
    gc.collect()
    rss_before, source = _peak_rss_mib()
    if trace:
        tracemalloc.start()
    start = time.perf_counter()
    drafted = asyncio.run(service.draft(week))
    seconds = time.perf_counter() - start
    if trace:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    rss_after, _ = _peak_rss_mib()
    with sessions() as session:
        draft = as_summary(get_draft_by_id(session, drafted.draft_id), workspace.name)
    engine.dispose()
    return {
        "seconds": seconds,
        "rss_before_mib": rss_before,
        "peak_rss_mib": rss_after,
        "rss_source": source,
        "ru_maxrss_mib": _ru_maxrss_mib(),
        "tracemalloc_peak_mib": peak,
        "sections": len(draft.sections),
        "chars": len(to_markdown(draft)),
    }


def draft_in_child(db: Path, trace: bool) -> dict[str, Any]:
    """Run `draft_in_this_process` in a fresh interpreter and read back its figures."""
    command = [sys.executable, str(Path(__file__).resolve()), "--draft-only", str(db)]
    if trace:
        command.append("--trace")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"drafting child failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- one size, all sizes -----------------------------------------------------------------------


@dataclass(slots=True)
class SizeResult:
    """Everything measured for one week size; times are medians of the runs listed."""

    messages: int
    files: int
    export_mib: float
    stored: int
    import_errors: int
    import_s: float
    import_runs: list[float]
    import_msgs_per_s: float
    floor_s: float
    floor_runs: list[float]
    floor_stored: int
    floor_refs: int
    import_over_floor: float
    import_cpu_s: float
    floor_cpu_s: float
    import_over_floor_cpu: float  # the steadier figure on a shared machine
    draft_s: float
    draft_runs: list[float]
    draft_rss_before_mib: float  # the child's high-water mark just before drafting
    draft_peak_rss_mib: float  # the child's own high-water mark after it (highest run)
    draft_rss_source: str  # VmHWM, or ru_maxrss where /proc is missing
    draft_ru_maxrss_mib: float  # for reference: includes the parent's mark on Linux
    draft_tracemalloc_peak_mib: float
    sections: int
    draft_chars: int
    shape: Shape  # of the week as imported


def _remove_db(db: Path) -> None:
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        path.unlink(missing_ok=True)


def measure_import(
    n: int, folder: Path, root: Path, repeat: int
) -> tuple[list[float], list[float], int, int]:
    """Import times (wall, CPU) of `repeat` fresh databases; the last one is kept as
    `import-N.db`. (wall times, CPU times, messages stored, errors)."""
    db = root / f"import-{n}.db"
    runs, cpu_runs = [], []
    for _ in range(repeat):
        _remove_db(db)
        seconds, cpu, stored, errors = time_import(folder, db)
        runs.append(seconds)
        cpu_runs.append(cpu)
    if stored != n:
        print(f"[{n}] warning: {stored} messages stored, expected {n}", file=sys.stderr)
    return runs, cpu_runs, stored, errors


def measure_floor(
    n: int, folder: Path, root: Path, repeat: int
) -> tuple[list[float], list[float], int, int]:
    """Floor times of `repeat` fresh databases; (wall times, CPU times, messages stored,
    refs stored)."""
    db = root / f"floor-{n}.db"
    runs, cpu_runs = [], []
    for _ in range(repeat):
        _remove_db(db)
        seconds, cpu, stored, refs = time_floor(folder, db)
        runs.append(seconds)
        cpu_runs.append(cpu)
    return runs, cpu_runs, stored, refs


def measure_draft(db: Path, repeat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """`repeat` timed drafts and one traced draft, each in a fresh child process."""
    timed = [draft_in_child(db, trace=False) for _ in range(repeat)]
    return timed, draft_in_child(db, trace=True)


def run_size(n: int, root: Path, repeat: int) -> SizeResult:
    """Generate, import, floor and draft the week of `n` messages under `root`."""
    folder = root / f"week-{n}"
    print(f"[{n}] writing the synthetic week ...", file=sys.stderr, flush=True)
    files, size = write_week(n, folder)
    print(f"[{n}] {files} files, {size / 2**20:.1f} MiB; importing ...", file=sys.stderr)
    import_runs, import_cpu_runs, stored, errors = measure_import(n, folder, root, repeat)
    import_s = statistics.median(import_runs)
    week_shape = shape_of_db(root / f"import-{n}.db")
    print(f"[{n}] import {import_s:.2f} s; floor ...", file=sys.stderr, flush=True)
    floor_runs, floor_cpu_runs, floor_stored, floor_refs = measure_floor(n, folder, root, repeat)
    import_refs = round(week_shape.refs_per_message * week_shape.messages)
    if floor_stored != stored or abs(floor_refs - import_refs) > 0.02 * import_refs:
        print(
            f"[{n}] warning: the floor wrote {floor_stored} messages and {floor_refs} refs, "
            f"the import {stored} and {import_refs}",
            file=sys.stderr,
        )
    floor_s = statistics.median(floor_runs)
    print(f"[{n}] floor {floor_s:.2f} s; drafting ...", file=sys.stderr, flush=True)
    timed, traced = measure_draft(root / f"import-{n}.db", repeat)
    draft_runs = [t["seconds"] for t in timed]
    print(f"[{n}] draft {statistics.median(draft_runs):.2f} s", file=sys.stderr, flush=True)
    return SizeResult(
        messages=n,
        files=files,
        export_mib=size / 2**20,
        stored=stored,
        import_errors=errors,
        import_s=import_s,
        import_runs=import_runs,
        import_msgs_per_s=stored / import_s,
        floor_s=floor_s,
        floor_runs=floor_runs,
        floor_stored=floor_stored,
        floor_refs=floor_refs,
        import_over_floor=import_s / floor_s,
        import_cpu_s=statistics.median(import_cpu_runs),
        floor_cpu_s=statistics.median(floor_cpu_runs),
        import_over_floor_cpu=statistics.median(import_cpu_runs)
        / statistics.median(floor_cpu_runs),
        draft_s=statistics.median(draft_runs),
        draft_runs=draft_runs,
        draft_rss_before_mib=max(t["rss_before_mib"] for t in timed),
        draft_peak_rss_mib=max(t["peak_rss_mib"] for t in timed),
        draft_rss_source=timed[0]["rss_source"],
        draft_ru_maxrss_mib=max(t["ru_maxrss_mib"] for t in timed),
        draft_tracemalloc_peak_mib=traced["tracemalloc_peak_mib"],
        sections=timed[0]["sections"],
        draft_chars=timed[0]["chars"],
        shape=week_shape,
    )


def shape_of_db(db: Path) -> Shape:
    """The shape of the week imported into `db` (`week_shape.shape`)."""
    engine = make_engine(f"sqlite:///{db}")
    try:
        return shape(engine)
    finally:
        engine.dispose()


@dataclass(slots=True)
class Ratio:
    """How import and draft time grow from one size to a larger one."""

    small: int
    large: int
    draft: float
    import_: float


def scaling(results: Sequence[SizeResult]) -> list[Ratio]:
    """Ratios between each pair of consecutive sizes."""
    ordered = sorted(results, key=lambda r: r.messages)
    return [
        Ratio(a.messages, b.messages, b.draft_s / a.draft_s, b.import_s / a.import_s)
        for a, b in zip(ordered, ordered[1:], strict=False)
    ]


def target_checks(results: Sequence[SizeResult], ratios: Sequence[Ratio]) -> list[str]:
    """One line per target: the figure, the limit, met or missed."""

    def line(ok: bool, what: str) -> str:
        return f"{'met   ' if ok else 'MISSED'} {what}"

    lines = []
    for r in results:
        if r.messages >= DRAFT_TARGET_SIZE:
            lines.append(
                line(
                    r.import_over_floor_cpu <= MAX_IMPORT_OVER_FLOOR,
                    f"N={r.messages}: import/floor {r.import_over_floor_cpu:.2f}x in CPU time, "
                    f"{r.import_over_floor:.2f}x wall-clock (target <= {MAX_IMPORT_OVER_FLOOR:g}x)",
                )
            )
        if r.messages <= DRAFT_TARGET_SIZE:
            lines.append(
                line(
                    r.draft_s < MAX_DRAFT_SECONDS,
                    f"N={r.messages}: draft {r.draft_s:.2f} s (target < {MAX_DRAFT_SECONDS:g} s)",
                )
            )
        lines.append(
            line(
                r.draft_peak_rss_mib < MAX_DRAFT_RSS_MIB,
                f"N={r.messages}: draft peak RSS {r.draft_peak_rss_mib:.0f} MiB "
                f"(target < {MAX_DRAFT_RSS_MIB:g} MiB)",
            )
        )
    for ratio in ratios:
        limit = MAX_SCALING * (ratio.large / ratio.small) / 10
        for name, value in (("draft", ratio.draft), ("import", ratio.import_)):
            lines.append(
                line(
                    value <= limit,
                    f"{name}_time({ratio.large})/{name}_time({ratio.small}) = {value:.2f}x "
                    f"(target <= {limit:g}x)",
                )
            )
    return lines


def markdown_table(results: Sequence[SizeResult]) -> str:
    """One row per size; RSS is the drafting child's own, before and after drafting."""
    header = (
        "| messages | import s | msgs/s | floor s | import/floor | import/floor CPU | draft s "
        "| draft peak RSS MiB | RSS before draft MiB | draft tracemalloc MiB | sections "
        "| draft chars |"
    )
    rows = [header, "|" + "---:|" * 12]
    for r in results:
        rows.append(
            f"| {r.messages:,} | {r.import_s:.2f} | {r.import_msgs_per_s:,.0f} | {r.floor_s:.2f} "
            f"| {r.import_over_floor:.2f}x | {r.import_over_floor_cpu:.2f}x "
            f"| {r.draft_s:.2f} | {r.draft_peak_rss_mib:.0f} "
            f"| {r.draft_rss_before_mib:.0f} | {r.draft_tracemalloc_peak_mib:.0f} "
            f"| {r.sections} | {r.draft_chars:,} |"
        )
    return "\n".join(rows)


def _git(*args: str) -> str:
    """The output of a git command in this repository ("" when git is not there)."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=OUT_DIR.parent, capture_output=True, text=True, check=False
        )
    except OSError:
        return ""
    return done.stdout


def environment() -> dict[str, str]:
    """What the figures were measured with; `git_diff_sha256` tells uncommitted trees apart."""
    diff = _git("diff", "HEAD")
    return {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "sqlalchemy": sqlalchemy.__version__,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "git": _git("describe", "--always", "--dirty").strip() or "unknown",
        "git_diff_sha256": hashlib.sha256(diff.encode()).hexdigest()[:12] if diff else "",
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def report(results: Sequence[SizeResult], measured: dict[str, str]) -> dict[str, Any]:
    """Print the table, ratios and target checks; the same as a JSON-ready dict.

    `measured` is the environment at the start; a working tree edited during the run is flagged.
    """
    now = environment()
    changed = any(now[key] != measured[key] for key in ("git", "git_diff_sha256"))
    if changed:
        print("warning: the working tree changed during the run", file=sys.stderr)
    ratios = scaling(results)
    checks = target_checks(results, ratios)
    runs = len(results[0].import_runs) if results else 0
    print(f"Times are medians of {runs} run(s); RSS is {results[0].draft_rss_source}.\n")
    print(markdown_table(results))
    print("\nThe synthetic week's shape (benchmarks/week_shape.py):\n")
    print(shape_table([(f"{r.messages:,}", r.shape) for r in results]))
    print()
    for ratio in ratios:
        print(f"draft_time({ratio.large})/draft_time({ratio.small}) = {ratio.draft:.2f}x")
        print(f"import_time({ratio.large})/import_time({ratio.small}) = {ratio.import_:.2f}x")
    print()
    print("\n".join(checks))
    return {
        "environment": measured,
        "tree_changed_during_run": changed,
        "results": [asdict(r) for r in results],
        "scaling": [
            {"small": r.small, "large": r.large, "draft": r.draft, "import": r.import_}
            for r in ratios
        ],
        "targets": checks,
    }


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES), help="messages per week"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each timed phase; the median is reported"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--draft-only", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    if args.draft_only is not None:
        print(json.dumps(draft_in_this_process(args.draft_only, args.trace)))
        return
    measured = environment()
    root = Path(tempfile.mkdtemp(prefix="summarybot-bench-"))
    try:
        results = [run_size(n, root, max(1, args.repeat)) for n in args.sizes]
    finally:
        if args.keep:
            print(f"kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    summary = report(results, measured)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / "results.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {OUT_DIR / 'results.json'}")


if __name__ == "__main__":
    main()
