"""Turning a chat sentence into a summary's clause: who did it leads, in the third person.

"I raised the fanout to 1024 (#8486)" said by Russell Power becomes "Russell Power raised
the fanout to 1024 (#8486)". Openers that carry nothing ("FYI", "ok so", "Update:") go, and
so does trailing emoji. A sentence that cannot be turned safely keeps its words and gets its
author as a label.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable

from summarizer.voice import QUOTE_RE, TITLE_WORDS

# Fillers and status labels chat puts before the news; they say nothing in a summary.
_OPENER_RE = re.compile(
    # ("Small update to Widget: v2.3 adds ..." keeps what it updates)
    r"^(?:(?:(?:(?:small|quick) )?update (?:on|to|for)(?= [^:,\n]{1,40}:)|"
    r"(?:(?:small|quick) )?(?:update(?: from (?:me|us))?|correction)(?=\s*[:,.!—–-])|"
    # ("So far 3 people came", "So many came" say how far and how many)
    r"ok(?:ay)?|so(?! (?:far|much|many|few|little|long)\b)|well|also|btw|fyi|psa|"
    r"heads[ -]up|status|"
    r"(?:(?:small|quick|friendly) )?reminder(?=\s*[:—–-]| that )(?: that)?|good news|bad news|re|"
    r"(?:\w+ )?note(?=:)|note|(?:small |quick )?nit(?=:)|fun(?: (?:fact|stat)s?)?(?=:)|"
    r"bonus(?=:)|unrelated(?=[:,])|"
    r"tl;?dr|ah|oh|hmm+|ugh|argh|oops|whoops|welp|yeah|yep|alright|anyway|and|but|plus|ps|"
    r"sure|separately|"
    r"(?:a )?(?:small|quick) one|meanwhile|"
    r"in other news|for the record|(?:some |big )?(?:\w+ )?news(?=:)|save the date(?=:)|"
    r"(?:here'?s |and )?mine(?=:)"  # (a showcase thread's entry: "mine: nightjar, a theme ...")
    r"|(?:come )?join us for)\b(?!-\w)[\s,:!.—–-]*"  # (not a word's part: "re-land", "well-known")
    # a vocative: "Folks, the slides are up", "Hi all — first PR here", "Good news,
    # everyone: ..." (with its comma, colon or dash: "All 704 GPUs" is no vocative)
    r"|(?:hey |hi |sorry )?(?:folks|everyone|everybody|all|team|guys|y'?all|friends)"
    r"(?:[,:]|\s+[—–-])\s*"
    # an apology before the news: "Sorry all, today's office hours are postponed"
    r"|(?:sorry|apologies)[,!:]\s*"
    # a remark on oneself labelling the news: "I'm an idiot: the 50k run was a debug build"
    r"|(?-i:(?:I'?m|I am|I was)(?: [a-z][\w'-]*){1,4}):\s+"
    # a welcome before the news: "Welcome Amy! The export path needs eyes"; a greeting:
    # "Hi Riders! Memberships are open"
    r"|welcome(?: aboard| back)?(?: (?-i:[A-Z])[\w'-]*)?!+\s+"
    r"|(?:hi|hey|hello|hiya)(?: (?-i:[A-Z])[\w'-]*)?(?:!+|,)(?:\s+|$)"
    # ... or the time of day: "Morning docs people — the new theme is live"
    r"|(?:good )?(?:morning|afternoon|evening)(?: [\w'-]+){0,2}?(?:[,:!]+|\s+[—–-])\s*"
    # the order of a list of news: "Second, the roadmap is public" ("First PR here" is news)
    r"|(?:first|second|third|fourth)(?:ly)?[,:]\s*|(?:finally|lastly)[,:]\s*)+",
    re.IGNORECASE,
)
# A pointer to where something is in the chat: "(see below)", ", see below", "(link above)"
# (not what a sentence says is there: "Slides are in the thread above").
_POINTER_RE = re.compile(
    r"\s*\((?:see |link |details |more |notes |thread )?(?:below|above)\)"
    r"|(?<!\bthe)(?<!\bin)(?<!\bmy)(?<!\bour),?\s+(?:see|details|link|more|thread) (?:below|above)"
    r"(?=\s*[.!:;)]|\s*$)"
)
_TRAILING_JUNK = "🎉🙏👀🚀✅😅🙂😀😄🤞💪👍🔥:;,—–-"  # and white space
_TRAILING_JUNK_RE = re.compile(rf"[\s{_TRAILING_JUNK}]+$")
# A conjunction left closing a sentence, where an emoji said the rest ("still a gap, but 🤯").
_DANGLING_ENDS = (" but", "but", " and", "and", " or", "use")  # (its last four characters)
_DANGLING_RE = re.compile(r"[,;]?\s+(?:but|and|or|because)\W*$", re.IGNORECASE)
# "Fixed in #405, so ...": done by a PR, not by the author ("Ana fixed in #405" is wrong);
# so is "Fixed in 4.1.4" (or "Fixed in: **4.1.4**"), by a release.
_BY_A_PR_RE = re.compile(
    r"(?:in|by|via|with):? (?:PR ?)?\S*(?:#\d|/pull/\d)|in:? [*_]*v?\d+\.\d", re.IGNORECASE
)
# Reply openers: words a reply starts with that say nothing in a summary. The second group
# only when punctuation follows ("No, not yet" is a reply; "No regressions" is news).
REPLY_OPENER_RE = re.compile(
    r"^(?:\^+\s+"  # ("^ this one closes #12": pointing at the message above)
    r"|(?:yes|yeah|yep|yup|nope|not yet|agreed|lol|lmao|haha\w*|heh|"
    r"hmm+|oh|ah|ok|okay|exactly|sounds good|makes sense|good (?:question|point|catch)|"
    # (not a word's hyphen, "Exactly-once", nor the dashes of "--flag")
    # ("Because file select load times differ by platform": why, said as what is so)
    r"\+1|lgtm|because(?! of\b))\b(?!-\w)(?:[\s,.!:;]|[—–-](?!-))*"
    r"|(?:no|right|sure|same|true|fair|nice|cool|great|correct|indeed|yes|thanks|thank you|"
    r"thx|thnx|ty|will do|on it|noted|perfect|my bad|that['’]?s on me|known|no need|of course|"
    r"absolutely|definitely)[,.!]\s*)+",
    re.IGNORECASE,
)
_EXCLAMATION_RE = re.compile(r"^(?:[^\W\d]+ )?[^\W\d]+[.!]+ +")  # "Nice catch. ", "Oh wow! "
# Openers that point back at something said before ("That fixed it", "It's a 535B MoE").
# "This week in Widget", "This Friday we ...": a time, not what was said before; nor does
# the "it" of "It's official: ...", whose colon says what is.
_NOT_A_TIME = (
    r"(?! (?:week|month|year|quarter|morning|afternoon|evening|weekend|spring|summer|fall"
    r"|autumn|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)"
)
ANAPHORA_RE = re.compile(
    rf"^(?:right now |[a-z]+, )?(?:this|that|it(?!(?:['’]s| is) [a-z]+:)|they|these|those|which)"
    rf"\b{_NOT_A_TIME}",
    re.IGNORECASE,
)
# What a subject-less chat sentence starts with: "Found a bug", "Trying that next".
_PAST_RE = re.compile(r"^[a-z]+(?:-[a-z]+)*ed$")
# The verbs whose past ends in "-eed" are those ending in "-ee"; other words that do are not
# in the past ("need", "speed", "feed").
_PAST_OF_EE_VERBS = frozenset(["agreed", "disagreed", "freed", "guaranteed", "decreed"])
_PAST_PREFIXES = ("re", "over", "under", "out", "mis", "un")
_HYPHENED_PREFIXES = frozenset([*_PAST_PREFIXES, "co", "pre", "de", "dis", "cross", "double"])
# What opens a verb's object: "the crash", "it", "12 papers".
_OBJECT_RE = re.compile(
    r"(?:the|a|an|it|them|this|that|these|those|my|our|his|her|their|all|both|every|\d)\b",
    re.IGNORECASE,
)
_IRREGULAR_PAST = frozenset(
    [
        "found",
        "left",
        "made",
        "ran",
        "put",
        "got",
        "wrote",
        "built",
        "took",
        "sent",
        "began",
        "brought",
        "caught",
        "chose",
        "drew",
        "drove",
        "fed",
        "felt",
        "fought",
        "forgot",
        "froze",
        "gave",
        "held",
        "kept",
        "knew",
        "led",
        "lost",
        "meant",
        "met",
        "paid",
        "read",
        "rode",
        "rose",
        "saw",
        "sold",
        "set",
        "shot",
        "shut",
        "slept",
        "spent",
        "split",
        "spun",
        "stood",
        "struck",
        "swept",
        "taught",
        "thought",
        "threw",
        "told",
        "understood",
        "woke",
        "won",
        "wound",
        "cut",
        "hit",
        "went",
        "came",
        "became",
        "said",
        "heard",
        "bought",
        "broke",
        "hung",
        "let",
        "lit",
        "fell",
        "flew",
        "grew",
        "dug",
        "sat",
        "spoke",
        "stuck",
        "tore",
        "bent",
        "sought",
        "slid",
        "spread",
        "dealt",
        "quit",
        "landed",
        "shipped",
        "merged",
        "fixed",
        "opened",
    ]
)
# Verbs whose third-person form is not the base form plus "s".
_THIRD_PERSON = {
    "am": "is",
    "are": "is",
    "have": "has",
    "do": "does",
    "go": "goes",
    "were": "was",
    "don't": "doesn't",
    "haven't": "hasn't",
    "aren't": "isn't",
    **{
        modal: modal
        for modal in ["can", "could", "will", "would", "should", "might", "must", "may"]
    },
    **{past: past for past in ["was", "did", "had"]},
}
_I_CONTRACTIONS = {"i'm": "is", "i've": "has", "i'll": "will", "i'd": "would"}
# Who "we" are in a community's chat: most often the project or the group, seldom the author's
# own team ("we just crossed 2,000 stars"), so the author is credited, not made its owner.
TEAM = "The team"
# "we" said to be a name: "We're the Nguyen family", "We are The Rusty Gears".
_WE_NAMED_RE = re.compile(r"(?i:we(?:['’]re| are))\s+(?=(?i:the)\s+[A-Z])")


def names_we(sentence: str) -> bool:
    """Whether `sentence` opens by saying who "we" are ("We're the Nguyen family: ..."):
    its author's "we" is then theirs, not the community's."""
    return _WE_NAMED_RE.match(sentence) is not None


_WE_CONTRACTIONS = {"we're": "is", "we've": "has", "we'll": "will", "we'd": "would"}
# Words that are not verbs although they follow "I" ("I also", "I just", "I finally").
_ADVERBS = frozenset(
    [
        "also",
        "just",
        "finally",
        "now",
        "still",
        "already",
        "then",
        "really",
        "actually",
        "only",
        "even",
        "mostly",
        "first",
        "accidentally",
        "quickly",
        # (how often: "I never have" -> "Gary never has", not "nevers have")
        "never",
        "always",
        "often",
        "sometimes",
        "seldom",
    ]
)
# A word in "-ly" that says how ("badly", "gladly", "barely"), not a verb ("apply", "rally").
_ADVERB_RE = re.compile(r"[a-z]{3,}(?<![pl])ly")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})
# Words in "-ed" that say how someone is, not what they did: "Based in Oslo", "Interested in
# kernels" (never "Ana based in Oslo").
STATES = frozenset(["based", "located", "interested", "excited", "involved", "fascinated"])


def is_fallback(clause: str, author: str) -> bool:
    """Whether `third_person` could only label the sentence with its author."""
    return clause.startswith(f"{author}: ")


# "Dedup audit (#12): I checked 600 pairs": a label before a first-person clause.
_LABEL_RE = re.compile(r"^(?P<label>[^:\n]{3,60}):\s+(?=(?:I|I'm|I've|We|We're|We've)\b)")
_LABEL_REF_RE = re.compile(r"[\w/.-]*#\d+")
# A note in brackets on an edit: "146 households (edit: I'd said 142, 4 came late)".
_EDIT_NOTE_RE = re.compile(r"\s*\((?:edit|edited)\s*:[^()]*\)", re.IGNORECASE)


# Laughs typed as words ("lol", "haha", "hahaha"): chat, never news.
_LAUGHS = ("lol", "lmao", "lmfao", "rofl", "hehe", "xd")


def is_laugh(word: str) -> bool:
    """Whether a lower-case `word` is a laugh typed as a word ("lol", "hahaha")."""
    return word in _LAUGHS or word.startswith("haha")


# A hedge or a laugh closing a sentence: "..., I think though", "..., imo", "... broke again
# lol". A summary states it.
_HEDGE_TAIL_RE = re.compile(
    r",\s*(?:(?:i|we) (?:think|find|guess|believe|feel|suppose|reckon)|imo|imho|tbh)"
    r"(?: though| anyway)?(?=[.!]*$)"
    r"|\s+(?:i|we) (?:think|guess|believe|reckon)(?=[.!]*$)"  # ("a record I think")
    rf"|,?\s+(?:{'|'.join(_LAUGHS)}|haha\w*)(?=[.!]*$)",
    re.IGNORECASE,
)
TAIL_CHARS = 40  # a hedge or laugh fits in a sentence's last characters; only they are read
# The words a hedge ends with (the pattern is tried only after one of them, or a laugh).
_HEDGE_WORDS = frozenset(
    ["think", "find", "guess", "believe", "feel", "suppose", "reckon", "imo", "imho", "tbh"]
    + ["though", "anyway"]
)


# A condition on the reader closing a sentence: "#1412 is the speedup, if anyone wants the
# details". What it says stands without it.
_IF_WANTED_RE = re.compile(
    r",?\s+if (?:anyone|anybody|someone|you)(?:'s|'re| is| are)? "
    r"(?:wants?|needs?|cares?|interested|curious)\b(?: [^\s.!?,;]+){0,3}(?=[.!]*$)",
    re.IGNORECASE,
)


# A welcome closing a sentence: "Ryan merged #8591 — welcome aboard Ian!".
_WELCOME_TAIL_RE = re.compile(
    r"(?:[,;]|\s[—–-])\s*welcome(?: aboard| back)?(?: @?(?-i:[A-Z])[\w'.-]*){0,3}[.!]*$",
    re.IGNORECASE,
)


# "I'm afraid" said aside, with what it softens ("Spring, I'm afraid: it's closed", "Bad news
# for Saturday I'm afraid: ..."), not what someone fears ("I'm afraid of heights").
_AFRAID_RE = re.compile(r",?\s+(?:I'm|I am|we're|we are) afraid(?=\s*[:,.;!—–-]|\s*$)", re.I)


def _without_tail(text: str) -> str:
    """`text` without a closing hedge or laugh (`_HEDGE_TAIL_RE`), "I'm afraid" said aside
    (`_AFRAID_RE`), a condition on its reader (`_IF_WANTED_RE`) or a welcome
    (`_WELCOME_TAIL_RE`)."""
    if "afraid" in text:
        text = _AFRAID_RE.sub("", text)
    if " if " in text[-TAIL_CHARS - 20 :]:
        text = _IF_WANTED_RE.sub("", text)
    if "welcome" in text[-TAIL_CHARS:].lower():
        text = _WELCOME_TAIL_RE.sub("", text)
    last = text[-TAIL_CHARS:].rstrip(".! ").rpartition(" ")[2].lower()
    if last not in _HEDGE_WORDS and not is_laugh(last):
        return text  # (most sentences)
    match = _HEDGE_TAIL_RE.search(text, max(0, len(text) - TAIL_CHARS))
    return text if match is None else text[: match.start()] + text[match.end() :]


def clean_sentence(text: str) -> str:
    """The sentence without filler openers, labels before a first-person clause, a closing
    hedge, a pointer to where something is in the chat ("(see below)") and trailing emoji;
    a label's PR references move to the end."""
    if "dit" in text:  # (what its author noted of an edit, the text already says)
        text = _EDIT_NOTE_RE.sub("", text)
    stripped = _without_tail(_OPENER_RE.sub("", text.strip()).strip())
    if "below" in stripped or "above" in stripped:  # (where it was in the chat: no page has)
        stripped = _POINTER_RE.sub("", stripped)
    label = _LABEL_RE.match(stripped) if ":" in stripped else None
    # (a colon inside brackets ends no label: "146 households served (edit: I'd said 142)")
    if label and label["label"].count("(") <= label["label"].count(")"):
        refs = _LABEL_REF_RE.findall(label["label"])
        stripped = stripped[label.end() :].rstrip(" .")
        stripped += f" ({', '.join(refs)})." if refs else "."
    if stripped and (stripped[-1].isspace() or stripped[-1] in _TRAILING_JUNK):
        # (the regex, which tries every white space, matches only then)
        stripped = _TRAILING_JUNK_RE.sub("", stripped)
    if stripped[-4:].lower().rstrip(".!") in _DANGLING_ENDS:
        stripped = _DANGLING_RE.sub("", stripped)
    if not stripped:
        return text.strip()
    if stripped[0].islower() and text.strip()[0].isupper():
        stripped = stripped[0].upper() + stripped[1:]
    return stripped


