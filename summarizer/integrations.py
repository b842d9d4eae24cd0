"""What an integration bot's post says happened: a PR opened, merged or closed, an issue
resolved by a commit, a release published, and who did it; and a person's update a
stand-up bot posted for them.

Integration posts are news: "[repo] Pull request merged: #12 Title", or a push post listing
commits ("[repo:main] 2 new commits by Ana: / 1a2b3c4: Merge pull request #5 from ana/setup -
Ana Ruiz"; on Discord each hash is a link). The drafter credits the person a post names,
never the bot.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from summarizer.types import PRMention, SourceMessage

# "[owner/repo]" or "[repo:branch]" opening a post: the repository its bare "#N" refs are in.
_REPO_RE = re.compile(
    r"\[(?P<repo>[A-Za-z0-9_.-]{1,100}(?:/[A-Za-z0-9_.-]{1,100})?)(?::[^\]\s]{1,200})?\]"
)
_EVENT_RE = re.compile(
    r"(?:pull request|PR|issue)\s{1,3}(?P<event>opened|merged|closed|reopened|ready for review)"
    r"\s{0,3}[:\-]?\s{0,3}#(?P<number>\d{1,7})\s{1,3}(?P<title>[^\n]{1,300})",
    re.IGNORECASE,
)
# GitHub's Slack app: "Pull request merged by ana" over "#12 Title" (its attachment's pretext
# and title).
_EVENT_BY_RE = re.compile(
    r"(?:pull request|PR|issue)\s{1,3}(?P<event>opened|merged|closed|reopened)\s{1,3}by\s{1,3}"
    r"(?P<who>[\w.-]{1,40})\s{0,3}\n\s{0,3}#(?P<number>\d{1,7})\s{1,3}(?P<title>[^\n]{1,300})",
    re.IGNORECASE,
)
# A push post's commit line: Slack's "1a2b3c4: Fix it - Ana", or the linked hash GitHub's
# Discord webhook writes ("[`1a2b3c4`](https://github.com/...) Fix it - Ana").
_COMMIT_RE = re.compile(
    r"^\s{0,8}(?:(?P<sha>[0-9a-f]{7,40}):|\[`(?P<linked>[0-9a-f]{7,40})`\]\([^()\s]{1,500}\))"
    r" (?P<message>[^\n]{1,500})$",
    re.MULTILINE,
)
# What says a closed PR was not merged, on the lines right after its event.
_UNMERGED_RE = re.compile(r"\b(?:without merg|not merged|unmerged)", re.I)
UNMERGED_CHARS = 200
_MERGE_RE = re.compile(r"^Merge pull request #(?P<number>\d{1,7}) from \S{1,200}")
_RESOLVES_RE = re.compile(
    r"[;,.]?\s{0,3}\b(?:resolves|resolved|fixes|fixed|closes|closed)\s{1,3}#(?P<number>\d{1,7})\b",
    re.IGNORECASE,
)
_BY_RE = re.compile(r" - (?P<who>[^-\n]{1,80})$")
# Who an event's title credits: "#12 Fix the loader (by ana)", "#12 Fix the loader by @ana"
# ("Sort results by date" names nobody).
_TITLE_BY_RE = re.compile(
    r"\s{1,3}(?:\(by @?(?P<who>[^()\n]{1,80})\)|by @(?P<handle>[\w.-]{1,40}))$"
)
# "[owner/repo] New release published: v2.1.0" (GitHub's Discord webhook), "Release
# published: v2.1.0" (its Slack app).
_RELEASE_RE = re.compile(
    r"release\s{1,3}(?:published|released)\s{0,3}"
    r"(?:[:\-]?\s{0,3}(?!by\s)(?P<name>[^\n]{1,120})|by\s{1,3}[\w.-]{1,40}\s{0,3}\n\s{0,3}"
    r"(?P<named>[^\n]{1,120}))",
    re.IGNORECASE,
)  # (GitHub's Slack app: "Release published by ana" over "v2.1.0", its attachment's title)


# A stand-up bot's post of a person's answers: "*Ana Ruiz* posted an update for *Daily
# Standup*" over "*What did you do yesterday?*" / "Finished the export (#45)" / ...
_ON_BEHALF_RE = re.compile(
    r"\A\W{0,3}(?P<name>[^\W\d_][^*_\n]{1,60}?)\W{0,3} (?:posted|shared|submitted) "
    r"(?:an? |their |the )?(?:update|report|stand-?up|check-in|answers)\b[^\n]*\n",
    re.IGNORECASE,
)
_PERSON_NAME_RE = re.compile(r"[A-Z][\w'.-]+(?: [A-Z][\w'.-]+){1,3}")


def on_behalf(messages: Sequence[SourceMessage]) -> list[SourceMessage]:
    """`messages`, each post a bot made of a person's update (`_ON_BEHALF_RE`) as that
    person's message: what they did is their news, credited to them, not to the bot. The
    name must be a member who wrote that week, or read as a person's full name."""
    if not any(m.is_bot for m in messages):
        return list(messages)  # (most weeks)
    people = {m.author: m.author_id for m in messages if not m.is_bot}
    found = []
    for message in messages:
        said = _ON_BEHALF_RE.match(message.text) if message.is_bot else None
        name = said["name"].strip() if said else ""
        if said and (name in people or _PERSON_NAME_RE.fullmatch(name)):
            message = replace(
                message,
                author=name,
                author_id=people.get(name, name.casefold()),
                is_bot=False,
                text=message.text[said.end() :],
            )
        found.append(message)
    return found


