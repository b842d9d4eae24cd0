"""A value someone corrected is drafted as corrected, saying what it was first reported as."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from factories import TOPICS, msg

from summarizer.corrections import corrected
from summarizer.draft import make_draft


def _drafted(*messages) -> str:
    summary = make_draft(
        messages,
        TOPICS,
        workspace="Lab",
        week_start=date(2026, 11, 16),
        title="Week",
        max_chars=12000,
    )
    return "\n".join(s.markdown for s in summary.sections)


def test_a_figure_corrected_in_its_thread_is_drafted_corrected() -> None:
    post = msg(
        "the scheduler landed (#2214). on the 96-sample benchmark wall time went from "
        "6h12m to 4h14m, with zero OOM kills",
        channel="iris",
        id="p1",
        thread_id="p1",
    )
    fixed = msg(
        "correction: wall time is *4h41m*, not 4h14m, I transposed the digits",
        channel="iris",
        thread_id="p1",
    )
    text = _drafted(post, fixed)
    assert "6h12m to 4h41m (first reported as 4h14m), with zero OOM kills" in text
    assert "correction" not in text.casefold()


def test_a_correction_giving_only_the_new_figure_replaces_the_one_of_its_unit() -> None:
    post = msg(
        "#412 is merged: payloads went from 1.9 KB to 1.17 KB per round, about 40% smaller",
        channel="data",
        id="p2",
    )
    fixed = msg("correction, 38% (1.90 → 1.17). rounded the wrong way", reply_to_id="p2")
    text = corrected([post, fixed])
    assert [m.text for m in text] == [
        "#412 is merged: payloads went from 1.9 KB to 1.17 KB per round, about 38% (first "
        "reported as 40%) smaller"
    ]


def test_a_time_corrected_in_a_reply_reads_corrected_and_others_corrections_do_not() -> None:
    night = msg("Build Night: Friday Oct 30, 7–10pm, Main Hall", id="p3", author="Gabi")
    fixed = msg(
        "correction: it starts at *6pm*, not 7. still ends at 10", reply_to_id="p3", author="Gabi"
    )
    talk = msg("the talk is at 5pm in room 12", id="p4", author="Bo")
    doubt = msg("correction: 6pm, not 5pm", reply_to_id="p4", author="Cy")
    vague = msg("we had 12 people, not bad for a Friday", reply_to_id="p4", author="Bo")
    kept = corrected([night, fixed, talk, doubt, vague])
    assert [m.text for m in kept] == [
        "Build Night: Friday Oct 30, 6pm–10pm, Main Hall",
        "the talk is at 5pm in room 12",
        "correction: 6pm, not 5pm",
        "we had 12 people, not bad for a Friday",
    ]


def test_a_correction_posted_on_its_own_fixes_its_author_s_last_post_of_that_count() -> None:
    recap = msg("thanks to the 31 people who came to office hours! recording is up", id="r1")
    other = msg("the 2.0 docs are live", author="Bo")
    fixed = msg("correction: 34 people, I missed the ones who joined late")
    kept = corrected([recap, other, fixed])
    assert [m.text for m in kept] == [
        "thanks to the 34 people (first reported as 31 people) who came to office hours! "
        "recording is up",
        "the 2.0 docs are live",
    ]


def test_a_reply_fixing_several_values_reads_each_and_says_the_stressed_one_was_first() -> None:
    post = msg(
        "cluster maintenance tomorrow: the new node goes in (node-5, 4x H100). "
        "after that we're at 36 GPUs",
        id="c1",
        thread_id="c1",
        author="Mo",
    )
    fixed = msg(
        "you're right, it's 8x H100, so *40 GPUs total*. my typo", thread_id="c1", author="Mo"
    )
    assert [m.text for m in corrected([post, fixed])] == [
        "cluster maintenance tomorrow: the new node goes in (node-5, 8x H100). "
        "after that we're at 40 GPUs (first reported as 36 GPUs)"
    ]


def test_another_s_correction_stands_where_the_author_or_the_readers_take_it_up() -> None:
    wrap = msg("sprint wrap-up: 8 people joined, 11 PRs opened", id="w1", thread_id="w1")
    fixed = msg("correction 9 people, Greta joined late", thread_id="w1", author="Mei")
    agreed = msg("9 people then! sorry Greta", thread_id="w1")
    assert corrected([wrap, fixed, agreed])[0].text == (
        "sprint wrap-up: 9 people (first reported as 8 people) joined, 11 PRs opened"
    )
    result = msg("day 2: 52/60 trials succeeded, 87% on the stairs", channel="hw", author="Jo")
    fixed = msg(
        "Correction on the stairs number: two trials had the harness take the weight, so "
        "it's *83%*, not 87%",
        channel="hw",
        author="Lena",
    )
    unread = corrected([result, fixed])
    assert unread[0].text == result.text  # nobody took it up
    read = corrected([result, replace(fixed, reactions=4)])
    assert (
        read[0].text == "day 2: 52/60 trials succeeded, 83% (first reported as 87%) on the stairs"
    )


def test_a_correction_that_cites_a_pr_is_kept_as_news() -> None:
    post = msg("the candidate is at magnitude 15.9 tonight", id="s1", author="Pri")
    fixed = msg(
        "Correction: re-reduced with the fix in #55, 9 comparison stars now. it's 16.4, not 15.9",
        author="Pri",
    )
    kept = corrected([post, fixed])
    assert kept[0].text == "the candidate is at magnitude 16.4 (first reported as 15.9) tonight"
    assert kept[1] is fixed


def test_agreeing_in_a_reply_later_on_corrects_nothing() -> None:
    post = msg("we have 3 GPUs left for the sweep", id="g1", thread_id="g1", author="Mo")
    reply = msg(
        "good point, you're right that 2 GPUs would do for the small arm",
        thread_id="g1",
        author="Mo",
    )
    assert corrected([post, reply]) == [post, reply]


def test_a_correction_saying_which_value_was_wrong_fixes_that_one_of_several() -> None:
    post = msg(
        "numbers for rc2 after a day: *91.4% of runs pass* (rc1 was 96.0%), worst on ARM",
        id="p9",
        thread_id="p9",
    )
    fixed = msg(
        "correction on the pass rate: the 91.4% was with the flaky nightly jobs mixed in. "
        "without them it's *95.2% of runs pass*, still below rc1 (96.0%)",
        thread_id="p9",
    )
    [text] = [m.text for m in corrected([post, fixed])]
    assert "*95.2% (first reported as 91.4%) of runs pass* (rc1 was 96.0%)" in text


def test_a_correction_naming_the_wrong_value_fixes_the_post_that_said_it() -> None:
    """Between the result and its correction the author posted another percentage: the
    correction names the value it replaces, so that post is left alone."""
    result = msg("bench for #88, 24h: median edge coverage *+6.3%*", id="r1", author="Piet")
    between = msg("the 3 runs per target were within 2.1% of each other", author="Piet")
    fixed = msg(
        "coverage correction: the +6.3% median edge coverage for #88 is wrong, one harness "
        "is flaky (+31% in one run). without it the median is *+4.1%*",
        author="Piet",
    )
    texts = [m.text for m in corrected([result, between, fixed])]
    assert texts[:2] == [
        "bench for #88, 24h: median edge coverage *+4.1% (first reported as +6.3%)*",
        between.text,
    ]


def test_a_correction_after_news_of_its_own_fixes_only_what_it_says_was_not() -> None:
    """A postmortem's second paragraph corrects its author's incident post in another
    channel ("14:07, not 14:12"); its own figures ("1M rows") change nothing else."""
    incident = msg(
        "publishing was down from 14:12 to 14:59 UTC", channel="news", id="i1", author="Anjali"
    )
    migration = msg("running the counter migration this week, ~40M rows", author="Anjali")
    postmortem = msg(
        "**Postmortem: publish outage** https://example.org/pm\n\n"
        "correction to what I posted yesterday: the outage started at **14:07**, not 14:12.\n"
        "• cause: migration chunk size was 1M rows instead of 10k",
        author="Anjali",
    )
    texts = [m.text for m in corrected([incident, migration, postmortem])]
    assert texts[0] == "publishing was down from 14:07 (first reported as 14:12) to 14:59 UTC"
    assert texts[1] == migration.text


def test_a_correction_giving_a_before_and_after_replaces_only_the_value_that_changed() -> None:
    """ "31 ms → 9 ms" corrects "84 ms ... 9 ms": the 9 ms the post already says stays, and
    the 84 ms it says was wrong becomes 31 ms."""
    post = msg(
        "benchmarks for #1497 on the 10k-line file: full reparse per keystroke was **84 ms**, "
        "incremental is **9 ms**. so about 9x",
        id="b1",
        author="Hiro",
    )
    fixed = msg(
        "correction on yesterday's numbers: the 84 ms was from a debug build. release build: "
        "full reparse **31 ms → 9 ms** incremental. so ~3.4x, not 9x",
        reply_to_id="b1",
        author="Hiro",
    )
    [text] = [m.text for m in corrected([post, fixed])]
    assert "full reparse per keystroke was **31 ms (first reported as 84 ms)**" in text
    assert "incremental is **9 ms**. so about 3.4x" in text


def test_a_post_saying_which_figure_is_wrong_fixes_its_author_s_post_in_another_channel() -> None:
    """A release note's figure, said to be wrong later in another channel by its author,
    reads corrected; the correction, said, is left out."""
    notes = msg(
        "## widget 0.14.0\n- Incremental parsing (#1497)\n- Memory usage down 40% on large "
        "workspaces",
        channel="releases",
        author="Priya",
    )
    other = msg("the nightly job takes 40% longer on ARM, looking into it", author="Priya")
    wrong = msg(
        'heads up: the "memory usage down 40%" line in the 0.14.0 notes is wrong, it was '
        "measured with the cache disabled. with default settings it's **24%** (1.9 GB → "
        "1.45 GB)",
        author="Priya",
    )
    texts = [m.text for m in corrected([notes, other, wrong])]
    assert "Memory usage down 24% (first reported as 40%) on large workspaces" in texts[0]
    assert texts[1:] == [other.text]


def test_a_figure_said_to_be_wrong_without_its_replacement_changes_nothing() -> None:
    post = msg("the import now takes 12 s for 1M rows", author="Ana", id="x1")
    doubt = msg("hmm, the 12 s is wrong I think, my laptop says 14 s or 15 s", author="Ana")
    assert [m.text for m in corrected([post, doubt])] == [post.text, doubt.text]


def test_an_edit_naming_the_value_it_replaces_fixes_a_figure_without_a_unit() -> None:
    run = msg("weekend run: 7b model + 1,200 synthetic pairs -> +1.3 BLEU on the ES dev set")
    edit = msg("edit: +1.3 was with the old dev refs again. on the new refs it's **+0.8** BLEU")
    assert [m.text for m in corrected([run, edit])] == [
        "weekend run: 7b model + 1,200 synthetic pairs -> +0.8 BLEU (first reported as +1.3 "
        "BLEU) on the ES dev set"
    ]


def test_corrections_to_a_release_post_fix_each_value_they_name() -> None:
    notes = msg(
        "*Widget 2.6.0 is out*\n• mosaic is *3.1x faster* and peak memory drops from *14 GB "
        "to 5 GB*\n• Python 3.9 is dropped",
        channel="releases",
        author="Ingrid",
    )
    fixed = msg(
        "Two corrections to the 2.6.0 highlights: the speedup is *2.4x* on a cold cache (3.1x "
        "was a warm-cache run), and peak memory goes from 14 GB to *5.8 GB*, not 5 GB.",
        channel="releases",
        author="Ingrid",
    )
    [text] = [m.text for m in corrected([notes, fixed])]
    assert "mosaic is *2.4x (first reported as 3.1x) faster*" in text
    assert "from *14 GB to 5.8 GB*" in text


def test_a_date_corrected_as_not_the_earlier_one_reads_corrected() -> None:
    post = msg("JCP decision: *minor revision*! Resubmission due *Dec 4*.", id="j1")
    fixed = msg(
        "Correction on the deadline: I misread the letter, resubmission is due *Dec 14*, not Dec 4",
        thread_id="j1",
    )
    assert [m.text for m in corrected([post, fixed])] == [
        "JCP decision: *minor revision*! Resubmission due *Dec 14 (first reported as Dec 4)*."
    ]


def test_a_reacted_to_correction_of_another_s_announcement_in_another_channel_stands() -> None:
    announced = msg(
        "**Dev set v2.1 is out!**\n- dev set: 1,250 document pairs (EN 640 / ES 610)",
        channel="announcements",
        author="Lucia",
    )
    fixed = msg(
        "Small correction to the announcement: the dev set is **1,205** pairs, not 1,250.",
        channel="data",
        author="Marta",
        reactions=12,
    )
    texts = [m.text for m in corrected([announced, fixed])]
    assert "dev set: 1,205 (first reported as 1,250) document pairs" in texts[0]
    assert texts[1] == fixed.text  # (it says who found it)


def test_a_reply_saying_its_author_swapped_the_digits_fixes_the_post() -> None:
    post = msg("thanks all for coming! peak was 1,340 viewers, never had that many", id="k1")
    fixed = msg(
        "ok I swapped the digits, the dashboard says peak **1,430** viewers", reply_to_id="k1"
    )
    assert [m.text for m in corrected([post, fixed])] == [
        "thanks all for coming! peak was 1,430 (first reported as 1,340) viewers, never had "
        "that many"
    ]


def test_a_reacted_to_post_saying_a_figure_is_not_what_was_posted_corrects_it() -> None:
    """Meeting notes give a result; its author, in a post of his own that people reacted to,
    says it is 71%, not 78%."""
    notes = msg(
        "Lab meeting notes:\n• Kevin: decoding from V1 data, 78% held-out accuracy (chance "
        "12.5%)\n• Ruth: spikeflow 2.3 is ready",
        author="Sophie",
    )
    update = msg(
        "update on the decoding number: with a proper split it's *71%*, not 78% (chance still "
        "12.5%)",
        author="Kevin",
        reactions=9,
    )
    texts = [m.text for m in corrected([notes, update])]
    assert "71% (first reported as 78%) held-out accuracy" in texts[0]


def test_advice_saying_a_bare_number_is_not_another_corrects_nothing() -> None:
    asked = msg("I set 8 workers and it still crawls", author="Bo")
    advice = msg("use 4, not 8, the box has 4 cores", author="Ana", reactions=3)
    assert [m.text for m in corrected([asked, advice])] == [asked.text, advice.text]


def test_a_post_saying_the_corrected_value_already_is_left_as_it_is() -> None:
    notes = msg("*Widget 2.6.0 is out*: the mosaic is *3.1x faster*", author="Ingrid")
    rerun = msg("reran it with a cold cache: 412 s -> 172 s, so *2.4x*, not 3.1x", author="Kenji")
    fixed = msg(
        "Correction to the 2.6.0 notes: the speedup is *2.4x* on a cold cache (3.1x was a "
        "warm-cache run)",
        author="Ingrid",
        reactions=4,
    )
    texts = [m.text for m in corrected([notes, rerun, fixed])]
    assert texts == [
        "*Widget 2.6.0 is out*: the mosaic is *2.4x (first reported as 3.1x) faster*",
        rerun.text,
    ]


def test_a_reply_opening_with_the_right_count_fixes_another_s_post_the_author_agrees() -> None:
    post = msg(
        "fyi Oskar ran 19,000 jobs on rc.1 overnight with zero runner failures",
        author="Tomasz",
        id="t1",
        thread_id="t1",
    )
    fixed = msg(
        "1,900 :sweat_smile: not 19k. we're big but not that big", author="Oskar", thread_id="t1"
    )
    agreed = msg("oops, 1,900. still great", author="Tomasz", thread_id="t1")
    texts = [m.text for m in corrected([post, fixed, agreed])]
    assert texts[0] == (
        "fyi Oskar ran 1,900 (first reported as 19,000) jobs on rc.1 overnight with zero "
        "runner failures"
    )


def test_a_correction_giving_a_product_fixes_the_factor_of_the_replaced_value_s_unit() -> None:
    post = replace(
        msg(
            "Finally finished the Horsehead from the new moon\n"
            "64 × 180 s subs at gain 100 = 3 h 12 min total, 3 nights in a Bortle 4 backyard",
            channel="data",
            id="p1",
        ),
        reactions=14,
    )
    fixed = msg(
        "correction, sorry: it's *48 × 180 s*, not 64. threw out 16 subs from the 12th",
        channel="data",
        reply_to_id="p1",
    )
    assert "48 (first reported as 64) × 180 s subs" in _drafted(post, fixed)


def test_a_count_stressed_alone_corrects_the_count_the_post_stresses() -> None:
    post = msg("Fair done! **7 dogs adopted today**, 3 applications pending", id="p1")
    fixed = msg(
        "Correction: it's **8**! The Hendersons came back for Biscuit. We're down to 38 dogs",
        reply_to_id="p1",
        author="Carmen Ruiz",
        reactions=2,
    )
    assert corrected([post, fixed])[0].text == (
        "Fair done! **8 dogs (first reported as 7 dogs) adopted today**, 3 applications pending"
    )
    # What is left after it is no correction of the count.
    post = msg("Fair done! 7 dogs adopted today, 3 applications pending", id="p2")
    fixed = replace(fixed, text="Correction: 8 adopted! We're down to 38 dogs", reply_to_id="p2")
    assert "38" not in corrected([post, fixed])[0].text


def test_a_correction_whose_value_has_a_unit_of_any_letters_is_read() -> None:
    post = replace(
        msg("refinement done!! the map is at *2.6 Å* from 148,512 particles", channel="data",
            id="p1"),
        reactions=12,
    )  # fmt: skip
    fixed = msg(
        "ok the auto mask was too tight. with a soft mask it's *2.9 Å*, not 2.6. sorry",
        channel="data",
        reply_to_id="p1",
    )
    assert "2.9 (first reported as 2.6)" in _drafted(post, fixed)


def test_a_value_a_correction_says_as_a_change_replaces_nothing() -> None:
    post = replace(
        msg("**The contest winners!** 31 entries and about 1,900 votes, thank you all",
            channel="data", id="p1"),
        reactions=20,
    )  # fmt: skip
    fixed = msg(
        "small correction to the results: we removed **9 votes** from alt accounts on "
        "Mirela's entry. Same podium",
        channel="data",
        reply_to_id="p1",
    )
    text = _drafted(post, fixed)
    assert "about 1,900 votes" in text and "first reported as" not in text


def test_a_post_already_saying_the_corrected_values_is_left_as_it_says() -> None:
    # The post was edited after the question; the reply restates it. Its other value of the
    # unit (the cap) is not the one the reply corrects.
    post = msg(
        "Storage changes from March 1: the default lab quota goes from 5 TB to *10 TB* "
        "(20 TB is the most you can get without a justification form)",
        id="p9",
        author="Tom",
    )
    asked = msg("20 TB by default? is that right?", reply_to_id="p9", author="Ravi")
    fixed = msg(
        "ah no, my mistake: the default goes to *10 TB* (from 5). 20 TB is the cap. I've "
        "edited the post",
        reply_to_id="p9",
        author="Tom",
    )
    assert [m.text for m in corrected([post, asked, fixed])] == [post.text, asked.text]


def test_a_bilingual_correction_of_a_rate_posted_on_its_own_fixes_the_author_s_post() -> None:
    post = msg(
        "tile benchmark, main vs 0.19.0: z12 renders 2,870 tiles/s on main, 2,150 on 0.19.0",
        author="Jonas",
        reactions=13,
    )
    fixed = msg(
        "*Korrektur / correction* to yesterday's benchmark: the z12 run had a warm cache. "
        "Re-ran it cold: z12 on main is *2,310 tiles/s*, not 2,870.",
        author="Jonas",
        reactions=8,
    )
    assert [m.text for m in corrected([post, fixed])] == [
        "tile benchmark, main vs 0.19.0: z12 renders 2,310 (first reported as 2,870) tiles/s "
        "on main, 2,150 on 0.19.0"
    ]


def test_a_score_corrected_is_read_corrected() -> None:
    post = msg("GGs! we beat PPU 2-1: bind 13-11, haven 9-13, lotus 13-7", id="s1", author="JH")
    fixed = msg("correction: lotus was **13-10**, not 13-7. the sheet has 13-10", author="JH")
    assert [m.text for m in corrected([post, fixed])] == [
        "GGs! we beat PPU 2-1: bind 13-11, haven 9-13, lotus 13-10 (first reported as 13-7)"
    ]


def test_a_correction_in_a_thread_that_opened_without_a_message_fixes_its_author_s_post() -> None:
    table = msg(
        "nightly 11-16: 88,412 sprites, 11.3 ms frame time, 34,000 draw calls",
        id="t1",
        author="Kenji",
        thread_id="thread-9",
        channel="bench-regression",
    )
    fixed = msg(
        "correction to my table: 3,400 draw calls, not 34,000. fat fingers",
        author="Kenji",
        thread_id="thread-9",
        channel="bench-regression",
    )
    assert [m.text for m in corrected([table, fixed])] == [
        "nightly 11-16: 88,412 sprites, 11.3 ms frame time, 3,400 (first reported as 34,000) "
        "draw calls"
    ]


def test_a_correction_giving_the_unit_only_with_the_right_value_fixes_the_post() -> None:
    post = msg("parse on 1.8.3: 41.2s. rc1: 24.5s", id="r1", author="Dmitri")
    fixed = msg("sorry, 25.4s not 24.5. fat fingers.", author="Dmitri", reply_to_id="r1")
    assert [m.text for m in corrected([post, fixed])] == [
        "parse on 1.8.3: 41.2s. rc1: 25.4s (first reported as 24.5s)"
    ]


def test_a_room_another_corrects_and_its_announcer_confirms_reads_corrected() -> None:
    post = msg(
        "the Tuesday 4-6pm office hours move to Keller 2-206 for the rest of the term",
        id="o1",
        author="Devon",
    )
    fixed = msg("it's 2-260, not 2-206, they were in there last week", reply_to_id="o1")
    agreed = msg("oops yes, Keller 2-260", author="Devon", reply_to_id="o1")
    assert corrected([post, fixed, agreed])[0].text == (
        "the Tuesday 4-6pm office hours move to Keller 2-260 (first reported as 2-206) for the "
        "rest of the term"
    )


def test_a_value_corrected_with_a_unit_leaves_a_number_counting_something_else() -> None:
    post = msg("Circuit night: 22 riders. Best lap Dmitri 6:12, Marco 6:34", id="c1", author="D")
    fixed = msg(
        "correction: my lap was **6:21**, not 6:12, and Marco was only 13 s behind, not 22",
        author="D",
        reply_to_id="c1",
    )
    assert corrected([post, fixed])[0].text == (
        "Circuit night: 22 riders. Best lap Dmitri 6:21 (first reported as 6:12), Marco 6:34"
    )


def test_a_correction_saying_not_in_capitals_fixes_the_announcement() -> None:
    post = msg("LIVE SHOW at the Larkspur Room: Saturday June 13, doors 7pm", id="l1", author="T")
    fixed = msg("CORRECTION it's **Saturday June 20**, NOT June 13", author="T", reply_to_id="l1")
    assert corrected([post, fixed])[0].text == (
        "LIVE SHOW at the Larkspur Room: Saturday June 20 (first reported as June 13), doors 7pm"
    )


def test_an_announcement_its_author_thanks_another_for_correcting_is_drafted_corrected() -> None:
    post = msg(
        "Room change: starting tomorrow, the 4-6pm office hours move from Keller 3-115 to "
        "Keller 2-206 for the rest of the term",
        id="o2",
        thread_id="o2",
        author="Devon",
        reactions=3,
    )
    fixed = msg("it's 2-260, not 2-206, they were in there last week", thread_id="o2")
    thanks = msg("oops yes, Keller 2-260. thanks! calendar fixed", author="Devon", thread_id="o2")
    text = _drafted(post, fixed, thanks)
    assert "to Keller 2-260 (first reported as 2-206) for the rest of the term" in text
    assert "storage" not in text and "it's 2-260" not in text.lower()


def test_a_score_corrected_in_brackets_is_read_corrected() -> None:
    table = msg("evals at step 96k: MMLU 28.0 at 48k, 31.8 at 96k", id="v1", author="Mei")
    fixed = msg(
        "correction: MMLU is **27.4 at 96k** (not 31.8), the few-shot split leaked",
        author="Mei",
        reply_to_id="v1",
    )
    assert corrected([table, fixed])[0].text == (
        "evals at step 96k: MMLU 28.0 at 48k, 27.4 (first reported as 31.8) at 96k"
    )


def test_a_range_corrected_is_replaced_whole_never_half_changed() -> None:
    post = msg("New pickup point at the library: Tuesdays 2–5pm, Thursdays 10am–1pm", id="h1")
    fixed = msg("Tuesdays are 3–6pm, not 2–5, sorry", reply_to_id="h1")
    assert corrected([post, fixed])[0].text == (  # (not "Tuesdays 6pm–5pm")
        "New pickup point at the library: Tuesdays 3–6pm (first reported as 2–5pm), "
        "Thursdays 10am–1pm"
    )
    talk = msg("Guest talk: *Tuesday 27 October, 15:00–16:00*, Lecture Theatre 3", id="t1")
    fixed = msg(
        "Small correction for the talk: it's *14:00–15:00*, not 15:00–16:00 (LT3 is booked "
        "at 15:10, my mistake). Still Tuesday 27 Oct",
        author=talk.author,
    )
    assert corrected([talk, fixed])[0].text == (
        "Guest talk: *Tuesday 27 October, 14:00–15:00 (first reported as 15:00–16:00)*, "
        "Lecture Theatre 3"
    )


def test_a_post_comparing_the_wrong_value_with_the_right_one_is_left_as_it_says() -> None:
    table = msg("evals: HellaSwag 56.8, MMLU 31.8 at 96k", id="w1", author="Mei")
    rerun = msg("MMLU rerun at 96k: 31.8 with test-split shots, 27.4 with dev-split shots")
    fixed = msg(
        "correction to my table: MMLU is **27.4 at 96k** (not 31.8), the shots leaked",
        author="Mei",
        reactions=4,
    )
    assert [m.text for m in corrected([table, rerun, fixed])] == [
        "evals: HellaSwag 56.8, MMLU 27.4 (first reported as 31.8) at 96k",
        rerun.text,
    ]


def test_a_question_saying_what_a_value_was_not_is_taken_once_the_poster_agrees() -> None:
    post = msg(
        "Tonight's meetup moves to the annex: room 4B, door code 2291, bring your badge",
        id="a1",
        thread_id="a1",
        author="Rosa",
    )
    asked = msg("Rosa isn't the door code 2219 not 2291? 2291 is the old one", thread_id="a1")
    agreed = msg("ugh yes, sorry! code 2219", author="Rosa", thread_id="a1")
    assert corrected([post, asked, agreed])[0].text == (
        "Tonight's meetup moves to the annex: room 4B, door code 2219 (first reported as 2291), "
        "bring your badge"
    )


def test_the_same_question_without_the_posters_word_changes_nothing() -> None:
    post = msg("Door code for the annex is 2291", id="a2", thread_id="a2", author="Rosa")
    asked = msg("isn't it 2219 not 2291?", thread_id="a2")
    assert corrected([post, asked])[0].text == "Door code for the annex is 2291"


def test_a_corrected_table_posted_anew_leaves_the_first_table_as_it_was() -> None:
    first = msg(
        "first count, not final:\n```\nteams     41\npoints    1,406\nbonus     250\n```",
        id="t1",
        author="Sven",
    )
    again = msg(
        "corrected count after the recheck:\n"
        "```\nteams     41\npoints    1,392\nbonus     250\n```",
        id="t2",
        author="Sven",
    )
    assert [m.text for m in corrected([first, again])] == [first.text, again.text]


def test_a_count_is_never_read_across_a_line_break() -> None:
    post = msg("sign-ups so far:\nriders: 46\nteams: 12", id="s1", author="Jo")
    fixed = msg("correction: riders: 48\nteams: 12", author="Jo", reply_to_id="s1")
    assert corrected([post, fixed])[0].text.splitlines()[1:] == [
        "riders: 48 (first reported as 46)",
        "teams: 12",
    ]


def test_a_total_given_anew_after_its_label_replaces_the_posts() -> None:
    post = msg(
        "Friday total: **$2,960**! That's $2,100 online + $360 cash + the shop's $500 cheque",
        id="d1",
        thread_id="d1",
        author="Priya",
        reactions=12,
    )
    fixed = msg(
        "Correction: the shop's $500 cheque was their online gift, I counted it twice. "
        "Real Friday total: **$2,460**. Still 62% there!",
        thread_id="d1",
        author="Priya",
    )
    assert corrected([post, fixed])[0].text.startswith(
        "Friday total: **$2,460 (first reported as $2,960)**!"
    )


def test_a_start_time_corrected_to_the_half_hour_replaces_the_hour_as_written() -> None:
    post = msg("Cleanup day moves to Sunday, same place, same time 9am", id="h1", author="Mo")
    fixed = msg("correction for Sunday: we start at **9:30**, not 9", author="Mo", reply_to_id="h1")
    assert corrected([post, fixed])[0].text == (
        "Cleanup day moves to Sunday, same place, same time 9:30am (first reported as 9am)"
    )


def test_a_time_with_its_zone_corrected_in_its_thread_says_the_zone_once_each() -> None:
    post = msg(
        "change of plan: the call moves from Thursday to **Friday 27 March**, same time 17:00 CET",
        id="z1",
        thread_id="z1",
        author="Zofia",
    )
    fixed = msg(
        "correction, sorry: Friday's call is at **16:00 CET** (hard stop), not 17:00",
        thread_id="z1",
        author="Zofia",
    )
    assert corrected([post, fixed])[0].text.endswith(
        "same time 16:00 CET (first reported as 17:00 CET)"
    )


def test_a_value_corrected_within_brackets_says_what_it_was_within_them() -> None:
    post = msg("Community call #7 is this Wednesday, 18:00 CEST (17:00 UTC)", id="b1", author="I")
    fixed = msg("correction: 18:00 CEST is **16:00 UTC**, not 17:00", author="I", reply_to_id="b1")
    assert corrected([post, fixed])[0].text == (
        "Community call #7 is this Wednesday, 18:00 CEST (16:00 UTC, first reported as 17:00 UTC)"
    )


def test_a_time_corrected_after_its_day_leaves_the_date_alone() -> None:
    post = msg(
        "session #87 moves to **Friday 9 Oct, 18:30 IST**, same place",
        id="f1",
        thread_id="f1",
        author="Arjun",
        reactions=13,
    )
    fixed = msg(
        "correction: Friday **19:00** IST, not 18:30. the room is booked until 19:00",
        thread_id="f1",
        author="Mira",
        reactions=12,
    )
    assert corrected([post, fixed])[0].text == (
        "session #87 moves to **Friday 9 Oct, 19:00 IST (first reported as 18:30 IST)**, same place"
    )


def test_a_value_questioned_with_where_it_was_seen_is_corrected_once_the_poster_agrees() -> None:
    post = msg("It's live! The refreshed dataset has 1,248,517 rows", id="r1", thread_id="r1")
    asked = msg(
        "quick check: I'm getting 1,284,517 rows from the API count, not 1,248,517. typo?",
        thread_id="r1",
        author="Walt",
    )
    agreed = msg("ugh, yes. sorry: it's **1,284,517** rows", thread_id="r1")
    assert corrected([post, asked, agreed])[0].text == (
        "It's live! The refreshed dataset has 1,284,517 (first reported as 1,248,517) rows"
    )


def test_a_sum_its_author_stresses_anew_in_the_thread_replaces_the_stressed_one() -> None:
    post = msg(
        "Quiz night takings: £210 on the door, £64 for the raffle. After the hall (£95), "
        "**£179** goes to the roof fund",
        id="q1",
        thread_id="q1",
        author="Maeve",
    )
    fixed = msg(
        "Correction: the caretaker waived £30 of the hall fee, so it's *£209* to the roof fund",
        thread_id="q1",
        author="Maeve",
    )
    assert [m.text for m in corrected([post, fixed])] == [
        "Quiz night takings: £210 on the door, £64 for the raffle. After the hall (£95), "
        "**£209 (first reported as £179)** goes to the roof fund"
    ]


def test_a_score_its_author_corrects_in_the_thread_reads_corrected() -> None:
    post = msg(
        "Treasurer vote is in: Dana Whitlock, 11-7 over Sol Baptiste", id="v1", thread_id="v1"
    )
    fixed = msg("correction: *12-7*, one ballot came in by email", thread_id="v1")
    assert corrected([post, fixed])[0].text == (
        "Treasurer vote is in: Dana Whitlock, 12-7 (first reported as 11-7) over Sol Baptiste"
    )


def test_an_author_agreeing_with_a_reply_to_their_post_corrects_the_post() -> None:
    post = msg(
        "Poll closed: 9 for, 3 against, so the new rota starts in May", id="r1", author="Ana"
    )
    remark = msg(
        "I voted for on Tuesday, did you count me?", id="r2", reply_to_id="r1", author="Bo"
    )
    agreed = msg("you're right, sorry: **10 for**, 3 against", reply_to_id="r2", author="Ana")
    elsewhere = msg("you're right, 12 for would be a record", reply_to_id="r2", author="Cy")
    texts = [m.text for m in corrected([post, remark, agreed, elsewhere])]
    assert texts[0] == (
        "Poll closed: 10 for (first reported as 9 for), 3 against, so the new rota starts in May"
    )


def test_a_correction_in_another_s_thread_fixes_what_its_author_said_there() -> None:
    root = msg("Bake sale done! Sold out by 2pm", id="b1", thread_id="b1", author="Ruth")
    takings = msg("Takings: **$412**, all to the library fund", thread_id="b1", author="Kofi")
    cheer = msg("amazing, thank you all", thread_id="b1", author="Ruth")
    fixed = msg(
        "Correction: two envelopes came in late, so it's *$467* for the fund",
        thread_id="b1",
        author="Kofi",
    )
    texts = [m.text for m in corrected([root, takings, cheer, fixed])]
    assert texts[:3] == [
        "Bake sale done! Sold out by 2pm",
        "Takings: **$467 (first reported as $412)**, all to the library fund",
        "amazing, thank you all",
    ]


def test_a_pinned_change_its_author_posts_stays_in_the_week() -> None:
    plan = replace(
        msg(
            "**Litter pick: Saturday 9 May**. Meet 9:30 am at the north gate for bags and gloves",
            id="l1",
            author="Ruth",
        ),
        reactions=11,
        pinned=True,
    )
    change = replace(
        msg(
            "**Change of meeting point**: the north gate is shut for resurfacing, so we meet at "
            "the boathouse instead, and start at 9:15 instead of 9:30",
            author="Ruth",
        ),
        reactions=8,
        pinned=True,
    )
    texts = [m.text for m in corrected([plan, change])]
    assert len(texts) == 2
    assert "we meet at the boathouse instead" in texts[1]


def test_a_score_corrected_with_its_row_s_names_fixes_that_row_of_a_table() -> None:
    post = msg(
        "Round 2 results:\n```\nBd  Home       Res   Away\n1   Ana Lind   1-0   Bo Berg\n"
        "2   Cy Moss    1-0   Dina Park\n3   Ed Yu      0-1   Flo Hart\n```",
        id="r1",
        thread_id="r1",
        author="Gus",
    )
    fixed = msg(
        "Corrected: **board 2 Cy Moss 0-1 Dina Park**, sorry both", thread_id="r1", author="Gus"
    )
    [text] = [m.text for m in corrected([post, fixed])]
    assert "2   Cy Moss    0-1 (first reported as 1-0)   Dina Park\n" in text
    assert "1   Ana Lind   1-0   Bo Berg" in text and "3   Ed Yu      0-1   Flo Hart" in text


def test_a_count_s_correction_leaves_a_date_with_that_number_as_it_is() -> None:
    order = msg("Group buy: 16 kits so far, orders close Friday", id="g1", author="Cal")
    meetup = msg("Next meetup: Saturday 16 May, 1-6pm at the hackspace", id="g2", author="Ben")
    fixed = replace(
        msg(
            "Correction on the group buy count: it's **18**, not 16. Two came in by DM",
            author="Cal",
        ),
        reactions=5,
    )
    texts = [m.text for m in corrected([order, meetup, fixed])]
    assert texts[0] == "Group buy: 18 (first reported as 16) kits so far, orders close Friday"
    assert texts[1] == "Next meetup: Saturday 16 May, 1-6pm at the hackspace"


def test_a_list_of_changed_prices_replaces_no_stressed_price_with_another() -> None:
    earlier = msg(
        "Correction: the rice on the list was a typo. It's **$41.00** a sack, not $14.00",
        id="c1",
        author="Priya",
    )
    changes = msg(
        "Corrected list is up. Changes: rice **$41.00** (was $14.00), oats **$22.10** "
        "(was $23.40), beans **$30.80** (was $31.80)",
        author="Priya",
    )
    assert corrected([earlier, changes])[0].text == earlier.text


def test_good_catch_opening_a_reply_corrects_its_author_s_post() -> None:
    post = msg(
        "Monthly numbers: sales **$9,860**, dues $1,320, spoilage $212",
        id="n1",
        thread_id="n1",
        author="Dmitri",
    )
    asked = msg("isn't the last Saturday missing?", thread_id="n1", author="Ana")
    fixed = msg(
        "Ugh, good catch. The export stopped on Friday. Real total is **$11,120**",
        thread_id="n1",
        author="Dmitri",
    )
    assert corrected([post, asked, fixed])[0].text == (
        "Monthly numbers: sales **$11,120 (first reported as $9,860)**, dues $1,320, spoilage $212"
    )


def test_a_recount_fixes_counts_in_capitals_and_the_one_its_words_name() -> None:
    """ "71 YES" corrects "68 YES", and "71 units pledged" the "68 units pledged" of two
    counts of units; "68 YES" fixed, the same number's other count still is."""
    result = msg(
        "**The co-op voted YES.** Count: **68 YES, 9 NO** (77 ballots, 68 units pledged; "
        "we needed 60 units).",
        id="v1",
        author="Kei",
    )
    fixed = msg(
        "**Correction** to last night: 3 more turned up this morning. The final count "
        "is **71 YES / 9 NO, 80 ballots**, with 71 units pledged.",
        author="Kei",
    )
    [text] = [m.text for m in corrected([result, fixed])]
    assert "**71 YES (first reported as 68 YES), 9 NO**" in text
    assert "(80 ballots, 71 units pledged; we needed 60 units)" in text


