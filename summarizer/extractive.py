"""The default drafter: offline and deterministic, one bullet per work item.

A work item is a conversation (a thread, a reply chain, or conversations citing the same PR)
that changed or announced something: a PR, a figure, a decision, or a message people took as
news (`summarizer.signals`). Its bullet says what happened in one or two of the item's own
sentences in a newsletter's voice (`summarizer.newsletter`): who did it as the subject or as
the credit, with the item's figures and every PR it cites; what would still read as chat is
left out, never quoted. Within the length budget the drafter picks the bullets that cover the
most PRs, figures and signals per word; every PR the budget left out then gets one short line,
so no PR the week cites is dropped to fit. Integration bots are never quoted as people: their
posts lend titles and credit the person they name (`summarizer.integrations`).
Introductions get one line per newcomer.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from summarizer.conversations import conversations
from summarizer.figures import FIGURE_RE, find_figures
from summarizer.grouping import INTRODUCTIONS
from summarizer.integrations import IntegrationItem, integration_items
from summarizer.introductions import introductions
from summarizer.newsletter import capitalised, clean_sentences, tidy, voiced
from summarizer.noise import is_acknowledgement, is_review_chatter
from summarizer.phrasing import (
    ANAPHORA_RE,
    REPLY_OPENER_RE,
    clean_sentence,
    is_fallback,
    points_back,
    third_person,
    without_pointing_label,
)
from summarizer.prlinks import label, link, link_prs, with_refs
from summarizer.signals import names_release, shows_something, social_gain, text_gain
from summarizer.text import (
    URL_RE,
    any_phrase,
    chat_lines,
    defuse_pings,
    full_stop,
    says_to_the_reader,
    sentences,
    similarity,
    strip_code_blocks,
    visible_length,
    without_list_mark,
    words,
)
from summarizer.types import PRMention, Section, SourceMessage, Topic
from summarizer.voice import EMOJI_RE, EMOJI_START_RE

MIN_FACT_WORDS = 5
MIN_PR_FACT_WORDS = 3  # "Adjusted in #12." says enough when nothing else cites #12
SIGNAL_FACT_WORDS = 8  # a sentence that is news only by its signals says something
STRONG_SIGNAL = 2.5  # ... unless many people reacted to it (a dozen reactions, or a pin and some)
MAX_FACT_WORDS = 60  # longer sentences are rambles, not facts; they are left out, never cut
BULLET_WORDS = 45  # a second sentence joins the lead only while the bullet stays this short
SHORT = 25  # a sentence with no PR or figure of its own joins only a bullet this short
COMPACT_WORDS = 30  # an item the budget left out is said in one sentence this short
MAX_TRAILING_PRS = 8
MIN_TITLED = 2  # from this many further PRs with titles on, the titles say them
TITLE_WORDS = 12  # a further PR's title this short says it; a longer one is only linked
STALE = 0.3  # same author, same topic, this similar: the newer status replaces the older
STALE_WINDOW = 10  # how many of a person's newer statuses an older one is compared with
NEAR_DUPLICATE = 0.6
PR_GAIN = 3.0
FIGURE_GAIN = 1.5
DECISION_GAIN = 1.0

# Verbs that say something changed or was settled: such a sentence is news without a PR.
_is_decision = any_phrase((
    "fix(?:ed|es)?", "merged?", "landed", "lands", "shipped", "added", "adds", "moved",
    "switched", "decided", "root[- ]?caused", "found", "finished", "completed?", "released",
    "enabled", "disabled", "reverted", "upgraded", "migrated", "deprecated", "removed",
    "replaced", "launched", "started", "resolved", "filed", "opened", "closed", "validated",
    "confirmed", "proposed", "measured", "reached", "refactored", "published", "registered",
    r"now (?:\w+s|runs|has|is|uses)",
    # what a community announces: events, talks, openings
    "announced", "posted", "scheduled", "presenting", "presented", "showed", "hiring",
    "looking for an?",
))  # fmt: skip
# Openers of opinion, agreement and greeting: such a sentence is news only with a PR or a
# figure, however many people reacted to it ("Happy Friday everyone!").
_WEAK_OPENER_RE = re.compile(
    r"^(?:agree[ds]?|\+1|nice|sounds|makes sense|i (?:think|guess|assume|suppose|see)|maybe|"
    r"probably|not sure|would|could|should|wonder|hopefully|(?:it )?(?:looks like|seems)|sorry|"
    r"happy|welcome|i love|"
    r"good (?:morning|afternoon|evening|night)|have a (?:great|good|nice))\b",
    re.IGNORECASE,
)
# Chat's joke formats, whatever their figures: "me refreshing the dashboard for the next
# 40 days", "monday mood: ...".
_MEME_RE = re.compile(r"^(?:me (?:\w+ing|when|after|every)\b|\w+ mood\b)", re.IGNORECASE)
# Text a link's preview cut short ("... before we to… <url>"): half a sentence says nothing.
_TRUNCATED_RE = re.compile(r"\w…(?:\s+<?https?://\S+)*$")
# Said of the moment ("lunch is at noon today"): no news by the time a weekly summary is read.
_is_of_the_moment = any_phrase(
    ("today", "tonight", "this (?:morning|afternoon|evening)", "right now")
)
# ... unless it says when a change took effect ("as of today they are maintainers").
_TOOK_EFFECT_RE = re.compile(r"\b(?:as of|from|since|starting) today\b", re.IGNORECASE)
# Requests and suggestions: someone asking, not something done.
_is_request = any_phrase((
    "could (?:you|someone|somebody|anyone|we|i)", "should", "would you", "please",
    "can someone", "anyone", "use your eyes", "let me know",
    "if you (?:like|want|wish|are interested|.re interested)",
))  # fmt: skip
_ASKS_RE = re.compile(
    r"(?:please|let (?:me|us) know|(?:can|could|would) (?:you|someone|anyone)|any(?:one|body)\b)",
    re.IGNORECASE,
)
WEAK_PENALTY = 2.0
SIGNAL_WEIGHT = 1.0
# Chat starts sentences in lower case: "fixed in #12. the old path is gone." ("e.g. the" is
# one sentence).
_LOWER_START_RE = re.compile(
    r"\s(?<=[a-z0-9)\]][.!?]\s)(?<!e\.g\.\s)(?<!i\.e\.\s)(?<!vs\.\s)(?=[a-z])"
)
# ... or with an emoji where the stop would be: "there was a footgun 😬 The lm head got ...".
_SENTENCE_GAP_RE = re.compile(
    rf"{_LOWER_START_RE.pattern}|(?<=\w) ?(?:{EMOJI_RE.pattern})+ (?=[A-Z`])"
)
# ... or after a link: "the study: <url> they check which ..." (a link ends no sentence of its
# own: "see <url> for the numbers").
_LINK_THEN_SUBJECT_RE = re.compile(r"(https?://[^\s>]+>?) (?=(?:i|we|they|he|she|it|this) )")
# Closing parentheses that hold only PRs: "... ([#12](url "Title"), #13)."
_REF = r"(?:\[[^\]\n]*\]\([^()\s]*(?: \"[^\"\n]*\")?\)|[\w/.-]*#\d+)"  # a link may hold a title
_CLOSING_REFS_RE = re.compile(rf"\({_REF}(?:, {_REF})*\)\.$")
# A letter's sign-off ("Best,") or an address on a line of its own.
_SIGN_OFF_RE = re.compile(r"\w+,|\S+@\S+\.\w+")
# "How do I set a timeout per query?": what a how-to question asks how to do.
_HOW_TO_RE = re.compile(
    r"(?:how (?:do|can|should|would|could) (?:i|we|you|one)|is there a (?:good )?way to|"
    r"what(?:'s| is) the (?:best|right) way to) (?P<what>[^?\n]{3,120})\?",
    re.IGNORECASE,
)
_VAGUE_RE = re.compile(r"\b(?:that|this|it|these|those)\b", re.IGNORECASE)
# A link on a line of its own, and the preview a chat app shows for an image.
_LINK_LINE_RE = re.compile(r"<?(https?://[^\s>]+)>?")
_IMAGE_SIZE_RE = re.compile(r"\d+x\d+px image")
_BARE_LINK_RE = re.compile(r"<?https?://\S+>?\.?")
_LEADING_LINK_RE = re.compile(r"(<?https?://\S+?>?)[.,]?\s+(?=\S)")
# "<url> is a great place to ask": the link is the sentence's subject.
_LINK_AS_SUBJECT_RE = re.compile(
    r"(?:is|are|was|were|has|have|had|looks|seems|does|will|can|should|might|may)\b"
)
_ENDS_WITH_LINK_RE = re.compile(r"https?://\S+>?$")
_TAG_RE = re.compile(r"^(?:\s*\[[^\]\n]{1,20}\])+")  # "[draft] ", "[WIP]" opening a PR's title
# An identifier in a title: "load_tss", "Star::write", "feature(asm_const)", "entry_point!".
_CODE_WORD_RE = re.compile(r"[\w.:]*(?:_|::|\w\(\w*\))[\w.:()!]*(?<![.:])")
# Where a long sentence splits into clauses that stand on their own.
_CLAUSE_RE = re.compile(r"(?<=:) |; |, (?:and|while|but|so|plus) ")
# About 18 words per PR and 5 per figure, on top of a few sentences.
BASE_CHARS = 1000
CHARS_PER_PR = 80
CHARS_PER_FIGURE = 30
CHARS_PER_SIGNAL = 60  # an announcement, a link or a date people reacted to
RECAP_PRS = 3
RECAP_PR_GAIN = 1.0
FULL_SHARE = 0.85
# Short lines for the PRs the budget left out: at most one per this many characters of the
# draft's size, and never fewer than MIN_SHORT_LINES.
CHARS_PER_SHORT_LINE = 60
MIN_SHORT_LINES = 50
FILLER_SHARE = 0.5  # bullets with no new PR or figure fill at most this share of the budget


@dataclass(slots=True)
class _Fact:
    """A sentence that can carry a bullet."""

    text: str
    message: SourceMessage
    prs: tuple[PRMention, ...]
    figures: frozenset[str]
    words: frozenset[str]
    n_words: int
    decision: bool
    time: float
    gain: float  # what leading a bullet with it is worth (`_gain`)
    signal: float  # its own and its message's signs of news (`summarizer.signals`)
    answers: bool = False  # said in answer to another person's question


@dataclass(slots=True)
class _Bullet:
    """One work item as it would be written, with what it covers."""

    topic: str
    text: str | None  # the bullet as written; None until `markdown` writes it from `picked`
    prs: dict[str, PRMention]
    figures: frozenset[str]
    people: list[str]
    sources: list[str]
    signal: float  # what its messages' signals are worth (`summarizer.signals`)
    time: float
    author: str | None
    words: frozenset[str] = field(default_factory=frozenset)
    recap: bool = False  # led by a sentence listing many PRs
    picked: tuple[_Fact, ...] = ()  # the sentences the bullet is written from
    said: tuple[_Fact, ...] = ()  # every fact of the item, in the order they were said

    @property
    def pr_gain(self) -> float:
        """What citing one of its PRs is worth: less for a recap that lists them all."""
        return RECAP_PR_GAIN if self.recap else PR_GAIN

    @property
    def value(self) -> float:
        """What the bullet brings on its own: PRs, figures, and how people reacted."""
        return (
            self.pr_gain * len(self.prs)
            + FIGURE_GAIN * len(self.figures)
            + SIGNAL_WEIGHT * self.signal
        )

    @property
    def facts(self) -> tuple[_Fact, ...]:
        """What the item says, most telling first: the bullet's own sentences, then the rest
        (for drafters that write from the facts; worked out only when asked)."""
        return _item_facts(self.picked, self.said)

    @property
    def markdown(self) -> str:
        """The bullet, written the first time it is needed (most never are: a busy week has
        thousands of items and a draft keeps a hundred)."""
        if self.text is None:
            self.text = _render(self.picked, self.prs)
        return self.text

    @property
    def cost(self) -> int:
        """How long the bullet reads (written out to measure it)."""
        return max(visible_length(self.markdown), 40)

    @property
    def estimated_cost(self) -> int:
        """About how long the bullet reads, without writing it."""
        if self.text is not None:
            return self.cost
        said = " ".join(f.text for f in self.picked)
        names = sum(len(f.message.author) + 2 for f in self.picked)
        trailing = [label(m) for m in self.prs.values() if m.raw not in said]
        refs = sum(len(label) + 2 for label in trailing[:MAX_TRAILING_PRS])
        return max(len(said) + names + refs + 4, 40)


def draft_sections(
    grouped: Mapping[str, Sequence[SourceMessage]], topics: Sequence[Topic], max_chars: int
) -> list[Section]:
    """One section per non-empty topic, in topic order, within about `max_chars` of text.

    Introductions take the room they need (a line per newcomer). The other topics' bullets
    are chosen together, each topic's best first, then whatever covers the most new PRs
    and figures per character, until the budget is spent.
    """
    sections: dict[str, Section] = {}
    remaining = max_chars
    candidates: list[_Bullet] = []
    for topic in topics:
        messages = grouped.get(topic.id) or []
        if not messages:
            continue
        if topic.id == INTRODUCTIONS:
            sections[topic.id] = introductions(topic, messages)
            remaining -= visible_length(sections[topic.id].markdown)
        else:
            candidates += bullets(topic.id, messages)
    # Full bullets take most of the room; the PRs they leave out get a short line each.
    chosen = _choose(candidates, int(FULL_SHARE * min(remaining, _news_budget(candidates))))
    _cover_the_rest(candidates, chosen, max(MIN_SHORT_LINES, max_chars // CHARS_PER_SHORT_LINE))
    for topic in topics:
        if topic.id == INTRODUCTIONS or topic.id not in chosen:
            continue
        sections[topic.id] = _section(topic, chosen[topic.id])
    return [sections[t.id] for t in topics if t.id in sections and sections[t.id].markdown]


def _news_budget(candidates: Sequence[_Bullet]) -> int:
    """The room a week's news needs: a quiet week gets a short draft, not a padded one."""
    prs = {ref for bullet in candidates for ref in bullet.prs}
    figures = {f for bullet in candidates for f in bullet.figures}
    signalled = sum(1 for bullet in candidates if bullet.signal > 0)
    return (
        BASE_CHARS
        + CHARS_PER_PR * len(prs)
        + CHARS_PER_FIGURE * len(figures)
        + CHARS_PER_SIGNAL * signalled
    )


