"""Pure drafting logic: PR-reference parsing, topic grouping, drafters and renderers.

Works on the plain dataclasses in `summarizer.types`; imports neither `storage` nor `bot`.
"""
