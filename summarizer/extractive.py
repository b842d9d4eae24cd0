"""The default drafter: offline and deterministic, one bullet per work item.

A work item is a conversation (a thread, a reply chain, or conversations citing the same PR)
that changed or announced something: `summarizer.facts` finds what it says that is news (a
PR, a figure, a decision, or a message people took as news) and `summarizer.bullets` writes
it as one bullet in a newsletter's voice. Here the bullets are chosen: within the length
budget, those that cover the most PRs, figures and signals per word; every PR the budget
left out then gets one short line, so no PR the week cites is dropped to fit. Introductions
get one line per newcomer (`summarizer.introductions`).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from summarizer.bullets import (
    Bullet,
    bullets,
    credited,
    pr_title,
    says_little,
    says_something,
    settled,
    with_author,
)
from summarizer.facts import FIGURE_GAIN, MIN_FACT_WORDS, SIGNAL_WEIGHT, Fact
from summarizer.grouping import answered_id, introductions_topic, is_self_introduction
from summarizer.introductions import introductions, is_welcome
from summarizer.logins import members_by_login
from summarizer.newsletter import capitalised, clean_sentences, dated, voiced
from summarizer.prlinks import label, link, link_prs
from summarizer.text import defuse_pings, full_stop, listed, visible_length
from summarizer.types import PRMention, Section, SourceMessage, Topic

COMPACT_WORDS = 30  # an item the budget left out is said in one sentence this short
DECISION_GAIN = 1.0

# Where a long sentence splits into clauses that stand on their own.
_CLAUSE_RE = re.compile(r"(?<=:) |; |, (?:and|while|but|so|plus) ")
# About 18 words per PR and 5 per figure, on top of a few sentences.
BASE_CHARS = 1000
CHARS_PER_PR = 80
CHARS_PER_FIGURE = 30
CHARS_PER_SIGNAL = 60  # an announcement, a link or a date people reacted to
CHARS_PER_TOLD = 180  # ... and three times that where it cites no PR and says something: an
# announcement, an event or a decision takes an editor two or three sentences
TOLD_SIGNAL = 1.5  # ... taken up by someone (a link or a day alone is 1.0)
FULL_SHARE = 0.85
# Short lines for the PRs the budget left out: at most one per this many characters of the
# draft's size, and never fewer than MIN_SHORT_LINES.
CHARS_PER_SHORT_LINE = 60
MIN_SHORT_LINES = 50
MIN_RANKED_COST = 100
QUIP_WORDS = 12  # a remark shorter than this that says nothing of its own is a quip
FILLER_SHARE = 0.5  # bullets with no new PR or figure fill at most this share of the budget


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
    candidates: list[Bullet] = []
    intro = introductions_topic(topics)
    welcomed: list[Section] = []  # the newcomers' lines of each topic, where none is theirs
    introduced: set[str] = set()  # (each newcomer once, where they first said who they are)
    members = members_by_login(m for messages in grouped.values() for m in messages)
    # (where no topic is the newcomers', a reply's welcome may be in any)
    by_id = {m.id: m for ms in grouped.values() for m in ms} if intro is None else {}
    for topic in topics:
        messages = grouped.get(topic.id) or []
        if not messages:
            continue
        if topic is intro:
            sections[topic.id] = introductions(topic, messages)
            remaining -= visible_length(sections[topic.id].markdown)
            continue
        if intro is None:
            # (a reply introduces where it answers a welcome, wherever that was placed; the
            # newcomers are said where they were welcomed: "our three newest docents")
            newcomers = [
                m
                for m in messages
                if m.author not in introduced
                and is_self_introduction(m, answered=by_id.get(answered_id(m) or ""))
            ]
            introduced.update(m.author for m in newcomers)
            if newcomers:
                welcomed.append(introductions(topic, newcomers))
                remaining -= visible_length(welcomed[-1].markdown)
                messages = [m for m in messages if m not in newcomers]
        candidates += bullets(topic.id, messages, members)
    candidates = settled(candidates)
    # Full bullets take most of the room; the PRs they leave out get a short line each.
    needed = _news_budget(candidates)
    # (the room for told news is not room for filler: `FILLER_SHARE` is of the rest)
    filler = FILLER_SHARE * FULL_SHARE * min(remaining, needed)
    needed += _told_room(candidates)
    chosen = _choose(candidates, int(FULL_SHARE * min(remaining, needed)), filler)
    _cover_the_rest(candidates, chosen, max(MIN_SHORT_LINES, max_chars // CHARS_PER_SHORT_LINE))
    for topic in topics:
        if topic is intro or topic.id not in chosen:
            continue
        sections[topic.id] = _section(topic, chosen[topic.id])
    for lines in welcomed:
        if lines.markdown:
            sections[lines.topic] = _with_lines(sections.get(lines.topic), lines)
    return [sections[t.id] for t in topics if t.id in sections and sections[t.id].markdown]


def _with_lines(section: Section | None, lines: Section) -> Section:
    """`section` with the `lines` of another drafted for its topic after its own."""
    if section is None or not section.markdown:
        return lines
    return replace(
        section,
        markdown=f"{section.markdown}\n{lines.markdown}",
        prs=list(dict.fromkeys([*section.prs, *lines.prs])),
        people=list(dict.fromkeys([*section.people, *lines.people])),
        sources=[*section.sources, *lines.sources],
    )


def _news_budget(candidates: Sequence[Bullet]) -> int:
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


def _told_room(candidates: Sequence[Bullet]) -> int:
    """The room for news told without a PR that people took up (an event, a decision, a
    release, a result): a community's week of such news is as long as one of PRs."""
    told = sum(1 for b in candidates if b.signal >= TOLD_SIGNAL and not b.prs and says_something(b))
    return CHARS_PER_TOLD * told


