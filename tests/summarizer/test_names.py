"""A reply calling its addressee by name speaks of them in a summary, not to them."""

from __future__ import annotations

from factories import msg

from summarizer.names import without_vocatives


def _read(*said: tuple[str, str]) -> list[str]:
    messages = [msg(text, author=who) for who, text in said]
    return [m.text for m in without_vocatives(messages, {m.author for m in messages})]


def test_a_call_by_name_goes_and_your_becomes_theirs() -> None:
    assert _read(
        ("Dev Patel", "has anyone seen my keys? red bottle opener on the ring"),
        ("Bea Thornton", "Dev! I found your keys in the laundry room. They're in flat 16."),
        ("Greg Howe", "@Bea Thornton, thank you so much"),
        ("Alma Ruiz", "@Greg you need to pin SESSION_SALT in your settings"),
        ("Alma Ruiz", "@Greg Howe why is the form showing 'Youth: No' for school teams?"),
    )[1:] == [
        "I found Dev's keys in the laundry room. They're in flat 16.",
        "thank you so much",
        "you need to pin SESSION_SALT in Greg's settings",
        "why is the form showing 'Youth: No' for school teams?",
    ]


def test_names_listed_labelled_or_not_members_stay() -> None:
    said = [
        ("Greg Howe", "Greg, Ana and I will run the stall on Saturday"),
        ("Ana Ruiz", "Greg: brings the tables. Ana: the float"),
        ("Ana Ruiz", "@Greg: thought you'd enjoy this https://example.org/post"),
        ("Ana Ruiz", "Tomorrow, the stall opens at 9"),
        ("Ana Ruiz", "Ana, you forgot the float"),  # (her own name: a note to herself)
        ("Ana Ruiz", "@Greg Howe is our new treasurer. Welcome!"),
    ]
    assert _read(*said) == [text for _, text in said]
