"""Members' news on the review page: every item of the week listed with where its line is,
and an editor dropping one (a revision; redrafting leaves it out; another workspace's item
is refused)."""

from __future__ import annotations

import re
from datetime import timedelta

from aiohttp.test_utils import TestClient
from sqlalchemy import select

from bot.core.port import CommandEvent
from storage.models import DraftSection, Message, SectionRevision
from storage.news import add_submission, person_ids
from storage.records import PersonRecord
from tests.core.test_access import ADMIN_A, GUILD_A, MONDAY, command
from tests.web.test_review_site import EDITOR, Bot, csrf_of, open_page, scenario

LINE = "- The Iris scheduler now preempts by priority (sent in by Ben Cho)."


def send_news(bot: Bot, sessions, workspace_id: int, text: str) -> None:  # noqa: ANN001
    with sessions.begin() as session:
        ben = person_ids(session, workspace_id, [PersonRecord("ben", "Ben Cho")])["ben"]
        add_submission(
            session, workspace_id, ben, text=text, submitted_at=MONDAY + timedelta(days=1)
        )


def texts(sessions) -> list[str]:  # noqa: ANN001
    with sessions() as session:
        return list(session.scalars(select(DraftSection.markdown)))


def test_an_editor_sees_the_week_s_news_and_drops_an_item(sessions) -> None:
    bot = Bot(sessions)
    send_news(bot, sessions, bot.ws_a, "The Iris scheduler now preempts by priority")
    assert command(bot.core, GUILD_A, ADMIN_A, f"regenerate {bot.draft}").ok
    assert any(LINE in t.splitlines() for t in texts(sessions))

    async def body(client: TestClient) -> None:
        status, html = await open_page(client, bot.link(EDITOR.user_id))
        assert status == 200
        assert "Members' news (1)" in html and "Drop Ben Cho's news" in html
        news_id = int(re.search(r'id="news-(\d+)"', html)[1])
        csrf = csrf_of(html)

        dropped = await client.post(f"/review/{bot.draft}/news/{news_id}/drop", data={"csrf": csrf})
        page = await dropped.text()
        assert dropped.status == 200 and "Ben Cho&#39;s news was dropped from" in page
        assert "dropped by Eve of A" in page and "Drop Ben Cho's news" not in page
        assert not any(LINE in t for t in texts(sessions))
        with bot.core.sessions() as session:
            (revision,) = session.scalars(select(SectionRevision)).all()
            assert revision.editor_name == "Eve of A"

        again = await client.post(f"/review/{bot.draft}/news/{news_id}/drop", data={"csrf": csrf})
        assert again.status == 409 and "already dropped by Eve of A" in await again.text()
        missing = await client.post(f"/review/{bot.draft}/news/9999/drop", data={"csrf": csrf})
        assert missing.status == 409 and "not among this draft" in await missing.text()

        # Drafting the week again leaves the dropped item out.
        event = CommandEvent(GUILD_A, ADMIN_A, f"regenerate {bot.draft}", "c-any")
        assert (await bot.core.on_command(event)).ok
        assert not any(LINE in t for t in texts(sessions))

    scenario(bot, body)


def mark(sessions, workspace_id: int, login: str, name: str) -> None:  # noqa: ANN001
    """`name` marks the week's logged message with the news reaction."""
    with sessions.begin() as session:
        sender = person_ids(session, workspace_id, [PersonRecord(login, name)])[login]
        message = session.scalars(select(Message).where(Message.workspace_id == workspace_id))
        add_submission(
            session,
            workspace_id,
            sender,
            text="",
            submitted_at=MONDAY + timedelta(days=1),
            message_id=message.one().id,
        )


def test_a_message_several_members_marked_is_one_line_and_keeps_it_when_one_is_dropped(
    sessions,
) -> None:
    bot = Bot(sessions)
    for login, name in (("ben", "Ben Cho"), ("mia", "Mia Park"), ("li", "Li Wei")):
        mark(sessions, bot.ws_a, login, name)
    assert command(bot.core, GUILD_A, ADMIN_A, f"regenerate {bot.draft}").ok
    (marked,) = [ln for t in texts(sessions) for ln in t.splitlines() if "(sent in by" in ln]
    assert marked.endswith("(sent in by Ben Cho, Mia Park and Li Wei).")

    async def body(client: TestClient) -> None:
        status, html = await open_page(client, bot.link(EDITOR.user_id))
        assert status == 200 and "Members' news (3)" in html
        news_id = int(re.search(r'id="news-(\d+)"', html)[1])  # (Ben Cho's, the first)
        dropped = await client.post(
            f"/review/{bot.draft}/news/{news_id}/drop", data={"csrf": csrf_of(html)}
        )
        assert (
            dropped.status == 200 and "Ben Cho&#39;s news was dropped from" in await dropped.text()
        )
        lines = [ln for t in texts(sessions) for ln in t.splitlines() if "(sent in by" in ln]
        assert [ln.rpartition(" (sent in by ")[2] for ln in lines] == ["Mia Park and Li Wei)."]

    scenario(bot, body)