# "I" again after "and": the same subject, said once ("I fixed X and I merged Y"; only
# before a verb in the past, which needs no agreeing).
_SAME_SUBJECT_RE = re.compile(r"(?:(?<=\band)|(?<=\bbut)|(?<=\bthen)|(?<=\bso)) I (?=([a-z]+))")


def third_person(sentence: str, author: str) -> str:
    """`sentence`, said by `author`, as a clause with the author as its subject.

    "I fixed X" -> "Ana fixed X"; "We moved X" -> "The team moved X"; "Fixed X" ->
    "Ana fixed X"; "#12 adds X" -> "Ana's #12 adds X"; anything else -> "Ana: X" (see
    `is_fallback`). A sentence in bold keeps its bold: "**We're moving to Sunday**" ->
    "**The team is moving to Sunday**".
    """
    stressed = _STRESS_OPENING_RE.match(sentence)
    if stressed is not None:
        if _stressed_heading(sentence, stressed):
            return f"{author}: {sentence}"
        clause = third_person(sentence[stressed.end() :], author)
        return f"{author}: {sentence}" if is_fallback(clause, author) else stressed[0] + clause
    name = author
    head, _, rest = sentence.partition(" ")
    lower = head.translate(_APOSTROPHES).lower().rstrip(",")
    if lower in ("i", "i'm"):
        rest = _without_own_name(rest, name)  # "I'm Priya, a data engineer" names no one new
    if lower == "i":
        return f"{name} {_verb_agree(plural_pronouns(_said_once(rest)))}".rstrip()
    if lower in _I_CONTRACTIONS:
        said = plural_pronouns(_said_once(rest))
        if lower in ("i'm", "i've"):  # (after "will" or "would" a verb stays as it is)
            said = with_verbs_agreeing(said)
        return f"{name} {_I_CONTRACTIONS[lower]} {said}".rstrip()
    named = _WE_NAMED_RE.match(sentence)
    if named is not None:  # ("We're the Nguyen family: ..." names who "we" are)
        said = sentence[named.end() :]
        return plural_pronouns(said[0].upper() + said[1:])
    if lower == "we":
        return f"{TEAM} {_verb_agree(plural_pronouns(rest))}".rstrip()
    if lower in _WE_CONTRACTIONS:
        return f"{TEAM} {_WE_CONTRACTIONS[lower]} {plural_pronouns(rest)}".rstrip()
    if lower == "my":
        return f"{name}'s {_pronouns(rest)}"
    if lower == "our":
        return f"{TEAM}'s {plural_pronouns(rest)}"
    if head.startswith("#"):
        return f"{name}'s {sentence}"
    shared = _shared(sentence, name)
    if shared is not None:
        return shared
    if lower in STATES:  # "Based in Oslo, ..." -> "Ana is based in Oslo, ..."
        return f"{name} is {_lower_first(plural_pronouns(sentence))}"
    if lower == "been" and rest:  # "Been using X for a year" -> "Ana has been using X ..."
        return f"{name} has {with_verbs_agreeing(_lower_first(plural_pronouns(sentence)))}"
    if opens_without_subject(sentence):
        return f"{name} {_lower_first(plural_pronouns(sentence))}"
    if _is_gerund_clause(lower, rest):
        return f"{name} is {_lower_first(_pronouns(sentence))}"
    return f"{name}: {sentence}"


