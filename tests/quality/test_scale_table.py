"""The scale table (benchmarks/scale_table.py) judges each figure against its target and says
"not run", with the reason, for a run that wrote nothing."""

from __future__ import annotations

from types import ModuleType


def _size(messages: int, ratio: float, draft_s: float, rss_mib: float) -> dict:
    return {
        "messages": messages,
        "import_over_floor": ratio * 2,
        "import_over_floor_cpu": ratio,
        "import_cpu_s": ratio,
        "floor_cpu_s": 1.0,
        "draft_s": draft_s,
        "draft_peak_rss_mib": rss_mib,
    }


def test_pipeline_figures_are_judged_at_100k_only(scale: ModuleType) -> None:
    results = {
        "results": [_size(10_000, 3.0, 9.0, 500.0), _size(100_000, 1.4, 2.5, 250.0)],
        "scaling": [{"small": 10_000, "large": 100_000, "draft": 12.0, "import": 9.0}],
    }
    rows = {r.measure: r for r in scale.pipeline_rows(results, "")}
    imports = "import / plain-sqlite3 floor, {} (CPU time; wall-clock)"
    assert rows[imports.format("10k")].verdict == ""
    assert rows[imports.format("100k")].verdict == "met"  # judged on CPU time
    assert rows[imports.format("100k")].measured == "1.40x (1.40 s / 1.00 s); 2.80x"
    assert rows["draft time, 100k"].verdict == "MISSED"
    assert rows["draft peak RSS, 100k"].measured == "262 MB"  # 250 MiB
    assert rows["draft time 100k / 10k"].verdict == "MISSED"


def test_a_missing_run_is_not_run_with_its_reason(scale: ModuleType) -> None:
    rows = scale.pipeline_rows(None, "stopped after 1800 s")
    assert {r.verdict for r in rows} == {"not run"}
    assert all("stopped after 1800 s" in r.measured for r in rows)
    [two] = scale.two_process_rows({"faults": [{"fault": "duplicates"}]}, "no JSON")
    assert (two.verdict, two.measured) == ("not run", "not run: no JSON")


def test_a_rate_is_held_only_with_every_event_answered_and_stored(scale: ModuleType) -> None:
    def report(ok: int, lost: int) -> dict:
        pass1 = {"held_rate": 1990.0, "ok": ok, "events": 1000, "missing_sent": lost}
        return {"pass1": pass1 | {"storage_latency_ms": {"p99": 12.5}}}

    held, p99 = scale.live_rows("SQLite", report(1000, 0), 2000.0, 20.0, "")
    assert (held.verdict, p99.verdict, p99.measured) == ("met", "met", "12.5 ms")
    assert scale.live_rows("SQLite", report(999, 0), 2000.0, 20.0, "")[0].verdict == "MISSED"
    assert scale.live_rows("SQLite", report(1000, 1), 2000.0, 20.0, "")[0].verdict == "MISSED"


def test_two_processes_pass_with_nothing_lost_or_doubled(scale: ModuleType) -> None:
    def report(lost: int, doubled: int) -> dict:
        figures = {"sent": 1000, "stored": 1000 - lost, "lost": lost, "doubled": doubled}
        return {"faults": [{"fault": "two-process"}], "two-process": figures}

    [met] = scale.two_process_rows(report(0, 0), "")
    assert (met.verdict, met.measured) == ("met", "0 / 0 (of 1000 sent, 1000 stored)")
    assert scale.two_process_rows(report(0, 2), "")[0].verdict == "MISSED"
    assert scale.two_process_rows(report(3, 0), "")[0].verdict == "MISSED"
    failed = {"faults": [{"fault": "two-process", "error": "TimeoutError: "}]}
    assert scale.two_process_rows(failed, "")[0].measured == "not run: TimeoutError: "
