"""Introductions: one complete line per newcomer, in their own words turned to the third
person: who they are, from where, working on what."""

from __future__ import annotations

import re
from collections.abc import Sequence

from summarizer.names import stated_pronoun, without_pronouns
from summarizer.newsletter import capitalised, dated, plain_welcome, tidy
from summarizer.noise import is_acknowledgement
from summarizer.phrasing import (
    STATES,
    TEAM,
    clean_sentence,
    in_stated_pronouns,
    is_fallback,
    opens_without_subject,
    third_person,
    with_verbs_agreeing,
)
from summarizer.prlinks import link, link_prs
from summarizer.text import (
    FIRST_PERSON_RE,
    GREETING,
    LOWER_START_RE,
    chat_lines,
    defuse_pings,
    full_stop,
    says_to_the_reader,
    sentences,
    without_mass_mentions,
)
from summarizer.types import PRMention, Section, SourceMessage, Topic
from summarizer.voice import EMOJI_RE

INTRO_WORDS = 35
GREETING_WORDS = 4  # an exclamation this short that names nobody is a greeting
# "¡Hola! 👋 I'm ...", "from Chile 🇨🇱.": emoji part words, or end them.
_EMOJI_RE = re.compile(rf"\s*(?:{EMOJI_RE.pattern})+(?:\s+|(?=[.,;:!?])|$)")
# How a newcomer is, said without a subject in a word that looks like a verb in the past:
# "Interested in the query planner." is "They're interested ...", not "They interested ...".
_STATE_RE = re.compile(r"(?:interested|excited|based|involved)\b", re.IGNORECASE)
# Words that open a sentence saying how someone is or what they do, not who they are.
_NOT_DESCRIBING = frozenset(["love", "just", "happy", "glad", "thanks", "hope", "been", "so"])
# Emoji where a stop was left out: "Amara from Nairobi 👋 I teach game dev".
_EMOJI_GAP_RE = re.compile(rf"(?<=\w)\s*(?:{EMOJI_RE.pattern})+\s+(?=[A-Za-z])")
_GREETING_RE = re.compile(
    rf"^\W*(?:{GREETING})\b"
    r"(?:\s+(?:all|everyone|folks|there|team|y'all))?[\s!,.:-]*",
    re.IGNORECASE,
)
# Where a sentence's first clause ends: it says the gist, what follows elaborates or says
# what they plan ("I maintain the plugin, and I'm here to keep it in step with 3.2").
_CLAUSE_RE = re.compile(r"[:;] |,? (?:and|but) (?=(?:i|we|they)\b)|, so | [—–] ", re.IGNORECASE)
# A newcomer's gladness says nothing about who they are: "excited to be here!", "So happy to
# join".
_GLAD_TO_BE_HERE_RE = re.compile(
    r"(?:(?:i'?m|i am|so|really|very|super)\s+)*(?:excited|glad|happy|thrilled|stoked)"
    r"\s+to\s+(?:be\s+here|join(?:\s+(?:you(?:\s+all)?|the\s+\w+))?)\W*",
    re.IGNORECASE,
)
# Saying that one introduces oneself says nothing of oneself: "Can't sleep so I'm finally
# introducing myself" (unless the sentence names its author: "Introducing myself: Sanne, ...").
_INTRODUCING_RE = re.compile(r"\bintroduc(?:e|ing)\s+(?:my|our)sel(?:f|ves)\b", re.IGNORECASE)
# "a data engineer" after a name needs "is"; "data engineer" in brackets needs no article.
_ARTICLE_RE = re.compile(r"^(?:an?|the) ")
_THANKS_RE = re.compile(r"(?:thanks|thank you|thx|ty)\b", re.IGNORECASE)
# A welcome to someone new, however the channel is addressed: "Everyone, please welcome ...",
# "Please help me welcome ...".
# (after a short greeting of its own, "Good morning all! Please welcome ...")
_WELCOME_RE = re.compile(
    r"^\W*(?:[^.!?\n]{1,25}[.!?]+\s+)?"
    r"((?:everyone,? )?(?:please )?(?:(?:help|join) (?:me|us) (?:in )?)?"
    r"(?:give (?:a )?(?:(?:warm|big|hearty|huge) )?)?)welcom(?:e|ing)\b",
    re.IGNORECASE,
)
WELCOME_WORDS = 12  # a welcome this long says who joined ("welcome Jordan!" does not)
# ... to someone it names, or to people new: not "Welcome to #hero-run: this is where ...",
# nor "Welcome! The nightly harness is a good place to start".
_WELCOMED_RE = re.compile(
    r"[\s,:]*(?:@|[*_]{0,2}(?!(?:To|Back|Aboard|All|Everyone)\b)[A-Z]"
    r"|(?i:(?:(?:a|an|two|three|four|five|some|our|the) )?new)\b)",
)
_COUNTED = frozenset(["a", "an", "the", "our", "some", "new", "two", "three", "four", "five"])
# A welcome's first person: the community's ("our fall data intern", "with us through
# December"), or its author's ("helping me on the training").
_WELCOMER_RE = re.compile(r"\b(?:i'm|i've|i|my|me|we're|we've|we|our|(?-i:us))\b", re.IGNORECASE)
_SAID_FOR = {
    "our": "the",
    "us": "the team",
    "we": "the team",
    "we're": "the team is",
    "we've": "the team has",
    "i'm": "{} is",
    "i've": "{} has",
    "my": "{}'s",
}


