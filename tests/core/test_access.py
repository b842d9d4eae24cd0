"""Tenancy: every entry point that acts on a draft or section goes through one check, and
another workspace's draft or section answers exactly like one that does not exist, changing
nothing. Two workspaces share one database (SQLite and PostgreSQL), driven through the core
and the fake port as an adapter would."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.core.access import Action, authorize
from bot.core.port import ButtonPress, Caller, CommandEvent, EditorSubmit, MessageEvent, Reply
from bot.core.router import Core
from bot.core.settings import workspace_settings
from bot.ops.config import load_config
from storage.drafts import list_drafts
from storage.models import DraftRow, DraftSection, SectionRevision, SettingChange
from storage.records import ChannelRecord, MessageRecord, PersonRecord, WorkspaceRecord
from tests.fakes.fakeport import FakePort

GUILD_A = WorkspaceRecord("discord", "100", "Guild A")
GUILD_B = WorkspaceRecord("discord", "200", "Guild B")
ADMIN_A = Caller("1001", "Ann of A", is_admin=True)
ADMIN_B = Caller("2001", "Bea of B", is_admin=True)
EDITOR_B = Caller("2002", "Eve of B")
HERO = ChannelRecord("210", "hero-run")
MONDAY = datetime(2026, 11, 16, tzinfo=UTC)
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
MISSING = 9999
CONFIG = load_config()


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def port() -> FakePort:
    return FakePort(
        workspace_noun="server",
        foreign={"announcements": GUILD_A.platform_id},
        roles={GUILD_A.platform_id: {"Editors": "111"}, GUILD_B.platform_id: {"Editors": "222"}},
    )


@pytest.fixture
def core(sessions, port) -> Core:
    return Core(sessions, CONFIG, port, clock=lambda: NOW)


def command(core: Core, workspace: WorkspaceRecord, caller: Caller, text: str) -> Reply:
    return run(core.on_command(CommandEvent(workspace, caller, text, "c-any")))


def press(core: Core, workspace: WorkspaceRecord, caller: Caller, action_id: str) -> Reply:
    return run(core.on_button(ButtonPress(workspace, caller, action_id, "trigger")))


def set_up(core: Core, workspace: WorkspaceRecord, admin: Caller) -> None:
    for text in ("channels add #hero-run", "review-channel #review", "publish add #pub"):
        assert command(core, workspace, admin, text).ok


def draft_week(core: Core, workspace: WorkspaceRecord, admin: Caller) -> tuple[int, int]:
    """A workspace with one logged message, its week drafted and up for review by `admin`:
    the draft's id and its section's."""
    set_up(core, workspace, admin)
    person = PersonRecord("ana", "Ana Ruiz")
    text = "Hero run reached 22.4% MFU after #812."
    message = MessageRecord("m1", person, MONDAY + timedelta(hours=10), text)
    assert run(core.on_message(MessageEvent(workspace, HERO, message)))
    assert command(core, workspace, admin, "draft 2026-11-16").ok
    with core.sessions() as session:
        (draft,) = list_drafts(session, run(core.workspace_id(workspace)))
        return draft.id, draft.sections[0].id


@pytest.fixture
def b_draft(core) -> tuple[int, int]:
    """Guild B's week, drafted and up for review, with an editor; Guild A is set up too."""
    set_up(core, GUILD_A, ADMIN_A)
    assert command(core, GUILD_B, ADMIN_B, f"editors add <@{EDITOR_B.user_id}>").ok
    return draft_week(core, GUILD_B, ADMIN_B)


def snapshot(sessions) -> tuple:
    """Everything an action on a draft could change."""
    with sessions() as session:
        return (
            session.execute(
                select(DraftRow.id, DraftRow.status, DraftRow.approved_by).order_by(DraftRow.id)
            ).all(),
            session.execute(select(DraftSection.id, DraftSection.markdown)).all(),
            session.execute(select(SectionRevision.id)).all(),
            session.execute(select(SettingChange.id)).all(),
        )


