"""The drafting service: the one path from a `Week` to a stored draft, used by the CLI's
`draft` and `demo`, the weekly schedule, `/summary draft` and regenerate.

GitHub refresh (when enabled) -> compose the extractive draft -> the workspace's drafter
(the LLM rewrites the sections when the week asks for it and a client is configured) ->
store once. Its database and grouping work runs in worker threads (`bot.drafting.worker`
says why there), never on the event loop.

A week the LLM drafts has one deadline for all of it, `[llm] week_deadline_seconds` from the
start: GitHub gets what is left of it (at most its own budget), the model what is left after
composing, its retries included; whatever the model has not written by then keeps the
extractive text, already composed, and the draft is stored within the deadline.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from bot.config import Config
from bot.drafting.compose import Composed, compose
from bot.drafting.github.client import GitHubClient
from bot.drafting.github.refresh import RefreshReport, refresh_week
from bot.drafting.llm.client import LLMClient, TokenBudget
from bot.drafting.llm.drafter import DEFAULT_STYLE_EXAMPLE, LLM, ran_out, rewrite_draft
from bot.drafting.store import drafter_of, store
from bot.drafting.week import Week
from bot.drafting.worker import read, write
from storage.drafts import get_draft
from storage.models import DraftRow
from summarizer.news import keep_news

MakeGitHub = Callable[[], GitHubClient]
MakeLLM = Callable[[], LLMClient]
OnStored = Callable[[Session, DraftRow], None]
# The end of the week's deadline kept for storing the draft: a twentieth, at most 1 s. The
# model's answers are collected by the first half of it at the latest.
STORE_SHARE, STORE_MAX_SECONDS = 0.05, 1.0


@dataclass(slots=True)
class Drafted:
    """What one run of the drafting service did, for the caller to report and count."""

    draft_id: int | None  # None: `new_only` and the week already had a draft
    drafter: str = ""  # "extractive", "llm" or "mixed"
    github: RefreshReport | None = None  # None when GitHub was not asked
    github_requests: int = 0
    llm_requests: int = 0
    llm_misses: int = 0  # sections the LLM drafter could not write (they stay extractive)


class DraftingService:
    """Drafts weeks. `github` and `llm` make the clients (None: not used); `clock` is the
    bot's one clock."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        config: Config,
        clock: Callable[[], datetime],
        *,
        github: MakeGitHub | None = None,
        llm: MakeLLM | None = None,
    ) -> None:
        self.sessions = sessions
        self.config = config
        self.clock = clock
        self.github = github
        self.llm = llm

    async def draft(
        self, week: Week, *, new_only: bool = False, on_stored: OnStored | None = None
    ) -> Drafted:
        """Draft `week` and store it once. With `new_only` a week already drafted is left
        alone. `on_stored(session, row)` runs in the storing transaction. Raises
        `DraftingError` for a week that cannot be drafted (approved or published)."""
        if new_only and await read(self.sessions, lambda s: _exists(s, week)):
            return Drafted(None)
        drafted = Drafted(None)
        make_llm = self.llm if week.drafter == LLM else None
        until = self._until() if make_llm is not None else None
        if self.config.github.enabled and self.github is not None:
            seconds = await self._refresh_github(self.github, week, drafted, until)
        composed = await read(self.sessions, lambda s: compose(s, self.config, week))
        if drafted.github is not None and drafted.github.out_of_time:
            composed = _noted(composed, _out_of_time_note(seconds))
        if make_llm is not None and until is not None:
            composed = await self._rewrite(make_llm, week, composed, drafted, until)
        drafted.drafter = drafter_of(composed)
        drafted.draft_id = await write(
            self.sessions, lambda s: self._store(s, week, composed, new_only, on_stored)
        )
        return drafted

    def _until(self) -> float:
        """The event loop's time by which the model's sections of an LLM-drafted week must
        be in: the week's deadline less the time kept for storing."""
        seconds = self.config.llm.week_deadline_seconds
        return asyncio.get_running_loop().time() + seconds - _store_time(seconds)

    async def _refresh_github(
        self, make: MakeGitHub, week: Week, drafted: Drafted, until: float | None
    ) -> float:
        """Refresh the GitHub cache within the draft's GitHub time budget (and what is left
        of the week's deadline, when there is one); the seconds it was given."""
        seconds = self.config.github.budget_seconds
        if until is not None:
            seconds = max(0.0, min(seconds, until - asyncio.get_running_loop().time()))
        async with make() as client:
            client.limit_time(seconds)
            drafted.github = await refresh_week(
                self.sessions, self.config, client, week, self.clock()
            )
        drafted.github_requests = client.requests_made
        return seconds

    async def _rewrite(
        self, make: MakeLLM, week: Week, composed: Composed, drafted: Drafted, until: float
    ) -> Composed:
        """The sections rewritten by the model where it could by `until`, grounded in the
        messages; the extractive ones where it could not."""
        llm = self.config.llm
        budget = TokenBudget(
            llm.max_tokens_per_week,
            prompt_price_per_mtok=llm.prompt_price_per_mtok,
            completion_price_per_mtok=llm.completion_price_per_mtok,
        )
        style = await asyncio.to_thread(llm.style_example_text)
        client = make()
        backstop = until + _store_time(llm.week_deadline_seconds) / 2
        try:
            # rewrite_draft collects what the model wrote by `until`; opening and closing
            # the client, and anything else on the way, must not take the week past its end.
            async with asyncio.timeout_at(backstop):
                async with client:
                    draft = await rewrite_draft(
                        composed.draft,
                        composed.messages,
                        week.topics,
                        client,
                        budget,
                        prompt=llm.prompt,
                        style_example=style or DEFAULT_STYLE_EXAMPLE,
                        deadline=llm.week_deadline_seconds,
                        until=until,
                        default_repo=week.default_repo or None,
                        repo_aliases=self.config.repos,
                        priors=composed.priors,
                    )
        except TimeoutError:
            draft = ran_out(composed.draft, llm.week_deadline_seconds)
        # The model writes from the messages; what members sent in stays whatever it wrote.
        draft = replace(draft, sections=keep_news(draft.sections, composed.draft.sections))
        drafted.llm_requests = client.requests_made
        drafted.llm_misses = sum(1 for s in draft.sections if s.drafter != LLM)
        return _noted(replace(composed, draft=draft), f"LLM drafter spent {budget.summary()}.")

    def _store(
        self,
        session: Session,
        week: Week,
        composed: Composed,
        new_only: bool,
        on_stored: OnStored | None,
    ) -> int | None:
        row = store(session, week, composed, self.clock(), new_only=new_only)
        if row is None:
            return None
        if on_stored is not None:
            on_stored(session, row)
        return row.id


def _exists(session: Session, week: Week) -> bool:
    return get_draft(session, week.workspace_id, week.monday) is not None


def _store_time(deadline: float) -> float:
    return min(deadline * STORE_SHARE, STORE_MAX_SECONDS)


def _out_of_time_note(seconds: float) -> str:
    return (
        f"GitHub did not answer within this draft's {seconds:.3g} s budget: the draft was "
        "made from chat, without the PR details GitHub had not sent by then."
    )


def _noted(composed: Composed, note: str) -> Composed:
    """`composed` with one more note for the editor."""
    draft = composed.draft
    return replace(composed, draft=replace(draft, notes=[*draft.notes, note]))
