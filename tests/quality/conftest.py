"""The benchmark scripts (benchmarks/ is not a package), loaded as modules for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/<name>.py as a module (registered: dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def quality() -> ModuleType:
    return load_benchmark("quality")


@pytest.fixture(scope="module")
def scale() -> ModuleType:
    return load_benchmark("scale_table")
