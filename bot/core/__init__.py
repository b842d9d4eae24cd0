"""The platform-neutral bot: the port (ChatPort and the neutral events), routing, the review
workflow, the command grammar, admin settings, the scheduler, privacy, ingest and the clock."""
