"""Links in published and reviewed text show where they go; only http(s) links are links."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select

from bot.core.links import disclose
from bot.core.mrkdwn import to_mrkdwn
from bot.core.port import Caller
from bot.core.router import Core
from bot.ops.config import load_config
from storage.models import DraftRow
from tests.core.test_access import GUILD_B, command, draft_week
from tests.fakes.fakeport import FakePort

PR = "https://github.com/marin-community/marin/pull/4246"


@pytest.mark.parametrize(
    ("markdown", "shown"),
    [
        # A label that hides its target gets the real host after it.
        (
            "see [PR #4246 the fix](https://evil.example/phish)",
            "see [PR #4246 the fix](https://evil.example/phish) (evil.example)",
        ),
        (f"[#4247]({PR})", f"[#4247]({PR}) (github.com)"),  # another PR's number
        (f"[other/marin#4246]({PR})", f"[other/marin#4246]({PR}) (github.com)"),
        (
            "[#4246](https://github.evil.example/a/b/pull/4246)",
            "[#4246](https://github.evil.example/a/b/pull/4246) (github.evil.example)",
        ),
        (
            "[github.com](https://xn--gthub-zsa.com/x)",
            "[github.com](https://xn--gthub-zsa.com/x) (xn--gthub-zsa.com)",
        ),
        ("[docs](https://gïthub.com/x)", "[docs](https://gïthub.com/x) (xn--gthub-cta.com)"),
        # Honest labels stay plain links: the URL, its host, the same PR's reference.
        ("[https://example.org/a](https://example.org/a)", None),
        ("[example.org](https://www.example.org/a)", None),
        (f'[#4246]({PR} "Fix the crash, by ana")', None),
        (f"[PR #4246]({PR})", None),
        (f"[marin-community/marin#4246]({PR})", None),
        (f"[marin#4246](<{PR}>)", None),
        # Only http(s) links are links.
        ("[click](javascript:alert(1))", "click"),
        ("[img](data:text/html;base64,PHNjcmlwdD4=)", "img"),
        ("[passwd](file:///etc/passwd)", "passwd"),
        ("[x](JaVaScRiPt:alert)", "x"),
        ("[v6](http://[::1/x)", "v6"),
        ("no links [here] (at all)", None),
    ],
)
def test_disclose(markdown: str, shown: str | None) -> None:
    assert disclose(markdown) == (markdown if shown is None else shown)


def test_disclose_is_fast_on_hostile_text() -> None:
    hostile = "[a](" + "b" * 10_000 + " " + "[" * 10_000 + "](" * 5_000 + "x" * 10_000
    start = time.perf_counter()
    disclose(hostile)
    assert time.perf_counter() - start < 1.0


def test_published_text_and_stored_markdown_show_the_real_host(sessions) -> None:
    port = FakePort()
    core = Core(sessions, load_config(), port)
    admin = Caller("2001", "Bea", is_admin=True)
    _, section_id = draft_week(core, GUILD_B, admin)
    disguised = "Fixed in [PR #4246 the fix](https://evil.example/phish) and [ok](javascript:x)."
    assert command(core, GUILD_B, admin, f"edit {section_id} {disguised}").ok
    # The review thread already shows it.
    assert any("(evil.example)" in m.text for m in port.messages.values())
    assert command(core, GUILD_B, admin, "approve").ok
    core.close()

    published = "\n".join(m.text for m in port.in_channel("pub"))
    honest = "[PR #4246 the fix](https://evil.example/phish) (evil.example) and ok."
    assert honest in published  # as Discord shows it
    assert "<https://evil.example/phish|PR #4246 the fix> (evil.example) and ok." in to_mrkdwn(
        published
    )  # as Slack shows it
    with sessions() as session:
        stored = session.scalar(select(DraftRow.published_markdown))
    assert honest in stored and "javascript:" not in stored
