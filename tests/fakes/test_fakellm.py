"""The fake OpenAI-compatible server: scripted replies in order, then the default (or 500)."""

from __future__ import annotations

import asyncio
import json

import httpx

from tests.fakes.fakellm import FakeLLM, Reply, section_reply


def test_scripted_replies_then_the_default_then_a_500() -> None:
    async def go():
        async with FakeLLM() as fake:
            fake.script(section_reply("Hello", ["m1"]), Reply(status=429))
            async with httpx.AsyncClient(base_url=fake.url) as http:
                body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
                answers = [await http.post("/chat/completions", json=body) for _ in range(3)]
            return fake, answers

    fake, answers = asyncio.run(asyncio.wait_for(go(), 10))
    assert [a.status_code for a in answers] == [200, 429, 500]
    content = answers[0].json()["choices"][0]["message"]["content"]
    assert json.loads(content) == {"markdown": "Hello", "sources": ["m1"]}
    assert len(fake.requests) == 3 and fake.pending == 0
