"""Counts in words, for every reply and page: "1 section", "3 sections", "1 person"."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str = "") -> str:
    """`number` and `noun`, in the plural unless the number is 1; `plural` where adding
    "s" is wrong ("person", "people")."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