def test_a_day_of_the_month_corrected_as_an_ordinal_is_drafted_corrected() -> None:
    post = msg("Lost property clear-out is on *Friday 20 November*, unclaimed items go to charity")
    fixed = replace(
        msg("Correction: that's *Friday 27 November*, not the 20th! Sorry"), reply_to_id=post.id
    )
    [read] = corrected([post, fixed])
    assert read.text == (
        "Lost property clear-out is on *Friday 27 November (first reported as 20 November)*, "
        "unclaimed items go to charity"
    )


def test_a_sum_another_counted_again_is_drafted_corrected() -> None:
    post = msg("Bake sale done! Takings: *£412.60*, thank you bakers", author="Sunita Rao")
    recount = replace(
        msg(
            "Finished the count with Dan. It's actually *£437.60*: £312.60 cash + £125.00 by "
            "card. The £412.60 was missing the second batch of card payments.",
            author="Mark Obi",
        ),
        reply_to_id=post.id,
        reactions=3,
    )
    read = corrected([post, recount])
    assert read[0].text == (
        "Bake sale done! Takings: *£437.60 (first reported as £412.60)*, thank you bakers"
    )
    assert read[1] == recount  # (another's recount says who counted)


def test_a_reply_saying_what_a_value_actually_was_of_another_post_changes_nothing() -> None:
    post = msg("The 2pm session was great, the 5pm one too", author="Sunita Rao")
    reply = replace(
        msg("The 2pm was actually my favourite, 40 people came", author="Mark Obi"),
        reply_to_id=post.id,
        reactions=3,
    )
    assert corrected([post, reply]) == [post, reply]