def _choose(candidates: Sequence[_Bullet], budget: int) -> dict[str, list[_Bullet]]:
    """The bullets to write, per topic: each topic's best, then by new coverage per cost.

    Lazy greedy: a bullet's gain only falls as others cover its PRs and figures, so the one
    on top of the heap is taken when its gain, brought up to date, still beats the next.
    """
    covered_prs: set[str] = set()
    covered_figures: set[str] = set()
    chosen: dict[str, list[_Bullet]] = {}
    costs = [b.estimated_cost for b in candidates]  # to rank; the real cost when taken
    # In a week with no PRs, what was done or announced is the news (`_is_decision`).
    chat_only = not any(bullet.prs for bullet in candidates)
    taken = [False] * len(candidates)
    used = 0

    def gain(i: int) -> float:
        bullet = candidates[i]
        return (
            bullet.pr_gain * len(bullet.prs.keys() - covered_prs)
            + FIGURE_GAIN * len(bullet.figures - covered_figures)
            + SIGNAL_WEIGHT * bullet.signal
            + DECISION_GAIN * (1 + (chat_only and _announces(bullet)))
        )

    def take(i: int) -> None:
        """Take bullet `i` if it really fits."""
        nonlocal used
        bullet = candidates[i]
        if used + bullet.cost > budget or not bullet.markdown:
            return  # (nothing it says reads as a newsletter's: `_cover_the_rest` may)
        chosen.setdefault(bullet.topic, []).append(bullet)
        covered_prs.update(bullet.prs)
        covered_figures.update(bullet.figures)
        used += bullet.cost
        taken[i] = True

    by_topic: dict[str, list[int]] = {}
    for i, bullet in enumerate(candidates):
        by_topic.setdefault(bullet.topic, []).append(i)
    for members in by_topic.values():
        take(max(members, key=gain))

    heap = [(-gain(i) / costs[i], costs[i], i) for i in range(len(candidates)) if not taken[i]]
    heapq.heapify(heap)
    while heap:
        _, cost, i = heapq.heappop(heap)
        ratio = gain(i) / cost
        if heap and ratio < -heap[0][0]:
            heapq.heappush(heap, (-ratio, cost, i))  # stale: others covered part of it
            continue
        bullet = candidates[i]
        news = (
            bullet.prs.keys() - covered_prs
            or bullet.figures - covered_figures
            or bullet.signal
            or chat_only
            and _announces(bullet)
        )
        if not news and used + cost > budget * FILLER_SHARE:
            continue  # nothing new to cite: only worth its words while the draft is short
        if used + cost <= budget:
            take(i)
        if used + 40 > budget:
            break  # not even the shortest bullet fits
    return chosen


