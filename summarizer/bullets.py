"""A work item written as one bullet (`Bullet`): its lead fact, and a second one that adds a
PR or a figure, in a newsletter's voice (`summarizer.newsletter`): who did it as the subject
or as the credit, with the item's figures and every PR it cites. What would still read as
chat is left out, never quoted. Integration bots are never quoted as people: their posts lend
titles and credit the person they name (`summarizer.integrations`). A status replaced by a
newer one from the same person gives way to it.
"""

from __future__ import annotations

import calendar
import re
from bisect import bisect_left
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from summarizer.conversations import conversations
from summarizer.corrections import FIRST_REPORTED, opens_as_correction
from summarizer.facts import (
    BULLET_WORDS,
    FIGURE_GAIN,
    LIST_LINE_RE,
    MAX_FACT_WORDS,
    MIN_FACT_WORDS,
    PR_GAIN,
    PR_NUMBER_RE,
    RECAP_PR_GAIN,
    RECAP_PRS,
    SIGNAL_FACT_WORDS,
    SIGNAL_WEIGHT,
    STRONG_SIGNAL,
    Fact,
    find_facts,
    only_points,
    own_words,
    statements,
    words_but_links,
)
from summarizer.figures import FIGURE_RE, VERSION_RE, find_figures, version_key
from summarizer.integrations import IntegrationItem, integration_items, post_repo, releases
from summarizer.logins import login_key, member_named
from summarizer.newsletter import as_team, capitalised, clean_sentences, dated, tidy, voiced
from summarizer.phrasing import (
    ANAPHORA_RE,
    REPLY_OPENER_RE,
    clean_sentence,
    is_fallback,
    opens_without_subject,
    points_back,
    third_person,
    without_pointing_label,
)
from summarizer.previews import LINK_RE, MAX_TITLE_WORDS, page_title, written
from summarizer.prlinks import label, link, link_prs, with_refs
from summarizer.pushes import commit_digests
from summarizer.signals import (
    THANKED_GAIN,
    dates_named,
    is_announcement,
    is_feed_post,
    is_report_post,
    names_day,
    names_release,
    shows_something,
    social_gain,
    text_gain,
    thanked_answers,
)
from summarizer.termmodel import STOPWORDS
from summarizer.text import (
    CLOCK_RE,
    INLINE_ITEM_WORDS,
    defuse_pings,
    full_stop,
    holds_any,
    holds_word,
    listed,
    says_to_the_reader,
    sentences,
    similarity,
    visible_length,
    without_list_mark,
    words,
)
from summarizer.types import PRMention, SourceMessage
from summarizer.voice import CODE_SPAN_RE, EMOJI_RE

SHOWCASED_GAIN = 2.0  # a thread's reply this many people took up (7 reactions) stands apart
TITLE_WORDS = 8  # a headline this short is the title of what its message says
HEADLINE_NEW_WORDS = 3  # ... and heads the bullet where it says this many words more
MIN_PARAGRAPHS = 3  # an announcement this long may say several things, a bullet each
NEWS_LIST_ITEMS = 3  # a list with this many facts among its items says them one by one
_PLAIN_WORD_RE = re.compile(r"\w+(?:[.'-]\w+)*")
_MINOR_RE = re.compile(r"\bv?\d+\.\d+\b")
# A courtesy opening a sentence ("Thanks to Bo for the forms"; signals reads an asker's thanks)
# A courtesy or a request to the chat, not news: "Thanks to Ana for hosting", "Sorry all",
# "Welcome to the contributors list Noor!", "Thoughts in thread pls".
_COURTESY_RE = re.compile(
    r"(?:big |many |special )?(?:thanks|thank you)\b|sorry\b|welcome\b|.*\b(?:pls|plz)\W*$",
    re.IGNORECASE,
)
SHORT = 25  # a sentence with no PR or figure of its own joins only a bullet this short
MAX_TRAILING_PRS = 8
MIN_TITLED = 2  # from this many further PRs with titles on, the titles say them
PR_TITLE_WORDS = 12  # a further PR's title this short says it; a longer one is only linked
STALE = 0.3  # same author, same topic, this similar: the newer status replaces the older
STALE_WINDOW = 10  # how many of a person's newer statuses an older one is compared with
NEAR_DUPLICATE = 0.6
UPDATED_WORDS = 90  # a bullet and its author's later correction, said together
LAID_OUT_TIMES = 3  # an announcement giving this many dates or times lays out an event ...
ANNOUNCED_WORDS = 45  # ... whose bullet says this much of it
QUESTION_SAID_AGAIN = 2  # an answer saying this many of its question's words needs no question
MIN_SHARED = 4  # (letters of a word that counts)
SCHEDULE_LINE_WORDS = 15  # ... and this much more for each of its lines saying when
UPDATE_SIMILARITY = 0.05  # ... where the correction shares a few words with what it corrects

# Closing parentheses that hold only PRs: "... ([#12](url "Title"), #13)."
_REF = r"(?:\[[^\]\n]*\]\([^()\s]*(?: \"[^\"\n]*\")?\)|[\w/.-]*#\d+)"  # a link may hold a title
_CLOSING_REFS_RE = re.compile(rf"\({_REF}(?:, {_REF})*\)\.$")
_TAG_RE = re.compile(r"^(?:\s*\[[^\]\n]{1,20}\])+")  # "[draft] ", "[WIP]" opening a PR's title
# A conventional commit's type: "ci: bound setup time", "fix(idt): correct messages".
_COMMIT_TYPE_RE = re.compile(
    r"^(?:feat|fix|docs|ci|chore|refactor|perf|test|tests|build|style|revert)(?:\([^)\n]{1,30}\))?!?:\s+"
)
_WORD_RE = re.compile(r"[^\W\d_]+")
# An identifier in a title: "load_tss", "Star::write", "feature(asm_const)", "entry_point!".
# (an argument holds what it holds: "read_csv(engine="legacy")" is one)
_CODE_WORD_RE = re.compile(r"[\w.:]*(?:_|::|\w\([^()\s]*\))(?:\([^()\s]*\)|[\w.:!])*(?<![.:])")


@dataclass(slots=True)
class Bullet:
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
    pushed: bool = False  # commits an integration bot reports pushed (`summarizer.pushes`)
    picked: tuple[Fact, ...] = ()  # the sentences the bullet is written from
    released: tuple[str, ...] = ()  # the releases an integration bot reports (`_release_bullet`)
    part: int = 0  # which paragraph of an announcement said a bullet each (`_item_bullets`)
    said: tuple[Fact, ...] = ()  # every fact of the item, in the order they were said
    ended: str = ""  # "merged": what became of the PRs it says are waiting (`_ended`)
    series: str = ""  # a bot's reports of one kind, the latest the news (`_report_bullet`)

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
    def facts(self) -> tuple[Fact, ...]:
        """What the item says, most telling first: the bullet's own sentences, then the rest
        (for drafters that write from the facts; worked out only when asked)."""
        return _item_facts(self.picked, self.said)

    @property
    def markdown(self) -> str:
        """The bullet, written the first time it is needed (most never are: a busy week has
        thousands of items and a draft keeps a hundred)."""
        if self.text is None:
            self.text = _render(self.picked, self.prs, self.said)
            if self.ended:  # ("#12 is ready for review" said Monday, merged Thursday)
                self.text = _PENDING_RE.sub(rf"\g<be> {self.ended}", self.text, count=1)
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


def bullets(
    topic: str, messages: Sequence[SourceMessage], members: Mapping[str, str]
) -> list[Bullet]:
    """Every work item of a topic written as a bullet; stale statuses give way to newer.
    Commits pushed outside any PR get a line per repository (`summarizer.pushes`).
    `members`: the week's people by the GitHub logins a bot's post may name them by
    (`members_by_login`). (`summarizer.items` shows them to other drafters as plain data.)"""
    written = []
    for conversation in conversations(messages, by_pr=True):
        for item in _showcased_apart([messages[i] for i in conversation]):
            written += _item_bullets(topic, item, members)
    digests = [
        Bullet(
            topic=topic,
            text=digest.text,
            prs={},
            figures=frozenset(),
            people=digest.people,
            sources=digest.sources,
            signal=0.0,
            time=digest.time,
            author=None,
            pushed=True,
        )
        for digest in commit_digests(messages, members)
    ]
    return _counted_on(_drop_stale(written)) + digests


# A count said to be running: "sign-up count so far: 46 teams", "currently at 12 speakers".
_RUNNING_RE = re.compile(r"\b(?:so far|currently at|as of now|for now)\b", re.IGNORECASE)


def _counted_on(bullets: list[Bullet]) -> list[Bullet]:
    """`bullets` (in time order) without a running count that one of the `STALE_WINDOW`
    bullets after it counts on, whoever posts it ("sign-up count so far: 46 teams" before
    "sign-ups after the reveal: 58 teams"); its PRs and sources are kept on the later one."""
    gone: set[int] = set()
    for i, count in enumerate(bullets):
        if not (count.figures and count.picked and _RUNNING_RE.search(count.picked[0].text)):
            continue  # (most bullets)
        units = {_unit_of(f) for f in count.figures} - {""}
        later = next(
            (
                b
                for b in bullets[i + 1 : i + 1 + STALE_WINDOW]
                if b.time > count.time
                and any(_unit_of(f) in units and f not in count.figures for f in b.figures)
            ),
            None,
        )
        if later is not None:
            gone.add(id(count))
            later.prs.update((r, m) for r, m in count.prs.items() if r not in later.prs)
            later.sources += [s for s in count.sources if s not in later.sources]
    return [b for b in bullets if id(b) not in gone]


def _unit_of(figure: str) -> str:
    """What a figure counts: "teams" of "46 teams"; "" for a bare number."""
    return figure.rpartition(" ")[2].lower() if " " in figure else ""


def _showcased_apart(item: list[SourceMessage]) -> list[list[SourceMessage]]:
    """The conversation, and apart from it each reply in its thread that many people took up
    on its own for what it shows, a link, a day or a release ("mine: nightjar, a dark-first
    theme for dev blogs <url>" under "theme showcase time? post yours in the thread"): news
    of its own, not a line of the thread's bullet."""
    if len(item) < 3:
        return [item]  # (most conversations)
    root = item[0]
    apart = [
        m
        for m in item[1:]
        if m.thread_id == root.id
        and not m.prs
        and social_gain(m) >= SHOWCASED_GAIN
        and shows_something(m.text)  # (what it shows: "Nobody was hurt" is support)
    ]
    if not apart:
        return [item]
    return [[m for m in item if m not in apart], *([m] for m in apart)]


def settled(bullets: list[Bullet]) -> list[Bullet]:
    """The week's bullets, of every topic, without those later ones replace: a bot's report
    said again (`_latest_reports`), a release's bot post or plan
    (`without_announced_releases`), and an announcement its author moved in a post another
    topic took (`_moved_elsewhere`)."""
    return _moved_elsewhere(without_announced_releases(_latest_reports(bullets)))