def _without_own_name(rest: str, author: str) -> str:
    """What follows "I'm" or "I" without the author's own name before a comma: "Priya, a
    data engineer" -> "a data engineer", "am Priya Raman, a ..." -> "am a ..."."""
    am = "am " if rest[:3].lower() == "am " else ""
    said = rest[len(am) :]
    # (any of the author's names: "Park Seo-yeon" goes by "Seo-yeon")
    for own in (author, *author.split()):
        if said[: len(own) + 1].casefold() == f"{own},".casefold():
            return am + said[len(own) + 1 :].lstrip()
    return rest


# A sentence that holds a link out to its reader ("Check out this talk <url>", "Here's the
# layout: <url>", "Thought you'd enjoy this <url>", "This is a good intro: <url>"): in a
# summary, its author shared what it links.
_PRESENTS_RE = re.compile(
    r"^(?:(?:do |please )?(?:check out|have a look at|take a look at|look at)"
    r"|here(?:'s| is| are)"
    r"|(?:i )?thought you(?:'d| would| might)(?: all)? (?:enjoy|like)"
    r"|(?:this|that|it)(?:'s| is)(?= (?:an?|the|some) ))\s+(?=\S)",
    re.IGNORECASE,
)
_DEICTIC_RE = re.compile(r"^(?P<word>this|that|these|those)\s+", re.IGNORECASE)


