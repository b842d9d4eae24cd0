"""Finding the figures a summary must keep: percentages, throughput, sizes, speedups, steps."""

from __future__ import annotations

import re

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# What is measured by the metric and imperial systems: "64.8 km", "742 W", "3.38 V", "38°C",
# "1,250 gpm at 150 psi".
MEASURE = (
    r"(?:k?m/h|kph|mph|m/s|[kKM]?Wh(?:/km|/mi)?|[kKM]?W|mAh|Ah|mA|kV|mV|V|A|[kMG]?Hz|dB"
    r"|°\s?[CF]|[kMG]?Pa|psi|Nm|gpm|fps|rpm|km|cm|mm|nm|m|mi|miles|ft|feet|yd|kg|lbs?|oz|mL|ml|gal)\b"
)
# Longest units first: the regex takes the first alternative that matches.
_UNIT = (
    r"%"
    r"|[kKMB]?\s?(?:tokens?|tok|samples?|examples?|seqs?)/s(?:ec)?(?:/(?:GPU|chip|device))?"
    r"|(?:s|ms|sec)/step|steps?/s"
    r"|h\d{1,2}m(?:\d{1,2}s)?\b|m\d{1,2}s\b"  # ("2h10m", "41h12m", "3m10s")
    r"|[kKMGTP]i?B\b"
    r"|x\b|×"
    r"|-?(?:steps?|epochs?)\b"
    r"|(?:ms|s|sec|seconds|min|minutes|h|hours|days)\b"
    rf"|{MEASURE}"
    r"|[kMBT]\b"
    r"|(?:GPUs?|TPUs?|nodes?|chips?|racks?|ranks?|records|documents|docs|sources|tokens|params)\b"
    # (how many came, signed up, voted or downloaded: a community's figures)
    r"|(?:attendees|participants|players|teams|votes|sign-?ups|downloads|installs|contributors"
    r"|seats|RSVPs)\b"
)
# After the number's first digit: the same numbers.
_NUMBER_REST = r"\d{0,2}(?:,\d{3})+(?:\.\d+)?|\d*(?:\.\d+)?"
# A figure, not inside a word, a path or a reference:
#   (?<![\w#/.:-])(?:~|≈)?(?:NUMBER)[ \u202f]?(?:UNIT)
#   |(?<![\w#/.:-])\d+/\d+(?![\w/])        ("56/300": fractions of trials or tasks)
#   |[$€£]NUMBER[kKmM]?                       ("$1,200", "£38k": an amount of money)
#   |(?<!\w)[+−±]\d+\.\d+(?![\w.])          ("+5.8": a change, its sign not part of it)
#   |(?<![\w#/.:-])\d{1,3}(?:,\d{3})+(?![\d,])  ("31,540": a count, by its thousands)
#   |(?<=from )\d+\.\d+(?= to \d)       ("from 91.2 to 86.9": a score that changed)
#   |(?<![\w#/.:-])\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,3})?|\.\d{1,3})  ("1:12:48", "31:02.450": a
#                  time taken, by its hours or its fractions of a second; not a clock's time
#                  after a date or before its zone, "2026-10-12 14:02:33", "14:02:33 UTC")
# written to open with the first character any figure has, so that the regex engine skips
# straight to the next digit or "~" instead of trying every character; what comes after that
# character depends on which it was.
# A version, pre-releases too ("0.19.0", "v2.4.0-rc1", "3.2.0rc1", "1.4 RC2"): no figure,
# though digits; a table's column it names, a release it says is out.
VERSION_RE = re.compile(
    r"\bv?\d+\.\d+(?:\.\d+(?:-?(?:rc|alpha|beta|a|b)\.?\d*)?|[ -]?(?i:rc|alpha|beta)\.?\d+)\b"
)
_PRE_RELEASE_RE = re.compile(r"[ .-]?(rc|alpha|beta|a|b)\.?(?=\d)", re.IGNORECASE)


def version_key(version: str) -> str:
    """A version as `VERSION_RE` finds it, written one way: "v1.4 RC2" and "1.4-rc2" are
    "1.4-rc2"."""
    number = version.lstrip("vV")
    return _PRE_RELEASE_RE.sub(lambda m: f"-{m[1].lower()}", number)


FIGURE_RE = re.compile(
    r"[~≈\d](?<![\w#/.:-].)"
    rf"(?:(?<=[~≈])(?:{_NUMBER})[ \u202f]?(?:{_UNIT})"
    rf"|(?<=\d)(?:{_NUMBER_REST})[ \u202f]?(?:{_UNIT})"
    r"|(?<=\d)\d*/\d+(?![\w/])"
    r"|(?<=(?<!\w)[+−±]\d)\d*\.\d+(?![\w.])"
    rf"|(?<=[$€£]\d)(?:{_NUMBER_REST})(?:[kKmM]\b)?"
    r"|(?<=\d)\d{0,2}(?:,\d{3})+(?![\d,])"
    r"|(?<=(?<=from )\d)\d*\.\d+(?= to [~≈]?\d)"
    r"|(?<=(?<!\d[ T])\d)\d?:\d{2}(?::\d{2}(?:\.\d{1,3})?|\.\d{1,3})"
    r"(?![\d:]|\.\d|\s?(?:UTC|GMT|Z\b|[aApP]\.?[mM]\b)))",
)


def find_figures(text: str) -> list[str]:
    """The figures in `text`, as written, in order."""
    return [figure.strip() for figure in FIGURE_RE.findall(text)]


_MEASURED_RE = re.compile(rf"\d[ \u202f]?{MEASURE}$")


def is_measure(figure: str) -> bool:
    """Whether `figure` (as `find_figures` writes it) measures a length, a weight, a power
    and the like ("64.8 km", "20 lb"), not a count, a share or a rate of work."""
    return _MEASURED_RE.search(figure) is not None


def count_figures(text: str) -> int:
    """How many figures `text` holds (cheaper than listing them)."""
    return sum(1 for _ in FIGURE_RE.finditer(text))


def amounts(text: str) -> set[str]:
    """The figures of `text` that are amounts of money ("1,200" of "$1,200"), as
    `find_figures` writes them."""
    if "$" not in text and "€" not in text and "£" not in text:
        return set()  # (most text)
    return {
        figure.group().strip()
        for figure in FIGURE_RE.finditer(text)
        if text[figure.start() - 1 : figure.start()] in ("$", "€", "£")
    }
