"""Operating the bot: the CLI, the composition root (`run`), doctor, health and metrics,
logs, and loading the environment and the configuration."""