def _moved_elsewhere(bullets: list[Bullet]) -> list[Bullet]:
    """The bullets without an announcement its author moved in a later post placed under
    another topic ("Deadline: Sunday October 11" in the contest's topic, "The deadline is
    now Sunday October 18 (was Oct 11)" in the announcements'): the move takes the
    announcement's place, topic, PRs and sources. Only the author's `STALE_WINDOW` bullets
    before the move are looked at."""
    moving = [b for b in bullets if _moves_something(b)]
    if not moving:
        return bullets  # (most weeks)
    by_author: dict[str, list[Bullet]] = {}
    for bullet in sorted(bullets, key=lambda b: b.time):
        if bullet.author:
            by_author.setdefault(bullet.author, []).append(bullet)
    dropped: list[Bullet] = []
    times = {author: [b.time for b in said] for author, said in by_author.items()}
    for later in moving:
        said = by_author.get(later.author or "", [])
        end = bisect_left(times.get(later.author or "", []), later.time)
        earlier = next(
            (
                b
                for b in reversed(said[max(0, end - STALE_WINDOW) : end])
                if b.topic != later.topic
                and not any(b is d for d in dropped)
                and _moved(later, b)
                # (another topic's: two words of its own in common, not only "group"; a
                # number it goes by is one: "call #7")
                and len(_long_words(later.words) & _long_words(b.words))
                + bool(_numbers(later) & _numbers(b))
                >= 2
            ),
            None,
        )
        if earlier is not None:
            later.topic = earlier.topic
            _keep_on(later, earlier)
            dropped.append(earlier)
    return [b for b in bullets if not any(b is d for d in dropped)] if dropped else bullets


_CALENDAR_WORDS = frozenset(
    [
        *(name.lower() for name in [*calendar.day_name, *calendar.month_name] if name),
        *("today", "tonight", "tomorrow", "yesterday", "weekend", "morning", "afternoon"),
        "evening",
    ]
)


_NUMBERED_RE = re.compile(r"#\d+\b")


def _numbers(bullet: Bullet) -> set[str]:
    """The numbers its lead goes by: "#7" of "community call #7"."""
    return set(_NUMBERED_RE.findall(bullet.picked[0].text)) if bullet.picked else set()


def _long_words(said: Collection[str]) -> set[str]:
    """The long words of `said`, days and months aside."""
    return {w for w in said if len(w) >= 5 and w.isalpha() and w not in _CALENDAR_WORDS}


def without_announced_releases(bullets: list[Bullet]) -> list[Bullet]:
    """The week's bullets (of every topic) without a bot's "v5.3.0 is released" where a
    person's bullet announces that release ("5.3 is out! ...", `names_release`); its PRs and
    posts are kept on the person's (`_released_once`: nor a second person's; nor a plan to
    release it, `_without_release_plans`)."""
    reported = [b for b in bullets if b.released]
    if not reported:
        return _without_release_plans(_released_once(bullets))
    people = [b for b in bullets if any(names_release(f.text) for f in b.picked)]
    dropped: list[Bullet] = []
    for bullet in reported:
        naming = [b for b in people if _names(b, *bullet.released)]
        if not naming:
            continue
        # The release's own post: one naming its full version ("v0.14.0 is out", not an
        # agenda's "0.14 release"), most reacted to.
        said = max(naming, key=lambda b: (_names(b, *bullet.released, full=True), b.signal))
        _keep_on(said, bullet)
        dropped.append(bullet)
    return _without_release_plans(
        _released_once([b for b in bullets if not any(b is d for d in dropped)])
    )


# A plan: "Plan: cut 3.2.0 final on Wednesday", "aiming to ship 2.7.0 within 24h", "0.9.0
# moves to Friday".
_PLAN_RE = re.compile(
    r"\b(?:plan|planning|planned|will|going to|aiming|aim to|targeting|hopefully|ETA"
    r"|moves to|slips to|slipping|pushed to|postponed|delayed)\b",
    re.IGNORECASE,
)


def _without_release_plans(bullets: list[Bullet]) -> list[Bullet]:
    """The bullets without a plan to release a version ("Plan: cut 3.2.0 final on
    Wednesday") said before a bullet that says the version is out: what happened replaces
    what was planned; the plan's PRs and messages are kept on the release's bullet."""
    released: dict[str, list[Bullet]] = {}
    for bullet in bullets:
        lead = bullet.picked[0] if bullet.picked else None
        if lead is None or VERSION_RE.search(lead.text) is None:
            continue  # (most bullets)
        # (a version spoken of as there, whatever is said of it: "wheels for 3.2.0rc1 are up";
        # sentence by sentence: "RC2 is out! ... 1.4.0 final is still planned for 31 March")
        for sentence in sentences(lead.text):
            if names_release(sentence) or not _PLAN_RE.search(sentence):
                for version in VERSION_RE.findall(sentence):
                    released.setdefault(version_key(version), []).append(bullet)
    if not released:
        return bullets  # (most weeks)
    numbers = {version.partition("-")[0] for version in released}  # (as written: "1.4 RC2")
    dropped: list[Bullet] = []
    bullets = list(bullets)
    for at, bullet in enumerate(bullets):
        lead = bullet.picked[0] if bullet.picked else None
        if lead is None or not holds_any(lead.text, numbers):
            continue  # (most bullets name no released version: no pattern is tried on them)
        if _PLAN_RE.search(lead.text) is None:
            continue
        if names_release(lead.text):
            # (a release's own bullet says it is out; its plan for the next, released
            # since, goes: "rc.1 is out ... final v0.14.0 is planned for Thursday 12 March")
            bullets[at] = _without_plans_released(bullet, released) or bullet
            continue
        versions = [version_key(v) for v in VERSION_RE.findall(lead.text)]
        said = next(
            (b for v in versions for b in released.get(v, ()) if b.picked[0].time > lead.time),
            None,
        )
        if said is not None:
            _keep_on(said, bullet)
            dropped.append(bullet)
    return [b for b in bullets if not any(b is d for d in dropped)] if dropped else bullets


def _without_plans_released(
    bullet: Bullet, released: Mapping[str, Sequence[Bullet]]
) -> Bullet | None:
    """The release's bullet without the sentences of its lead planning a version a later
    bullet says is out; None where it has none."""
    lead = bullet.picked[0]
    said = sentences(lead.text)
    kept = [
        s
        for s in said
        if names_release(s)
        or not _PLAN_RE.search(s)
        or not any(
            b.picked[0].time > lead.time
            for v in VERSION_RE.findall(s)
            for b in released.get(version_key(v), ())
        )
    ]
    if not kept or len(kept) == len(said):
        return None
    picked = (_said_as(lead, " ".join(kept)), *bullet.picked[1:])
    return replace(
        bullet, text=None, picked=picked, words=frozenset().union(*(f.words for f in picked))
    )


def _said_as(fact: Fact, text: str) -> Fact:
    """`fact` saying `text`, part of what it said."""
    return replace(fact, text=text, words=words(text), n_words=len(text.split()))


def _released_once(bullets: list[Bullet]) -> list[Bullet]:
    """The bullets without a person's second word of a release another person's bullet
    announced, with more reactions ("0.14.1 is out btw, fixes the windows thing" beside
    the maintainer's "0.14.1 is out: windows paths with spaces work again (#823)"); its
    PRs and messages are kept on the other. One citing PRs the other does not says more
    than the release ("core 1.9.0rc1 is out. Status per adapter in the tracking issue: #600")."""
    by_version: dict[str, list[Bullet]] = {}
    for bullet in bullets:
        lead = bullet.picked[0].text if bullet.picked and bullet.author else ""
        version = VERSION_RE.search(lead) if names_release(lead) else None
        if version is not None:
            by_version.setdefault(version_key(version.group()), []).append(bullet)
    dropped: list[Bullet] = []
    for same in by_version.values():
        said = max(same, key=lambda b: b.signal)
        for bullet in same:
            if (
                bullet is not said
                and bullet.author != said.author
                and bullet.prs.keys() <= said.prs.keys()
            ):
                _keep_on(said, bullet)
                dropped.append(bullet)
    return [b for b in bullets if not any(b is d for d in dropped)] if dropped else bullets


def _keep_on(said: Bullet, bullet: Bullet) -> None:
    """The PRs and messages of `bullet`, which goes, kept on `said`."""
    said.prs.update((ref, m) for ref, m in bullet.prs.items() if ref not in said.prs)
    said.sources += [s for s in bullet.sources if s not in said.sources]


def _names(bullet: Bullet, *releases: str, full: bool = False) -> bool:
    """Whether a person's `bullet` names each of `releases` ("v5.3.0"), in full or (unless
    `full`) as its major and minor version ("5.3")."""
    for release in releases:
        number = VERSION_RE.search(release) or _MINOR_RE.search(release)
        if number is None:
            return False
        version = number.group().lstrip("vV")
        minor = ".".join(version.split(".")[:2])
        forms = (version, f"v{version}") if full else (version, minor, f"v{version}", f"v{minor}")
        if not any(form in bullet.words for form in forms):
            return False
    return True


def _item_bullets(
    topic: str, item: Sequence[SourceMessage], members: Mapping[str, str]
) -> list[Bullet]:
    """The item as a bullet; an announcement of several paragraphs (`_by_paragraph`) as
    one bullet per paragraph that says something of its own."""
    mentions = _credited_beside(_authors_named(_mentions(item), members), item, members)
    times = [m.created_at.timestamp() for m in item]
    # (a question, an answer and thanks: three messages, one asking or opening a thread)
    asks = len(item) > 2 and any("?" in m.text or m.thread_id == m.id for m in item)
    thanked = thanked_answers(item) if asks else {}
    signals = [0.0 if m.is_bot else social_gain(m) + THANKED_GAIN * (m.id in thanked) for m in item]
    facts = find_facts(item, times, signals, thanked)
    if thanked:
        facts = _answered(facts, thanked, item)
    time = max(times)
    fed = (
        _feed_bullet(topic, item[0], time)
        if is_feed_post(item[0])
        else _report_bullet(topic, item[0], time)
        if is_report_post(item[0])
        else None
    )
    if fed is not None:
        # (what people said under it is theirs: "the pirate radio one is my favourite yet")
        return [fed, *_item_bullets(topic, item[1:], members)] if len(item) > 1 else [fed]
    if not facts:
        bullet = (
            _release_bullet(topic, item, mentions, time)
            or _bot_bullet(topic, item, mentions, time, members)
            or _bare_bullet(topic, item, mentions, time)
        )
        return [bullet] if bullet is not None else []
    announced = is_announcement(item[0]) or _release_post(item[0], signals[0])
    if (
        not (
            announced
            and all(m.author == item[0].author for m in item[1:])  # (not a discussion of it)
            or _news_list(item[0], facts, signals[0])  # (discussed or not)
        )  # (most items)
        or len(_parts(item[0].text)) < MIN_PARAGRAPHS
    ):
        said = _item_bullet(topic, item, facts, mentions, time)
        # A release a bot reports beside what people said (an advisory and the release
        # that fixes it) is news of its own (`without_announced_releases` drops it where a
        # person's bullet announces it).
        released = _release_bullet(topic, item, mentions, time) if len(item) > 1 else None
        return [
            *_root_apart(topic, item, said, signals[0], members),
            said,
            *([released] if released is not None else []),
        ]
    # (a paragraph listing what the announcement offers, its program or its prizes, says
    # what it lists)
    groups = [
        g for g in _by_paragraph(item[0], facts) if any(_says(f) or _lists(f.text) for f in g)
    ]
    headline = groups[0][0] if len(groups) >= 2 and len(groups[0]) == 1 else None
    if headline is not None and _title_words(headline.text) <= TITLE_WORDS and not headline.prs:
        # ("**Quiver 0.9.0 is out!**" over its highlights, its install command or its
        # changelog's link beside it; one citing a PR says it)
        groups[:2] = [groups[0] + groups[1]]
    if len(groups) < 2:
        return [_item_bullet(topic, item, facts, mentions, time)]
    # Each later paragraph cites its own PRs; the first, all the others.
    later = {p.ref for group in groups[1:] for f in group for p in f.prs}
    first = {ref: m for ref, m in mentions.items() if ref not in later}
    written = [_item_bullet(topic, item, groups[0], first, time)] + [
        _item_bullet(
            topic, item, group, {p.ref: mentions[p.ref] for f in group for p in f.prs}, time
        )
        for group in groups[1:]
    ]
    for part, bullet in enumerate(written):
        bullet.part = part
    released = _release_bullet(topic, item, mentions, time) if len(item) > 1 else None
    return written if released is None else [*written, released]