def test_a_day_its_author_corrects_in_bold_is_drafted_corrected() -> None:
    post = msg("Validator training for mappers: *Saturday 17 Oct, 11am–1pm*, online. 10 seats.")
    fixed = replace(
        msg("sorry, correction: it's *Sunday 18 Oct*, same time. Saturday clashes with a meetup"),
        reply_to_id=post.id,
    )
    [read] = corrected([post, fixed])
    assert read.text == (
        "Validator training for mappers: *Sunday 18 Oct (first reported as Saturday 17 Oct), "
        "11am–1pm*, online. 10 seats."
    )


def test_a_corrected_range_of_days_stays_a_range() -> None:
    post = msg("First aid course booked: Sat-Sun **Sept 12-13**, 8:30am-5pm, $240, 14 spots")
    fixed = replace(
        msg("correction: the course is **Sept 19-20**, not 12-13, the instructor moved it"),
        reply_to_id=post.id,
    )
    [read] = corrected([post, fixed])
    assert "Sat-Sun **Sept 19-20 (first reported as 12-13)**, 8:30am-5pm" in read.text


def test_a_day_corrected_on_its_own_fixes_its_event_not_an_earlier_post_s() -> None:
    earlier = msg("Moderator applications are open until **28 Feb**", author="Kes", minutes=0)
    post = msg(
        "**Modjam deadline extended!** The new deadline is **Sunday Feb 29, 23:59 UTC**. The "
        "judging stream moves to **Saturday March 7, 18:00 UTC**.",
        author="Kes",
        minutes=60,
    )
    fixed = msg(
        "correction before anyone asks: 2026 is no leap year. The new deadline is "
        "**Sunday March 1, 23:59 UTC**.",
        author="Kes",
        minutes=66,
    )
    read = corrected([earlier, post, fixed])
    assert read[0] == earlier
    assert "**Sunday March 1 (first reported as Sunday Feb 29), 23:59 UTC**" in read[1].text
    assert "**Saturday March 7, 18:00 UTC**" in read[1].text