@dataclass(frozen=True, slots=True)
class IntegrationItem:
    """A PR or issue an integration post reports, with its title and who did it."""

    number: str
    title: str
    person: str | None = None
    done: bool = True  # merged or closed; not only opened (or reopened, or ready for review)
    merged: bool = True  # merged, as far as the post says ("closed" may not be)
    rejected: bool = False  # closed, and the post says it was not merged


@dataclass(frozen=True, slots=True)
class Commit:
    """A commit a push post lists: its short hash, its message's first line, its author."""

    sha: str
    message: str
    person: str | None = None


def post_repo(text: str) -> str | None:
    """The repository an integration post opens with ("[org/repo]", "[repo:main]")."""
    match = _REPO_RE.match(text)
    return match["repo"] if match else None


def integration_items(text: str) -> list[IntegrationItem]:
    """The PRs and issues a post reports, in order (see the module docstring)."""
    found = [
        IntegrationItem(
            m["number"],
            *_title_credit(m["title"]),
            done=_done(m["event"]),
            merged=_merged(m),
            rejected=_rejected(m, text),
        )
        for m in _EVENT_RE.finditer(text[:20_000])
    ] + [
        IntegrationItem(
            m["number"],
            *_title_credit(m["title"], m["who"]),
            done=_done(m["event"]),
            merged=_merged(m),
        )
        for m in _EVENT_BY_RE.finditer(text[:20_000])
    ]
    # A merged PR's title: the first clause of the first of its commits (those since the
    # post's previous merge); the rest are its steps ("Implement get_package_cls and test").
    opening = ""
    for commit in commits(text):
        merge = _MERGE_RE.match(commit.message)
        if merge:
            title = opening or f"Merged pull request #{merge['number']}"
            found.append(IntegrationItem(merge["number"], title, commit.person))
            opening = ""
            continue
        opening = opening or commit.message.split("; ", 1)[0]
        for resolved in _RESOLVES_RE.finditer(commit.message):
            title = _RESOLVES_RE.sub("", commit.message).strip(" ;,.")
            found.append(IntegrationItem(resolved["number"], title, commit.person))
    return found


def _done(event: str) -> bool:
    return event.lower() in ("merged", "closed")


def _merged(match: re.Match[str]) -> bool:
    return match["event"].lower() == "merged"


def _rejected(match: re.Match[str], text: str) -> bool:
    """Whether a "closed" event's post says, on the lines after it, that it was not merged
    (GitHub's Discord webhook: "Closed without merging.")."""
    if match["event"].lower() != "closed":
        return False
    return _UNMERGED_RE.search(text, match.end(), match.end() + UNMERGED_CHARS) is not None


def releases(text: str) -> list[str]:
    """The names of the releases a post reports published ("v2.1.0")."""
    return [(m["name"] or m["named"]).strip() for m in _RELEASE_RE.finditer(text[:20_000])]


def commits(text: str) -> list[Commit]:
    """Every commit a push post lists, in order."""
    return [
        Commit(m["sha"] or m["linked"], *_split_credit(m["message"]))
        for m in _COMMIT_RE.finditer(text[:20_000])
    ]


def _title_credit(title: str, who: str | None = None) -> tuple[str, str | None]:
    """ "Fix the loader (by ana)" -> ("Fix the loader", "ana"); `who` (the one who merged
    it) where the title names nobody."""
    by = _TITLE_BY_RE.search(title.strip())
    if by is None:
        return title.strip(), who
    return title.strip()[: by.start()], (by["who"] or by["handle"]).strip()


def _split_credit(message: str) -> tuple[str, str | None]:
    """ "Fix setup.py - Ana Ruiz" -> ("Fix setup.py", "Ana Ruiz")."""
    by = _BY_RE.search(message)
    if by is None:
        return message.strip(), None
    return message[: by.start()].strip(), by["who"].strip()


@dataclass(frozen=True, slots=True)
class Reported:
    """What a week's integration posts say of its PRs and issues, by normalised ref: the
    title the first post gives each, and the login of whoever opened it (its author)."""

    titles: dict[str, str]
    authors: dict[str, str]


def reported(posts: Iterable[tuple[str, Sequence[PRMention]]]) -> Reported:
    """What the integration posts among `posts` (each a post's text and the refs it cites)
    report."""
    found = Reported({}, {})
    for text, mentions in posts:
        by_number = {m.ref.rpartition("#")[2]: m.ref for m in mentions}
        for item in integration_items(text):
            ref = by_number.get(item.number)
            if ref is None:
                continue
            if item.title:
                found.titles.setdefault(ref, item.title)
            if item.person and not item.done:  # ("opened by ana": who merged it may not be)
                found.authors.setdefault(ref, item.person)
    return found


def titled(mentions: Sequence[PRMention], known: Reported) -> tuple[PRMention, ...]:
    """`mentions`, each without a title or an author of its own given those `known`."""
    return tuple(
        replace(
            m,
            title=m.title or known.titles.get(m.ref),
            author=m.author or known.authors.get(m.ref),
        )
        if m.ref in known.titles or m.ref in known.authors
        else m
        for m in mentions
    )
