"""Word-level diffs for the review page's history."""

from __future__ import annotations

from bot.core.word_diff import ELLIPSIS, DiffPart, word_diff


def test_only_the_changed_words_are_marked() -> None:
    assert word_diff("Ana hit 22% MFU today.", "Ana hit 23.1% MFU today.") == [
        DiffPart("same", "Ana hit "),
        DiffPart("removed", "22% "),
        DiffPart("added", "23.1% "),
        DiffPart("same", "MFU today."),
    ]


def test_long_unchanged_stretches_are_shortened_around_the_changes() -> None:
    words = " ".join(f"w{n}" for n in range(40))
    parts = word_diff(words + " old end.", words + " new end.")
    assert parts[0] == DiffPart("same", ELLIPSIS + "w36 w37 w38 w39 ")
    assert [p.kind for p in parts] == ["same", "removed", "added", "same"]
    middle = word_diff("a b c d e f g h i j k l X", "Y a b c d e f g h i j k l Z")
    assert middle[1].text == "a b c d " + ELLIPSIS + "i j k l "


def test_the_same_text_has_no_diff() -> None:
    assert word_diff("Same.", "Same.") == []