def _announces(bullet: _Bullet) -> bool:
    """Whether the bullet leads with something done or announced (`_is_decision`)."""
    return bool(bullet.picked) and bullet.picked[0].decision


def _cover_the_rest(
    candidates: Sequence[_Bullet], chosen: dict[str, list[_Bullet]], max_lines: int
) -> None:
    """Every PR the week cites is in the draft: the items the budget left out that cite a PR
    no chosen bullet cites get one short line each (`_compact`), the most valuable first. A
    week citing more than `max_lines` such items (a giant one) lists the rest's PRs in one
    "Also cited" line per topic."""
    taken = {id(b) for bullets in chosen.values() for b in bullets}
    covered = {ref for bullets in chosen.values() for b in bullets for ref in b.prs}
    listed: dict[str, dict[str, PRMention]] = {}
    for bullet in sorted(candidates, key=lambda b: -b.value):
        if id(bullet) in taken or not bullet.prs.keys() - covered:
            continue
        short = _compact(bullet, covered) if max_lines > 0 else None
        if short is not None and short.markdown:
            chosen.setdefault(bullet.topic, []).append(short)
            covered.update(short.prs)
            max_lines -= 1
        elif max_lines <= 0:
            rest = listed.setdefault(bullet.topic, {})
            rest.update((ref, m) for ref, m in bullet.prs.items() if ref not in covered)
            covered.update(bullet.prs)
    for topic, prs in listed.items():
        # (plain refs: a giant week's list stays a fraction of its size with links)
        line = "- Also cited: " + ", ".join(label(m) for m in prs.values()) + "."
        listing = _Bullet(
            topic=topic,
            text=line,
            prs=prs,
            figures=frozenset(),
            people=[],
            sources=[],
            signal=0.0,
            time=0.0,
            author=None,
        )
        chosen.setdefault(topic, []).append(listing)


