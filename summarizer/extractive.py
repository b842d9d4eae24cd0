"""The default drafter: offline and deterministic, built from the messages' own sentences.

Each topic's conversations (threads, reply chains, and conversations sharing a PR) become one
bullet each, most salient first, until the topic's share of the length budget is spent. A bullet
keeps the sentences that carry PRs and figures, names who said them, and cites every PR of the
conversation. Introductions get one line per newcomer in their own words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from summarizer.conversations import conversations
from summarizer.figures import count_figures
from summarizer.grouping import INTRODUCTIONS
from summarizer.noise import is_acknowledgement
from summarizer.text import defuse_pings, sentences, shorten, similarity, words
from summarizer.types import PRMention, Section, SourceMessage, Topic

# A bullet holds about three sentences, more for a long conversation: enough to say who did
# what and why, with the numbers.
BULLET_BASE_CHARS = 250
BULLET_CHARS_PER_DOUBLING = 80
BULLET_MAX_CHARS = 650
MIN_BULLET_CHARS = 150
MAX_ALSO_PRS = 6  # PRs of a conversation cited after its sentences, when theirs were left out
INTRO_CHARS = 200
INTRO_OPENER_CHARS = 25
MIN_SECTION_CHARS = 500
FULL = 0.8  # a section this close to its budget had more to say
NEAR_DUPLICATE = 0.6
MIN_SENTENCE_CHARS = 20

_GREETING_RE = re.compile(
    r"^\W*(?:hi|hello|hey|hiya|greetings|howdy|good (?:morning|evening))\b[^.!?\n]*?"
    r"(?:[,.!:]+|\s+(?=i'?m|i am|my name))\s*",
    re.IGNORECASE,
)


_CLOSING = ".!?:;…"


@dataclass(slots=True)
class _Sentence:
    text: str
    message: SourceMessage
    order: tuple[float, int]  # message time, position in the message
    score: float
    words: frozenset[str]
    opening: bool  # the conversation's first sentence: it usually says what it is about


def draft_sections(
    grouped: Mapping[str, Sequence[SourceMessage]], topics: Sequence[Topic], max_chars: int
) -> list[Section]:
    """One section per non-empty topic, in topic order, sharing `max_chars` between them.

    Introductions take the room they need (a line per newcomer); the other topics share the
    rest by how much was said in them, and room a quiet topic leaves goes to the busy ones.
    """
    drafted: dict[str, Section] = {}
    remaining = max_chars
    busy = [t for t in topics if grouped.get(t.id)]
    for topic in busy:
        if topic.id == INTRODUCTIONS:
            drafted[topic.id] = _introductions(topic, grouped[topic.id])
            remaining -= len(drafted[topic.id].markdown)
    others = [t for t in busy if t.id != INTRODUCTIONS]
    budgets = _budgets(grouped, others, remaining)
    for topic in others:
        drafted[topic.id] = _topic_section(topic, grouped[topic.id], budgets[topic.id])

    spare = remaining - sum(len(drafted[t.id].markdown) for t in others)
    hungry = [t for t in others if len(drafted[t.id].markdown) >= FULL * budgets[t.id]]
    if spare > 0 and hungry:
        extra = _budgets(grouped, hungry, spare)
        for topic in hungry:
            budget = budgets[topic.id] + extra[topic.id]
            drafted[topic.id] = _topic_section(topic, grouped[topic.id], budget)
    return [drafted[t.id] for t in busy if drafted[t.id].markdown]


def _budgets(
    grouped: Mapping[str, Sequence[SourceMessage]], topics: Sequence[Topic], max_chars: int
) -> dict[str, int]:
    """Each topic's share of `max_chars`: more was said, more room, never a starved topic."""
    weights = {t.id: math.sqrt(len(grouped.get(t.id, ()))) for t in topics}
    total = sum(weights.values()) or 1.0
    return {tid: max(MIN_SECTION_CHARS, int(max_chars * w / total)) for tid, w in weights.items()}