def test_a_correction_repeating_a_value_of_the_post_leaves_it_as_it_was() -> None:
    post = msg(
        "Field trip headcount so far: **33 students, 14 adults**. Group rate, so $8/student",
        id="f1",
        author="Deb Okafor",
    )
    fixed = msg(
        "**CORRECTED headcount**: the Millers were on the list twice, and Tom brings 2 adults, "
        "not 1. Correct numbers: **27 students, 14 adults**. Still over 25, so still the $8 "
        "group rate. Total: $216 students + $168 adults = **$384**",
        author="Deb Okafor",
    )
    assert corrected([post, fixed])[0].text == (
        "Field trip headcount so far: **27 students (first reported as 33 students), 14 adults**. "
        "Group rate, so $8/student"
    )


def test_a_labelled_total_is_corrected_with_an_emoji_between_label_and_value() -> None:
    post = msg("Raffle weekly total 🎟️ $2,696 with the market ($386)!", id="r1", author="Bev")
    fixed = msg(
        "Oh shoot you're right, I counted it twice. CORRECTED total: $2,484. So $516 to go",
        reply_to_id="r1",
        author="Bev",
    )
    assert corrected([post, fixed])[0].text == (
        "Raffle weekly total 🎟️ $2,484 (first reported as $2,696) with the market ($386)!"
    )


