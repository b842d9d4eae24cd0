"""Tables of figures pasted in code blocks, said as a line of prose.

Chat pastes benchmark results as an aligned table in a code block:

    ```
                     before     after
    ingest p50       61 ms      18 ms
    dropped spans    0.4%       0
    ```

The drafter reads no code, so those figures, often the week's news, were lost. A block whose
every line is a label followed by values (cells apart by two spaces or more), under an
optional header naming the value columns, is said as "ingest p50: 61 ms before, 18 ms after;
dropped spans: 0.4% before, 0 after." Logs, code and prose in a block are not such a table
and stay out.
"""

from __future__ import annotations

import re

from summarizer.figures import VERSION_RE

MAX_ROWS = 4  # a newsletter cites a table's first rows, not all of them
MAX_LABEL_WORDS = 6
MAX_VALUE_WORDS = 12
_CELL_GAP_RE = re.compile(r"\s{2,}|\t")
_RULE_RE = re.compile(r"\s*[-=+|:_ ]*[-=_]{3}[-=+|:_ ]*")  # "-----", "====+====", "|---|---|"
_FIGURE_START_RE = re.compile(r"[~≈<>±+−-]?\d")
_PLACE_RE = re.compile(r"\d{1,3}[=.]?")  # a row's place or board: "1", "4=", "12."
_UNIT_RE = re.compile(r"\d\s?[^\W\d_]")
_DIFFERENCE_RE = re.compile(r"(?i:delta|diff|difference|change|Δ|%)")
# (a word alone on the opening fence's line names the language; Slack writes the first line
# of the block itself there: "```Q1  160/218")
_FENCE_RE = re.compile(r"^(?:```|~~~)(?:[\w+-]*[ \t]*\n)?|\n?(?:```|~~~)\s*$")


def table_line(block: str) -> str | None:
    """The table of figures a fenced code block holds, said as one sentence; None where the
    block is not one."""
    lines = [line for line in _FENCE_RE.sub("", block.strip()).splitlines() if line.strip()]
    # (a rule line sets the totals under it apart: they are said after the first rows)
    ruled = [at for at, line in enumerate(lines) if _RULE_RE.fullmatch(line)]
    rows = [_cells(line) for line in lines if not _RULE_RE.fullmatch(line)]
    totals = len(lines) - ruled[-1] - 1 if ruled and ruled[-1] > 1 else 0
    if len(rows) > 2 and len(rows[0]) == 1 < len(rows[1]):
        rows = rows[1:]  # (the table's title: "Autumn Championship - Round 4")
    if len(rows) < 2:
        return None
    rows = _with_totals_aligned(_with_long_labels_apart(rows), max(totals, 1))
    placed = _without_places(rows)
    # (a ranking's or a pairing's rows are said as they read: "Ana Lind 1-0 Bo Berg")
    plainly = placed is not rows
    rows = placed
    header: list[str] = []
    # (a first row without figures names the columns, "recall@10" and versions among them;
    # so does one a cell shorter than the rows under it, whatever it says: "v2.3.2   2.4.0-rc1")
    if not any(_FIGURE_START_RE.match(cell) and not VERSION_RE.match(cell) for cell in rows[0]) or (
        len(rows) > 2 and len(rows[0]) == len(rows[1]) - 1
    ):
        header, rows = rows[0], rows[1:]
    width = len(rows[0])
    if width < 2 or header and len(header) not in (width - 1, width):
        return None
    if not all(len(row) == width and _is_row(row, named=bool(header)) for row in rows):
        return None
    names = header[-(width - 1) :] if header else []
    if len(header) == width:  # ("k8s  before  after" over "1.29  41m12s  17m40s")
        rows = [[_labelled(row[0], header[0]), *row[1:]] for row in rows]
    if len(names) > 2 and _DIFFERENCE_RE.fullmatch(names[-1]) and _measured(rows):
        # ("before  after  delta" over "41.2s  36.8s  -10.7%": the difference of two
        # measurements is said by them, and a correction to one would leave it wrong; of
        # two scores, "71.8  72.4  +0.6", it is what is read)
        names, rows = names[:-1], [row[:-1] for row in rows]
    shown = rows[:MAX_ROWS] + rows[max(MAX_ROWS, len(rows) - totals) :]
    said = [" ".join(row) if plainly else _said(row, names) for row in shown]
    return "; ".join(said) + "."


# A label that filled its column, one space from its first value: "cold start (load+compile)
# 820 ms" ("load+compile" is no value).
_LABEL_THEN_VALUE_RE = re.compile(
    r"(?P<label>.*?[^\W\d_)\]]\)?) (?P<value>[~≈<>±+−-]?\d\S*(?: \S+)?)"
)


