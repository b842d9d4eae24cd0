"""What an adapter answers when handling a command, button or editor fails: the error is
logged under a short id, and the person who acted is told, privately, that it failed and
under which id (so an operator can find it). Nothing is left waiting."""

from __future__ import annotations

import logging
import secrets

from bot.core.port import Reply

log = logging.getLogger(__name__)


def failed(error: BaseException, what: str) -> Reply:
    """Log `error` (raised while handling `what`) under a new id; the private answer."""
    incident = secrets.token_hex(4)
    log.error("%s failed (logged as %s)", what, incident, exc_info=error)
    return Reply.refuse(f"That failed; it is logged as {incident}. Please try again later.")
