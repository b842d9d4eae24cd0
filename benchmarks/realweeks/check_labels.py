"""Check benchmarks/realweeks/labels.toml against the exports, and show how the weeks were picked.

Every labelled message id must be a message of its week (Monday-based, UTC) in its export, and no
message may be both carried and chatter. Prints each export's busiest weeks by human message
count (no joins or other system messages, no integration posts) and each labelled week's count.
Exits 1 when a label is wrong.

    python benchmarks/realweeks/check_labels.py
"""

from __future__ import annotations

import json
import sys
import tomllib
import zipfile
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
REAL = HERE.parents[2] / "shared" / "data" / "real"
HUMAN_SUBTYPES = {None, "file_share", "file_comment", "me_message", "thread_broadcast"}


def export_messages(export: Path) -> list[dict]:
    """Every message of a Slack export folder or zip (the channel-day files)."""
    if export.suffix == ".zip":
        with zipfile.ZipFile(export) as archive:
            names = [n for n in archive.namelist() if n.count("/") == 1 and n.endswith(".json")]
            return [m for n in names for m in json.loads(archive.read(n))]
    return [m for f in export.glob("*/*.json") for m in json.loads(f.read_text(encoding="utf-8"))]


def monday(ts: str) -> date:
    """The Monday (UTC) of the week a Slack `ts` falls in."""
    day = datetime.fromtimestamp(float(ts), UTC).date()
    return day - timedelta(days=day.weekday())


def is_human(message: dict) -> bool:
    return message.get("subtype") in HUMAN_SUBTYPES


def main() -> int:
    weeks = tomllib.loads((HERE / "labels.toml").read_text(encoding="utf-8"))["week"]
    exports = {week["export"]: export_messages(REAL / week["export"]) for week in weeks}
    for name, messages in exports.items():
        busiest = Counter(monday(m["ts"]) for m in messages if is_human(m)).most_common(6)
        print(name, ", ".join(f"{day} {count}" for day, count in busiest))
    errors = []
    for week in weeks:
        start = date.fromisoformat(week["week"])
        in_week = {m["ts"]: m for m in exports[week["export"]] if monday(m["ts"]) == start}
        carried = [ts for item in week.get("carry", []) for ts in item["messages"]]
        chatter = [ts for group in week.get("chatter", []) for ts in group["messages"]]
        for ts in carried + chatter:
            if ts not in in_week:
                errors.append(f"{week['name']}: {ts} is not a message of the week")
        errors += [
            f"{week['name']}: {ts} both carried and chatter" for ts in set(carried) & set(chatter)
        ]
        humans = sum(is_human(m) for m in in_week.values())
        print(
            f"{week['name']}: {humans} human messages, {len(week.get('carry', []))} carry items, "
            f"{len(chatter)} chatter"
        )
    print("\n".join(errors) or "labels ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
