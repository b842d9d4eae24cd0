"""A link's preview is the page's words: drafts say what the member wrote and name the page
they linked by its title."""

from __future__ import annotations

from factories import msg
from test_extractive import draft

from summarizer.link_comments import joined_link_comments
from summarizer.previews import page_title, with_titles, written

PAGE = "https://example.org/"
PREVIEW = "DataFest 2019 - May 3rd & 4th\nWe're excited to announce our next main event"


def shared(words: str, preview: str = PREVIEW, **kw):
    """A member's message as the drafter gets it: their words, then the preview."""
    return msg(f"{words}\n{preview}", preview=preview, **kw)


def test_the_page_s_blurb_is_not_said_as_the_member_s_words() -> None:
    d = draft([shared(f"We've been hard at work on the launch of {PAGE}", author="Javi Ruiz")])
    text = "\n".join(s.markdown for s in d.sections)
    assert f'the launch of "DataFest 2019 - May 3rd & 4th" (<{PAGE}>)' in text
    assert "excited" not in text


def test_what_the_member_wrote_is_the_text_without_its_preview() -> None:
    message = shared(f"launch of {PAGE}")
    assert written(message) == f"launch of {PAGE}"
    assert written(msg("no preview here")) == "no preview here"


def test_a_page_is_named_once_and_only_by_a_title() -> None:
    named = shared(f"The DataFest 2019 - May 3rd & 4th site is up: {PAGE}")
    blurb = shared(f"see {PAGE}", preview="A long first line that is a blurb of the page " * 2)
    two_links = shared(f"{PAGE} and https://example.com/")
    untitled = msg(f"see {PAGE}")
    template = shared(f"see {PAGE}", preview="{{metaTag.description}}")
    question = shared(f"see {PAGE}", preview="Where would they all fit? | News site")
    alone = shared(PAGE)  # said as a share ('shared "DataFest ..."'), not as a sentence
    linked = shared(f"Slides from the call: [the deck]({PAGE})")  # the author named it
    for message in (named, blurb, two_links, untitled, template, question, alone, linked):
        assert with_titles(message) == written(message)
    assert page_title(blurb) is None and page_title(template) is None


def test_an_apology_opening_a_short_message_does_not_hide_its_news() -> None:
    launch = shared(
        f"Hey everyone! Sorry for the radio silence! We've been hard at work on the launch "
        f"of {PAGE}",
        author="Javi Ruiz",
    )
    text = "\n".join(s.markdown for s in draft([launch]).sections)
    assert '"DataFest 2019 - May 3rd & 4th"' in text and "Sorry" not in text


def test_a_link_pasted_alone_that_nobody_took_up_fills_only_a_short_draft() -> None:
    """Past half the draft's room, such a link is left out; one people reacted to is not."""
    long_reports = [
        msg(
            f"We finished the {channel} migration this week and it is 2.5x faster on the big "
            "boxes, with the plan for the next month, what went wrong last week, who looks at "
            "which part, and where the notes and slides are kept for anyone who missed the "
            f"call on Tuesday evening: https://example.org/{channel}",
            channel=channel,
            author=author,
            minutes=minutes,
        )
        for channel, author, minutes in (
            ("hero-run", "Ben Cho", 0),
            ("iris", "Lu Wen", 5),
            ("general", "Sam Roe", 10),
        )
    ]
    notes = [
        msg(
            f"Notes from the meetup on loader number {n}, with the slides and the recording of "
            f"the talk that followed it: https://example.org/notes/{n}",
            channel="data",
            author=f"Member {n}",
            minutes=60 * (n + 1),
        )
        for n in range(12)
    ]
    pasted = shared("https://example.org/fun", "Fun page", channel="data", author="Kofi Mensah")
    liked = shared("https://example.org/jam", "Jam repo", channel="data", reactions=4)
    text = "\n".join(s.markdown for s in draft([*long_reports, *notes, pasted, liked]).sections)
    assert '"Jam repo"' in text and "Notes from the meetup" in text
    assert "Fun page" not in text


def test_an_announced_page_says_what_is_announced() -> None:
    """An event's page says what the event is: an announcement quotes its first sentence."""
    event = shared(
        f"announced the March meetup {PAGE}",
        preview="Lab Meetup\nLightning&nbsp;talks, then a tour of plotting in Python. Doors at 6.",
        author="Javi Ruiz",
    )
    text = "\n".join(s.markdown for s in draft([event]).sections)
    assert (
        f'Javi Ruiz announced the March meetup "Lab Meetup" (<{PAGE}>): "Lightning talks, '
        'then a tour of plotting in Python"' in text
    )
    assert "Doors" not in text


