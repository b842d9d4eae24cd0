"""Assigning a week's messages to the community's standing topics.

Evidence, in the order it is weighed: the message's own words and channel; the conversation it
belongs to (a thread, or a chain of replies), which goes to one topic as a whole; and the PRs it
shares with other conversations. Self-introductions are recognised on their own. What has no
evidence goes to the catch-all topic, which is the last one configured.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from summarizer.conversations import conversations
from summarizer.noise import is_noise
from summarizer.types import SourceMessage, Topic

CHANNEL_WEIGHT = 2.5  # three keyword hits outweigh a channel, one or two do not
KEYWORD_CAP = 3  # a long message repeating one word should not outvote its channel
PR_CONTEXT_WEIGHT = 0.5
INTRODUCTIONS = "introductions"

_GREETING_RE = re.compile(
    r"^\W*(?:hi|hello|hey|hiya|greetings|howdy|good (?:morning|evening))\b", re.IGNORECASE
)
_SELF_RE = re.compile(r"\b(?:i'?m|i am|my name is|myself)\b", re.IGNORECASE)
_WELCOME_RE = re.compile(r"^\W*welcome\b", re.IGNORECASE)
_ABOUT_RE = re.compile(
    r"\b(?:work(?:ing)? (?:on|at|in)|research|phd|student|engineer|scientist|interested in|"
    r"joined|new here|excited to|background in|based in|from)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class TopicMatcher:
    """A topic compiled for scoring messages."""

    topic: Topic
    pattern: re.Pattern[str] | None

    @classmethod
    def compile(cls, topic: Topic) -> TopicMatcher:
        alternatives = [r"(?<!\w)" + re.escape(k) + r"(?!\w)" for k in topic.keywords]
        alternatives += [f"(?:{p})" for p in topic.patterns]
        pattern = re.compile("|".join(alternatives), re.IGNORECASE) if alternatives else None
        return cls(topic, pattern)

    def score(self, message: SourceMessage) -> float:
        score = CHANNEL_WEIGHT if message.channel in self.topic.channels else 0.0
        if self.pattern is not None:
            hits = 0
            for _ in self.pattern.finditer(message.text):
                hits += 1
                if hits == KEYWORD_CAP:
                    break
            score += hits
        return score


def is_self_introduction(message: SourceMessage, intro_channels: Sequence[str] = ()) -> bool:
    """A newcomer saying who they are: in an introductions channel, or greeting + "I'm ..."."""
    if message.is_bot or message.reply_to_id:
        return False
    head = message.text[:300]
    if message.channel in intro_channels:
        # Newcomers introduce themselves in many ways ("Ximena here. I run ..."); what is not
        # a reply and not a welcome in that channel is taken as an introduction.
        return len(head) >= 40 and not _WELCOME_RE.match(head)
    return bool(_GREETING_RE.search(head) and _SELF_RE.search(head) and _ABOUT_RE.search(head))


def group_by_topic(
    messages: Sequence[SourceMessage], topics: Sequence[Topic]
) -> dict[str, list[SourceMessage]]:
    """The non-noise messages of `messages` under each topic id, in time order.

    Every topic id is a key (empty topics map to an empty list). The last topic is the
    catch-all for conversations without evidence.
    """
    if not topics:
        raise ValueError("at least one topic is needed")
    kept = sorted((m for m in messages if not is_noise(m)), key=lambda m: m.created_at)
    matchers = [TopicMatcher.compile(t) for t in topics]
    catch_all = topics[-1].id
    intro_topic = next((t for t in topics if t.id == INTRODUCTIONS), None)
    intro_channels = intro_topic.channels if intro_topic else ()

    grouped: dict[str, list[SourceMessage]] = {t.id: [] for t in topics}
    rest: list[SourceMessage] = []
    for message in kept:
        if intro_topic is not None and is_self_introduction(message, intro_channels):
            grouped[intro_topic.id].append(message)
        elif intro_topic is not None and message.channel in intro_channels:
            continue  # welcomes and small talk under an introduction
        else:
            rest.append(message)

    for message, topic_id in zip(rest, _assign(rest, matchers, catch_all), strict=True):
        grouped[topic_id].append(message)
    return grouped


def _assign(
    messages: Sequence[SourceMessage], matchers: Sequence[TopicMatcher], catch_all: str
) -> list[str]:
    """The topic id of each message, decided per conversation."""
    n_topics = len(matchers)
    root_of: dict[int, int] = {}
    totals: dict[int, list[float]] = {}
    prs_of: dict[int, set[str]] = {}
    for members in conversations(messages):
        root = members[0]
        row = totals[root] = [0.0] * n_topics
        refs = prs_of[root] = set()
        for i in members:
            root_of[i] = root
            for t, matcher in enumerate(matchers):
                row[t] += matcher.score(messages[i])
            refs.update(p.ref for p in messages[i].prs)

    # A PR discussed in several conversations lends each of them the others' evidence.
    by_pr: dict[str, list[float]] = defaultdict(lambda: [0.0] * n_topics)
    for root, refs in prs_of.items():
        for ref in refs:
            by_pr[ref] = [a + b for a, b in zip(by_pr[ref], totals[root], strict=True)]

    decided: dict[int, str] = {}
    for root, own in totals.items():
        scores = list(own)
        for ref in prs_of[root]:
            for t in range(n_topics):
                scores[t] += PR_CONTEXT_WEIGHT * (by_pr[ref][t] - own[t])
        best = max(range(n_topics), key=lambda t: (scores[t], -t))
        decided[root] = matchers[best].topic.id if scores[best] > 0 else catch_all
    return [decided[root_of[i]] for i in range(len(messages))]
