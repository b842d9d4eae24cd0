"""Draft quality on the development weeks, in every chat shape.

For each week under `benchmarks/devset/` and each shape (by channel, all in one #general, a
Slack export) this builds the export into a temporary folder, imports it with the real CLI
into a fresh SQLite file, drafts the week with `summarybot draft --format json` and measures
the draft against the week's truth and hand-written reference:

- PR recall: truth PRs cited in any section's `prs` (a bare `#N` counts as the default repo's);
- placement: of the truth PRs cited, the share cited by a section of their truth topic;
- newcomers: truth newcomers named (whole words) in the introductions section;
- noise: truth noise messages of the week among the sections' `sources`, or whose text (when
  it has at least four words) appears in the draft;
- bots: bot display names shown as a bolded speaker (`**GitHub**`) or listed in `people`;
- cut: bullets and lines that stop mid-sentence (`summarizer.evaluate.cut_sentences`);
- false refs: truth not-PR strings (list numbers, colours, `#27-Ubuntu`...) cited as PRs;
- words: the draft's words against the reference's; ROUGE-1/2 F1 against the reference.

Run `python benchmarks/quality.py` (add `--json` for machine-readable output,
`--write-floor` to record the figures as the CI floor in `benchmarks/devset/floor.json`).
The CLI runs as a subprocess found through its console-script entry point, with this
checkout first on PYTHONPATH, so the code measured is the code in this working tree.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEVSET = ROOT / "benchmarks" / "devset"
FLOOR = DEVSET / "floor.json"
sys.path[:0] = [str(ROOT), str(DEVSET)]

import devweeks  # noqa: E402  (benchmarks/devset/devweeks.py)

from summarizer.evaluate import cut_sentences, rouge_n, word_count  # noqa: E402

CLI = [
    sys.executable,
    "-c",
    "import sys; from importlib.metadata import entry_points; sys.argv[0] = 'summarybot'; "
    "sys.exit(entry_points(group='console_scripts', name='summarybot')[0].load()())",
]
# Figures that must not fall (higher is better) and must not rise (lower is better).
HIGHER = ("pr_recall", "placement", "newcomers")
LOWER = ("noise", "bots", "cut", "false_refs")
MIN_QUOTE_WORDS = 4


def summarybot(*args: str, database: Path, config: Path) -> str:
    """Run the CLI on `database` with `config` and return its standard output."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    command = [*CLI, "--database", f"sqlite:///{database}", "--config", str(config), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"summarybot {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def draft_shape(shape_dir: Path, config: Path, week: str, workdir: Path) -> dict[str, Any]:
    """Import one shape into a fresh database and return the week's JSON draft."""
    database = workdir / f"{shape_dir.name}.db"
    summarybot("import", str(shape_dir), database=database, config=config)
    return json.loads(
        summarybot("draft", "--week", week, "--format", "json", database=database, config=config)
    )


# --- measuring ---------------------------------------------------------------------------


def _ref_key(ref: str, default_repo: str) -> str:
    repo, _, number = ref.rpartition("#")
    return f"{repo or default_repo}#{number}".casefold()


