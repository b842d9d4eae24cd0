"""Repository functions for workspace settings and their audit trail."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage.models import Setting, SettingChange


def load_settings(session: Session, workspace_id: int) -> dict[str, Any]:
    """The settings an admin has stored for the workspace, by key."""
    rows = session.execute(
        select(Setting.key, Setting.value).where(Setting.workspace_id == workspace_id)
    )
    return dict(rows.all())


def save_setting(
    session: Session,
    workspace_id: int,
    key: str,
    value: Any,
    *,
    actor_id: str,
    actor_name: str,
    at: datetime,
) -> None:
    """Store one setting and record who changed it from what to what."""
    setting = session.execute(
        select(Setting).where(Setting.workspace_id == workspace_id, Setting.key == key)
    ).scalar_one_or_none()
    old = None if setting is None else setting.value
    if setting is None:
        session.add(Setting(workspace_id=workspace_id, key=key, value=value))
    else:
        setting.value = value
    session.add(
        SettingChange(
            workspace_id=workspace_id,
            key=key,
            old_value=old,
            new_value=value,
            actor_id=actor_id,
            actor_name=actor_name,
            changed_at=at,
        )
    )
    session.flush()


def setting_changes(session: Session, workspace_id: int, limit: int = 20) -> list[SettingChange]:
    """The latest changes to the workspace's settings, newest first."""
    return list(
        session.scalars(
            select(SettingChange)
            .where(SettingChange.workspace_id == workspace_id)
            .order_by(SettingChange.id.desc())
            .limit(limit)
        )
    )
