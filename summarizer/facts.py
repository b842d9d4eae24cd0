"""What a work item says that is news: the sentences of its messages that cite a PR, give a
figure or settle something, the answer to another person's how-to question, or what people
took as news (`summarizer.signals`: reactions, replies, links, days, releases).

Questions, requests, opinions, jokes and chatter are left out, and so are sentences that
introduce a list or a code block; a PR no such sentence cites is said by the line that cites
it (a list line, the line before a code block, the line a bare link follows). Each fact
carries what leading a bullet with it is worth (`Fact.gain`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from summarizer.figures import FIGURE_RE, amounts, find_figures, is_measure
from summarizer.introductions import welcomes
from summarizer.newsletter import capitalised, voiced
from summarizer.noise import is_acknowledgement, is_review_chatter
from summarizer.phrasing import (
    ANAPHORA_RE,
    REPLY_OPENER_RE,
    clean_sentence,
    is_laugh,
    points_back,
    without_pointing_label,
)
from summarizer.previews import LINK_RE, page_title, with_titles, written
from summarizer.signals import names_day, names_release, shows_something, text_gain
from summarizer.termmodel import STOPWORDS
from summarizer.text import (
    CLOCK_RE,
    LOWER_START_RE,
    PHRASE_OPENERS,
    URL_RE,
    any_phrase,
    chat_lines,
    full_stop,
    holds_any,
    listed,
    quotes_whole,
    says_to_the_reader,
    sentences,
    strip_code_blocks,
    without_asides,
    without_hidden,
    without_list_mark,
    without_mass_mentions,
    words,
)
from summarizer.types import PRMention, SourceMessage
from summarizer.voice import EMOJI_RE, EMOJI_START_RE

MIN_FACT_WORDS = 5
MIN_PR_FACT_WORDS = 3  # "Adjusted in #12." says enough when nothing else cites #12
SIGNAL_FACT_WORDS = 8  # a sentence that is news only by its signals says something
STRONG_SIGNAL = 2.5  # ... unless many people reacted to it (a dozen reactions, or a pin and some)
MIN_CODE_ANSWER_WORDS = 2
PROBLEM_WORDS = 25  # a problem this long heads its answer
QUESTION_WORDS = (4, 16)  # a question this long is said with its answer
# ... one closing a longer message, where it names this many words of its own this long
MIN_ASKED_WORDS, MIN_ASKED_WORD = 2, 4
ASIDE_WORDS = 8  # ... after the question, a sentence this short is an aside
MAX_FACT_WORDS = 60  # longer sentences are rambles, not facts; they are left out, never cut
BULLET_WORDS = 45  # a second sentence joins the lead only while the bullet stays this short
PR_GAIN = 3.0
FIGURE_GAIN = 1.5
SIGNAL_WEIGHT = 1.0
STRESS_GAIN = 1.0  # a sentence set in bold whole is news its author stressed, and more
RECAP_PRS = 3
RECAP_PR_GAIN = 1.0
WEAK_PENALTY = 2.0  # a sentence pointing back, or a request, leads only where nothing else can

# Verbs that say something changed or was settled: such a sentence is news without a PR.
_is_decision = any_phrase((
    "fix(?:ed|es)?", "merged?", "landed", "lands", "shipped", "added", "adds", "moved",
    "switched", "decided", "decision", "root[- ]?caused", "found", "finished", "completed?",
    "released",
    "enabled", "disabled", "reverted", "upgraded", "migrated", "deprecated", "removed",
    "replaced", "launched", "started", "resolved", "filed", "opened", "closed", "validated",
    "confirmed", "proposed", "measured", "reached", "refactored", "published", "registered",
    "created", "go with", "going with", "went with",
    r"now (?:\w+s|runs|has|is|uses)",
    # what a community announces: events, talks, openings, grants, results
    "announced", "posted", "scheduled", "presenting", "presented", "showed", "hiring",
    "looking for an?", "approved", "passed", "voted", "elected", "accepted", "awarded",
    "granted", "renewed", "won(?![’'])",
    # ... and who joins or leaves a team, and what was turned down
    "joins", "appointed", "promoted", "rejected", "banned",
))  # fmt: skip
# Openers of opinion, agreement and greeting: such a sentence is news only with a PR or a
# figure, however many people reacted to it ("Happy Friday everyone!").
_WEAK_OPENER_RE = re.compile(
    r"^(?:agree[ds]?|\+1|nice|sounds|makes sense|i (?:think|guess|assume|suppose|see)|maybe|"
    r"probably|not sure|would|could|should|wonder|hopefully|(?:it )?(?:looks like|seems)|sorry|"
    r"happy|welcome|i love|(?:hot|spicy) take|unpopular opinion|imo|imho|in my opinion|tbh|"
    r"good (?:morning|afternoon|evening|night)|gm|gn|have a (?:great|good|nice))\b",
    re.IGNORECASE,
)
# ... or a thanks that says nothing else ("Thank you all for tonight!"; not "Thanks to all
# who filled in the survey: 1,240 responses!").
# What a sentence points to: a link, with the title it is named by.
_POINTED_RE = re.compile(r'(?:"[^"\n]*" )?\(?<?https?://[^\s>)]+>?\)?|\[[^\]\n]*\]\([^)\s]+\)')
_BARE_THANKS_RE = re.compile(r"(?:thanks|thank you)\b[^:\d]*$", re.IGNORECASE)
# Chat's joke formats, whatever their figures: "me refreshing the dashboard for the next
# 40 days", "monday mood: ...", "POV: you ...", "tfw ...", "nobody: / me: ...". One that
# opens a message makes all of it a joke.
_MEME_RE = re.compile(
    r"^(?:me (?:\w+ing|when|after|every)\b|\w+ mood\b|pov:|[tm]fw\b|that feeling when\b"
    r"|nobody:)",
    re.IGNORECASE,
)
# A poll asks, whatever people reacted with ("Quick poll for next call's time: 👍 for 16:00
# UTC, 🎉 for 18:00 UTC", "**Party venue poll**: react to vote"); its results are news
# ("Poll results: 62% prefer Thursday", "Poll's closed! The Mill wins with 31 votes").
MAX_POLL_OPENING = 60  # "poll" names one within its first five words
_NOT_RESULTS = r"(?!['’]s\b|\W*(?:results?|closed|is closed))"
_POLL_RE = re.compile(
    rf"^\W*(?:(?:quick|a|small|new) )?(?:poll|vote|survey)\b{_NOT_RESULTS}", re.IGNORECASE
)
# (tried only where "oll" opens the message: most chat has none)
_NAMED_POLL_RE = re.compile(
    rf"^\W*(?:[\w'’-]+ ){{1,4}}(?<!should )(?<!to )(?<!will )(?<!can )poll\b{_NOT_RESULTS}",
    re.IGNORECASE,
)
# A message that opens or closes laughing is banter, whatever its reactions: "lol the CI bot
# just approved its own PR 😂" (`_banter`).
_LAUGH_EMOJI = ("😂", "🤣", "😆", "😹")
# Text a link's preview cut short ("... before we to… <url>"): half a sentence says nothing.
# (Searched only where a "…" is: the search tries every word character.)
_TRUNCATED_RE = re.compile(r"\w…(?:\s+<?https?://\S+)*$")
# Said of the moment ("lunch is at noon today"): no news by the time a weekly summary is read.
_is_of_the_moment = any_phrase(
    ("today", "tonight", "this (?:morning|afternoon|evening)", "right now")
)
# Minutes from now, or late by: "starts in 5 min", "back in 10 minutes", "running 10 min late".
_COUNTDOWN_RE = re.compile(
    r"\bin (?:~|about |like )?\d+ ?(?:min|mins|minutes|secs?|seconds)\b"
    r"|\b\d+ ?(?:min|mins|minutes) late\b",
    re.IGNORECASE,
)
# ... unless it says when a change took effect ("as of today they are maintainers") or what
# was done ("the plumber replaced the pump this morning", "Maria defended her thesis today"):
# a verb in the past, not a state ("is booked", "so excited"), a plan ("will be fixed") or
# the quip "today I learned".
_TOOK_EFFECT_RE = re.compile(
    r"\b(?:as of|from|since|starting) today\b"
    r"|(?<!\bis )(?<!\bare )(?<!\bam )(?<!'m )(?<!'re )(?<!\bbe )(?<!\bso )(?<!\bvery )(?<!\bget )"
    r"(?<!\bgot )(?<!\bfeel )(?<!\bbeen )(?<!\btoday I )"
    r"\b(?:[a-z]{2,}(?<!e)ed|came|went|won|made|gave|ran|took|found|broke"
    r"|sold|met|held|brought|built|bought|began)\b",
    re.IGNORECASE,
)
# Requests and suggestions: someone asking, not something done.
_is_request = any_phrase((
    "could (?:you|someone|somebody|anyone|we|i)", "should(?! be )", "would you",
    "please(?! welcome| give (?:a )?(?:\\w+ )?welcome)",
    # ("a recommendation for anyone learning Polish" offers, "glasses on when anyone is
    # cutting" says when: they ask nothing)
    "can someone", "anyone(?<!for anyone)(?<!when anyone)", "use your eyes", "let me know",
    "if you (?:like|want|wish|are interested|.re interested)",
))  # fmt: skip
# A request closing a statement or one of its sentences: "Maintenance Saturday 8-14h, jobs
# will be killed, please checkpoint". The statement is the news; what its readers were
# asked is not. It runs to the sentence's end, not to a link's dot ("8 places, please sign up
# by Friday: https://forms.example.com/e/lunch").
_REQUEST_TAIL_RE = re.compile(
    r"(?:[,;]| [—–-])\s+(?:and\s+)?(?:please|pls|plz|kindly|let (?:me|us) know|feel free"
    r"|reach out|dm me|ping me|shout if"
    # (what everyone should do: "fixed in 2.4.2, everyone running it should update")
    r"|(?:every(?:one|body)|y'?all|folks)(?:\s[\w.'’-]+){0,3}\s(?:should|must|need to))"
    r"\b(?:[^,;.!?]|[.!?](?=\S))*(?:[.!]*$|(?=[.!]))",
    re.IGNORECASE,
)
_CALLED_RE = re.compile(r"@?[A-Z][\w'’-]*[.,!]?")  # a name alone, left by a request
_REQUEST_TAIL_HINTS = (
    *("please", "pls", "plz", "kindly", "know", "free"),
    *("reach out", "dm me", "ping me", "shout if", "everyone", "everybody", "y'all", "yall"),
    "folks",
)
_QUESTION_MARK_RE = re.compile(r"\?(?![\w=&])")  # (not a query string's)
PR_NUMBER_RE = re.compile(r"#\d")  # a PR's number ("please report it in #help" cites none)
_ASKS_RE = re.compile(
    r"(?:please(?! welcome| give (?:a )?(?:\w+ )?welcome)|let (?:me|us) know"
    r"|(?:can|could|would) (?:you|someone|anyone)|any(?:one|body)\b)",
    re.IGNORECASE,
)
# Chat also starts sentences with an emoji where the stop would be: "there was a footgun 😬
# The lm head got ..." (not after "the": "Where: the 🎙️ Office Hours stage").
_NO_CLAUSE_END = "".join(rf"(?<!\b{word})" for word in sorted(PHRASE_OPENERS))
_SENTENCE_GAP_RE = re.compile(
    rf"{LOWER_START_RE.pattern}|(?<=\w){_NO_CLAUSE_END} ?(?:{EMOJI_RE.pattern})+ (?=[A-Z`])"
)
# ... or after a link: "the study: <url> they check which ..." (a link ends no sentence of its
# own: "see <url> for the numbers").
_LINK_THEN_SUBJECT_RE = re.compile(r"(https?://[^\s>]+>?) (?=(?:i|we|they|he|she|it|this) )")
# A letter's sign-off ("Best,") or an address on a line of its own (tried only on a line
# that ends with a comma or holds an "@").
_SIGN_OFF_RE = re.compile(r"\w+,|\S+@\S+\.\w+")
# A list's heading this short says what its items are ("Plan for next week:").
HEADING_WORDS = 6
# ... unless it says whose they are ("Updates from me this week:"): each item is what its
# author did ("finished the parser (#12)").
_OWN_RE = re.compile(r"\b(?:i|i'm|i've|me|my)\b", re.IGNORECASE)
# "How do I set a timeout per query?": what a how-to question asks how to do.
_HOW_TO_RE = re.compile(
    r"(?:(?:does |do )?(?:anyone|anybody|someone|you) know |any idea )?"
    r"(?:how (?:do|can|should|would|could) (?:i|we|you|one)|how to|is there a (?:good )?way to|"
    r"what(?:'s| is) the (?:best|right) way to) (?P<what>[^?\n]{3,120})\?",
    re.IGNORECASE,
)
# A question chat wrote without its mark: "does the hall have a kettle. asking for a friend",
# "why is it always the week I'm away that a release comes out".
_ASKED_WITHOUT_MARK_RE = re.compile(
    r"(?:why |how come )?(?:does|do|did|is|are|was|were|can|could|will|would|has|have|should) "
    r"(?:the|a|an|this|that|it|there|any(?:one|body)|some(?:one|body)|you|we|they|he|she|i|my"
    r"|our|your)\b",
    re.IGNORECASE,
)
_VAGUE_RE = re.compile(r"\b(?:that|this|it|these|those)\b", re.IGNORECASE)
# The preview a chat app shows for an image.
_IMAGE_SIZE_RE = re.compile(r"\d+x\d+px image")
# (also a link named by its page's title, `summarizer.previews`: '"Title" (<url>)')
_BARE_LINK_RE = re.compile(r'(?:"[^"\n]+" \()?<?https?://\S+?>?\)?\.?')
_LEADING_LINK_RE = re.compile(r"(<?https?://\S+?>?)[.,]?\s+(?=\S)")
# "<url> is a great place to ask": the link is the sentence's subject.
_LINK_AS_SUBJECT_RE = re.compile(
    r"(?:is|are|was|were|has|have|had|looks|seems|does|will|can|should|might|may)\b"
)
# "<PR url> fixes the leak": a PR's link before a verb ("adds", "fixes") is its subject too.
_PR_LINK_RE = re.compile(r"/(?:pull|issues)/\d+>?$")
_VERB_RE = re.compile(r"(?!this\b|thus\b|plus\b)[a-z]{2,}(?<!ss)s\b")
_ENDS_WITH_LINK_RE = re.compile(r"https?://\S+>?$")
_BOLD_RE = re.compile(r"\*{1,2}([^*\n]+)\*{1,2}")
LIST_LINE_RE = re.compile(r"^[ \t]*(?:[-*•+]|\d+[.)])[ \t]", re.MULTILINE)


@dataclass(slots=True)
class Fact:
    """A sentence that can carry a bullet."""

    text: str
    message: SourceMessage
    prs: tuple[PRMention, ...]
    figures: frozenset[str]
    words: frozenset[str]
    n_words: int
    decision: bool  # it says something was done, settled or announced (`_is_decision`)
    time: float
    gain: float  # what leading a bullet with it is worth (`_gain`)
    signal: float  # its own and its message's signs of news (`summarizer.signals`)
    answers: bool = False  # said in answer to another person's question
    question: str = ""  # ... that short one, said: 'Grace Park asked "Can we take it?"'
    pasted: bool = False  # a link pasted on its own that nobody took up (`_shared_link`)


def find_facts(
    item: Sequence[SourceMessage],
    times: Sequence[float],
    signals: Sequence[float],
    thanked: Collection[str] = (),
) -> list[Fact]:
    """The item's sentences that say something: a PR, a figure or a decision, by a person,
    or the answer to another person's how-to question (`_how_to`).

    Questions, sentences that introduce a list or code block and chatter are left out; so
    are opinions without a PR or a figure. A PR no such sentence cites is said by the line
    that cites it: a list line, the line before a code block, or the line a bare link
    follows. `times` and `signals` are the messages' (see `summarizer.signals`); `thanked`:
    the ids of the answers their askers thanked (`summarizer.signals.thanked_answers`)."""
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
        how_to = (
            _how_to(asked, message, time, signal, thanked=message.id in thanked)
            if asked is not None
            else None
        )
        if how_to is not None:
            facts.append(how_to)
            continue
        if not message.prs and (
            _MEME_RE.match(message.text)
            or _is_poll(message.text)
            # (a welcome may close on a joke: "Be nice, he hasn't seen our codebase yet 😂")
            or _banter(message.text)
            and not welcomes(message.text)
        ):
            continue  # ("nobody:\nthe CI runner: let me reinstall CUDA")
        shows = shows_something(message.text)  # a link, a day, a release somewhere in it
        # (a reply its asker thanked answered something: its signal says so)
        reply = message.id not in thanked and (
            message.reply_to_id is not None or message.thread_id not in (None, message.id)
        )
        if not (shows or signal or _may_hold_a_fact(message)):
            continue
        # Reactions to a question or a poll are answers, not a sign of news (its first
        # sentence asks; a link's preview on the lines after it may quote a question, and an
        # announcement's "First time? We run an orientation" asks nobody).
        asking = _opens_asking(message.text) or _QUESTION_LABEL_RE.match(message.text) is not None
        if signal and asking:
            signal = 0.0
        # What the author wrote, not the blurb of the page they linked (`summarizer.previews`).
        own = (
            with_titles(message, announced=_is_decision(written(message)))
            if message.preview
            else message.text
        )
        # (a list's struck-out words are no longer so: "~~Friday 20 Nov~~ moved to ...")
        lined = without_hidden(message.text)
        headings, listed = _news_lines(lined, message.prs, shows)
        found = [
            fact
            # (a list people took up as news, whose items are not news one by one, is said
            # whole: `chat_lines`)
            for at, sentence in enumerate(
                statements(own, whole_lists=signal >= STRONG_SIGNAL and not (headings or listed))
            )
            if (
                fact := _fact(
                    sentence,
                    message,
                    time,
                    signal=signal,
                    shows=shows,
                    reply=reply,
                    asking=asking,
                    opening=at == 0 and _on_first_line(sentence, own),
                )
            )
            is not None
        ]
        if not found and shows:
            shared = (
                _shared_link(message, time, signal)
                or _labelled_link(message, time, signal)
                or _link_list(message, time, signal)
            )
            found = [shared] if shared is not None else []
        if asked is not None and asked.author != message.author and _asks(asked.text):
            question = _short_question(asked)
            for fact in found:
                fact.answers = True
                fact.question = question
        said = " ".join(f.text for f in found) if message.prs else ""  # (most cite none)
        missing = [p for p in message.prs if p.raw not in said]
        for line, cited in _pr_lines(lined, missing).items():
            fact = _fact(line, message, time, signal=signal, shows=shows, cited=cited)
            if fact is not None:
                found.append(fact)
        for line in listed:
            fact = _fact(line, message, time, signal=signal, shows=shows)
            if fact is not None:
                found.append(fact)
        # (a heading naming a release comes first, as it is said: the post's headline;
        # unless it was said with its list: "Tiller 3.1 is released: cron triggers and ...")
        for line in headings:
            fact = _fact(line, message, time, signal=signal, shows=shows)
            if fact is not None and not any(fact.words <= f.words for f in found):
                found.insert(0, fact)
        facts += found
    return facts


_FIRST_WORD_RE = re.compile(r"[^\w\n]*(\w+)")


def _on_first_line(sentence: str, text: str) -> bool:
    """Whether `sentence` opens on the first line of `text` (not after a list's heading:
    "Reviewer assignments this week:" over its items, then "Still need a third reviewer")."""
    first = _FIRST_WORD_RE.match(sentence)
    return first is not None and first[1] in text.split("\n", 1)[0]


def _is_poll(text: str) -> bool:
    """Whether `text` opens a poll (`_POLL_RE`, `_NAMED_POLL_RE`)."""
    return bool(
        _POLL_RE.match(text) or "oll" in text[:MAX_POLL_OPENING] and _NAMED_POLL_RE.match(text)
    )


def _banter(text: str) -> bool:
    """Whether `text` opens or closes with a laugh ("lol", "haha", "😂") and gives no figure
    or release ("2x faster now lol" is still news)."""
    said = text.strip()
    first = said[:8].split(" ", 1)[0].strip(",.!").lower()
    last = said[-8:].rpartition(" ")[2].strip(",.!").lower()
    laughs = said.endswith(_LAUGH_EMOJI) or is_laugh(first) or is_laugh(last)
    return laughs and not (FIGURE_RE.search(text) or names_release(text))


def _shared_link(message: SourceMessage, time: float, signal: float) -> Fact | None:
    """A link shared on its own, said with the title its preview gave it ("Shared
    ana/loader: <url>"); None for anything else (a bare link, an image)."""
    lines = [line.strip() for line in message.text.splitlines() if line.strip()]
    link = LINK_RE.fullmatch(lines[0]) if len(lines) > 1 else None
    if link is None:
        return None
    # (a message stored before previews were kept apart has its preview in its text)
    title = page_title(message) if message.preview else lines[1].rstrip(".")
    if (
        title is None
        or "://" in title
        or _IMAGE_SIZE_RE.fullmatch(title)
        or not any(c.isalpha() for c in title)
    ):
        return None
    taken_up = signal > 0  # reactions, replies, a pin
    return _share(f'Shared "{title}": {link[1]}', message, time, signal, pasted=not taken_up)


# "Meeting notes from today's sync: <url>": what a link is, then the link, on one line.
_LABELLED_LINK_RE = re.compile(r"(?P<label>[^?\n:]+?):?\s+<?(?P<url>https?://[^\s>]+)>?")
LABEL_WORDS = (2, 12)
TITLE_OVER_LABEL_WORDS = 3  # a page's title this long names a link better than its label
# ... or said to be published: "The recording of Tuesday's talk is up: <url>".
_PUBLISHED_RE = re.compile(
    r"\s+(?:is|are)\s+(?:now\s+)?(?:up|live|out|online|available|ready)\s*$", re.IGNORECASE
)
# Words of a clause, not of a name for what a link is: pronouns and the commonest verbs.
_CLAUSE_WORDS = frozenset(
    ["i", "i'm", "we", "we're", "you", "you're", "it", "it's", "they", "they're", "he", "she"]
    + ["yes", "no", "is", "are", "was", "were", "be"]
    + ["seems", "seem", "think", "thinks", "looks", "look", "has", "have", "had"]
)


def _labelled_link(message: SourceMessage, time: float, signal: float) -> Fact | None:
    """A link its author said what it is of ("Meeting notes from today's sync: <url>"),
    that people took up (reactions, replies, a pin), as a share ("Shared meeting notes
    from today's sync: <url>"); None for anything else."""
    if not signal:
        return None  # a link pasted with a word or two that nobody took up is no news
    line = message.text.partition("\n")[0].strip() if message.preview else message.text.strip()
    match = _LABELLED_LINK_RE.fullmatch(line)
    if match is None:
        return None
    # (the page's own title over the chat's word for it: "nice read for the weekend: <url>"
    # shares "Why constant-time code keeps breaking")
    title = page_title(message) if message.preview else None
    if title is not None and len(title.split()) >= TITLE_OVER_LABEL_WORDS:
        return _share(f'Shared "{title}": {match["url"]}', message, time, signal)
    label = _link_label(_PUBLISHED_RE.sub("", match["label"]))
    return (
        None if label is None else _share(f"Shared {label}: {match['url']}", message, time, signal)
    )


def _link_label(text: str) -> str | None:
    """What a link is said to be of ("Meeting notes from today's sync"), as it reads after
    "shared" ("meeting notes from ..."); None for a clause ("it seems like a few went")."""
    label = text.strip()
    if label.endswith(("!", ".")):
        return None  # a sentence ("Widget 3.1 just dropped!"), not a name
    said = label.lower().split()
    if not LABEL_WORDS[0] <= len(said) <= LABEL_WORDS[1] or _CLAUSE_WORDS.intersection(said):
        return None
    if label[:1].isupper() and label.split(" ", 1)[0][1:].islower():
        label = label[0].lower() + label[1:]  # "Meeting notes" -> "shared meeting notes"
    return label


MAX_LISTED_LINKS = 6


def _link_list(message: SourceMessage, time: float, signal: float) -> Fact | None:
    """A short heading over a list of links ("Some good reads this week:" over "- <url>"
    lines), that people took up, as a share ("Shared some good reads this week: <url>,
    <url> and <url>"); None for anything else."""
    if not signal:
        return None
    lines = [line.strip() for line in written(message).splitlines() if line.strip()]
    if not 3 <= len(lines) <= MAX_LISTED_LINKS + 1 or not lines[0].endswith(":"):
        return None
    links = [LINK_RE.fullmatch(without_list_mark(line)) for line in lines[1:]]
    label = _link_label(lines[0][:-1])
    if label is None or not all(links):
        return None
    urls = listed([f"<{link[1]}>" for link in links if link is not None])
    return _share(f"Shared {label}: {urls}", message, time, signal)


def _share(
    text: str, message: SourceMessage, time: float, signal: float, *, pasted: bool = False
) -> Fact:
    """A share ("Shared ...: <url>") as a fact: news by what people made of its message
    and by what its own text shows (its link)."""
    signal += text_gain(text)
    return Fact(
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
        pasted=pasted,
    )


def _how_to(
    asked: SourceMessage,
    message: SourceMessage,
    time: float,
    signal: float,
    *,
    thanked: bool = False,
) -> Fact | None:
    """Where `message` answers another person's "How do I ...?", the answer's first sentence
    under what was asked ("How to set a timeout per query: `.all(timeout=2)` raises ...");
    where it answers a problem with a command and the asker thanked it (`thanked`), under
    the problem ("Dee Park's ESP32 won't flash: hold BOOT while it says Connecting");
    else None. `signal`: what people made of the answer (its asker's thanks among it)."""
    if asked.author == message.author or "?" not in asked.text:
        return None
    question = _HOW_TO_RE.match(asked.text.lstrip())
    if question is not None:
        if _VAGUE_RE.search(" ".join(question["what"].split()[-2:])):
            return None  # "How do we proceed with that?" names nothing ("files that are" does)
        heading = f"How to {question['what'].strip()}"
    else:
        heading = _problem(asked) if thanked and "`" in message.text else ""
        if not heading:
            return None
    said = next(iter(statements(message.text)), "")
    if question is None and "`" in said:
        # ("mosaic loads eagerly. pass `chunks="auto"` ...": the command answers a problem)
        said = next((s for s in _chat_sentences(said) if "`" in s), said)
    # ("Yes: pass --resume ..." answers with what follows the "yes")
    answer = without_pointing_label(REPLY_OPENER_RE.sub("", clean_sentence(said))) if said else ""
    # ("Pass `--no-ignore`.": a command answers in two words)
    fewest = MIN_CODE_ANSWER_WORDS if "`" in answer else MIN_FACT_WORDS
    if (
        not fewest <= len(answer.split()) <= MAX_FACT_WORDS
        or _WEAK_OPENER_RE.match(answer)
        or _is_request(sentences(answer)[0])  # (not "..., if you want more, add X")
    ):
        return None  # an opinion or a request does not answer in substance
    text = f"{heading}: {answer}"
    prs = tuple(p for p in message.prs if p.raw in text)
    return Fact(
        text,
        message,
        prs=prs,
        figures=frozenset(find_figures(text)),
        words=words(text),
        n_words=len(text.split()),
        decision=True,  # a question settled
        time=time,
        gain=_gain(text, prs, frozenset(), True) + SIGNAL_WEIGHT * signal,
        signal=signal,
    )


def _chat_sentences(text: str) -> list[str]:
    """The sentences of `text`, also those chat starts in lower case."""
    return [part for sentence in sentences(text) for part in LOWER_START_RE.split(sentence)]


_MY_RE = re.compile(r"\bmy\b", re.IGNORECASE)


def _problem(asked: SourceMessage) -> str:
    """What a question's message reports, said of its author without what it asks ("my
    ESP32 won't flash, says Failed to connect. any idea?" -> "Dee Park's ESP32 won't flash,
    says Failed to connect"); "" where its first report is not one short sentence."""
    reported = [s for s in _chat_sentences(asked.text) if not s.rstrip().endswith("?")]
    if not reported or not MIN_FACT_WORDS <= len(reported[0].split()) <= PROBLEM_WORDS:
        return ""
    said, subject = voiced(reported[0], asked.author)
    if not subject:  # ("after upgrading my node won't start": whose node, not "their")
        said = voiced(_MY_RE.sub(f"{asked.author}'s", reported[0], count=1), asked.author)[0]
    return said.rstrip(".")


def _answered_statement(
    message: SourceMessage, asked: SourceMessage | None, by_id: Mapping[str, SourceMessage]
) -> Fact | None:
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
    for sentence in statements(statement.text):
        fact = _fact(sentence, statement, time, signal=0.0, shows=False, cited=message.prs)
        if fact is not None:
            return fact if fact.n_words > own_words(message.text, message.prs) else None
    return None


def _pr_lines(text: str, mentions: Sequence[PRMention]) -> dict[str, tuple[PRMention, ...]]:
    """The lines citing `mentions`, list markers and a closing colon removed, each with the
    PRs it cites; a line that is only a link stands for the line before it, and a list's
    first item citing one is said under the list's short heading ("Plan for next week:
    land the cache rework (#12)", or "Widget 2.1 is out: ..." under a release), unless the
    heading says the items are the author's own ("Updates from me:"). GitHub's release notes
    ("Fix X by @ana in <url>") give each PR's title and author."""
    if not mentions:
        return {}
    found: dict[str, list[PRMention]] = {}
    previous = ""
    heading = ""
    for raw_line in strip_code_blocks(text).splitlines():
        if not raw_line.strip():
            continue  # (a blank line between a heading and its list keeps them together)
        listed = without_list_mark(raw_line)
        item = listed != raw_line
        if not item:
            heading = _heading(without_mass_mentions(raw_line).strip())
        line = _release_note(listed.strip().rstrip(":").strip(), listed=item)
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
            if item and heading and ": " not in line and not _OWN_RE.search(heading):
                statement = f"{heading} {line}"  # ("Plan: freeze (#12)")
            else:
                statement = line if own_words(line, cited) >= MIN_PR_FACT_WORDS else previous
            if statement:
                found.setdefault(statement, []).extend(cited)
            heading = "" if item else heading  # (the list's first item only)
        elif len(line.split()) >= MIN_PR_FACT_WORDS:
            previous = line
    return {line: tuple(dict.fromkeys(cited)) for line, cited in found.items()}


def _news_lines(text: str, prs: Sequence[PRMention], shows: bool) -> tuple[list[str], list[str]]:
    """Over a list citing no PR, a heading that names a release ("*4.2.0-beta.1 is out*
    :rocket:" over its highlights: the release is the news); and the list items that
    measure something or name a day or a time and cite no PR ("- clustered lighting: 2.3x
    faster with 256 lights", "2. Sprint: Saturday December 5 at the Old Mill", "Blue Hour
    moves to Thu 8-10pm"): news a list says item by item (`_pr_lines` reads those citing
    PRs). `shows`: whether the message holds a link, a day or a release at all
    (`shows_something`)."""
    if "\n" not in text or LIST_LINE_RE.search(text) is None:
        return [], []  # (most messages)
    lines = strip_code_blocks(text).splitlines()
    headings: list[str] = []
    news = []
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        item = without_list_mark(line)
        if item == line:
            if shows and not prs and LIST_LINE_RE.match(after):
                heading = _heading(EMOJI_RE.sub("", _BOLD_RE.sub(r"\1", line)).strip())
                if heading and names_release(heading):
                    headings.append(full_stop(without_mass_mentions(heading[:-1]).strip()))
        elif (
            FIGURE_RE.search(item)
            or shows
            and (names_day(item) or CLOCK_RE.search(item) is not None)
            or _is_decision(item)
        ) and not any(p.raw in item for p in prs):
            # (what its readers are asked to do is no news: "Read sections 3-4 beforehand")
            told = [s for s in sentences(item) if not _is_request(s)]
            if told:
                news.append(" ".join(told))
    return headings, news


def _heading(line: str) -> str:
    """The heading a line gives the list under it: a short line ending with a colon ("Plan
    for next week:"), or one naming a release ("Widget 2.1.0 is out 🎉" -> "Widget 2.1.0 is
    out:"); "" for any other line."""
    if line.endswith(":"):
        return line if len(line.split()) <= HEADING_WORDS else ""
    if line.count(" ") >= HEADING_WORDS or "#" in line or not names_release(line):
        return ""  # (most lines: the cheap tests first)
    return EMOJI_RE.sub("", line).strip().rstrip("!.") + ":"


# A line of GitHub's generated release notes: "Fix the crash by @ana in <PR's url>".
_RELEASE_NOTE_RE = re.compile(
    r"(?P<title>.+?) by @?(?P<who>[\w-]+(?:\[bot\])?) in (?P<url>https://github\.com/\S+/pull/\d+)"
)

# A release's list item crediting its author: "DatePicker range mode (#1371), thanks @Dev Patel"
_THANKED_ITEM_RE = re.compile(
    r"(?P<title>.+?)\s*\((?P<ref>[\w./-]*#\d+)\)[,;]?\s*(?:[—–-]\s*)?(?:thanks|thx|by|h/t)"
    r",?\s+@(?P<who>[^\s@,;()!.][^@,;()!]{0,40}?)[!.]?"
)


def _release_note(line: str, *, listed: bool) -> str:
    """A line of GitHub's release notes as its title, PR and author ("Fix the crash (<url>,
    ana)"), as is a release's list item thanking whom it is by ("Range mode (#1371), thanks
    @Dev Patel" -> "Range mode (#1371, Dev Patel)"); any other line as it is."""
    if listed and "@" in line:
        thanked = _THANKED_ITEM_RE.fullmatch(line)
        if thanked is not None:
            return f"{thanked['title']} ({thanked['ref']}, {thanked['who']})"
    if " in https://github.com/" not in line:
        return line
    note = _RELEASE_NOTE_RE.fullmatch(line)
    return line if note is None else f"{note['title']} ({note['url']}, {note['who']})"


def _may_hold_a_fact(message: SourceMessage) -> bool:
    """A cheap look at the whole message before its sentences are read: a fact needs a PR,
    a figure or a decision, and most chat has none."""
    return bool(message.prs or FIGURE_RE.search(message.text) or _is_decision(message.text))


def statements(text: str, *, list_intros: bool = False, whole_lists: bool = False) -> Iterable[str]:
    """The message's prose sentences: no list lines, no code, nothing that introduces them
    (unless `list_intros`: then such a sentence is kept, as a statement), a list said whole
    with its heading where `whole_lists` (`chat_lines`). A short message is one statement
    and stays whole; in a longer one, a very short sentence ("Fix in #12.") is kept with
    the one before it."""
    kept: list[str] = []
    links: list[str] = []  # a bare link reads best after what it is about
    for line in chat_lines(text, whole_lists=whole_lists):
        said = [part for s in sentences(line) for part in _split(s)]
        if "(" in line and len(said) > 1:  # ("Price: Adoration (arr. for strings)")
            said = quotes_whole(said)
        lead_in = ""  # a line's short opening sentence, said with the next one
        for at, sentence in enumerate(said):
            if _BARE_LINK_RE.fullmatch(sentence):
                links.append(sentence.rstrip("."))
                continue
            leading = _LEADING_LINK_RE.match(sentence)
            if leading and kept:
                # "I made this: <url> Let me know": the link shows what came before it.
                kept[-1] = f"{kept[-1].rstrip('.')} {leading.group(1)}"
                sentence = sentence[leading.end() :]
            elif leading and not _link_as_subject(sentence, leading):
                # "<url> here is the thread on force layouts": the link shows what follows.
                links.append(leading.group(1))
                sentence = capitalised(sentence[leading.end() :])
            # (a release that goes on to introduce what it brings is news: "**v2.1b2 is out**
            # with two fixes found by beta testers:"; a heading, "*v2.1 is out!*", is not)
            if sentence.endswith(":") and (
                list_intros or sentence[-2:-1].isalnum() and names_release(sentence)
            ):
                sentence = full_stop(sentence[:-1].rstrip())
            if (
                sentence.endswith((":", "?"))
                or is_acknowledgement(sentence)
                or _ASKED_WITHOUT_MARK_RE.match(sentence)
            ):
                continue
            if (sentence.endswith(",") or "@" in sentence) and _SIGN_OFF_RE.fullmatch(sentence):
                return _with_links(kept, links)  # what follows a sign-off is a signature
            if is_review_chatter(sentence) or _asks_only(sentence):
                continue
            if lead_in:
                sentence, lead_in = f"{lead_in} {sentence}", ""
            after_link = kept and not sentence.endswith(".") and _ENDS_WITH_LINK_RE.search(kept[-1])
            if kept and len(sentence.split()) < (
                SIGNAL_FACT_WORDS if after_link else MIN_FACT_WORDS
            ):
                if at == 0 and len(said) > 1 and not after_link:
                    # A new line's heading ("ladder: 5 rungs. four are clean; ...") is what
                    # the rest of its line speaks of, not the end of the line before.
                    lead_in = full_stop(sentence)
                    continue
                # A short line after a link is its title ("DataFest 2019 - May 3rd & 4th").
                kept[-1] = f"{kept[-1] if after_link else full_stop(kept[-1])} {sentence}"
            else:
                kept.append(sentence)
        if lead_in:  # (nothing after it was kept)
            kept[-1] = f"{full_stop(kept[-1])} {lead_in}"
    return _with_links(kept, links)


def _link_as_subject(sentence: str, leading: re.Match[str]) -> bool:
    """Whether the link `leading` opens `sentence` with is its subject (`_LINK_AS_SUBJECT_RE`,
    `_VERB_RE` after a PR's link), not a pointer to what follows."""
    if _LINK_AS_SUBJECT_RE.match(sentence, leading.end()):
        return True
    return bool(_PR_LINK_RE.search(leading.group(1)) and _VERB_RE.match(sentence, leading.end()))


def _split(sentence: str) -> list[str]:
    """`sentence` split where chat left out a stop (`LOWER_START_RE`, `_SENTENCE_GAP_RE`;
    `_LINK_THEN_SUBJECT_RE` after a link)."""
    if sentence.isascii() and ":" not in sentence and ";" not in sentence:
        return LOWER_START_RE.split(sentence)
    if "://" in sentence:
        sentence = _LINK_THEN_SUBJECT_RE.sub(r"\1\n", sentence)
        return [p for part in sentence.split("\n") for p in _gap_split(part)]
    return _gap_split(sentence)


def _gap_split(sentence: str) -> list[str]:
    """The slower pattern only where an emoji may be: without one they split alike."""
    if EMOJI_START_RE.search(sentence) is None:
        return LOWER_START_RE.split(sentence)
    return _SENTENCE_GAP_RE.split(sentence)


def _asks(line: str) -> bool:
    """Whether `line` holds a question mark outside its links and paths ("pulls?q=",
    "/api/tokens?user=" ask nothing)."""
    return "?" in line and _QUESTION_MARK_RE.search(URL_RE.sub("", line)) is not None


def _short_question(asked: SourceMessage) -> str:
    """What `asked` asks, said with who asked it ('Grace Park asked "Can we accept
    home-cooked meals?"'), where its whole text is one short question, or it closes with one
    that needs none of what came before ("Licensed in Romania since 2009. Question for the
    VE team: does my Romanian license count for any element?"), or opens with one that
    names what it asks of ("Can someone cover my Beginner B class next Tuesday, 17 Nov? I
    have to fly to Manila ..."); "" otherwise."""
    text = " ".join(written(asked).split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]  # (a message said as an aside: "(also, what do you use for ...?)")
    if "?" not in text:
        return ""  # (most messages)
    said = sentences(text)
    # (a few words may follow it, "... back after half term? Ayaan's asking and I don't
    # know", but not a figure the question needs: "Who owns the evals? They score 0")
    if not _is_aside(text.rpartition("?")[2]):
        # (much after the question: one opening the post, unless what follows speaks of it)
        if len(said) < 2 or not said[0].endswith("?") or points_back(said[1]):
            return ""
        said = said[:1]
    while said and not said[-1].endswith("?"):
        said.pop()
    if len(said) > 1 or said and said[-1] != text:
        text = _LEAD_IN_RE.sub("", said[-1], 1)
        asked_of = [w for w in words(text) if len(w) >= MIN_ASKED_WORD and w not in STOPWORDS]
        if _VAGUE_RE.search(text) or len(asked_of) < MIN_ASKED_WORDS:
            return ""  # ("Does it work on ARM?", "What am I missing?": it was said before)
    label = _QUESTION_LABEL_RE.match(text)  # ("Q: how long does an episode take?")
    if label is not None:
        text = text[label.end() :].strip()
    text = clean_sentence(text)  # ("also what do you all use for card layout?")
    if (
        not QUESTION_WORDS[0] <= len(text.split()) <= QUESTION_WORDS[1]
        or not text.endswith("?")
        or len(sentences(text)) > 1
        or "`" in text
        or '"' in text
        or URL_RE.search(text)
    ):
        return ""
    return f'{asked.author} asked "{capitalised(text)}"'


def _is_aside(sentence: str) -> bool:
    """Whether what follows a question only remarks on it: short, measuring nothing."""
    return len(sentence.split()) <= ASIDE_WORDS and not any(c.isdigit() for c in sentence)


def _opens_asking(text: str) -> bool:
    """Whether the first sentence of `text` asks (`_asks`)."""
    line = text.partition("\n")[0]
    return _asks(line) and _asks(next(iter(sentences(line)), ""))


def _asks_only(sentence: str) -> bool:
    """A sentence that opens with a request and cites and measures nothing ("Let me know
    what you think.")."""
    return bool(_ASKS_RE.match(sentence)) and not (
        PR_NUMBER_RE.search(sentence) or FIGURE_RE.search(sentence)
    )


def _with_links(kept: list[str], links: list[str]) -> list[str]:
    """The statements with the message's bare links after the last; a short message's
    statements as one, after what it opens with that says nothing ("Sorry for the radio
    silence!", "Thank you all for tonight!", or "agreed, let's do it." before a day), which
    stays apart."""
    if links and kept:
        # A PR's link is cited as a PR is: in brackets, where the credit joins it.
        said = (f"({link})" if _PR_LINK_RE.search(link) else link for link in links)
        kept[-1] = f"{kept[-1].rstrip('.')} {' '.join(said)}"
    opening = 0
    while opening < len(kept) - 1 and (
        _WEAK_OPENER_RE.match(kept[opening])
        and (kept[opening].endswith("!") or _dated(kept[opening + 1 :]))
        or kept[opening].endswith("!")
        and _BARE_THANKS_RE.match(kept[opening])
    ):
        opening += 1
    rest = kept[opening:]
    if len(rest) > 1 and sum(len(k.split()) for k in rest) <= BULLET_WORDS:
        return [*kept[:opening], " ".join(full_stop(k) for k in rest)]
    # A long table's rows, said apart, leave the prose after them one statement ("448 of
    # 705 pages done. I need 3 more checkers." under the register's table), or the prose
    # before them where none follows.
    tabled = [_said_table(k) for k in rest]
    if any(tabled):
        last = len(rest) - tabled[::-1].index(True)
        first = tabled.index(True)
        start, end = (last, len(rest)) if last < len(rest) else (0, first)
        prose = rest[start:end]
        if len(prose) > 1 and sum(len(k.split()) for k in prose) <= BULLET_WORDS:
            joined = " ".join(full_stop(k) for k in prose)
            return [*kept[:opening], *rest[:start], joined, *rest[end:]]
    return kept


def _said_table(statement: str) -> bool:
    """Whether `statement` says a table's rows ("parish A: 212 pages, 180 done; parish B:
    ..."; `summarizer.tables`)."""
    return "; " in statement and statement.count(": ") >= 2


def _dated(said: Sequence[str]) -> bool:
    """Whether what follows an assent ("agreed, let's do it.") names a day: what was agreed
    ("4-week cadence starting with 0.15.0 on Dec 8"), not more of the same hedge."""
    return any(names_day(s) for s in said)


def _fact(
    sentence: str,
    message: SourceMessage,
    time: float,
    *,
    signal: float,
    shows: bool,
    cited: tuple[PRMention, ...] = (),
    reply: bool = False,
    asking: bool = False,
    opening: bool = False,
) -> Fact | None:
    """The sentence as a fact, or None: too short or too long, nothing it cites, measures
    or settles and no sign that people took it as news (`signal`: what people made of its
    message, none for a question's, see `summarizer.signals`; `shows`: whether its message
    has a link, a day or a release anywhere), or an opinion or a request without a PR or a
    figure. `cited`: the PRs it stands for, where they are not written in it (a link on the
    next line). `asking`: its message opens with a question, which its other sentences
    describe ("can memory depend on the sample? a few libraries are 3x bigger"): only what
    was done or settled there, or a link or a day it gives, is news. `opening`: it opens its
    message."""
    text = clean_sentence(sentence)
    prs = tuple(p for p in message.prs if p.raw in text) if message.prs else ()
    if cited:
        prs += tuple(p for p in cited if p not in prs)
    if not prs:  # (one that cites a PR is news whatever it asks)
        text = _without_request_tail(text)
    n_words = len(text.split())
    # A release names its work item as a PR does: "v2.3.0 is out!" says enough; so does the
    # headline of a post many people took up, set in bold ("**Fernwood Coffee signed!**") or
    # opening it: with a bold name, exclaimed ("**Quiz Night** is happening!"), or saying
    # what was done ("Nets closed at 09:15.").
    released = shows and names_release(text)
    stressed = _STRESSED_RE.match(text) is not None
    headline = signal >= STRONG_SIGNAL and (
        stressed or opening and (text.endswith("!") and "**" in text or _is_decision(text))
    )
    if not (MIN_PR_FACT_WORDS if prs or released or headline else MIN_FACT_WORDS) <= n_words or (
        n_words > MAX_FACT_WORDS and _words_but_figures(text) > MAX_FACT_WORDS
    ):
        return None
    if not prs and ("min" in text or "sec" in text) and _COUNTDOWN_RE.search(text):
        return None  # ("Reading group starts in 5 min!": over before anyone reads it)
    figures = frozenset(find_figures(text)) | _table_scores(text)
    if figures and not (prs or signal) and len(figures) == 1 and is_measure(next(iter(figures))):
        # (one measure said in passing is no news: "Dry ice is here, 20 lb in the cooler")
        figures = frozenset()
    if not prs and figures and figures <= amounts(text) and _asks_the_reader(text):
        return None  # ("Would ask you to buy them ... Should be ~$65": a request, priced)
    decision = released or headline or _is_decision(text) or stressed
    if asking and not (prs or decision or shows and shows_something(sentence)):
        return None  # ("working with census data? <url> is a great place to ask" shows one)
    # The sentence's own link or day, and what people made of its message.
    signal += text_gain(sentence) if shows else 0.0
    if not prs and (_MEME_RE.match(text) or "…" in text and _TRUNCATED_RE.search(text)):
        return None
    opener = REPLY_OPENER_RE.match(text) if n_words < SIGNAL_FACT_WORDS else None
    if opener and (not prs or len(text[opener.end() :].split()) < MIN_PR_FACT_WORDS):
        # A short answer ("yes, 10 minutes or so"): its figure is no news; "+1 on #12" says
        # nothing of its PR once its opener is gone.
        return None
    # What many people reacted to is news said briefly, whenever it happened (what they
    # were asked to do is not).
    strong = signal >= STRONG_SIGNAL and not says_to_the_reader(text)
    if not (prs or figures) and (
        not (
            decision
            or signal
            # (a reply people liked that shows nothing is a quip: "M40, because it's two
            # stars and a lie")
            and (strong or shows or not reply)
            and words_but_links(text) >= (MIN_FACT_WORDS if strong else SIGNAL_FACT_WORDS)
        )
        or _WEAK_OPENER_RE.match(text)
        # (a release is news whatever it asks of its users, "**0.19.1 is out!** Everyone on
        # 0.19.0 should upgrade.", unless it asks its reader: "please run your test suite";
        # a tally asking by the way is news too: "cubbies painted (please don't touch)")
        or _requests(text)
        and not (released and not says_to_the_reader(text))
        or not strong
        and not released  # ("**3.4.0 is out!** ... the advisory follows later today")
        and _is_of_the_moment(text)
        and not _TOOK_EFFECT_RE.search(text)
        and not welcomes(text)  # ("say hi to Amir, our new intern! Amir starts today")
        and not names_day(text)  # ("today's office hours are postponed to Tuesday 27 Oct")
    ):
        return None
    gain = _gain(text, prs, figures, decision) + SIGNAL_WEIGHT * signal + STRESS_GAIN * stressed
    return Fact(text, message, prs, figures, words(text), n_words, decision, time, gain, signal)


# A message labelled as a question: "Question. My second print ...", "quick q: ...".
# A few words leading in to a question after a colon: "Question for the VE team: does ...?"
_LEAD_IN_RE = re.compile(r"^[^:?'\"‘’“”]{1,40}:\s+(?=\S+(?:\s+\S+){3})")  # (not in a quote)
_QUESTION_LABEL_RE = re.compile(
    r"\W*(?:(?:also|and|ok|okay|so|btw),? )?(?:(?:quick|dumb|naive|noob|silly|stupid) )?"
    r"(?:question|q)\b(?:[.:!]|(?<=question),)",
    re.IGNORECASE,
)


# A sentence its author set in bold whole, among others: what the message is there to say
# ("**Rosa Delgado is taking over as captain, effective now.**").
_STRESSED_RE = re.compile(r"\*\*(?=\S)[^*\n]{20,}(?<=\S)\*\*[.!]?$")


def _requests(text: str) -> bool:
    """Whether `text` asks something of its reader (`_is_request`), other than in an aside
    of a tally: "cubbies painted (2 coats, please don't let kids touch), 31 bags of leaves"
    is news, "temp password on the sticky note (change it please)" is not."""
    if not _is_request(text):
        return False  # (most sentences)
    plain = without_asides(text)
    return plain == text or _is_request(plain) or not any(c.isdigit() for c in plain)


def _asks_the_reader(text: str) -> bool:
    """Whether `text` opens weakly or asks (`_WEAK_OPENER_RE`, `_is_request`): a job post
    speaking to its reader ("You'd work on ...") is still news."""
    return bool(_WEAK_OPENER_RE.match(text) or _is_request(text))


def _without_request_tail(text: str) -> str:
    """`text` without the requests closing its sentences (`_REQUEST_TAIL_RE`), or closing it
    ("Decision: GL stays the default. @tove please file that crash"), ending with a full
    stop."""
    if not holds_any(text.lower(), _REQUEST_TAIL_HINTS):
        return text  # (most sentences)
    told, n = _REQUEST_TAIL_RE.subn("", text)
    said = [part for sentence in sentences(told) for part in LOWER_START_RE.split(sentence)]
    # (what called someone to the request: "Arjun, please pin the policy" leaves "Arjun.")
    said = [part for part in said if not (n and _CALLED_RE.fullmatch(part))] or said
    while len(said) > 1 and _is_request(said[-1]):
        said.pop()
        n += 1
    return full_stop(" ".join(said)) if n else text


# A table's rows said as prose ("nw-ember-27: 12 n, 0.713 Sabre, 0.781 NoiseAware; ..."): its
# scores are its figures, units or none.
_SCORE_RE = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
TABLE_SCORES = 4


def _table_scores(text: str) -> frozenset[str]:
    """The scores of a table said as a line of prose (`summarizer.tables`: rows "label:
    values" apart by "; "), where it gives `TABLE_SCORES` of them or more; none for other
    text."""
    if "; " not in text or text.count(": ") < 2:
        return frozenset()  # (most text)
    scores = _SCORE_RE.findall(text)
    return frozenset(scores) if len(scores) >= TABLE_SCORES else frozenset()


def _words_but_figures(text: str) -> int:
    """How many words `text` says beside its figures: a table's rows ("self-host: 41.2s
    before, 36.8s after; stdlib check: ...") are data, however many, not a ramble."""
    return sum(1 for word in text.split() if not any(c.isdigit() for c in word))


def words_but_links(text: str) -> int:
    """How many words `text` says beside its links."""
    return sum(1 for word in text.split() if "://" not in word)


def _gain(text: str, prs: Sequence[PRMention], figures: frozenset[str], decision: bool) -> float:
    # A recap listing many PRs repeats the week's other items: it leads only if nothing
    # else can.
    pr_gain = PR_GAIN if len(prs) <= RECAP_PRS else RECAP_PR_GAIN
    value = pr_gain * len(prs) + FIGURE_GAIN * len(figures) + decision
    weak = ANAPHORA_RE.match(text) or _requests(text)
    return value - WEAK_PENALTY * bool(weak)


def only_points(text: str) -> bool:
    """Whether `text` only labels a link ('Downloads + changelog: "Release v2.0" (<url>)'):
    what it points to is said elsewhere, if at all."""
    if "://" not in text:
        return False  # (most sentences)
    return len(_POINTED_RE.sub(" ", text).split()) < MIN_FACT_WORDS


def own_words(text: str, prs: Sequence[PRMention]) -> int:
    """How many words `text` says beside its citations of `prs`."""
    for mention in prs:
        text = text.replace(mention.raw, "")
    return len(text.split())
