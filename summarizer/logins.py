"""The week's people by the GitHub logins an integration's post may name them by: "Priya
Sethi" may be "priya-sethi", "psethi" or "priyas" on GitHub."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from summarizer.types import SourceMessage


def members_by_login(messages: Iterable[SourceMessage]) -> dict[str, str]:
    """The people of `messages` by the GitHub logins they may go by, as `login_key` writes
    them: "Priya Sethi" as "priyasethi", "psethi" and "priyas" ("Joris de Wit" also as
    "jdewit"). A login two people could have is nobody's."""
    claims: dict[str, set[str]] = {}
    for name in {m.author for m in messages if not m.is_bot}:
        words = name.split()
        forms = {login_key(name)}
        if len(words) > 1:
            forms.add(login_key(words[0][:1] + words[-1]))
            forms.add(login_key(words[0][:1] + "".join(words[1:])))  # ("Joris de Wit": jdewit)
            forms.add(login_key(words[0] + words[-1][:1]))
        for form in forms:
            claims.setdefault(form, set()).add(name)
    return {form: next(iter(names)) for form, names in claims.items() if len(names) == 1}


def login_key(name: str) -> str:
    """A name as a login compares: "Priya Sethi" and "priya-sethi" are "priyasethi"."""
    return "".join(c for c in name.lower() if c.isalnum())


def member_named(login: str, members: Mapping[str, str]) -> str:
    """The member `members` (`members_by_login`) knows by `login`, or else the login."""
    return members.get(login_key(login), login)
