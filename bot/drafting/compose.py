"""Composing a week's draft from the database: the week's messages with their PR details,
the PRs merged that nobody cited, and the extractive draft of them."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from bot.config import Config
from bot.drafting.collector import collector_paused
from bot.drafting.week import Week
from storage.drafts import earlier_citations, get_draft
from storage.github import cached_items, merged_between
from storage.messages import find_workspaces
from storage.models import LOCKED, GitHubItemRow, Workspace
from storage.news import week_submissions
from storage.privacy import forgotten_names, unnamer
from storage.week_rows import WeekMessages, week_messages, week_refs
from summarizer.draft import format_title, make_draft
from summarizer.grouping import TopicPriors
from summarizer.integrations import post_repo, reported, titled
from summarizer.prrefs import (
    PRRef,
    bare_refs_elsewhere,
    channel_repository,
    github_url,
    normalise,
    resolve_in_week,
    stray_numbers,
)
from summarizer.types import DraftSummary, NewsItem, PRMention, SourceMessage

PRIOR_WEEKS = 8  # how many earlier weeks' drafts say where the week's PRs and people belong


class DraftingError(Exception):
    """A draft that cannot be made, with the reason in words."""


def resolve_workspace(session: Session, name: str | None) -> Workspace:
    """The workspace called `name` (or its platform id), or the only one there is."""
    workspaces = find_workspaces(session)
    if not workspaces:
        raise DraftingError("the database holds no messages yet; run `summarybot import` first")
    if name is None:
        if len(workspaces) > 1:
            names = ", ".join(w.name for w in workspaces)
            raise DraftingError(
                f"several workspaces are stored ({names}); pick one with --workspace"
            )
        return workspaces[0]
    for workspace in workspaces:
        if name in (workspace.name, workspace.platform_id):
            return workspace
    names = ", ".join(w.name for w in workspaces)
    raise DraftingError(f"no workspace called {name!r}; stored: {names}")


def load_week(session: Session, config: Config, week: Week) -> list[SourceMessage]:
    """The stored messages of `week`, with their PR refs normalised."""
    week_rows = week_messages(session, week.workspace_id, week.start, week.end)
    people, channels = week_rows.authors, week_rows.channels
    prs = _week_mentions(session, config, week, _bare_refs_repos(week_rows, config, week))
    forgotten = forgotten_names(session, week.workspace_id)
    unnamed = unnamer(forgotten)
    # Where GitHub told nothing, the title an integration post gave a PR is its title, and
    # who it says opened it its author (with the names of members who opted out taken out,
    # as from every text).
    known = reported(
        (unnamed(row[5]), prs.get(row[0], ())) for row in week_rows.rows if people[row[9]][2]
    )
    if known.titles or known.authors:
        prs = {message_id: titled(found, known) for message_id, found in prs.items()}
    # (what the summarizer reads of a time, "tomorrow" as a weekday, is the community's)
    zone = week.start.tzinfo
    messages = []
    for (
        message_id,
        platform_id,
        thread_id,
        reply_to_id,
        created_at,
        text,
        reactions,
        replies,
        permalink,
        author_id,
        channel_id,
        pinned,
        preview,
    ) in week_rows.rows:
        author, author_platform_id, is_bot = people[author_id]
        channel, thread_title = channels[channel_id]
        if preview:  # (a member's link with its preview, or the preview alone)
            text = f"{text}\n{preview}" if text else preview
        if forgotten:
            text, preview = unnamed(text), unnamed(preview)
        created_at = created_at.astimezone(zone)
        messages.append(
            SourceMessage(
                platform_id,
                author,
                author_platform_id,
                channel,
                created_at,
                text,
                is_bot,
                thread_id,
                reply_to_id,
                prs.get(message_id, ()),
                reactions,
                replies,
                permalink,
                thread_title,
                pinned,
                preview,
            )
        )
    return messages


def _bare_refs_repos(week_rows: WeekMessages, config: Config, week: Week) -> dict[int, str]:
    """The repository a bare "#N" of each message (by row id) is in, where it is not the
    default: the one an integration post names ("[repo:main]"), or the one the channel it
    was said in is named for ("#uefi-rs")."""
    people, channels = week_rows.authors, week_rows.channels
    named = {
        channel_id: repo
        for channel_id, (channel, _) in channels.items()
        if (repo := channel_repository(channel, week.default_repo, config.repos)) is not None
    }
    found = {}
    for row in week_rows.rows:
        message_id, text, author_id, channel_id = row[0], row[5], row[9], row[10]
        repo = post_repo(text) if people[author_id][2] else None
        if repo is not None or (repo := named.get(channel_id)) is not None:
            found[message_id] = repo
    return found


def load_news(session: Session, week: Week) -> list[NewsItem]:
    """What members sent in during `week` that no editor dropped, forgotten members' names
    taken out (what an opted-out member sent is deleted with them)."""
    unnamed = unnamer(forgotten_names(session, week.workspace_id))
    return [
        NewsItem(
            str(news.id),
            news.sender,
            unnamed(news.text),
            news.submitted_at,
            news.message_platform_id,
            news.author,
            news.channel,
            news.permalink,
        )
        for news in week_submissions(session, week.workspace_id, week.start, week.end)
        if news.dropped_at is None and not news.sender_forgotten
    ]


def _week_mentions(
    session: Session, config: Config, week: Week, posted_in: Mapping[int, str]
) -> dict[int, tuple[PRMention, ...]]:
    """The PRs each message of `week` cites (by message row id), normalised and resolved
    within the week, with GitHub's details when enabled and cached. `posted_in`: the
    repository of each message's bare refs, where it is not the default."""
    refs = [
        (message_id, repo or posted_in.get(message_id), number, raw)
        for message_id, repo, number, raw in week_refs(
            session, week.workspace_id, week.start, week.end
        )
    ]
    # A week cites the same PRs over and over: each distinct ref is worked out once, and
    # the messages citing it share one PRMention.
    written = dict.fromkeys((repo, number, raw) for _, repo, number, raw in refs)
    normalised = {key: normalise(PRRef(*key), week.default_repo, config.repos) for key in written}
    normalised.update(bare_refs_elsewhere(normalised, week.default_repo))
    strays = stray_numbers((key[2], ref) for key, ref in normalised.items())
    if strays:
        normalised = {k: ref for k, ref in normalised.items() if (k[2], ref) not in strays}
        refs = [r for r in refs if (r[1], r[2], r[3]) in normalised]
    resolved = resolve_in_week(normalised.values())
    refs_of = {key: resolved.get(ref, ref) for key, ref in normalised.items()}
    keys = {ref: pr_key(ref) for ref in refs_of.values()}
    github = (
        cached_items(session, [k for k in keys.values() if k is not None])
        if config.github.enabled
        else {}
    )
    mentions = {
        key: _mention(
            key[2], ref, github.get(k) if (k := keys[ref]) is not None else None, week.default_repo
        )
        for key, ref in refs_of.items()
    }
    cited: dict[int, list[PRMention]] = defaultdict(list)
    for message_id, repo, number, raw in refs:
        cited[message_id].append(mentions[repo, number, raw])
    return {message_id: tuple(found) for message_id, found in cited.items()}


