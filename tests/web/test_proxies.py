"""The link exchange's rate limit counts each client, also behind an HTTPS proxy: the
X-Forwarded-For of a trusted proxy names the client; anyone else's is ignored, so it cannot
be used to dodge the limit."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.review_links import PageSigner
from bot.web.proxies import parse_proxies
from bot.web.site import EXCHANGES_PER_MINUTE, ReviewSite

PUBLIC = "https://summary.example.org"
LIMIT = EXCHANGES_PER_MINUTE


def statuses(trusted: list[str], forwarded_for: list[str | None]) -> list[int]:
    """The status of a link exchange (with a bad link) per request, each sent from
    127.0.0.1 with the X-Forwarded-For given (None: without one)."""
    site = ReviewSite(
        PageSigner("a-test-secret-of-32-characters!!"), PUBLIC, {}, trusted_proxies=trusted
    )

    async def go() -> list[int]:
        async with TestClient(TestServer(site.app())) as client:
            found = []
            for value in forwarded_for:
                headers = {"X-Forwarded-For": value} if value is not None else {}
                response = await client.post("/review/open", data={"t": "x"}, headers=headers)
                found.append(response.status)
            return found

    return asyncio.run(go())


def test_behind_a_trusted_proxy_each_client_has_its_own_limit() -> None:
    found = statuses(["127.0.0.1"], ["203.0.113.5"] * (LIMIT + 1) + ["203.0.113.6"])
    assert found == [403] * LIMIT + [429, 403]


def test_what_a_client_writes_before_the_proxy_s_entry_does_not_count() -> None:
    spoofed = [f"198.51.100.{n}, 203.0.113.5" for n in range(LIMIT + 1)]
    assert statuses(["127.0.0.1"], spoofed)[-1] == 429


def test_a_chain_of_trusted_proxies_is_skipped() -> None:
    chain = ["203.0.113.5, 10.1.2.3"] * (LIMIT + 1) + ["203.0.113.6, 10.1.2.3"]
    assert statuses(["127.0.0.1", "10.0.0.0/8"], chain)[-2:] == [429, 403]


@pytest.mark.parametrize("trusted", [[], ["10.0.0.0/8"]])
def test_an_untrusted_peer_s_forwarded_for_is_ignored(trusted: list[str]) -> None:
    rotating = [f"203.0.113.{n}" for n in range(LIMIT + 1)]
    assert statuses(trusted, rotating)[-1] == 429  # all counted as 127.0.0.1


def test_the_setting_lists_addresses_and_networks() -> None:
    assert parse_proxies("127.0.0.1, 10.0.0.0/8 ::1") == ["127.0.0.1", "10.0.0.0/8", "::1"]
    assert parse_proxies("") == []
    with pytest.raises(ValueError, match="proxy.example"):
        parse_proxies("proxy.example")
