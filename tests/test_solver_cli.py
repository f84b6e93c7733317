"""``solitaire solve`` and ``solitaire survey``: output, CSV rows, resuming, the
Wilson interval, and the Dask executor on a local cluster."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from solitaire_core.cli import EXIT_UNDECIDED, EXIT_UNWINNABLE, main
from solitaire_core.errors import SolitaireError
from solitaire_core.moves import Move
from solitaire_core.plugins import get_variant
from solitaire_core.session import Session
from solitaire_core.solver.survey import (
    FIELDS,
    Progress,
    SurveyInterrupted,
    SurveyRow,
    Tally,
    parse_deals,
    run_survey,
    wilson_interval,
)


def test_solve_prints_a_solution_that_wins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "seahaven", "--deal", "1"]) == 0
    out = capsys.readouterr().out
    assert "Seahaven Towers #1: winnable" in out
    assert "positions searched" in out
    moves = " ".join(out.split("moves:", 1)[1].split()).split()
    session = Session(get_variant("seahaven").resolve(), 1)
    for text in moves:
        session.play(Move.parse(text))
    assert session.is_won


def test_solve_reports_unwinnable_and_undecided(capsys: pytest.CaptureFixture[str]) -> None:
    """The exit status tells the verdicts apart: 0 winnable, 3 unwinnable, 4 undecided."""
    assert main(["solve", "seahaven", "--deal", "21"]) == EXIT_UNWINNABLE == 3
    assert "#21: unwinnable" in capsys.readouterr().out
    assert main(["solve", "seahaven", "--deal", "73", "--max-states", "100"]) == EXIT_UNDECIDED
    assert EXIT_UNDECIDED == 4
    assert "undecided, the state budget ran out" in capsys.readouterr().out


def test_solve_with_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "sea-towers", "--deal", "3", "--option", "empty_columns=any"]
    assert main(argv) == 0
    assert "empty_columns=any" in capsys.readouterr().out


def test_solve_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "no-such-variant", "--deal", "1"]) == 2
    assert "unknown variant" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "seahaven", "--deal", "1", "--timeout", "-3"])


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_survey_writes_rows_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.csv"
    argv = ["survey", "seahaven", "--deals", "19-22", "--jobs", "2", "--csv", str(out)]
    assert main([*argv, "--quiet"]) == 0
    text = capsys.readouterr().out
    rows = _rows(out)
    assert [int(r["deal"]) for r in rows] == [19, 20, 21, 22]
    assert {r["verdict"] for r in rows} == {"winnable", "unwinnable"}
    assert "4 deals: 3 winnable, 1 unwinnable" in text
    assert "95% confidence interval (Wilson)" in text
    win = next(r for r in rows if r["verdict"] == "winnable")
    session = Session(get_variant("seahaven").resolve(), int(win["deal"]))
    for move in win["solution"].split():
        session.play(move)
    assert session.is_won


def test_survey_without_solutions_keeps_verdicts_and_lengths(tmp_path: Path) -> None:
    out = tmp_path / "s.csv"
    argv = ["survey", "seahaven", "--deals", "19-22", "--jobs", "1", "--csv", str(out)]
    assert main([*argv, "--quiet", "--no-solutions"]) == 0
    rows = _rows(out)
    assert [r["verdict"] for r in rows] == ["winnable", "winnable", "unwinnable", "winnable"]
    assert all(r["solution"] == "" for r in rows)
    assert all(int(r["moves"]) > 0 for r in rows if r["verdict"] == "winnable")
    assert out.stat().st_size < 60 * (len(rows) + 1)


def test_survey_resumes_from_its_csv(tmp_path: Path) -> None:
    out = tmp_path / "s.csv"
    first = run_survey("seahaven", {}, [1, 2], jobs=1, csv_path=out)
    assert [r.deal for r in first] == [1, 2]
    # An interrupted run: a row for deal 3 cut short in the middle of its line.
    with out.open("a", encoding="utf-8", newline="") as fh:
        fh.write("seahaven,,3,winn")
    solved: list[int] = []
    rows = run_survey(
        "seahaven", {}, [1, 2, 3, 4], jobs=1, csv_path=out, on_row=lambda r: solved.append(r.deal)
    )
    assert sorted(solved) == [3, 4]  # deals 1 and 2 were not solved again
    assert [r.deal for r in rows] == [1, 2, 3, 4]
    assert [int(r["deal"]) for r in _rows(out)] == [1, 2, 3, 4]


def test_interrupted_survey_keeps_its_rows(tmp_path: Path) -> None:
    out = tmp_path / "s.csv"

    def interrupt(row: SurveyRow) -> None:
        raise KeyboardInterrupt

    with pytest.raises(SurveyInterrupted) as caught:
        run_survey("seahaven", {}, [1, 2, 3, 4, 5, 6], jobs=2, csv_path=out, on_row=interrupt)
    kept = [int(r["deal"]) for r in _rows(out)]
    assert caught.value.kept == len(kept) >= 1
    solved: list[int] = []
    run_survey(
        "seahaven",
        {},
        [1, 2, 3, 4, 5, 6],
        jobs=2,
        csv_path=out,
        on_row=lambda r: solved.append(r.deal),
    )
    assert sorted(solved + kept) == [1, 2, 3, 4, 5, 6]


def test_survey_refuses_a_csv_of_another_survey(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.csv"
    run_survey("seahaven", {}, [1], jobs=1, csv_path=out)
    argv = ["survey", "sea-towers", "--deals", "1-2", "--csv", str(out), "--quiet"]
    assert main([*argv, "--option", "empty_columns=any"]) == 1  # a failure, not a usage error
    assert "use another --csv file" in capsys.readouterr().err


def test_a_folder_given_as_the_csv_is_refused_and_leaves_no_lock_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["survey", "seahaven", "--deals", "1-2", "--csv", ".", "--quiet"]) == 1
    assert "it is a folder" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no "..lock" beside the folder


def test_a_second_survey_on_the_same_csv_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two surveys on one CSV would each rewrite it from their own rows when done, so
    the second to finish would drop the first one's new rows: while one runs (it holds
    ``<csv>.lock``), another is refused with a message and the file is left as it was."""
    out = tmp_path / "s.csv"
    run_survey("seahaven", {}, [1], jobs=1, csv_path=out)
    before = out.read_bytes()
    lock = FileLock(f"{out}.lock")  # as a running survey holds it
    with lock:
        with pytest.raises(SolitaireError, match="another survey is writing this file"):
            run_survey("seahaven", {}, [1, 2], jobs=1, csv_path=out)
        argv = ["survey", "seahaven", "--deals", "1-2", "--csv", str(out), "--quiet"]
        assert main(argv) == 1
        assert "wait for it to finish or use another --csv file" in capsys.readouterr().err
        assert out.read_bytes() == before
    rows = run_survey("seahaven", {}, [1, 2], jobs=1, csv_path=out)  # free again
    assert [r.deal for r in rows] == [1, 2]
    assert [int(r["deal"]) for r in _rows(out)] == [1, 2]


