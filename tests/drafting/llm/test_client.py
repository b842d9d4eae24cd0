"""The LLM client against FakeLLM over real HTTP on 127.0.0.1: answers, retries, rate limits,
timeouts, an unreachable server, the token budget and the concurrency bound.

Every test runs its own event loop under a 30 s guard and takes well under 3 s: backoff is 0.01 s
and timeouts are 0.3 s, except the one test that waits out a real Retry-After of 1 s.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.drafting.llm.client import Completion, LLMClient, TokenBudget, Usage, estimate_tokens
from tests.fakes.fakellm import FakeLLM, Reply, section_reply

MODEL = "qwen2.5-7b-instruct"
MESSAGES = [
    {"role": "system", "content": "You write one section of a weekly summary."},
    {"role": "user", "content": "Messages of the week: ..."},
]
SCHEMA = {
    "type": "object",
    "properties": {"markdown": {"type": "string"}, "sources": {"type": "array"}},
    "required": ["markdown", "sources"],
    "additionalProperties": False,
}


def run(coro: Awaitable[Any]) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


def client(base_url: str, **options: Any) -> LLMClient:
    options.setdefault("backoff", 0.01)
    options.setdefault("timeout", 5.0)
    return LLMClient(base_url=base_url, model=MODEL, **options)


def ask(
    replies: list[Reply],
    *,
    call: Callable[[LLMClient], Awaitable[Any]] | None = None,
    **options: Any,
) -> tuple[Any, FakeLLM, LLMClient, float]:
    """Serve `replies`, run `call` (default: one chat) with a client; its answer, the fake,
    the client and the seconds it took."""

    async def main() -> tuple[Any, FakeLLM, LLMClient, float]:
        async with FakeLLM() as fake:
            fake.script(*replies)
            async with client(fake.url, **options) as llm:
                started = time.monotonic()
                result = await (call or (lambda llm: llm.chat(MESSAGES)))(llm)
                return result, fake, llm, time.monotonic() - started

    return run(main())


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# -- a good answer -------------------------------------------------------------------------------


def test_good_reply_gives_content_records_usage_and_sends_the_openai_body() -> None:
    budget = TokenBudget(10_000)
    reply = section_reply("Iris **shipped** 0.4.", ["m1", "m2"])
    reply.usage = (812, 97)

    completion, fake, llm, _ = ask(
        [reply],
        call=lambda llm: llm.chat(MESSAGES, budget=budget, json_schema=SCHEMA, max_tokens=500),
    )

    assert completion == Completion(reply.content, Usage(812, 97), None)
    assert json.loads(completion.content) == {
        "markdown": "Iris **shipped** 0.4.",
        "sources": ["m1", "m2"],
    }
    assert budget.used == 909 and budget.prompt_tokens == 812 and budget.completion_tokens == 97
    assert budget.can_spend(10_000 - 909) and not budget.can_spend(10_000 - 908)  # nothing held
    assert llm.requests_made == 1
    assert fake.requests == [
        {
            "model": MODEL,
            "messages": MESSAGES,
            "temperature": 0.2,
            "max_tokens": 500,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "section", "schema": SCHEMA, "strict": True},
            },
        }
    ]
    assert fake.headers[0]["Content-Type"] == "application/json"


@pytest.mark.parametrize("suffix", ["", "/", "/chat/completions"])
def test_base_url_joins_with_or_without_a_trailing_slash(suffix: str) -> None:
    async def main() -> tuple[Completion, FakeLLM]:
        async with (
            FakeLLM(default=Reply(content="plain text")) as fake,
            client(fake.url + suffix) as llm,
        ):
            return await llm.chat(MESSAGES, temperature=0.0), fake

    completion, fake = run(main())

    assert completion.content == "plain text" and completion.problem is None
    assert "response_format" not in fake.requests[0]  # no schema: no structured output asked
    assert fake.requests[0]["temperature"] == 0.0 and fake.requests[0]["max_tokens"] == 1200


def test_usage_absent_is_estimated_and_recorded() -> None:
    budget = TokenBudget(10_000)

    completion, *_ = ask(
        [Reply(content="x" * 41, usage=None)], call=lambda llm: llm.chat(MESSAGES, budget=budget)
    )

    prompt = estimate_tokens("\n".join(message["content"] for message in MESSAGES))
    assert completion.usage == Usage(prompt, 11)  # 41 characters: 11 tokens, rounded up
    assert budget.used == prompt + 11


# -- retries and rate limits ---------------------------------------------------------------------


def test_429_with_retry_after_1_waits_then_succeeds() -> None:
    completion, fake, llm, took = ask(
        [Reply(status=429, headers={"Retry-After": "1"}), Reply(content="after the wait")]
    )

    assert completion.content == "after the wait" and completion.problem is None
    assert len(fake.requests) == 2 and llm.requests_made == 2
    assert took >= 1.0


def test_429_with_retry_after_600_gives_up_without_waiting() -> None:
    completion, fake, _, took = ask(
        [Reply(status=429, headers={"Retry-After": "600"}), Reply(content="never asked")]
    )

    assert completion.content is None and completion.usage == Usage(0, 0)
    assert completion.problem == "LLM rate limited (429) and Retry-After 600 s is too long"
    assert len(fake.requests) == 1 and fake.pending == 1
    assert took < 1.0


def test_429_for_a_spent_quota_is_not_retried() -> None:
    quota = {
        "error": {
            "message": "You exceeded your current quota, please check your plan.",
            "type": "insufficient_quota",
            "param": None,
            "code": "insufficient_quota",
        }
    }

    completion, fake, *_ = ask([Reply(status=429, body=quota), Reply(content="never asked")])

    assert completion.problem == (
        "LLM answered 429: You exceeded your current quota, please check your plan."
    )
    assert len(fake.requests) == 1


def test_500_three_times_gives_a_problem_after_three_attempts() -> None:
    completion, fake, llm, _ = ask([Reply(status=500)] * 3 + [Reply(content="too late")])

    assert completion.content is None
    assert completion.problem == "LLM answered 500 three times"
    assert len(fake.requests) == 3 and llm.requests_made == 3 and fake.pending == 1
    assert llm.last_problem == completion.problem


def test_a_5xx_then_success_recovers() -> None:
    completion, fake, *_ = ask([Reply(status=503), Reply(status=502), Reply(content="ok")])

    assert completion.content == "ok" and completion.problem is None
    assert len(fake.requests) == 3


def test_a_400_is_not_retried_and_says_what_the_server_said() -> None:
    completion, fake, *_ = ask([Reply(status=400), Reply(content="never asked")])

    assert completion.problem == "LLM answered 400: Invalid request"
    assert len(fake.requests) == 1


def test_a_delay_longer_than_the_timeout_times_out() -> None:
    async def main() -> tuple[Completion, FakeLLM, int, float, float]:
        async with FakeLLM() as fake:
            fake.script(*[Reply(content="late", delay=5.0)] * 3)
            async with client(fake.url, timeout=0.3) as llm:
                started = time.monotonic()
                completion = await llm.chat(MESSAGES)
                took = time.monotonic() - started
            closing = time.monotonic()
        return completion, fake, llm.requests_made, took, time.monotonic() - closing

    completion, fake, requests_made, took, closing = run(main())

    assert completion.content is None
    assert completion.problem == "LLM timed out after 0.3 s (tried 3 times)"
    assert requests_made == 3
    # (The fake shares the test's event loop: on a loaded machine an attempt can time out
    # before the fake has read its body, so the fake may count fewer.)
    assert 1 <= len(fake.requests) <= 3
    assert 0.9 <= took < 5.0  # three 0.3 s timeouts, never the 5 s the server takes
    assert closing < 5.0  # the fake does not wait out the abandoned 5 s handlers


def test_server_not_listening_is_unreachable() -> None:
    async def main() -> tuple[Completion, int]:
        async with client(f"http://127.0.0.1:{closed_port()}/v1") as llm:
            return await llm.chat(MESSAGES), llm.requests_made

    completion, requests_made = run(main())

    assert completion.content is None and completion.usage == Usage(0, 0)
    assert completion.problem.startswith("LLM unreachable: ")
    assert completion.problem.endswith(" (tried 3 times)")
    assert requests_made == 3


def test_a_404_without_an_openai_error_points_at_base_url() -> None:
    async def main() -> Completion:
        async with FakeLLM() as fake:
            root = fake.url.removesuffix("/v1")  # forgot the /v1
            async with client(root) as llm:
                return await llm.chat(MESSAGES)

    completion = run(main())

    assert completion.problem.startswith("LLM answered 404 at http://127.0.0.1:")
    assert completion.problem.endswith(
        "/chat/completions: is base_url right (it usually ends in /v1)?"
    )


# -- answers without content ---------------------------------------------------------------------


def test_a_reply_without_content_is_a_problem_and_its_usage_still_counts() -> None:
    budget = TokenBudget(10_000)

    completion, fake, *_ = ask(
        [Reply(content=None)], call=lambda llm: llm.chat(MESSAGES, budget=budget)
    )

    assert completion == Completion(None, Usage(100, 50), "the LLM sent an answer without content")
    assert budget.used == 150
    assert len(fake.requests) == 1  # a 200 is not retried


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (Reply(content=""), "the LLM sent an answer without content"),
        (
            Reply(content=None, finish_reason="length"),
            "the LLM sent an answer without content (it stopped at max_tokens=1200)",
        ),
        (
            Reply(body={"id": "x", "object": "chat.completion", "choices": []}),
            "the LLM sent an answer without content",
        ),
        (
            Reply(body={"error": {"message": "upstream provider failed", "code": 502}}),
            "the LLM sent an answer without content: upstream provider failed",
        ),
        (
            Reply(body="<html>proxy page</html>"),
            "the LLM sent an answer the client cannot read (not JSON)",
        ),
        (
            Reply(
                body={
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": None, "refusal": "No."},
                            "finish_reason": "stop",
                        }
                    ]
                }
            ),
            "the LLM refused: No.",
        ),
    ],
)
def test_unusable_200_answers(reply: Reply, problem: str) -> None:
    completion, *_ = ask([reply])

    assert completion.content is None and completion.problem == problem


# -- the budget ----------------------------------------------------------------------------------


def test_an_exhausted_budget_sends_nothing() -> None:
    spent = TokenBudget(120_000)
    spent.record(Usage(100_000, 20_000))
    small = TokenBudget(1_000)  # the prompt and max_tokens=1200 do not fit

    async def main() -> tuple[Completion, Completion, FakeLLM, int]:
        async with FakeLLM(default=Reply(content="never asked")) as fake, client(fake.url) as llm:
            first = await llm.chat(MESSAGES, budget=spent)
            second = await llm.chat(MESSAGES, budget=small)
            return first, second, fake, llm.requests_made

    first, second, fake, requests_made = run(main())

    assert first == Completion(
        None, Usage(0, 0), "token budget for this week spent (120,000 of 120,000)"
    )
    prompt = estimate_tokens("\n".join(message["content"] for message in MESSAGES))
    assert second.content is None
    assert second.problem == (
        f"token budget for this week spent (0 of 1,000; this request needs about {prompt + 1200:,})"
    )
    assert fake.requests == [] and requests_made == 0
    assert spent.used == 120_000 and small.used == 0


def test_concurrent_calls_cannot_overspend_the_budget_together() -> None:
    prompt = estimate_tokens("\n".join(message["content"] for message in MESSAGES))
    budget = TokenBudget(2 * (prompt + 100))  # room for two calls of max_tokens=100, not three

    async def main() -> tuple[list[Completion], FakeLLM]:
        async with (
            FakeLLM(default=Reply(content="ok", delay=0.1, usage=(10, 5))) as fake,
            client(fake.url, max_concurrency=4) as llm,
        ):
            calls = [llm.chat(MESSAGES, budget=budget, max_tokens=100) for _ in range(3)]
            return list(await asyncio.gather(*calls)), fake

    completions, fake = run(main())

    assert [c.content for c in completions] == ["ok", "ok", None]
    assert completions[2].problem.startswith("token budget for this week spent (0 of ")
    assert "more in flight" in completions[2].problem
    assert len(fake.requests) == 2
    assert budget.used == 30 and budget.can_spend(budget.limit - 30)  # reservations released


def test_a_cancelled_call_releases_its_reservation() -> None:
    budget = TokenBudget(5_000)

    async def main() -> None:
        async with (
            FakeLLM(default=Reply(content="slow", delay=5.0)) as fake,
            client(fake.url) as llm,
        ):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(llm.chat(MESSAGES, budget=budget), 0.2)

    run(main())

    assert budget.used == 0 and budget.can_spend(5_000)


def test_budget_cost_and_summary_arithmetic() -> None:
    budget = TokenBudget(120_000, prompt_price_per_mtok=0.5, completion_price_per_mtok=4.0)
    assert budget.summary() == "0 of 120,000 tokens, about $0.00"

    budget.record(Usage(20_000, 5_000))
    budget.record(Usage(10_000, 6_200))

    assert budget.used == 41_200 and budget.limit == 120_000
    assert budget.cost == pytest.approx(30_000 * 0.5 / 1e6 + 11_200 * 4.0 / 1e6)  # 0.0598
    assert budget.summary() == "41,200 of 120,000 tokens, about $0.06"
    assert budget.can_spend(78_800) and not budget.can_spend(78_801)

    tiny = TokenBudget(10_000, prompt_price_per_mtok=0.15)
    tiny.record(Usage(1_000, 0))
    assert tiny.summary() == "1,000 of 10,000 tokens, under $0.01"

    local = TokenBudget(120_000)  # a model you run yourself: no prices, no cost
    local.record(Usage(41_000, 200))
    assert local.cost == 0.0 and local.summary() == "41,200 of 120,000 tokens"

    with pytest.raises(ValueError):
        TokenBudget(-1)


def test_estimate_tokens_is_length_over_four_rounded_up() -> None:
    assert [estimate_tokens("x" * n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]


# -- concurrency and headers ---------------------------------------------------------------------


def test_ten_concurrent_chats_never_have_more_than_two_in_flight() -> None:
    async def main() -> tuple[list[Completion], FakeLLM]:
        async with (
            FakeLLM(default=Reply(content="ok", delay=0.05)) as fake,
            client(fake.url, max_concurrency=2) as llm,
        ):
            answers = await asyncio.gather(*(llm.chat(MESSAGES) for _ in range(10)))
            return list(answers), fake

    answers, fake = run(main())

    assert [answer.content for answer in answers] == ["ok"] * 10
    assert len(fake.requests) == 10
    assert fake.max_in_flight == 2


def test_api_key_header_only_when_given_and_never_in_a_problem() -> None:
    leaky = {"error": {"message": "Incorrect API key provided: sk-test-123.", "type": "auth"}}

    async def main() -> FakeLLM:
        async with FakeLLM() as fake:
            fake.script(Reply(content="a"), Reply(content="b"), Reply(status=401, body=leaky))
            async with client(fake.url, api_key="sk-test-123") as llm:
                await llm.chat(MESSAGES)
            async with client(fake.url) as llm:
                await llm.chat(MESSAGES)
            async with client(fake.url, api_key="sk-test-123") as llm:
                refused = await llm.chat(MESSAGES)
            assert refused.problem == "LLM answered 401: Incorrect API key provided: ***."
            return fake

    fake = run(main())

    assert fake.headers[0]["Authorization"] == "Bearer sk-test-123"
    assert "Authorization" not in fake.headers[1]


def test_bot_llm_imports_no_storage_summarizer_slack_or_discord() -> None:
    code = (
        "import sys, bot.drafting.llm.client\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('storage', 'summarizer', 'slack_sdk', 'slack_bolt', 'discord')"
        " or m.startswith(('bot.slack', 'bot.discord', 'bot.github'))]\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=20
    )
    assert result.returncode == 0, result.stdout + result.stderr
