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

from summarizer.types import SourceMessage

MIN_RATIO = 5.0  # a topic's own feature: this many times likelier under it than in the week
MIN_CONVERSATIONS = 2  # ... in at least this many of its placed conversations
MIN_SEEN = 2  # a feature the week used once says nothing about any other conversation

_WORD_RE = re.compile(r"[^\W\d_][\w'.-]*[^\W_]|[^\W\d_]{2,}")
_URL_RE = re.compile(r"https?://\S+")
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
    words = set(_WORD_RE.findall(_URL_RE.sub(" ", message.text.lower())))
    words -= STOPWORDS
    words.update(f"pr:{mention.ref}" for mention in message.prs)
    return words


class TermModel:
    """Feature counts per topic, learnt from placed conversations, against the week's."""

    def __init__(self, n_topics: int) -> None:
        self.counts = [Counter[str]() for _ in range(n_topics)]
        self.totals = [0.0] * n_topics
        self.conversations = [Counter[str]() for _ in range(n_topics)]
        self.background = Counter[str]()
        self.background_total = 0
        self._own: dict[str, list[tuple[int, float]]] | None = None

    def observe(self, found: Counter[str]) -> None:
        """Count a conversation's features (one count per message) in the week's background."""
        self.background.update(found)
        self.background_total += found.total()

    def learn(self, found: Counter[str], topic: int, weight: float = 1.0) -> None:
        """Count a placed conversation's features under `topic`, `weight` times (less than
        once for a conversation placed on thin evidence)."""
        counts = self.counts[topic]
        for feature, n in found.items():
            counts[feature] += weight * n
        self.totals[topic] += weight * found.total()
        self.conversations[topic].update(found.keys())
        self._own = None

    def evidence(self, found: Iterable[str]) -> list[float]:
        """Per topic, the sum of the log-likelihood ratios of the topic's own features
        among `found`."""
        own = self._own if self._own is not None else self._own_features()
        scores = [0.0] * len(self.counts)
        for feature in found:
            for topic, weight in own.get(feature, ()):
                scores[topic] += weight
        return scores

    def _own_features(self) -> dict[str, list[tuple[int, float]]]:
        """Feature -> [(topic, log-likelihood ratio)] for the topics it is one of the own
        features of."""
        own: dict[str, list[tuple[int, float]]] = {}
        total = self.background_total
        for topic, (counts, learnt) in enumerate(zip(self.counts, self.totals, strict=True)):
            placed = self.conversations[topic]
            for feature, count in counts.items():
                seen = self.background[feature]
                if seen < MIN_SEEN or placed[feature] < MIN_CONVERSATIONS:
                    continue
                ratio = (count / learnt) / (seen / total)
                if ratio >= MIN_RATIO:
                    own.setdefault(feature, []).append((topic, math.log(ratio)))
        self._own = own
        return own