def test_a_stop_after_a_link_ends_the_sentence_not_the_link() -> None:
    page = "https://example.org/guides/theming"
    message = shared(f"merged the guide just now: {page}. it covers the inline script")
    title = PREVIEW.splitlines()[0]
    assert with_titles(message) == (
        f'merged the guide just now: "{title}" (<{page}>). it covers the inline script'
    )


def test_a_comment_sent_apart_from_its_link_keeps_the_link_s_preview() -> None:
    comment = msg("slides from the tokenizer talk on Thursday", minutes=1, channel="data")
    link = shared(PAGE, minutes=2, channel="data")
    [share] = joined_link_comments([comment, link])
    assert share.preview == PREVIEW and share.text.endswith(PREVIEW)
    title = PREVIEW.splitlines()[0]
    assert with_titles(share) == f'slides from the tokenizer talk on Thursday "{title}" (<{PAGE}>)'


def test_a_link_pasted_with_an_unfilled_page_template_is_not_shared_by_it() -> None:
    dashboard = shared("https://example.org/dash", "{{metaTag.description}}", channel="data")
    text = "\n".join(s.markdown for s in draft([dashboard]).sections)
    assert "{{" not in text


def test_the_links_one_person_pasted_are_said_in_one_line() -> None:
    links = [
        shared(f"https://example.org/{slug}", title, channel="data", author=author, minutes=n)
        for n, (slug, title, author) in enumerate(
            [
                ("maps", "Hand-drawn maps", "Kofi Mensah"),
                ("type", "Type specimens", "Lu Wen"),
                ("tides", "Tide tables", "Kofi Mensah"),
                ("knots", "Knot atlas", "Kofi Mensah"),
            ]
        )
    ]
    lines = "\n".join(s.markdown for s in draft(links).sections).splitlines()
    assert (
        '- Kofi Mensah shared "Hand-drawn maps" (<https://example.org/maps>), "Tide tables" '
        '(<https://example.org/tides>) and "Knot atlas" (<https://example.org/knots>).'
    ) in lines
    assert '- Lu Wen shared "Type specimens": <https://example.org/type>.' in lines
    assert len(lines) == 2


def test_a_page_is_named_without_the_site_it_is_on() -> None:
    release = shared(f"changelog: {PAGE}", preview="Release v2.0-rc1 · acme/tools\nNotes")
    assert page_title(release) == "Release v2.0-rc1"
    assert page_title(shared(PAGE, preview="Free Cities Database | MaxMind")) == (
        "Free Cities Database"
    )


def test_a_pr_s_page_is_cited_as_a_pr_not_named_by_its_title() -> None:
    url = "https://github.com/acme/tools/pull/421"
    said = f"async output through I/O server ranks, should close the gap: {url}"
    message = shared(said, preview="Async output by rmendes · Pull Request #421 · acme/tools")
    assert with_titles(message) == said


def test_a_line_that_only_labels_a_link_does_not_lead_its_paragraph() -> None:
    text = "\n".join(
        s.markdown
        for s in draft(
            [
                shared(
                    "**Widget 2.0-rc1 is out** 🎉\n\nit has three new backends, a faster "
                    "loader for big scenes, a scripting console, and the old config format is "
                    "gone, with migration notes for every key that moved.\n\n"
                    f"downloads + changelog: {PAGE}\n"
                    "final 2.0 is planned for **March 24** if nothing catches fire",
                    preview="Release v2.0-rc1 · acme/widget\nNotes",
                    reactions=29,
                    pinned=True,
                )
            ]
        ).sections
    )
    assert "- Final 2.0 is planned for **March 24**" in text
    assert "Downloads + changelog" not in text


def test_a_link_labelled_in_chat_words_is_shared_by_the_page_s_title() -> None:
    preview = "Why constant-time code keeps breaking\nCompilers undo what you wrote."
    link = "https://research.example.org/blog/constant-time"
    read = shared(f"nice read for the weekend: {link}", preview=preview, reactions=3)
    text = "\n".join(s.markdown for s in draft([read]).sections)
    assert text == f'- Ana Ruiz shared "Why constant-time code keeps breaking": <{link}>.'