def _shared(sentence: str, name: str) -> str | None:
    """ "Check out this talk <url>" by Ana -> "Ana shared a talk <url>"; None unless the
    sentence presents a link to its reader."""
    if "://" not in sentence:
        return None  # (most sentences: one cheap look)
    match = _PRESENTS_RE.match(sentence.translate(_APOSTROPHES))
    if match is None:
        return None
    what = sentence[match.end() :]
    deictic = _DEICTIC_RE.match(what)
    if deictic is not None:
        what = what[deictic.end() :]
        noun = what[:1].isalpha() and "://" not in what.split(" ", 1)[0]
        if deictic["word"].lower() in ("this", "that") and noun:
            what = ("an " if what[0].lower() in "aeiou" else "a ") + what
    return f"{name} shared {what}"


# "That works: `.all(timeout=2)` raises after 2 s": a label pointing back at the message it
# answers; once the sentence stands alone in a summary, what follows the colon says it. (It
# ends no sentence and opens no link: "It's up! [Repeat offenders: 212 homes](<url>)".)
_POINTING_LABEL_RE = re.compile(
    rf"^(?:that|this|it|which)(?:'s|’s| is| was)?\b{_NOT_A_TIME}[^:\n\d#.!?\[]{{0,30}}:\s+(?=\S)",
    re.IGNORECASE,
)
MIN_STANDING_WORDS = 5


