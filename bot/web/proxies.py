"""Who is at the other end of a request, behind an HTTPS reverse proxy.

A proxy connects to the page itself and says who its client is in X-Forwarded-For. That
header is honoured only on connections from the addresses in SUMMARYBOT_TRUSTED_PROXIES
(anyone else could write any address in it, and dodge the link-exchange rate limit); the
client is then the right-most address not itself a trusted proxy (aiohttp-remotes'
`XForwardedFiltered`), so what a client wrote at the left of the header counts for nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from ipaddress import ip_address, ip_network

from aiohttp import web
from aiohttp_remotes import XForwardedFiltered

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def parse_proxies(setting: str) -> list[str]:
    """SUMMARYBOT_TRUSTED_PROXIES: addresses or networks, separated by commas or spaces
    (`127.0.0.1, 10.0.0.0/8`); a `ValueError` names one that is neither."""
    proxies = [item for item in setting.replace(",", " ").split() if item]
    for item in proxies:
        ip_network(item, strict=False)
    return proxies


class TrustedProxies:
    """The middleware that sets `request.remote` to the client behind a trusted proxy."""

    def __init__(self, proxies: list[str]) -> None:
        self._networks = [ip_network(item, strict=False) for item in proxies]
        self._forwarded = XForwardedFiltered(set(self._networks)) if proxies else None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if self._forwarded is not None and self._trusted(request.remote):
            return await self._forwarded.middleware(request, handler)
        return await handler(request)

    def _trusted(self, peer: str | None) -> bool:
        try:
            address = ip_address(peer or "")
        except ValueError:  # a Unix socket, say
            return False
        return any(address in network for network in self._networks)
