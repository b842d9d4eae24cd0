"""A per-topic term model learnt from one week: the words (and PRs) of the conversations the
admin's seeds placed, to place the conversations whose own evidence is weak.

Each topic's own features are those much likelier in its placed conversations than in the
week as a whole (a naive Bayes likelihood ratio against the week's background), seen in
several of them; a conversation gains, for each topic, the log-ratios of the topic's own
features it holds. Features every topic uses, or that one conversation alone used, weigh
nothing, so a conversation about nothing in particular gains nothing and stays where its own
evidence put it. Learning and scoring are one pass each over the week's features.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

from summarizer.text import URL_RE
from summarizer.types import SourceMessage

MIN_RATIO = 5.0  # a topic's own feature: this many times likelier under it than in the week
MIN_CONVERSATIONS = 2  # ... in at least this many of its placed conversations
MIN_SEEN = 2  # a feature the week used once says nothing about any other conversation
LEANING_WEIGHT = 0.5  # what a conversation placed on thin evidence teaches, against a sure one

_WORD_RE = re.compile(r"[^\W\d_]\w+")
# The same words in lower-cased ASCII text, where character ranges are much cheaper to test
# than Unicode's word and digit classes.
_ASCII_WORD_RE = re.compile(r"[a-z][a-z0-9_]+")
# English words that say nothing about a topic in any community.
_STOPWORDS = """a about above after again against all also am an and any anyone anything are
    as at be
    because been before being below between bit both but by can could did do does doing done
    down during each everyone everything few for from further get gets going got had has have
    having he her here hers him his how i if in into is it its itself just know let like lot
    made make maybe me more most my need new no nor not now of off ok okay on once one only or
    other our ours out over own really same see she should so some someone something still
    such than thank thanks that the their theirs them then there these they thing things think
    this those through to too two under until up us use used using very want was way we were
    what when where which while who whom why will with would yeah yes yet you your yours"""
STOPWORDS = frozenset(_STOPWORDS.split())


def features(message: SourceMessage) -> set[str]:
    """The distinct features of one message: its words (lower case, links and stop words
    left out) and the PRs it cites."""
    text = message.text.lower()
    if "://" in text:
        text = URL_RE.sub(" ", text)
    found = (_ASCII_WORD_RE if text.isascii() else _WORD_RE).findall(text)
    # (a set's `-=` visits every stop word: a message has fewer words than the list)
    words = {word for word in found if word not in STOPWORDS}
    if message.prs:
        words.update(f"pr:{mention.ref}" for mention in message.prs)
    return words


class TermModel:
    """In how many conversations each feature appears: per topic, among the conversations
    placed there, and in the whole week."""

    def __init__(self, n_topics: int) -> None:
        self.placed = [Counter[str]() for _ in range(n_topics)]
        self.leaning = [Counter[str]() for _ in range(n_topics)]  # placed on thin evidence
        self.sizes = [[0, 0] for _ in range(n_topics)]  # placed, leaning
        self.week = Counter[str]()
        self.week_size = 0
        self._own: dict[str, list[tuple[int, float]]] | None = None

    def observe(self, found: set[str]) -> None:
        """Count a conversation's features in the week."""
        self.week.update(found)
        self.week_size += 1

    def learn(self, found: set[str], topic: int, *, confident: bool) -> None:
        """Count a conversation's features under the topic it was placed in; one placed on
        thin evidence (not `confident`) counts half."""
        (self.placed if confident else self.leaning)[topic].update(found)
        self.sizes[topic][0 if confident else 1] += 1
        self._own = None

    def evidence(self, found: Iterable[str]) -> list[float]:
        """Per topic, the sum of the log-likelihood ratios of the topic's own features
        among `found`."""
        own = self._own if self._own is not None else self._own_features()
        scores = [0.0] * len(self.placed)
        for feature in found:
            for topic, weight in own.get(feature, ()):
                scores[topic] += weight
        return scores

    def _own_features(self) -> dict[str, list[tuple[int, float]]]:
        """Feature -> [(topic, log-likelihood ratio)] for the topics it is one of the own
        features of."""
        own: dict[str, list[tuple[int, float]]] = {}
        for topic, (placed, leaning) in enumerate(zip(self.placed, self.leaning, strict=True)):
            full, thin = self.sizes[topic]
            size = full + LEANING_WEIGHT * thin
            for feature in placed.keys() | leaning.keys():
                seen = self.week[feature]
                if seen < MIN_SEEN or placed[feature] + leaning[feature] < MIN_CONVERSATIONS:
                    continue
                share = (placed[feature] + LEANING_WEIGHT * leaning[feature]) / size
                ratio = share / (seen / self.week_size)
                if ratio >= MIN_RATIO:
                    own.setdefault(feature, []).append((topic, math.log(ratio)))
        self._own = own
        return own