def without_pointing_label(sentence: str) -> str:
    """`sentence` without a label pointing back ("That works: ...", "That's the bad part:
    ..."), where what follows says something on its own; else `sentence`."""
    label = _POINTING_LABEL_RE.match(sentence)
    if label is None:
        return sentence
    rest = sentence[label.end() :]
    if sum("://" not in word for word in rest.split()) < MIN_STANDING_WORDS:
        return sentence  # "This is a good intro: <url>": the label is the sentence
    return rest


# ... and those that may open a sentence without a subject ("Just published a post on ...").
_OPENING_ADVERBS = frozenset(["just", "also", "finally", "recently", "already", "quickly", "then"])


def opens_without_subject(sentence: str) -> bool:
    """Whether `sentence` opens with a verb in the past and no subject ("Got hooked on UEFI
    and ..."), not with a noun phrase ("Used GPUs are cheap"), a state ("Fixed, the cert
    had expired") or what a PR did."""
    head, _, rest = sentence.partition(" ")
    lower = head.translate(_APOSTROPHES).lower()
    if lower in _DAY_ABBREVIATIONS and rest[:1].isdigit():
        return False  # ("Wed 13 May, 19:00: clinic", "Sat 16 May": a date, not "wed" or "sat")
    if lower in _OPENING_ADVERBS:  # "Just published a post on ..."
        head, _, rest = rest.partition(" ")
        lower = head.translate(_APOSTROPHES).lower()
    return (
        _is_past(lower)
        and (lower not in _BASE_AS_PAST or _PAST_CUE_RE.search(rest) is not None)
        # (a compound in "-ed" describes what follows: "Interior-qualified members only";
        # "re-landed", "co-authored", and one with an object, "root-caused the crash", are done)
        and (
            "-" not in lower
            or lower.partition("-")[0] in _HYPHENED_PREFIXES
            or _OBJECT_RE.match(rest) is not None
        )
        and not _is_noun_phrase(rest)
        and not _BY_A_PR_RE.match(rest)
        and not _PASSIVE_RE.match(rest)
        and not _STATE_RE.match(rest)
        and not _is_label(rest)
    )


# Verbs whose past is their plain form: opening a sentence, they tell the reader what to do
# ("Set `compile_sass = true` in cairn.toml", "Put it in writing for the budget meeting")
# unless the sentence says it was done ("Cut the release last night").
_BASE_AS_PAST = frozenset(["put", "read", "set", "shut", "split", "cut", "hit", "let"])
_PAST_CUE_RE = re.compile(
    r"\b(?:yesterday|last (?:night|week|time)|earlier|already|ago|this (?:morning|afternoon))\b",
    re.IGNORECASE,
)


_STRESS_OPENING_RE = re.compile(r"(?:\*{1,2}|_{1,2})(?=\w)")
STRESSED_HEADING_WORDS = 3


def _stressed_heading(sentence: str, stressed: re.Match[str]) -> bool:
    """Whether the sentence opens with a short heading in bold whose first word is a past
    participle ("**corrected score** after the dupe check: ..."; "**Updated agenda**"): a
    noun phrase, not a deed of its author's ("**Fixed the login bug**")."""
    inner, closed, _ = sentence[stressed.end() :].partition(stressed[0])
    said = inner.split()
    return (
        bool(closed)
        and 1 < len(said) <= STRESSED_HEADING_WORDS
        and _is_past(said[0].lower())
        and said[1].lower() not in _OBJECT_STARTS
        and "#" not in inner
    )


_DAY_ABBREVIATIONS = frozenset(day.lower() for day in calendar.day_abbr)
# "Reported (responsibly) by Aylin": the one who did it is said, in the passive.
_PASSIVE_RE = re.compile(r"(?:\w+ly )?by (?!a PR|#)")
# "Closed until Dec 4 for a disk swap": a state for some time, which its author did not do.
_STATE_RE = re.compile(r"(?:\w+ly )?(?:until|till|between|since|pending|due to|because of)\b")