LISTED_HEADING_WORDS = 4


def _lists(text: str) -> bool:
    """Whether `text` is a heading over three items or more, said as one line ("Program:
    Rossini: Overture, Price: Adoration and Dvořák: Symphony No. 8"; `summarizer.text`)."""
    heading, colon, items = text.partition(": ")
    return (
        bool(colon)
        and len(heading.split()) <= LISTED_HEADING_WORDS
        and items.count(", ") >= 1
        and " and " in items
    )


def _title_words(text: str) -> int:
    """How many words `text` says outside its code and its links."""
    return words_but_links(CODE_SPAN_RE.sub("", text))


def _release_post(message: SourceMessage, signal: float) -> bool:
    """Whether `message` opens by naming a release and many people took it up: its
    paragraphs (highlights, breaking changes, how to upgrade) are news one by one, as an
    announcement's are."""
    return signal >= STRONG_SIGNAL and names_release(message.text.partition("\n")[0])


def _news_list(message: SourceMessage, facts: Sequence[Fact], signal: float) -> bool:
    """Whether `message` is a list many people took up whose items are news one by one
    (meeting notes: "• *Decision:* 1.9 drops Kubernetes 1.28", "• the vote passed 5-0"):
    `NEWS_LIST_ITEMS` of its facts at least, as its paragraphs are an announcement's."""
    return (
        signal >= STRONG_SIGNAL
        and sum(1 for f in facts if f.message is message) >= NEWS_LIST_ITEMS
        and len(LIST_LINE_RE.findall(message.text)) >= NEWS_LIST_ITEMS
    )


def _answered(
    facts: list[Fact], thanked: Mapping[str, str], item: Sequence[SourceMessage]
) -> list[Fact]:
    """The facts without those of the askers whose answers were thanked, where an answer
    says something: the answer is the news ("the 2 GB limit of the 32-bit launcher"), not
    the report of what went wrong, nor the thanks ("the backports kernel did it, 3 streams
    now")."""
    asked = set(thanked.values())
    # (from the messages: a question is seldom a fact itself)
    askers = {m.author_id for m in item if m.id in asked}
    kept = [f for f in facts if f.message.author_id not in askers]
    return kept if any(f.message.id in thanked for f in kept) else facts


def _parts(text: str) -> list[str]:
    """An announcement's parts, each of which may be news of its own: its paragraphs, or,
    where it has fewer than `MIN_PARAGRAPHS`, its lines with each long list item apart ("1.
    The call for talks is open until January 15 ...": items too long to be said in one line
    with the others, as a release's highlights are)."""
    paragraphs = text.split("\n\n")
    if len(paragraphs) >= MIN_PARAGRAPHS:
        return paragraphs
    parts: list[str] = []
    for line in text.splitlines():
        item = without_list_mark(line)
        if parts and (item == line or len(item.split()) <= INLINE_ITEM_WORDS):
            parts[-1] += f"\n{line}"
        else:
            parts.append(line)
    return parts


def _by_paragraph(announced: SourceMessage, facts: Sequence[Fact]) -> list[list[Fact]]:
    """The facts of an announcement grouped by the part they are said in (`_parts`), a
    part that opens by pointing back ("It covers the plugin system") kept with the one
    before; a later message's facts (a reply correcting one of its items) with the part
    they speak of."""
    paragraphs = [words(p) for p in _parts(announced.text)]
    groups: list[list[Fact]] = []
    group_of: dict[int, list[Fact]] = {}
    last = -1
    for fact in facts:
        at = max(range(len(paragraphs)), key=lambda i: len(fact.words & paragraphs[i]))
        if fact.message is not announced and at in group_of:
            group_of[at].append(fact)
            continue
        if groups and (at == last or points_back(fact.text)):
            groups[-1].append(fact)
        else:
            groups.append([fact])
        group_of.setdefault(at, groups[-1])
        last = at
    return groups


def says_something(bullet: Bullet) -> bool:
    """Whether one of the facts the bullet is written from says something of its own
    (`_says`): a quip people laughed at says nothing."""
    return any(_says(fact) for fact in bullet.picked)


def _says(fact: Fact) -> bool:
    """Whether a fact says something of its own: a PR, a figure, something done, or a link,
    a day or a release (`shows_something`)."""
    return bool(fact.prs or fact.figures or fact.decision) or shows_something(fact.text)


def _root_apart(
    topic: str,
    item: Sequence[SourceMessage],
    said: Bullet,
    signal: float,
    members: Mapping[str, str],
) -> list[Bullet]:
    """The conversation's opening post as news of its own, where many people took it up,
    more than what the conversation's bullet says, which says none of it (an incident's
    write-up, 12 reactions, over the docs fix its replies led to): else nothing."""
    if (
        len(item) == 1
        or signal < max(STRONG_SIGNAL, said.signal)
        or any(
            f.message is item[0] or f.message.thread_id == item[0].id and f.prs for f in said.picked
        )
    ):
        return []  # (most items; a thread's PR says how its opening post went on)
    # (its author's later post opening as a correction of it is what it says now: the
    # benchmark table posted again as "**Corrected numbers**")
    redone = [
        m for m in item[1:] if m.author_id == item[0].author_id and opens_as_correction(m.text)
    ]
    return _item_bullets(topic, redone[-1:] or item[:1], members)


def _item_bullet(
    topic: str,
    item: Sequence[SourceMessage],
    facts: Sequence[Fact],
    mentions: dict[str, PRMention],
    time: float,
) -> Bullet:
    picked = _pick(facts)
    picked[1:1] = _listed_figures(picked[0], picked)
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
    return Bullet(
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
        ended=_ended(item, picked) if len(item) > 1 else "",
    )


# A PR said to be waiting: "is up", "is ready for review", "is ready for final review", "are in
# review".
_PENDING_RE = re.compile(
    r"\b(?P<be>is|are) (?:now )?(?:up(?: for review)?"
    r"|ready for (?:a |final |another )?(?:review|look)|in review)\b"
)


def _ended(item: Sequence[SourceMessage], picked: Sequence[Fact]) -> str:
    """ "merged" where the bullet's lead says its PRs are waiting ("is ready for review") and
    an integration bot reported every one of them merged after it was said: the news is
    where the work ended up; "" otherwise (most bullets; "closed", which GitHub's Discord
    webhook says of a merge and of a rejection alike, tells too little)."""
    lead = picked[0]
    later = [m for m in item if m.is_bot and m.created_at.timestamp() > lead.time]
    if not later or not lead.prs or _PENDING_RE.search(lead.text) is None:
        return ""
    reported = _bot_items(later)
    ended = [reported.get(p.ref.rpartition("#")[2]) for p in lead.prs]
    merged = all(found is not None and found.done and found.merged for found in ended)
    return "merged" if merged else ""


def _pick(facts: Sequence[Fact]) -> list[Fact]:
    """The lead fact (most PRs and figures; of near-equals, one that does not answer
    another person's question, then one that does not only label a link, then the newest),
    and a second one that adds a PR, or a figure with what was done, while the bullet stays
    short."""
    # (An answer is about its question: "Core is fine ... with #291 in you don't need it";
    # a link's label points to what another sentence may say: "Changelog: <url>".)
    lead = max(facts, key=lambda f: (f.gain, not f.answers, not only_points(f.text), f.time))
    # A later sentence saying the same thing with fresher numbers replaces the lead.
    newer = [
        f
        for f in facts
        if f.time > lead.time and similarity(f.words, lead.words) >= STALE and not _reminds(f, lead)
    ]
    if newer:
        lead = max(newer, key=lambda f: (f.gain, f.time))
    before = _said_before(lead, facts)
    if before:
        return [*before, lead]  # "It's a 535B MoE" needs what "it" is
    update = _update_of(lead, facts)
    if update is not None:
        # ("Correction: the jam is Dec 11-13, not Dec 4-6.")
        return _headed([lead, update], facts, UPDATED_WORDS)
    laid_out = _laid_out(lead, facts)
    if laid_out:
        return _headed(laid_out, facts, sum(f.n_words for f in laid_out))
    if len(facts) == 1:
        return [lead]
    picked = [lead]
    seen_prs = {p.ref for p in lead.prs}
    body = _body(lead, facts)
    moved = _moved_to(lead, facts)
    going_on = _going_on(lead, facts)
    extra = [
        f
        for f in facts
        if f is not lead
        and lead.n_words + f.n_words <= BULLET_WORDS
        and (
            {p.ref for p in f.prs} - seen_prs
            or f.figures - lead.figures
            and (f.decision or f is going_on)
            or names_day(f.text)  # ("Full release is planned for Wednesday Dec 2.")
            and (not names_day(lead.text) or _another_date(f, lead))
            or f is body
            or f is moved
        )
        and similarity(f.words, lead.words) < NEAR_DUPLICATE
        and f.text.rstrip(".") not in lead.text  # (a list's item, the list said whole)
        and (_joins(f, lead) or f is going_on)
    ]
    # (a lead moving something is said with where and when it moves to, over the reason:
    # "MEETUP MOVED: no longer Thursday at Sulzer." with "New plan: Saturday March 14, ...";
    # an announcement's lead that does not say when, with the line of its post that does:
    # "Tickets $25, on sale now" with "Saturday, December 12 at the Lodge Hall")
    when = _when_of(lead, extra, facts)
    if moved is not None and moved in extra:
        picked.append(moved)
    elif when is not None:
        picked.append(when)
    elif body is not None and body in extra:
        picked.append(body)
    elif extra:
        picked.append(max(extra, key=lambda f: (f.gain, f.time)))
    # (the lead first: what the item is about, then what the other adds; two sentences of
    # one message as it says them)
    if picked[1:] and picked[1].message is lead.message:
        picked.sort(key=lambda f: next(i for i, g in enumerate(facts) if g is f))
    return _headed(picked, facts)


def _when_of(lead: Fact, extra: Sequence[Fact], facts: Sequence[Fact]) -> Fact | None:
    """The first of `extra` that says when, from the post of an announcement's lead that
    does not (`is_announcement`): a day with its weekday or a time, as an event is given
    ("**Saturday, December 12** at the Lodge Hall", not the span a dataset covers), other
    than the post's headline where `_headed` says it; None for other leads."""
    # (a weekday or a date such as "Transport Tuesday (11/24)" says when too)
    if (
        not is_announcement(lead.message)
        or names_day(lead.text)
        or _WEEKDAY_OR_DATE_RE.search(lead.text) is not None
    ):
        return None  # (most leads)
    headline = next(f for f in facts if f.message is lead.message)
    headed = headline if lead.signal >= STRONG_SIGNAL else None
    return next(
        (f for f in extra if f.message is lead.message and f is not headed and _event_day(f.text)),
        None,
    )