def pr_key(ref: str) -> tuple[str, int] | None:
    """("owner/repo", N) for a normalised ref whose repository is known, else None."""
    repo, _, number = ref.rpartition("#")
    return (repo, int(number)) if "/" in repo else None


def _mention(raw: str, ref: str, item: GitHubItemRow | None, default_repo: str) -> PRMention:
    """A cited PR, with GitHub's details when the cache has them."""
    # GitHub redirects /issues/N to the PR when N is one, but not the other way round.
    kind = "pull" if "/pull/" in raw else "issues"
    shown = _shown(raw, ref, default_repo)
    if item is None or item.kind == "missing":
        return PRMention(raw, ref, github_url(ref, kind), shown=shown)
    return PRMention(
        raw,
        ref,
        item.url or github_url(ref, kind),
        title=item.title,
        author=item.author,
        labels=tuple(item.labels),
        paths=tuple(item.paths or ()),
        shown=shown,
    )


# A ref written without its repository: "#615", "PR 615", "PR #615", "615".
_BARE_REF_RE = re.compile(r"(?:(?i:pr)\s*:?\s*)?#?\d+")


def _shown(raw: str, ref: str, default_repo: str) -> str | None:
    """How a bare "#615" (or "PR 615") of a repository other than the default is written:
    with that repository's name, "brindle-editor#615" (its owner's too where it is not the
    default's), for a reader takes "#615" for the default repository's; None for others
    (and for all where the community set no default repository)."""
    repo, _, number = ref.rpartition("#")
    if not default_repo or "/" not in repo or repo == default_repo:
        return None
    if _BARE_REF_RE.fullmatch(raw) is None:
        return None
    owner, _, name = repo.partition("/")
    return f"{name if owner == default_repo.partition('/')[0] else repo}#{number}"


