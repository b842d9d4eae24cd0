"""The migrations build the models' schema, and go down and up again, on both databases."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, text

from storage.db import alembic_config, is_current, make_engine, migrate
from storage.models import Base


def test_migrated_schema_matches_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []
    assert is_current(engine)
    engine.dispose()


def test_downgrade_to_nothing_and_back(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    assert not is_current(engine)
    migrate(engine)
    assert {"messages", "pr_refs", "drafts"} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_migrate_twice_is_harmless(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    migrate(engine)
    assert is_current(engine)
    engine.dispose()


def test_sections_never_edited_keep_their_text_as_drafted(database_url: str) -> None:
    """0009: a section without revisions was still as drafted; an edited one's drafted text
    was never kept, so it stays unknown rather than being taken from its edited text."""
    engine = make_engine(database_url)
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "0008")
        connection.execute(
            text(
                "INSERT INTO workspaces (id, platform, platform_id, name) "
                "VALUES (1, 'slack', 'T1', 'Lab')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO drafts (id, workspace_id, week_start, title, status, summarizer, "
                "created_at) VALUES (1, 1, '2026-11-16', 'W', 'in_review', 'extractive', "
                "'2026-11-23 09:00:00+00:00')"
            )
        )
        for section_id, words in ((1, "As drafted."), (2, "Edited.")):
            connection.execute(
                text(
                    "INSERT INTO draft_sections (id, draft_id, position, topic, title, markdown, "
                    "prs, people, sources) VALUES (:id, 1, :id, :topic, 'T', :md, '[]', '[]', "
                    "'[]')"
                ),
                {"id": section_id, "topic": f"t{section_id}", "md": words},
            )
        connection.execute(
            text(
                "INSERT INTO section_revisions (id, section_id, editor_id, editor_name, "
                "created_at, markdown) VALUES (1, 2, 'u', 'Ed', '2026-11-23 10:00:00+00:00', "
                "'Edited.')"
            )
        )
        command.upgrade(cfg, "head")
        rows = connection.execute(
            text("SELECT id, drafted_markdown FROM draft_sections ORDER BY id")
        ).all()
    assert [tuple(row) for row in rows] == [(1, "As drafted."), (2, None)]
    engine.dispose()


def _store_one_message(connection: Connection, message_text: str) -> None:
    """A workspace, channel and member with one message, in the columns every revision
    since 0001 has."""
    for statement in (
        "INSERT INTO workspaces (id, platform, platform_id, name) VALUES (1, 's', 'T1', 'L')",
        "INSERT INTO channels (id, workspace_id, platform_id, name) VALUES (1, 1, 'C1', 'g')",
        "INSERT INTO people (id, workspace_id, platform_id, display_name, is_bot) "
        "VALUES (1, 1, 'U1', 'Ana', false)",
    ):
        connection.execute(text(statement))
    connection.execute(
        text(
            "INSERT INTO messages (id, workspace_id, channel_id, author_id, platform_id, "
            "created_at, text, reaction_count, reply_count) "
            "VALUES (1, 1, 1, 1, 'C1:1.0', '2026-11-17 09:00:00+00:00', :text, 0, 0)"
        ),
        {"text": message_text},
    )


def test_messages_stored_before_0010_are_not_pinned(database_url: str) -> None:
    """0010 adds `pinned` to messages already stored (as not pinned); down drops it again."""
    engine = make_engine(database_url)
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "0009")
        _store_one_message(connection, "hi")
        command.upgrade(cfg, "0010")
        # false: PostgreSQL says False, SQLite keeps booleans as 0 and 1
        assert connection.execute(text("SELECT pinned FROM messages")).scalar_one() == 0
        command.downgrade(cfg, "0009")
    columns = {c["name"] for c in inspect(engine).get_columns("messages")}
    assert "pinned" not in columns and "text" in columns
    engine.dispose()


def test_messages_stored_before_0013_have_no_preview(database_url: str) -> None:
    """0013 adds `preview` to messages already stored (empty: their previews stay in their
    text until a re-import); down drops it again."""
    engine = make_engine(database_url)
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "0012")
        _store_one_message(connection, "hi <url>\nTitle")
        command.upgrade(cfg, "0013")
        row = connection.execute(text("SELECT text, preview FROM messages")).one()
        assert tuple(row) == ("hi <url>\nTitle", "")
        command.downgrade(cfg, "0012")
    columns = {c["name"] for c in inspect(engine).get_columns("messages")}
    assert "preview" not in columns and "text" in columns
    engine.dispose()