# Each entry point, with how to reach it for an id: (name, section or draft id, call).
ENTRIES = {
    # A command names a section by its number in a draft: another draft's by the draft's id.
    "edit command": (
        "draft",
        lambda c, w, who, i: command(c, w, who, f"edit 1 --draft {i} Hijacked."),
    ),
    "history command": ("draft", lambda c, w, who, i: command(c, w, who, f"history 1 --draft {i}")),
    "approve command": ("draft", lambda c, w, who, i: command(c, w, who, f"approve {i}")),
    "regenerate command": ("draft", lambda c, w, who, i: command(c, w, who, f"regenerate {i}")),
    "discard command": ("draft", lambda c, w, who, i: command(c, w, who, f"discard {i}")),
    "publish command": ("draft", lambda c, w, who, i: command(c, w, who, f"publish {i}")),
    "edit button": ("section", lambda c, w, who, i: press(c, w, who, f"edit:{i}")),
    "history button": ("section", lambda c, w, who, i: press(c, w, who, f"history:{i}")),
    "approve button": ("draft", lambda c, w, who, i: press(c, w, who, f"approve:{i}")),
    "regenerate button": ("draft", lambda c, w, who, i: press(c, w, who, f"regenerate:{i}")),
    "modal submit": (
        "section",
        lambda c, w, who, i: run(c.on_editor_submit(EditorSubmit(w, who, i, "Hijacked."))),
    ),
}


@pytest.mark.parametrize("entry", list(ENTRIES))
def test_another_workspace_s_id_answers_like_a_missing_one_and_changes_nothing(
    entry, core, port, sessions, b_draft
) -> None:
    kind, call = ENTRIES[entry]
    target = b_draft[0] if kind == "draft" else b_draft[1]
    before, calls = snapshot(sessions), list(port.calls)

    foreign = call(core, GUILD_A, ADMIN_A, target)
    missing = call(core, GUILD_A, ADMIN_A, MISSING)

    assert not foreign.ok and foreign.private
    assert foreign.text == f"There is no {kind} {target}."
    assert missing.text == f"There is no {kind} {MISSING}."
    assert snapshot(sessions) == before
    assert port.calls == calls and not port.editors_opened  # nothing posted, edited or opened


@pytest.mark.parametrize("entry", ["edit command", "history button", "approve button"])
def test_the_owner_workspace_s_editor_may_act(entry, core, port, sessions, b_draft) -> None:
    kind, call = ENTRIES[entry]
    target = b_draft[0] if kind == "draft" else b_draft[1]
    assert call(core, GUILD_B, EDITOR_B, target).ok


def test_authorize_is_the_one_check(sessions, core, b_draft) -> None:
    draft_id, section_id = b_draft
    a, b = run(core.workspace_id(GUILD_A)), run(core.workspace_id(GUILD_B))
    with sessions() as session:
        assert authorize(session, CONFIG, b, EDITOR_B, section_id, Action.EDIT).section.id == (
            section_id
        )
        refusal = authorize(session, CONFIG, a, ADMIN_A, draft_id, Action.APPROVE)
        assert refusal == Reply.refuse(f"There is no draft {draft_id}.")
        # A section id is not a draft id: each action looks up its own kind of target.
        assert authorize(session, CONFIG, b, EDITOR_B, section_id, Action.HISTORY).draft.id == (
            draft_id
        )
        member = Caller("2999", "Max of B")
        assert authorize(session, CONFIG, b, member, draft_id, Action.DISCARD) == Reply.refuse(
            "Only editors can discard the draft."
        )


def test_roles_are_stored_by_id_and_match_only_in_their_own_workspace(core, sessions) -> None:
    assert command(core, GUILD_B, ADMIN_B, "editors add role:Editors").ok
    b = run(core.workspace_id(GUILD_B))
    with sessions() as session:
        settings = workspace_settings(session, CONFIG, b)
    assert settings.editors == ["role:222"]
    assert settings.is_editor(Caller("2003", "Ida", roles=("222",)))
    # Guild A's "Editors" role (another id) and a bare role name match nothing.
    assert not settings.is_editor(Caller("1003", "Jo", roles=("111",)))
    assert not settings.is_editor(Caller("2004", "Kim", roles=("Editors",)))


def test_an_unknown_role_or_another_server_s_channel_is_refused(core, sessions) -> None:
    before = snapshot(sessions)
    refused = command(core, GUILD_B, ADMIN_B, "editors add role:Nobody")
    assert not refused.ok and refused.text == "There is no role 'Nobody' in this server."
    refused = command(core, GUILD_B, ADMIN_B, "publish add #announcements")
    assert not refused.ok and refused.text == "#announcements was not found in this server."
    assert snapshot(sessions) == before
    assert command(core, GUILD_A, ADMIN_A, "publish add #announcements").ok