def introductions(topic: Topic, messages: Sequence[SourceMessage]) -> Section:
    """One complete line per newcomer: who they are, from where, working on what; and one
    per welcome a member wrote for newcomers (`is_welcome`)."""
    lines = []
    people: dict[str, None] = {}
    cited: dict[str, None] = {}
    sources = []
    for message in messages:
        if message.author in people:
            continue
        if is_welcome(message):
            line = welcome(message)
        else:  # (in the pronoun they gave, where they gave one: "I'm Lin (she/her)")
            line = in_stated_pronouns(introduction(message), stated_pronoun(message.text) or "")
        if not line:
            continue
        people[message.author] = None
        cited.update(dict.fromkeys(p.ref for p in message.prs))
        sources.append(message.id)
        said = dated(line, message.created_at)  # ("came to the ride this morning")
        lines.append("- " + defuse_pings(_citing(said, message.prs)))
    return Section(
        topic=topic.id,
        title=topic.title,
        markdown="\n".join(lines),
        prs=list(cited),
        people=list(people),
        sources=sources,
    )


def welcomes(text: str) -> bool:
    """Whether `text` opens welcoming someone ("@channel Please welcome ...")."""
    return _WELCOME_RE.match(_welcome_said(text)) is not None


def _welcome_said(text: str) -> str:
    """`text` without its mass mentions, a welcome "to" someone said as "welcome" someone."""
    return plain_welcome(without_mass_mentions(text))


def is_welcome(message: SourceMessage) -> bool:
    """Whether `message` welcomes someone new and says who they are ("Please welcome Jordan
    Pak, our fall data intern! Jordan is a senior at ..."), not in reply to anything."""
    if message.reply_to_id or message.thread_id not in (None, message.id):
        return False
    opening = _WELCOME_RE.match(_welcome_said(message.text))
    return (
        opening is not None
        # (asking the community: "Welcome Fatima! Hana's PR needs a reviewer" answers her)
        and bool(opening[1])
        and _WELCOMED_RE.match(opening.string, opening.end()) is not None
        and len(message.text.split()) >= WELCOME_WORDS
    )


def welcome(message: SourceMessage) -> str:
    """ "@channel Please welcome @Jordan Pak, our fall data intern! Jordan is with us through
    December. Say hi" -> "Aisha Karimi welcomed Jordan Pak, the fall data intern! Jordan is
    with the team through December."; its first sentences that fit `INTRO_WORDS`."""
    text = _without_emoji(_welcome_said(message.text)).strip()
    opening = _WELCOME_RE.match(text)
    said = [
        clean_sentence(s)
        for line in chat_lines(text[opening.end() if opening else 0 :])
        for part in sentences(line)
        for s in LOWER_START_RE.split(part)
    ]
    kept: list[str] = []
    for sentence in said:
        if sentence.endswith("?") or says_to_the_reader(sentence) or len(sentence.split()) < 3:
            continue  # ("Say hi", "Make them feel at home, you all")
        if kept and sum(len(k.split()) for k in kept) + len(sentence.split()) > INTRO_WORDS:
            break
        kept.append(full_stop(capitalised(sentence) if kept else sentence))
    if not kept:
        return ""
    author = message.author
    told = tidy(_WELCOMER_RE.sub(lambda me: _welcomer(me[0], author), " ".join(kept)))
    if told.split(" ", 1)[0].lower() in _COUNTED:  # ("two new people", not a name)
        told = told[0].lower() + told[1:]
    return f"{author} welcomed {told}"


