"""Signed links to the review page, and the sessions they are exchanged for.

A link names one editor (platform and user id), one workspace and one draft, and expires
(24 h by default). It carries a random nonce: the page exchanges a link once (the nonce is
recorded as used in the database) for a session cookie signed the same way, and every form
of that session carries a CSRF token derived from the session's own nonce.

Tokens are `payload.signature`: the payload is base64url JSON, the signature
HMAC-SHA256(secret, kind + "." + payload), so a link is never accepted as a session (nor
the other way round). Pure: the clock is passed in, nothing is stored here. Holding a valid
token is not enough to act: every request also asks `bot.core.access.authorize`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

LINK_TTL = timedelta(hours=24)
SESSION_TTL = timedelta(hours=12)
Kind = Literal["link", "session"]


class BadToken(Exception):
    """A link or session that is not ours, was altered, or has expired."""


@dataclass(frozen=True, slots=True)
class PageGrant:
    """Who a link or session speaks for: one editor, in one workspace, on one draft."""

    platform: str
    user_id: str
    workspace_id: int
    draft_id: int
    expires: datetime
    nonce: str


class PageSigner:
    """Makes and checks links, sessions and CSRF tokens with one secret key."""

    def __init__(self, secret: str) -> None:
        if len(secret) < 16:
            raise ValueError("SUMMARYBOT_SECRET_KEY must be at least 16 characters")
        self._key = secret.encode()

    def link(
        self,
        platform: str,
        user_id: str,
        workspace_id: int,
        draft_id: int,
        now: datetime,
        ttl: timedelta = LINK_TTL,
    ) -> str:
        """A fresh link token for an editor's page of one draft."""
        grant = PageGrant(
            platform, user_id, workspace_id, draft_id, now + ttl, secrets.token_urlsafe(16)
        )
        return self._sign("link", grant)

    def session(self, link: PageGrant, now: datetime, ttl: timedelta = SESSION_TTL) -> str:
        """The session token a used link is exchanged for (a new nonce, a shorter life)."""
        grant = PageGrant(
            link.platform,
            link.user_id,
            link.workspace_id,
            link.draft_id,
            now + ttl,
            secrets.token_urlsafe(16),
        )
        return self._sign("session", grant)

    def read(self, kind: Kind, token: str, now: datetime) -> PageGrant:
        """The grant a token of `kind` carries; `BadToken` when it is forged, altered, of the
        other kind, malformed or expired."""
        payload, _, signature = token.partition(".")
        if not _same(signature, self._mac(kind, payload)):
            raise BadToken("This link is not valid (its signature does not match).")
        try:
            fields = json.loads(_unb64(payload))
            grant = PageGrant(
                str(fields["p"]),
                str(fields["u"]),
                int(fields["w"]),
                int(fields["d"]),
                datetime.fromtimestamp(int(fields["e"]), UTC),
                str(fields["n"]),
            )
        except (ValueError, KeyError, TypeError, binascii.Error) as error:
            raise BadToken("This link is not valid.") from error
        if grant.expires <= now:
            raise BadToken("This link has expired; press Open review page again for a new one.")
        return grant

    def csrf(self, session: PageGrant) -> str:
        """The CSRF token every form of this session carries."""
        return self._mac("csrf", session.nonce)

    def csrf_ok(self, session: PageGrant, token: str | None) -> bool:
        return token is not None and _same(token, self.csrf(session))

    def _sign(self, kind: Kind, grant: PageGrant) -> str:
        fields = {
            "p": grant.platform,
            "u": grant.user_id,
            "w": grant.workspace_id,
            "d": grant.draft_id,
            "e": int(grant.expires.timestamp()),
            "n": grant.nonce,
        }
        payload = _b64(json.dumps(fields, separators=(",", ":")).encode())
        return f"{payload}.{self._mac(kind, payload)}"

    def _mac(self, kind: str, payload: str) -> str:
        digest = hmac.new(self._key, f"{kind}.{payload}".encode(), hashlib.sha256).digest()
        return _b64(digest)


def page_url(public_url: str, token: str) -> str:
    """Where a link token is opened: `<SUMMARYBOT_PUBLIC_URL>/review/open?t=<token>`."""
    return f"{public_url.rstrip('/')}/review/open?t={token}"


def _same(given: str, expected: str) -> bool:
    """A constant-time comparison that takes any text: `hmac.compare_digest` raises on a
    str with non-ASCII characters, so both are compared as UTF-8 bytes."""
    return hmac.compare_digest(given.encode(), expected.encode())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class PageLinks:
    """What a platform's core needs to hand out review-page links (the page is enabled when
    SUMMARYBOT_SECRET_KEY and SUMMARYBOT_PUBLIC_URL are set)."""

    signer: PageSigner
    public_url: str
    platform: str

    def url(self, user_id: str, workspace_id: int, draft_id: int, now: datetime) -> str:
        token = self.signer.link(self.platform, user_id, workspace_id, draft_id, now)
        return page_url(self.public_url, token)