def _compact(bullet: _Bullet, covered: set[str]) -> _Bullet | None:
    """The item in one short line: its lead sentence when that is short and reads as a
    newsletter's, else its PRs' titles, else just "Also discussed"; the PRs it cites that
    the draft does not yet cite, and its author as the credit. None for a bot's item
    without titles."""
    new = {ref: m for ref, m in bullet.prs.items() if ref not in covered}
    text = ""
    for fact in _citing(bullet, new):
        author = fact.message.author
        said, subject = voiced(fact.text, author)
        first = next(iter(clean_sentences(said)), "")
        if len(first.split()) > COMPACT_WORDS:
            first = _clause_citing(first, [p for p in fact.prs if p.ref in new])
            subject = first.startswith(author)
        if first and len(first.split()) <= COMPACT_WORDS:
            if _says_little(first.removeprefix(f"{author}'s "), fact.prs):
                continue  # "Ana's #12 is merged.": its title says more
            text = full_stop(link_prs(first, [m for m in fact.message.prs if m.ref in new]))
            credit = [] if subject else [author]
            break
    if not text:
        titled = [(m, _title(m.title)) for m in new.values() if m.title]
        credit = [bullet.author] if bullet.author else []
        if titled:
            text = "; ".join(f"{t} ({link(m)})" for m, t in titled)
            text += "."
        elif credit:  # nothing it says can be published as it is: the editor fills it in
            text = "Also discussed."
        else:
            return None
    trailing = [link(m) for m in new.values() if m.raw not in text and f"[{m.ref}]" not in text]
    return _Bullet(
        topic=bullet.topic,
        text="- " + defuse_pings(_credited(text, trailing, credit)),
        prs=new,
        figures=frozenset(),
        people=[bullet.author] if bullet.author else [],
        sources=bullet.sources,
        signal=0.0,
        time=bullet.time,
        author=bullet.author,
    )


def _clause_citing(sentence: str, prs: Sequence[PRMention]) -> str:
    """The clause of a long sentence that cites one of `prs`, as a sentence of its own
    ("..., and the paths are locked (#8504)." -> "The paths are locked (#8504)."), or ""."""
    for clause in _CLAUSE_RE.split(sentence):
        if any(p.raw in clause for p in prs) and len(clause.split()) >= MIN_FACT_WORDS:
            return full_stop(capitalised(clause.strip().rstrip(".,;:")))
    return ""


def _citing(bullet: _Bullet, prs: Mapping[str, PRMention]) -> list[_Fact]:
    """The item's lead, then its other facts that cite one of `prs`, most telling first."""
    lead = bullet.picked[:1]
    others = [f for f in bullet.said if f not in lead and any(p.ref in prs for p in f.prs)]
    return [*lead, *sorted(others, key=lambda f: -f.gain)]


def _section(topic: Topic, bullets: Sequence[_Bullet]) -> Section:
    ordered = sorted(bullets, key=lambda b: (-b.value, b.time))
    cited: dict[str, None] = {}
    people: dict[str, None] = {}
    sources: dict[str, None] = {}
    for bullet in ordered:
        cited.update(dict.fromkeys(bullet.prs))
        people.update(dict.fromkeys(bullet.people))
        sources.update(dict.fromkeys(bullet.sources))
    return Section(
        topic=topic.id,
        title=topic.title,
        markdown="\n".join(b.markdown for b in ordered),
        prs=list(cited),
        people=list(people),
        sources=list(sources),
    )


# --- work items ----------------------------------------------------------------------------


def bullets(topic: str, messages: Sequence[SourceMessage]) -> list[_Bullet]:
    """Every work item of a topic written as a bullet; stale statuses give way to newer.
    (`summarizer.items` shows them to other drafters as plain data.)"""
    written = []
    for members in conversations(messages, by_pr=True):
        bullet = _item_bullet(topic, [messages[i] for i in members])
        if bullet is not None:
            written.append(bullet)
    return _drop_stale(written)


def _item_bullet(topic: str, item: Sequence[SourceMessage]) -> _Bullet | None:
    mentions = _mentions(item)
    times = [m.created_at.timestamp() for m in item]
    signals = [0.0 if m.is_bot else social_gain(m) for m in item]
    facts = _facts(item, times, signals)
    time = max(times)
    if not facts:
        return _bot_bullet(topic, item, mentions, time)
    picked = _pick(facts)
    lead = picked[0]
    if len(picked) == 1:  # most items (a busy week has tens of thousands: no copies)
        figures, words, people = lead.figures, lead.words, [lead.message.author]
    else:
        figures = frozenset().union(*(f.figures for f in picked))
        words = frozenset().union(*(f.words for f in picked))
        people = list(dict.fromkeys(f.message.author for f in sorted(picked, key=_time)))
    if len(item) == 1:
        sources = [item[0].id]  # the message the facts are from
    else:
        sources = [m.id for m in item if m.prs or any(f.message is m for f in picked)]
    return _Bullet(
        topic=topic,
        text=None,
        prs=mentions,
        figures=figures,
        people=people,
        sources=sources,
        signal=max(f.signal for f in picked),
        time=time,
        author=lead.message.author,
        words=words,
        recap=any(len(f.prs) > RECAP_PRS for f in picked),
        said=tuple(facts),
        picked=tuple(picked),
    )


