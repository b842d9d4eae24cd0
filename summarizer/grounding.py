"""Checking a model's text against the messages it cites.

Every PR reference, person's name and figure in a sentence must appear in those messages (or
the PRs' GitHub details), and so must most of its words: at least `MIN_WORD_SUPPORT` of its
content words (stopwords left out, simple word endings folded), so that a sentence inventing
news around a real name or PR does not pass. A sentence with a claim that cannot be verified
is removed. Link targets must be URLs of the cited messages or of their PRs: another URL is
removed (a Markdown link keeps its label). What was removed is listed for the editor.

Messages addressed to the summary or its writer (`summarizer.addressed`) are never evidence:
a sentence using a word that only such a message holds is removed too, whatever else
supports it, since "the hero run has been cancelled" gets most of its words from any
message about the hero run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from summarizer.addressed import normalised
from summarizer.figures import find_figures
from summarizer.prrefs import normalise, parse_pr_refs
from summarizer.text import defuse_pings, words
from summarizer.types import SourceMessage

# Two or three capitalised words in a row, e.g. "Ana Ruiz", "Tim O'Donnell", "Mei-Lin Zhou".
_NAME_RE = re.compile(r"\b[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){1,2}\b")
# Capitalised only because they start a sentence: not part of a name.
_STARTERS = frozenset(
    [
        "a",
        "after",
        "also",
        "an",
        "and",
        "at",
        "before",
        "both",
        "but",
        "each",
        "finally",
        "for",
        "her",
        "his",
        "in",
        "its",
        "last",
        "meanwhile",
        "new",
        "next",
        "on",
        "our",
        "over",
        "separately",
        "so",
        "that",
        "the",
        "their",
        "then",
        "these",
        "this",
        "those",
        "under",
        "when",
        "while",
        "with",
    ]
)
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")
_SPACE_RE = re.compile(r"\s+")
_LINK_RE = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_URL_RE = re.compile(r"https?://[^\s<>()\[\]\"|]+")
_PR_PAGES = (("/pull/", "/issues/"), ("/issues/", "/pull/"))
_URL_TAIL = ".,;:!?'’"
MIN_WORD_SUPPORT = 0.5  # share of a sentence's content words the cited messages must hold
MIN_CHECKED_WORDS = 3  # shorter sentences ("Also merged:") carry no claim of their own
STEM_CHARS = 5  # words agree on their first letters: "saves" and "saving", "cancel(led)"
_ENDINGS = ("ing", "ed", "es", "s", "ly")
# Words that say nothing a source must support.
_STOPWORD_LIST = """
    a about above after again against all also am an and any are as at be been before being below
    between both but by can could did do does doing done down during each few for from further
    get gets got had has have having he her here hers him his how i if in into is it its
    itself just made make makes me more most my new no nor not now of off on once one only or
    other our ours out over own same saw see she should so some still such than that the their
    theirs them then there these they this those through to too two under until up very was we
    week weeks were what when where which while who whom why will with would yet you your