def test_another_s_correction_stands_where_the_post_s_author_says_it_is_corrected() -> None:
    minutes = msg(
        "Minutes: garden irrigation **passed 18–9, 2 abstentions**", id="m1", thread_id="m1"
    )
    fixed = msg("Grace, the garden vote was 19–8, not 18–9", thread_id="m1", author="Dan")
    asked = msg("do proxies even count?", thread_id="m1", author="Joyce")
    agreed = msg(
        "Corrected in the minutes: **garden irrigation passed 19 yes, 8 no**. Sorry Ernesto!",
        thread_id="m1",
    )
    assert corrected([minutes, fixed, asked, agreed])[0].text == (
        "Minutes: garden irrigation **passed 19–8 (first reported as 18–9), 2 abstentions**"
    )


def test_a_value_a_correction_says_as_the_post_did_stays_and_the_other_is_corrected() -> None:
    post = msg("Raster: 1M-point scatter 4.21 s Agg, 0.61 s Skia, 6.9x", id="b1", thread_id="b1")
    fixed = msg("**Corrected**: 1M-point scatter 2.95 s Agg, 0.61 s Skia, 4.8x", thread_id="b1")
    assert corrected([post, fixed])[0].text == (
        "Raster: 1M-point scatter 2.95 s (first reported as 4.21 s) Agg, 0.61 s Skia, 4.8x"
    )