# A few words that hold no article, preposition or pronoun, then a citation or the end:
# what an adjective heads ("Detailed latency numbers (#12)"), not a verb's object.
_SHORT_LABEL_RE = re.compile(r"^(?:[\w+-]+ ){0,2}[\w+-]+(?=\s*(?:\(|:(?!//)|[.!]?$))")
_FUNCTION_WORDS = frozenset(
    ["the", "a", "an", "it", "this", "that", "my", "our", "their", "them", "its", "his", "her"]
    + ["in", "on", "to", "into", "for", "from", "with", "by", "of", "at", "up", "out", "off"]
    + ["and", "back", "down", "over", "all", "some"]
)


def _is_label(rest: str) -> bool:
    """Whether what follows a word in "-ed" is a short label rather than an object."""
    match = _SHORT_LABEL_RE.match(rest)
    return match is not None and not any(w.lower() in _FUNCTION_WORDS for w in match[0].split())


def points_back(text: str) -> bool:
    """Whether `text` opens by pointing back at what was said before it ("That one cost us
    a day", "Fixed in #405, so ...")."""
    return bool(ANAPHORA_RE.match(text)) or done_by_a_pr(text)


# Openers that also start news of one's own ("ok I finally fixed the flaky test").
_FILLERS = frozenset(["ok", "okay", "oh", "ah", "hmm", "lol", "lmao", "heh"])


def _first_word(text: str) -> str:
    """The first word of `text` (which has one), lower-cased, without its punctuation."""
    return text.split(maxsplit=1)[0].strip(",.!:;—–-").lower()


def answers_before(text: str) -> bool:
    """Whether `text` opens as an answer to what was said before it: with a reply's opener
    ("Agreed, ...") or by pointing back (`points_back`), maybe after a short exclamation
    ("Nice catch. That's why ...")."""
    opener = REPLY_OPENER_RE.match(text)
    if opener and _first_word(opener[0]) not in _FILLERS or points_back(text):
        return True
    exclaimed = _EXCLAMATION_RE.match(text)
    if exclaimed is None or _is_past(_first_word(exclaimed[0])):
        return False  # "Restarted. That's 4.5 h idle": what it points back to is said here
    return points_back(text[exclaimed.end() :])


def done_by_a_pr(sentence: str) -> bool:
    """Whether `sentence` opens with what a PR did and no subject ("Fixed in #405, so ..."):
    what was fixed is said before it."""
    if "#" not in sentence and "/pull/" not in sentence:
        return False  # most sentences: no PR for it to be done by
    head, _, rest = sentence.partition(" ")
    return _is_past(head.lower()) and bool(_BY_A_PR_RE.match(rest))


def _is_past(word: str) -> bool:
    """Whether a lower-case `word` reads as a verb in the past tense ("fixed", "found"; not
    "need" or "speed", whose "-ed" is not an ending)."""
    if word.endswith("eed"):
        return word in _PAST_OF_EE_VERBS
    return bool(_PAST_RE.match(word)) or word in _IRREGULAR_PAST


def _said_once(rest: str) -> str:
    if " I " not in rest:
        return rest
    return _SAME_SUBJECT_RE.sub(lambda m: " " if _is_past(m[1]) else m[0], rest)


# What follows a verb in "-ing" that starts a clause ("Trying that", "Running the sweep"),
# unlike a noun in "-ing" ("Embedding backfill status").
_AFTER_GERUND = frozenset(
    [
        "the",
        "a",
        "an",
        "that",
        "this",
        "it",
        "them",
        "on",
        "to",
        "with",
        "for",
        "out",
        "up",
        "back",
        "through",
        "over",
        "into",
        "our",
        "my",
        "some",
        "more",
        "longer",
        "all",
        "both",
    ]
)


def _is_gerund_clause(lower: str, rest: str) -> bool:
    """Whether a sentence opening with `lower` then `rest` says what its author is doing
    ("Working on the loader"), not of a subject in "-ing" ("Stirling with explicit bounds is
    in", "Testing with the new flags was green": a verb follows in the same clause)."""
    if not (
        lower.endswith("ing")
        and len(lower) > 5
        and rest.split(" ", 1)[0].lower().rstrip(",") in _AFTER_GERUND
    ):
        return False
    clause = _CLAUSE_BREAK_RE.split(rest, 1)[0].lower().split()[:GERUND_CLAUSE_WORDS]
    return not any(word in _SUBJECT_VERBS for word in clause)


GERUND_CLAUSE_WORDS = 6
_CLAUSE_BREAK_RE = re.compile(r"[,;:.!?(]")
_SUBJECT_VERBS = frozenset(["is", "are", "was", "were", "has", "had", "will", "takes", "took"])


_OBJECT_STARTS = frozenset(["the", "a", "an", "it", "this", "that", "my", "our", "their", "them"])
_BRACKET_THEN_VERB_RE = re.compile(
    rf"\([^()\n]{{1,40}}\) (?!(?:{'|'.join(sorted(_OBJECT_STARTS))})\b)[a-z]+s\b"
)
_FINITE = frozenset(
    ["is", "are", "was", "were", "has", "have", "had", "does", "do", "goes", "go", "will", "can"]
    + ["get", "gets"]  # the passive's other auxiliary: "Verified builds get published"
    + ["becomes", "become", "stays", "stay", "remains", "remain"]  # ("Supported range becomes")
    # a verb's negation or its adverb, before it: "Cascaded shadow maps no longer shimmer"
    + ["no", "never", "don't", "doesn't", "won't", "can't", "cannot", "now"]
)


def _is_noun_phrase(rest: str) -> bool:
    """Whether a verb follows within four words, and no object's article comes first:
    "Retokenized shards are ...", "Combined hero kernel stack is merged" are subjects;
    "Fixed the cache so it is warm" is not; nor a bracket then a verb: "Leaded (63/37)
    flows at a lower temp" is said of the solder ("Fixed (finally) the leak" is a deed)."""
    if rest.startswith("(") and _BRACKET_THEN_VERB_RE.match(rest):
        return True
    words = [word.lower() for word in rest.split(" ", 4)[:4]]
    if words and words[0] in _OBJECT_STARTS:
        return False
    return any(word in _FINITE for word in words)