def _event_day(text: str) -> bool:
    """Whether `text` names a day with its weekday or a time of day."""
    weekday = _WEEKDAY_OR_DATE_RE.search(text) or CLOCK_RE.search(text)
    return weekday is not None and names_day(text)


def _going_on(lead: Fact, facts: Sequence[Fact]) -> Fact | None:
    """The next sentence of a lead that gives no figure, where it points back at the lead
    ("the new dedup index shipped this morning. It's 40% faster ...": it measures what the
    lead says was done)."""
    if lead.figures:
        return None
    at = next(i for i, f in enumerate(facts) if f is lead) + 1
    following = facts[at] if at < len(facts) else None
    if following is None or following.message is not lead.message:
        return None
    return following if points_back(following.text) else None


_DIGIT_RE = re.compile(r"\d")
LISTED_FIGURE_WORDS = 8  # a list item this short giving a figure ("shorts: $28") ...
LISTED_FIGURES_WORDS = 45  # ... is said with its message's lead, the list up to this long


def _listed_figures(lead: Fact, picked: Sequence[Fact]) -> list[Fact]:
    """The items of a list in the lead's paragraph that each give a figure in a few words (a
    price list, the night's results), marked as a list's or a line each under a line ending
    with a colon ("Shoutouts:\nLuis 18:42, 3rd in M30-39\nOmar 24:03"), as it lists them: the
    list is what its readers look for. A list with a longer item (roles, a spec's tl;dr) is
    facts, not figures; [] unless two items are left unsaid."""
    text = written(lead.message)
    if "\n" not in text or not (":\n" in text or LIST_LINE_RE.search(text)):
        return []  # (most leads: no list)
    # (of an announcement of several paragraphs, each a bullet of its own: the lead's)
    paragraph = (
        max(text.split("\n\n"), key=lambda p: len(words(p) & lead.words))
        if "\n\n" in text
        else text
    )
    said: list[str] = []
    listed: list[Fact] = []
    room = LISTED_FIGURES_WORDS
    for items in _lists_in(paragraph):
        if any(
            len(item.split()) > LISTED_FIGURE_WORDS or _DIGIT_RE.search(item) is None or "#" in item
            for item in items
        ):
            continue  # (a PR's line is said by its PR)
        said = said or [_plain(f.text) for f in picked]
        for cleaned in map(clean_sentence, items):
            plain, n_words = _plain(cleaned), len(cleaned.split())
            if not plain or any(plain in s for s in said):
                continue
            if n_words > room:
                break
            figures = frozenset(find_figures(cleaned))
            listed.append(
                replace(lead, text=cleaned, figures=figures, words=words(cleaned), n_words=n_words)
            )
            room -= n_words
    return listed if len(listed) >= 2 else []


def _lists_in(paragraph: str) -> list[list[str]]:
    """The lists of `paragraph`, each item without its mark: runs of lines marked as a list's
    items, and runs of short lines after one ending with a colon."""
    lists: list[list[str]] = []
    run: list[str] = []
    under_colon = False
    for line in paragraph.splitlines():
        item = without_list_mark(line)
        short = 0 < len(item.split()) <= LISTED_FIGURE_WORDS
        if item != line or under_colon and short:
            run.append(item)
        elif run:
            lists.append(run)
            run = []
        under_colon = line.rstrip().endswith(":") or under_colon and short
    return [*lists, run] if run else lists


def _laid_out(lead: Fact, facts: Sequence[Fact]) -> list[Fact]:
    """An event's announcement many people took up that lays out when things happen in
    several of its lines ("When: Saturday 5 December, 7:30pm", "Where: St Aldhelm's",
    "Extra rehearsal: Sunday 29 November"): its facts as it says them, while they stay
    within `ANNOUNCED_WORDS`; [] for any other lead."""
    message = lead.message
    if lead.prs or lead.signal < STRONG_SIGNAL or not is_announcement(message):
        return []  # (most leads)
    said = [f for f in facts if f.message is message and not f.prs]
    dated = sum(1 for f in said if _when(f.text))
    if dated < LAID_OUT_TIMES:
        return []
    laid_out: list[Fact] = []
    # (a schedule's lines each say when and what: "**Tue 12 May, 18:30**: hill repeats.")
    room = ANNOUNCED_WORDS + SCHEDULE_LINE_WORDS * dated
    for fact in said:
        if _when(fact.text):
            fact = _first_sentence(fact)
        if fact.n_words > room:
            break
        if not any(fact.text.rstrip(".") in f.text for f in laid_out):  # (a list said whole)
            laid_out.append(fact)
            room -= fact.n_words
    return laid_out


def _first_sentence(fact: Fact) -> Fact:
    """The fact as its first sentence says it."""
    first = sentences(fact.text)[0]
    if first == fact.text:
        return fact
    return replace(fact, text=first, words=words(first), n_words=len(first.split()))


def _moved_to(lead: Fact, facts: Sequence[Fact]) -> Fact | None:
    """The first other fact of the lead's message giving a date or time the lead does not,
    where the lead says something moves; else None."""
    if not holds_any(lead.text.lower(), _MOVED_PARTS) or _MOVED_RE.search(lead.text) is None:
        return None  # (most leads; "MEETUP MOVED" too)
    when = _dates_and_times(lead.text)
    return next(
        (
            f
            for f in facts
            if f is not lead
            and f.message is lead.message
            and _when(f.text)
            and _dates_and_times(f.text) - when
        ),
        None,
    )


def _reminds(later: Fact, lead: Fact) -> bool:
    """Whether `later` says when the lead does, adding no date, time or figure and moving
    nothing, and fewer people took it up: a reminder of it ("Reminder: Oct 27, 6:00 AM"
    after the pinned "New date: Tuesday Oct 27, 6:00 AM"), not an update."""
    if later.signal >= lead.signal or later.figures - lead.figures:
        return False
    when = _dates_and_times(later.text)
    return (
        bool(when) and when <= _dates_and_times(lead.text) and _MOVED_RE.search(later.text) is None
    )


def _another_date(fact: Fact, lead: Fact) -> bool:
    """Whether `fact`, of the lead's message, gives a date the lead does not ("Nov 14 doesn't
    work after all ... We can do **Saturday November 21**, 10–2")."""
    return fact.message is lead.message and not dates_named(fact.text) <= dates_named(lead.text)


def _dates_and_times(text: str) -> set[str]:
    """The dates and times of day `text` says ("27 oct", "6:00 am")."""
    # (as written, spaces aside: "14:00 " before "at", "9:30 am")
    return {"".join(found.lower().split()) for found in CLOCK_RE.findall(text)} | dates_named(text)


def _update_of(lead: Fact, facts: Sequence[Fact]) -> Fact | None:
    """The last thing the lead's author (or, where the lead's message is an announcement,
    anyone many people reacted to) said later in reply to the lead's message about what it
    says (an update or a correction: "pushing the start to 9:30am, same place", "Venue
    change: the workshop moves to E-118"), or, where the lead's message closes asking
    ("... thoughts?"), another person's answer to it (what settled it: "the dean covers the
    fee, go ahead and book it"), where it says something new and the two stay one bullet
    (`UPDATED_WORDS`); or the last thing its author said later in the conversation moving
    it, whatever its words ("so we're moving to a bigger room: ERB 2205"); else None."""
    said = lead.message
    announced = is_announcement(said)
    asks = said.text.rstrip().endswith("?")  # ("... it has a $1,200 room fee. thoughts?")
    later = [
        f
        for f in facts
        if f.time > lead.time
        and (_replies_about(f, lead, announced, asks) or _moves_it(f, said))
        and similarity(f.words, lead.words) < NEAR_DUPLICATE
        and not _reminds(f, lead)
    ]
    if not later:
        return None  # (most leads)
    update = max(later, key=_time)
    return update if lead.n_words + update.n_words <= UPDATED_WORDS else None


def _replies_about(fact: Fact, lead: Fact, announced: bool, asks: bool) -> bool:
    """Whether `fact` replies to the lead's message about what the lead says: the author's
    own reply; to an announcement, one many people took up that says something (an
    organiser's "Venue change: the workshop moves to E-118 ..."); to a message asking what to
    do, another person's answer in its thread ("the dean covers the fee, go ahead and book
    it"); or the author's reply counting anew what the lead counts (`_counts_again`)."""
    said, message = lead.message, fact.message
    return (
        (
            message.reply_to_id == said.id
            and (
                message.author == said.author
                or announced
                and fact.signal >= STRONG_SIGNAL
                and fact.n_words >= SIGNAL_FACT_WORDS
            )
            or asks
            and fact.answers
            and (message.reply_to_id or message.thread_id) == said.id
            and message is not said
        )
        and similarity(fact.words, lead.words) >= UPDATE_SIMILARITY
        or _counts_again(fact, lead)
        or _settles_thread(fact, lead)
    )


def _settles_thread(fact: Fact, lead: Fact) -> bool:
    """Whether `fact`, in the thread of the lead's message, says what was decided and was
    taken up more than the lead ("**Decision on the appeal:** unbanned with a final warning.
    Final vote: B 6, A 2", 6 reactions, under the case's evidence): the thread's outcome."""
    said, message = lead.message, fact.message
    return (
        fact.decision
        and message is not said
        and message.thread_id == said.id
        and fact.signal > lead.signal
        and fact.n_words >= SIGNAL_FACT_WORDS
    )


def _counts_again(fact: Fact, lead: Fact) -> bool:
    """Whether `fact` is the lead's author, in a reply to its message (in its thread too),
    counting anew what the lead counts ("71 RSVPs so far" and later "update: 118 RSVPs
    now!!"): the count the week ended on."""
    said, message = lead.message, fact.message
    if message.author != said.author or message is said or not fact.figures:
        return False  # (most facts)
    if said.id not in (message.reply_to_id, message.thread_id) or not _RECOUNT_RE.search(fact.text):
        return False
    units = {_unit_of(f) for f in lead.figures} - {""}
    return any(_unit_of(f) in units for f in fact.figures - lead.figures)


# What says a count is the one it is at now: "update: 118 RSVPs now!!", "total 48 seats".
_RECOUNT_RE = re.compile(r"\b(?:now|updated?|total|so far|final)\b", re.IGNORECASE)


def _moves_it(fact: Fact, said: SourceMessage) -> bool:
    """Whether `fact` is the author of `said` saying, in a later message, that something
    moves, and when."""
    return (
        fact.message.author == said.author
        and fact.message is not said
        and holds_any(fact.text, _MOVED_PARTS)  # (most facts: the pattern's words are not there)
        and _MOVED_RE.search(fact.text) is not None
        and _when(fact.text)
    )


def _body(lead: Fact, facts: Sequence[Fact]) -> Fact | None:
    """What a headline lead's message says right after it ("Widget 2.0 is out!" over its
    highlights): a lead this short tells little of what it announces; nor does an
    announcement's lead citing no PR ("Venue change for tomorrow: the library is closed for
    repairs." over "We're moving to The Foundry, 41 Canal Street"). None for other leads."""
    if (
        lead.n_words >= MIN_FACT_WORDS
        and (lead.prs or not is_announcement(lead.message))
        # (an exclaimed lead over prose, what the recap it heads goes on to say: "Thank you
        # to the 17 people who came out! We spread all 5 yards of compost ...")
        and not (lead.text.endswith("!") and not LIST_LINE_RE.search(lead.message.text))
    ):
        return None  # (most leads)
    after = False
    for fact in facts:
        # (one pointing back reads as chat once joined: "... is out. This is the first RC")
        if after and fact.message is lead.message and _joins(fact, lead):
            return fact
        after = after or fact is lead
    return None


