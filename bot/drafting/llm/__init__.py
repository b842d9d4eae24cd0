"""An async client for OpenAI-compatible chat completions, with a weekly token budget."""