def test_a_measure_corrected_by_its_number_is_drafted_with_its_unit() -> None:
    post = msg("Test drive results:\n• 19 laps, 20.9 km\n• overall consumption 34.6 Wh/km", id="t1")
    fixed = msg("correction on the test drive: overall consumption was **36.4 Wh/km, not 34.6**")
    assert "overall consumption 36.4 Wh/km (first reported as 34.6 Wh/km)" in (
        corrected([post, fixed])[0].text
    )


def test_values_a_correction_says_each_label_is_replace_the_post_s() -> None:
    post = msg("Breakfast totals. Gross: $5,860. Expenses: $1,210. NET: $4,650", id="b1")
    fixed = msg(
        "Correction on the totals: the donation jar was $1,465, not $1,390. "
        "So gross is $5,935 and net is **$4,725**.",
        reply_to_id="b1",
    )
    assert corrected([post, fixed])[0].text == (
        "Breakfast totals. Gross: $5,935 (first reported as $5,860). Expenses: $1,210. NET: $4,725"
    )


def test_a_count_s_correction_leaves_a_clock_time_with_that_hour_as_it_is() -> None:
    post = msg("UPDATE: our performance moved EARLIER to **3:40 PM**. Buses leave at noon", id="u1")
    fixed = msg("Correction on buses: **we need 4 buses, not 3.**", thread_id="u1")
    assert corrected([post, fixed])[0].text == post.text


