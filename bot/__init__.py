"""The running bot and the CLI: composition root, configuration, ingest and drafting."""