def _headed(picked: list[Fact], facts: Sequence[Fact], most: int = BULLET_WORDS) -> list[Fact]:
    """`picked` opened by the first thing its lead's message says where many people reacted
    to that message and the lead is said later: the reactions were to the headline
    ("Release 2.0 ran end-to-end! ... caveat: 5 nodes only (#12)"), as long as it speaks
    of the news, not back or to the reader, says more than the bullet and it stays short
    (`most` words: a lead with its update may say more); else as picked."""
    lead = picked[0]
    if lead.signal < STRONG_SIGNAL:
        return picked  # (most items)
    # (a message's facts are in the order it says them, its list lines' after its prose)
    headline = next(f for f in facts if f.message is lead.message)
    # (a title says what the rest is about in a few words: "Kestrel Jam #4 is official!")
    enough = HEADLINE_NEW_WORDS if headline.n_words <= TITLE_WORDS else MIN_FACT_WORDS
    if (
        any(f is headline for f in picked)
        or len(headline.words.difference(*(f.words for f in picked))) < enough
        or points_back(headline.text)
        # (its first sentence: "**v2.1b2 is out** with two fixes. If you used the workaround,
        # you can ..." heads with the first, the second left out as any sentence to the reader)
        or says_to_the_reader(sentences(headline.text)[0])
        or only_points(headline.text)
    ):
        return picked
    for kept in (picked, picked[:1]):
        if headline.n_words + sum(f.n_words for f in kept) <= most:
            return [headline, *kept]
    # A headline saying when, or what was released, is the news a long list goes under; one
    # the post opens with in bold is what it is about, said with the lead's link:
    # "**Route change for Saturday's long run**: the trail is closed ..." over "Strava route
    # here: <url>".
    day = names_day(headline.text) and not names_day(lead.text)
    if day or names_release(headline.text):
        return [headline]
    return [headline, lead] if headline.text.startswith("**") and "://" in lead.text else picked


def _heading_unsaid(sentence: str, parts: Sequence[str]) -> str:
    """`sentence` without the heading a list item carries where the bullet already says it
    ("Widget 2.0 is out!: a fix for ..." after "**Widget 2.0 is out!** Upgrade note: ...")."""
    heading, colon, item = sentence.partition(": ")
    plain = _plain(heading) if colon else ""
    if plain.count(" ") < 2 or plain not in _plain(" ".join(parts)):
        return sentence  # (most sentences; a label of a word or two, "Fix: ...", stays)
    return item


def _plain(text: str) -> str:
    """`text` lower-cased, its words only, for comparing what two lines say."""
    return " ".join(_PLAIN_WORD_RE.findall(text.lower()))


def _said_before(lead: Fact, facts: Sequence[Fact]) -> list[Fact]:
    """The sentences its message says just before an anaphoric `lead` ("It's ...", "That
    ...", "Fixed in #405"), as facts: the one before it, and the one before that while
    the earlier is anaphoric too, as long as they say something and all stay one short
    bullet; else none."""
    if not points_back(lead.text):
        return []  # most leads: nothing more to read
    said = [clean_sentence(s) for s in statements(lead.message.text, list_intros=True)]
    # (A short message's sentences are one lead: it starts with one of them.)
    at = next((i for i, s in enumerate(said) if lead.text.startswith(s)), 0)
    before: list[Fact] = []
    first, n_words = lead, len(said[at].split()) if said else 0
    while at and points_back(first.text):
        at -= 1
        text = said[at]
        n_words += len(text.split())
        if len(text.split()) < MIN_FACT_WORDS or n_words > MAX_FACT_WORDS:
            return []
        first = next(
            (f for f in facts if f.message is lead.message and f.text == text), None
        ) or _context(text, lead)
        before.insert(0, first)
    return before


