"""Prometheus metrics of the running bot, in a registry of its own (served at /metrics)."""

from __future__ import annotations

from collections import OrderedDict

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
# Deliveries remembered so that a redelivery is not counted again. Slack redelivers within
# minutes (three retries, the last about five minutes after the first attempt); this many
# ids cover that window up to a sustained rate of about 150 events a second.
DELIVERIES_KEPT = 50_000

EVENTS_RECEIVED = Counter(
    "summarybot_events_received",
    "Chat events received from a platform",
    ["platform", "kind"],
    registry=REGISTRY,
)
FOREIGN_EVENTS = Counter(
    "summarybot_foreign_events",
    "Events refused because they were for another workspace or app than this installation",
    ["platform"],
    registry=REGISTRY,
)
MESSAGES_STORED = Counter(
    "summarybot_messages_stored",
    "Messages stored new or replaced by a newer version",
    ["platform"],
    registry=REGISTRY,
)
DUPLICATES_DROPPED = Counter(
    "summarybot_duplicates_dropped",
    "Messages received again unchanged (retries, backfill)",
    ["platform"],
    registry=REGISTRY,
)
STORAGE_SECONDS = Histogram(
    "summarybot_storage_seconds",
    "Time to store one batch of messages",
    ["platform"],
    registry=REGISTRY,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
LAST_STORED = Gauge(
    "summarybot_last_stored_timestamp_seconds",
    "When a message was last stored (Unix time)",
    registry=REGISTRY,
)
DRAFTS_MADE = Counter(
    "summarybot_drafts_made", "Weekly drafts made", ["drafter"], registry=REGISTRY
)
PUBLISH_FAILURES = Counter(
    "summarybot_publish_failures", "Publishing attempts that failed part way", registry=REGISTRY
)
GITHUB_CALLS = Counter("summarybot_github_requests", "Requests sent to GitHub", registry=REGISTRY)
GITHUB_ERRORS = Counter(
    "summarybot_github_errors", "PR lookups GitHub could not answer", registry=REGISTRY
)
LLM_CALLS = Counter("summarybot_llm_requests", "Requests sent to the LLM", registry=REGISTRY)
LLM_ERRORS = Counter(
    "summarybot_llm_errors", "Sections the LLM drafter could not write", registry=REGISTRY
)


_counted: OrderedDict[str, None] = OrderedDict()


def count_received(platform: str, kind: str, delivery: str | None = None) -> None:
    """Count one event received. A redelivery (the same `delivery` id as one counted among
    the last `DELIVERIES_KEPT`) is not counted again; events without an id always are."""
    if delivery is not None:
        key = f"{platform}:{delivery}"
        if key in _counted:
            return
        _counted[key] = None
        if len(_counted) > DELIVERIES_KEPT:
            _counted.popitem(last=False)
    EVENTS_RECEIVED.labels(platform, kind).inc()
