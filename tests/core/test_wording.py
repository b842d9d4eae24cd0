"""Counts in replies read as English: one of a thing is singular."""

from bot.core.wording import counted


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "section") == "1 section"
    assert counted(0, "section") == "0 sections"
    assert counted(3, "PR") == "3 PRs"
    assert counted(1, "person", "people") == "1 person"
    assert counted(2, "person", "people") == "2 people"