def _facts(
    item: Sequence[SourceMessage], times: Sequence[float], signals: Sequence[float]
) -> list[_Fact]:
    """The item's sentences that say something: a PR, a figure or a decision, by a person,
    or the answer to another person's how-to question (`_how_to`).

    Questions, sentences that introduce a list or code block and chatter are left out; so
    are opinions without a PR or a figure. A PR no such sentence cites is said by the line
    that cites it: a list line, the line before a code block, or the line a bare link
    follows. `times` and `signals` are the messages' (see `summarizer.signals`)."""
    facts = []
    by_id = {m.id: m for m in item} if len(item) > 1 else {}
    last_in_thread: dict[str, SourceMessage] = {}
    previous: SourceMessage | None = None
    for message, time, signal in zip(item, times, signals, strict=True):
        before = last_in_thread.get(message.thread_id or "")
        if message.thread_id:
            last_in_thread[message.thread_id] = message
        # What it answers: the message it replies to, the one before it in its thread, or,
        # where nothing marks replies, the one before it in the item.
        unmarked = message.thread_id is None and message.reply_to_id is None
        asked = by_id.get(message.reply_to_id or "") or before or (previous if unmarked else None)
        previous = message
        if message.is_bot:
            continue
        if message.prs and by_id:
            answered = _answered_statement(message, asked, by_id)
            if answered is not None:
                facts.append(answered)
                continue
        how_to = _how_to(asked, message, time) if asked is not None else None
        if how_to is not None:
            facts.append(how_to)
            continue
        shows = shows_something(message.text)  # a link, a day, a release somewhere in it
        if not (shows or signal or _may_hold_a_fact(message)):
            continue
        # Reactions to a question or a poll are answers, not a sign of news (its first line
        # asks; a link's preview on the lines after it may quote a question).
        if signal and _asks(message.text.partition("\n")[0]):
            signal = 0.0
        found = [
            fact
            for sentence in _sentences(message.text)
            if (fact := _fact(sentence, message, time, signal=signal, shows=shows)) is not None
        ]
        if not found and shows:
            shared = _shared_link(message, time, signal)
            found = [shared] if shared is not None else []
        if asked is not None and asked.author != message.author and _asks(asked.text):
            for fact in found:
                fact.answers = True
        said = " ".join(f.text for f in found)
        missing = [p for p in message.prs if p.raw not in said]
        for line, cited in _pr_lines(message.text, missing).items():
            fact = _fact(line, message, time, signal=signal, shows=shows, cited=cited)
            if fact is not None:
                found.append(fact)
        facts += found
    return facts


def _shared_link(message: SourceMessage, time: float, signal: float) -> _Fact | None:
    """A link shared on its own, said with the title its preview gave it ("Shared
    ana/loader: <url>"); None for anything else (a bare link, an image)."""
    lines = [line.strip() for line in message.text.splitlines() if line.strip()]
    link = _LINK_LINE_RE.fullmatch(lines[0]) if len(lines) > 1 else None
    if link is None:
        return None
    title = lines[1].rstrip(".")
    if "://" in title or _IMAGE_SIZE_RE.fullmatch(title) or not any(c.isalpha() for c in title):
        return None
    text = f'Shared "{title}": {link[1]}'
    signal += text_gain(text)
    return _Fact(
        text,
        message,
        prs=(),
        figures=frozenset(),
        words=words(text),
        n_words=len(text.split()),
        decision=False,
        time=time,
        gain=SIGNAL_WEIGHT * signal,
        signal=signal,
    )


def _how_to(asked: SourceMessage, message: SourceMessage, time: float) -> _Fact | None:
    """Where `message` answers another person's "How do I ...?", the answer's first sentence
    under what was asked ("How to set a timeout per query: `.all(timeout=2)` raises ...");
    else None."""
    if asked.author == message.author or "?" not in asked.text:
        return None
    question = _HOW_TO_RE.match(asked.text.lstrip())
    if question is None or _VAGUE_RE.search(question["what"]):
        return None  # "How do we proceed with that?" names nothing
    said = next(iter(_sentences(message.text)), "")
    answer = without_pointing_label(clean_sentence(said)) if said else ""
    if (
        not MIN_FACT_WORDS <= len(answer.split()) <= MAX_FACT_WORDS
        or _WEAK_OPENER_RE.match(answer)
        or _is_request(answer)
    ):
        return None  # an opinion or a request does not answer in substance
    text = f"How to {question['what'].strip()}: {answer}"
    prs = tuple(p for p in message.prs if p.raw in text)
    return _Fact(
        text,
        message,
        prs=prs,
        figures=frozenset(find_figures(text)),
        words=words(text),
        n_words=len(text.split()),
        decision=True,  # a question settled
        time=time,
        gain=_gain(text, prs, frozenset(), True),
        signal=0.0,
    )


def _answered_statement(
    message: SourceMessage, asked: SourceMessage | None, by_id: Mapping[str, SourceMessage]
) -> _Fact | None:
    """Where `message` gives the PRs of a statement its author made earlier in the item
    ("Ad hoc checkpoints are in" - "which PR?" - "#8544, tracked under the epic"), the
    statement's first sentence citing them, when it says more than the answer; else None.
    `asked`: the message it answers (the one it replies to, or the one before it in its
    thread); the statement is that one when it is the author's own reply target, or, when
    that one is another person's question, what the question was asked about."""
    if asked is None:
        return None
    if asked.author == message.author:
        statement = asked if message.reply_to_id else None  # a thread goes on, not back
    elif "?" in asked.text:
        statement = by_id.get(asked.reply_to_id or asked.thread_id or "")
    else:
        return None
    if statement is None or statement.author != message.author or statement.prs:
        return None
    time = message.created_at.timestamp()
    for sentence in _sentences(statement.text):
        fact = _fact(sentence, statement, time, signal=0.0, shows=False, cited=message.prs)
        if fact is not None:
            return fact if fact.n_words > _own_words(message.text, message.prs) else None
    return None


def _pr_lines(text: str, mentions: Sequence[PRMention]) -> dict[str, tuple[PRMention, ...]]:
    """The lines citing `mentions`, list markers and a closing colon removed, each with the
    PRs it cites; a line that is only a link stands for the line before it."""
    if not mentions:
        return {}
    found: dict[str, list[PRMention]] = {}
    previous = ""
    for raw_line in strip_code_blocks(text).splitlines():
        line = without_list_mark(raw_line).strip().rstrip(":").strip()
        asked: list[PRMention] = []
        if "?" in line:
            # "Could someone look at #8446? The init reused ...": the question says nothing
            # of the PR, the rest of the line does (a line that only asks says nothing).
            said = [s for s in sentences(line) if not s.endswith("?")]
            asked = [p for p in mentions if p.raw in line and not any(p.raw in s for s in said)]
            line = " ".join(said)
            if not line:
                continue
        cited = [p for p in mentions if p.raw in line] + asked
        if cited:
            statement = line if _own_words(line, cited) >= MIN_PR_FACT_WORDS else previous
            if statement:
                found.setdefault(statement, []).extend(cited)
        elif len(line.split()) >= MIN_PR_FACT_WORDS:
            previous = line
    return {line: tuple(dict.fromkeys(cited)) for line, cited in found.items()}


