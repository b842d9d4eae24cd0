"""Drafting a week: the `Week` value, the GitHub refresh, composing, the extractive or LLM
drafter, storing the draft once. `github/` and `llm/` are its HTTP clients (see `http.py`)."""
