"""Repository functions for review-page links already used (see `bot.core.review_links`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from storage.models import UsedPageLink


def use_page_link(session: Session, nonce: str, expires_at: datetime, at: datetime) -> bool:
    """Record the link `nonce` as used now; False (and nothing recorded) when it already
    was. Links past their expiry are forgotten on the way: they are refused anyway."""
    session.execute(delete(UsedPageLink).where(UsedPageLink.expires_at < at))
    if session.scalar(select(UsedPageLink.id).where(UsedPageLink.nonce == nonce)) is not None:
        return False
    session.add(UsedPageLink(nonce=nonce, used_at=at, expires_at=expires_at))
    session.flush()
    return True
