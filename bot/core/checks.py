"""What a deployment check answers, shared by `summarybot doctor` and the checks each
platform adapter contributes: `Check(name, status, message)` with `ok`, `warn` (works, but
worth a look) or `FAIL` (will not work as configured), and one sentence for people.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

OK, WARN, FAIL = "ok", "warn", "FAIL"
TIMEOUT = 5.0  # seconds, for every network request (read at call time: tests shorten it)


@dataclass(frozen=True, slots=True)
class Check:
    """One finding: what was checked, `ok` / `warn` / `FAIL`, and a sentence for people."""

    name: str
    status: str
    message: str

    def line(self) -> str:
        return f"{self.status:<4}  {self.name}: {self.message}"


def json_of(response: httpx.Response) -> Any:
    """The response's JSON, or None."""
    try:
        return response.json()
    except ValueError:
        return None


def reason(error: BaseException) -> str:
    """A network error in a few words."""
    if isinstance(error, (TimeoutError, httpx.TimeoutException)):
        return f"no answer within {TIMEOUT:g} s"
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def unreachable(service: str, url: str, error: BaseException, variable: str) -> str:
    """The sentence for a service that could not be reached."""
    return (
        f"{service} could not be reached at {url} ({reason(error)}); check the network, "
        f"or {variable} if it is set"
    )
