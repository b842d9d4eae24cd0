"""The `/summary` grammar: every command and markup form, and one clear error per mistake."""

from __future__ import annotations

from datetime import date
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.command_registry import HANDLERS, USAGE, USAGE_LINES, handler, parse
from bot.core.commands import (
    AdminsAdd,
    AdminsList,
    AdminsRemove,
    Approve,
    Audit,
    ChannelsAdd,
    ChannelsList,
    ChannelsRemove,
    Command,
    CommandError,
    Discard,
    Edit,
    EditorsAdd,
    EditorsList,
    EditorsRemove,
    ForgetMe,
    Help,
    History,
    Publish,
    PublishChannels,
    Regenerate,
    RepoSet,
    RetentionSet,
    ReviewChannelSet,
    ScheduleSet,
    ScheduleShow,
    StartDraft,
    Status,
    TopicsAdd,
    TopicsList,
    TopicsRemove,
)

PARSED: list[tuple[str, Command]] = [
    # help and status
    ("", Help()),
    ("   ", Help()),
    ("help", Help()),
    ("HELP", Help()),
    ("status", Status()),
    ("  Status  ", Status()),
    # channels, in every markup form
    ("channels", ChannelsList()),
    ("channels list", ChannelsList()),
    ("channels add #iris #data", ChannelsAdd(("iris", "data"))),
    ("channels add iris", ChannelsAdd(("iris",))),
    ("channels add <#1100000000000000777>", ChannelsAdd(("1100000000000000777",))),
    ("channels add <#C0123ABC|general>", ChannelsAdd(("C0123ABC",))),
    ("channels add <#C0123ABC>", ChannelsAdd(("C0123ABC",))),
    ("channels add #iris,#data", ChannelsAdd(("iris", "data"))),
    ("channels add #iris #iris", ChannelsAdd(("iris",))),
    ("channels ADD #iris", ChannelsAdd(("iris",))),
    ("channels remove #iris", ChannelsRemove(("iris",))),
    # topics
    ("topics", TopicsList()),
    ("topics list", TopicsList()),
    (
        r'topics add rl "RL" keywords=reward,rollout channels=#rl patterns="\bGRPO\b"',
        TopicsAdd("rl", "RL", ("reward", "rollout"), ("rl",), (r"\bGRPO\b",)),
    ),
    ("topics add kernels Kernels", TopicsAdd("kernels", "Kernels")),
    (
        "topics add rl 'Reinforcement learning' keywords='reward model, rollout'",
        TopicsAdd("rl", "Reinforcement learning", ("reward model", "rollout")),
    ),
    (  # commas inside a regex's braces or brackets do not split it
        r'topics add rl RL patterns="a{1,3},[x,y]b,c\,d"',
        TopicsAdd("rl", "RL", patterns=("a{1,3}", "[x,y]b", r"c\,d")),
    ),
    (  # options repeat and are case-insensitive; empty items are dropped
        "topics add rl RL keywords=a, KEYWORDS=b,,c channels=<#C0123ABC|rl>,#x",
        TopicsAdd("rl", "RL", ("a", "b", "c"), ("C0123ABC", "x")),
    ),
    ("topics remove rl", TopicsRemove("rl")),
    # schedule
    ("schedule", ScheduleShow()),
    ("schedule show", ScheduleShow()),
    ('schedule "mon 09:00" Europe/Amsterdam', ScheduleSet("mon 09:00", "Europe/Amsterdam")),
    ('schedule "0 9 * * mon"', ScheduleSet("0 9 * * mon", None)),
    ("schedule mon 09:00", ScheduleSet("mon 09:00", None)),
    ("schedule mon,thu 18:30 UTC", ScheduleSet("mon,thu 18:30", "UTC")),
    ("schedule 0 9 * * mon America/New_York", ScheduleSet("0 9 * * mon", "America/New_York")),
    ('schedule "mon 09:00" Mars/Olympus', ScheduleSet("mon 09:00", "Mars/Olympus")),
    ('schedule "someday 25:00"', ScheduleSet("someday 25:00", None)),  # admin refuses it
    # review and publish channels
    ("review-channel #summaries", ReviewChannelSet("summaries")),
    ("review-channel <#C0123ABC|summaries>", ReviewChannelSet("C0123ABC")),
    ("publish add #announcements", PublishChannels("add", ("announcements",))),
    ("publish remove <#123456789>", PublishChannels("remove", ("123456789",))),
    ("publish list", PublishChannels("list")),
    # editors and admins: people and roles, on both platforms
    ("editors", EditorsList()),
    ("editors list", EditorsList()),
    ("editors add <@123456789>", EditorsAdd(("123456789",))),
    ("editors add <@!123456789>", EditorsAdd(("123456789",))),
    ("editors add <@U0123ABC>", EditorsAdd(("U0123ABC",))),
    ("editors add <@U0123ABC|ana>", EditorsAdd(("U0123ABC",))),
    ("editors add <@U0123ABC|o'brien>", EditorsAdd(("U0123ABC",))),  # label quotes ignored
    ("editors add <@&456789>", EditorsAdd(("role:456789",))),
    ("editors add <!subteam^S0123|@team>", EditorsAdd(("role:S0123",))),
    ("editors add <!subteam^S0123>", EditorsAdd(("role:S0123",))),
    ("editors add role:Editors", EditorsAdd(("role:Editors",))),
    ('editors add role:"Core team"', EditorsAdd(("role:Core team",))),
    ("editors add ROLE:Editors", EditorsAdd(("role:Editors",))),
    ("editors add 123456789 U0123ABC", EditorsAdd(("123456789", "U0123ABC"))),
    ("editors add <@U1234> <@U1234|ana>", EditorsAdd(("U1234",))),
    ("editors remove <@U0123ABC> role:Editors", EditorsRemove(("U0123ABC", "role:Editors"))),
    ("admins", AdminsList()),
    ("admins add <@U0123ABC|x>", AdminsAdd(("U0123ABC",))),
    ("admins remove <@&456789>", AdminsRemove(("role:456789",))),
    # single values
    ("repo marin-community/marin", RepoSet("marin-community/marin")),
    ('repo ""', RepoSet("")),
    ("repo not-a-repo", RepoSet("not-a-repo")),  # admin refuses it
    ("retention 30", RetentionSet(30)),
    ("retention 0", RetentionSet(0)),  # admin refuses it
    ("retention -5", RetentionSet(-5)),  # admin refuses it
    # the review workflow
    ("draft", StartDraft(None)),
    ("draft 2026-11-16", StartDraft(date(2026, 11, 16))),
    ("approve", Approve(None)),
    ("approve 12", Approve(12)),
    ("approve #12", Approve(12)),
    ("publish", Publish(None)),
    ("publish 12", Publish(12)),
    ("regenerate", Regenerate(None)),
    ("regenerate 7", Regenerate(7)),
    ("discard", Discard(None)),
    ("discard 7", Discard(7)),
    ("history 3", History(3)),
    ("edit 3 new text", Edit(3, "new text")),
    ('edit 3 it\'s "quoted" <@U1|x> #1234', Edit(3, 'it\'s "quoted" <@U1|x> #1234')),
    ("edit 3\n- first line\n  - indented\n\nlast ", Edit(3, "- first line\n  - indented\n\nlast")),
    ("edit\n3\nnew text", Edit(3, "new text")),
    ("edit hero-run new text", Edit("hero-run", "new text")),
    ('edit "Hero run" new\ntext', Edit("Hero run", "new\ntext")),
    ("history Hero run", History("Hero run")),
    ("history 2 --draft 7", History(2, 7)),
    ("draft 2026-11-23 --open", StartDraft(date(2026, 11, 23), open_week=True)),
    ("draft --open", StartDraft(open_week=True)),
    ("history --draft 7 Hero run", History("Hero run", 7)),
    ("edit 2 --draft 7 new\ntext", Edit(2, "new\ntext", 7)),
    ("edit hero-run --draft=7 new text", Edit("hero-run", "new text", 7)),
    ("forget-me", ForgetMe()),
    ("audit", Audit()),
]


