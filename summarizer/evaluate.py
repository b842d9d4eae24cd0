"""How close a draft came to the summary its editors published.

`evaluate` compares a draft's Markdown with a reference (the published text, or any summary
written by hand) and measures what the draft got right and how much editing it needed:

- recall of the reference's PR references, people and figures (does the draft cite them?);
- placement: of the PRs both cite, the share the draft puts under the right section;
- per draft section, the reference section it corresponds to and how much of it was changed.

A reference with "## " headings is compared section by section (a draft section matches the
reference section with the same title, else the one sharing most PRs, then most words). A
reference in paragraph prose without headings is split into paragraphs "¶1", "¶2", ..., and
each draft section matches the paragraph sharing most PRs, then most words.

Pure: standard library and the summarizer only.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from summarizer.figures import find_figures
from summarizer.prrefs import normalise, parse_pr_refs, stray_numbers
from summarizer.render import QUIET_WEEK
from summarizer.voice import CODE_SPAN_RE

__all__ = [
    "Evaluation",
    "SectionScore",
    "cut_sentences",
    "evaluate",
    "report",
    "rouge_n",
    "split_paragraphs",
    "split_sections",
    "word_count",
]

# A draft section whose best reference section shares no PR and less than this share of its
# content words (Jaccard) is unmatched: nothing in the reference corresponds to it.
MIN_WORD_OVERLAP = 0.1
# How many missing PRs, people or figures the report lists before "and N more".
REPORT_LIMIT = 15


@dataclass(frozen=True)
class SectionScore:
    """One draft section: the reference section it corresponds to and how much changed."""

    topic: str  # the draft section's topic id
    title: str
    reference_title: str | None  # the reference section it was matched to, None if unmatched
    change: float  # 1 - word-level similarity: 0 = untouched, 1 = rewritten (or unmatched)


@dataclass(frozen=True)
class Evaluation:
    """A draft measured against a reference. A recall with nothing to recall is 1.0."""

    pr_recall: float
    people_recall: float
    figure_recall: float
    placement: float  # of the PRs cited in sections of both, the share placed right
    sections: list[SectionScore]
    missing_prs: list[str]  # the reference's PRs the draft does not cite, in reference order
    missing_people: list[str]
    extra_prs: list[str]  # PRs the draft cites and the reference does not
    # The counts behind the figures above, for the report.
    prs_found: int = 0
    prs_total: int = 0
    people_found: int = 0
    people_total: int = 0
    figures_found: int = 0
    figures_total: int = 0
    placed: int = 0
    placeable: int = 0
    missing_figures: list[str] = field(default_factory=list)
    unmatched_reference: list[str] = field(default_factory=list)  # no draft section matches
    reference_empty: bool = False
    reference_headed: bool = True  # False: the reference was split into paragraphs
    # What benchmarks/quality.py also reports, so a community can measure its own weeks.
    rouge1: float = 0.0
    rouge2: float = 0.0
    draft_words: int = 0
    reference_words: int = 0
    cut_lines: list[str] = field(default_factory=list)  # lines that stop mid-sentence
    bots_named: list[str] = field(default_factory=list)  # bots shown as people
    newcomers_found: int = 0  # of the people the reference introduces, named in the draft's
    newcomers_total: int = 0  # introductions
    missing_newcomers: list[str] = field(default_factory=list)


# --- splitting ---------------------------------------------------------------------------

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# render.to_markdown adds notes for the editor as "> Note for the editor: ..." blocks (a
# section's own as "> Note for the editor (llm): ..."). They are not part of the summary, and
# name PRs, people and figures the draft does not cite. A block runs to the next blank line.
_NOTE = re.compile(
    r"^> Note for the editor(?: \([^()\n]*\))?:[^\n]*(?:\n(?![ \t]*(?:\n|$))[^\n]*)*",
    re.MULTILINE,
)
_H1 = re.compile(r"^#[ \t]+\S")
_H2 = re.compile(r"^##[ \t]+(?P<title>.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
# A heading-less first line ends like a title, not a sentence.
_SENTENCE_END = (".", "!", "?", ":", ";", ",")
_TITLE_MAX = 150


def _clean(markdown: str) -> str:
    """The text without HTML comments, editor notes and the quiet-week placeholder."""
    text = markdown.replace("\r\n", "\n").replace("\r", "\n")
    text = _COMMENT.sub("", text)
    text = _NOTE.sub("", text)
    return text.replace(QUIET_WEEK, "")


def split_sections(markdown: str) -> dict[str, str]:
    """The "## " sections of `markdown`: heading title -> body, in order.

    The text before the first "## " heading, without the "# " title line, is under "" when
    it holds anything. A repeated title gets " (2)", " (3)", ... Headings inside code fences
    do not count; "### " headings stay in their section's body.
    """
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    fence: str | None = None
    title_seen = False  # the "# " title line, or any text, came before
    for line in _clean(markdown).split("\n"):
        fence_match = _FENCE.match(line)
        if fence_match:
            mark = fence_match[1]
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
        heading = _H2.match(line) if fence is None and not fence_match else None
        if heading:
            sections.append((heading["title"].strip(), []))
        elif sections:
            sections[-1][1].append(line)
        elif not title_seen and _H1.match(line):
            title_seen = True  # the document's "# " title: not part of any section
        else:
            title_seen = title_seen or bool(line.strip())
            preamble.append(line)
    result: dict[str, str] = {}
    before = "\n".join(preamble).strip()
    if before:
        result[""] = before
    for title, lines in sections:
        key, n = title, 1
        while key in result:
            n += 1
            key = f"{title} ({n})"
        result[key] = "\n".join(lines).strip()
    return result


def split_paragraphs(markdown: str) -> dict[str, str]:
    """The paragraphs of a heading-less summary: "¶1", "¶2", ... -> text, in order.

    The first block is the title, and left out, when it is a "# " heading or a single short
    line that does not end like a sentence ("Marin: Week of August 10th summary").
    """
    blocks = [b.strip() for b in _BLANK_LINES.split(_clean(markdown).strip())]
    blocks = [b for b in blocks if b]
    if blocks and _is_title(blocks[0]):
        blocks = blocks[1:]
    return {f"¶{i}": block for i, block in enumerate(blocks, start=1)}


def _is_title(block: str) -> bool:
    if "\n" in block:
        return False
    if _H1.match(block):
        return True
    return len(block) <= _TITLE_MAX and not block.rstrip("*_ ").endswith(_SENTENCE_END)


def _parts(markdown: str) -> tuple[dict[str, str], str, bool]:
    """(sections to match, text outside them, whether the document has "## " headings).

    A document with headings gives its sections and its preamble; one without gives its
    paragraphs and no preamble.
    """
    sections = split_sections(markdown)
    if any(key != "" for key in sections):
        return {k: v for k, v in sections.items() if k != ""}, sections.get("", ""), True
    return split_paragraphs(markdown), "", False


# --- words -------------------------------------------------------------------------------

# A link's target and its hover title ("[#12](url "Fix the loader")) are not read text.
_MD_LINK = re.compile(r'!?\[([^\[\]\n]*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+"[^"\n]*")?\)')
_SLACK_LINK = re.compile(r"<(?:https?://)[^\s<>|]+\|([^<>\n]*)>")
_URL = re.compile(r"<?https?://[^\s<>]+>?")
_WORD = re.compile(r"\w+(?:['’]\w+)*")
_STOPWORDS = frozenset(
    [
        "a",
        "about",
        "after",
        "all",
        "also",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "more",
        "most",
        "no",
        "not",
        "now",
        "of",
        "on",
        "one",
        "or",
        "our",
        "out",
        "over",
        "she",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "up",
        "was",
        "we",
        "were",
        "what",
        "when",
        "which",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)


def _words(text: str) -> list[str]:
    """The words of `text`, case-folded, without Markdown markup, link targets or URLs."""
    text = _MD_LINK.sub(r"\1", text)
    text = _SLACK_LINK.sub(r"\1", text)
    text = _URL.sub(" ", text)
    return _WORD.findall(text.casefold())


def _content_words(text: str) -> set[str]:
    return {w for w in _words(text) if w not in _STOPWORDS}


def _jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)


def _change(draft: str, reference: str) -> float:
    """1 - the similarity of the two texts' word sequences."""
    matcher = difflib.SequenceMatcher(None, _words(draft), _words(reference), autojunk=False)
    return 1.0 - matcher.ratio()