_CLAUSE_END = ".,;:!?)"


def _verb_agree(rest: str) -> str:
    """The first verb of `rest` agreeing with a singular subject ("Ana", "Ana's team"), and
    an auxiliary that shares it after "and" ("... and have been running" -> "and has")."""
    words = rest.split(" ")
    for index, said in enumerate(words):
        word = said.rstrip(_CLAUSE_END)  # (the verb may end the clause: "the more excited I am.")
        end = said[len(word) :]
        bare = word.translate(_APOSTROPHES).lower()
        if bare in _ADVERBS or _ADVERB_RE.fullmatch(bare):
            continue  # ("we badly need" -> "badly needs")
        if bare in _THIRD_PERSON:
            words[index] = _THIRD_PERSON[bare] + end
        elif bare.isalpha() and not _is_past(bare) and not _prefixed_past(bare):
            words[index] = _add_s(word) + end
        break
    return with_verbs_agreeing(" ".join(words))


def _prefixed_past(word: str) -> bool:
    """Whether `word` is an irregular past after a prefix ("rewrote", "rebuilt"), which
    takes no "-s" after a subject (where a sentence opens with one, it may be an adjective:
    "Rebuilt wheel works")."""
    return any(word.startswith(p) and word[len(p) :] in _IRREGULAR_PAST for p in _PAST_PREFIXES)


# Verbs that take "to": after "and", "want to help" can only be a verb ("and wants to help").
_TO_VERBS = frozenset(["want", "hope", "plan", "like", "love", "need", "try", "intend", "aim"])
# ... of which these are verbs whatever follows ("and want something social"; "like" and
# "plan" may be a preposition or a noun).
_OBJECT_VERBS = frozenset(["want", "hope", "love", "need", "enjoy"])


def with_verbs_agreeing(text: str) -> str:
    """`text`, whose subject is singular, with the verbs that share it after "and" agreeing
    ("... and have been running" -> "and has"; "... and want to help" -> "and wants to"),
    and those after a comma that want something ("Cy, 2nd year CS, want to learn" ->
    "wants to learn")."""
    if " and " not in text and ", " not in text:
        return text
    words = text.split(" ")
    for index in range(1, len(words)):
        before = words[index - 1]
        if before != "and" and not before.endswith(","):
            continue
        bare = words[index].translate(_APOSTROPHES).lower()
        if bare in _THIRD_PERSON and before == "and":
            words[index] = _THIRD_PERSON[bare]
        elif bare in _OBJECT_VERBS or bare in _TO_VERBS and words[index + 1 : index + 2] == ["to"]:
            words[index] = _add_s(words[index])
    return " ".join(words)


