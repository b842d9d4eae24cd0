"""The week's term model: a topic's own words and PRs, learnt from its placed conversations."""

from __future__ import annotations

from factories import msg

from summarizer.termmodel import TermModel, features

IRIS, DATA = 0, 1


def counted(text: str) -> set[str]:
    return features(msg(text))


def test_features_are_words_and_prs_without_links_or_stop_words() -> None:
    found = features(msg("The Scheduler drains nodes (#812), see https://example.org/queue"))
    assert found == {"scheduler", "drains", "nodes", "pr:lab/main#812"}


def model_of(placed: list[tuple[str, int]], unplaced: list[str]) -> TermModel:
    model = TermModel(2)
    for text, topic in placed:
        model.observe(counted(text))
        model.learn(counted(text), topic, confident=True)
    for text in unplaced:
        model.observe(counted(text))
    return model


WEEK_CHATTER = [
    f"{day} plans: lunch, errands, a walk by the river with friends"
    for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    for _ in range(2)
] + ["quota of coffee reached, team sync moved to the afternoon"]


def test_a_topics_own_words_give_evidence_and_shared_words_none() -> None:
    model = model_of(
        [
            ("gang quota enforced on the queue, team sync later", IRIS),
            ("queue drains respect the gang quota", IRIS),
            ("dedup of the shards finished, team sync later", DATA),
            ("shards dedup ratio is 12%", DATA),
        ],
        WEEK_CHATTER,
    )
    iris, data = model.evidence(counted("a gang queue question"))
    assert iris > 0 and data == 0
    assert model.evidence(counted("team sync moved again")) == [0.0, 0.0]
    assert model.evidence(counted("errands and lunch")) == [0.0, 0.0]


def test_a_word_one_placed_conversation_used_teaches_nothing() -> None:
    model = model_of([("kubelet restarted, queue drained", IRIS)], WEEK_CHATTER)
    assert model.evidence(counted("kubelet again")) == [0.0, 0.0]


def test_a_pr_cited_in_placed_conversations_brings_its_topic() -> None:
    model = model_of(
        [("#77 splits the gang queue", IRIS), ("#77 landed, quota next", IRIS)], WEEK_CHATTER
    )
    iris, data = model.evidence(counted("#77 broke my script"))
    assert iris > 0 and data == 0