# --- PR references -----------------------------------------------------------------------

# (owner, name, number); owner and name are case-folded, None when the text did not say.
_Key = tuple[str | None, str | None, int]


@dataclass(frozen=True, slots=True)
class _PRs:
    """The distinct PR references of a text, normalised, in order of appearance."""

    refs: tuple[str, ...]
    keys: tuple[_Key, ...]

    def cites(self, key: _Key) -> bool:
        return any(_same(key, other) for other in self.keys)


def _prs(text: str, default_repo: str | None, aliases: Mapping[str, str] | None) -> _PRs:
    """The text's PRs, without the "#N" that count something else, as the drafter reads a
    week (`stray_numbers`: "generator #2" in a club's newsletter is no PR)."""
    refs: list[str] = []
    keys: list[_Key] = []
    found = [(ref.raw, normalise(ref, default_repo, aliases)) for ref in parse_pr_refs(text)]
    stray = stray_numbers(found)
    for raw, normalised in found:
        if (raw, normalised) in stray:
            continue
        key = _key(normalised)
        if key not in keys:
            refs.append(normalised)
            keys.append(key)
    return _PRs(tuple(refs), tuple(keys))


def _key(normalised: str) -> _Key:
    repo, _, number = normalised.rpartition("#")
    owner, _, name = repo.casefold().rpartition("/")
    return (owner or None, name or None, int(number))


