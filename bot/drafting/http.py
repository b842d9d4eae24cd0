"""What the HTTP clients (GitHub, the LLM) share: closing their httpx client when done."""

from __future__ import annotations

from types import TracebackType
from typing import Self

import httpx


class ClosingClient:
    """Use as `async with Client(...) as client:`; the httpx client is closed on exit."""

    _http: httpx.AsyncClient

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()