def _choose(candidates: Sequence[Bullet], budget: int, filler: float) -> dict[str, list[Bullet]]:
    """The bullets to write, per topic: each topic's best, then by new coverage per cost,
    those that bring nothing new only while the draft is shorter than `filler`.

    Lazy greedy: a bullet's gain only falls as others cover its PRs and figures, so the one
    on top of the heap is taken when its gain, brought up to date, still beats the next.
    """
    covered_prs: set[str] = set()
    covered_figures: set[str] = set()
    chosen: dict[str, list[Bullet]] = {}
    # (to rank, any bullet costs at least `MIN_RANKED_COST`: by worth per character alone, a
    # two-reaction quip of 60 characters outranks a 200-character decision with 24)
    costs = [max(b.estimated_cost, MIN_RANKED_COST) for b in candidates]
    # In a week with no PRs, what was done or announced is the news (`Fact.decision`).
    chat_only = not any(bullet.prs for bullet in candidates)
    # (what people reacted to in a quip is the joke: it is filler, ranked by what it says)
    quips = [_quip(bullet) for bullet in candidates]
    taken = [False] * len(candidates)
    used = 0

    def gain(i: int) -> float:
        bullet = candidates[i]
        return (
            bullet.pr_gain * len(bullet.prs.keys() - covered_prs)
            + FIGURE_GAIN * len(bullet.figures - covered_figures)
            + SIGNAL_WEIGHT * bullet.signal * (not quips[i])
            + DECISION_GAIN * (1 + (chat_only and _announces(bullet)))
        )

    def take(i: int) -> None:
        """Take bullet `i` if it really fits."""
        nonlocal used
        bullet = candidates[i]
        if used + bullet.cost > budget or not bullet.markdown or _said_by_others(bullet):
            return  # (nothing it says reads as a newsletter's: `_cover_the_rest` may)
        chosen.setdefault(bullet.topic, []).append(bullet)
        covered_prs.update(bullet.prs)
        covered_figures.update(bullet.figures)
        used += bullet.cost
        taken[i] = True

    def _said_by_others(bullet: Bullet) -> bool:
        """A bot's line for PRs that bullets already taken say (the person's own words)."""
        return (
            bullet.author is None
            and not (bullet.released or bullet.pushed)
            and bool(bullet.prs)
            and bullet.prs.keys() <= covered_prs
        )

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
            and not _only_pasted(bullet)
            and not quips[i]
            or bullet.pushed
            or chat_only
            and _announces(bullet)
        )
        if not news and used + cost > filler:
            continue  # nothing new to cite: only worth its words while the draft is short
        if used + cost <= budget:
            take(i)
        if used + 40 > budget:
            break  # not even the shortest bullet fits
    return chosen


def _only_pasted(bullet: Bullet) -> bool:
    """Whether all the bullet says is a link pasted on its own that nobody took up: news
    only while the draft is short, as a message that shows nothing new is."""
    return bool(bullet.picked) and all(fact.pasted for fact in bullet.picked)


