"""Drafting a week with the LLM drafter: compose the extractive draft, rewrite its sections
with the model, store the result (sections an editor edited are kept, as always)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from sqlalchemy.orm import Session, sessionmaker

from bot.core import metrics
from bot.drafting.compose import compose_week, store_week
from bot.drafting.config import Config
from bot.drafting.llm.client import LLMClient, TokenBudget
from bot.drafting.llm.drafter import rewrite_draft
from bot.ops.env import Environment
from storage.models import DraftRow, Workspace

MakeClient = Callable[[], LLMClient]


class LLMNotConfigured(Exception):
    """The config names no model."""


def llm_client_for(config: Config, env: Environment) -> MakeClient:
    """Makes the client of the configured endpoint, or says what is missing."""
    if not config.llm.model:
        raise LLMNotConfigured(
            "the LLM drafter needs a model: set [llm] model (and base_url) in the config"
        )
    return lambda: LLMClient(
        base_url=config.llm.base_url, model=config.llm.model, api_key=env.llm_api_key
    )


def budget_for(config: Config) -> TokenBudget:
    return TokenBudget(
        config.llm.max_tokens_per_week,
        prompt_price_per_mtok=config.llm.prompt_price_per_mtok,
        completion_price_per_mtok=config.llm.completion_price_per_mtok,
    )


async def draft_week_llm(
    sessions: sessionmaker[Session],
    config: Config,
    workspace_id: int,
    day: date,
    make_client: MakeClient,
) -> DraftRow:
    """Draft the week holding `day` with the model, grounded, and store it."""
    with sessions() as session:
        week = compose_week(session, config, session.get(Workspace, workspace_id), day)
    budget = budget_for(config)
    async with make_client() as client:
        draft = await rewrite_draft(
            week.draft,
            week.messages,
            week.settings.topic_list,
            client,
            budget,
            prompt=config.llm.prompt,
            default_repo=week.settings.default_repo or None,
            repo_aliases=config.repos,
        )
        metrics.LLM_CALLS.inc(client.requests_made)
    metrics.LLM_ERRORS.inc(sum(1 for s in draft.sections if s.drafter != "llm"))
    week.draft = replace(draft, notes=[*draft.notes, f"LLM drafter spent {budget.summary()}."])
    with sessions.begin() as session:
        return store_week(session, week)
