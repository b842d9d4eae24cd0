"""The review page: a browser page beside the review thread, served by the running bot.

`site.py` (the aiohttp routes, sessions and CSRF), `render.py` (Jinja2 templates and the
Markdown preview), `templates/` and `static/`. It uses `bot.core` only; every action goes
through the same `ReviewWorkflow` as the thread."""