@pytest.mark.parametrize(("text", "expected"), PARSED, ids=[t or "<empty>" for t, _ in PARSED])
def test_parse(text: str, expected: Command) -> None:
    assert parse(text) == expected


ERRORS: list[tuple[str, str]] = [
    # unknown commands and actions
    (
        "foo",
        "Unknown command 'foo'. Try: status, channels, topics, schedule, review-channel, "
        "publish, editors, admins, repo, retention, summarizer, member-news, news, draft, "
        "approve, regenerate, edit, history, discard, forget-me, audit, or help.",
    ),
    (
        "channels frob",
        "Unknown channels action 'frob'; use add, remove, list. "
        "Usage: /summary channels [add|remove #channel ...]",
    ),
    (
        "editors promote <@U1234>",
        "Unknown editors action 'promote'; use add, remove, list. "
        "Usage: /summary editors [add|remove @person role:Name ...]",
    ),
    # missing arguments
    (
        "channels add",
        "channels add needs at least one channel. "
        "Usage: /summary channels [add|remove #channel ...]",
    ),
    (
        "channels remove ,",
        "channels remove needs at least one channel. "
        "Usage: /summary channels [add|remove #channel ...]",
    ),
    (
        "publish add",
        "publish add needs at least one channel. "
        "Usage: /summary publish [DRAFT] | /summary publish add|remove|list [#channel ...]",
    ),
    (
        "editors add",
        "editors add needs at least one person or role. "
        "Usage: /summary editors [add|remove @person role:Name ...]",
    ),
    (
        "admins remove",
        "admins remove needs at least one person or role. "
        "Usage: /summary admins [add|remove @person role:Name ...]",
    ),
    (
        "topics add",
        "topics add needs a topic id. Usage: " + USAGE_LINES["topics"][0],
    ),
    (
        "topics remove",
        "topics remove needs a topic id. Usage: " + USAGE_LINES["topics"][0],
    ),
    (
        "topics add rl",
        'topics add needs a title after the id, e.g. topics add rl "Title". Usage: '
        + USAGE_LINES["topics"][0],
    ),
    (
        "topics add rl keywords=reward",
        'topics add needs a title after the id, e.g. topics add rl "Title". Usage: '
        + USAGE_LINES["topics"][0],
    ),
    (
        'topics add rl ""',
        "The topic title cannot be empty. Usage: " + USAGE_LINES["topics"][0],
    ),
    (
        "review-channel",
        "review-channel needs exactly one channel. Usage: /summary review-channel #channel",
    ),
    (
        "review-channel #a #b",
        "review-channel needs exactly one channel. Usage: /summary review-channel #channel",
    ),
    (
        "repo",
        'repo needs one repository, e.g. marin-community/marin (or "" to clear). '
        "Usage: /summary repo owner/name",
    ),
    ("retention", "retention needs a number of days. Usage: /summary retention DAYS"),
    (
        "history",
        "history needs a section number, topic or title. Usage: " + USAGE_LINES["history"][0],
    ),
    (
        "edit",
        "edit needs a section number, topic or title and the new text. "
        "Usage: " + USAGE_LINES["edit"][0],
    ),
    (
        "edit 3",
        "edit needs the new text after the section 3. Usage: " + USAGE_LINES["edit"][0],
    ),
    (
        "edit 3   \n ",
        "edit needs the new text after the section 3. Usage: " + USAGE_LINES["edit"][0],
    ),
    (
        'schedule ""',
        "The schedule cannot be empty. Usage: " + USAGE_LINES["schedule"][0],
    ),
    # bad values
    (
        "draft 2026-13-01",
        "'2026-13-01' is not a date; write it as YYYY-MM-DD. Usage: " + USAGE_LINES["draft"][0],
    ),
    (
        "draft 16/11/2026",
        "'16/11/2026' is not a date; write it as YYYY-MM-DD. Usage: " + USAGE_LINES["draft"][0],
    ),
    (
        "draft 20261116",
        "'20261116' is not a date; write it as YYYY-MM-DD. Usage: " + USAGE_LINES["draft"][0],
    ),
    (
        "retention thirty",
        "Retention must be a whole number of days, not 'thirty'. Usage: /summary retention DAYS",
    ),
    (
        "retention 1.5",
        "Retention must be a whole number of days, not '1.5'. Usage: /summary retention DAYS",
    ),
    (
        "edit 2 --draft seven text",
        "The draft number must be a positive whole number, not 'seven'. "
        "Usage: " + USAGE_LINES["edit"][0],
    ),
    ("history 2 --draft", "--draft needs a draft number. Usage: " + USAGE_LINES["history"][0]),
    (
        "edit 0 text",
        "The section number must be a positive whole number, not '0'. "
        "Usage: " + USAGE_LINES["edit"][0],
    ),
    (
        "approve first",
        "The draft number must be a positive whole number, not 'first'. "
        "Usage: /summary approve [DRAFT]",
    ),
    (
        "publish -1",
        "The draft number must be a positive whole number, not '-1'. "
        "Usage: /summary publish [DRAFT] | /summary publish add|remove|list [#channel ...]",
    ),
    (
        "topics add RL x",
        "Topic id 'RL' must be lower-case letters, digits and dashes (e.g. rl). Usage: "
        + USAGE_LINES["topics"][0],
    ),
    (
        "topics add rl RL colour=red",
        "Unknown option 'colour=red'; topics add takes keywords=, channels=, patterns=. Usage: "
        + USAGE_LINES["topics"][0],
    ),
    (
        "topics add rl RL channels=<@U1234>",
        "'<@U1234>' is not a channel; write #name or pick it from the list. Usage: "
        + USAGE_LINES["topics"][0],
    ),
    (
        "channels add <@U1234>",
        "'<@U1234>' is not a channel; write #name or pick it from the list. "
        "Usage: /summary channels [add|remove #channel ...]",
    ),
    (
        "admins add @ana",
        "'@ana' is not a person or role the bot can recognise; mention them (pick from the list "
        "so it becomes a mention) or write role:Name. "
        "Usage: /summary admins [add|remove @person role:Name ...]",
    ),
    (
        "editors add role:",
        "'role:' is not a person or role the bot can recognise; mention them (pick from the "
        "list so it becomes a mention) or write role:Name. "
        "Usage: /summary editors [add|remove @person role:Name ...]",
    ),
    # unbalanced quotes
    (
        'topics add rl "RL',
        "The quotes in this command are not balanced. Usage: " + USAGE_LINES["topics"][0],
    ),
    (
        "schedule 'mon 09:00",
        "The quotes in this command are not balanced. Usage: " + USAGE_LINES["schedule"][0],
    ),
    # arguments where none belong
    ("status now", "status takes no arguments. Usage: /summary status"),
    ("help me", "help takes no arguments. Usage: /summary help"),
    ("forget-me please", "forget-me takes no arguments. Usage: /summary forget-me"),
    ("audit all", "audit takes no arguments. Usage: /summary audit"),
    (
        "channels list #x",
        "Unexpected '#x' after channels. Usage: /summary channels [add|remove #channel ...]",
    ),
    (
        "approve 1 2",
        "Unexpected '2' after approve. Usage: /summary approve [DRAFT]",
    ),
    (
        "draft 2026-11-16 now",
        "Unexpected 'now' after draft. Usage: " + USAGE_LINES["draft"][0],
    ),
    (
        "topics remove rl iris",
        "Unexpected 'iris' after topics. Usage: " + USAGE_LINES["topics"][0],
    ),
]


