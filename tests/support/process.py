"""`summarybot run` as a real process, for end-to-end tests against the fakes on 127.0.0.1:
started with an environment, stopped with a signal, bounded in time."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

STOP_WITHIN_S = 15


def summarybot() -> list[str]:
    """The installed console script next to this interpreter."""
    script = Path(sys.executable).parent / "summarybot"
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.ops.cli"]


class BotProcess:
    """One `summarybot run`, its output in `log` (a file, so it never fills a pipe)."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        self.env = {**os.environ, **env}
        self.log = folder / "run.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = await asyncio.create_subprocess_exec(
                *summarybot(), "run", cwd=self.folder, env=self.env, stdout=output, stderr=output
            )

    async def stop(self, signum: signal.Signals = signal.SIGTERM) -> int:
        """Send `signum`; the exit code (the process is killed if it outlives the bound)."""
        process = self.process
        assert process is not None
        process.send_signal(signum)
        try:
            await asyncio.wait_for(process.wait(), STOP_WITHIN_S)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        return process.returncode

    def output(self) -> str:
        return self.log.read_text(errors="replace")
