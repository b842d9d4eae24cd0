"""Chat sentences in a newsletter's voice: no emoji, no @mentions, no reply openers, no "I".

`tidy` rewrites what can be rewritten safely, sentence by sentence: it drops emoji and the
openers chat puts before the news ("so", "yes,", "not yet,"), turns @mentions into names and
first-person words into the third person, and starts every sentence with a capital. What
still reads as chat afterwards (see `summarizer.voice.markers`) is for the caller to leave out.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from summarizer.phrasing import (
    REPLY_OPENER_RE,
    TEAM,
    clean_sentence,
    is_fallback,
    names_we,
    opens_without_subject,
    plural_pronouns,
    third_person,
)
from summarizer.text import (
    PHRASE_OPENERS,
    holds_any,
    not_after_abbreviation,
    quotes_whole,
    said_symbols,
)
from summarizer.voice import CODE_SPAN_RE, EMOJI_RE, QUOTE_RE, markers

_EMOJI_RUN_RE = re.compile(f"(?:{EMOJI_RE.pattern})+")
_MENTION_RE = re.compile(r"(?<![\w./])@(?=[A-Za-z0-9_])")  # (not a link's: "medium.com/@ana")
_CODE_SPAN_SPLIT_RE = re.compile(f"({CODE_SPAN_RE.pattern})")
# Thanks that close a sentence: "#2439 is merged, thanks for the fast review."
_THANKS_TAIL_RE = re.compile(
    r"(?:[,;]|\s[—–-])\s*(?:thanks|thank you|thx|ty)\b(?! to\b)"
    r"(?:[^.!?()]|\([^()]*\)){0,60}(?=\)?[.!?]*$)",  # (in brackets: "(#12, thanks Bo)")
    re.IGNORECASE,
)
# A channel named with what decorates it on Discord: "#🏆・tournament", "#🦀┃uefi-rs".
_DECORATED_CHANNEL_RE = re.compile(r"(?<![\w#&])#(?:[^\x00-\x7f\w\s]|[|｜])+(?=\w)")
# "I" or "we" after a short opening phrase: "With the patched wheel we hit 20% MFU".
# (not a letter among letters: "an H or I motor")
_SUBJECT_RE = re.compile(
    r"(?<=[a-z,] )(?<!\b[A-Z] or )(?<!\b[A-Z] and )(?<!\b[A-Z], )"
    r"(?:I|[Ww]e)(?:['’](?:m|ve|re))?(?= [a-z])"
)
MAX_OPENING_WORDS = 6
_EXCLAIMED_RE = re.compile(r"!{2,}")
# A sentence that only greets: "Hi Riders!", "Hello all,".
_GREETING_RE = re.compile(
    r"(?:hi|hey|hello|hiya|good (?:morning|evening))(?: [\w'-]+)?[!.,]*", re.IGNORECASE
)
# A thanks to someone opening a sentence of news: "Thanks @Ben Kowalski: ...", "Kudos to Ana
# — ..." ("Thanks to everyone who filled in the survey: 1,240 responses" says what they are).
_THANKS_HINTS = ("hank", "udos", "hout")  # (its words, whatever their case: a cheap pre-check)
_THANKS_OPENER_RE = re.compile(
    r"(?:(?:big |many |huge )?thanks|thank you|kudos|shout-?out)(?: to)? (?:@|(?-i:[A-Z]))"
    r"[^:—–\n]{0,40}?"
    r"\s*[:—–]\s+(?=\w)",
    re.IGNORECASE,
)
# Slack's notice of a shared file with a comment: the file's title and the comment are the news.
_FILE_NOTICE_RE = re.compile(
    r"^@?[^\n:]{1,80}? (?:uploaded|shared) a file: (?P<title>[^\n]{1,200}?) and commented: "
)
# "@Ana Ruiz: here's the layout": who a reply is addressed to is not part of the news.
_ADDRESS_RE = re.compile(r"^(?:@[^:@\n]{1,40}:(?!//)\s*)+(?=\S)")  # (not a link's "https:")
_BOLD_LABEL_RE = re.compile(r"^\*\*([^*\n]{1,80})\*\*\s?:")
_PLAIN_WORD_RE = re.compile(r"[a-z]+(?:['’-][a-z]+)*")
# A stop ends a sentence, but not the "vs." or "e.g." of one ("full vs. save-dots"), nor a
# title's ("Dr. Irene Castellanos", "St. Louis"), nor another abbreviation's ("incl.
# Hartwell's", "Av. Tamaulipas 66").
_SENTENCE_RE = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?]\*\*))(?<!\be\.g\.)(?<!\bi\.e\.)"
    # (nor a name's initial before a lower-case word: "Priya N. fixed the sheet")
    rf"{not_after_abbreviation()}(?<!\s[a-z]\.)(?!(?<=\s[A-Z]\.)\s+[a-z])\s+"
)
_SPACES_RE = re.compile(r"\s{2,}")
_LOOSE_BOLD_END_RE = re.compile(r"\s+\*\*(?=[\s.,;:!?)]|$)")
_CLAUSE_END_RE = re.compile(r"[.!?;\n]")
MIN_CLAUSE_WORDS = 3
CLAUSE_LOOKAHEAD = 80  # characters
# (not before an ellipsis, nor a file's name: "in .gitignore")
# (not a colon opening a word: "gradlew :android:assembleDebug")
_SPACE_BEFORE_PUNCT_RE = re.compile(r"\s+([,;!?)]|:(?!\w)|\.(?!\.\.|\w))")


def tidy(text: str) -> str:
    """`text` with each sentence rewritten as a newsletter would write it (see the module
    docstring); sentences that are nothing but a reply or a filler go."""
    return " ".join(_tidy_sentence(s, third=True) for s in _sentences(text)).strip()


# A date after a weekday: "25 March", "Feb 14th".
_DAY_OF_MONTH = r"\d{1,2}(?:st|nd|rd|th)?"
_MONTH_NAME = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE = rf"(?:{_DAY_OF_MONTH}(?: (?:of )?{_MONTH_NAME})?|{_MONTH_NAME} {_DAY_OF_MONTH})\b"

# A day said relative to when it was said: a newsletter is read days later ("the venue
# changes for tomorrow" -> "for Wednesday", "shipping tomorrow (Thursday)" -> "on Thursday").
_RELATIVE_DAY_RE = re.compile(
    r"\b(?P<before>(?:for|until|till|to|by|from|since|before|after|as of|of|on) )?"
    r"(?P<day>today|tonight|tomorrow|yesterday|this (?P<part>morning|afternoon|evening)"
    r"|last night)\b(?P<possessive>['’]s)?"
    r"(?P<named> \((?:mon|tues|wednes|thurs|fri|satur|sun)day\))?"
    # ("tomorrow (Fri 25 Sep)", "tomorrow (Sat Feb 14)", "tomorrow (Wed)", "tomorrow, Wed 25
    # March", "tomorrow, Friday": the day its author gave, the weekday said once)
    r"(?: \((?P<short>mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?(?:,? (?P<rest>[^()]{1,16}))?\)"
    r"|, (?P<listed_short>mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?(?:,? "
    rf"(?P<listed_rest>{_DATE}))?\b)?",
    re.IGNORECASE,
)
_COMPARED_RE = re.compile(r"\b(?:vs\.?|versus|than) $", re.IGNORECASE)
_DAYS_AFTER = {"tonight": 0, "tomorrow": 1, "yesterday": -1, "last night": -1}


def dated(text: str, said_at: datetime) -> str:
    """`text`, said at `said_at` (in the community's time zone), with "today", "tonight",
    "tomorrow", "yesterday", "this morning" and "last night" as the weekday they were: a
    newsletter is read days later ("as of today" is "as of Monday"); a weekday chat wrote in
    lower case, or shouted in a sentence that is not ("moved to SUNDAY june 28"), is
    capitalised."""
    if "day" in text and _LOWER_WEEKDAY_RE.search(text):  # ("public release tuesday 24 nov")
        text = _LOWER_WEEKDAY_RE.sub(lambda day: day[0].capitalize(), text)
        text = _LOWER_MONTH_RE.sub(lambda month: month[0].capitalize(), text)
    if not text.isupper() and _UPPER_DATE_RE.search(text):  # (most text: one cheap look)
        text = _UPPER_DATE_RE.sub(lambda day: day[0].capitalize(), text)
        text = _LOWER_MONTH_RE.sub(lambda month: month[0].capitalize(), text)
    if not holds_any(text.lower(), _RELATIVE_DAY_HINTS):
        return text  # (most sentences)
    return _RELATIVE_DAY_RE.sub(lambda said: _weekday(said, said_at), text)


# A weekday chat wrote in lower case, not in code, a link or a name ("#friday-demos") ...
_LOWER_WEEKDAY_RE = re.compile(
    r"(?<![\w/.@#`-])(?:mon|tues|wednes|thurs|fri|satur|sun)day(?![\w/.`-])"
)
_UPPER_MONTH = (
    r"(?:JANUARY|FEBRUARY|MARCH|APRIL|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER)"
)
_UPPER_DATE_RE = re.compile(
    r"(?<![\w/.@#`-])(?:MON|TUES|WEDNES|THURS|FRI|SATUR|SUN)DAY(?![\w/.`-])"
    rf"|(?<=\d ){_UPPER_MONTH}\b|\b{_UPPER_MONTH}(?= \d)"
)
# ... and the month of its date ("tuesday 24 nov", "sunday nov 1"; "may" may be a verb).
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|apr(?:il)?|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"
)
_LOWER_MONTH_RE = re.compile(rf"(?<=[a-z] ){_MONTH}(?= \d{{1,2}}\b)|(?<=\d ){_MONTH}")


# A sentence in the present tense of "be": its "today" is these days ...
_NOWADAYS_RE = re.compile(r"\b(?:is|are|am)\b|['’]re\b", re.IGNORECASE)
# ... unless what is so that day is said right before it: "Campus is closed today", "the
# story is out today" (that day's news).
_THAT_DAY_RE = re.compile(
    r"\b(?:out|closed|open|live|down|back|off|over|shut|cancell?ed|postponed)\s+$", re.IGNORECASE
)
_RELATIVE_DAY_HINTS = ("today", "tonight", "tomorrow", "yesterday", "this ", "last night")


def _weekday(said: re.Match[str], said_at: datetime) -> str:
    day = said["day"].lower()
    if (
        day == "today"
        and not said["before"]
        and _NOWADAYS_RE.search(said.string)
        and not _THAT_DAY_RE.search(said.string, 0, said.start())
    ):
        return said[0]  # ("they're on Elasticsearch today": these days, not that day)
    if said["named"]:  # ("tomorrow (Thursday)": the day its author named)
        weekday = said["named"].strip(" ()").capitalize()
    else:
        weekday = (said_at + timedelta(days=_DAYS_AFTER.get(day, 0))).strftime("%A")
    short = said["short"] or said["listed_short"]
    if short:
        if weekday[:3].lower() != short.lower():
            return said[0]  # (a date that is not the day it says: left as written)
        if rest := said["rest"] or said["listed_rest"]:
            weekday += f" {rest}"
    if said["part"]:
        weekday += f" {said['part'].lower()}"
    elif day in ("tonight", "last night"):
        weekday += " night"
    if said["possessive"]:
        return f"{said['before'] or ''}{weekday}{said['possessive']}"
    if said.string[said.start() - 1 : said.start()] == "/" or _COMPARED_RE.search(
        said.string, max(0, said.start() - 8), said.start()
    ):
        return weekday  # (the second of two, "merged today/tomorrow"; "main vs today")
    opening = said["before"] or "on "
    at_start = said.start() == 0 or said.string[: said.start()].rstrip().endswith((".", "!", "?"))
    return (opening[0].upper() + opening[1:] if at_start else opening) + weekday


# "me" as the last of a list of names (after a capitalised name), or the first of two
# ("me + @leni", "me and Leni").
_LISTED_ME_RE = re.compile(
    r"(?:(?<=[A-Za-z], )|(?<=[A-Za-z] and )|(?<=[A-Za-z], and )|(?<=\w [+&] ))me\b"
    r"(?=\s*(?:[)\].,;:]|$))"
    r"|\bme(?=\s*[+&]\s*@?\w|\s+and\s+@?[A-Z])"
)


# "I" after another's name and "and": one of two subjects, the author ("Wren and I go live").
_PAIRED_I_RE = re.compile(r"(?<=[a-z] and )I\b(?![’'])")
_NAME_BEFORE_RE = re.compile(r"\b[A-Z][a-z]+ and $")


def _paired(sentence: str, author: str) -> str:
    """`sentence` with "I" after another's name and "and" as the author."""
    if " and I" not in sentence:
        return sentence  # (most sentences)
    paired = _PAIRED_I_RE.search(sentence)
    if paired is None or _NAME_BEFORE_RE.search(sentence, 0, paired.start()) is None:
        return sentence
    return sentence[: paired.start()] + author + sentence[paired.end() :]


_WE_OPENING_RE = re.compile(r"[Ww]e(?:['’](?:re|ve|ll|d))?\s")


def as_team(sentence: str, author: str) -> str:
    """A later sentence of `author`'s opening with "we" as the group's: "Quill Labs is out.
    We're at $9,000" -> "... The team is at $9,000", not "They're at", which reads as Quill
    Labs."""
    if _WE_OPENING_RE.match(sentence) is None:
        return sentence  # (most sentences)
    return third_person(sentence, author)


_ME_RE = re.compile(r"\b(?P<by>with|from|to|by|for|at) me\b")
_THEY_RE = re.compile(r"\b(?:they|them|their)\b", re.IGNORECASE)
_CONTACT_ME_RE = re.compile(
    r"\b(?P<verb>(?i:tell|ping|dm|message|email|text|call|ask|contact)) me\b"
)


def _me_named(sentence: str, author: str) -> str:
    """`sentence` with "me" after a preposition as the author where it already speaks of
    others as "they" ("They're with me in flat 16": "them" would be the keys; "older than
    me", a joke on oneself, is no fact about the author), and "me" whom the reader is told to
    get in touch with ("Coaches, tell me by Friday" -> "tell Dana Whitlock": "them" would
    be the coaches)."""
    if "me" not in sentence:
        return sentence  # (most sentences)
    sentence = _CONTACT_ME_RE.sub(rf"\g<verb> {author}", sentence)
    if not _ME_RE.search(sentence) or not _THEY_RE.search(sentence):
        return sentence
    return _ME_RE.sub(rf"\g<by> {author}", sentence)


# "I" opening a sentence; "us" after a word taking an object ("stays with us", "gave us").
_I_OPENING_RE = re.compile(r"I(?:['’](?:m|ve|ll|d))?\s")
_US_OBJECT_RE = re.compile(r"\b(?P<by>with|from|to|by|for|at|of|gave|give|gives|sent|told) us\b")


def voiced(text: str, author: str) -> tuple[str, bool]:
    """`text`, said by `author`, tidied, with the author as the first sentence's subject
    where it can be ("I fixed X" -> "Ana fixed X"), or else as the subject of the first
    later sentence that has none ("Fixed in #12" -> "Ana fixed it in #12"); second, whether
    the first sentence's subject is the author."""
    if "me" in text:  # ("(Leila Haddad, Yuxin Chen, me)": the author, among names)
        text = _LISTED_ME_RE.sub(author, text)
    said = [_me_named(s, author) for s in _sentences(text)]
    others = _THEY_RE.search(text) is not None  # (a post saying "they" speaks of others)
    if others and " us" in text:  # ("IP stays with us, they said": not "with them")
        said = [_US_OBJECT_RE.sub(rf"\g<by> {TEAM.lower()}", s) for s in said]
    if not said:
        return "", False
    if said[0].startswith(f"{author} "):  # a message naming its own author says who did it
        first: str | None = _tidy_sentence(said[0], third=True)
    else:
        first = _with_subject(_tidy_sentence(said[0], third=False), author)
    subject = first is not None
    if first is None:
        first = _tidy_sentence(said[0], third=True)
    # (after "We're the Nguyen family", "we" is the family's)
    ours = names_we(said[0])
    rest = [
        _tidy_sentence(
            _paired(s, author) if ours else as_team(_paired(s, author), author), third=True
        )
        for s in said[1:]
    ]
    if not ours and others:
        # ("... they came back at $16k. I countered at $19,500": not "They countered")
        for at, sentence in enumerate(said[1:]):
            if _I_OPENING_RE.match(sentence) and any(_THEY_RE.search(s) for s in said[: at + 1]):
                rest[at] = _tidy_sentence(third_person(sentence, author), third=True)
    if not subject and author[:1].isupper():
        # "The size argument is in bytes. Documented that in #308": the later sentence
        # says what the author did ("Ana Ruiz documented that in #308").
        for at, sentence in enumerate(said[1:]):
            if opens_without_subject(sentence):
                rest[at] = _tidy_sentence(third_person(sentence, author), third=True)
                break
    return " ".join(filter(None, [first, *rest])), subject


def _with_subject(sentence: str, author: str) -> str | None:
    """The sentence with `author` as its subject: at its start ("I fixed X" -> "Ana fixed
    X") or after a short opening phrase ("With the patch we hit X" -> "With the patch Ana
    hit X"); None when neither reads right."""
    clause = third_person(sentence, author)
    if not is_fallback(clause, author):
        return plural_pronouns(clause)
    pronoun = _SUBJECT_RE.search(_quotes_hidden(sentence))
    if pronoun is None or len(sentence[: pronoun.start()].split()) > MAX_OPENING_WORDS:
        return None
    if pronoun[0] == "I" and sentence[: pronoun.start()].endswith(" and "):
        # "Ifeoma and I are giving a talk": the author is one of two subjects, the verb stays
        after = sentence[pronoun.end() :]
        return plural_pronouns(sentence[: pronoun.start()]) + author + plural_pronouns(after)
    clause = third_person(sentence[pronoun.start() :], author)
    if is_fallback(clause, author):
        return None
    if clause.startswith(TEAM):  # ("... with fixes the team validated locally")
        clause = TEAM.lower() + clause[len(TEAM) :]
    return plural_pronouns(sentence[: pronoun.start()]) + plural_pronouns(clause)


# Welcomes said as what to give or say to someone: "give a big welcome to X", "say hi to X".
_WELCOME_TO_RE = re.compile(
    r"\b(?:give (?:a )?(?:(?:warm|big|hearty|huge) )?welcome|say (?:hi|hello)) to\b(?= )",
    re.IGNORECASE,
)


def plain_welcome(text: str) -> str:
    """`text` with a welcome "to" someone said as "welcome" someone ("Please give a big
    welcome to Inês" -> "Please welcome Inês")."""
    if "elcome to " not in text and " hi to " not in text and " hello to " not in text:
        return text  # (most text: a cheap look before the pattern)
    return _WELCOME_TO_RE.sub("welcome", text, 1)


def _welcomed(sentence: str) -> str:
    """A welcome to a new member as a newsletter says it: "Please welcome Hana Kim, who joins
    us as a PhD student." -> "Hana Kim joins as a PhD student." ("who starts her PhD with
    us" -> "Hana Kim starts her PhD with us"); "Please welcome Hana Kim to
    the lab!" -> "Hana Kim joins the lab!"; "Say hi to Amir, our new intern!" -> "Amir joins
    as the new intern!"; "Please welcome Hana Kim!" -> "Welcome to Hana Kim!"."""
    if "elcom" not in sentence and " hi" not in sentence:
        return sentence  # (most sentences)
    welcome = _WELCOMED_RE.match(plain_welcome(sentence))
    if welcome is None:
        return sentence
    who, end = welcome["who"].rstrip(" —–-"), welcome["end"]  # (an emoji's dash: "Inês 🎉 who")
    if welcome["rest"] is not None:
        aux = " is" if welcome["aux"] == "'s" else welcome["aux"] or ""
        rest = _US_RE.sub(TEAM.lower(), welcome["rest"])  # ("his PhD with us": the community)
        return f"{who}{aux} {welcome['joins']}{rest}{end}"
    if welcome["where"] is not None:
        return f"{who} joins {welcome['where']}{end}"
    if welcome["role"] is not None:
        return f"{who} joins as the {welcome['role']}{end}"
    return f"Welcome to {who}{end}"


_US_RE = re.compile(r"\bus\b")
_WELCOMED_RE = re.compile(
    r"(?:everyone,? )?(?:please |let'?s all )?(?:(?:help (?:me|us)|join (?:me|us) in) )?"
    r"welcom(?:e|ing) (?P<who>[*_]{0,2}(?-i:[A-Z])[^,.!?:]{0,40}?)"
    r"(?:,? who(?P<aux>'s| is| has)? (?P<joins>join(?:s|ed|ing) |[a-z]+(?:s|ed) )(?:us )?"
    r"(?P<rest>[^.!?]+)"
    r"| to (?P<where>[^.!?]+)"
    # ("..., our new tech-art intern!")
    r"|, (?:our|the) (?P<role>new [^.!?]+))?(?P<end>[.!?]*)$",
    re.IGNORECASE,
)


def _quotes_hidden(sentence: str) -> str:
    """`sentence` with what it quotes blanked out, in place: a title's "we" ("How we run X")
    is not the author speaking."""
    if '"' not in sentence and "“" not in sentence and "'" not in sentence and "_" not in sentence:
        return sentence  # (most sentences)
    return QUOTE_RE.sub(lambda quoted: "_" * len(quoted[0]), sentence)


def _without_loose_ends(sentence: str) -> str:
    """`sentence` without the spaces, commas and dashes left at its ends; a minus sign opening
    it stays ("-66 to OT-1": a signal's reading)."""
    start = sentence.lstrip(" ,;:—–")
    if not (start[:1] == "-" and start[1:2].isdigit()):
        start = start.lstrip(" ,;:—–-")
    return start.rstrip(" ,;:—–-")


def _sentences(text: str) -> list[str]:
    if " a file: " in text:
        text = _FILE_NOTICE_RE.sub(r"\g<title>: ", text)
    if text.startswith("@"):
        text = _ADDRESS_RE.sub("", text)
    if "#" in text:  # ("#🏆・tournament": a channel by its name, as admins write it)
        text = _DECORATED_CHANNEL_RE.sub("#", text)
    # An emoji between two sentences ended the first: "We're live 🚀 The run is training".
    text = _without_mentions(_EMOJI_RUN_RE.sub(_emoji_gone, said_symbols(text)))
    cleaned = (
        _THANKS_TAIL_RE.sub("", REPLY_OPENER_RE.sub("", _welcomed(clean_sentence(s))))
        for s in _labels_plain(_split(text))
    )
    return [
        s
        for s in map(_without_loose_ends, cleaned)
        if len(s.rstrip(".!?")) >= 2
        and not _GREETING_RE.fullmatch(s)
        and not _LONE_WORD_RE.fullmatch(s)
    ]


# A sentence of one plain word says nothing a newsletter keeps ("Finally.", "Honestly."), but
# for an outcome ("... were broken by the URL rewriting. Fixed.").
_LONE_WORD_RE = re.compile(r"(?![A-Za-z]+ed\b)[A-Za-z]+[.!?]*")


def _split(text: str) -> list[str]:
    """`text`'s sentences, a quotation's kept whole (`quotes_whole`)."""
    parts = _SENTENCE_RE.split(text)
    return quotes_whole(parts) if '"' in text or "“" in text or "(" in text else parts


def _without_mentions(text: str) -> str:
    """`text` without its @mentions' "@", except in code: "`npm i @petal/react`"."""
    if "`" not in text:
        return _MENTION_RE.sub("", text)  # (most messages)
    parts = _CODE_SPAN_SPLIT_RE.split(text)
    return "".join(part if i % 2 else _MENTION_RE.sub("", part) for i, part in enumerate(parts))


def _emoji_gone(match: re.Match[str]) -> str:
    after = match.string[match.end() : match.end() + 4]
    # (what follows a space, past emphasis marks and a mention's "@")
    opening = after[1:].lstrip("*_@")[:1]
    if not (_ends_clause(match) and after[:1] == " " and (opening.isalnum() or opening == "`")):
        return ""
    # Before a capital or code it ended a sentence ("merged 🎉 `f!` points ...", "thanks 💙
    # *Acme* bought ..."); before a lower-case word or a figure it parts two clauses ("final
    # 🎉 it's built on ...", "the rack 🎉 3 mini PCs ...") in one sentence.
    return ". " if opening.isupper() or opening == "`" else " — "


def _ends_clause(match: re.Match[str]) -> bool:
    """Whether the emoji follows a word, or a citation with a clause after it ("now (#7690)
    🎉 no more hand-applied manifests"; in "(#319) ✅ merged." it marks a list's line)."""
    text, at = match.string, match.start()
    spaced = text[at - 1 : at] == " "
    before = text[at - 2 : at - 1] if spaced else text[at - 1 : at]
    if before.isalnum():
        # (a clause does not end on "the": "Where: the 🎙️ Office Hours stage")
        word = text[max(0, at - 8) : at].split()[-1:]
        return not (word and word[0].lower() in PHRASE_OPENERS)
    if not (spaced and before == ")"):
        return False
    # (a bounded look: three words fit in it, and a run of emoji stays linear)
    ahead = text[match.end() : match.end() + CLAUSE_LOOKAHEAD]
    return len(_CLAUSE_END_RE.split(ahead, maxsplit=1)[0].split()) >= MIN_CLAUSE_WORDS


def _tidy_sentence(sentence: str, *, third: bool) -> str:
    if third:
        sentence = plural_pronouns(sentence)
    if "** " in sentence:  # ("**20,000 ⭐**" without its emoji: "**20,000**")
        sentence = _LOOSE_BOLD_END_RE.sub("**", sentence)
    if "!!" in sentence:  # ("got accepted!!!": a newsletter says it once)
        sentence = _EXCLAIMED_RE.sub("!", sentence)
    return capitalised(_SPACES_RE.sub(" ", _SPACE_BEFORE_PUNCT_RE.sub(r"\1", sentence)))


def capitalised(text: str) -> str:
    """`text` with its first letter in upper case, when it starts with a plain word such as
    "replica-aware" (a ref such as "quill-orm#90", a path or a name such as "iOS" stays as
    it is), in bold too ("**tessel v0.9 is out**")."""
    at = 2 if text.startswith("**") else 0
    first = text[at:].split(" ", 1)[0].rstrip(",;:.!?*")
    if not _PLAIN_WORD_RE.fullmatch(first):
        return text
    return text[:at] + text[at].upper() + text[at + 1 :]


def clean_sentences(text: str) -> list[str]:
    """The sentences of `text` that carry no chat marker and ask nothing (a thanks that
    opens one is left out: "Thanks @Ben: the connector shipped" says the connector shipped)."""
    said = _labels_plain(_split(text))
    if holds_any(text, _THANKS_HINTS):
        said = [_without_thanks(s) for s in said]
    return [s for s in said if s and not s.endswith("?") and not markers(s)]


def _labels_plain(sentences: list[str]) -> list[str]:
    """The sentences, each opening with a bold label in plain words: "**Budget**: $5,110
    available" and "**Guest talk, Friday 20 Nov**: ..." are headings, no speaker's."""
    return [_BOLD_LABEL_RE.sub(r"\1:", s, count=1) if s.startswith("**") else s for s in sentences]


def _without_thanks(sentence: str) -> str:
    thanked = _THANKS_OPENER_RE.match(sentence)
    return capitalised(sentence[thanked.end() :]) if thanked else sentence
