"""A table of figures pasted in a code block is news the draft says; logs and code are not."""

from __future__ import annotations

import pytest
from test_extractive import drafted_with

from summarizer.tables import table_line

BENCH = """```
                 before     after
build p50        61 ms      18 ms
build p99       420 ms      95 ms
dropped jobs     0.4%       0
```"""


def test_a_results_table_in_a_code_block_is_said_in_the_bullet() -> None:
    text = drafted_with(
        f"#2291 is in, numbers from the bench rig (1h run):\n{BENCH}\nmore in the PR"
    )
    assert "build p50: 61 ms before, 18 ms after; build p99: 420 ms before, 95 ms after" in text
    assert "dropped jobs: 0.4% before, 0 after" in text


def test_a_table_is_said_after_the_sentence_its_message_opens_with() -> None:
    text = drafted_with(
        f"batching rework results (#2291). both arms on the same racks, same data:\n{BENCH}\n"
        "so: p99 is what users feel and the rest follows from #2280",
        reactions=6,
    )
    assert text.startswith("- Batching rework results ([#2291](")
    assert "Both arms on the same racks, same data: build p50: 61 ms before, 18 ms after;" in text


@pytest.mark.parametrize(
    ("block", "line"),
    [
        (  # a label and its value on each line
            "```\ntop speed        3.9 m/s measured\nbattery          11 min, 11.9 V resting\n```",
            "top speed: 3.9 m/s measured; battery: 11 min, 11.9 V resting.",
        ),
        (  # a header whose first cell names the labels; a column name holding a figure; "-"
            "```\nmode     tuples   recall@10   QPS\noff      -        0.07        1,020\n"
            "relaxed  20000    0.89        380\n```",
            "off: 0.07 recall@10, 1,020 QPS; relaxed: 20000 tuples, 0.89 recall@10, 380 QPS.",
        ),
        (  # versions under a header: the first column's name says what they are versions of
            "```\nk8s    before   after\n1.29   41m12s   17m40s\n1.30   39m55s   16m58s\n```",
            "k8s 1.29: 41m12s before, 17m40s after; k8s 1.30: 39m55s before, 16m58s after.",
        ),
        (  # columns named by versions, the header on the code fence's line as Slack has it
            "```           v2.3.2     2.4.0-rc1\nwall clock   3h 12m     2h 21m\n"
            "peak RSS     41.5 GB    23.8 GB\nSNV F1       0.9962     0.9968```",
            "wall clock: 3h 12m v2.3.2, 2h 21m 2.4.0-rc1; peak RSS: 41.5 GB v2.3.2, "
            "23.8 GB 2.4.0-rc1; SNV F1: 0.9962 v2.3.2, 0.9968 2.4.0-rc1.",
        ),
        (  # the first row on the code fence's line, as Slack writes it: no language
            "```Q1  160/218\nQ2  102/218\nQ3   55/218```",
            "Q1: 160/218; Q2: 102/218; Q3: 55/218.",
        ),
        (  # ... or, with no name for it, they stand as they are
            "```\n            split brains   failover p50\n0.13.2       4/20           3.1s\n"
            "pr-1281      0/20           3.4s\n```",
            "0.13.2: 4/20 split brains, 3.1s failover p50; "
            "pr-1281: 0/20 split brains, 3.4s failover p50.",
        ),
        (  # a version in a column's name is no figure: the row names the columns
            "```\nzoom   tiles    0.19.0 tiles/s   main tiles/s\n"
            "z10    1,024    3,410            3,520\nz12    16,384   2,150            2,310\n```",
            "z10: 1,024 tiles, 3,410 0.19.0 tiles/s, 3,520 main tiles/s; "
            "z12: 16,384 tiles, 2,150 0.19.0 tiles/s, 2,310 main tiles/s.",
        ),
        (  # a label that filled its column, one space from its first value
            "```\n                      regex     trie\nmedian / request      41 µs     9 µs\n"
            "cold start (load+compile) 820 ms    310 ms\n```",
            "median / request: 41 µs regex, 9 µs trie; "
            "cold start (load+compile): 820 ms regex, 310 ms trie.",
        ),
        (  # runs numbered from 1 with only their figures: the number labels each row
            "```\nrun  lift_off   apogee\n1    +0.2 s     702 ft\n2    +0.3 s     698 ft\n```",
            "run 1: +0.2 s lift_off, 702 ft apogee; run 2: +0.3 s lift_off, 698 ft apogee.",
        ),
        (  # a total leaves the cells it cannot add up empty; one a single space from its label
            "```\nshelf        years       boxes   done\nparish A     1813-1850   212     180\n"
            "parish B     1851-1900   305     60\nTotal                    517     240\n```",
            "parish A: 1813-1850 years, 212 boxes, 180 done; parish B: 1851-1900 years, 305 "
            "boxes, 60 done; Total: 517 boxes, 240 done.",
        ),
        (
            "```\nitem          qty   price\nrail guide    1     $11.20\n"
            "epoxy kit     1     $89.95\n                  total $101.15\n```",
            "rail guide: 1 qty, $11.20 price; epoxy kit: 1 qty, $89.95 price; "
            "total: $101.15 price.",
        ),
    ],
)
def test_a_table_is_said_row_by_row_with_its_columns_names(block: str, line: str) -> None:
    assert table_line(block) == line