def _salience(message: SourceMessage) -> float:
    return (
        2.0 * len(message.prs)
        + 1.5 * count_figures(message.text)
        + math.log1p(message.reactions)
        + 0.5 * math.log1p(message.replies)
        + min(len(message.text) / 300, 1.0)
    )


def _topic_section(topic: Topic, messages: Sequence[SourceMessage], budget: int) -> Section:
    items = [[messages[i] for i in members] for members in conversations(messages, by_pr=True)]
    ranked = sorted(items, key=lambda item: -sum(_salience(m) for m in item))
    bullets: list[str] = []
    chosen: list[_Sentence] = []
    cited: dict[str, None] = {}
    people: dict[str, None] = {}
    sources: dict[str, None] = {}
    used = 0
    for item in ranked:
        room = budget - used
        if room < MIN_BULLET_CHARS:
            break
        if not _worth_reporting(item):
            continue
        picked = _pick_sentences(item, chosen, min(_bullet_limit(item), room))
        if not picked:
            continue
        chosen.extend(picked)
        mentions = _mentions(item)
        bullet = _render_bullet(picked, mentions, cited)
        bullets.append(bullet)
        used += len(bullet)
        for s in picked:
            if not s.message.is_bot:
                people.setdefault(s.message.author)
        for message in item:
            if message.prs or any(s.message is message for s in picked):
                sources.setdefault(message.id)
    return Section(
        topic=topic.id,
        title=topic.title,
        markdown="\n".join(bullets),
        prs=list(cited),
        people=list(people),
        sources=list(sources),
    )


def _bullet_limit(item: Sequence[SourceMessage]) -> int:
    size = BULLET_BASE_CHARS + BULLET_CHARS_PER_DOUBLING * math.log2(1 + len(item))
    return int(min(BULLET_MAX_CHARS, size))


def _worth_reporting(item: Sequence[SourceMessage]) -> bool:
    """A conversation with a PR, a figure, some substance or some reactions."""
    return any(
        m.prs or m.reactions >= 2 or len(m.text) >= 60 or count_figures(m.text) for m in item
    )


def _pick_sentences(
    item: Sequence[SourceMessage], already: Sequence[_Sentence], limit: int
) -> list[_Sentence]:
    """The item's best sentences within `limit` characters, in the order they were said."""
    candidates = [
        c
        for c in _candidates(item)
        if all(similarity(c.words, a.words) < NEAR_DUPLICATE for a in already)
    ]
    candidates.sort(key=lambda c: (not c.opening, -c.score))
    picked: list[_Sentence] = []
    length = 0
    for candidate in candidates:
        if length + len(candidate.text) > limit and picked:
            continue
        if any(similarity(candidate.words, p.words) >= NEAR_DUPLICATE for p in picked):
            continue
        if not picked and len(candidate.text) > limit:
            candidate.text = shorten(candidate.text, limit)
        picked.append(candidate)
        length += len(candidate.text) + 1
    return sorted(picked, key=lambda s: s.order)


def _candidates(item: Sequence[SourceMessage]) -> list[_Sentence]:
    result = []
    for message in item:
        reaction_bonus = 0.5 * math.log1p(message.reactions)
        raws = [p.raw for p in message.prs]
        for position, text in enumerate(sentences(message.text)):
            prs = sum(1 for raw in raws if raw in text)
            figures = count_figures(text)
            if not prs and not figures and len(text) < MIN_SENTENCE_CHARS:
                continue
            if is_acknowledgement(text):
                continue
            score = 3.0 * prs + 2.0 * figures + min(len(text) / 150, 1.0) + reaction_bonus
            if text.endswith("?"):
                score -= 1.0
            order = (message.created_at.timestamp(), position)
            opening = message is item[0] and position == 0
            result.append(_Sentence(text, message, order, score, words(text), opening))
    return result


def _mentions(item: Sequence[SourceMessage]) -> list[PRMention]:
    seen: dict[str, PRMention] = {}
    for message in item:
        for mention in message.prs:
            seen.setdefault(mention.ref, mention)
    return list(seen.values())