"""
_STOPWORDS = frozenset(_STOPWORD_LIST.split())


@dataclass(frozen=True, slots=True)
class Grounded:
    markdown: str  # the verified text
    removed: list[str]  # what was taken out, e.g. "PR #9999 (not in the sources)"


def ground(
    markdown: str,
    sources: Sequence[SourceMessage],
    *,
    default_repo: str | None = None,
    repo_aliases: Mapping[str, str] | None = None,
    flagged: Sequence[SourceMessage] = (),
) -> Grounded:
    """Keep the sentences of `markdown` whose PRs, names and figures the sources support;
    `flagged` are the week's messages addressed to the summary (see the module's notes)."""
    evidence = _Evidence(sources, flagged)
    removed: list[str] = []
    lines = []
    for line in evidence.unknown_links(markdown, removed).splitlines():
        kept = []
        for sentence in _SENTENCE_RE.split(line):
            problems = evidence.unsupported(sentence, default_repo, repo_aliases)
            if problems:
                removed.extend(problems)
            else:
                kept.append(sentence)
        if kept or not line.strip():
            lines.append(" ".join(kept))
    text = "\n".join(lines).strip()
    return Grounded(defuse_pings(re.sub(r"\n{3,}", "\n\n", text)), removed)


class _Evidence:
    """What the cited messages say, in forms cheap to look claims up in."""

    def __init__(
        self, sources: Iterable[SourceMessage], flagged: Iterable[SourceMessage] = ()
    ) -> None:
        sources = list(sources)
        texts = [m.text for m in sources]
        texts += [m.author for m in sources]
        for message in sources:
            for mention in message.prs:
                texts += [mention.title or "", mention.author or ""]
        self.text = _SPACE_RE.sub(" ", "\n".join(texts)).lower()
        self.stems = {_stem(word) for word in words(self.text)}
        self.refs = {p.ref for m in sources for p in m.prs}
        self.numbers = {p.ref.rsplit("#", 1)[1] for p in (p for m in sources for p in m.prs)}
        urls = [u for m in sources for u in _URL_RE.findall(m.text)]
        urls += [m.permalink for m in sources if m.permalink]
        for mention in (p for m in sources for p in m.prs):
            if mention.url:  # GitHub redirects between a PR's /pull/ and /issues/ pages
                urls += [mention.url, *(mention.url.replace(a, b) for a, b in _PR_PAGES)]
        self.urls = {_plain_url(u) for u in urls}
        # Words only a flagged message holds: a sentence with one of them came from it.
        flagged_words = words(" ".join(normalised(m.text) for m in flagged))
        self.flagged_only = {_stem(w) for w in flagged_words if w not in _STOPWORDS} - self.stems

    def unknown_links(self, markdown: str, removed: list[str]) -> str:
        """`markdown` without link targets the sources do not hold: a Markdown link keeps
        its label, a bare URL goes. Each removal is added to `removed`."""
        parts, end = [], 0
        for match in _LINK_RE.finditer(markdown):
            parts.append(self._bare_urls(markdown[end : match.start()], removed))
            label, target = match[1], match[2]
            if target and _plain_url(target) not in self.urls:
                removed.append(f"link {target!r} (not in the sources)")
                parts.append(self._bare_urls(label, removed))
            else:
                parts.append(match[0])
            end = match.end()
        parts.append(self._bare_urls(markdown[end:], removed))
        return "".join(parts)

    def _bare_urls(self, text: str, removed: list[str]) -> str:
        def check(match: re.Match[str]) -> str:
            url = match[0].rstrip(_URL_TAIL)
            if _plain_url(url) in self.urls:
                return match[0]
            removed.append(f"link {url!r} (not in the sources)")
            return match[0][len(url) :]  # the sentence's own punctuation stays

        return _URL_RE.sub(check, text)

    def unsupported(
        self, sentence: str, default_repo: str | None, aliases: Mapping[str, str] | None
    ) -> list[str]:
        problems = []
        for ref in parse_pr_refs(sentence):
            canonical = normalise(ref, default_repo, aliases)
            # A bare "#12" the model wrote matches a cited "owner/repo#12" as well.
            known = canonical in self.refs or (ref.repo is None and str(ref.number) in self.numbers)
            if not known:
                problems.append(f"PR {ref.raw} (not in the sources)")
        for name in _names(sentence):
            if _SPACE_RE.sub(" ", name).lower() not in self.text:
                problems.append(f"name {name!r} (not in the sources)")
        for figure in find_figures(sentence):
            if _SPACE_RE.sub(" ", figure).lower() not in self.text:
                problems.append(f"figure {figure!r} (not in the sources)")
        if self._from_flagged(sentence):
            problems.append(
                f"sentence {_shortened(sentence)!r} (only a message addressed to the summary "
                "says so)"
            )
        elif not problems and not self._words_supported(sentence):
            problems.append(f"sentence {_shortened(sentence)!r} (its words are not in the sources)")
        return problems

    def _from_flagged(self, sentence: str) -> bool:
        """Whether the sentence has a content word that only a flagged message holds."""
        if not self.flagged_only:
            return False
        content = (w for w in words(_strip_links(sentence)) if w not in _STOPWORDS)
        return any(_stem(word) in self.flagged_only for word in content)

    def _words_supported(self, sentence: str) -> bool:
        """Whether the sources hold at least `MIN_WORD_SUPPORT` of the sentence's content
        words (link targets and titles left out)."""
        content = [w for w in words(_strip_links(sentence)) if w not in _STOPWORDS]
        if len(content) < MIN_CHECKED_WORDS:
            return True
        held = sum(1 for word in content if _stem(word) in self.stems)
        return held >= MIN_WORD_SUPPORT * len(content)


def _names(sentence: str) -> list[str]:
    """Candidate personal names: runs of capitalised words, sentence starters left out."""
    names = []
    for candidate in _NAME_RE.findall(_strip_links(sentence)):
        words = candidate.split()
        while words and words[0].lower() in _STARTERS:
            words.pop(0)
        if len(words) >= 2:
            names.append(" ".join(words))
    return names


def _strip_links(text: str) -> str:
    """Link targets and titles are not names: `[#12](url "Title")` -> `#12`."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)


def _stem(word: str) -> str:
    """A word's comparable form: a common ending dropped, then its first `STEM_CHARS` letters."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    return word[:STEM_CHARS]


def _plain_url(url: str) -> str:
    """A URL as compared: without the punctuation or slash a sentence may leave after it."""
    return url.strip().rstrip(_URL_TAIL).rstrip("/")


def _shortened(sentence: str, limit: int = 60) -> str:
    text = _strip_links(sentence).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