def _welcomer(said: str, author: str) -> str:
    """A welcome's first person (`_WELCOMER_RE`) in the third."""
    return _SAID_FOR.get(said.lower(), "{}").format(author)


def _citing(line: str, prs: Sequence[PRMention]) -> str:
    """A newcomer's line with the PRs they cited linked, those it does not say at its end
    ("Ana Ruiz is a data engineer in Lisbon ([#990](...)).": every PR is in the draft)."""
    if not prs:
        return line
    unsaid = [link(p) for p in prs if p.raw not in line]
    line = link_prs(line, prs)
    if not unsaid:
        return line
    body, stop = (line[:-1], line[-1]) if line[-1] in ".!?" else (line, ".")
    return f"{body} ({', '.join(unsaid)}){stop}"


def introduction(message: SourceMessage) -> str:
    """ "Ana Ruiz, a data engineer in Lagos. They build ..." from the newcomer's words."""
    name = message.author
    filled = _filled_in(message.text, name)
    if filled:
        return filled
    about = self_description(message)
    if not about:
        return ""
    # (the sentence naming them leads: "Signed up today! I'm Yusra, I build synth modules")
    named = next((i for i, s in enumerate(about) if _self_named(s, name) is not None), 0)
    about.insert(0, about.pop(named))
    lead = _self_named(about[0], name)
    named_alone = lead == name and len(about) > 1
    if named_alone:
        about.pop(0)
        lead = None
    if lead is None:
        lead = third_person(about[0], name)
        if is_fallback(lead, name):
            if not named_alone and says_to_the_reader(about[0]):
                return ""  # ("check the good-first-issue label, ping me": an answer)
            # "Daniel here. Backend dev in Lagos.": what follows the name describes them.
            lead = (
                f"{name}, {with_verbs_agreeing(_lower_first_word(about[0]))}"
                if named_alone or _describes(about[0])
                else f"{name} introduced themselves: {tidy(about[0])}"
            )
    lead = full_stop(tidy(lead))
    more = _more_about(about[1:], INTRO_WORDS - len(lead.split()))
    joined = _joined(lead, more, name) if more else None
    if joined:
        return joined
    lead = _with_verb(lead, name)
    if not more:
        return lead
    if _STATE_RE.match(more):  # "Interested in the planner" -> "They're interested ..."
        more = f"They're {more[0].lower()}{more[1:]}"
    elif opens_without_subject(more):  # "Got hooked on UEFI" -> "They got hooked ..."
        more = f"They {more[0].lower()}{more[1:]}"
    return f"{lead} {full_stop(tidy(more))}"


# A line of a filled-in introduction template: "**Location:** Pune", "- Working on: speech".
_FIELD_RE = re.compile(
    r"^\W*?(?:\*\*|__)?(?P<key>[A-Za-z][A-Za-z /&'-]{0,24}?)(?:\*\*|__)?\s*[:：]\s*"
    r"(?:\*\*|__)?\s*(?P<value>[^*\n][^\n]*?)\s*$",
    re.MULTILINE,
)
MIN_FIELDS = 2
# What a template's keys ask, by the words they hold ("Where are you based?", "Day job").
_WHO_KEYS = ("role", "job", "occupation", "position", "profession", "title", "what i do", "work")
_WHERE_KEYS = ("location", "from", "based", "city", "country", "where")
_DOING_KEYS = ("working on", "project", "building", "research", "interest", "learning")


def _filled_in(text: str, name: str) -> str:
    """A filled-in introduction template ("**Location:** Pune / **Working on:** speech
    models") as a newcomer's line, "Name (role, from place) works on X."; "" for text that is
    not one (fewer than two fields saying who, where or what they work on)."""
    fields = [(m["key"].casefold(), m["value"].rstrip(" .")) for m in _FIELD_RE.finditer(text)]

    def field(keys: tuple[str, ...]) -> str:
        return next((v for k, v in fields if any(key in k for key in keys)), "")

    doing = field(_DOING_KEYS)  # (first: "working on" holds "work")
    who = next((v for k, v in fields if any(key in k for key in _WHO_KEYS) and v != doing), "")
    where = field(_WHERE_KEYS)
    if sum(map(bool, (who, where, doing))) < MIN_FIELDS:
        return ""
    about = ", ".join(filter(None, [who, f"from {where}" if where else ""]))
    line = f"{name} ({about})" if about else name
    return full_stop(tidy(f"{line} works on {doing}" if doing else line))


