"""A small async GitHub REST client: the PRs and issues a draft cites, as plain dataclasses."""