def _may_hold_a_fact(message: SourceMessage) -> bool:
    """A cheap look at the whole message before its sentences are read: a fact needs a PR,
    a figure or a decision, and most chat has none."""
    return bool(message.prs or FIGURE_RE.search(message.text) or _is_decision(message.text))


def _sentences(text: str, *, list_intros: bool = False) -> Iterable[str]:
    """The message's prose sentences: no list lines, no code, nothing that introduces them
    (unless `list_intros`: then such a sentence is kept, as a statement). A short message
    is one statement and stays whole; in a longer one, a very short sentence ("Fix in
    #12.") is kept with the one before it."""
    kept: list[str] = []
    links: list[str] = []  # a bare link reads best after what it is about
    for line in chat_lines(text):
        for sentence in (part for s in sentences(line) for part in _split(s)):
            if _BARE_LINK_RE.fullmatch(sentence):
                links.append(sentence.rstrip("."))
                continue
            leading = _LEADING_LINK_RE.match(sentence)
            if leading and kept:
                # "I made this: <url> Let me know": the link shows what came before it.
                kept[-1] = f"{kept[-1].rstrip('.')} {leading.group(1)}"
                sentence = sentence[leading.end() :]
            elif leading and not _LINK_AS_SUBJECT_RE.match(sentence, leading.end()):
                # "<url> here is the thread on force layouts": the link shows what follows.
                links.append(leading.group(1))
                sentence = capitalised(sentence[leading.end() :])
            if list_intros and sentence.endswith(":"):
                sentence = full_stop(sentence[:-1].rstrip())
            if sentence.endswith((":", "?")) or is_acknowledgement(sentence):
                continue
            if _SIGN_OFF_RE.fullmatch(sentence):
                return _with_links(kept, links)  # what follows a sign-off is a signature
            if is_review_chatter(sentence) or _asks_only(sentence):
                continue
            after_link = kept and not sentence.endswith(".") and _ENDS_WITH_LINK_RE.search(kept[-1])
            if kept and len(sentence.split()) < (
                SIGNAL_FACT_WORDS if after_link else MIN_FACT_WORDS
            ):
                # A short line after a link is its title ("DataFest 2019 - May 3rd & 4th").
                kept[-1] = f"{kept[-1] if after_link else full_stop(kept[-1])} {sentence}"
            else:
                kept.append(sentence)
    return _with_links(kept, links)


def _split(sentence: str) -> list[str]:
    """`sentence` split where chat left out a stop (`_LOWER_START_RE`, `_SENTENCE_GAP_RE`;
    `_LINK_THEN_SUBJECT_RE` after a link)."""
    if sentence.isascii() and ":" not in sentence and ";" not in sentence:
        return _LOWER_START_RE.split(sentence)
    if "://" in sentence:
        sentence = _LINK_THEN_SUBJECT_RE.sub(r"\1\n", sentence)
        return [p for part in sentence.split("\n") for p in _gap_split(part)]
    return _gap_split(sentence)


def _gap_split(sentence: str) -> list[str]:
    """The slower pattern only where an emoji may be: without one they split alike."""
    if EMOJI_START_RE.search(sentence) is None:
        return _LOWER_START_RE.split(sentence)
    return _SENTENCE_GAP_RE.split(sentence)


def _asks(line: str) -> bool:
    """Whether `line` holds a question mark outside its links ("pulls?q=" asks nothing)."""
    return "?" in line and "?" in URL_RE.sub("", line)


def _asks_only(sentence: str) -> bool:
    """A sentence that opens with a request and cites and measures nothing ("Let me know
    what you think.")."""
    return bool(_ASKS_RE.match(sentence)) and not ("#" in sentence or FIGURE_RE.search(sentence))


def _with_links(kept: list[str], links: list[str]) -> list[str]:
    """The statements with the message's bare links after the last; a short message's
    statements as one."""
    if links and kept:
        kept[-1] = f"{kept[-1].rstrip('.')} {' '.join(links)}"
    if len(kept) > 1 and sum(len(k.split()) for k in kept) <= BULLET_WORDS:
        return [" ".join(full_stop(k) for k in kept)]
    return kept


def _fact(
    sentence: str,
    message: SourceMessage,
    time: float,
    *,
    signal: float,
    shows: bool,
    cited: tuple[PRMention, ...] = (),
) -> _Fact | None:
    """The sentence as a fact, or None: too short or too long, nothing it cites, measures
    or settles and no sign that people took it as news (`signal`: what people made of its
    message, none for a question's, see `summarizer.signals`; `shows`: whether its message
    has a link, a day or a release anywhere), or an opinion or a request without a PR or a
    figure. `cited`: the PRs it stands for, where they are not written in it (a link on the
    next line)."""
    text = clean_sentence(sentence)
    n_words = len(text.split())
    prs = tuple(p for p in message.prs if p.raw in text) if message.prs else ()
    prs += tuple(p for p in cited if p not in prs)
    # A release names its work item as a PR does: "v2.3.0 is out!" says enough.
    released = shows and names_release(text)
    if not (MIN_PR_FACT_WORDS if prs or released else MIN_FACT_WORDS) <= n_words <= MAX_FACT_WORDS:
        return None
    figures = frozenset(find_figures(text))
    decision = released or _is_decision(text)
    # The sentence's own link or day, and what people made of its message.
    signal += text_gain(sentence) if shows else 0.0
    if not prs and (_MEME_RE.match(text) or _TRUNCATED_RE.search(text)):
        return None
    if not prs and n_words < SIGNAL_FACT_WORDS and REPLY_OPENER_RE.match(text):
        return None  # a short answer ("yes, 10 minutes or so"): its figure is no news
    # What many people reacted to is news said briefly, whenever it happened (what they
    # were asked to do is not).
    strong = signal >= STRONG_SIGNAL and not says_to_the_reader(text)
    if not (prs or figures) and (
        not (
            decision
            or signal
            and _words_but_links(text) >= (MIN_FACT_WORDS if strong else SIGNAL_FACT_WORDS)
        )
        or _WEAK_OPENER_RE.match(text)
        or _is_request(text)
        or not strong
        and _is_of_the_moment(text)
        and not _TOOK_EFFECT_RE.search(text)
    ):
        return None
    gain = _gain(text, prs, figures, decision) + SIGNAL_WEIGHT * signal
    return _Fact(text, message, prs, figures, words(text), n_words, decision, time, gain, signal)


def _words_but_links(text: str) -> int:
    return sum(1 for word in text.split() if "://" not in word)


