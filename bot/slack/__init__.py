"""The Slack adapter: a Bolt app that translates Slack events to the core's neutral types and
implements the core's `ChatPort` with the Web API. Only this package imports slack_bolt and
slack_sdk."""

EVENTS_PATH = "/slack/events"  # where the HTTP Events API mode serves Slack's requests
