"""The fake GitHub transport: routes by method and path, answers in turn, counts requests."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.fakes.fakegithub import FakeGitHub, json_answer


def get_all(fake: FakeGitHub, *paths: str) -> list[httpx.Response]:
    async def go():
        async with httpx.AsyncClient(transport=fake.transport, base_url="https://gh") as http:
            return [await http.get(path) for path in paths]

    return asyncio.run(go())


def test_answers_come_in_turn_and_the_last_one_repeats() -> None:
    fake = FakeGitHub().add(
        "GET", "/repos/o/r/issues/1", json_answer(502, {"n": 1}), json_answer(200, {"n": 2})
    )
    responses = get_all(fake, *["/repos/o/r/issues/1"] * 3)
    assert [r.status_code for r in responses] == [502, 200, 200]
    assert fake.count("/repos/o/r/issues/1") == 3


def test_an_exception_answer_is_raised_and_unknown_routes_are_an_error() -> None:
    fake = FakeGitHub().add("GET", "/rate_limit", httpx.ConnectError("no network"))
    with pytest.raises(httpx.ConnectError):
        get_all(fake, "/rate_limit")
    with pytest.raises(AssertionError, match="no answer for GET /nowhere"):
        get_all(fake, "/nowhere")
