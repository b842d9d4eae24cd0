"""Prometheus metrics of the running bot, in a registry of its own (served at /metrics)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

EVENTS_RECEIVED = Counter(
    "summarybot_events_received",
    "Chat events received from a platform",
    ["platform", "kind"],
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