def _add_s(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# Words of English that Spanish, French, Italian and Portuguese do not have: a sentence
# with none of them is not English.
_ENGLISH_RE = re.compile(
    r"\b(?:the|and|is|are|was|were|with|this|that|it|of|to|for|my|I|have|has|will|from)\b",
    re.IGNORECASE,
)
_PRONOUN_RE = re.compile(
    r"(?<![\w'/-])(?:[Mm]y|[Mm]e|[Mm]ine|I|I'm|I've|I'll|I'd|[Mm]yself)(?![\w'/-])"
)
# What may follow an "I" that ends its clause.
_CLAUSE_END_RE = re.compile(r"\s*(?:[.,;:!?)]|<?https?://|$)")
_PRONOUNS = {
    "my": "their",
    "me": "them",
    "I": "they",
    "I'm": "they're",
    "I've": "they've",
    "I'll": "they'll",
    "I'd": "they'd",
    "myself": "themselves",
    "mine": "theirs",
}
_PLURAL_RE = re.compile(
    r"(?<![\w'/-])(?:[Oo]urs?|[Uu]s|[Ww]e(?:'re|'ve|'ll|'d)?|[Oo]urselves)(?![\w'/-])"
)  # not "US"
_PLURALS = {
    "our": "their",
    "us": "them",
    "we": "they",
    "we're": "they're",
    "we've": "they've",
    "ourselves": "themselves",
    "ours": "theirs",
    "we'll": "they'll",
    "we'd": "they'd",
}


def _pronouns(text: str) -> str:
    """Later first-person singular words in the sentence, in the third person."""
    return _outside_quotes(_singular, text)


def _singular(text: str) -> str:
    return _PRONOUN_RE.sub(_their, text)


# A letter before "I" in a list of letters: "an H or I motor", "classes G, H, I".
_LETTERS_BEFORE_RE = re.compile(r"\b[A-Z](?:,? (?:or|and|to)|,|/| ?[-–]) ?\Z")
_TITLE_BEFORE_RE = re.compile(rf"{TITLE_WORDS}\Z")


def _their(match: re.Match[str]) -> str:
    word = match.group(0)
    if word == "I" and (
        _LETTERS_BEFORE_RE.search(match.string, 0, match.start())
        or _TITLE_BEFORE_RE.search(match.string, max(0, match.start() - 60), match.start())
    ):
        return word
    if word == "I" and _CLAUSE_END_RE.match(match.string, match.end()):
        return "them"  # "a matrix from Tim, Gerardo, and I": no subject, nothing follows
    if not word.startswith("I") and _in_a_title(match):
        return word
    if word in ("me", "Me") and _ENGLISH_RE.search(match.string) is None:
        return word  # ("Me quedé con «os»", "yo me voy a leer": Spanish's and French's "me")
    return _PRONOUNS[word if word.startswith("I") else word.lower()]


def _in_a_title(match: re.Match[str]) -> bool:
    """Whether a capitalised word is inside a sentence, as in a title's ("Never Let Me Go
    is on the list"): it is not the author speaking."""
    if not match[0][:1].isupper():
        return False
    # (what comes just before it, not the whole text before: a message has many pronouns)
    before = match.string[max(0, match.start() - 3) : match.start()].rstrip().rstrip("*_")
    return bool(before) and before[-1] not in ".!?:;(\"“'"


def plural_pronouns(text: str) -> str:
    """First-person words, singular and plural, in the third person."""
    return _outside_quotes(_plural_pronouns, text)


def _plural_pronouns(text: str) -> str:
    if "I " in text:
        text = _I_BE_RE.sub(lambda m: f"they {_BE[m.group(1)]}", text)
    return _PLURAL_RE.sub(_theirs, _singular(text))


# What says whose a thing is after "our": "our own", "on our side", "our first round".
_WHOSE_RE = re.compile(r" (?:own|side|end|part|first)\b")


def _theirs(match: re.Match[str]) -> str:
    """A first-person plural word in the third person; "our" inside a sentence as "the"
    ("23 of our 30 parts", "toward our $8,000 goal": the community's, not some "their"),
    but "their" where it says whose ("our own", "on our side", "our first round")."""
    word = match[0]
    if _in_a_title(match):
        return word
    if word == "our" and _WHOSE_RE.match(match.string, match.end()) is None:
        return "the"
    return _PLURALS[word.lower()]


def _outside_quotes(rewrite: Callable[[str], str], text: str) -> str:
    """`text` (its apostrophes made plain) with `rewrite` applied to what is outside
    quotation marks and link labels: quoted words are someone's words as they were said (a
    title, a remark), not the author's to be put in the third person."""
    text = text.translate(_APOSTROPHES)
    if not any(mark in text for mark in _QUOTE_MARKS):
        return rewrite(text)  # (most sentences)
    parts, start = [], 0
    for quoted in _AS_SAID_RE.finditer(text):
        parts += [rewrite(text[start : quoted.start()]), quoted[0]]
        start = quoted.end()
    return "".join([*parts, rewrite(text[start:])])


_QUOTE_MARKS = ('"', "“", "'", "](", "_", "*")
# What is someone's words as they were said: a quotation, or the label of a link (the title
# of the page or post it links: "[60 clusters on pgtide: what we learned](<url>)").
_AS_SAID_RE = re.compile(rf"{QUOTE_RE.pattern}|\[[^\[\]\n]{{1,300}}\]\(")
_I_BE_RE = re.compile(r"(?<![\w'/-])I (am|was)\b")
_BE = {"am": "are", "was": "were"}


def _lower_first(text: str) -> str:
    """`text` with its first letter lower-cased, unless the first word is an acronym."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[1:].lower() != first[1:]:
        return text
    return text[:1].lower() + text[1:]


_THEY = {"i": "They", "i'm": "They're", "i've": "They've", "i'll": "They'll", "i'd": "They'd"}
_THEY_PLURAL = {"we": "They", "we're": "They're", "we've": "They've", "we'll": "They'll"}


# "they" and its forms for one person, in the pronouns they gave.
_STATED = {
    "she": {"they": "she", "they're": "she's", "they've": "she's", "they'll": "she'll",
            "they'd": "she'd", "their": "her", "theirs": "hers", "them": "her",
            "themselves": "herself"},
    "he": {"they": "he", "they're": "he's", "they've": "he's", "they'll": "he'll",
           "they'd": "he'd", "their": "his", "theirs": "his", "them": "him",
           "themselves": "himself"},
}  # fmt: skip
_THEY_RE = re.compile(r"\b(?:they(?:'re|'ve|'ll|'d)?|theirs?|them(?:selves)?)\b", re.IGNORECASE)
# "they" before its verb, an adverb between: "They also run ..." -> "She also runs ...".
_THEY_VERB_RE = re.compile(r"\b([Tt])hey ((?:[a-z]+ly |also |just |still |now )?[a-z]+)\b")


def in_stated_pronouns(text: str, pronoun: str) -> str:
    """`text`, which speaks of one person as "they", in the pronoun they gave ("she" or
    "he"; any other leaves it as it is): "They're a student and their thesis is on X" ->
    "She's a student and her thesis is on X"."""
    forms = _STATED.get(pronoun)
    if forms is None or not _THEY_RE.search(text):
        return text
    text = _THEY_VERB_RE.sub(lambda m: f"{m[1]}hey {_verb_agree(m[2])}", text)

    def stated(match: re.Match[str]) -> str:
        said = forms[match[0].lower().replace("’", "'")]
        return said.capitalize() if match[0][0].isupper() else said

    return _THEY_RE.sub(stated, text)


def they(sentence: str) -> str:
    """A further sentence by the same person: "I also ran X" -> "They also ran X"."""
    head, _, rest = sentence.partition(" ")
    lower = head.translate(_APOSTROPHES).lower()
    if lower in _THEY:
        return f"{_THEY[lower]} {plural_pronouns(rest)}"
    if lower in _THEY_PLURAL:
        return f"{_THEY_PLURAL[lower]} {plural_pronouns(rest)}"
    if lower in ("my", "our"):
        return f"Their {plural_pronouns(rest)}"
    return plural_pronouns(sentence)
