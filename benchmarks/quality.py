"""Draft quality on every week we have: the team's, weeks written outside it, and real ones.

The weeks are described in `benchmarks/weeksets.py`. For each case this imports the export
with the real CLI into a fresh SQLite file (cases sharing an export and a config share it),
drafts the week with `summarybot draft --format json`, and measures the draft:

- PR recall: truth PRs that an in-week message cites, cited in any section's `prs`;
- placed: of those, the share cited by a section of an acceptable topic (only where the
  config's topic ids are the truth's; "-" elsewhere);
- newcomers: truth newcomers named in the introductions section (the whole draft where the
  config has no introductions topic);
- carry (real weeks): labelled items an editor must carry that a section citing one of the
  item's messages (or PRs) says, with every group of the item's terms; chatter: labelled
  chatter messages among the sections' sources or quoted;
- noise: truth noise messages among the sources or quoted (at least four words); inj: drafts
  repeating the week's prompt injection;
- bots: bot names shown as people; cut: lines stopping mid-sentence; false: not-PR strings
  cited as PRs;
- voice: the share of items that read as chat (`summarizer.voice`);
- words: the draft's against the published text's; ROUGE-1/2 F1 against the published text.

Run `python benchmarks/quality.py` (`--json` for machine-readable output, `--set dev` for one
set, `--write-floor` to record the dev set's figures as the CI floor in
`benchmarks/devset/floor.json`). The CLI runs as a subprocess through its console-script
entry point, with this checkout first on PYTHONPATH, so the code measured is this tree's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEVSET = ROOT / "benchmarks" / "devset"
FLOOR = DEVSET / "floor.json"
sys.path[:0] = [str(ROOT), str(DEVSET), str(ROOT / "benchmarks")]

import devweeks  # noqa: E402,F401  (benchmarks/devset/devweeks.py; the floor test uses it)
import weeksets  # noqa: E402
from weeksets import Case  # noqa: E402

from summarizer.evaluate import cut_sentences, rouge_n, word_count  # noqa: E402
from summarizer.voice import chat_voice  # noqa: E402

CLI = [
    sys.executable,
    "-c",
    "import sys; from importlib.metadata import entry_points; sys.argv[0] = 'summarybot'; "
    "sys.exit(entry_points(group='console_scripts', name='summarybot')[0].load()())",
]
SETS = ("dev", "outside", "real")
# Figures that must not fall (higher is better) and must not rise (lower is better).
HIGHER = ("pr_recall", "placement", "newcomers")
LOWER = ("noise", "bots", "cut", "false_refs")
MIN_QUOTE_WORDS = 4


def summarybot(*args: str, database: Path, config: Path | None) -> str:
    """Run the CLI on `database` with `config` (None: the shipped defaults); its output."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    env.pop("SUMMARYBOT_CONFIG", None)
    options = ["--config", str(config)] if config else []
    command = [*CLI, "--database", f"sqlite:///{database}", *options, *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"summarybot {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def imported(case: Case, workdir: Path) -> Path:
    """A database holding the case's export, imported once per export and config."""
    name = re.sub(r"\W+", "-", f"{case.export}-{case.config_file}").strip("-")[-120:]
    database = workdir / f"{name}.db"
    if not database.exists():
        summarybot("import", str(case.export), database=database, config=case.config_file)
    return database


def draft(case: Case, database: Path) -> dict[str, Any]:
    """The case's week drafted as JSON."""
    week = case.monday.isoformat()
    out = summarybot(
        "draft", "--week", week, "--format", "json", database=database, config=case.config_file
    )
    return json.loads(out)


def message_texts(database: Path) -> dict[str, str]:
    """Every stored message's text by platform id (to tell when a draft quotes one)."""
    with sqlite3.connect(database) as connection:
        return dict(connection.execute("SELECT platform_id, text FROM messages"))


# --- measuring -----------------------------------------------------------------------------


def _normal_text(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _ids_match(source: str, ids: frozenset[str]) -> bool:
    """A draft's source names a truth message: the same id, or a Slack `CHANNEL:ts` whose
    `ts` is the truth's (truth for Slack shapes may key messages by `ts` alone)."""
    return source in ids or source.rpartition(":")[2] in ids


def _cited_or_quoted(
    ids: frozenset[str], sources: set[str], plain: str, texts: dict[str, str]
) -> list[str]:
    found = {s for s in sources if _ids_match(s, ids)}
    for ident, text in texts.items():
        if ident in found or not _ids_match(ident, ids):
            continue
        quote = _normal_text(text)
        if len(quote.split()) >= MIN_QUOTE_WORDS and quote in plain:
            found.add(ident)
    return sorted(found)


def measure(drafted: dict[str, Any], case: Case, texts: dict[str, str]) -> dict[str, Any]:
    """The figures of one draft (see the module docstring)."""
    truth = case.truth
    sections = drafted["sections"]
    markdown = "\n\n".join(s["markdown"] for s in sections)
    cited: dict[str, set[str]] = {}  # PR key -> topics of the sections citing it
    for section in sections:
        for ref in section["prs"]:
            if _shown(ref, section["markdown"]):
                cited.setdefault(truth.key(ref), set()).add(section["topic"])
    found = [key for key in truth.prs if key in cited]
    placed = [key for key in found if truth.prs[key] & cited[key]]

    topics = {s["topic"] for s in sections}
    intro = "\n".join(s["markdown"] for s in sections if s["topic"] == "introductions")
    where = intro if "introductions" in topics or case.placeable else markdown
    newcomers = [n for n in truth.newcomers if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", where)]

    sources = {source for s in sections for source in s["sources"]}
    plain = _normal_text(markdown)
    noise = _cited_or_quoted(truth.noise, sources, plain, texts)
    chatter = _cited_or_quoted(truth.chatter, sources, plain, texts)
    carried = [item.id for item in truth.carry if _carried(item, sections, truth)]

    people = {p for s in sections for p in s["people"]}
    bots = [b for b in truth.bots if b in people or f"**{b}**" in markdown]
    false_refs = sorted(truth.not_prs & cited.keys())
    cut = [line for s in sections for line in cut_sentences(s["markdown"])]
    voice = chat_voice(markdown)
    injected = bool(truth.injection and re.search(truth.injection, markdown))
    return {
        "pr_recall": len(found) / len(truth.prs) if truth.prs else 1.0,
        "prs_found": len(found),
        "prs_total": len(truth.prs),
        "placement": len(placed) / len(found) if found and case.placeable else None,
        "newcomers": len(newcomers) / len(truth.newcomers) if truth.newcomers else 1.0,
        "newcomers_found": len(newcomers),
        "newcomers_total": len(truth.newcomers),
        "carry": len(carried) / len(truth.carry) if truth.carry else None,
        "carried": carried,
        "carry_total": len(truth.carry),
        "chatter": len(chatter),
        "noise": len(noise),
        "injected": int(injected),
        "bots": len(bots),
        "cut": len(cut),
        "false_refs": len(false_refs),
        "voice": voice.share,
        "items": voice.items,
        "words": word_count(markdown),
        "reference_words": word_count(case.reference) if case.reference else None,
        "rouge1": rouge_n(markdown, case.reference, 1) if case.reference else None,
        "rouge2": rouge_n(markdown, case.reference, 2) if case.reference else None,
        "missing_prs": [key for key in truth.prs if key not in cited],
        "missed_carry": [item.id for item in truth.carry if item.id not in carried],
        "noise_ids": noise,
        "chatter_ids": chatter,
        "cut_lines": cut,
        "false_ref_strings": false_refs,
        "chat_items": [f"{', '.join(m)}: {item}" for item, m in voice.chat],
    }


def _shown(ref: str, markdown: str) -> bool:
    """Whether a section's text shows a PR it lists as cited (its number, as written or in
    its link): one it lists without showing is not in the draft an editor reads."""
    number = ref.rpartition("#")[2]
    return re.search(rf"(?<!\d){re.escape(number)}(?!\d)", markdown) is not None


def _carried(item: weeksets.CarryItem, sections: Sequence[dict[str, Any]], truth: Any) -> bool:
    """Whether a section drawn from the item's messages (or citing its PRs) says it."""
    for section in sections:
        cites = any(_ids_match(s, item.messages) for s in section["sources"]) or bool(
            item.prs & {truth.key(ref) for ref in section["prs"]}
        )
        text = section["markdown"].casefold()
        if cites and all(any(t.casefold() in text for t in group) for group in item.terms):
            return True
    return False


# --- running -------------------------------------------------------------------------------


def cases(workdir: Path, sets: Sequence[str] = SETS) -> list[Case]:
    """The cases of `sets` whose data is here, the dev weeks built into `workdir`."""
    found: list[Case] = []
    if "dev" in sets:
        found += weeksets.dev_cases(workdir)
    if "outside" in sets:
        found += weeksets.outside_cases()
    if "real" in sets:
        found += weeksets.real_cases()
    return found


def run(sets: Sequence[str] = SETS) -> dict[str, dict[str, Any]]:
    """Import, draft and measure every case: case label -> figures (with `set`, `week`,
    `shape`, `config` and the draft's Markdown sections)."""
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="quality-") as tmp, ThreadPoolExecutor(2) as pool:
        workdir = Path(tmp)
        todo = cases(workdir, sets)
        # One import per database, then the drafts (which only read it) in parallel.
        databases: dict[str, Future[Path]] = {}
        for case in todo:
            key = f"{case.export}|{case.config_file}"
            if key not in databases:
                databases[key] = pool.submit(imported, case, workdir)
            case.database = key
        drafts = {
            case.label: pool.submit(lambda c=case: draft(c, databases[c.database].result()))
            for case in todo
        }
        texts: dict[str, dict[str, str]] = {}
        for case in todo:
            database = databases[case.database].result()
            if case.database not in texts:
                texts[case.database] = message_texts(database)
            drafted = drafts[case.label].result()
            figures = measure(drafted, case, texts[case.database])
            figures.update(
                set=case.set,
                week=case.week,
                shape=case.shape,
                config=case.config,
                markdown={s["title"]: s["markdown"] for s in drafted["sections"]},
            )
            results[case.label] = figures
    return results


# --- output ------------------------------------------------------------------------------

COLUMNS = (
    f"{'week':<27}{'shape':<12}{'config':<9}{'PR recall':>13}{'placed':>7}{'newc':>7}"
    f"{'carry':>8}{'chat':>5}{'noise':>6}{'inj':>4}{'bots':>5}{'cut':>4}{'false':>6}"
    f"{'voice':>6}{'words':>11}{'R-1':>6}{'R-2':>6}"
)


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def row(f: dict[str, Any]) -> str:
    """One case's figures as a line of the table."""
    carry = f"{len(f['carried'])}/{f['carry_total']}" if f["carry"] is not None else "-"
    reference = f["reference_words"] if f["reference_words"] is not None else "-"
    rouge = [_rouge(f["rouge1"]), _rouge(f["rouge2"])]
    return (
        f"{f['week'][:26]:<27}{f['shape']:<12}{f['config'][:8]:<9}"
        f"{f['prs_found']:>3}/{f['prs_total']:<3}{_share(f['pr_recall']):>5}"
        f"{_share(f['placement']):>7}{f['newcomers_found']:>4}/{f['newcomers_total']:<2}"
        f"{carry:>8}{f['chatter']:>5}{f['noise']:>6}{f['injected']:>4}{f['bots']:>5}"
        f"{f['cut']:>4}{f['false_refs']:>6}{_share(f['voice']):>6}"
        f"{f['words']:>6}/{reference:<4}{rouge[0]:>6}{rouge[1]:>6}"
    )


def _rouge(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def table(results: dict[str, dict[str, Any]]) -> str:
    """Every case's figures as one plain-text table, a blank line between sets."""
    lines = [COLUMNS]
    previous = None
    for figures in results.values():
        if previous is not None and figures["set"] != previous:
            lines.append("")
        previous = figures["set"]
        lines.append(row(figures))
    return "\n".join(lines)


def floor_figures(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The figures the CI floor keeps, for the dev set: week -> shape -> {figure: value}."""
    floor: dict[str, Any] = {}
    for f in results.values():
        if f["set"] == "dev":
            kept = {k: round(f[k], 4) for k in HIGHER + LOWER if f[k] is not None}
            floor.setdefault(f["week"], {})[f["shape"]] = kept
    return floor


def regressions(results: dict[str, Any], floor: dict[str, Any]) -> list[str]:
    """Every dev-set figure that is worse than its floor, as readable lines."""
    by_week = floor_figures(results)
    worse = []
    for week, rows in floor.items():
        for shape, figures in rows.items():
            got = by_week[week][shape]
            for key, bound in figures.items():
                value = got[key]
                if (key in HIGHER and value < bound) or (key in LOWER and value > bound):
                    worse.append(f"{week} {shape} {key}: {value} (floor {bound})")
    return worse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--set", choices=SETS, action="append", help="only these sets")
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
    results = run(args.set or SETS)
    if args.write_floor:
        FLOOR.write_text(json.dumps(floor_figures(results), indent=1) + "\n")
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(table(results))
        print(f"({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
