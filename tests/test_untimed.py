"""The suite times nothing: property tests run without Hypothesis's per-example deadline."""

from __future__ import annotations

from hypothesis import settings


def test_property_tests_have_no_deadline() -> None:
    assert settings().deadline is None
