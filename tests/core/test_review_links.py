"""Review-page links and sessions: signed, scoped, expiring, and never one for the other."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.review_links import BadToken, PageSigner, page_url

NOW = datetime(2026, 11, 23, 9, tzinfo=UTC)
SIGNER = PageSigner("a-test-secret-of-32-characters!!")


def test_a_link_names_its_editor_workspace_and_draft_for_24_hours() -> None:
    token = SIGNER.link("slack", "U1", 3, 12, NOW)
    grant = SIGNER.read("link", token, NOW + timedelta(hours=23, minutes=59))
    assert (grant.platform, grant.user_id, grant.workspace_id, grant.draft_id) == (
        "slack",
        "U1",
        3,
        12,
    )
    assert grant.expires == NOW + timedelta(hours=24)
    with pytest.raises(BadToken, match="expired"):
        SIGNER.read("link", token, NOW + timedelta(hours=24))


def test_a_tampered_link_is_refused() -> None:
    token = SIGNER.link("slack", "U1", 3, 12, NOW)
    payload, _, signature = token.partition(".")
    other = SIGNER.link("slack", "U1", 4, 12, NOW).partition(".")[0]  # workspace 4
    for forged in (
        f"{other}.{signature}",
        f"{payload}.{signature[:-2]}AA",
        payload,
        "",
        "not.a-token",
    ):
        with pytest.raises(BadToken):
            SIGNER.read("link", forged, NOW)


def test_another_key_s_link_is_refused() -> None:
    token = PageSigner("another-secret-of-32-characters!").link("slack", "U1", 3, 12, NOW)
    with pytest.raises(BadToken, match="signature"):
        SIGNER.read("link", token, NOW)


def test_a_link_is_not_a_session_nor_a_session_a_link() -> None:
    link = SIGNER.link("slack", "U1", 3, 12, NOW)
    session = SIGNER.session(SIGNER.read("link", link, NOW), NOW)
    with pytest.raises(BadToken):
        SIGNER.read("session", link, NOW)
    with pytest.raises(BadToken):
        SIGNER.read("link", session, NOW)
    grant = SIGNER.read("session", session, NOW)
    assert (grant.user_id, grant.workspace_id, grant.draft_id) == ("U1", 3, 12)


def test_the_csrf_token_belongs_to_one_session() -> None:
    link = SIGNER.read("link", SIGNER.link("slack", "U1", 3, 12, NOW), NOW)
    one = SIGNER.read("session", SIGNER.session(link, NOW), NOW)
    two = SIGNER.read("session", SIGNER.session(link, NOW), NOW)
    assert SIGNER.csrf_ok(one, SIGNER.csrf(one))
    assert not SIGNER.csrf_ok(one, SIGNER.csrf(two))
    assert not SIGNER.csrf_ok(one, None)
    assert not SIGNER.csrf_ok(one, "")
    assert not SIGNER.csrf_ok(one, "é" + SIGNER.csrf(one)[1:])  # refused, not an error


@pytest.mark.parametrize("signature", ["é", "\u00ff" * 43, "\U0001f600"])
def test_a_token_with_any_characters_is_refused_not_an_error(signature: str) -> None:
    payload = SIGNER.link("slack", "U1", 3, 12, NOW).partition(".")[0]
    for token in (f"{payload}.{signature}", f"é.{signature}"):
        with pytest.raises(BadToken):
            SIGNER.read("link", token, NOW)


def test_a_short_key_is_refused_and_the_url_sits_under_the_public_url() -> None:
    with pytest.raises(ValueError, match="16"):
        PageSigner("short")
    assert page_url("https://bot.example/sb/", "abc") == "https://bot.example/sb/review/open?t=abc"