def _gain(text: str, prs: Sequence[PRMention], figures: frozenset[str], decision: bool) -> float:
    # A recap listing many PRs repeats the week's other items: it leads only if nothing
    # else can.
    pr_gain = PR_GAIN if len(prs) <= RECAP_PRS else RECAP_PR_GAIN
    value = pr_gain * len(prs) + FIGURE_GAIN * len(figures) + decision
    weak = ANAPHORA_RE.match(text) or _is_request(text)
    return value - WEAK_PENALTY * bool(weak)


def _pick(facts: Sequence[_Fact]) -> list[_Fact]:
    """The lead fact (most PRs and figures; of near-equals, one that does not answer
    another person's question, then the newest), and a second one that adds a PR, or a
    figure with what was done, while the bullet stays short."""
    # (An answer is about its question: "Core is fine ... with #291 in you don't need it".)
    lead = max(facts, key=lambda f: (f.gain, not f.answers, f.time))
    # A later sentence saying the same thing with fresher numbers replaces the lead.
    newer = [f for f in facts if f.time > lead.time and similarity(f.words, lead.words) >= STALE]
    if newer:
        lead = max(newer, key=lambda f: (f.gain, f.time))
    before = _said_before(lead, facts)
    if before:
        return [*before, lead]  # "It's a 535B MoE" needs what "it" is
    if len(facts) == 1:
        return [lead]
    picked = [lead]
    seen_prs = {p.ref for p in lead.prs}
    extra = [
        f
        for f in facts
        if f is not lead
        and lead.n_words + f.n_words <= BULLET_WORDS
        and ({p.ref for p in f.prs} - seen_prs or f.figures - lead.figures and f.decision)
        and similarity(f.words, lead.words) < NEAR_DUPLICATE
        and _joins(f, lead)
    ]
    if extra:
        picked.append(max(extra, key=lambda f: (f.gain, f.time)))
    return picked  # the lead first: what the item is about, then what the other adds


def _said_before(lead: _Fact, facts: Sequence[_Fact]) -> list[_Fact]:
    """The sentences its message says just before an anaphoric `lead` ("It's ...", "That
    ...", "Fixed in #405"), as facts: the one before it, and the one before that while
    the earlier is anaphoric too, as long as they say something and all stay one short
    bullet; else none."""
    if not points_back(lead.text):
        return []  # most leads: nothing more to read
    said = [clean_sentence(s) for s in _sentences(lead.message.text, list_intros=True)]
    # (A short message's sentences are one lead: it starts with one of them.)
    at = next((i for i, s in enumerate(said) if lead.text.startswith(s)), 0)
    before: list[_Fact] = []
    first, n_words = lead, len(said[at].split()) if said else 0
    while at and points_back(first.text):
        at -= 1
        text = said[at]
        n_words += len(text.split())
        if len(text.split()) < MIN_FACT_WORDS or n_words > BULLET_WORDS:
            return []
        first = next(
            (f for f in facts if f.message is lead.message and f.text == text), None
        ) or _context(text, lead)
        before.insert(0, first)
    return before


def _context(text: str, lead: _Fact) -> _Fact:
    """A sentence said before `lead` as a fact that only says what the lead is about."""
    return _Fact(
        text=text,
        message=lead.message,
        prs=tuple(p for p in lead.message.prs if p.raw in text),
        figures=frozenset(),
        words=words(text),
        n_words=len(text.split()),
        decision=False,
        time=lead.time,
        gain=0.0,  # it leads nothing
        signal=0.0,
    )


def _item_facts(picked: Sequence[_Fact], facts: Sequence[_Fact]) -> tuple[_Fact, ...]:
    """The item's facts, most telling first: the picked ones, then the rest by gain, without
    those an equally worded newer fact replaced (stale statuses)."""
    rest = [
        f
        for f in facts
        if all(f is not p for p in picked)
        and not any(g.time > f.time and similarity(g.words, f.words) >= STALE for g in facts)
    ]
    return (*picked, *sorted(rest, key=lambda f: (-f.gain, f.time)))


def _joins(fact: _Fact, lead: _Fact) -> bool:
    """A second sentence joins the lead when it reads as a sentence of the summary: the same
    person's, or another's that can be turned to the third person (not a labelled quote)."""
    author = fact.message.author
    if author == lead.message.author:
        return not ANAPHORA_RE.match(fact.text) or bool(fact.prs)
    return not is_fallback(third_person(fact.text, author), author)


def _time(fact: _Fact) -> float:
    return fact.time


def _render(picked: Sequence[_Fact], mentions: Mapping[str, PRMention]) -> str:
    """`- Ana Ruiz fixed X ([#12](...)). Ben Cho measured Y ([#13](...)).` Who did it leads
    where the sentence allows; otherwise the sentence stands and its author is credited in
    the closing parentheses. Sentences that would still read as chat are left out."""
    parts: list[str] = []
    credits: list[str] = []
    author = None
    said: set[str] = set()
    for fact in picked:
        sentence = fact.text if parts else without_pointing_label(fact.text)
        if fact.message.author == author:
            text, subject = tidy(sentence), False
        else:
            author = fact.message.author
            text, subject = voiced(sentence, author)
            if not subject:
                credits.append(author)
        kept = _newsletter_sentences(text, fact.prs)
        if subject and author not in kept:
            credits.append(author)  # the sentence naming them read as chat and went
        if _says_little((kept or fact.text).removeprefix(f"{author} "), fact.prs):
            # "Fix is #310.": the PRs' titles say what the chat does not.
            kept = "; ".join(f"{_title(p.title)} ({p.raw})" for p in fact.prs)
            credits.append(author)
        if kept:
            parts.append(full_stop(link_prs(kept, fact.message.prs)))
        # A PR the text cites in one form ("#12") is not cited again in another (its URL).
        said.update(p.ref for p in fact.message.prs if p.raw in kept)
    body = " ".join(parts)
    unsaid = [
        m
        for ref, m in mentions.items()
        if ref not in said and m.raw not in body and f"[{m.ref}]" not in body
    ][:MAX_TRAILING_PRS]
    if not body:
        return ""
    # Further PRs listed as bare numbers say nothing: those with a short title are said
    # by it (one further PR beside what the bullet says is only its citation).
    titled = [m for m in unsaid if _short_title(m)]
    if len(titled) < MIN_TITLED:
        titled = []
    if titled:
        body += " " + "; ".join(f"{_short_title(m)} ({link(m)})" for m in titled) + "."
    trailing = [link(m) for m in unsaid if m not in titled]
    return "- " + defuse_pings(_credited(body, trailing, list(dict.fromkeys(credits))))


