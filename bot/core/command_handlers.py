"""What each `/summary` command does, with one signature: `async (core, event, workspace_id,
command) -> Reply`. `bot.core.command_registry` ties each command class to its handler here;
the router looks the handler up there. Settings commands run through the core's
`settings_command` (the change itself is `bot.core.admin`'s, in a session).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from bot.config import Config
from bot.core import news, privacy
from bot.core.access import Action, SectionRef, authorize
from bot.core.admin import Request
from bot.core.clock import Clock
from bot.core.commands import (
    Approve,
    Command,
    Discard,
    Edit,
    ForgetMe,
    History,
    NewsSubmit,
    Publish,
    Regenerate,
    StartDraft,
    Status,
)
from bot.core.database import Database
from bot.core.port import Caller, CommandEvent, Reply
from bot.core.review import ReviewWorkflow


class CommandCore(Protocol):
    """What the handlers use of the core (`bot.core.router.Core`)."""

    config: Config
    clock: Clock
    db: Database
    review: ReviewWorkflow

    async def settings_command(
        self, event: CommandEvent, workspace_id: int, command: Command
    ) -> Reply:
        """Run a settings command (its `Setting` handler), then what it sets in motion."""

    async def status(self, workspace_id: int) -> Reply:
        """The settings and drafts in brief."""

    async def current_draft(self, workspace_id: int) -> int | None:
        """The newest draft still open for review, if any."""

    def last_week(self) -> date:
        """The Monday of last week."""


Handler = Callable[[CommandCore, CommandEvent, int, Any], Awaitable[Reply]]
"""A command's handler: (core, event, workspace id, command) -> the reply."""


@dataclass(frozen=True, slots=True)
class Setting:
    """A settings command's handler: `change` runs in a session on the workspace's settings
    (`bot.core.admin.run_setting`), and the core does what the change sets in motion."""

    change: Callable[[Request, Any], Reply]

    async def __call__(
        self, core: CommandCore, event: CommandEvent, workspace_id: int, command: Command
    ) -> Reply:
        return await core.settings_command(event, workspace_id, command)


async def status(core: CommandCore, _event: CommandEvent, workspace_id: int, _: Status) -> Reply:
    return await core.status(workspace_id)


async def forget_me(
    core: CommandCore, event: CommandEvent, workspace_id: int, _: ForgetMe
) -> Reply:
    return await privacy.forget_me(core.review, workspace_id, event.caller, core.clock())


async def submit_news(
    core: CommandCore, event: CommandEvent, workspace_id: int, command: NewsSubmit
) -> Reply:
    now = core.clock()
    return await core.db.run(
        lambda s: news.submit_text(s, core.config, workspace_id, event.caller, command.text, now)
    )


async def start_draft(
    core: CommandCore, event: CommandEvent, workspace_id: int, command: StartDraft
) -> Reply:
    allowed = await core.db.run(
        lambda session: authorize(
            session, core.config, workspace_id, event.caller, None, Action.START_DRAFT
        )
    )
    if isinstance(allowed, Reply):
        return allowed
    return await core.review.draft_and_post(
        workspace_id,
        command.day or core.last_week(),
        post_stored=True,
        open_week=command.open_week,
    )


async def edit(core: CommandCore, event: CommandEvent, workspace_id: int, command: Edit) -> Reply:
    ref = SectionRef(command.section, command.draft_id)
    return await core.review.edit_section(workspace_id, event.caller, ref, command.text)


async def history(
    core: CommandCore, event: CommandEvent, workspace_id: int, command: History
) -> Reply:
    ref = SectionRef(command.section, command.draft_id)
    return await core.review.history(workspace_id, event.caller, ref)


OnDraft = Approve | Regenerate | Discard | Publish


def on_draft(act: Callable[[ReviewWorkflow, int, Caller, int], Awaitable[Reply]]) -> Handler:
    """The handler of a command on the draft it names, or else the current one."""

    async def run(
        core: CommandCore, event: CommandEvent, workspace_id: int, command: OnDraft
    ) -> Reply:
        draft_id = command.draft_id or await core.current_draft(workspace_id)
        if draft_id is None:
            return Reply.refuse("There is no draft to act on; start one with `/summary draft`.")
        return await act(core.review, workspace_id, event.caller, draft_id)

    return run