def _same(a: _Key, b: _Key) -> bool:
    """The same PR, giving the benefit of the doubt where a side did not name the repo:
    "#12" matches any repo's 12, "MarinSkyRL#12" matches "owner/MarinSkyRL#12"."""
    if a[2] != b[2]:
        return False
    if a[1] is None or b[1] is None:
        return True
    if a[1] != b[1]:
        return False
    return a[0] is None or b[0] is None or a[0] == b[0]


# --- people and figures ------------------------------------------------------------------

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'"})


def _names_in(text: str, pattern: re.Pattern[str] | None, by_form: Mapping[str, str]) -> list[str]:
    """The known names `text` mentions as whole words, in order of first mention."""
    if pattern is None:
        return []
    found: dict[str, None] = {}
    for match in pattern.finditer(text.translate(_APOSTROPHES)):
        found.setdefault(by_form[" ".join(match[0].split())], None)
    return list(found)


def _names_pattern(people: Iterable[str]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """One regex for all names (longest first, so "Will Held" wins over "Will") and the map
    from a matched name's normal form back to the name as given."""
    by_form: dict[str, str] = {}
    for name in people:
        form = " ".join(name.translate(_APOSTROPHES).split())
        if len(form) >= 2:
            by_form.setdefault(form, name.strip())
    if not by_form:
        return None, by_form
    alternatives = [
        r"\s+".join(re.escape(part) for part in form.split())
        for form in sorted(by_form, key=len, reverse=True)
    ]
    return re.compile(rf"(?<!\w)(?:{'|'.join(alternatives)})(?!\w)"), by_form


def _figure_in(figure: str, text: str) -> bool:
    """Whether `figure` appears verbatim in `text`, not as part of a longer number or word."""
    return re.search(rf"(?<![\w#/.,:-]){re.escape(figure)}(?!\w)", text) is not None


# --- evaluation --------------------------------------------------------------------------


def evaluate(
    draft_markdown: str,
    reference_markdown: str,
    *,
    people: Sequence[str] = (),
    default_repo: str | None = None,
    repo_aliases: Mapping[str, str] | None = None,
    topics: Mapping[str, str] | None = None,
    bots: Sequence[str] = (),
) -> Evaluation:
    """Measure `draft_markdown` against `reference_markdown`.

    `people` are the names the workspace knows (display names): a name counts when it appears
    as a whole word. PR references are normalised with `default_repo` and `repo_aliases` as
    the drafts are. `topics` maps a section title to its topic id (case-insensitive); a
    section without one gets an id made from its title.
    """
    repo = default_repo or None
    draft_sections, draft_rest, draft_headed = _parts(draft_markdown)
    ref_sections, ref_rest, ref_headed = _parts(reference_markdown)
    draft_text = "\n\n".join([draft_rest, *draft_sections.values()])
    ref_text = "\n\n".join([ref_rest, *ref_sections.values()])

    # Recall over the whole texts.
    draft_prs = _prs(draft_text, repo, repo_aliases)
    ref_prs = _prs(ref_text, repo, repo_aliases)
    found_prs = [key for key in ref_prs.keys if draft_prs.cites(key)]
    missing_prs = [r for r, k in zip(ref_prs.refs, ref_prs.keys, strict=True) if k not in found_prs]
    extra_prs = [
        r for r, k in zip(draft_prs.refs, draft_prs.keys, strict=True) if not ref_prs.cites(k)
    ]

    pattern, by_form = _names_pattern(people)
    ref_people = _names_in(ref_text, pattern, by_form)
    draft_people = set(_names_in(draft_text, pattern, by_form))
    missing_people = [name for name in ref_people if name not in draft_people]

    ref_figures = list(dict.fromkeys(find_figures(ref_text)))
    missing_figures = [f for f in ref_figures if not _figure_in(f, draft_text)]

    # Sections: match each draft section to a reference section, measure the change.
    ref_section_prs = {k: _prs(v, repo, repo_aliases) for k, v in ref_sections.items()}
    ref_section_words = {k: _content_words(v) for k, v in ref_sections.items()}
    titles = {_title_key(k): k for k in ref_sections} if draft_headed and ref_headed else {}
    folded_topics = {_title_key(t): i for t, i in (topics or {}).items()}
    scores: list[SectionScore] = []
    matched: dict[str, str | None] = {}
    for title, body in draft_sections.items():
        section_prs = _prs(body, repo, repo_aliases)
        match = titles.get(_title_key(title))
        if match is None:
            match = _best_match(
                section_prs, _content_words(body), ref_section_prs, ref_section_words
            )
        matched[title] = match
        change = _change(body, ref_sections[match]) if match is not None else 1.0
        topic = title if not draft_headed else folded_topics.get(_title_key(title), _slug(title))
        scores.append(SectionScore(topic, title, match, change))

    # Placement: a PR both cite in their sections is placed right when a draft section citing
    # it matches a reference section citing it.
    draft_section_prs = {t: _prs(b, repo, repo_aliases) for t, b in draft_sections.items()}
    placed = placeable = 0
    for key in found_prs:
        holders = {r for r, prs in ref_section_prs.items() if prs.cites(key)}
        citing = [t for t, prs in draft_section_prs.items() if prs.cites(key)]
        if not holders or not citing:
            continue
        placeable += 1
        placed += any(matched[t] in holders for t in citing)

    ref_intro = _introductions(ref_sections, topics)
    draft_intro = _introductions(draft_sections, topics)
    newcomers = _names_in(ref_intro, pattern, by_form) if ref_intro else []
    introduced = set(_names_in(draft_intro, pattern, by_form))
    missing_newcomers = [name for name in newcomers if name not in introduced]

    matched_refs = set(matched.values())
    return Evaluation(
        pr_recall=_share(len(found_prs), len(ref_prs.keys)),
        people_recall=_share(len(ref_people) - len(missing_people), len(ref_people)),
        figure_recall=_share(len(ref_figures) - len(missing_figures), len(ref_figures)),
        placement=_share(placed, placeable),
        sections=scores,
        missing_prs=missing_prs,
        missing_people=missing_people,
        extra_prs=extra_prs,
        prs_found=len(found_prs),
        prs_total=len(ref_prs.keys),
        people_found=len(ref_people) - len(missing_people),
        people_total=len(ref_people),
        figures_found=len(ref_figures) - len(missing_figures),
        figures_total=len(ref_figures),
        placed=placed,
        placeable=placeable,
        missing_figures=missing_figures,
        unmatched_reference=[k for k in ref_sections if k not in matched_refs],
        reference_empty=not ref_text.strip(),
        rouge1=rouge_n(draft_markdown, reference_markdown, 1),
        rouge2=rouge_n(draft_markdown, reference_markdown, 2),
        draft_words=word_count(draft_markdown),
        reference_words=word_count(reference_markdown),
        cut_lines=cut_sentences(draft_markdown),
        bots_named=[b for b in bots if f"**{b}**" in draft_text],
        newcomers_found=len(newcomers) - len(missing_newcomers),
        newcomers_total=len(newcomers),
        missing_newcomers=missing_newcomers,
        reference_headed=ref_headed,
    )


def _introductions(sections: Mapping[str, str], topics: Mapping[str, str] | None) -> str:
    """The text of the introductions section (by topic id, or a title saying so), or ""."""
    ids = {_title_key(t): i for t, i in (topics or {}).items()}
    return "\n".join(
        body
        for title, body in sections.items()
        if ids.get(_title_key(title)) == "introductions" or "introduc" in title.lower()
    )


def _best_match(
    prs: _PRs,
    words: set[str],
    ref_prs: Mapping[str, _PRs],
    ref_words: Mapping[str, set[str]],
) -> str | None:
    """The reference section sharing most PRs, then most words; None when none is close."""
    best: tuple[int, float] = (0, 0.0)
    best_key: str | None = None
    for key in ref_prs:
        shared = sum(1 for k in prs.keys if ref_prs[key].cites(k))
        score = (shared, _jaccard(words, ref_words[key]))
        if score > best:
            best, best_key = score, key
    if best[0] == 0 and best[1] < MIN_WORD_OVERLAP:
        return None
    return best_key


def _title_key(title: str) -> str:
    return " ".join(title.casefold().split())


def _slug(title: str) -> str:
    return "-".join(_WORD.findall(title.casefold())) or "section"


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


# --- text figures: length, ROUGE, cut sentences ----------------------------------------


def word_count(markdown: str) -> int:
    """The words of `markdown` as a reader counts them: no link targets, URLs or markup,
    nor HTML comments and notes for the editor."""
    return len(_words(_clean(markdown)))


def rouge_n(candidate: str, reference: str, n: int = 1) -> float:
    """ROUGE-N F1 of `candidate` against `reference`: the harmonic mean of the shares of
    each text's word n-grams (case-folded, counted with multiplicity) found in the other.
    Link targets, URLs, HTML comments and notes for the editor are left out."""
    grams = [_ngrams(_words(_clean(text)), n) for text in (candidate, reference)]
    overlap = sum((grams[0] & grams[1]).values())
    if not overlap:
        return 0.0
    precision = overlap / sum(grams[0].values())
    recall = overlap / sum(grams[1].values())
    return 2 * precision * recall / (precision + recall)


def _ngrams(words: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


# A line ends a sentence when its last character, after closing quotes, brackets and
# emphasis, is one of these.
_TERMINAL = (".", "!", "?", "。", "！", "？")  # (and the full-width stops of CJK)
_CLOSERS = "\"')]}*_`’”"
_ELLIPSIS = ("…", "...")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# Inside a line: an ellipsis or a colon right before a bolded speaker label ("tweak them:
# **Ana**: ..."), where a quote was cut or the list or code it announced was dropped.
_CUT_INSIDE = re.compile(r"(?:…|\.\.\.|:)\s+\*\*[^*\n]+\*\*:")


def cut_sentences(markdown: str) -> list[str]:
    """The lines of `markdown` that stop mid-sentence: every bullet or prose line that
    ends with an ellipsis ("…", "...") or without terminal punctuation (".", "!", "?",
    possibly followed by closing quotes, brackets or emphasis), such as "tweak them:", and
    every line where an ellipsis or a colon runs straight into a bolded speaker label
    ("tweak them: **Ana**: ...").

    Headings, blank lines, code fences and their contents, tables, block quotes and the
    "# " title are not sentences and are never reported. A prose paragraph wrapped over
    several lines is judged on its last line only.
    """
    cut: list[str] = []
    lines = _clean(markdown).split("\n")
    fence: str | None = None
    for index, line in enumerate(lines):
        fence_match = _FENCE.match(line)
        if fence_match:
            fence = None if fence and fence_match[1][0] == fence[0] else fence or fence_match[1]
            continue
        stripped = line.strip()
        if fence or not stripped or stripped.startswith(("#", "|", ">")):
            continue
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        continues = following and not following.startswith(("#", "|", ">", "`", "~"))
        wrapped = continues and not _LIST_ITEM.match(following)  # judged on its last line
        end = stripped.rstrip(_CLOSERS).rstrip()
        ends_cut = end.endswith(_ELLIPSIS) or not end.endswith(_TERMINAL)
        if (ends_cut and not wrapped) or _CUT_INSIDE.search(line) or _unclosed(stripped):
            cut.append(stripped)
    return cut


def _unclosed(line: str) -> bool:
    """Whether a bracket opened in `line`'s prose is never closed ("remat policy (full vs.
    Every arm is ..."): the rest of its sentence was dropped. Code spans are not prose."""
    prose = CODE_SPAN_RE.sub("", line)
    return prose.count("(") > prose.count(")")


# --- report ------------------------------------------------------------------------------

_CELL_MAX = 40


def report(evaluation: Evaluation) -> str:
    """The evaluation as a plain-text table, for a terminal."""
    e = evaluation
    lines: list[str] = []
    if e.reference_empty:
        lines += [
            "The reference is empty: there is nothing to recall, so every recall is 100%.",
            "",
        ]
    rows = [
        ("PR recall", e.pr_recall, _count(e.prs_found, e.prs_total, "reference PRs cited", "PR")),
        (
            "People recall",
            e.people_recall,
            _count(e.people_found, e.people_total, "people named", "known person"),
        ),
        (
            "Figure recall",
            e.figure_recall,
            _count(e.figures_found, e.figures_total, "figures kept verbatim", "figure"),
        ),
        (
            "Placement",
            e.placement,
            f"{e.placed} of {e.placeable} shared PRs in the matching section"
            if e.placeable
            else "no PR cited in sections of both",
        ),
    ]
    if e.newcomers_total:
        rows.append(
            (
                "Newcomers",
                e.newcomers_found / e.newcomers_total,
                f"{e.newcomers_found} of {e.newcomers_total} introduced in the reference",
            )
        )
    for name, value, detail in rows:
        lines.append(f"{name:<14} {_percent(value):>7}  {detail}")
    lines += [
        f"{'ROUGE-1 / 2':<14} {e.rouge1:>7.3f}  {e.rouge2:.3f} (F1 against the reference)",
        f"{'Words':<14} {e.draft_words:>7}  the reference has {e.reference_words}",
        f"{'Cut sentences':<14} {len(e.cut_lines):>7}",
        f"{'Bots as people':<14} {len(e.bots_named):>7}",
        "",
    ]

    kind = "Reference section" if e.reference_headed else "Reference paragraph"
    table = [("Section", kind, "Change")] + [
        (s.topic, s.reference_title or "(unmatched)", _percent(s.change)) for s in e.sections
    ]
    table = [(_cut(a), _cut(b), c) for a, b, c in table]
    if e.sections:
        w1 = max(len(row[0]) for row in table)
        w2 = max(len(row[1]) for row in table)
        lines += [f"{a:<{w1}}  {b:<{w2}}  {c:>7}" for a, b, c in table]
    else:
        lines.append("The draft has no sections.")
    if e.unmatched_reference:
        what = "sections" if e.reference_headed else "paragraphs"
        lines.append(
            f"Reference {what} no draft section matches: " + _listing(e.unmatched_reference)
        )
    lines.append("")

    for label, items in (
        ("Missing PRs", e.missing_prs),
        ("Missing people", e.missing_people),
        ("Missing figures", e.missing_figures),
        ("PRs only in the draft", e.extra_prs),
        ("Missing newcomers", e.missing_newcomers),
        ("Lines cut mid-sentence", [_cut(line) for line in e.cut_lines]),
        ("Bots named as people", e.bots_named),
    ):
        if items:
            lines.append(f"{label} ({len(items)}): {_listing(items)}")
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def _count(found: int, total: int, what: str, singular: str) -> str:
    if total == 0:
        return f"(the reference has no {singular}: nothing to recall)"
    return f"{found} of {total} {what}"


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _CELL_MAX else text[: _CELL_MAX - 1] + "…"


def _listing(items: Sequence[str]) -> str:
    shown = ", ".join(items[:REPORT_LIMIT])
    more = len(items) - REPORT_LIMIT
    return f"{shown}, and {more} more" if more > 0 else shown