def _context(text: str, lead: Fact) -> Fact:
    """A sentence said before `lead` as a fact that only says what the lead is about."""
    return Fact(
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


def _item_facts(picked: Sequence[Fact], facts: Sequence[Fact]) -> tuple[Fact, ...]:
    """The item's facts, most telling first: the picked ones, then the rest by gain, without
    those an equally worded newer fact replaced (stale statuses)."""
    rest = [
        f
        for f in facts
        if all(f is not p for p in picked)
        and not any(g.time > f.time and similarity(g.words, f.words) >= STALE for g in facts)
    ]
    return (*picked, *sorted(rest, key=lambda f: (-f.gain, f.time)))


def _joins(fact: Fact, lead: Fact) -> bool:
    """A second sentence joins the lead when it reads as a sentence of the summary: the same
    person's, or another's that can be turned to the third person (not a labelled quote)."""
    author = fact.message.author
    if author == lead.message.author:
        return not ANAPHORA_RE.match(fact.text) or bool(fact.prs)
    return not is_fallback(third_person(fact.text, author), author)


def _time(fact: Fact) -> float:
    return fact.time


def _render(
    picked: Sequence[Fact], mentions: Mapping[str, PRMention], spare: Sequence[Fact] = ()
) -> str:
    """`- Ana Ruiz fixed X ([#12](...)). Ben Cho measured Y ([#13](...)).` Who did it leads
    where the sentence allows; otherwise the sentence stands and its author is credited in
    the closing parentheses. Sentences that would still read as chat are left out; where
    that leaves a headline alone ("**Call for volunteers**" over "Sign up by Friday: <form>"),
    the next of the `spare` facts of its message says what it heads."""
    parts: list[str] = []
    credits: list[str] = []
    credited_at: int | None = None  # the part the pending credits are for
    author = None
    said: set[str] = set()
    queue = list(picked)
    for fact in queue:
        sentence = _heading_unsaid(fact.text, parts) if parts else without_pointing_label(fact.text)
        new_author = fact.message.author != author
        author = fact.message.author
        text = voiced(sentence, author)[0] if new_author else tidy(as_team(sentence, author))
        if text.startswith(f"{author}'s "):
            text = _whose(text, author, fact.prs, mentions)
        kept = dated(_newsletter_sentences(text, fact.prs), fact.message.created_at)
        # (not named as a subject, or that sentence read as chat)
        credit = new_author and not holds_word(kept, author)
        if says_little((kept or fact.text).removeprefix(f"{author} "), fact.prs):
            # "Fix is #310.": the PRs' titles say what the chat does not, and who wrote them
            # where that is known ("Khoa's first PR already": Khoa's, not the poster's).
            # (each once: "#4830 is up: <.../pull/4830>" cites it twice)
            once: dict[str, PRMention] = {}
            for mention in fact.prs:
                once.setdefault(mention.ref, mention)
            by = [mentions.get(p.ref, p).author for p in once.values()]
            kept = "; ".join(
                f"{pr_title(p.title)} ({p.raw}{f', {who}' if who else ''})"
                for p, who in zip(once.values(), by, strict=True)
            )
            credit = not all(by)
        if credit:
            credits.append(author)
        if kept and not parts and _needs_its_question(fact):
            # (an answer says little without what it answers: "Sadly no: only packaged food")
            kept = f"{fact.question}: {kept}"
        if kept:
            # (their authors by the names the chat knows them by, as the bullet's mentions say)
            named = [
                replace(p, author=mentions[p.ref].author)
                if p.ref in mentions and mentions[p.ref].author
                else p
                for p in fact.message.prs
            ]
            parts.append(full_stop(link_prs(kept, named)))
            if credit and credited_at is None:
                credited_at = len(parts) - 1
            elif credited_at is not None and _by_others(fact.prs, mentions, credits):
                # (an announcer's credit goes with their own words, not with a list of PRs
                # others wrote: "... is out! (Katrin Vogel). Clip polygons (#1398, Mateus)")
                parts[credited_at] = credited(parts[credited_at], [], credits)
                credits, credited_at = [], None
        elif len(parts) == 1 and queue[0].n_words <= TITLE_WORDS and len(queue) == len(picked):
            queue += _after_headline(queue[0], spare, picked)
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
    body = _in_thread(picked[0].message.thread_title, body)
    # Further PRs listed as bare numbers say nothing: those with a short title are said
    # by it (one further PR beside what the bullet says is only its citation).
    titled = [m for m in unsaid if _short_title(m)]
    if len(titled) < MIN_TITLED:
        titled = []
    trailing = [link(m) for m in unsaid if m not in titled]
    credits = list(dict.fromkeys(credits))
    if any(m.author for m in titled):
        # Each PR listed by its title says who wrote it, after the bullet's own credit: the
        # announcer of a release wrote few of the PRs it lists.
        body = credited(body, [], credits)
        credits = []
    if titled:
        body += " " + "; ".join(f"{_short_title(m)} ({with_author(m)})" for m in titled) + "."
    return "- " + defuse_pings(credited(body, trailing, credits))


def _needs_its_question(fact: Fact) -> bool:
    """Whether `fact` answers a short question (`Fact.question`) whose words it does not
    say again ("Just show up! The first 2 rides are free" under "Do I need to register?"),
    where "Will Held registered the corpus in #8189" under "Is that corpus registered?" says
    what it answers."""
    if not fact.question or fact.message.thread_title:
        return False  # (a thread's title says what it answers: `_in_thread`)
    asked = {w for w in words(fact.question) if len(w) >= MIN_SHARED and w not in STOPWORDS}
    return len(asked & fact.words) < QUESTION_SAID_AGAIN


def _whose(
    text: str, author: str, prs: Sequence[PRMention], mentions: Mapping[str, PRMention]
) -> str:
    """ "Katrin's #1411 is in" said of the PR's known author where another person wrote it
    ("Ole Nilsen's #1411 is in"): its poster is credited apart."""
    rest = text.removeprefix(f"{author}'s ")
    cited = next((p for p in prs if rest.startswith(p.raw)), None)
    who = mentions.get(cited.ref, cited).author if cited is not None else None
    return f"{who}'s {rest}" if who and who != author else text


def _by_others(
    prs: Sequence[PRMention], mentions: Mapping[str, PRMention], people: Sequence[str]
) -> bool:
    """Whether each of `prs` has a known author, none of them among `people`."""
    authors = [mentions.get(p.ref, p).author for p in prs]
    return bool(authors) and all(a and a not in people for a in authors)


def with_author(mention: PRMention) -> str:
    """The PR's link, and who wrote it where that is known."""
    return f"{link(mention)}, {mention.author}" if mention.author else link(mention)


REVIEW_ASK_WORDS = 12  # a request for a review this short says nothing else
THREAD_NAME_WORDS = 6  # a thread's name this short names its subject; a longer one is chat
# A status tag on a thread's name: "[SOLVED]", "(fixed)".
_TITLE_TAG_RE = re.compile(r"^\s*[\[(][^\[\]()]{1,12}[\])]\s*|\s*[\[(][^\[\]()]{1,12}[\])]\s*$")


def _after_headline(headline: Fact, spare: Sequence[Fact], picked: Sequence[Fact]) -> list[Fact]:
    """The first fact of the headline's message said after it that is not `picked`."""
    after = False
    for fact in spare:
        if after and fact.message is headline.message and all(fact is not p for p in picked):
            return [fact]
        after = after or fact is headline
    return []


def _in_thread(title: str | None, body: str) -> str:
    """`body` under the name of the thread it was said in, where that names its subject and
    the body does not ("Plugin API v2: Dana's team will go with sync hooks ..."), so that
    what a thread settled is said of something."""
    if title and ("[" in title or "(" in title):
        title = _TITLE_TAG_RE.sub("", title)  # ("Crash on load [SOLVED]")
    if not title or not body or len(title.split()) > THREAD_NAME_WORDS:
        return body
    if title.endswith("?") or ":" in title:
        return body  # (a question, or a name with its own label: "Bug: crash on start")
    named = words(title) - STOPWORDS
    if not named or len(named & words(body)) * 2 >= len(named) or ": " in body:
        return body  # (said already, or a label leads a clause: "Decided: 3.0 ships ...")
    return f"{capitalised(title.strip().rstrip('.:'))}: {body}"


def says_little(text: str, prs: Sequence[PRMention]) -> bool:
    """Whether `text` cites titled `prs` with too few words of its own to say what they do."""
    if not prs or not all(p.title for p in prs):
        return False
    return own_words(text, prs) < MIN_FACT_WORDS


def _short_title(mention: PRMention) -> str:
    """The PR's title as `pr_title` writes it, where it has at most `PR_TITLE_WORDS` words."""
    title = pr_title(mention.title)
    return title if len(title.split()) <= PR_TITLE_WORDS else ""


def pr_title(title: str | None) -> str:
    """A PR's title as a newsletter writes it: no "[draft]" tag or conventional commit type
    ("ci: "), code set apart, a capital first and no closing stop; "" for none."""
    title = _COMMIT_TYPE_RE.sub("", _TAG_RE.sub("", title or "").strip()).rstrip(".")
    if "`" not in title:  # titles name code bare
        title = _CODE_WORD_RE.sub(r"`\g<0>`", title)
    return capitalised(title)


def credited(text: str, links: Sequence[str], people: Sequence[str]) -> str:
    """`text` with its further PR links and its people's names in closing parentheses, in
    the ones that already close it when they hold a PR ("... ([#12](...), Ana Ruiz).")."""
    extra = [*links, *map(_credit_name, people)]
    if extra and text.endswith(").") and _CLOSING_REFS_RE.search(text):
        return f"{text[:-2]}, {', '.join(extra)})."
    text = with_refs(text, extra)
    return text if text.endswith((".", "!")) else full_stop(text)


def _credit_name(name: str) -> str:
    """A name as credited in closing parentheses, without the role its bracket adds
    ("Amaka Eze (President)" -> "Amaka Eze": brackets do not nest in a credit)."""
    if not name.endswith(")") or " (" not in name:
        return name  # (most names)
    return name[: name.index(" (")] or name


# A sentence that is a short bold headline, maybe with its link.
_BOLD_HEADLINE_RE = re.compile(r"\*\*[^*]{1,60}\*\*(?: <[^>\s]+>)?[.!]?$")


def _newsletter_sentences(text: str, prs: Sequence[PRMention]) -> str:
    """The sentences of `text` worth their words: the first, then those adding a PR, a
    figure or a day while the bullet stays short, and any other while it is very short and says
    nothing to the reader; none that read as chat. `prs`: those the text cites."""
    kept: list[str] = []
    n_words = 0
    raws = {p.raw for p in prs}
    said = clean_sentences(text)
    for at, sentence in enumerate(said):
        if kept and sentence.rstrip(".!") in raws:
            # "... down to 244 ms. PR 8526.": a PR said alone cites what came before it.
            kept[-1] = f"{kept[-1].rstrip('.!')} ({sentence.rstrip('.!')})."
            continue
        # (a headline in bold is the title of what follows: "**Tessel v0.9 is out** <url>.")
        size = 0 if not kept and _BOLD_HEADLINE_RE.match(sentence) else len(sentence.split())
        news = _cites_or_measures(sentence, prs) or _when(sentence)  # ("Omar 44:03")
        if kept and not (n_words + size <= (BULLET_WORDS if news else SHORT)):
            continue
        if (
            (kept or at + 1 < len(said))
            and not news
            and "://" not in sentence
            and says_to_the_reader(sentence)
        ):
            # "If you read the totals last week, don't trust them" adds nothing; "You're both
            # right tbh." leads nothing
            continue
        if kept and not news and _COURTESY_RE.match(sentence):
            continue  # ("Sorry all", "Thoughts in thread pls": not news)
        kept.append(sentence)
        n_words += size
    return " ".join(kept)


def _cites_or_measures(sentence: str, prs: Sequence[PRMention]) -> bool:
    # (a value corrected measures too: "**Passed 19–8 (first reported as 18–9)**")
    return bool(
        FIRST_REPORTED in sentence
        or PR_NUMBER_RE.search(sentence)
        or "/pull/" in sentence
        or FIGURE_RE.search(sentence)
        or VERSION_RE.search(sentence)  # "Fixed in 4.1.4 and 4.2.0."
        or any(p.raw in sentence for p in prs)
    )


def _bot_bullet(
    topic: str,
    item: Sequence[SourceMessage],
    mentions: Mapping[str, PRMention],
    time: float,
    members: Mapping[str, str],
) -> Bullet | None:
    """A line for PRs cited with nothing said of them (a bot's post, a bare link): their
    titles, credited to the person the post names, or the PR's known author (by their name
    in the chat where `members` knows their login), or else to whoever shared them, never
    to the bot."""
    reported = _bot_items(item)
    shared = {p.ref: m.author for m in reversed(item) if not m.is_bot for p in m.prs}
    # (a post names a GitHub login, "priya-sethi", whom the chat knows as "Priya Sethi")
    by_login = {**members, **{login_key(m.author): m.author for m in item if not m.is_bot}}
    lines = []
    shown: dict[str, PRMention] = {}  # (a PR without a title is left to another line)
    people: dict[str, None] = {}
    for ref, mention in mentions.items():
        number = ref.rpartition("#")[2]
        known = reported.get(number)
        title = mention.title or (known.title if known else None)
        if not title:
            continue
        shown[ref] = mention
        person = known.person if known and known.person else mention.author or shared.get(ref)
        person = member_named(person, by_login) if person else person
        credit = f", {person}" if person else ""
        if known is not None and not known.done:  # ("Add X (#12, opened by ana)": not done)
            credit = f", opened by {person}" if person else ", opened"
        elif known is not None and known.rejected:  # (not done either: "Closed without merging.")
            credit = f", closed without merging{f' by {person}' if person else ''}"
        lines.append(f"{pr_title(title)} ({link(mention)}{credit})")
        if person:
            people[person] = None
    if not lines:
        return None
    return Bullet(
        topic=topic,
        text="- " + defuse_pings("; ".join(lines)) + ".",
        prs=shown,
        figures=frozenset(),
        people=list(people),
        sources=[m.id for m in item if m.prs],
        signal=0.0,
        time=time,
        author=None,
    )


def _feed_bullet(topic: str, post: SourceMessage, time: float) -> Bullet | None:
    """A page a bot posted and many people took up, said by the post's first line and the
    page's title: '**The Long Wave** has a new episode: "88: Radio Caroline" (<url>)'; None
    where the page has no title."""
    link = LINK_RE.search(post.text)
    if link is None:
        return None
    lines = post.text[: link.end()].splitlines()
    # (a bot's preview is in its text, on the line after its link)
    after = post.text[link.end() :].strip().partition("\n")[0]
    title = page_title(post) if post.preview else after.rstrip(".,:;") or None
    if title is None or len(title.split()) > MAX_TITLE_WORDS or "://" in title:
        return None
    said = " ".join(EMOJI_RE.sub(" ", LINK_RE.sub(" ", lines[0])).split()).rstrip(" .!:")
    text = f'{said}: "{title}" (<{link[1]}>).' if said else f'"{title}" (<{link[1]}>).'
    return Bullet(
        topic=topic,
        text="- " + defuse_pings(text),
        prs={},
        figures=frozenset(),
        people=[],
        sources=[post.id],
        signal=social_gain(post),
        time=time,
        author=None,
    )


REPORT_WORDS = 45  # a bot's report is said by its heading and the lines that fit this
_LINE_MARK_RE = re.compile(rf"{LIST_LINE_RE.pattern}|^[ \t]*>[ \t]?")  # (a list's, a quote's)


def _report_bullet(topic: str, post: SourceMessage, time: float) -> Bullet | None:
    """A bot's report many people took up, said by its first line and as many of the next as
    fit `REPORT_WORDS`, whole: "Weekly numbers: Chrome: 48,210 (+3.1%); Firefox: 11,904
    (+1.2%)."; None where it says nothing but emoji."""
    lines = [
        said
        for line in post.text.splitlines()
        if (said := " ".join(EMOJI_RE.sub(" ", _LINE_MARK_RE.sub("", line)).split()).strip(" .;:"))
    ]
    if not lines:
        return None
    kept, words = [lines[0]], len(lines[0].split())
    for line in lines[1:]:
        words += len(line.split())
        if words > REPORT_WORDS:
            break
        kept.append(line)
    said = f"{kept[0]}: {'; '.join(kept[1:])}" if kept[1:] else kept[0]
    return Bullet(
        topic=topic,
        text=f"- {defuse_pings(capitalised(said))}.",
        prs={},
        figures=frozenset(find_figures(said)),
        people=[],
        sources=[post.id],
        signal=social_gain(post),
        time=time,
        author=None,
        # ("New donation: $100.00 to ..." and "New donation: $50.00 to ...": one running
        # tally; "... Skimlet 4.12.0" and "... Skimlet 4.12.1": two releases)
        series=f"{post.author_id}:{_of_series(lines[0])}",
    )


_AMOUNT_RE = re.compile(r"\d[\d.,]*")


def _of_series(heading: str) -> str:
    """What a bot's report's first line says of its kind: its words and versions, not its
    amounts."""
    return f"{_AMOUNT_RE.sub('#', VERSION_RE.sub('', heading))} {VERSION_RE.findall(heading)}"


def _latest_reports(bullets: list[Bullet]) -> list[Bullet]:
    """The bullets without a bot's report that a later one of its series says again (a
    running tally, the week's figures posted twice)."""
    latest: dict[str, Bullet] = {}
    for bullet in bullets:
        if bullet.series and bullet.time >= latest.get(bullet.series, bullet).time:
            latest[bullet.series] = bullet
    if not latest:
        return bullets  # (most weeks)
    return [b for b in bullets if not b.series or latest[b.series] is b]


def _release_bullet(
    topic: str, item: Sequence[SourceMessage], mentions: Mapping[str, PRMention], time: float
) -> Bullet | None:
    """A release an integration bot reports published ("lab/main v2.1.0 is released."),
    with the PRs its post cites; None where no bot reports one."""
    said = [
        f"{repo} {name}" if (repo := post_repo(m.text)) and repo not in name else name
        for m in item
        if m.is_bot
        for name in releases(m.text)
    ]
    if not said:
        return None
    text = f"{listed(said)} {'is' if len(said) == 1 else 'are'} released"
    return Bullet(
        topic=topic,
        text="- " + defuse_pings(credited(text, [link(m) for m in mentions.values()], [])),
        prs=dict(mentions),
        figures=frozenset(),
        people=[],
        sources=[m.id for m in item if m.is_bot],
        signal=text_gain(text),
        time=time,
        author=None,
        released=tuple(said),
    )


def _bare_bullet(
    topic: str, item: Sequence[SourceMessage], mentions: Mapping[str, PRMention], time: float
) -> Bullet | None:
    """An item whose people cite PRs without saying anything of them ("#21", a bare link,
    "can someone review #22?"), as a bullet with nothing to write: never chosen, it still
    puts its PRs in the draft (`summarizer.extractive` gives them a short line). Where all
    it says is what was done ("Merged! #59"), that is its bullet. None when no person
    cites a PR."""
    citing = [m for m in item if m.prs and not m.is_bot]
    if not citing:
        return None
    done = _done_to_prs(citing[0]) or _review_asked(citing[0])
    return Bullet(
        topic=topic,
        text=done and "- " + defuse_pings(done),
        prs={p.ref: mentions.get(p.ref, p) for m in citing for p in m.prs},
        figures=frozenset(),
        people=[citing[0].author],
        sources=[m.id for m in citing],
        signal=0.0,
        time=time,
        author=citing[0].author,
    )


# A request for a review: "can someone review #22?", "please review #22", "eyes on #22?"
# ("PTAL #22" is review chatter: `summarizer.noise`).
_REVIEW_ASKED_RE = re.compile(
    r"\b(?:review|take a look|have a look|look at|eyes on|reviewers?)\b", re.IGNORECASE
)


def _review_asked(message: SourceMessage) -> str | None:
    """ "can someone review #22?" by Li -> "Li Wu asked for reviews of [#22](...)."; None
    for a message that asks nothing of its PRs or says more than the asking."""
    text = message.text
    if len(text.split()) > REVIEW_ASK_WORDS or not _REVIEW_ASKED_RE.search(text):
        return None
    if "?" not in text and not text.lower().startswith(("please", "review")):
        return None
    prs = link_prs(listed([p.raw for p in message.prs]), message.prs)
    return f"{message.author} asked for reviews of {prs}."


def _done_to_prs(message: SourceMessage) -> str | None:
    """ "Merged! #59" by Ana -> "Ana merged [#59](...)."; None unless all the message says
    beside its PRs (and a reply's opener: "LGTM, merged #59") is one verb in the past."""
    rest = message.text
    for mention in message.prs:
        rest = rest.replace(mention.raw, " ")
    said = _WORD_RE.findall(REPLY_OPENER_RE.sub("", rest.strip()))
    if len(said) != 1 or not opens_without_subject(said[0]):
        return None
    done = third_person(f"{said[0]} {listed([p.raw for p in message.prs])}", message.author)
    return full_stop(link_prs(done, message.prs))


def _bot_items(item: Sequence[SourceMessage]) -> dict[str, IntegrationItem]:
    """PR number -> what integration posts say of it (`summarizer.integrations`)."""
    reported: dict[str, IntegrationItem] = {}
    for message in item:
        if message.is_bot:
            for found in integration_items(message.text):
                known = reported.get(found.number)
                if known is None:
                    reported[found.number] = found
                elif found.done and not known.done:  # (opened, then merged: it is done)
                    reported[found.number] = replace(known, done=True, merged=found.merged)
    return reported


def _drop_stale(bullets: list[Bullet]) -> list[Bullet]:
    """A status replaced by a newer one from the same person on the same subject goes, unless
    it is an announcement more people took up than the newer one (then the newer goes); the
    PRs and sources of the one that goes are kept on the other. Only the person's
    `STALE_WINDOW` next statuses are compared: an update follows what it replaces within
    days, not hundreds of items later."""
    kept: list[Bullet] = []
    by_author: dict[str, list[Bullet]] = {}
    # (the few bullets that move an event, found once: most compare with none of them; and
    # the counts each lead gives, most none)
    moving = {id(b) for b in bullets if _moves_something(b)}
    counted = {id(b): counts for b in bullets if (counts := _counts(b))}

    def moves(later: Bullet, earlier: Bullet) -> bool:
        return id(later) in moving and _moved(later, earlier)

    def recounts(newer: Bullet, older: Bullet) -> bool:
        return (
            id(newer) in counted
            and id(older) in counted
            and _counted_again(newer, older, counted[id(newer)], counted[id(older)])
        )

    for bullet in sorted(bullets, key=lambda b: -b.time):
        recent = by_author.setdefault(bullet.author, []) if bullet.author else []
        newer = next(
            (
                k
                for k in reversed(recent[-STALE_WINDOW:])
                if _same_subject(k, bullet)
                or recounts(k, bullet)
                or moves(k, bullet)
                or moves(bullet, k)
            ),
            None,
        )
        if newer is None:
            kept.append(bullet)
            recent.append(bullet)
            continue
        stays, goes = newer, bullet
        if moves(bullet, newer):
            # (the item that was moved went on later, its replies asking about the old time)
            stays, goes = bullet, newer
            kept[_index(kept, newer)] = recent[_index(recent, newer)] = bullet
        elif moves(newer, bullet):
            # (however many took up the announcement, its time is no longer right; a release
            # it says is out still is: "rc.1 is out ... Final release planned for Friday")
            released = _released_apart(bullet)
            if released is not None:
                kept.append(released)
                recent.append(released)
                continue
            if (
                bullet.signal >= STRONG_SIGNAL
                and bullet.signal > newer.signal
                and _FROM_TO_RE.search(newer.picked[0].text)
                and not _names_versions_of(newer.picked[0].text, bullet.picked[0].text)
            ):
                # (what people took up is said, and then its move, saying the time it moves
                # from: "Talk accepted at BSides: ..., Saturday June 27. Update: they moved the
                # slot from Saturday June 27 to Sunday June 28")
                stays = _with_move(bullet, newer)
                kept[_index(kept, newer)] = recent[_index(recent, newer)] = stays
        elif (
            _announced(bullet)
            and bullet.signal > newer.signal
            and not _settles(newer, bullet)
            and not _taken_up_more(newer, bullet)
            and not recounts(newer, bullet)  # (the count the week ended on stays)
        ):
            # ("TERRA-km v1.0 is released!" stays, not the small correction of one of its
            # figures two days later)
            stays, goes = bullet, newer
            kept[_index(kept, newer)] = recent[_index(recent, newer)] = bullet
        if stays is newer and recounts(stays, goes):
            _counted_from(stays, goes)
        lost = [m for ref, m in goes.prs.items() if ref not in stays.prs]
        if lost:  # cited after the other bullet's sentences when it is written
            stays.prs.update((m.ref, m) for m in lost)
        stays.sources += [s for s in goes.sources if s not in stays.sources]
    return sorted(kept, key=lambda b: b.time)


# A move saying what it moves from: "moved our slot from saturday june 27 to SUNDAY june 28".
_FROM_TO_RE = re.compile(r"\bfrom\b[^.!?]{1,40}?\bto\b", re.IGNORECASE)


def _names_versions_of(move: str, announced: str) -> bool:
    """Whether `move` names every version `announced` names, one at least ("3.4.0 final
    moves from Saturday June 13 to Tuesday June 16" of "3.4.0 final ships Saturday June 13"):
    it says what moves."""
    versions = {version_key(v) for v in VERSION_RE.findall(announced)}
    return bool(versions) and versions <= {version_key(v) for v in VERSION_RE.findall(move)}


def _with_move(announced: Bullet, move: Bullet) -> Bullet:
    """The move's bullet said after the lead of the announcement it moves."""
    picked = (announced.picked[0], *move.picked)
    return replace(
        move,
        text=None,
        picked=picked,
        said=(*announced.said, *move.said),
        words=frozenset().union(*(f.words for f in picked)),
        figures=announced.figures | move.figures,
        signal=announced.signal,
    )


def _released_apart(bullet: Bullet) -> Bullet | None:
    """The bullet without the sentences of its lead that say when, where its lead says a
    release is out and something moved the plan it gives; None for any other."""
    lead = bullet.picked[0] if bullet.picked else None
    if lead is None or not names_release(lead.text):
        return None
    said = sentences(lead.text)
    told = [s for s in said if not _when(s)]
    if not told or len(told) == len(said) or not names_release(" ".join(told)):
        return None
    fact = _said_as(lead, " ".join(told))
    return replace(bullet, text=None, picked=(fact,), said=(fact,), words=fact.words)


def _announced(bullet: Bullet) -> bool:
    """Whether the bullet says a release or announcement many people took up."""
    lead = bullet.picked[0] if bullet.picked else None
    return (
        lead is not None
        and bullet.signal >= STRONG_SIGNAL
        and (is_announcement(lead.message) or names_release(lead.text))
    )


def _settles(newer: Bullet, older: Bullet) -> bool:
    """Whether the newer bullet, from a later message many people took up too, says what was
    done or settled about what the older announced ("Dues proposal passed 27-8" after the
    meeting's agenda): the outcome, not a small correction of one of its figures."""
    lead = newer.picked[0] if newer.picked else None
    return (
        lead is not None
        and newer.signal >= STRONG_SIGNAL
        and lead.decision
        and bool(older.picked)
        and lead.message is not older.picked[0].message
    )


def _taken_up_more(newer: Bullet, older: Bullet) -> bool:
    """Whether the newer bullet's message drew as many reactions and replies as the older
    announcement's, its call to everyone aside: "hive is fully back, 40 GPUs" (8 reactions)
    is the news of "@channel maintenance tomorrow" (5)."""
    if not newer.picked or not older.picked:
        return False
    said, announced = newer.picked[0].message, older.picked[0].message
    return said.reactions + said.replies >= announced.reactions + announced.replies > 0


def _index(bullets: list[Bullet], bullet: Bullet) -> int:
    return next(i for i, b in enumerate(bullets) if b is bullet)


# A later message moving what was announced: "the meetup moves to Saturday 28 November",
# "postponed to 11/7", "now starts at 20:00", "New date/place: Sunday July 12".
_MOVED_RE = re.compile(
    r"\b(?:moves?|moved|moving|postponed?|rescheduled?|pushed back|now (?:starts?|begins?|at|on)"
    r"|is now|new (?:venue|date|time|location|room|place|plan)|updated plan)\b"
    r"|\(was\b",
    re.IGNORECASE,
)
_MOVED_PARTS = (  # (one in each)
    *("mov", "Mov", "MOV", "ostpon", "OSTPON", "eschedul", "ESCHEDUL", "ushed back", "ow "),
    *("OW ", "(was", "ew venue", "ew date", "ew time", "ew location", "ew room", "ew place"),
    *("ew plan", "EW PLAN", "pdated plan", "PDATED PLAN"),
)
# A post labelled an update of a plan, saying when: "small update for tomorrow: ... we'll
# start at 7:30", "UPDATE: doors at 6".
_UPDATE_LABEL_RE = re.compile(
    r"^\W*(?:(?:@|<!)\w+>?\W+)?(?:\w+\s+)?update\b(?:\s+(?:on|to|for)\b[^:\n]{0,40})?\s*[:—–-]",
    re.IGNORECASE,
)


def _moves_something(bullet: Bullet) -> bool:
    """Whether the bullet's lead (or the headline over it) says something moves
    (`_MOVED_RE`), and the bullet when ("Tomorrow's maintenance is postponed. New date:
    Tuesday Oct 27"; "*Meetup #4 has a new venue*. Same date and time, Thursday 29 October,
    ...")."""
    picked = bullet.picked
    if not picked:
        return False
    message = picked[0].message
    said = (picked[0].text, picked[1].text if picked[1:] and picked[1].message is message else "")
    labelled = "pdate" in message.text[:70] and _UPDATE_LABEL_RE.match(message.text) is not None
    if not (labelled or holds_any(said[0], _MOVED_PARTS) or holds_any(said[1], _MOVED_PARTS)):
        return False  # (most bullets: the pattern's words are not in them)
    moving = labelled or any(_MOVED_RE.search(text) is not None for text in said)
    # (when: in what the bullet says, or elsewhere in the message moving it)
    return moving and any(
        _when(f.text) for f in (*picked, *(f for f in bullet.said if f.message is message))
    )


def _moved(later: Bullet, earlier: Bullet) -> bool:
    """Whether the lead of `later`, which moves something (`_moves_something`), said after
    that of `earlier`, moves what it announced (saying when, sharing a long word with it
    other than a day's or a month's name or "moves", or two words in a row: what moves, not
    when): the same event at another time."""
    if not earlier.picked:
        return False
    lead = later.picked[0]
    # (what it announced: its headline, or, by more than one word, the sentences after it:
    # "Tuesday's rehearsal is MOVED to the fellowship hall" after the reason it opens with)
    announced = " ".join(f.text for f in earlier.picked)
    return (
        lead.time > earlier.picked[0].time
        and (_speaks_of(lead, earlier.picked[0].text) or _speaks_of(lead, announced, 2))
        # (an announcement's headline says what, the sentence after it when)
        and any(_when(f.text) for f in earlier.picked)
        # (an update that only says the time again moves nothing: "Meetup update: the café
        # gives us the back room. Still Sat 28th, 14:00"; nor does one saying again where
        # the earlier moved it: "Wed 11 Nov track is the postponed 6 x 800" after "Tonight's
        # track session is CANCELLED ... The 6 x 800 moves to next Wednesday 11 Nov")
        and (
            not _dates_and_times(lead.text) <= _dates_and_times(announced)
            or _MOVED_RE.search(lead.text) is not None
            and _MOVED_RE.search(announced) is None
        )
    )


def _speaks_of(lead: Fact, text: str, least: int = 1) -> bool:
    """Whether `lead` shares with `text` `least` long words that are no stop words, days' or
    months' names or words of moving, or two words in a row: what moves, not when."""
    shared = sum(
        1
        for w in lead.words & words(text)
        if len(w) >= 5
        and w.isalpha()
        and w not in _CALENDAR_WORDS
        and w not in STOPWORDS  # ("until 7:15", "until 12:15")
        and not _MOVED_RE.match(w)
    )
    return shared >= least or not _pairs(lead.text).isdisjoint(_pairs(text))  # ("open hive day")


def _pairs(text: str) -> set[tuple[str, str]]:
    """The pairs of words `text` says in a row, stop words left out, other than days' names
    and words of moving ("open hive day": ("open", "hive"), ("hive", "day"))."""
    said = [w for w in _WORD_RE.findall(text.lower()) if w not in STOPWORDS]
    return {
        (a, b)
        for a, b in zip(said, said[1:], strict=False)
        if not {a, b} & _CALENDAR_WORDS and not _MOVED_RE.match(a) and not _MOVED_RE.match(b)
    }


def _when(text: str) -> bool:
    """Whether `text` says when: a day or a time of day."""
    return names_day(text) or CLOCK_RE.search(text) is not None


def _same_subject(newer: Bullet, older: Bullet) -> bool:
    """Two statuses of one thing: similar words, or a shared figure and a shared long word
    ("backfill at 1.42B of 1.9B" and later "backfill finished: 1.9B"); never two releases of
    different versions ("0.9.0 is out!" and, days later, "0.9.1 is out")."""
    if similarity(newer.words, older.words) >= STALE:
        return not _other_releases(newer, older)
    if _expected_again(newer, older):
        return True
    if not newer.figures & older.figures:
        return False
    return any(len(w) >= 5 and w.isalpha() for w in newer.words & older.words)


# A count and what it counts: "23 failing", "141 registered".
_COUNTED_RE = re.compile(r"(?<![\w.,/:])(\d[\d,]*) ([a-z]{4,})\b")
# Words of one day's report ("today's catch: 45 birds"), which each day gives anew.
_DAILY_RE = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", re.IGNORECASE)


def _counts(bullet: Bullet) -> dict[str, re.Match[str]]:
    """The counts the bullet's lead gives ("23 failing"), by the word after each."""
    lead = bullet.picked[0].text if bullet.picked else ""
    return {m[2]: m for m in _COUNTED_RE.finditer(lead)} if _DIGIT_RE.search(lead) else {}


def _counted_again(
    newer: Bullet,
    older: Bullet,
    newer_counts: dict[str, re.Match[str]],
    older_counts: dict[str, re.Match[str]],
) -> bool:
    """Whether both bullets' leads count the same thing anew: the same word after another
    number, under a label both give before it (two long words or a version), on no two
    different days and neither as a day's report: a running count ("Python 3.14 status:
    ... 23 failing" and later "3.14: 12 failing"), the latest of which is the news.
    `newer_counts`, `older_counts`: the counts their leads give (`_counts`)."""
    leads = [newer.picked[0].text, older.picked[0].text]
    counts = [newer_counts, older_counts]
    units = [
        w
        for w in counts[0].keys() & counts[1].keys()
        if counts[0][w][1] != counts[1][w][1] and w not in STOPWORDS
    ]
    if not units or any(_DAILY_RE.search(lead) for lead in leads):
        return False
    days = [_dates_and_times(lead) for lead in leads]
    if all(days) and days[0] != days[1]:
        return False  # (each day's totals: "Mon 2 Nov totals: 187 new", "Tue 3 Nov ...")
    labels = [
        words(lead[: count[units[0]].start()]) for lead, count in zip(leads, counts, strict=True)
    ]
    numbers = [{w for w in label if _DIGIT_RE.search(w)} for label in labels]
    if all(numbers) and numbers[0].isdisjoint(numbers[1]):
        return False  # (two things counted: "0419 reference check: 52 references", "0421 ...")
    shared = labels[0] & labels[1] - STOPWORDS - _CALENDAR_WORDS
    # (a version, or two long words: not "story" alone, "Bridge vote story did 6,480
    # pageviews" and "Recount story at 4,100 pageviews")
    long = [w for w in shared if len(w) > MIN_SHARED and w.isalpha()]
    return len(long) >= 2 or any("." in w and w[0].isdigit() for w in shared)


_FROM_COUNT_RE = re.compile(r" \((?:down|up) from [\d,]+\)")


def _counted_from(newer: Bullet, older: Bullet) -> None:
    """Say in the newer bullet's lead the count the older gave first, after its own:
    "3.14: 12 failing (down from 23)" (over the note of a later count it replaced)."""
    lead, first = newer.picked[0], older.picked[0].text
    olds = {m[2]: m[1] for m in _COUNTED_RE.finditer(first)}
    for count in _COUNTED_RE.finditer(lead.text):
        old = olds.get(count[2])
        if old is None or old == count[1] or count[2] in STOPWORDS:
            continue
        change = "down" if _as_int(count[1]) < _as_int(old) else "up"
        end = count.end()
        noted = _FROM_COUNT_RE.match(lead.text, end)
        after = lead.text[noted.end() if noted else end :]
        text = f"{lead.text[:end]} ({change} from {old}){after}"
        newer.picked = (replace(lead, text=text), *newer.picked[1:])
        return


def _as_int(count: str) -> int:
    return int(count.replace(",", ""))


# When something is expected: "New ETA is Friday 3/6", "realistic ETA is Tuesday 3/10".
_ETA_RE = re.compile(r"\bETA\b")
_WEEKDAY_OR_DATE_RE = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}/\d{1,2})\b", re.IGNORECASE
)