def _with_long_labels_apart(rows: list[list[str]]) -> list[list[str]]:
    """The rows, each a cell short of the widest whose label ran into its first value split
    into the two."""
    width = max(len(row) for row in rows)
    if all(len(row) == width for row in rows[1:]):
        return rows  # (most tables)
    apart = []
    for row in rows:
        found = _LABEL_THEN_VALUE_RE.fullmatch(row[0]) if len(row) == width - 1 else None
        apart.append([found["label"], found["value"], *row[1:]] if found else row)
    return apart


def _with_totals_aligned(rows: list[list[str]], last: int) -> list[list[str]]:
    """The rows, each of the `last` ones a cell short of those over it with its values under
    the last columns ("Total  705  448" under "Register  Years  Pages  Done": a total leaves
    the cells it cannot add up empty)."""
    width = len(rows[0])
    if all(len(row) == width for row in rows[-last:]) or len(rows) - last < 2:
        return rows  # (most tables)
    if any(len(row) != width for row in rows[:-last]):
        return rows
    aligned = rows[:-last]
    for row in rows[-last:]:
        if len(row) == 1 and " " in row[0]:  # ("total $537.40", one space apart)
            row = row[0].rsplit(" ", 1)
        if 1 < len(row) < width and any(c.isalpha() for c in row[0]):
            row = [row[0], *[""] * (width - len(row)), *row[1:]]
        aligned.append(row)
    return aligned


def _without_places(rows: list[list[str]]) -> list[list[str]]:
    """The rows without a first column that only numbers them ("Bd", "#", "Pos" over "1",
    "2", "4="): each row is then labelled by what it ranks or pairs."""
    head, body = ([], rows) if _PLACE_RE.fullmatch(rows[0][0]) else (rows[:1], rows[1:])
    if len(body) < 2 or not all(len(row) > 2 and _PLACE_RE.fullmatch(row[0]) for row in body):
        return rows  # (most tables)
    if not _counts_places([row[0] for row in body]):
        return rows  # (a measure's values: "players" 2, 3, 4; "GPUs" 1, 2, 4, 8)
    if any(_FIGURE_START_RE.match(row[1]) for row in body):
        return rows  # (runs numbered 1, 2, 3 with only their figures: the number labels them)
    head = [row[1:] if len(row) == len(body[0]) else row for row in head]
    return [*head, *(row[1:] for row in body)]


def _counts_places(cells: list[str]) -> bool:
    """Whether `cells` count places from 1, one by one, a tie ("4=") holding its number and
    skipping as many places as it holds."""
    before, tied = 0, False
    for cell in cells:
        number = int(cell.rstrip("=."))
        if not (number == before + 1 or tied and number >= before):
            return False
        before, tied = number, cell.endswith("=")
    return True


def _measured(rows: list[list[str]]) -> bool:
    """Whether every value but the last of each row has its unit ("41.2s", "2.31 GB")."""
    return all(_UNIT_RE.search(value) for row in rows for value in row[1:-1])


def _cells(line: str) -> list[str]:
    return [cell for cell in _CELL_GAP_RE.split(line.strip()) if cell]


def _is_row(row: list[str], *, named: bool) -> bool:
    """A label of a few words (under a header, a version will do: "1.29", "0.13.2"), then
    short values, at least one a figure."""
    label, values = row[0], row[1:]
    return (
        (named or any(c.isalpha() for c in label))
        and (len(label.split()) <= MAX_LABEL_WORDS or "," in label)  # (or tied names)
        and all(len(value.split()) <= MAX_VALUE_WORDS for value in values)
        and any(c.isnumeric() for value in values for c in value)  # ("½-½" too)
    )


def _labelled(label: str, column: str) -> str:
    """A row's label, with its column's name where it is a bare number ("k8s 1.29")."""
    return label if any(c.isalpha() for c in label) else f"{column} {label}"


def _said(row: list[str], names: list[str]) -> str:
    """ "ingest p50: 61 ms before, 18 ms after" (with the column names, where a cell holds
    a value), or "top speed: 3.9 m/s measured" (a label and its value)."""
    label, values = row[0], row[1:]
    if names:
        values = [f"{v} {n}" for v, n in zip(values, names, strict=True) if _holds_any(v)]
    return f"{label}: " + ", ".join(values)


def _holds_any(value: str) -> bool:
    """Whether a cell holds a value ("-" or "—" marks none)."""
    return any(c.isalnum() for c in value)
