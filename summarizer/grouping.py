"""Assigning a week's messages to the community's standing topics.

Evidence, in the order it is weighed: the message's own words and channel (or a channel name
that speaks of a topic); the conversation it belongs to (a thread, or a chain of replies),
which goes to one topic as a whole; and the PRs it shares with other conversations. A
conversation without a keyword of its own is scored by what the week's placed conversations
taught a term model (`summarizer.termmodel`); one with little evidence, or as much for two
topics, leans towards what its author and channel were about that week and where earlier
weeks' drafts placed its PRs and people. Self-introductions are recognised on their own.
What has no evidence goes to the catch-all topic, which is the last one configured.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from fnmatch import fnmatch

from summarizer.addresses import with_addresses
from summarizer.conversations import conversations
from summarizer.corrections import corrected
from summarizer.figures import count_figures
from summarizer.integrations import on_behalf
from summarizer.introductions import is_welcome, welcomes
from summarizer.link_comments import joined_link_comments
from summarizer.names import (
    channel_key,
    with_mentions_once,
    with_plain_names,
    without_vocatives,
)
from summarizer.noise import is_noise
from summarizer.previews import written
from summarizer.quotes import quoted_replies
from summarizer.signals import is_announcement
from summarizer.termmodel import TermModel, features
from summarizer.text import (
    FIRST_PERSON_RE,
    GREETING,
    URL_RE,
    holds_word,
    says_to_the_reader,
    word_opening,
)
from summarizer.types import PRMention, SourceMessage, Topic

CHANNEL_WEIGHT = 2.5  # three keyword hits outweigh a channel, one or two do not
CHANNEL_MESSAGES = 2  # ... counted for this many of a conversation's messages against words
PR_WEIGHT = 2.0  # a cited PR's label or touched path points to a topic
REPO_WEIGHT = 1.0  # a cited PR's repository named for a topic ("team/firmware"): a keyword
KEYWORD_CAP = 3  # a long message repeating one word should not outvote its channel
PR_CONTEXT_WEIGHT = 0.5
TITLE_WEIGHT = 1.0  # a thread's name counts once for the whole thread
HEADLINE_WEIGHT = 2.0  # the first line of a post of several counts this much again
# Who talks about what: a conversation with little evidence of its own leans towards the
# topics its people talked about elsewhere that week (what places it in one busy #general).
AUTHOR_WEIGHT = 0.75  # less than one keyword: words the conversation says come first
CHANNEL_PRIOR_WEIGHT = 1.5  # a channel whose conversations go to one topic (#evals: other)
WEAK_EVIDENCE = 2.0
MAX_LENDING_PRS = 3
# The week's term model speaks for conversations with less than one keyword of their own. It
# adds this much per log-likelihood ratio of a topic's own features (one strongly topical
# word is worth about half a keyword), and at most as much as two keywords.
ONE_KEYWORD = 1.0
LEARNT_WEIGHT = 0.3
LEARNT_CAP = 2.0
EARLIER_PR_WEIGHT = 2.5  # a PR earlier drafts cited under one topic: as good as a channel
EARLIER_PERSON_WEIGHT = 1.0  # a person's earlier topics: more than this week's alone
INTRODUCTIONS = "introductions"
# The introductions topic however an admin names it: "intros", "Introduce yourself",
# "Newcomers", "New members", a #welcome channel.
_INTRODUCTIONS_RE = re.compile(r"\b(?:intro\w*|newcomers?|new members?|welcome)\b")
# ... or, as the whole name, the people who are new ("New volunteers", "new-recruits"; not
# "Station news and new volunteers", whose news is not introductions).
_NEW_PEOPLE_RE = re.compile(
    r"(?:our )?new (?:volunteers?|people|folks|faces|players|students|recruits|hires|joiners)"
)
# A channel named for chatter (Slack's own #random, #off-topic, #memes): what is said there
# is news only when someone pinned or announced it or it cites a PR (reactions there are
# to a joke as often as to news).
_CHATTER_CHANNEL_RE = re.compile(r"\b(?:random|off ?topic|memes?|chit ?chat|watercooler)\b")
INTRO_SCORE = 3
_FIRST_PR_RE = re.compile(r"\bmy first (?:PR|pull request|contribution)\b", re.IGNORECASE)
MIN_INTRO_WORDS = 8  # outside an introductions channel, an introduction says something
HERE_CHARS = 60  # "Ben here" this early opens a message by naming its author
MEASURED_FIGURES = 2  # ... and one that measures this much, naming nobody, is work news
# What a moderator or a member says of spam just after it ("don't click that", "banned",
# "deactivated that account"): the words any community uses for it.
# (what was done to the poster, not "you're not banned, it's the verification level")
_MODERATED = "banned|kicked|removed|deleted|deactivated"
_MODERATION_RE = re.compile(
    r"\b(?:(?:is|that'?s|more|just) spam|spam(?:mer|bot)s?|scam\w*|phish\w*|"
    r"(?:don'?t|do not) click|spam (?:removed|deleted|gone)"
    r"|(?:account|user) (?:\w+ )?(?:compromised|hacked|banned|kicked|deactivated|removed)"
    r"|(?:banned|kicked|deactivated|removed|deleted) (?:that|the|this|them|him|her|it|their)"
    r")\b"
    # (a reply that is only what was done: "banned", "reported + deactivated, sorry folks";
    # "reported, thanks" alone answers a bug report)
    rf"|^\W*(?:reported\W+(?:and\W+)?)?(?:{_MODERATED})(?:\W+(?:and\W+)?(?:{_MODERATED}|reported))*"
    r"(?:\W*$|,)",
    re.IGNORECASE,
)
SPAM_FOLLOW_UPS = 3  # ... within this many messages after it in its channel
SPAM_WINDOW = timedelta(hours=1)  # ... and this soon

_GREETING_RE = re.compile(
    rf"^\W*(?:{GREETING})\b"
    # (a greeting in any language: "Moin! Felix here, ...", "Olá pessoal! Sou o Bruno")
    r"|^\W*[^\W\d_]{2,8}(?:\s[^\W\d_]{1,10}){0,3}!+\s",
    re.IGNORECASE,
)
_SELF_RE = re.compile(  # "I'm Mei" names oneself; "I'm starting", "my name is missing" do not
    r"\b(?:i'?m an? |i am an? |about myself|(?:i'?m|i am|my name is) (?-i:[A-Z]))",
    re.IGNORECASE,
)
_NEWCOMER_RE = re.compile(
    r"\b(?:new here|just joined|first (?:post|message)|long[- ]time lurker|been lurking|"
    r"introduce myself|quick intro|glad to be here|excited to (?:be here|join))\b",
    re.IGNORECASE,
)
_SELF_OR_NEWCOMER_RE = re.compile(f"{_SELF_RE.pattern}|{_NEWCOMER_RE.pattern}", re.IGNORECASE)
# The same for lower-cased ASCII text, searched case-sensitively, several times faster: it
# finds all the other does (and "i'm starting" too, the capital of a name being lost), so it
# rules most chat out and the other decides the rest.
_SELF_OR_NEWCOMER_FOLDED_RE = re.compile(_SELF_OR_NEWCOMER_RE.pattern.replace("[A-Z]", "[a-z]"))
_WORD_RE = re.compile(r"\w")
_ABOUT_RE = re.compile(
    r"\b(?:work(?:ing)? (?:on|at|in)|research|phd|student|engineer|scientist|interested in|"
    r"joined|excited to|background in|based in|from)\b",
    re.IGNORECASE,
)


class TopicScorer:
    """All topics compiled into two regexes (keywords, patterns), so a message is scanned
    twice in all rather than twice per topic.

    The introductions topic gets no evidence here: what goes there is a newcomer saying who
    they are (`is_self_introduction`), not any message with its words ("I'm new here and
    can't find the RSVP list" is a question)."""

    def __init__(self, topics: Sequence[Topic], spoken_in: Collection[str] = ()) -> None:
        """`spoken_in`: the channels the week's people wrote in, where known."""
        self.topics = list(topics)
        # A community's one channel is named for the community ("#members"), not for a
        # topic that shares the word: its name places nothing the admin did not map.
        self._lone = next(iter(spoken_in)) if len(spoken_in) == 1 else None
        intro = introductions_topic(topics)
        # The topics a channel's name can speak of (not the catch-all, which has no name,
        # nor introductions: a channel named for them places nothing).
        self._nameable = {i for i, t in enumerate(self.topics[:-1]) if t is not intro}
        scored = [Topic(t.id, t.title) if t is intro else t for t in self.topics]
        self.channels = [frozenset(map(channel_key, t.channels)) for t in scored]
        # (topics the admin gave words but no channel: what is said of them anywhere)
        self.unchannelled = [
            i for i in self._nameable if not self.channels[i] and self.topics[i].keywords
        ]
        self.labels = [frozenset(label.lower() for label in t.labels) for t in scored]
        self.paths = [t.paths for t in scored]
        self._channel_topics: dict[str, list[int]] = {}
        self._repo_topics: dict[str, list[int]] = {}
        # Each keyword stands for the first topic that has it: the one whose alternative
        # the regex tries first.
        self._keyword_topic: dict[str, int] = {}
        keywords: list[str] = []
        pattern_groups = []
        for index, topic in enumerate(scored):
            # Longest first, so "hero run" wins over "hero". Keywords are matched against
            # lower-cased text: much faster than a case-insensitive regex.
            for word in sorted({k.lower() for k in topic.keywords}, key=len, reverse=True):
                keywords.append(word)
                self._keyword_topic.setdefault(word, index)
            if topic.patterns:
                alternatives = "|".join(f"(?:{p})" for p in topic.patterns)
                pattern_groups.append(f"(?P<t{index}>{alternatives})")
        self.keywords = _keywords_regex(keywords) if keywords else None
        self.patterns = (
            re.compile("|".join(pattern_groups), re.IGNORECASE) if pattern_groups else None
        )

    def scores(self, message: SourceMessage) -> list[float]:
        """The evidence for each topic: its channel, its words (capped per topic) and what
        GitHub says about the PRs it cites."""
        scores = [0.0] * len(self.topics)
        self.add_scores(message, scores)
        return scores

    def add_scores(self, message: SourceMessage, scores: list[float]) -> None:
        """Add the evidence `message` gives each topic to `scores`."""
        for index in self._topics_of_channel(message.channel):
            scores[index] += CHANNEL_WEIGHT
        self._add_hits(message.text, scores, 1.0)
        # (a post's first line says what it is about: "Tallow 0.9.0 is out!"; a link
        # preview's title names a page, often only its site's)
        headline, newline, _ = written(message).partition("\n")
        if newline:
            self._add_hits(headline, scores, HEADLINE_WEIGHT)
        if message.prs:
            for index in {i for m in message.prs for i in self._topics_of_repo(m.ref)}:
                scores[index] += REPO_WEIGHT
        for mention in message.prs:
            if mention.labels or mention.paths:  # only what GitHub told says anything here
                for index, score in enumerate(self.pr_scores(mention)):
                    scores[index] += score

    def add_title_scores(self, title: str, scores: list[float]) -> None:
        """Add the evidence a thread's name gives each topic (its words, weighed more)."""
        self._add_hits(title, scores, TITLE_WEIGHT)

    def is_mapped(self, channel: str) -> bool:
        """Whether the admin's config maps `channel` to a topic."""
        return bool(self._topics_of_channel(channel))

    def _topics_of_channel(self, channel: str) -> list[int]:
        """The topics a channel belongs to: those that list it, or else the one topic its
        name speaks of (#hero-run-2026 for a topic with channel #hero-run, #k8s-alerts for
        one with the keyword "k8s")."""
        found = self._channel_topics.get(channel)
        if found is None:
            key = channel_key(channel)
            found = [i for i, channels in enumerate(self.channels) if key in channels]
            if not found and channel != self._lone:
                named = self._named_topics(channel)
                found = named if len(named) == 1 else []
            self._channel_topics[channel] = found
        return found

    def _topics_of_repo(self, ref: str) -> list[int]:
        """The one topic a PR's repository is named for ("ursa/firmware#38" for a topic with
        the keyword "firmware"), if any."""
        repo = ref.partition("#")[0].rpartition("/")[2]
        found = self._repo_topics.get(repo)
        if found is None:
            named = self._named_topics(repo) if repo else []
            found = self._repo_topics[repo] = named if len(named) == 1 else []
        return found

    def _named_topics(self, channel: str) -> list[int]:
        name = f" {_spaced(channel)} "
        return [
            index
            for index, topic in enumerate(self.topics)
            if index in self._nameable
            and any(
                f" {_spaced(word)} " in name
                for word in (topic.id, *topic.channels, *topic.keywords)
                if _spaced(word)
            )
        ]

    def _add_hits(self, text: str, scores: list[float], weight: float) -> None:
        """Add `weight` per keyword and pattern of each topic in `text`, at most
        `KEYWORD_CAP` per topic."""
        hits = (
            [self._keyword_topic[word] for word in self.keywords.findall(text.lower())]
            if self.keywords is not None
            else []
        )
        if self.patterns is not None:
            hits += [
                int(name[1:])  # each pattern is the group "t<topic index>"
                for match in self.patterns.finditer(text)
                if (name := match.lastgroup) is not None
            ]
        if not hits:
            return
        counts: dict[int, int] = {}
        for index in hits:
            counts[index] = counts.get(index, 0) + 1
        for index, count in counts.items():
            scores[index] += weight * min(count, KEYWORD_CAP)

    def pr_scores(self, mention: PRMention) -> list[float]:
        """The evidence a PR's GitHub labels and touched paths give each topic."""
        labels = {label.lower() for label in mention.labels}
        return [
            PR_WEIGHT * (bool(labels & wanted) + _touches(mention.paths, globs))
            for wanted, globs in zip(self.labels, self.paths, strict=True)
        ]


def _spaced(name: str) -> str:
    """A channel name, id or keyword as lower-case words separated by single spaces."""
    return " ".join(re.findall(r"[^\W_]+", name.lower()))


def _keywords_regex(words: Sequence[str]) -> re.Pattern[str]:
    """Whole-word matches of `words`, the earlier of two that match at one place winning.

    Where at most one keyword can match at any place, the alternatives are laid out as a
    trie ("hero (?:run|shape)"): the regex engine then tests each character once instead of
    once per keyword, and which one comes first no longer matters. Either way the keywords
    are grouped by their first character, in their order within a group (only keywords with
    the same first character can match at one place).
    """
    one_per_place = _one_match_per_place(words)
    by_first: dict[str, list[str]] = {}
    for word in words:
        by_first.setdefault(word[0], []).append(word[1:])
    body = "|".join(_opening(first, rests, one_per_place) for first, rests in by_first.items())
    return re.compile(rf"(?:{body})(?!\w)")


def _opening(first: str, rests: Sequence[str], one_per_place: bool) -> str:
    """The keywords that start with `first`, as a pattern that opens with that character
    (`word_opening`)."""
    return word_opening(first, _trie(rests) if one_per_place else "|".join(map(re.escape, rests)))


def _one_match_per_place(words: Sequence[str]) -> bool:
    """Whether no two keywords can match at the same place: that needs one to be the other
    followed by a non-word character (after a word character the shorter one cannot end)."""
    return not any(
        long != short and long.startswith(short) and not _WORD_RE.match(long, len(short))
        for short in words
        for long in words
    )


def _trie(words: Sequence[str]) -> str:
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a keyword ends here
    return _alternatives(root)


def _alternatives(node: dict[str, dict]) -> str:
    branches = [
        re.escape(char) + _alternatives(child) if char else "" for char, child in node.items()
    ]
    return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"


def _touches(paths: Sequence[str], globs: Sequence[str]) -> bool:
    """Whether a touched path falls under a glob ("lib/iris/**" matches "lib/iris")."""
    return any(
        fnmatch(path, pattern) or fnmatch(path + "/", pattern) or fnmatch(path + "/x", pattern)
        for path in paths
        for pattern in globs
    )


def introductions_topic(topics: Sequence[Topic]) -> Topic | None:
    """The topic newcomers introduce themselves under: the one with the id "introductions",
    or else the first whose id, title or a channel names it ("intros", "Newcomers",
    #welcome); None where there is none (the catch-all never is)."""
    named = next((t for t in topics if t.id == INTRODUCTIONS), None)
    return named or next(
        (
            topic
            for topic in topics[:-1]
            if any(
                _INTRODUCTIONS_RE.search(_spaced(name)) or _NEW_PEOPLE_RE.fullmatch(_spaced(name))
                for name in (topic.id, topic.title, *topic.channels)
            )
        ),
        None,
    )


def is_self_introduction(
    message: SourceMessage,
    intro_channels: Collection[str] = (),
    answered: SourceMessage | None = None,
    first_names: Collection[str] = (),
) -> bool:
    """A newcomer saying who they are: in an introductions channel (`intro_channels`, as
    `channel_key` writes them), any statement about themselves that does not open by
    calling another member (`first_names`, lower-case) by name ("Lucía!! yes please, we're
    doing a docs sprint", "bienvenue Élodie!"); elsewhere, enough signs of one (a greeting,
    "I'm a ...", their own name, "new here", what they work on) and no PR (that is work
    talk) unless it is their first. A reply (in a thread too) is one only to a welcome
    (`answered`: the message it replies to, a bot's greeting or a member's "Welcome Ana!
    Tell us about yourself", or one naming them: "new students start today: @Omar")."""
    if message.is_bot:
        return False
    # (the name as written first: a cheap look at most replies)
    named_in_answered = (
        answered is not None
        and message.author.partition(" ")[0] in answered.text
        and _names_self(message.author, answered.text.replace("@", " "))
    )
    if answered_id(message) and not (
        answered is not None
        and (
            answered.is_bot
            or welcomes(answered.text)
            # ("Two new students start today, please say hi: @Omar Farouk and @Mei Lin")
            or named_in_answered
        )
    ):
        return False
    head = message.text[:400]
    # (an answer to a welcome naming its author says who they are however they put it:
    # "I taught 8th grade social studies for 31 years")
    welcomed = named_in_answered and answered is not None and welcomes(answered.text)
    if welcomed or channel_key(message.channel) in intro_channels:
        # Newcomers introduce themselves in many ways ("Ximena here. I run ..."); what is a
        # statement about oneself, not a reply, a welcome or a question, counts.
        names_self = bool(_SELF_RE.search(head)) or _names_self(message.author, head)
        # (by its first word or the one after it: "bienvenue Élodie! (that's all my French)")
        called = {word.strip(",.!:;@").casefold() for word in head.split(maxsplit=2)[:2]}
        return (
            len(head) >= 40
            and not welcomes(head)
            and not called.intersection(first_names) - {_first_name(message.author)}
            # (a newcomer asks what they came to ask after saying who they are)
            and (names_self or not head.rstrip().endswith("?"))
            and bool(
                FIRST_PERSON_RE.search(head)
                or names_self
                # ("PhD student in geometry, working on meshes": who, said without "I")
                or _ABOUT_RE.search(head)
                and not says_to_the_reader(head)
            )
        )
    if message.prs and not (_FIRST_PR_RE.search(head) or _says_who_first(message.author, head)):
        # (work talk; but a newcomer says so: "I just opened my first PR (#12)", "I'm Lena,
        # Android dev from Zagreb ... maybe #1377?")
        return False
    lower = head.lower()
    # (their name in a link of theirs, "kjell.dev/posts", does not introduce them)
    named = holds_word(
        URL_RE.sub(" ", lower[:200])[:80] if "://" in lower else lower[:80],
        message.author.split()[0].lower(),
    )
    if not named and not _says_who_or_new(head, lower):
        return False  # most messages: one scan tells
    if len(head.split()) < MIN_INTRO_WORDS or welcomes(head):
        # a greeting with a name ("comfy in here. Hi from Luca") says nothing; a welcome
        # ("Please welcome Hana, who joins us as ...") is to someone else
        return False
    if not _SELF_RE.search(head) and count_figures(head) >= MEASURED_FIGURES:
        return False  # ("first post in here :wave: ran our suite: 88.2% at 8k to 41.7% ...")
    # Two points are needed from saying who one is before the others can count.
    # ("Ben here, I ride a CAAD10": who, then of themselves; not "Ben here, deploy's done")
    says_self = bool(_SELF_RE.search(head)) or (
        _here(message.author, head) and FIRST_PERSON_RE.search(head) is not None
    )
    strong = 2 * (says_self + bool(_NEWCOMER_RE.search(head)) + named)
    score = strong + bool(_GREETING_RE.search(head)) + bool(_ABOUT_RE.search(head))
    return score >= INTRO_SCORE


def answered_id(message: SourceMessage) -> str | None:
    """The id of the message `message` replies to: the one it names, or else its thread's
    first (a Slack thread's replies name none)."""
    if message.reply_to_id:
        return message.reply_to_id
    return message.thread_id if message.thread_id not in (None, message.id) else None


def _names_self(author: str, head: str) -> bool:
    """Whether `head` holds its author's first name, in any case ("lena here, ...")."""
    return holds_word(head.casefold(), author.split()[0].casefold())


def _here(author: str, head: str) -> bool:
    """Whether `head` opens by saying its author is here ("Morning all. Ben here, 52, ...",
    "Mālō e lelei everyone, Tevita here."): a newcomer's way of naming themselves."""
    first = author.split()[0]
    return re.search(rf"\b{re.escape(first)} here\b", head[:HERE_CHARS], re.IGNORECASE) is not None


def _says_who_first(author: str, head: str) -> bool:
    """Whether `head` says who its author is by name and what they do or where they are from
    ("I'm Lena, Android dev from Zagreb"), not only their name over work news ("I'm Bo:
    #2418 makes the loader stream shards")."""
    return bool(_SELF_RE.search(head) and _ABOUT_RE.search(head)) and _names_self(author, head)


def _says_who_or_new(head: str, lower: str) -> bool:
    """Whether `head` (`lower` lower-cased) says who its author is or that they are new."""
    if head.isascii() and _SELF_OR_NEWCOMER_FOLDED_RE.search(lower) is None:
        return False
    return _SELF_OR_NEWCOMER_RE.search(head) is not None


@dataclass(frozen=True, slots=True)
class TopicPriors:
    """What earlier weeks' drafts said: per PR ref and per person, how often each topic id
    cited them. A conversation with little evidence of its own leans towards them."""

    prs: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    people: Mapping[str, Mapping[str, float]] = field(default_factory=dict)


def group_by_topic(
    messages: Sequence[SourceMessage],
    topics: Sequence[Topic],
    priors: TopicPriors | None = None,
) -> dict[str, list[SourceMessage]]:
    """The non-noise messages of `messages` under each topic id, in time order (a link
    and its comment sent apart as one, `summarizer.link_comments`; a message quoting an
    earlier one as its reply, `summarizer.quotes`; a value someone corrected, as corrected,
    `summarizer.corrections`).

    Every topic id is a key (empty topics map to an empty list). The last topic is the
    catch-all for conversations without evidence. `priors` are earlier weeks' placements of
    the week's PRs and people.
    """
    if not topics:
        raise ValueError("at least one topic is needed")
    kept = corrected(
        quoted_replies(
            joined_link_comments(
                sorted(
                    (
                        m
                        for m in with_mentions_once(
                            with_plain_names(with_addresses(on_behalf(_answers_apart(messages))))
                        )
                        if not is_noise(m)
                    ),
                    key=lambda m: m.created_at,
                )
            )
        )
    )
    scorer = TopicScorer(topics, {m.channel for m in kept if not m.is_bot})
    catch_all = topics[-1].id
    intro_topic = introductions_topic(topics)
    intro_channels = frozenset(map(channel_key, intro_topic.channels if intro_topic else ()))

    # Without an introductions topic, newcomers are welcomed in the catch-all.
    newcomers_to = (intro_topic or topics[-1]).id
    grouped: dict[str, list[SourceMessage]] = {t.id: [] for t in topics}
    rest: list[SourceMessage] = []
    by_id = {m.id: m for m in messages}  # (bots too)
    said_elsewhere = (
        {
            p.ref
            for m in kept
            if m.prs and channel_key(m.channel) not in intro_channels
            for p in m.prs
        }
        if intro_channels
        else set()
    )
    posts = Counter(m.author_id for m in kept)
    first_names = {_first_name(m.author) for m in kept if not m.is_bot}
    spam = _spam(kept, posts)
    chatter_channels = {
        channel
        for channel in {m.channel for m in kept}
        if _CHATTER_CHANNEL_RE.search(_spaced(channel)) and not scorer.is_mapped(channel)
    }
    for message in kept:
        if message.id in spam:
            continue  # (a scam's "hey guys im giving away my steam gift" greets, too)
        answered = by_id.get(answered_id(message) or "")
        if is_self_introduction(message, intro_channels, answered, first_names) or (
            intro_topic is not None and is_welcome(message)
        ):
            grouped[newcomers_to].append(message)
        elif (
            intro_topic is not None
            and channel_key(message.channel) in intro_channels
            and not _cites_alone(message, said_elsewhere)
        ):
            continue  # welcomes and small talk under an introduction
        elif _off_topic(message, chatter_channels):
            continue
        else:
            rest.append(message)

    # (after introductions are found: "Priya!! yes please" welcomes her)
    rest = without_vocatives(rest, {m.author for m in kept if not m.is_bot})
    assigned = _assign(rest, scorer, catch_all, priors or TopicPriors())
    for message, topic_id in zip(rest, assigned, strict=True):
        grouped[topic_id].append(message)
    return grouped


def _first_name(name: str) -> str:
    """A display name's first word, lower-case ("Lucía Ferrer" -> "lucía")."""
    return name.split(maxsplit=1)[0].casefold() if name.strip() else ""


def _off_topic(message: SourceMessage, chatter_channels: Collection[str]) -> bool:
    """Whether `message` is chatter in one of `chatter_channels` (named for it, given no
    topic by the admin: `_CHATTER_CHANNEL_RE`) that nobody made news of."""
    return message.channel in chatter_channels and not message.prs and not is_announcement(message)


def _spam(messages: Sequence[SourceMessage], posts: Mapping[str, int]) -> set[str]:
    """The ids of spam and what was said to clean it up, both no news however many people
    reacted. Spam is a post by someone who said nothing else all week that either sends a
    link to the whole channel and nobody took it up ("@everyone free nitro, claim before it
    expires 👉 <link>"), or that one of the next messages in its channel calls spam ("don't
    click that ^^ their account got compromised", "deactivated that account, thanks for the
    reports"); that call-out goes with it."""
    found: set[str] = set()
    suspect: dict[str, tuple[SourceMessage, int]] = {}  # channel -> one-off post, messages since
    for message in messages:
        post, since = suspect.get(message.channel, (None, 0))
        if (
            post is not None
            and since < SPAM_FOLLOW_UPS
            and message.author_id != post.author_id
            and message.created_at - post.created_at <= SPAM_WINDOW
            and _MODERATION_RE.search(message.text) is not None
        ):
            found.update((post.id, message.id))
        if posts[message.author_id] == 1 and message.thread_id in (None, message.id):
            suspect[message.channel] = (message, 0)
            if _blasted(message):
                found.add(message.id)
        elif post is not None:
            suspect[message.channel] = (post, since + 1)
    return found


def _blasted(message: SourceMessage) -> bool:
    """Whether `message` sends a link to the whole channel and nobody took it up."""
    return (
        not (message.reactions or message.replies or message.pinned)
        and is_announcement(message)
        and URL_RE.search(message.text) is not None
    )


def _answers_apart(messages: Sequence[SourceMessage]) -> Sequence[SourceMessage]:
    """The messages, the replies in a thread a bot opened ("What are you working on this
    week?") out of it: each answer is its own news, not one conversation's."""
    prompts = {m.id for m in messages if m.is_bot and m.thread_id == m.id}
    if not prompts:
        return messages  # (most weeks)
    return [
        replace(m, thread_id=None) if m.thread_id in prompts and m.id not in prompts else m
        for m in messages
    ]


def _cites_alone(message: SourceMessage, said_elsewhere: Collection[str]) -> bool:
    """Whether `message` cites a PR no message outside the introductions channel cites: it
    is placed as any other, so that the PR is in the draft."""
    return any(p.ref not in said_elsewhere for p in message.prs)


def _assign(
    messages: Sequence[SourceMessage], scorer: TopicScorer, catch_all: str, priors: TopicPriors
) -> list[str]:
    """The topic id of each message, decided per conversation."""
    n_topics = len(scorer.topics)
    root_of = [0] * len(messages)
    members_of: dict[int, list[int]] = {}
    totals: dict[int, list[float]] = {}
    prs_of: dict[int, set[str]] = {}
    for members in conversations(messages):
        root = members[0]
        members_of[root] = members
        row = totals[root] = [0.0] * n_topics
        refs = prs_of[root] = set()
        titles = set()
        for i in members:
            root_of[i] = root
            message = messages[i]
            scorer.add_scores(message, row)
            if message.prs:
                refs.update(p.ref for p in message.prs)
            if message.thread_title:
                titles.add(message.thread_title)
        for title in titles:
            scorer.add_title_scores(title, row)
        if scorer.unchannelled and len(members) > CHANNEL_MESSAGES:
            _weigh_unchannelled(scorer, [messages[i] for i in members], row)

    # A PR discussed in several conversations lends each of them the others' evidence; a
    # recap citing many PRs lends none (it would pull them all to its own topic).
    by_pr: dict[str, list[float]] = defaultdict(lambda: [0.0] * n_topics)
    for root, refs in prs_of.items():
        if len(refs) <= MAX_LENDING_PRS:
            for ref in refs:
                by_pr[ref] = [a + b for a, b in zip(by_pr[ref], totals[root], strict=True)]

    evidence: dict[int, list[float]] = {}
    for root, own in totals.items():
        refs = prs_of[root]
        if not refs or scorer.is_mapped(messages[root].channel):
            # (an admin's channel map says where a conversation goes: other conversations
            # citing its PRs do not move it)
            evidence[root] = own
            continue
        scores = list(own)
        lends = len(refs) <= MAX_LENDING_PRS
        for ref in refs:
            lent = by_pr[ref]
            for t in range(n_topics):
                scores[t] += PR_CONTEXT_WEIGHT * (lent[t] - lends * own[t])
        evidence[root] = scores

    first = {root: _best(scores) for root, scores in evidence.items()}
    strength = {root: max(scores) for root, scores in evidence.items()}
    _learn_from_week(messages, members_of, evidence)
    by_author = _shares(first, lambda m: m.author_id, messages, n_topics)
    by_channel = _shares(first, lambda m: m.channel, messages, n_topics)
    topic_ids = [topic.id for topic in scorer.topics]
    intro = introductions_topic(scorer.topics)
    earlier = _Earlier(priors, topic_ids, intro.id if intro else None)
    decided: dict[int, str] = {}
    for root, scores in evidence.items():
        if (strength[root] < WEAK_EVIDENCE or _undecided(scores)) and (
            max(scores) > 0 or prs_of[root]
        ):
            # Little to go on, or two topics alike: lean towards what its author and its
            # channel were about this week, and where earlier weeks placed its PRs and people.
            author = by_author[messages[root].author_id]
            channel = by_channel[messages[root].channel]
            before = earlier.leaning(messages, members_of[root], prs_of[root])
            scores = [
                s + AUTHOR_WEIGHT * a + CHANNEL_PRIOR_WEIGHT * c + e
                for s, a, c, e in zip(scores, author, channel, before, strict=True)
            ]
        strongest = max(scores)
        decided[root] = topic_ids[scores.index(strongest)] if strongest > 0 else catch_all
    return [decided[root] for root in root_of]


def _weigh_unchannelled(
    scorer: TopicScorer, members: Sequence[SourceMessage], row: list[float]
) -> None:
    """Against a topic the admin gave words but no channel, a long conversation's channel
    counts for `CHANNEL_MESSAGES` of its messages only: a 15-message thread in a mapped
    #projects about a grant ("Grant: ... deadline Nov 5") goes to the grants topic its words
    name, not by how many replies it had. Only such a topic that its words point to gains."""
    mapped = sum(1 for m in members if scorer.is_mapped(m.channel))
    extra = CHANNEL_WEIGHT * max(0, mapped - CHANNEL_MESSAGES)
    for t in scorer.unchannelled:
        if row[t] > 0:
            row[t] += extra


def _learn_from_week(
    messages: Sequence[SourceMessage],
    members_of: dict[int, list[int]],
    evidence: dict[int, list[float]],
) -> None:
    """Add to the evidence of each conversation without a keyword of its own what a term
    model learnt from the week's placed conversations says about it (one with a keyword
    keeps its word: a guess from the week's vocabulary flips more right ones than wrong).

    A conversation teaches the topic its evidence points to: fully when it leads the
    runner-up by `WEAK_EVIDENCE`, half below that.
    """
    n_topics = len(next(iter(evidence.values()), ()))
    if n_topics < 2:
        return
    model = TermModel(n_topics)
    weak: dict[int, set[str]] = {}  # only these are kept: a week's features are many
    for root, members in members_of.items():
        said = features(messages[root])
        for i in members[1:]:
            said |= features(messages[i])
        model.observe(said)
        scores = evidence[root]
        ranked = sorted(scores, reverse=True)
        lead = ranked[0] - ranked[1]
        if lead > 0:
            model.learn(said, scores.index(ranked[0]), confident=lead >= WEAK_EVIDENCE)
        if ranked[0] < ONE_KEYWORD:
            weak[root] = said
    for root, said in weak.items():
        scores = evidence[root]
        for t, gained in enumerate(model.evidence(said)):
            scores[t] += min(LEARNT_CAP, LEARNT_WEIGHT * gained)


class _Earlier:
    """Earlier weeks' placements of PRs and people, as shares per topic of this week (an
    introduction says who someone is, not what they work on: it is left out)."""

    def __init__(
        self, priors: TopicPriors, topic_ids: Sequence[str], introductions: str | None
    ) -> None:
        self.index = {topic: t for t, topic in enumerate(topic_ids) if topic != introductions}
        self.none = [0.0] * len(topic_ids)
        self.prs = {ref: self._shares(row) for ref, row in priors.prs.items()}
        self.people = {name: self._shares(row) for name, row in priors.people.items()}

    def _shares(self, row: Mapping[str, float]) -> list[float]:
        shares = list(self.none)
        counted = {self.index[topic]: count for topic, count in row.items() if topic in self.index}
        total = sum(counted.values())
        for t, count in counted.items():
            shares[t] = count / total
        return shares

    def leaning(
        self, messages: Sequence[SourceMessage], members: Sequence[int], refs: set[str]
    ) -> list[float]:
        """The evidence earlier weeks give a conversation: its PRs', then its authors'."""
        if not self.prs and not self.people:
            return self.none
        scores = list(self.none)
        for ref in refs:
            for t, share in enumerate(self.prs.get(ref, self.none)):
                scores[t] += EARLIER_PR_WEIGHT * share
        for author in {messages[i].author for i in members}:
            for t, share in enumerate(self.people.get(author, self.none)):
                scores[t] += EARLIER_PERSON_WEIGHT * share
        return scores


def _undecided(scores: Sequence[float]) -> bool:
    """Whether two topics have the most evidence alike (less than a keyword apart)."""
    if len(scores) < 2:
        return False
    first, second = sorted(scores, reverse=True)[:2]
    return first - second < ONE_KEYWORD


def _best(scores: Sequence[float]) -> int:
    """The index of the topic with the most evidence (the first of equals); the catch-all
    (last) without any."""
    strongest = max(scores)
    return scores.index(strongest) if strongest > 0 else len(scores) - 1


def _shares(
    first: dict[int, int],
    key: Callable[[SourceMessage], str],
    messages: Sequence[SourceMessage],
    n_topics: int,
) -> dict[str, list[float]]:
    """Per author id or channel (`key` of a conversation's first message), the share of its
    conversations that went to each topic on their own evidence (catch-all included)."""
    counts: dict[str, list[float]] = defaultdict(lambda: [0.0] * n_topics)
    for root, topic in first.items():
        counts[key(messages[root])][topic] += 1
    return {k: [c / sum(row) for c in row] for k, row in counts.items()}


def place_merged(
    merged: Sequence[PRMention], topics: Sequence[Topic]
) -> dict[str, list[PRMention]]:
    """Merged PRs nobody cited, under the topic their labels or paths point to; the rest
    under the catch-all topic (the last)."""
    scorer = TopicScorer(topics)
    placed: dict[str, list[PRMention]] = {}
    for mention in merged:
        scores = scorer.pr_scores(mention)
        best = max(range(len(topics)), key=lambda t: (scores[t], -t))
        topic = topics[best].id if scores[best] > 0 else topics[-1].id
        placed.setdefault(topic, []).append(mention)
    return placed