def test_survey_bad_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["survey", "seahaven", "--deals", "9-3"]) == 2
    assert "--deals" in capsys.readouterr().err


def test_parse_deals() -> None:
    assert parse_deals("3-5") == [3, 4, 5]
    assert parse_deals("7") == [7]
    assert parse_deals("1-2,2-3,10") == [1, 2, 3, 10]


def test_wilson_interval() -> None:
    # No successes in 10 trials: the upper bound has the closed form z^2 / (n + z^2).
    z = 1.959964
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and math.isclose(high, z * z / (10 + z * z), rel_tol=1e-9)
    # Symmetric around one half.
    low, high = wilson_interval(50, 100)
    assert math.isclose(low + high, 1.0, rel_tol=1e-12) and 0.40 < low < 0.41
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_tally_summary_counts_undecided_apart() -> None:
    tally = Tally()
    for verdict in ("winnable", "winnable", "unwinnable", "undecided"):
        tally.add(SurveyRow("seahaven", "", 1, verdict, 10, 0.5, 0))
    text = tally.summary()
    assert "4 deals: 2 winnable, 1 unwinnable, 1 undecided" in text
    assert "of 3 decided deals" in text


def test_progress_bar_when_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    progress = Progress(20, stream=sys.stderr)
    for done in range(1, 21):
        progress.update(done, Tally(winnable=done))
    text = capsys.readouterr().err
    assert text.count("\n") == 1  # tqdm redraws one line (\r), at most every 5 s in a log
    assert "20/20" in text.split("\r")[-1] and "20 winnable, 0 not, 0 undecided" in text