def _describes(sentence: str) -> bool:
    """Whether `sentence` says who someone is without a verb ("Data scientist at a climate
    nonprofit."), so that it reads after their name: it opens with no verb-like word
    ("Using this for ...", "Love this project!") and says nothing in the first person."""
    first = sentence.split(" ", 1)[0].lower().strip(",.!")
    return (
        not first.endswith(("ing", "ed"))
        and first not in _NOT_DESCRIBING
        and not FIRST_PERSON_RE.search(sentence)
    )


def _with_verb(lead: str, name: str) -> str:
    """ "Ana Ruiz, a data engineer in Lagos." as a sentence: "Ana Ruiz is a data engineer
    in Lagos." (a lead with no article, "Ana Ruiz, data engineer", stays as it is)."""
    who = _appositive(lead, name)
    if who is None or not (_ARTICLE_RE.match(who) or who.startswith("from ")):
        return lead
    return f"{name} is {who}."


def _more_about(said: Sequence[str], room: int) -> str:
    """The first of the sentences after the lead that says more about the newcomer, cut to
    its first clause, as they said it, if it fits in `room` words; else ""."""
    for sentence in said:
        # "Curious how you handle ...": said to the community, not about the newcomer.
        sentence = "; ".join(c for c in sentence.split("; ") if not says_to_the_reader(c))
        if not sentence:
            continue
        # "My research is on X and Y: how ..." -> "My research is on X and Y."
        clause = _CLAUSE_RE.split(sentence, 1)[0].rstrip(",")
        if len(clause.split()) < 2:
            continue  # "Currently: learning Rust": a label, not a clause
        sentence = clause
        return sentence if len(sentence.split()) <= room else ""
    return ""


def _joined(lead: str, more: str, name: str) -> str | None:
    """ "Ana Ruiz, a data engineer in Lagos." and "I work on X" as one sentence, "Ana Ruiz
    (data engineer in Lagos) works on X."; None unless the lead is the name and who they
    are, and the other sentence can say what they do with the name as its subject."""
    who = _appositive(lead, name)
    if who is None or "(" in who or "(" in name:  # ("Ben (he/him)": brackets in brackets)
        return None
    clause = third_person(more, name)
    if is_fallback(clause, name) or not clause.startswith(f"{name} "):
        return None  # ("Ana Ruiz's thesis is on X" says it of the thesis)
    who = _ARTICLE_RE.sub("", who)
    return full_stop(tidy(f"{name} ({who}) {clause.removeprefix(name + ' ')}"))


def _appositive(lead: str, name: str) -> str | None:
    """Who the newcomer is, where the lead is just "<name>, <who they are>."."""
    match = re.fullmatch(rf"{re.escape(name)}, (?P<who>[^.!?]+)\.", lead)
    return match["who"] if match else None


def self_description(message: SourceMessage) -> list[str]:
    """The sentences of an introduction that say something: no greeting, question or thanks
    (to anyone: "thank you Aisha.")."""
    about = [
        clean_sentence(s)
        for line in chat_lines(
            _GREETING_RE.sub("", _without_emoji(without_pronouns(message.text)), 1)
        )
        for part in sentences(line)
        for s in LOWER_START_RE.split(part)  # "PhD student at USC. mostly lurking for now"
        if not is_acknowledgement(s)
    ]
    # "Hola!", "¡Hola a todos!", "Hi all 👋": greetings in any language are short and name
    # nobody; a question ("Any good first issues? 🙂") asks, it does not introduce.
    first_name = message.author.split()[0].casefold()  # ("lena here, ..." names her too)
    return [
        s
        for s in about
        if not s.endswith("?")
        and not _GLAD_TO_BE_HERE_RE.fullmatch(s)
        and not _THANKS_RE.match(s)  # ("thank you Aisha.", to the one who welcomed them)
        and (
            first_name in s.casefold()
            or len(s.split()) > (GREETING_WORDS if s.endswith("!") else 2)
            and _INTRODUCING_RE.search(s) is None
        )
    ]