@pytest.mark.parametrize(("text", "message"), ERRORS, ids=[t for t, _ in ERRORS])
def test_parse_errors_say_what_is_wrong_and_how_to_write_it(text: str, message: str) -> None:
    with pytest.raises(CommandError) as raised:
        parse(text)
    assert str(raised.value) == message


def test_usage_has_one_line_per_command() -> None:
    lines = USAGE.splitlines()
    assert lines[0] == "Commands:"
    assert len(lines) == 1 + len(USAGE_LINES)
    for verb in USAGE_LINES:
        assert any(line.startswith(f"/summary {verb}") for line in lines[1:]), verb


def test_commands_are_frozen_and_hashable() -> None:
    command = parse("channels add #iris")
    assert {command} == {ChannelsAdd(("iris",))}
    with pytest.raises(AttributeError):
        command.channels = ("data",)  # type: ignore[misc]


@given(st.text())
def test_parse_never_raises_anything_but_command_error(text: str) -> None:
    try:
        parse(text)
    except CommandError as error:
        assert str(error)


@given(
    st.lists(
        st.sampled_from(
            ["channels", "topics", "add", "remove", "list", "edit", "publish", "schedule"]
            + ["editors", "admins", "retention", "draft", "history", "approve", "role:", "#"]
            + ["<#", "<@", "<@&", "<!subteam^", "|", ">", '"', "'", "\\", "=", ",", "{", "}"]
            + ["keywords=", "patterns=", "channels=", "0", "12", "-", " ", "\n", "2026-11-16"]
        ),
        max_size=12,
    )
)
def test_parse_never_raises_anything_but_command_error_on_near_commands(parts: list[str]) -> None:
    try:
        parse("".join(parts))
    except CommandError as error:
        assert str(error)


def test_every_command_the_grammar_builds_has_one_handler() -> None:
    built = sorted(get_args(Command), key=lambda kind: kind.__name__)
    handled = sorted(HANDLERS, key=lambda kind: kind.__name__)

    assert handled == built
    with pytest.raises(TypeError):
        handler(object())  # type: ignore[arg-type]