def _quip(bullet: Bullet) -> bool:
    """Whether the bullet is a short remark that says nothing of its own (`says_something`:
    "Saturday night hw3 gang rise up"): what people reacted to is the joke."""
    return (
        bool(bullet.picked)
        and sum(f.n_words for f in bullet.picked) < QUIP_WORDS
        and not says_something(bullet)
        and not is_welcome(bullet.picked[0].message)  # (who joined is news)
    )


def _announces(bullet: Bullet) -> bool:
    """Whether the bullet leads with something done or announced (`Fact.decision`)."""
    return bool(bullet.picked) and bullet.picked[0].decision


def _cover_the_rest(
    candidates: Sequence[Bullet], chosen: dict[str, list[Bullet]], max_lines: int
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
        listing = Bullet(
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


def _compact(bullet: Bullet, covered: set[str]) -> Bullet | None:
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
            if says_little(first.removeprefix(f"{author}'s "), fact.prs):
                continue  # "Ana's #12 is merged.": its title says more
            said = dated(first, fact.message.created_at)
            text = full_stop(link_prs(said, [m for m in fact.message.prs if m.ref in new]))
            credit = [] if subject else [author]
            break
    if not text:
        titled = [(m, pr_title(m.title)) for m in new.values() if m.title]
        # (where GitHub or a bot's post says who wrote each PR, they are its credit)
        known = titled and all(m.author for m, _ in titled)
        credit = [bullet.author] if bullet.author and not known else []
        if titled:
            text = "; ".join(f"{t} ({with_author(m)})" for m, t in titled)
            text += "."
        elif credit:  # nothing it says can be published as it is: the editor fills it in
            text = "Also discussed."
        else:
            return None
    trailing = [link(m) for m in new.values() if m.raw not in text and f"[{m.ref}]" not in text]
    return Bullet(
        topic=bullet.topic,
        text="- " + defuse_pings(credited(text, trailing, credit)),
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


def _citing(bullet: Bullet, prs: Mapping[str, PRMention]) -> list[Fact]:
    """The item's lead, then its other facts that cite one of `prs`, most telling first."""
    lead = bullet.picked[:1]
    others = [f for f in bullet.said if f not in lead and any(p.ref in prs for p in f.prs)]
    return [*lead, *sorted(others, key=lambda f: -f.gain)]


def _section(topic: Topic, bullets: Sequence[Bullet]) -> Section:
    ordered = _links_together(_in_order(bullets))
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
        markdown="\n".join(_opened(b.markdown) for b in ordered),
        prs=list(cited),
        people=list(people),
        sources=list(sources),
    )


def _opened(line: str) -> str:
    """A bullet's line with its first word capitalised, as a sentence starts: a person's
    name written in lower case where it opens the line ("javier's team launched ...")."""
    return "- " + capitalised(line[2:]) if line.startswith("- ") else line


def _in_order(bullets: Sequence[Bullet]) -> list[Bullet]:
    """The most telling first; the bullets of an announcement said a paragraph each
    (`Bullet.part`) together, in its order, where its most telling one would be."""
    announced = {b.sources[0] for b in bullets if b.part}
    value = {
        source: max(b.value for b in bullets if b.sources[:1] == [source]) for source in announced
    }

    def rank(bullet: Bullet) -> tuple[float, float, int]:
        first = bullet.sources[0] if bullet.sources else ""
        return (-value.get(first, bullet.value), bullet.time, bullet.part)

    return sorted(bullets, key=rank)


# A bullet that only says a person shared a link (`summarizer.facts._shared_link`).
_SHARED_RE = re.compile(r'^- (?P<author>[^"\n]+?) shared (?P<title>"[^"\n]+"): (?P<link><\S+>)\.$')


def _links_together(bullets: Sequence[Bullet]) -> list[Bullet]:
    """The links one person shared on their own said in one line, where the first of them
    stood: 'Ana Ruiz shared "Tide tables" (<url>) and "Knot atlas" (<url>).'"""
    shares: dict[str, list[tuple[int, re.Match[str]]]] = {}
    for index, bullet in enumerate(bullets):
        if (match := _SHARED_RE.match(bullet.markdown)) is not None:
            shares.setdefault(match["author"], []).append((index, match))
    together = {index: bullet for index, bullet in enumerate(bullets)}
    for author, group in shares.items():
        if len(group) < 2:
            continue
        (first, _), *rest = group
        links = [f"{match['title']} ({match['link']})" for _, match in group]
        together[first] = replace(
            bullets[first],
            text=f"- {author} shared {listed(links)}.",
            sources=[source for index, _ in group for source in bullets[index].sources],
        )
        for index, _ in rest:
            del together[index]
    return list(together.values())


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