@pytest.mark.parametrize(
    ("block", "line"),
    [
        (  # a title over it, boards numbered from 1, each row read as it is
            "```\nSpring League - Round 2\nBd  Home          Res   Away\n"
            "1   Ana Lind      1-0   Bo Berg\n2   Cy Moss       ½-½   Di Park\n```",
            "Ana Lind 1-0 Bo Berg; Cy Moss ½-½ Di Park.",
        ),
        (  # places with ties, some holding several names
            "```\n#    Name              Pts\n1    Ana Lind          4\n2=   Bo Berg, Cy Moss  3\n"
            "2=   Di Park           3\n5    Ed Yu             1\n```",
            "Ana Lind 4; Bo Berg, Cy Moss 3; Di Park 3; Ed Yu 1.",
        ),
        (  # counts that are no places: a measure of their own
            "```\nplayers  games  avg length\n2        3      38 min\n3        4      52 min\n```",
            "players 2: 3 games, 38 min avg length; players 3: 4 games, 52 min avg length.",
        ),
    ],
)
def test_a_ranking_or_a_round_s_results_are_said_by_their_rows(block: str, line: str) -> None:
    assert table_line(block) == line


def test_a_long_table_is_said_by_its_first_rows() -> None:
    rows = "\n".join(f"run {n}        {n}.5 s" for n in range(1, 9))
    assert table_line(f"```\n{rows}\n```") == (
        "run 1: 1.5 s; run 2: 2.5 s; run 3: 3.5 s; run 4: 4.5 s."
    )


def test_the_totals_under_a_rule_are_said_after_a_long_table_s_first_rows() -> None:
    rows = "\n".join(f"kind {n}      {n}0     {n}.0%" for n in range(1, 7))
    block = f"```\nkind        count   share\n{rows}\n--------------------\nall     210   100%\n```"
    assert table_line(block) == (
        "kind 1: 10 count, 1.0% share; kind 2: 20 count, 2.0% share; kind 3: 30 count, 3.0% "
        "share; kind 4: 40 count, 4.0% share; all: 210 count, 100% share."
    )


@pytest.mark.parametrize(
    "block",
    [
        "```\n[  812.4] nvme0: I/O 17 QID 4 timeout, aborting the request and resetting the "
        "controller now\n[  812.9] nvme0: controller reset done after 2 attempts\n```",
        "```python\nfor shard in shards:\n    write(shard, retries=3)\n```",
        "```\npip install summarybot==2.1\n```",
        "```\nname      owner\nparser    Ana\nlexer     Bo\n```",  # (no figure)
    ],
)
def test_logs_code_and_tables_without_figures_are_no_table(block: str) -> None:
    assert table_line(block) is None


def test_an_eval_table_of_scores_and_their_changes_is_news() -> None:
    text = drafted_with(
        "first v2 numbers, both models on the same harness:\n```\n"
        "benchmark        v1      v2      delta\nMMLU (5-shot)    71.8    72.4    +0.6\n"
        "GSM8K (8-shot)   78.1    83.9    +5.8\n```\nmath gains are where the new mix went"
    )
    assert "MMLU (5-shot): 71.8 v1, 72.4 v2, +0.6 delta; GSM8K (8-shot): 78.1 v1" in text


def test_a_table_is_said_under_the_title_over_it() -> None:
    text = drafted_with(
        "📊 **Weekly numbers** (Mon Oct 26 – Sun Nov 1)\n```\n"
        "Mod          Version   This week   Total\nLoader       2.7.1     31,540      612,904\n"
        "Deepcaves    3.2.0     14,203      104,877\n```\nsee you next week"
    )
    assert text.startswith(
        "- **Weekly numbers** (Mon Oct 26 – Sun Nov 1): Loader: 2.7.1 Version, 31,540 This week"
    )


def test_a_table_under_a_long_opening_line_is_said_whatever_its_rows_add() -> None:
    text = drafted_with(
        "compile-time numbers, last Friday's main vs this morning with #1190 (interned module "
        "paths in name resolution), ref box = M2 Pro, 10 cores, warm cache, three runs each:\n"
        "```\nbenchmark              before    after    delta\n"
        "self-host (stage2)     41.2s     36.8s    -10.7%\n"
        "stdlib check           14.6s     12.9s    -11.6%\n"
        "hello world            0.41s     0.40s     ~0\n"
        "peak RSS (self-host)   2.31 GB   2.02 GB  -12.6%\n```\nnot merged yet, waiting on CI"
    )
    # (the difference of two measurements is said by them)
    assert "self-host (stage2): 41.2s before, 36.8s after; stdlib check: 14.6s before" in text


def test_a_table_of_bare_scores_is_news_by_its_scores() -> None:
    text = drafted_with(
        "router benchmark, first results\nGHZ fidelity (4000 shots, mean of 3 seeds):\n```\n"
        "backend    n    old     new\nember-27   12   0.713   0.781\n"
        "ember-27   20   0.482   0.559\nharbor-32  12   0.902   0.914\n```\n"
        "harbor-32 passes QV 128 only with the new router (0.652 heavy-output with the old, "
        "under the 2/3 threshold)",
        reactions=24,
    )
    assert "ember-27: 12 n, 0.713 old, 0.781 new" in text


def test_what_follows_a_long_table_is_said_whole() -> None:
    """A long table's rows leave the message's remarks after it one statement: the bullet
    keeps the count and the call for helpers, not the first remark alone."""
    register = "\n".join(f"shelf {n}      19{n}0-19{n}9     2{n}0      1{n}0" for n in range(1, 5))
    text = drafted_with(
        f"```\nshelf        years        boxes     done\n{register}\nTotal                     "
        "1000      600\n```\nSo 600 of 1000 boxes are listed but only 240 checked. Checking "
        "is now the bottleneck. I need 3 more volunteers for checking, about 2 hours a week.",
        reactions=6,
    )
    assert "600 of 1000 boxes are listed but only 240 checked" in text
    assert "3 more volunteers for checking" in text