def _says_little(text: str, prs: Sequence[PRMention]) -> bool:
    """Whether `text` cites titled `prs` with too few words of its own to say what they do."""
    if not prs or not all(p.title for p in prs):
        return False
    return _own_words(text, prs) < MIN_FACT_WORDS


def _own_words(text: str, prs: Sequence[PRMention]) -> int:
    """How many words `text` says beside its citations of `prs`."""
    for mention in prs:
        text = text.replace(mention.raw, "")
    return len(text.split())


def _short_title(mention: PRMention) -> str:
    """The PR's title as `_title` writes it, where it has at most `TITLE_WORDS` words."""
    title = _title(mention.title)
    return title if len(title.split()) <= TITLE_WORDS else ""


def _title(title: str | None) -> str:
    """A PR's title as a newsletter writes it: no "[draft]" tag, code set apart, a capital
    first and no closing stop; "" for none."""
    title = _TAG_RE.sub("", title or "").strip().rstrip(".")
    if "`" not in title:  # titles name code bare
        title = _CODE_WORD_RE.sub(r"`\g<0>`", title)
    return capitalised(title)


def _credited(text: str, links: Sequence[str], people: Sequence[str]) -> str:
    """`text` with its further PR links and its people's names in closing parentheses, in
    the ones that already close it when they hold a PR ("... ([#12](...), Ana Ruiz).")."""
    extra = [*links, *people]
    if extra and text.endswith(").") and _CLOSING_REFS_RE.search(text):
        return f"{text[:-2]}, {', '.join(extra)})."
    text = with_refs(text, extra)
    return text if text.endswith((".", "!")) else text + "."


def _newsletter_sentences(text: str, prs: Sequence[PRMention]) -> str:
    """The sentences of `text` worth their words: the first, then those adding a PR or a
    figure while the bullet stays short, and any other while it is very short and says
    nothing to the reader; none that read as chat. `prs`: those the text cites."""
    kept: list[str] = []
    n_words = 0
    for sentence in clean_sentences(text):
        size = len(sentence.split())
        news = _cites_or_measures(sentence, prs)
        if kept and not (n_words + size <= (BULLET_WORDS if news else SHORT)):
            continue
        if kept and not news and "://" not in sentence and says_to_the_reader(sentence):
            continue  # "If you read the totals last week, don't trust them": adds nothing
        kept.append(sentence)
        n_words += size
    return " ".join(kept)


def _cites_or_measures(sentence: str, prs: Sequence[PRMention]) -> bool:
    return bool(
        "#" in sentence
        or "/pull/" in sentence
        or FIGURE_RE.search(sentence)
        or any(p.raw in sentence for p in prs)
    )


def _bot_bullet(
    topic: str,
    item: Sequence[SourceMessage],
    mentions: Mapping[str, PRMention],
    time: float,
) -> _Bullet | None:
    """A line for PRs only an integration bot mentioned: their titles, credited to the
    person the post names, never to the bot."""
    reported = _bot_items(item)
    lines = []
    people: dict[str, None] = {}
    for ref, mention in mentions.items():
        number = ref.rpartition("#")[2]
        known = reported.get(number)
        title = mention.title or (known.title if known else None)
        if not title:
            continue
        person = known.person if known and known.person else None
        credit = f", {person}" if person else ""
        lines.append(f"{_title(title)} ({link(mention)}{credit})")
        if person:
            people[person] = None
    if not lines:
        return None
    return _Bullet(
        topic=topic,
        text="- " + defuse_pings("; ".join(lines)) + ".",
        prs=dict(mentions),
        figures=frozenset(),
        people=list(people),
        sources=[m.id for m in item if m.prs],
        signal=0.0,
        time=time,
        author=None,
    )


def _bot_items(item: Sequence[SourceMessage]) -> dict[str, IntegrationItem]:
    """PR number -> what integration posts say of it (`summarizer.integrations`)."""
    reported: dict[str, IntegrationItem] = {}
    for message in item:
        if message.is_bot:
            for found in integration_items(message.text):
                reported.setdefault(found.number, found)
    return reported


def _drop_stale(bullets: list[_Bullet]) -> list[_Bullet]:
    """A status replaced by a newer one from the same person on the same subject goes; its
    PRs are kept on the newer bullet. Only the person's `STALE_WINDOW` next statuses are
    compared: an update follows what it replaces within days, not hundreds of items later."""
    kept: list[_Bullet] = []
    by_author: dict[str, list[_Bullet]] = {}
    for bullet in sorted(bullets, key=lambda b: -b.time):
        recent = by_author.setdefault(bullet.author, []) if bullet.author else []
        newer = next(
            (k for k in reversed(recent[-STALE_WINDOW:]) if _same_subject(k, bullet)), None
        )
        if newer is None:
            kept.append(bullet)
            recent.append(bullet)
            continue
        lost = [m for ref, m in bullet.prs.items() if ref not in newer.prs]
        if lost:  # cited after the newer bullet's sentences when it is written
            newer.prs.update((m.ref, m) for m in lost)
        newer.sources += [s for s in bullet.sources if s not in newer.sources]
    return sorted(kept, key=lambda b: b.time)


def _same_subject(newer: _Bullet, older: _Bullet) -> bool:
    """Two statuses of one thing: similar words, or a shared figure and a shared long word
    ("backfill at 1.42B of 1.9B" and later "backfill finished: 1.9B")."""
    if similarity(newer.words, older.words) >= STALE:
        return True
    if not newer.figures & older.figures:
        return False
    return any(len(w) >= 5 and w.isalpha() for w in newer.words & older.words)


def _mentions(item: Sequence[SourceMessage]) -> dict[str, PRMention]:
    """Every PR the item cites, people's mentions before bots' (theirs carry titles)."""
    seen: dict[str, PRMention] = {}
    for message in sorted(item, key=lambda m: m.is_bot):
        for mention in message.prs:
            known = seen.get(mention.ref)
            if known is None or (known.title is None and mention.title):
                seen[mention.ref] = mention
    return seen


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
                f"{link(p)} {p.title}" + (f" ({p.author})" if p.author else "") for p in prs
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