def test_csv_columns_are_stable() -> None:
    row = SurveyRow("seahaven", "", 1, "winnable", 5, 0.25, 2, "", "t1>c t2>f")
    record = dict(zip(FIELDS, row.as_csv()))
    assert SurveyRow.from_csv(record) == row


def test_survey_on_a_dask_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip(
        "dask.distributed", reason="dask is not installed (pip install 'towers-solitaire[cluster]')"
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        out = tmp_path / "dask.csv"
        rows = run_survey(
            "seahaven",
            {},
            [19, 20, 21],
            executor="dask",
            scheduler=cluster.scheduler_address,
            csv_path=out,
        )
    assert [r.deal for r in rows] == [19, 20, 21]
    assert rows[2].verdict == "unwinnable"  # as with worker processes
    assert [int(r["deal"]) for r in _rows(out)] == [19, 20, 21]


def test_survey_retries_undecided_deals_with_a_larger_budget(tmp_path: Path) -> None:
    # Seahaven #73 needs 130,920 positions to be proved lost: undecided at 20,000, of which
    # the game's own score gets about 2,350 (#72 is won in about 1,500).
    out = tmp_path / "s.csv"
    argv = ["survey", "seahaven", "--deals", "72-73", "--jobs", "1", "--csv", str(out)]
    assert main([*argv, "--quiet", "--max-states", "20000"]) == 0
    assert [r["verdict"] for r in _rows(out)] == ["winnable", "undecided"]
    winnable = _rows(out)[0]
    # Without the flag the file's rows stand; with it only the undecided deal is solved.
    assert main([*argv, "--quiet"]) == 0
    assert [r["verdict"] for r in _rows(out)] == ["winnable", "undecided"]
    solved: list[int] = []
    rows = run_survey(
        "seahaven",
        {},
        [72, 73],
        jobs=1,
        csv_path=out,
        retry_undecided=True,
        on_row=lambda r: solved.append(r.deal),
    )
    assert solved == [73]
    assert [r.verdict for r in rows] == ["winnable", "unwinnable"]
    # One row per deal, sorted; #72's row untouched.
    assert [r["verdict"] for r in _rows(out)] == ["winnable", "unwinnable"]
    assert _rows(out)[0] == winnable


def _chart_script() -> Any:
    """scripts/winnability_chart.py, imported."""
    import importlib.util

    script = Path(__file__).parents[1] / "scripts" / "winnability_chart.py"
    spec = importlib.util.spec_from_file_location("winnability_chart", script)
    assert spec is not None and spec.loader is not None
    chart = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(chart)
    return chart


def test_the_atlas_chart_gives_bounds_where_deals_are_undecided(tmp_path: Path) -> None:
    """A row with undecided deals is also given as the share of all its deals at least
    and at most winnable: 2 won, 1 lost and 1 undecided is 67% of the decided deals but
    only 50% to 75% of the deals."""
    chart = _chart_script()
    path = tmp_path / "atlas_y.csv"
    path.write_text(
        "variant,options,deal,verdict,positions,seconds,moves,reason,solution\n"
        "y,,1,winnable,10,0.1,5,,\n"
        "y,,2,undecided,1000000,2.0,0,state budget,\n"
        "y,,3,unwinnable,20,0.1,0,,\n"
        "y,,4,winnable,50,0.1,40,,\n",
        encoding="utf-8",
    )
    (rate,) = chart.read_rates([path])
    assert round(rate.rate, 3) == 0.667
    assert rate.bounds == (0.5, 0.75)


def test_the_atlas_chart_counts_a_retried_deal_once(tmp_path: Path) -> None:
    """``--retry-undecided`` appends a deal's new row before it rewrites the file: the
    chart's table (scripts/winnability_chart.py) keeps the later row, as the survey does,
    rather than counting the deal twice."""
    chart = _chart_script()
    path = tmp_path / "atlas_x.csv"
    path.write_text(
        "variant,options,deal,verdict,positions,seconds,moves,reason,solution\n"
        "x,,1,winnable,10,0.1,5,,\n"
        "x,,2,undecided,1000000,2.0,0,state budget,\n"
        "x,,3,unwinnable,20,0.1,0,,\n"
        "x,,2,winnable,5000,0.5,40,,\n",
        encoding="utf-8",
    )
    (rate,) = chart.read_rates([path])
    assert (rate.winnable, rate.unwinnable, rate.undecided) == (2, 1, 0)
    assert rate.deals == "1-3"


def test_the_atlas_chart_gives_no_rate_where_no_deal_is_decided(tmp_path: Path) -> None:
    """A game whose every deal the search left undecided has no rate to show: the table
    says "-" rather than 0.00%, and its bounds run from none to all of the deals."""
    chart = _chart_script()
    path = tmp_path / "atlas_z.csv"
    path.write_text(
        "variant,options,deal,verdict,positions,seconds,moves,reason,solution\n"
        "z,,1,undecided,1000000,2.0,0,state budget,\n"
        "z,,2,undecided,1000000,2.0,0,state budget,\n",
        encoding="utf-8",
    )
    (rate,) = chart.read_rates([path])
    assert rate.bounds == (0.0, 1.0)
    assert "| z | 1-2 | 0 | 0 | 2 | - | - | 4 |" in chart.markdown([rate])


def test_a_long_survey_hands_deals_out_in_chunks_and_loses_none(tmp_path: Path) -> None:
    """A survey of many deals gives each worker several deals a task (fewer round trips
    between processes); every deal is still solved once, its row as a survey of one deal
    gives it, and an interrupted run resumes with exactly the deals it had not kept."""
    from solitaire_core.solver import survey as survey_module

    deals = list(range(1, 97))
    out = tmp_path / "s.csv"
    seen: list[int] = []
    rows = run_survey(
        "seahaven", {}, deals, jobs=1, csv_path=out, on_row=lambda r: seen.append(r.deal)
    )
    assert sorted(seen) == deals and [r.deal for r in rows] == deals
    one = survey_module.solve_one("seahaven", (), 50, None, None, solutions=False)
    assert (rows[49].verdict, rows[49].positions) == (one.verdict, one.positions)

    out2 = tmp_path / "t.csv"
    count = 0

    def interrupt(row: SurveyRow) -> None:
        nonlocal count
        count += 1
        if count == 20:
            raise KeyboardInterrupt

    with pytest.raises(SurveyInterrupted):
        run_survey("seahaven", {}, deals, jobs=2, csv_path=out2, on_row=interrupt)
    kept = [int(r["deal"]) for r in _rows(out2)]
    again: list[int] = []
    run_survey("seahaven", {}, deals, jobs=2, csv_path=out2, on_row=lambda r: again.append(r.deal))
    assert sorted(kept + again) == deals


def test_one_search_proves_what_the_schedule_shares_too_thinly(tmp_path: Path) -> None:
    """Fortress #10 and #14 are lost in 169 and 278 positions, but at a budget of 400 the
    solver's schedule gives no single search that many and leaves them undecided.
    scripts/one_search.py solves the atlas file's undecided deals again with one search
    of the game's own score taking the whole budget: both are proved lost, and the
    decided rows are left as they were."""
    import importlib.util

    out = tmp_path / "atlas_fortress.csv"
    rows = run_survey("fortress", {}, [9, 10, 14], jobs=1, csv_path=out, max_states=400)
    assert [r.verdict for r in rows] == ["unwinnable", "undecided", "undecided"]
    script = Path(__file__).parents[1] / "scripts" / "one_search.py"
    spec = importlib.util.spec_from_file_location("one_search", script)
    assert spec is not None and spec.loader is not None
    one_search = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(one_search)
    assert one_search.main(["fortress", "--csv", str(out), "--max-states", "400"]) == 0
    after = _rows(out)
    assert [(r["deal"], r["verdict"], r["positions"]) for r in after] == [
        ("9", "unwinnable", str(rows[0].positions)),
        ("10", "unwinnable", "169"),
        ("14", "unwinnable", "278"),
    ]