def test_a_time_of_four_digits_after_its_day_is_corrected_in_each_post_saying_it() -> None:
    moved = msg("CHANGE: the drill is MOVED to SATURDAY 10/10 at 0800 at Dutch's", author="Kowal")
    reminder = msg("Reminder: the drill is SATURDAY 0800 at Dutch's.", author="Kowal")
    fixed = msg(
        "Correction for tomorrow: the drill is **0900** at Dutch's, NOT 0800.", author="Kowal"
    )
    first, second = corrected([moved, reminder, fixed])
    assert "SATURDAY 10/10 at 0900 (first reported as 0800)" in first.text
    assert "SATURDAY 0900 (first reported as 0800)" in second.text


def test_a_correction_under_its_post_also_fixes_what_its_author_said_again_since() -> None:
    moved = msg(
        "CHANGE: the drill is MOVED to SATURDAY at 0800 at Dutch's", id="c1", author="Kowal"
    )
    other = msg("Pump test on E2 tomorrow at 0800 sharp, then lunch", author="Kowal")
    reminder = msg("Reminder: the drill is SATURDAY 0800 at Dutch's.", author="Kowal")
    fixed = msg(
        "Correction: the drill is **0900** at Dutch's, NOT 0800.", reply_to_id="c1", author="Kowal"
    )
    first, test, second = corrected([moved, other, reminder, fixed])
    assert "SATURDAY at 0900 (first reported as 0800)" in first.text
    assert test.text == other.text
    assert "SATURDAY 0900 (first reported as 0800)" in second.text