def _normal_text(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def measure(
    draft: dict[str, Any], truth: dict[str, Any], shape: str, reference: str, default_repo: str
) -> dict[str, Any]:
    """The figures of one draft (see the module docstring) against the week's truth."""
    sections = draft["sections"]
    markdown = "\n\n".join(s["markdown"] for s in sections)
    cited: dict[str, set[str]] = {}  # PR key -> topics of the sections citing it
    for section in sections:
        for ref in section["prs"]:
            cited.setdefault(_ref_key(ref, default_repo), set()).add(section["topic"])
    truth_prs = {_ref_key(ref, default_repo): topic for ref, topic in truth["prs"].items()}
    found = [key for key in truth_prs if key in cited]
    placed = [key for key in found if truth_prs[key] in cited[key]]

    intro = "\n".join(s["markdown"] for s in sections if s["topic"] == "introductions")
    newcomers = [n for n in truth["newcomers"] if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", intro)]

    sources = {source for s in sections for source in s["sources"]}
    plain = _normal_text(markdown)
    noise = []
    for message in truth["messages"].values():
        ident = message[shape]
        if not (message["noise"] and message["in_week"] and ident):
            continue
        quote = _normal_text(message["text"])
        quoted = len(quote.split()) >= MIN_QUOTE_WORDS and quote in plain
        if ident in sources or quoted:
            noise.append(ident)

    people = {p for s in sections for p in s["people"]}
    bots = [b for b in truth["bots"] if b in people or f"**{b}**" in markdown]
    false_refs = [n["text"] for n in truth["not_prs"] if n["ref"] and n["ref"].casefold() in cited]
    cut = [line for s in sections for line in cut_sentences(s["markdown"])]
    return {
        "pr_recall": len(found) / len(truth_prs),
        "prs_found": len(found),
        "prs_total": len(truth_prs),
        "placement": len(placed) / len(found) if found else 1.0,
        "newcomers": len(newcomers) / len(truth["newcomers"]),
        "newcomers_found": len(newcomers),
        "newcomers_total": len(truth["newcomers"]),
        "noise": len(noise),
        "noise_total": len(truth["noise"][shape]),
        "bots": len(bots),
        "cut": len(cut),
        "false_refs": len(false_refs),
        "words": word_count(markdown),
        "reference_words": word_count(reference),
        "rouge1": rouge_n(markdown, reference, 1),
        "rouge2": rouge_n(markdown, reference, 2),
        "missing_prs": [key for key in truth_prs if key not in cited],
        "cut_lines": cut,
        "false_ref_strings": false_refs,
    }


def run(weeks: list[Path] | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    """Build, import, draft and measure every week and shape: week -> shape -> figures."""
    results: dict[str, dict[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="devset-") as tmp, ThreadPoolExecutor(2) as pool:
        workdir = Path(tmp)
        for folder in weeks or devweeks.weeks():
            truth = devweeks.build_week(folder, workdir / folder.name)
            config = folder / "config.toml"
            default_repo = devweeks.tomllib.loads(config.read_text()).get("default_repo", "")
            reference = (folder / "reference.md").read_text(encoding="utf-8")
            drafts = {
                shape: pool.submit(
                    draft_shape,
                    workdir / folder.name / shape,
                    config,
                    truth["week"],
                    workdir / folder.name,
                )
                for shape in devweeks.SHAPES
            }
            results[folder.name] = {
                shape: measure(job.result(), truth, shape, reference, default_repo)
                for shape, job in drafts.items()
            }
    return results


# --- output ------------------------------------------------------------------------------


def table(week: str, rows: dict[str, dict[str, Any]]) -> str:
    """One week's figures as a compact plain-text table, one row per shape."""
    header = (
        f"{'shape':<13}{'PR recall':>13}{'placed':>8}{'newcomers':>10}{'noise':>7}"
        f"{'bots':>5}{'cut':>5}{'falseref':>9}{'words':>11}{'R-1':>6}{'R-2':>6}"
    )
    lines = [week, header]
    for shape, f in rows.items():
        lines.append(
            f"{shape:<13}{f['prs_found']:>3}/{f['prs_total']:<3}{f['pr_recall']:>5.0%}"
            f"{f['placement']:>8.0%}{f['newcomers_found']:>6}/{f['newcomers_total']:<3}"
            f"{f['noise']:>7}{f['bots']:>5}{f['cut']:>5}{f['false_refs']:>9}"
            f"{f['words']:>6}/{f['reference_words']:<4}{f['rouge1']:>6.3f}{f['rouge2']:>6.3f}"
        )
    return "\n".join(lines)


def floor_figures(results: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    """The figures the CI floor keeps: week -> shape -> {figure: value}."""
    return {
        week: {shape: {k: round(f[k], 4) for k in HIGHER + LOWER} for shape, f in rows.items()}
        for week, rows in results.items()
    }


def regressions(results: dict[str, Any], floor: dict[str, Any]) -> list[str]:
    """Every figure that is worse than its floor, as readable lines."""
    worse = []
    for week, rows in floor.items():
        for shape, figures in rows.items():
            got = results[week][shape]
            for key, bound in figures.items():
                value = round(got[key], 4)
                if (key in HIGHER and value < bound) or (key in LOWER and value > bound):
                    worse.append(f"{week} {shape} {key}: {value} (floor {bound})")
    return worse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--write-floor", action="store_true", help=f"record them in {FLOOR}")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("typer") is None:
        print(
            f"{sys.executable} has not got the project's dependencies: install them first "
            "(pip install -e .) or run this with the Python of that environment",
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()
    results = run()
    if args.write_floor:
        FLOOR.write_text(json.dumps(floor_figures(results), indent=1) + "\n")
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print("\n\n".join(table(week, rows) for week, rows in results.items()))
        print(f"({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