def _expected_again(newer: Bullet, older: Bullet) -> bool:
    """Whether both bullets give when something is expected (an ETA and a day) and their
    messages name the same thing ("Epilog update: ... New ETA is Friday 3/6", then "Bad news
    on the Epilog ... realistic ETA is Tuesday 3/10"): the later ETA replaces the earlier."""
    leads = [b.picked[0] for b in (newer, older) if b.picked]
    if len(leads) < 2 or not all(
        _ETA_RE.search(f.text) and _WEEKDAY_OR_DATE_RE.search(f.text) for f in leads
    ):
        return False  # (most bullets)
    said = [_long_words(words(f.message.text)) for f in leads]
    return bool(said[0] & said[1])


def _other_releases(newer: Bullet, older: Bullet) -> bool:
    """Whether both bullets lead by announcing a release, of different versions."""
    leads = [b.picked[0].text for b in (newer, older) if b.picked]
    if len(leads) < 2 or not all(names_release(lead) for lead in leads):
        return False
    versions = [{version_key(v) for v in VERSION_RE.findall(lead)} for lead in leads]
    return all(versions) and versions[0] != versions[1]


def _authors_named(
    mentions: dict[str, PRMention], members: Mapping[str, str]
) -> dict[str, PRMention]:
    """`mentions` with each author's GitHub login as the member `members` knows by it."""
    if not any(m.author for m in mentions.values()):
        return mentions  # (most items)
    return {
        ref: replace(m, author=member_named(m.author, members)) if m.author else m
        for ref, m in mentions.items()
    }