def _without_emoji(text: str) -> str:
    text = _EMOJI_GAP_RE.sub(". ", text)
    return _EMOJI_RE.sub(lambda m: " " if m[0][-1:].isspace() else "", text).strip()


# A greeting in any language may come first: "Xin chào, I'm Bao", "Hola! Ximena here",
# "Mālō e lelei everyone, Tevita here", "Morning all. Ben here"; and "I'm" may be said in
# any language: "Sou a Ana", "Je m'appelle Ana" (two short words at most).
_SELF_NAME_RE = (
    r"^(?:[^,.!?]{{1,30}}[,.!]\s+)?"
    r"(?:(?:i'?m|i am|my name is|this is|it'?s)?\s*{name}|(?:[\w'’]{{1,9}}\s+){{1,2}}(?-i:{name}))"
    r"(?:\s+here)?\s*[,.:;!—–-]*\s*"
)
_CAPITALISED_WORD_RE = re.compile(r"[A-Z][a-z]+\b")
_AND_RE = re.compile(r"^and\s+", re.IGNORECASE)
_I = frozenset(["I", "I'm", "I've", "I'd", "I'll"])  # ("I run a print farm" says what they do)
_SELF_PRONOUNS = frozenset(["i", "i'm", "i've", "i'd", "i'll", "my", "we", "we're", "our"])


def _lower_first_word(text: str) -> str:
    """ "Backend dev in Lagos" -> "backend dev in Lagos" (a word such as "PhD" stays)."""
    return text[0].lower() + text[1:] if _CAPITALISED_WORD_RE.match(text) else text


def _done(clause: str, name: str) -> str:
    """A subjectless clause ("just started a postdoc", "working on X") with the newcomer as
    its subject; "" for one that is not (a noun phrase, "data engineer in Pune", "embedded
    engineer at a drone startup")."""
    if not (clause[:1].islower() or clause.partition(" ")[0] in _I):
        return ""
    if _ROLE_RE.match(clause):
        return ""
    done = third_person(clause, name)
    return "" if is_fallback(done, name) else done


# A participle before a bare noun and where: a role ("embedded engineer at ...", "retired
# software engineer from ..."), not a deed, which has an object ("started a postdoc", "moved
# here", "started working on ...").
_ROLE_RE = re.compile(
    r"[a-z]+ed (?!(?:a|an|the|my|our|this|that|some|to|here|it|them|up|back|over|out)\b"
    r"|[a-z]+ing\b)[a-z]+(?: [a-z]+){0,2} (?:at|in|from|for|with|on)\b"
)


def _self_named(sentence: str, name: str) -> str | None:
    """ "I'm Ana Ruiz, a data engineer" -> "Ana Ruiz, a data engineer"; just the name
    when nothing follows it; None if the sentence does not open with the newcomer's name."""
    for form in (re.escape(name), re.escape(name.split()[0])):
        match = re.match(_SELF_NAME_RE.format(name=form), sentence, re.IGNORECASE)
        if not match:
            continue
        rest = sentence[match.end() :]
        if not rest:
            return name
        # "I'm Lena, and I'm starting a PhD": what follows the "and" says it of them.
        said = _AND_RE.sub("", rest, count=1)
        if said.split(" ", 1)[0].lower().replace("’", "'") in _SELF_PRONOUNS:
            return third_person(said, name)
        # "I'm Tom, just started a postdoc": what follows says what they did, not who they are.
        done = _done(rest, name)
        if done:
            return done
        # "I'm Sofia, frontend dev in Lisbon, been using X": who they are, then what they did.
        who, comma, after = rest.partition(", ")
        # ("from Living Models, based in Paris" says where they are: it stays as it is)
        state = after.partition(" ")[0].lower() in STATES
        done = _done(after, name) if comma and not state else ""
        if done and "(" not in who and done.startswith(f"{name} "):
            return f"{name} ({_ARTICLE_RE.sub('', who)}) {done.removeprefix(name + ' ')}"
        owner = f"{name}'s "
        if done.startswith((owner, TEAM)):  # ("..., we moved our ETL": their team did)
            return f"{name}, {who}. Their {done.removeprefix(owner).removeprefix('The ')}"
        # ("Priya here (Bangalore → Toronto)": a bracket is said after the name)
        return f"{name}{'' if rest.startswith('(') else ','} {with_verbs_agreeing(rest)}"
    return None