def _render_bullet(
    picked: Sequence[_Sentence], mentions: Sequence[PRMention], cited: dict[str, None]
) -> str:
    """`- **Ana Ruiz**: what she said. **Ben Cho**: what he added. (also #12)`"""
    parts: list[str] = []
    author = None
    for sentence in picked:
        if sentence.message.author != author:
            author = sentence.message.author
            parts.append(f"**{author}**:")
        text = _link_prs(sentence.text, sentence.message.prs)
        # Lines of a list carry no full stop; without one they would run together.
        parts.append(text if text[-1] in _CLOSING else text + ".")
    text = " ".join(parts)
    missing = []
    for mention in mentions:
        if mention.raw in text or mention.ref in text:
            cited.setdefault(mention.ref)
        elif len(missing) < MAX_ALSO_PRS:
            missing.append(_link(mention))
            cited.setdefault(mention.ref)
    if missing:
        text += f" (also {', '.join(missing)})"
    return "- " + defuse_pings(text)


def _link(mention: PRMention) -> str:
    """`[#12](url "Title, by login")`: the PR's meaning on the link when GitHub gave it."""
    return f"[{mention.ref}]({mention.url}{_title(mention)})" if mention.url else mention.ref


def _title(mention: PRMention) -> str:
    if not mention.title:
        return ""
    text = mention.title + (f", by {mention.author}" if mention.author else "")
    return ' "' + text.replace('"', "'") + '"'


def _link_prs(text: str, mentions: Sequence[PRMention]) -> str:
    """Turn each PR reference in `text` into a GitHub link where the repository is known."""
    for mention in mentions:
        if mention.url is None:
            continue
        label = mention.raw if mention.raw.startswith(("#", "PR", "pr")) else mention.ref
        link = f"[{label}]({mention.url}{_title(mention)})"
        pattern = re.compile(r"(?<![\w\[/])" + re.escape(mention.raw) + r"(?![\w\]])")
        text = pattern.sub(lambda _m, link=link: link, text, count=1)
    return text


def _introductions(topic: Topic, messages: Sequence[SourceMessage]) -> Section:
    """One line per newcomer, in their own words, the first time they introduced themselves."""
    lines = []
    people: dict[str, None] = {}
    sources = []
    for message in messages:
        if message.author in people:
            continue
        people[message.author] = None
        sources.append(message.id)
        about = sentences(_GREETING_RE.sub("", message.text.strip(), count=1))
        # "Hola! Ximena here. I run ...": skip the short openers to reach what they do.
        while len(about) > 1 and len(about[0]) < INTRO_OPENER_CHARS:
            about.pop(0)
        first = " ".join(about[:2])
        lines.append(f"- **{message.author}**: {defuse_pings(shorten(first, INTRO_CHARS))}")
    return Section(
        topic=topic.id,
        title=topic.title,
        markdown="\n".join(lines),
        people=list(people),
        sources=sources,
    )


def add_merged(
    sections: Sequence[Section], placed: Mapping[str, Sequence[PRMention]], topics: Sequence[Topic]
) -> list[Section]:
    """Sections with an "Also merged" line for PRs merged this week that chat never cited,
    under the topic their labels or paths point to (a topic without a section gets one)."""
    by_topic = {s.topic: s for s in sections}
    result = []
    for topic in topics:
        prs = placed.get(topic.id, ())
        section = by_topic.get(topic.id)
        if prs:
            line = "- Also merged: " + "; ".join(
                f"{_link(p)} {p.title}" + (f" ({p.author})" if p.author else "") for p in prs
            )
            base = section or Section(topic=topic.id, title=topic.title, markdown="")
            section = Section(
                topic=base.topic,
                title=base.title,
                markdown="\n".join(filter(None, [base.markdown, defuse_pings(line)])),
                prs=[*base.prs, *(p.ref for p in prs if p.ref not in base.prs)],
                people=list(base.people),
                sources=list(base.sources),
            )
        if section is not None:
            result.append(section)
    return result
