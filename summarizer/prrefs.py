"""Find GitHub pull-request and issue references in chat text.

Chat mixes real references (``#8077``, ``openxla/xla#47283``, ``MarinSkyRL#423``, PR links,
"PR 123", GitHub's "GH-123") with look-alikes that must not count: channel names
(``#2026-planning``), hex colours (``#1a2b3c``), HTML entities (``&#8077;``), URL fragments,
Markdown headings, Discord and Slack mentions, and anything inside code. `parse_pr_refs`
finds the real ones in a single left-to-right pass of one compiled regex, so it stays linear
in the length of the message.

Every construct that can *contain* a look-alike (code, link markup, mentions, URLs) is an
alternative of that regex. Because the scanner takes the leftmost match, such a construct is
consumed whole before its inside could be mistaken for a bare ``#N``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from summarizer.names import channel_key

__all__ = [
    "PRRef",
    "bare_refs_elsewhere",
    "channel_repository",
    "github_url",
    "normalise",
    "parse_pr_refs",
    "resolve_in_week",
    "stray_numbers",
]


@dataclass(frozen=True, slots=True)
class PRRef:
    """One reference as written in the text.

    `repo` is "owner/repo", a short repo name such as "MarinSkyRL", or None for a bare ``#N``.
    `raw` is the text that produced it: ``#8077``, ``openxla/xla#47283``, ``PR 123``, a GitHub
    URL, or a whole link construct such as ``<https://github.com/o/r/pull/12|#12>``.
    """

    repo: str | None
    number: int
    raw: str


# --- building blocks ---------------------------------------------------------------------

# A PR number: 1-7 digits without a leading zero, so "#0", "#007" and 8-digit ids never match.
_NUM = r"[1-9][0-9]{0,6}"
# What may follow a reference: anything but a word character or "-" (unless another
# reference follows it: "#54-#56"). "#8077." and "(#8077)" count; "#8077-fix",
# "#2026-planning", "#1a2b3c" and "#12345678" do not.
_END = r"(?!\w|-(?!\#\d))"
# A repo name or keyword must start a token: not glued to a word, a path ("a/b/c#1", "./x#1"),
# a file name ("page.html#12"), or a channel name ("#hero-run#2").
_START = r"(?<![\w./#-])"
# GitHub owner: starts alphanumeric (GitHub forbids a leading "-"); no dots, which GitHub
# logins cannot contain, so a host with a path ("example.com/x#3") is not an owner/repo.
_OWNER = r"[A-Za-z0-9][A-Za-z0-9_-]{0,38}"
# GitHub repository name (dots allowed: "vercel/next.js#1", "o/.github#2").
_REPO = r"[A-Za-z0-9_.-]{1,100}"
# A short repo name standing alone ("levanter#12"): starts with a letter and has at least two
# characters, so "C#7"/"F#6" (languages) and "2026#3" are not repos. No dots, so a file name
# with a fragment ("page.html#12") is not one either.
_SHORT = r"[A-Za-z][A-Za-z0-9_-]{1,99}"
# Spaces or tabs but never a newline: "PR" ending one line must not grab the "12." of a
# numbered list on the next.
_SP = r"[^\S\n]"
# Spaces, an optional colon, spaces: "PR 12", "PR: 12", "PR : #12". Possessive (`*+`), so a
# keyword followed by a long run of spaces is passed in one step, not tried at every split of
# the run between the two (which took 13 s on a 40,000-character message).
_SP_COLON = rf"{_SP}*+(?::{_SP}*+)?"
# After "PR 12" (no "#") a unit word means a quantity, not a PR: "the PR 2 days ago".
_NOT_QUANTITY = (
    rf"(?!{_SP}+(?i:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?"
    r"|times|more|others?)\b)"
)
# One item after a PR keyword: "#12", or a plain "12" that is not a quantity.
_KW_ITEM = rf"(?:\#{_NUM}{_END}|{_NUM}{_END}{_NOT_QUANTITY})"
# Between list items: "PRs #12, #13 and #14", "PRs 12/13", "PR #12 & #13". A "&" needs a
# space after it, or "PR #1 &#12;" would read the HTML entity as a second PR.
_LIST_SEP = rf"{_SP}*(?:,{_SP}*(?:(?i:and|or){_SP}+)?|/{_SP}*|&{_SP}+|(?i:and|or){_SP}+)"
# One URL-ish token. Parentheses only when balanced (Wikipedia-style links) so that the ")"
# closing "(https://...)" is left out; quotes, brackets, pipes and backticks end a URL.
_URL_CHARS = r"(?:[^\s<>()\[\]{}|\"'`]|\([^\s<>()]*\))"

# --- the scanner -------------------------------------------------------------------------

# Each alternative is one named outer group so `match.lastgroup` says which one matched.
# Order matters only between alternatives that can start at the same position. The lookahead
# in front admits only positions where some alternative can start (code or link markup, a URL,
# a PR keyword, or a name running into the "/" or "#" of "owner/repo#N" or "name#N"), so most
# of a text is passed over after one test instead of one per alternative.
_SCAN = re.compile(
    rf"""
    (?=[`~<\[\#]|(?i:https?://|www\.|github\.com/|p[ru]|gh-)|{_START}[A-Za-z0-9][A-Za-z0-9_.-]*+[/\#])
    (?:
    # Fenced code (``` or ~~~, also mid-line as chat clients allow); unclosed runs to the end.
      (?P<fence>(?P<fence_mark>`{{3,}}|~{{3,}})[\s\S]*?(?:(?P=fence_mark)|\Z))
    # Inline code: a run of one or two backticks closed by a run of the same length.
    | (?P<code>(?<!`)(?P<ticks>`{{1,2}})(?!`)[\s\S]+?(?<!`)(?P=ticks)(?!`))
    # Slack link markup <url> or <url|label>.
    | (?P<slack><(?P<slack_url>(?i:https?://)[^\s<>|]+)(?:\|(?P<slack_label>[^<>\n]*))?>)
    # Markdown / Discord masked link [label](url).
    | (?P<mdlink>\[(?P<md_label>[^\[\]\n]*)\]
        \((?P<md_url>[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)\))
    # Discord / Slack mentions, channels, emoji, timestamps, slash commands: <#123>,
    # <#C123|general>, <@123>, <@&456>, <!here>, <:name:123>, <a:name:123>, <t:1700000000:R>.
    | (?P<mention><(?:[\#@!/]|a?:|t:)[^<>\n]*>)
    # A bare URL; trailing sentence punctuation is not part of it.
    | (?P<url>(?<![\w.-])(?i:https?://|www\.|github\.com/){_URL_CHARS}*(?<![.,;:!?*]))
    # "PR 123", "PR #123", "PR#123", "pull request 123", "PRs #12 and #13".
    # A digit right after the keyword makes a name ("PR1#1" is repo PR1's #1), not a keyword.
    | (?P<kw>{_START}(?i:pr|pull[ -]?request)(?P<kw_plural>(?i:s))?(?!\d)
        {_SP_COLON}(?P<kw_first>{_KW_ITEM})(?P<kw_rest>(?:{_LIST_SEP}{_KW_ITEM})*))
    # GitHub's own short form, "GH-123" (Python projects write "gh-123").
    | (?P<gh>{_START}(?i:gh)-(?P<gh_num>{_NUM}){_END})
    # owner/repo#123
    | (?P<full>{_START}(?P<full_repo>{_OWNER}/{_REPO})\#(?P<full_num>{_NUM}){_END})
    # short-name#123
    | (?P<short>{_START}(?P<short_name>{_SHORT})\#(?P<short_num>{_NUM}){_END})
    # #123: not after a word character ("abc#1" is handled above), "&" (HTML entity) or "#".
    | (?P<bare>(?<![\w&\#])\#(?P<bare_num>{_NUM}){_END})
    )
    """,
    re.VERBOSE,
)

# A GitHub pull-request or issue URL, matched at the start of a URL token. Anything after the
# number ("/files", "#issuecomment-1", "?w=1", ".diff") is allowed, but not more digits or
# letters ("/pull/12abc" is no PR).
_GITHUB_URL = re.compile(
    rf"(?i:https?://)?(?i:www\.)?(?i:github\.com)/(?P<repo>{_OWNER}/{_REPO})"
    rf"/(?i:pull|pulls|issues)/(?P<num>{_NUM}){_END}"
)

# Items inside the matched list tail of a keyword reference.
_KW_LIST_ITEM = re.compile(r"#?[1-9][0-9]*")

# Cheap pre-check: every reference the scanner can yield contains one of these (a "#" before
# a PR number, a GitHub URL, "GH-", or a PR keyword before a number), so a message without
# any cannot hold one. Most chat messages take this exit, and it costs a fraction of a scan.
_HINT = re.compile(rf"\#[1-9]|(?i:github\.com/|gh-[1-9]|(?:pr|pull[ -]?request)s?{_SP_COLON}[1-9])")

# Short names that are words, not repos: "PR#12", "issue#12" are bare references.
_NOT_REPO_WORDS = frozenset({"pr", "prs", "pull", "issue", "issues"})

# Look-alikes only the whole message reveals: a numbered list written "#1 ..., #2 ..." and an
# all-digit hex colour ("#112233") among colours or colour words. Three digits are a colour
# only beside a hex colour with letters or right after a colour's word ("text colour #333"):
# "#980 faster startup, #981 new theme API" cites two PRs.
# A colour's own words, and words that only put colours in mind ("theme: #980 adds dark
# mode" labels a PR).
_COLOUR_WORD = r"colou?rs?|hex|rgba?|background|foreground|fill|stroke"
_LETTERED_HEX_RE = re.compile(r"#[0-9a-fA-F]{0,5}[a-fA-F][0-9a-fA-F]{0,5}\b")
_COLOUR_HINT = re.compile(
    rf"(?i:\b(?:{_COLOUR_WORD}|palette|css|theme)\b)|{_LETTERED_HEX_RE.pattern}"
)
_COLOUR_BEFORE_RE = re.compile(rf"(?i:\b(?:{_COLOUR_WORD})\b\W{{0,3}}(?:to |of |is |= ?)?)$")
COLOUR_WORD_CHARS = 16  # a colour's word, its punctuation and "to " before three digits
_COLOUR_DIGITS = (3, 6, 8)

# What numbers one of a series or a rank, right before a bare "#N": "Devlog #12", "Meetup
# #34", "Episode #3", "Week #47", "ranked #2", a CI run ("build #4513", "job #88"), or a
# numbered thing of another kind ("Priority #1", "Submission #318", "Table #3"). (An issue
# of GitHub's is a reference: "issue #5".)
_SERIES_RE = re.compile(
    r"(?i:\b(?:devlog|episode|ep|meetup|sprint|week|day|part|round|season|chapter|vol"
    r"|volume|edition|newsletter|jam|hackathon|session|lecture|lesson|workshop|stream"
    r"|podcast|meeting|ranked|rank|number|no\.|top|build|job|pipeline|workflow|priority"
    r"|submission|paper|table|figure|fig|slide|step|item|question|option|tip|rule|team"
    r"|placed|finished|final|sensor|bus|route|tram|platform|gate|exit|room|bay|pier|stop"
    r"|line|task)s?"
    r"|\b\w+(?:jam|fest))(?: (?-i:[A-Z][a-z]+))? $"
)  # (and a compound one: "Modjam #4", "Gamejam #2", "Hacktoberfest #5"; with the place or
# name of the series: "Meetup Amsterdam #4"; several of them: "tasks #1–#9")
SERIES_CHARS = 32  # the longest of those words, a name, their spaces and a character before
# ... and what says first place ("is #1", "the #1 request"), or a place on a board ("we're
# #2 on EN", "I'm #3 in the league").
_FIRST_RE = re.compile(r"(?i:\b(?:is|are|was|were|the|'re|'s|'m|’re|’s|’m)) $")
_PLACE_RE = re.compile(r"(?i:\b(?:am|are|'re|'m|’re|’m)) $")
# ... at any height where people say it of themselves ("we're #23!!", "I'm #14 overall"):
# a person is no PR ("they're #8538 and #8540" may be PRs)
_OWN_PLACE_RE = re.compile(r"(?i:\b(?:we|I|you)(?:'re|'m|’re|’m| are| am)) $")
_ON_A_BOARD_RE = re.compile(r"\s+(?:on|in)\b")
PODIUM = 3  # the places a rank says ("#2 on EN"); higher numbers are PRs
# ... and what a first place ranks, after it: "#1 rule: safety glasses on", "#2 favourite".
_RANKS_RE = re.compile(
    r"\s+(?i:rule|priority|favou?rite|pick|choice|spot|place|seed|reason|request|goal|fan)s?\b"
)
# One more of the numbers before it: "agenda item #9 or #11?", "tables #3, #4 and #7", "bus
# #601 then the #606", "tasks #1–#9".
_ONE_MORE_RE = re.compile(r"#(?P<number>\d+)(?:,? (?:or|and|&|then(?: the)?|to)|,|/|[–-]) ?$")

LISTED_NUMBERS = 8  # how far back a list of numbers is followed to what it numbers
# A repository whose PRs have reached this number has few single-digit ones left to cite.
MATURE_NUMBER = 100
COLOUR_DIGITS = 6  # "#330000": a colour's red, green and blue

# The repository a GitHub integration's post opens with: "[owner/repo] Pull request ...".
_NOTIFICATION_REPO = re.compile(rf"\s*\[(?P<repo>{_OWNER}/{_REPO})\]\s")

# A normalised reference that names a full repo.
_NORMALISED_FULL = re.compile(rf"(?P<repo>{_OWNER}/{_REPO})#(?P<num>{_NUM})")

_URL_KINDS = {"pull": "pull", "pulls": "pull", "issue": "issues", "issues": "issues"}


# --- public API --------------------------------------------------------------------------


def parse_pr_refs(text: str) -> list[PRRef]:
    """Return the PR/issue references in chat `text`, in order of first appearance.

    Each (repo, number) appears once; the first occurrence wins and repos are compared
    case-insensitively (the first spelling is kept). A bare ``#12`` and ``o/r#12`` are
    different keys. Text inside inline code and code fences is ignored, a link construct
    (Slack ``<url|label>``, Markdown ``[label](url)``) yields only its GitHub URL's reference,
    or the references in its label when the URL is not a GitHub PR/issue.
    """
    if _HINT.search(text) is None:
        return []
    seen: set[tuple[str | None, int]] = set()
    refs: list[PRRef] = []
    for ref in _in_notification_repo(_without_lookalikes(list(_scan(text)), text), text):
        key = (ref.repo.lower() if ref.repo is not None else None, ref.number)
        if key not in seen:
            seen.add(key)
            refs.append(ref)
    return refs


def normalise(
    ref: PRRef,
    default_repo: str | None = None,
    repo_aliases: Mapping[str, str] | None = None,
) -> str:
    """Return the canonical form of `ref`: "owner/repo#N" when the repo is known, else "#N".

    - "owner/repo" is kept as written.
    - A short name is looked up in `repo_aliases` case-insensitively
      (``{"MarinSkyRL": "marin-community/MarinSkyRL"}``); failing that, a short name equal to
      the name part of `default_repo` resolves to `default_repo`; otherwise it stays
      "ShortName#N", so it is still clear which repo was meant.
    - A bare reference becomes "default_repo#N", or "#N" without a default repo.
    """
    number = ref.number
    if ref.repo is None:
        return f"{default_repo}#{number}" if default_repo else f"#{number}"
    if "/" in ref.repo:
        return f"{ref.repo}#{number}"
    resolved = _lookup_alias(ref.repo, repo_aliases)
    if resolved is None and _repo_name(default_repo) == ref.repo.casefold():
        resolved = default_repo
    return f"{resolved or ref.repo}#{number}"


def channel_repository(
    channel: str, default_repo: str | None = None, repo_aliases: Mapping[str, str] | None = None
) -> str | None:
    """The repository a channel is named for, or None: a channel called as one of
    `repo_aliases` ("#uefi-rs" for ``{"uefi-rs": "rust-osdev/uefi-rs"}``), or as the name
    part of one of their repositories or of `default_repo`. A bare "#N" said there means
    that repository's PR, whatever the default. The channel's decoration ("🦀┃uefi-rs")
    is not part of its name (`channel_key`)."""
    folded = channel_key(channel)
    found = _lookup_alias(folded, repo_aliases)
    if found is not None:
        return found
    repos = [*(repo_aliases or {}).values(), *([default_repo] if default_repo else [])]
    return next((repo for repo in repos if _repo_name(repo) == folded), None)


def resolve_in_week(refs: Iterable[str]) -> dict[str, str]:
    """For a week's normalised refs, what each unresolved one ("#N", "Repo#N") stands for
    when the week names exactly one full repository with that number (and, for "Repo#N",
    that name): `{"#9197": "org/repo#9197"}`. So one PR is never listed twice."""
    full: dict[int, set[str]] = {}
    unresolved = set()
    for ref in refs:
        repo, _, number = ref.rpartition("#")
        if "/" in repo:
            full.setdefault(int(number), set()).add(repo)
        else:
            unresolved.add(ref)
    resolved = {}
    for ref in unresolved:
        name, _, number = ref.rpartition("#")
        repos = [
            r for r in full.get(int(number), ()) if not name or _repo_name(r) == name.casefold()
        ]
        if len(repos) == 1:
            resolved[ref] = f"{repos[0]}#{number}"
    return resolved


def bare_refs_elsewhere(
    refs: Mapping[tuple[str | None, int, str], str], default_repo: str | None
) -> dict[tuple[str | None, int, str], str]:
    """Of a week's refs (as written: repository or None, number, raw -> normalised), the
    bare "#N" given to the default repository whose number the week cites, with its
    repository named, only in one other: that one ("pipelines#329 is the draft", then "will
    test #329"; "#212 in helm-charts" after "kvault-io/helm-charts#212")."""
    if not default_repo:
        return {}  # (bare refs stay bare: `resolve_in_week`)
    named: dict[int, set[str]] = {}
    for (repo, number, _), ref in refs.items():
        if repo is not None:
            named.setdefault(number, set()).add(ref.rpartition("#")[0])
    found = {}
    for key, ref in refs.items():
        repo, number, _ = key
        others = named.get(number, set())
        if repo is None and ref == f"{default_repo}#{number}" and len(others) == 1:
            (other,) = others
            if other != default_repo:
                found[key] = f"{other}#{number}"
    return found


def stray_numbers(refs: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    """Of a week's refs, as (written, normalised) pairs, the bare "#N" that count something
    else: single-digit ones in a repository the week cites a number of `MATURE_NUMBER` or
    more in ("coffee #1 of the day", "#3 here" are not its first issues), two-digit ones in
    a repository it cites four-digit numbers in ("Zigbee channel #15" beside #5203), and, in
    a week that names no repository at all (no default one, no link, no "repo#N"), those
    under `MATURE_NUMBER` ("printer #4", "writing prompt #14": a community without code), and
    six digits where the repository's other numbers are far below ("#330000" beside #41: a
    colour)."""
    refs = list(refs)
    below_colours: dict[str, int] = {}  # (the highest of fewer than six digits)
    for _, ref in refs:
        repo, _, number = ref.rpartition("#")
        if len(number) < COLOUR_DIGITS:
            below_colours[repo] = max(below_colours.get(repo, 0), int(number))
    colours = {
        (raw, ref)
        for raw, ref in refs
        if len(raw) == COLOUR_DIGITS + 1
        and raw.startswith("#")
        and 0 < below_colours.get(ref.rpartition("#")[0], 0) < 10 * MATURE_NUMBER
    }
    highest: dict[str, int] = {}
    for raw, ref in refs:
        if (raw, ref) not in colours:
            repo, _, number = ref.rpartition("#")
            highest[repo] = max(highest.get(repo, 0), int(number))
    no_repository = highest.keys() <= {""}
    return (
        colours
        | {
            (raw, ref)
            for raw, ref in refs
            if raw.startswith("#")
            and (raw, ref) not in colours
            and (
                len(raw) == 2  # ("#" and one digit)
                and highest[ref.rpartition("#")[0]] >= MATURE_NUMBER
                or len(raw) == 3  # (two digits, in a repository in its thousands)
                and highest[ref.rpartition("#")[0]] >= 10 * MATURE_NUMBER
                or no_repository
                and int(raw[1:]) < MATURE_NUMBER
            )
        }
    )


def github_url(normalised_ref: str, kind: str = "pull") -> str | None:
    """Return ``https://github.com/owner/repo/pull/N`` for "owner/repo#N", else None.

    `kind` is "pull" or "issues" ("issue" is accepted too); any other kind raises ValueError.
    "#N" and "ShortName#N" have no known repo and give None.
    """
    try:
        path = _URL_KINDS[kind]
    except KeyError:
        raise ValueError(f"kind must be 'pull' or 'issues', not {kind!r}") from None
    m = _NORMALISED_FULL.fullmatch(normalised_ref.strip())
    if m is None:
        return None
    return f"https://github.com/{m['repo']}/{path}/{int(m['num'])}"


# --- internals ---------------------------------------------------------------------------


def _scan(text: str) -> Iterator[PRRef]:
    """Yield every reference in `text` in order, duplicates included."""
    for m in _SCAN.finditer(text):
        kind = m.lastgroup
        if kind == "bare":
            number = int(m["bare_num"])
            if not _numbers_a_series(text, m.start(), number):
                yield PRRef(None, number, m[0])
        elif kind == "gh":
            yield PRRef(None, int(m["gh_num"]), m[0])
        elif kind == "full":
            yield PRRef(m["full_repo"], int(m["full_num"]), m[0])
        elif kind == "short":
            name = m["short_name"]
            repo = None if name.lower() in _NOT_REPO_WORDS else name
            yield PRRef(repo, int(m["short_num"]), m[0])
        elif kind == "kw":
            yield from _keyword_refs(m)
        elif kind == "url":
            yield from _url_refs(m[0], m[0])
        elif kind == "slack":
            yield from _link_refs(m["slack_url"], m["slack_label"], m[0])
        elif kind == "mdlink":
            yield from _link_refs(m["md_url"], m["md_label"], m[0])
        # fence, code, mention: consumed so that nothing inside them counts.


def _numbers_a_series(text: str, at: int, number: int, hops: int = LISTED_NUMBERS) -> bool:
    """Whether the bare "#N" at `at` numbers one of a series or a rank ("Devlog #12",
    "Meetup #34", "ranked #2"), not a PR; one of a list is what the `hops` numbers before it
    in the list are ("tasks #1–#9")."""
    after = at + len(str(number)) + 1
    if number <= PODIUM and _RANKS_RE.match(text, after):
        return True
    before = text[max(0, at - SERIES_CHARS) : at]
    if not before.endswith((" ", "–", "-")):
        return False
    more = _ONE_MORE_RE.search(before)
    if more is not None:
        if not hops:
            return False  # (a long run of numbers is read in time linear in its length)
        earlier = at - len(before) + more.start()
        return _numbers_a_series(text, earlier, int(more["number"]), hops - 1)
    if not before.endswith(" "):
        return False
    if number == 1 and _FIRST_RE.search(before):
        return True  # ("we're #1 on the leaderboard", "the #1 request")
    if _OWN_PLACE_RE.search(before):
        return True
    if number <= PODIUM and _PLACE_RE.search(before):
        return _ON_A_BOARD_RE.match(text, after) is not None  # ("we're #2 on EN")
    return _SERIES_RE.search(before) is not None


def _without_lookalikes(refs: list[PRRef], text: str) -> list[PRRef]:
    """`refs` less the bare ones that number a list ("#1 ..., #2 ...": the numbers 1..k,
    k >= 2) or are digit-only hex colours beside other colours or colour words."""
    bare = {r.number for r in refs if r.repo is None and r.raw.startswith("#")}
    listed = set(range(1, len(bare) + 1)) if {1, 2} <= bare else set()
    listed &= bare
    while listed and max(listed) not in bare:
        listed.discard(max(listed))
    if not listed and not any(len(r.raw) - 1 in _COLOUR_DIGITS for r in refs):
        return refs  # the common case: nothing here can be a list number or a colour
    colours = bool(_COLOUR_HINT.search(text))
    return [
        r
        for r in refs
        if not (
            r.repo is None
            and r.raw.startswith("#")
            and (r.number in listed or colours and _is_colour(r.raw, text))
        )
    ]


def _is_colour(raw: str, text: str) -> bool:
    """Whether the bare "#N" `raw`, in a text with a colour's word or a hex colour, is a
    colour: six or eight digits, or three beside a hex colour with letters or right after
    a colour's word."""
    digits = len(raw) - 1
    if digits not in _COLOUR_DIGITS:
        return False
    if digits != 3 or _LETTERED_HEX_RE.search(text):
        return True
    at = text.find(raw)
    return _COLOUR_BEFORE_RE.search(text[max(0, at - COLOUR_WORD_CHARS) : at]) is not None


def _in_notification_repo(refs: list[PRRef], text: str) -> list[PRRef]:
    """In a GitHub notification ("[owner/repo] Pull request opened: #12 ..."), a bare #N is
    that repository's."""
    match = _NOTIFICATION_REPO.match(text)
    if match is None:
        return refs
    repo = match["repo"]
    return [PRRef(repo, r.number, r.raw) if r.repo is None else r for r in refs]


def _url_refs(url: str, raw: str) -> Iterator[PRRef]:
    """The reference a GitHub PR/issue URL names; nothing for any other URL."""
    m = _GITHUB_URL.match(url)
    if m is not None:
        yield PRRef(m["repo"], int(m["num"]), raw)


def _link_refs(url: str, label: str | None, raw: str) -> Iterator[PRRef]:
    """A link construct counts once: its URL's reference, else the references in its label."""
    found = False
    for ref in _url_refs(url, raw):
        found = True
        yield ref
    if not found and label:
        yield from _scan(label)


def _keyword_refs(m: re.Match[str]) -> Iterator[PRRef]:
    """References of "PR 12" / "PRs #12, 13 and #14".

    List items after the first count when they carry a "#", or for the plural keyword
    ("PRs 12 and 13"); "PR 12 and 13" yields only 12.
    """
    first_end = m.end("kw_first")
    yield PRRef(None, int(m["kw_first"].lstrip("#")), m.string[m.start() : first_end])
    plural = m["kw_plural"] is not None
    for item in _KW_LIST_ITEM.finditer(m["kw_rest"]):
        token = item[0]
        if plural or token.startswith("#"):
            yield PRRef(None, int(token.lstrip("#")), token)


def _repo_name(repo: str | None) -> str | None:
    """The case-folded name part of "owner/repo", or None when `repo` is not of that form."""
    if not repo or "/" not in repo:
        return None
    return repo.rsplit("/", 1)[1].casefold()


def _lookup_alias(name: str, repo_aliases: Mapping[str, str] | None) -> str | None:
    """`repo_aliases[name]`, matching the key case-insensitively."""
    if not repo_aliases:
        return None
    if name in repo_aliases:
        return repo_aliases[name]
    folded = name.casefold()
    for key, value in repo_aliases.items():
        if key.casefold() == folded:
            return value
    return None
