"""Checking a model's text against the messages it cites: every PR reference, person's name
and figure in it must appear in those messages (or the PRs' GitHub details). A sentence with
a claim that cannot be verified is removed, and what was removed is listed for the editor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from summarizer.figures import find_figures
from summarizer.prrefs import normalise, parse_pr_refs
from summarizer.text import defuse_pings
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
) -> Grounded:
    """Keep the sentences of `markdown` whose PRs, names and figures the sources support."""
    evidence = _Evidence(sources)
    removed: list[str] = []
    lines = []
    for line in markdown.splitlines():
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

    def __init__(self, sources: Iterable[SourceMessage]) -> None:
        sources = list(sources)
        texts = [m.text for m in sources]
        texts += [m.author for m in sources]
        for message in sources:
            for mention in message.prs:
                texts += [mention.title or "", mention.author or ""]
        self.text = _SPACE_RE.sub(" ", "\n".join(texts)).lower()
        self.refs = {p.ref for m in sources for p in m.prs}
        self.numbers = {p.ref.rsplit("#", 1)[1] for p in (p for m in sources for p in m.prs)}

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
        return problems


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