def merged_uncited(
    session: Session, config: Config, messages: list[SourceMessage], start: datetime, end: datetime
) -> list[PRMention]:
    """PRs merged in [start, end) in the configured repositories that no message cites."""
    cited = {p.ref for m in messages for p in m.prs}
    return [
        PRMention(
            f"{row.repo}#{row.number}",
            f"{row.repo}#{row.number}",
            row.url,
            title=row.title,
            author=row.author,
            labels=tuple(row.labels),
            paths=tuple(row.paths or ()),
        )
        for row in merged_between(session, config.github.repos, start, end)
        if f"{row.repo}#{row.number}" not in cited
    ]


def missing_details(messages: list[SourceMessage]) -> list[str]:
    """The note for the editor about cited PRs GitHub told nothing about."""
    missing = sorted({p.ref for m in messages for p in m.prs if p.title is None and "/" in p.ref})
    if not missing:
        return []
    return [f"GitHub details are missing for {len(missing)} PR(s): {', '.join(missing)}."]


def topic_priors(session: Session, week: Week) -> TopicPriors:
    """Where the drafts of the `PRIOR_WEEKS` weeks before `week` placed PRs and people."""
    since = week.monday - timedelta(weeks=PRIOR_WEEKS)
    cited = earlier_citations(session, week.workspace_id, since, week.monday)
    return TopicPriors(prs=cited.prs, people=cited.people)


@dataclass(slots=True)
class Composed:
    """A week drafted but not stored yet: the draft, the messages it came from and the
    earlier weeks' placements its grouping leaned on."""

    draft: DraftSummary
    messages: list[SourceMessage]
    priors: TopicPriors


def compose(session: Session, config: Config, week: Week) -> Composed:
    """The extractive draft of `week`; an approved or published week is not drafted again."""
    existing = get_draft(session, week.workspace_id, week.monday)
    if existing is not None and existing.status in LOCKED:
        raise DraftingError(
            f"the summary of the week of {week.monday} was already {existing.status}; "
            "it is not drafted again"
        )
    use_github = config.github.enabled
    with collector_paused():
        messages = load_week(session, config, week)
        priors = topic_priors(session, week)
        draft = make_draft(
            messages,
            list(week.topics),
            workspace=week.workspace_name,
            week_start=week.monday,
            title=format_title(
                config.title_template, config.name or week.workspace_name, week.monday
            ),
            max_chars=config.draft.max_chars,
            merged=merged_uncited(session, config, messages, week.start, week.end)
            if use_github
            else (),
            notes=missing_details(messages) if use_github else (),
            priors=priors,
            news=load_news(session, week),
        )
    return Composed(draft, messages, priors)