def test_several_values_each_not_what_was_first_reported_are_corrected_each() -> None:
    post = msg("**CTF results**: we finished **23rd of 611 teams** with **4,215 points**", id="r1")
    fixed = msg(
        "**correction on the CTF**: they disqualified 2 teams for flag sharing. we're officially "
        "**21st with 4,180 points** (not 23rd / 4,215)",
    )
    assert corrected([post, fixed])[0].text == (
        "**CTF results**: we finished **21st (first reported as 23rd) of 611 teams** with "
        "**4,180 points**"
    )


def test_a_day_corrected_later_is_read_in_the_post_however_the_post_wrote_it() -> None:
    """ "Monday December 7, NOT Friday December 4" fixes "Dec 4 (Fri)"; "*Thursday Mar 12*,
    not Wednesday" fixes "Wednesday Mar 11"; "15 January 2027, not 31 January" fixes "31
    January": the day is replaced whole, once, saying what it was first reported as."""
    calendar = msg(
        "March calendar is up.\nMar 4 (Wed): closed, staff training day.\nMar 17, 4:30pm: "
        "spring concert.\nBack after the break on Apr 4.",
        author="Mara Lind",
    )
    fixed = msg(
        "**Correction** The training day closure is **Monday March 9**, NOT Wednesday March 4. "
        "Mar 4 is a regular day.",
        author="Mara Lind",
    )
    assert [m.text for m in corrected([calendar, fixed])] == [
        "March calendar is up.\nMonday March 9 (first reported as Mar 4): closed, staff training "
        "day.\nMar 17, 4:30pm: spring concert.\nBack after the break on Apr 4."
    ]
    call = msg("Community call: **Wednesday Mar 11, 11:00 ET**. Agenda in the doc.", author="Ruth")
    moved = msg(
        "sorry, correction: the call is *Thursday Mar 12*, not Wednesday. same time", author="Ruth"
    )
    assert corrected([call, moved])[0].text == (
        "Community call: **Thursday Mar 12 (first reported as Wednesday Mar 11), 11:00 ET**. "
        "Agenda in the doc."
    )
    block = msg("Block cut-off is 31 January, after which rooms go back on sale.", author="Gus")
    misread = msg(
        "Correction to yesterday: I misread the contract. The release date is *15 January "
        "2027*, not 31 January.",
        author="Gus",
    )
    assert corrected([block, misread])[0].text == (
        "Block cut-off is 15 January 2027 (first reported as 31 January), after which rooms go "
        "back on sale."
    )


def test_a_day_said_not_to_be_is_left_where_another_day_or_several_match() -> None:
    """Only the one day that can be the wrong one changes: not another month's 4th, not a
    post giving two Wednesdays, not a post of someone else's."""
    notes = msg("Closed Jan 4. Open again Feb 4.", author="Mara Lind")
    fixed = msg("Correction: the closure is March 9, not March 4.", author="Mara Lind")
    assert corrected([notes, fixed])[0].text == notes.text
    two = msg("Rehearsal Wednesday 7pm, and the gig is next Wednesday at 9.", author="Ruth")
    moved = msg("correction: rehearsal is Thursday Mar 12, not Wednesday", author="Ruth")
    assert corrected([two, moved])[0].text == two.text
    other = msg("Community call Wednesday Mar 11 at 11:00", author="Ben Ode")
    assert corrected([other, moved])[0].text == other.text


def test_a_correction_fixes_the_post_on_its_subject_not_a_nearer_one_on_another() -> None:
    """ "the recital starts at 7:30 PM, not 7:00" is about the recital: the extra rehearsal
    posted since, also at 7:00, stays as it is."""
    recital = msg(
        "**Spring recital: Saturday, March 14, 7:00 PM** at **St. Anne's Church**. Tickets "
        "**$12**, under 12 free.",
        author="Elena Voss",
        minutes=0,
    )
    rehearsal = msg(
        "**Extra rehearsal: Thursday, March 5, 7:00–9:00 PM** at the fellowship hall. Bring all "
        "your music and a pencil",
        author="Elena Voss",
        minutes=100,
    )
    fixed = msg(
        "**CORRECTION on the recital time: the spring recital starts at 7:30 PM**, not 7:00 as "
        "I wrote on Monday. Doors open at 7:00 PM.",
        author="Elena Voss",
        minutes=200,
    )
    texts = [m.text for m in corrected([recital, rehearsal, fixed])]
    assert texts[0].startswith("**Spring recital: Saturday, March 14, 7:30 PM (first reported")
    assert texts[1] == rehearsal.text


def test_days_a_correction_gives_with_words_between_are_each_read_in_the_post() -> None:
    """ "*Saturday 29 August*, not 5 September ... *Saturday 7 November*, so *this Saturday*,
    not the 15th": both days of the post change."""
    post = msg(
        "Strips out: they went in on Sat 5 Sept, so 10 weeks takes them to **Sunday 15 November**",
        author="Gwen Price",
    )
    fixed = msg(
        "*Correction on the strip date*, sorry all. The log book says they went in on *Saturday "
        "29 August*, not 5 September. 10 weeks from then is *Saturday 7 November*, so *this "
        "Saturday*, not the 15th.",
        author="Gwen Price",
    )
    assert corrected([post, fixed])[0].text == (
        "Strips out: they went in on Saturday 29 August (first reported as 5 Sept), so 10 weeks "
        "takes them to **Saturday 7 November (first reported as Sunday 15 November)**"
    )


def test_a_time_corrected_with_its_am_fixes_the_post_that_wrote_it_on() -> None:
    """ "6:30am, not 6:00" fixes "from **6:00am**": the post wrote its am onto the time."""
    post = msg(
        "@everyone **Market is THIS SATURDAY, 14 Mar**\nLoad-in from **6:00am**, cars off the "
        "grass by 8:15, stalls ready 8:45\n31 stalls this month.",
        author="Bron Kaye",
    )
    fixed = msg(
        "**Correction to the pinned post: load-in starts at 6:30am, not 6:00.** The contractor "
        "only unlocks the gate at 6:25.",
        author="Bron Kaye",
    )
    assert corrected([post, fixed])[0].text == post.text.replace(
        "**6:00am**", "**6:30am (first reported as 6:00am)**"
    )


def test_a_score_said_not_to_be_is_fixed_in_its_authors_post_on_any_subject() -> None:
    """A score is that vote's wherever it is said: unlike a time or a day, which many events
    share, its author's post is fixed though another post on the story's words says it too."""
    filed = msg("bond PASSED 6-1. Ostrowski the lone no. filing now", author="Priya Ram")
    story = msg("Bridge vote story is up: council approved the bridge bond 6-1", author="Ben Ade")
    fixed = replace(
        msg(
            "ugh. correction needed on the bridge story. *Councilor Pruitt voted NO too*. "
            "official minutes: *5-2, not 6-1*. can you do the correction?",
            author="Priya Ram",
        ),
        reactions=3,
    )
    assert corrected([filed, story, fixed])[0].text == (
        "bond PASSED 5-2 (first reported as 6-1). Ostrowski the lone no. filing now"
    )
