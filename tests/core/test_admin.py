"""Settings commands: admins change settings (stored and audited); anyone else, or any bad
value, is refused and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.core.access import NOT_ADMIN, NOT_ADMIN_AUDIT
from bot.core.admin import describe_change
from bot.core.command_registry import handle_admin, is_admin_command, parse
from bot.core.port import Caller, Reply
from bot.core.settings import WorkspaceSettings, workspace_settings
from bot.ops.config import load_config
from storage.messages import upsert_workspace
from storage.records import WorkspaceRecord
from storage.settings import load_settings, setting_changes

CONFIG = load_config()
ADMIN = Caller("U1", "Ana", is_admin=True)  # the platform says so
MEMBER = Caller("U2", "Bob")


@pytest.fixture
def session(sessions: sessionmaker[Session]) -> Iterator[Session]:
    with sessions() as session:
        yield session


@pytest.fixture
def workspace_id(session: Session) -> int:
    return upsert_workspace(session, WorkspaceRecord("slack", "T1", "Lab"))


def run(session: Session, workspace_id: int, caller: Caller, text: str) -> Reply:
    return handle_admin(session, CONFIG, workspace_id, caller, parse(text), datetime.now(UTC))


def settings(session: Session, workspace_id: int) -> WorkspaceSettings:
    return workspace_settings(session, CONFIG, workspace_id)


def snapshot(session: Session, workspace_id: int) -> tuple[dict[str, Any], int]:
    """The stored settings and how many changes the audit trail holds."""
    return load_settings(session, workspace_id), len(setting_changes(session, workspace_id, 1000))


def topic_ids(session: Session, workspace_id: int) -> list[str]:
    return [t.id for t in settings(session, workspace_id).topics]


# --- admins change settings, and every change is audited -----------------------------------

CHANGES = [
    ("channels add #iris #data", "channels", ["data", "iris"]),
    ("channels add <#C0123ABC|general>", "channels", ["C0123ABC"]),
    ("publish add #announcements", "publish_channels", ["announcements"]),
    ("review-channel #summaries", "review_channel", "summaries"),
    ("editors add <@U3> role:Editors", "editors", ["U3", "role:Editors"]),
    ("admins add <@U4|cy>", "admins", ["U4"]),
    ("repo marin-community/marin", "default_repo", "marin-community/marin"),
    ("retention 30", "retention_days", 30),
    ('schedule "0 9 * * mon"', "schedule", "0 9 * * mon"),
]


@pytest.mark.parametrize(("text", "key", "stored"), CHANGES, ids=[c[0] for c in CHANGES])
def test_an_admins_change_is_stored_and_audited(
    session: Session, workspace_id: int, text: str, key: str, stored: Any
) -> None:
    reply = run(session, workspace_id, ADMIN, text)

    assert reply.ok and reply.private, reply.text
    assert load_settings(session, workspace_id) == {key: stored}
    [change] = setting_changes(session, workspace_id)
    assert (change.actor_id, change.actor_name, change.key) == ("U1", "Ana", key)
    assert (change.old_value, change.new_value) == (None, stored)


def test_the_audit_trail_keeps_the_old_value(session: Session, workspace_id: int) -> None:
    run(session, workspace_id, ADMIN, "retention 30")
    run(session, workspace_id, ADMIN, "retention 60")

    latest, first = setting_changes(session, workspace_id)
    assert (first.old_value, first.new_value) == (None, 30)
    assert (latest.old_value, latest.new_value) == (30, 60)
    assert settings(session, workspace_id).retention_days == 60


def test_replies_confirm_briefly_and_privately(session: Session, workspace_id: int) -> None:
    assert run(session, workspace_id, ADMIN, "channels add #iris #data") == Reply(
        "Logging #iris and #data from now on. Logged channels: #data, #iris."
    )
    assert run(session, workspace_id, ADMIN, "review-channel #summaries") == Reply(
        "Drafts will be posted for review in #summaries."
    )
    assert run(session, workspace_id, ADMIN, "repo marin-community/marin") == Reply(
        "Bare PR numbers such as #123 now refer to marin-community/marin."
    )
    assert run(session, workspace_id, ADMIN, "retention 30") == Reply(
        "Logged messages will be kept for 30 days."
    )


def test_a_listed_admin_may_change_settings(session: Session, workspace_id: int) -> None:
    run(session, workspace_id, ADMIN, "admins add <@U2> role:Leads")
    lead = Caller("U5", "Dee", roles=("Leads",))

    assert run(session, workspace_id, MEMBER, "retention 30").ok
    assert run(session, workspace_id, lead, "retention 40").ok
    assert settings(session, workspace_id).retention_days == 40


# --- anyone else is refused, and nothing changes --------------------------------------------

SETTINGS_CHANGES = [
    "channels add #iris",
    "channels remove #iris",
    'topics add rl "RL" keywords=reward',
    "topics remove rl",
    'schedule "tue 10:00" Europe/Amsterdam',
    "review-channel #summaries",
    "publish add #announcements",
    "publish remove #announcements",
    "editors add <@U2>",
    "editors remove <@U3>",
    "admins add <@U2>",  # not even themselves
    "admins remove <@U1>",
    "repo marin-community/marin",
    "retention 30",
]


@pytest.mark.parametrize("text", SETTINGS_CHANGES)
def test_a_non_admins_change_is_refused_and_changes_nothing(
    session: Session, workspace_id: int, text: str
) -> None:
    run(session, workspace_id, ADMIN, "channels add #iris")
    run(session, workspace_id, ADMIN, "editors add <@U3>")
    before = snapshot(session, workspace_id)
    editor = Caller("U3", "Cy")  # editors edit drafts, but do not change settings

    for caller in (MEMBER, editor):
        assert run(session, workspace_id, caller, text) == Reply.refuse(NOT_ADMIN)

    assert snapshot(session, workspace_id) == before


def test_a_non_admin_cannot_make_themselves_admin(session: Session, workspace_id: int) -> None:
    reply = run(session, workspace_id, MEMBER, "admins add <@U2>")

    assert not reply.ok and reply.text.startswith("Only workspace admins can change settings")
    assert not settings(session, workspace_id).is_admin(MEMBER)


READ_ONLY = ["channels", "topics", "schedule", "publish list", "editors", "admins"]


@pytest.mark.parametrize("text", READ_ONLY)
def test_anyone_may_list_settings(session: Session, workspace_id: int, text: str) -> None:
    reply = run(session, workspace_id, MEMBER, text)

    assert reply.ok and reply.private and reply.text
    assert snapshot(session, workspace_id) == ({}, 0)


# --- bad values are refused, and nothing changes --------------------------------------------

BAD_VALUES = [
    (
        'schedule "someday 25:00"',
        "Schedule 'someday 25:00' is not understood (Wrong number of fields; got 2, expected 5);"
        ' use e.g. "mon 09:00" or a crontab line such as "0 9 * * mon".',
    ),
    (
        'schedule "mon 25:00"',
        "Schedule 'mon 25:00' is not understood (Wrong number of fields; got 2, expected 5);"
        ' use e.g. "mon 09:00" or a crontab line such as "0 9 * * mon".',
    ),
    (
        'schedule "mon 09:00" Mars/Olympus',
        "Unknown timezone 'Mars/Olympus' (use an IANA name such as Europe/Amsterdam).",
    ),
    ("repo not-a-repo", "Cannot use that repository: 'not-a-repo' is not of the form owner/repo."),
    ("repo https://github.com/a/b", "Cannot use that repository: "),
    ("retention 0", "Retention must be at least 1 day, not 0."),
    ("retention -5", "Retention must be at least 1 day, not -5."),
    (
        'topics add rl RL patterns="(unclosed"',
        "Topic 'rl': pattern '(unclosed' is not a valid regular expression: "
        "missing ), unterminated subpattern at position 0.",
    ),
    ("topics remove nope", "There is no topic 'nope'. Topics: "),
]


@pytest.mark.parametrize(("text", "message"), BAD_VALUES, ids=[b[0] for b in BAD_VALUES])
def test_a_bad_value_is_refused_and_changes_nothing(
    session: Session, workspace_id: int, text: str, message: str
) -> None:
    run(session, workspace_id, ADMIN, "retention 45")
    before = snapshot(session, workspace_id)

    reply = run(session, workspace_id, ADMIN, text)

    assert not reply.ok and reply.private
    assert reply.text.startswith(message)
    assert snapshot(session, workspace_id) == before


def test_a_good_schedule_with_a_bad_timezone_stores_neither(
    session: Session, workspace_id: int
) -> None:
    reply = run(session, workspace_id, ADMIN, 'schedule "tue 10:00" Mars/Olympus')

    assert not reply.ok
    assert snapshot(session, workspace_id) == ({}, 0)


def test_schedule_and_timezone_are_stored_together(session: Session, workspace_id: int) -> None:
    reply = run(session, workspace_id, ADMIN, 'schedule "tue 10:30" Europe/Amsterdam')

    assert reply.ok
    assert reply.text.startswith(
        "The weekly draft is made at tue 10:30 (Europe/Amsterdam); next: Tue "
    )
    current = settings(session, workspace_id)
    assert (current.schedule, current.timezone) == ("tue 10:30", "Europe/Amsterdam")
    assert {c.key for c in setting_changes(session, workspace_id)} == {"schedule", "timezone"}


def test_setting_the_same_schedule_again_changes_nothing(
    session: Session, workspace_id: int
) -> None:
    run(session, workspace_id, ADMIN, 'schedule "tue 10:30" Europe/Amsterdam')
    before = snapshot(session, workspace_id)

    reply = run(session, workspace_id, ADMIN, 'schedule "tue 10:30"')  # keeps the timezone

    assert reply.ok and reply.text.startswith("Nothing changed.")
    assert snapshot(session, workspace_id) == before


def test_schedule_shows_the_next_run(session: Session, workspace_id: int) -> None:
    reply = run(session, workspace_id, MEMBER, "schedule")

    assert reply.text.startswith("The weekly draft is made at mon 09:00 (UTC); next: Mon ")


# --- editors and admins, by person and by role ---------------------------------------------


def test_editors_by_user_id(session: Session, workspace_id: int) -> None:
    cy = Caller("U3", "Cy")
    assert not settings(session, workspace_id).is_editor(cy)

    reply = run(session, workspace_id, ADMIN, "editors add <@U3|cy>")

    assert reply == Reply("<@U3> can now edit and approve drafts. Editors: <@U3>.")
    assert settings(session, workspace_id).is_editor(cy)
    assert not settings(session, workspace_id).is_admin(cy)

    run(session, workspace_id, ADMIN, "editors remove <@U3>")
    assert not settings(session, workspace_id).is_editor(cy)


def test_editors_by_role(session: Session, workspace_id: int) -> None:
    member_of_editors = Caller("U6", "Eve", roles=("Editors",))
    assert not settings(session, workspace_id).is_editor(member_of_editors)

    assert run(session, workspace_id, ADMIN, "editors add role:Editors").ok

    assert settings(session, workspace_id).is_editor(member_of_editors)
    assert not settings(session, workspace_id).is_editor(Caller("U7", "Fay", roles=("Other",)))


def test_editors_by_role_mention_need_the_role_id_among_the_callers_roles(
    session: Session, workspace_id: int
) -> None:
    run(session, workspace_id, ADMIN, "editors add <@&456789> <!subteam^S0123|@team>")

    assert settings(session, workspace_id).editors == ["role:456789", "role:S0123"]
    assert settings(session, workspace_id).is_editor(Caller("U8", "Gus", roles=("456789",)))
    assert settings(session, workspace_id).is_editor(Caller("U9", "Hal", roles=("S0123",)))


def test_adding_an_entry_already_there_or_removing_one_that_is_not_changes_nothing(
    session: Session, workspace_id: int
) -> None:
    run(session, workspace_id, ADMIN, "admins add <@U4>")
    before = snapshot(session, workspace_id)

    again = run(session, workspace_id, ADMIN, "admins add <@U4>")
    absent = run(session, workspace_id, ADMIN, "admins remove <@U5>")

    assert again == Reply("Nothing changed: <@U4> is already in the list. Admins: <@U4>.")
    assert absent == Reply("Nothing changed: <@U5> is not in the list. Admins: <@U4>.")
    assert snapshot(session, workspace_id) == before


def test_lists_of_people(session: Session, workspace_id: int) -> None:
    assert run(session, workspace_id, MEMBER, "editors") == Reply(
        "No editors are set; only admins can edit and approve drafts."
    )
    assert run(session, workspace_id, MEMBER, "admins") == Reply(
        "No admins are set; the platform's admins manage the settings."
    )
    run(session, workspace_id, ADMIN, "editors add role:Editors <@U3>")
    assert run(session, workspace_id, MEMBER, "editors") == Reply("Editors: <@U3>, <@&Editors>.")


# --- channels --------------------------------------------------------------------------------


def test_channels_add_remove_and_list(session: Session, workspace_id: int) -> None:
    assert run(session, workspace_id, MEMBER, "channels") == Reply(
        "No channels are logged yet; an admin can start with /summary channels add #channel."
    )

    run(session, workspace_id, ADMIN, "channels add #iris #data <#C0123ABC|general>")
    current = settings(session, workspace_id)
    assert current.channels == ["C0123ABC", "data", "iris"]
    assert current.logs("C0123ABC", "general") and current.logs("C999", "#iris")

    assert run(session, workspace_id, ADMIN, "channels remove #iris") == Reply(
        "Stopped logging #iris. Logged channels: <#C0123ABC>, #data."
    )
    assert run(session, workspace_id, MEMBER, "channels list") == Reply(
        "Logged channels: <#C0123ABC>, #data."
    )


def test_channels_already_logged_or_not_logged_change_nothing(
    session: Session, workspace_id: int
) -> None:
    run(session, workspace_id, ADMIN, "channels add #iris")
    before = snapshot(session, workspace_id)

    again = run(session, workspace_id, ADMIN, "channels add #iris")
    absent = run(session, workspace_id, ADMIN, "channels remove #data")

    assert again == Reply("Nothing changed: #iris is already in the list. Logged channels: #iris.")
    assert absent == Reply("Nothing changed: #data is not in the list. Logged channels: #iris.")
    assert snapshot(session, workspace_id) == before


def test_a_mixed_channel_change_says_what_was_already_so(
    session: Session, workspace_id: int
) -> None:
    run(session, workspace_id, ADMIN, "channels add #iris")

    reply = run(session, workspace_id, ADMIN, "channels add #iris #data")

    assert reply == Reply(
        "Logging #data from now on. #iris is already in the list. Logged channels: #data, #iris."
    )


def test_publish_channels(session: Session, workspace_id: int) -> None:
    first = run(session, workspace_id, ADMIN, "publish add #announcements").text
    assert first.startswith("Approved summaries will be posted in #announcements from now on.")
    assert "too" not in first  # the first channel is not in addition to any other
    assert run(session, workspace_id, ADMIN, "publish add #announcements #news").ok
    assert run(session, workspace_id, ADMIN, "publish remove #news").ok

    assert settings(session, workspace_id).publish_channels == ["announcements"]
    assert run(session, workspace_id, MEMBER, "publish list") == Reply(
        "Approved summaries are posted in: #announcements."
    )


# --- topics ----------------------------------------------------------------------------------


def test_topics_add_a_new_topic_after_the_others(session: Session, workspace_id: int) -> None:
    defaults = topic_ids(session, workspace_id)

    reply = run(
        session,
        workspace_id,
        ADMIN,
        'topics add kernels "Kernels" keywords=Pallas,Triton channels=#kernels '
        r'patterns="\bTPU ?v\d\b"',
    )

    assert reply == Reply(
        r"Added topic kernels: Kernels (channels #kernels; keywords Pallas, Triton; "
        r"patterns \bTPU ?v\d\b)."
    )
    assert topic_ids(session, workspace_id) == [*defaults, "kernels"]
    kernels = settings(session, workspace_id).topics[-1]
    assert (kernels.keywords, kernels.channels, kernels.patterns) == (
        ["Pallas", "Triton"],
        ["kernels"],
        [r"\bTPU ?v\d\b"],
    )
    [change] = setting_changes(session, workspace_id)
    assert change.key == "topics" and change.old_value is None
    assert [t["id"] for t in change.new_value] == [*defaults, "kernels"]


def test_topics_add_with_an_existing_id_replaces_it_in_place(
    session: Session, workspace_id: int
) -> None:
    defaults = topic_ids(session, workspace_id)

    reply = run(session, workspace_id, ADMIN, 'topics add rl "RL" keywords=reward,rollout')

    assert reply.ok and reply.text.startswith("Replaced topic rl: RL (keywords reward, rollout)")
    assert topic_ids(session, workspace_id) == defaults
    rl = next(t for t in settings(session, workspace_id).topics if t.id == "rl")
    assert (rl.keywords, rl.channels) == (["reward", "rollout"], [])
    assert settings(session, workspace_id).topic_list[-1].id == "other"


def test_a_topic_without_matchers_is_allowed_with_a_warning(
    session: Session, workspace_id: int
) -> None:
    reply = run(session, workspace_id, ADMIN, 'topics add evals "Evals"')

    assert reply.ok
    assert reply.text.endswith(
        "It has no channels, keywords or patterns, so no message will land in it."
    )


def test_topics_remove(session: Session, workspace_id: int) -> None:
    reply = run(session, workspace_id, ADMIN, "topics remove rl")

    assert reply == Reply("Removed topic rl. Topics: hero-run, iris, data, introductions, other.")
    assert "rl" not in topic_ids(session, workspace_id)


def test_topics_remove_of_an_unknown_id_is_refused(session: Session, workspace_id: int) -> None:
    reply = run(session, workspace_id, ADMIN, "topics remove kernels")

    assert reply == Reply.refuse(
        "There is no topic 'kernels'. Topics: hero-run, iris, data, rl, introductions, other."
    )
    assert snapshot(session, workspace_id) == ({}, 0)


def test_topics_list(session: Session, workspace_id: int) -> None:
    reply = run(session, workspace_id, MEMBER, "topics")

    lines = reply.text.splitlines()
    assert lines[0] == "Topics, in section order:"
    assert lines[4].startswith("rl: RL (channels #rl; keywords RL, reinforcement learning")
    assert lines[-1] == "other: Other updates"


# --- the audit trail -------------------------------------------------------------------------


def test_audit_is_for_admins_only(session: Session, workspace_id: int) -> None:
    run(session, workspace_id, ADMIN, "retention 30")

    assert run(session, workspace_id, MEMBER, "audit") == Reply.refuse(NOT_ADMIN_AUDIT)
    assert run(session, workspace_id, Caller("U3", "Cy", roles=("Editors",)), "audit").ok is False


def test_audit_lists_recent_changes_newest_first(session: Session, workspace_id: int) -> None:
    assert run(session, workspace_id, ADMIN, "audit") == Reply("No settings have been changed yet.")
    run(session, workspace_id, ADMIN, "channels add #iris #data")
    run(session, workspace_id, ADMIN, "channels remove #iris")
    run(session, workspace_id, ADMIN, 'topics add kernels "Kernels" keywords=Pallas')
    run(session, workspace_id, ADMIN, "retention 30")

    lines = run(session, workspace_id, ADMIN, "audit").text.splitlines()

    assert lines[0] == "Recent settings changes, newest first:"
    assert [line.split(": ", 1)[1] for line in lines[1:]] == [
        "retention_days 90 -> 30",
        "topics +kernels",
        "channels -#iris",
        "channels +#data, +#iris",
    ]
    assert lines[1].endswith("UTC, Ana: retention_days 90 -> 30")


@pytest.mark.parametrize(
    ("old", "new", "described"),
    [
        (["a"], ["a", "b"], "+b"),
        (["a", "b"], [], "-a, -b"),
        ([{"id": "a", "x": 1}], [{"id": "a", "x": 2}, {"id": "b"}], "+b, ~a"),
        ("mon 09:00", "tue 10:00", '"mon 09:00" -> "tue 10:00"'),
        (None, "summaries", 'none -> "summaries"'),
        (["a"], ["a"], "no change"),
    ],
)
def test_describe_change(old: object, new: object, described: str) -> None:
    assert describe_change(old, new) == described


# --- routing ---------------------------------------------------------------------------------

WORKFLOW = ["", "status", "draft", "approve 1", "publish", "regenerate", "edit 1 x", "history 1"]
WORKFLOW += ["discard", "forget-me"]


@pytest.mark.parametrize("text", WORKFLOW)
def test_workflow_commands_are_not_settings_commands(
    session: Session, workspace_id: int, text: str
) -> None:
    command = parse(text)

    assert not is_admin_command(command)
    with pytest.raises(TypeError):
        handle_admin(session, CONFIG, workspace_id, ADMIN, command, datetime.now(UTC))


@pytest.mark.parametrize("text", [*SETTINGS_CHANGES, *READ_ONLY, "audit"])
def test_settings_commands_are_admin_commands(text: str) -> None:
    assert is_admin_command(parse(text))