# A person named beside a PR a message lists, as editors credit one: "antimeridian clipping
# (#1398, Mateus)", "label overlap fixed (#1404, thanks Kenji, and Sophie for testing)".
_NAME = r"[A-Z][a-z][\w'’-]*(?: [A-Z][a-z][\w'’-]*){0,2}"
_THANKS = r"(?:thanks(?: to)?|thx|by|h/t)\s+@?"
_CREDIT_BESIDE_RE = re.compile(
    rf"\((?P<ref>[\w./-]*#\d+),\s+(?:{_THANKS})?(?P<who>{_NAME})(?=[),])"
    # ... or a list line opening with the PR and closing with its thanks: "• #1192 jsonb
    # arrays decode correctly (thanks Diego)"
    rf"|^\W*(?P<listed>[\w./-]*#\d+)\b[^\n]*\({_THANKS}(?P<by>{_NAME})\)",
    re.MULTILINE,
)
_NOT_NAMES = frozenset([*calendar.day_name, *calendar.month_name[1:]])


def _credited_beside(
    mentions: dict[str, PRMention], item: Sequence[SourceMessage], members: Mapping[str, str]
) -> dict[str, PRMention]:
    """`mentions` with the person a member's message names beside a PR (`_CREDIT_BESIDE_RE`)
    as the author of a PR whose author nothing else says, by their full name where one
    member of the week goes by that first name."""
    if all(m.author for m in mentions.values()) or not any("(" in m.text for m in item):
        return mentions  # (most items)
    named: dict[str, str] = {}
    for message in item:
        if not message.is_bot:
            for found in _CREDIT_BESIDE_RE.finditer(message.text):
                ref, who = found["ref"] or found["listed"], found["who"] or found["by"]
                if who not in _NOT_NAMES:
                    named.setdefault(ref, who)
    if not named:
        return mentions
    return {
        ref: replace(m, author=_full_name(named[m.raw], members))
        if not m.author and m.raw in named
        else m
        for ref, m in mentions.items()
    }


def _full_name(name: str, members: Mapping[str, str]) -> str:
    """The one member of the week whose first name `name` is, or `name` as written."""
    full = {member for member in members.values() if member.split()[0] == name}
    return full.pop() if len(full) == 1 else name


def _mentions(item: Sequence[SourceMessage]) -> dict[str, PRMention]:
    """Every PR the item cites, people's mentions before bots' (theirs carry titles)."""
    seen: dict[str, PRMention] = {}
    for message in sorted(item, key=lambda m: m.is_bot):
        for mention in message.prs:
            known = seen.get(mention.ref)
            if known is None or (known.title is None and mention.title):
                seen[mention.ref] = mention
    return seen
