"""The runner under injected faults (issue 20): each fault is injected for real -- a kernel
that loses a cell's reply, a killed kernel, a paper past its deadline, SIGTERM and Ctrl-C on
`milab reproduce`, a second run into the same folder, an output folder that cannot be
written -- and every test checks that no kernel outlives the run."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from milab_widgets import cli, reproduce
from milab_widgets.kernel_watch import PROBE_VARIABLE
from milab_widgets.papers import KERNEL_PID, PAPERS, RUN_RECORD
from tests.runner.notebooks import KILL_KERNEL_ONCE, LOSE_REPLY, outputs_text, write_notebooks

pytestmark = pytest.mark.slow


@pytest.fixture
def stand_ins(tmp_path, monkeypatch):
    """``install({paper: [cell sources]})``: the runner executes these notebooks instead of
    the papers' (the workers and kernels inherit the variable)."""
    monkeypatch.setenv(PROBE_VARIABLE, "2")

    def install(sources_by_paper):
        folder = write_notebooks(tmp_path / "notebooks", sources_by_paper)
        monkeypatch.setenv("MILAB_NOTEBOOKS", str(folder))
        return tmp_path / "out"

    return install


def kernel_alive(folder: Path) -> bool:
    """Whether the paper's kernel (its pid in kernel.pid) is still running."""
    try:
        kernel = psutil.Process(int((folder / KERNEL_PID).read_text()))
        return kernel.is_running() and kernel.status() != psutil.STATUS_ZOMBIE \
            and any("ipykernel" in part for part in kernel.cmdline())
    except (OSError, ValueError, psutil.Error):
        return False


def record(folder: Path) -> dict:
    return json.loads((folder / RUN_RECORD).read_text())


@pytest.mark.parametrize("lose_idle_too", [False, True])
def test_a_lost_execute_reply_is_recovered_and_the_notebook_finishes(stand_ins, lose_idle_too):
    output = stand_ins({"intH": [f"DROP_IDLE = {lose_idle_too}", LOSE_REPLY,
                                 "print('the next cell ran')"]})
    [run] = reproduce.reproduce(["intH"], output=output, timeout=240)
    assert run.ok, run.error
    [event] = run.stalls
    assert event["event"] == "execute_reply lost" and event["cell"] == 3  # after papermill's injected cell
    assert event["outputs_complete"] is (not lose_idle_too)
    assert "LOSE_REPLY" not in event["cell_source"] and "kernel.session.send" in event["cell_source"]
    # without the idle status the outputs may be incomplete: the notebook was run again
    assert record(output / "intH")["attempts"] == (2 if lose_idle_too else 1)
    text = outputs_text(output / "intH" / PAPERS["intH"])
    assert "the cell ran" in text and "the next cell ran" in text
    assert not kernel_alive(output / "intH")


def test_a_killed_kernel_is_reported_the_others_finish_and_a_rerun_resumes_from_the_cache(
        stand_ins):
    output = stand_ins({"intH": [KILL_KERNEL_ONCE, "print('finished')"],
                        "CDVSE": ["import time; time.sleep(3); print('CDVSE finished')"]})
    started = time.monotonic()
    runs = {run.paper: run for run in reproduce.reproduce(["intH", "CDVSE"], output=output,
                                                          jobs=2, timeout=240)}
    assert "DeadKernelError" in runs["intH"].error and runs["CDVSE"].ok
    assert runs["intH"].seconds < 45, runs["intH"].seconds
    assert time.monotonic() - started < 120
    assert not kernel_alive(output / "intH") and not kernel_alive(output / "CDVSE")
    [again] = reproduce.reproduce(["intH"], output=output, timeout=240)
    assert again.ok, again.error
    assert "cache hits: 1" in outputs_text(output / "intH" / PAPERS["intH"])


def test_each_kernel_starts_in_its_own_papers_folder_whatever_runs_beside_it(stand_ins):
    where = "import os, time; time.sleep(1); print('cwd=' + os.getcwd())"
    papers = ["intH", "CDVSE", "MFSEF"]
    output = stand_ins({paper: [where] for paper in papers})
    runs = reproduce.reproduce(papers, output=output, jobs=3, timeout=240)
    assert all(run.ok for run in runs), [run.error for run in runs]
    for paper in papers:
        folder = (output / paper).resolve()
        assert f"cwd={folder}" in outputs_text(folder / PAPERS[paper]), paper


def test_a_paper_past_its_timeout_is_stopped_named_and_leaves_no_kernel(stand_ins):
    output = stand_ins({"intH": ["print('started')", "import time\ntime.sleep(600)"],
                        "CDVSE": ["print('CDVSE finished')"]})
    runs = {run.paper: run for run in reproduce.reproduce(["intH", "CDVSE"], output=output,
                                                          jobs=2, timeout=20)}
    error = runs["intH"].error
    assert error.startswith("gave up after 0 min (--timeout): cell 3 ('time.sleep(600)')"), error
    assert str(output / "intH" / "kernel.log") in error
    assert runs["CDVSE"].ok
    assert record(output / "intH")["status"] == "interrupted"
    assert not kernel_alive(output / "intH")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_and_ctrl_c_stop_every_kernel_and_mark_the_output_partial(stand_ins, signum):
    output = stand_ins({paper: ["import time\ntime.sleep(600)"] for paper in ("intH", "CDVSE")})
    runner = subprocess.Popen([sys.executable, "-m", "milab_widgets.cli", "reproduce", "intH",
                               "CDVSE", "--jobs", "2", "--output", str(output)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not all(kernel_alive(output / paper) for paper in ("intH", "CDVSE")):
        assert time.monotonic() < deadline and runner.poll() is None, runner.communicate()
        time.sleep(0.5)
    runner.send_signal(signum)
    out, err = runner.communicate(timeout=60)
    assert runner.returncode == 128 + signum, (out, err)
    assert f"stopped by {signal.Signals(signum).name}" in err
    for paper in ("intH", "CDVSE"):
        assert not kernel_alive(output / paper), paper
        assert record(output / paper)["status"] == "interrupted"
    # said as an interruption in the terminal and the report, never as a failure
    assert "intH: interrupted (partial) after" in err and "FAILED" not in err, err
    report = (output / "REPORT.md").read_text()
    assert "| interrupted (partial) |" in report and "partial output" in report
    assert "| failed |" not in report and "**Failed**" not in report


def test_a_second_run_into_the_same_folder_is_refused_naming_the_first(tmp_path, capsys):
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\nfrom pathlib import Path\nfrom milab_widgets.reproduce import output_lock\n"
        f"with output_lock(Path({str(tmp_path)!r})):\n    print('held', flush=True)\n"
        "    time.sleep(60)")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert cli.main(["reproduce", "intH", "--output", str(tmp_path)]) == 2
    finally:
        holder.kill()
        holder.wait()
    err = capsys.readouterr().err
    assert f"another `milab reproduce` is writing into {tmp_path} (pid {holder.pid}" in err
    assert not (tmp_path / "intH").exists()
    with reproduce.output_lock(tmp_path):  # released with the process that held it
        pass


def test_an_output_folder_that_cannot_be_written_is_refused_before_any_work(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert cli.main(["reproduce", "intH", "--output", str(blocker / "out")]) == 2
    err = capsys.readouterr().err
    assert f"cannot write into the output folder {blocker / 'out'}" in err
    assert "Choose another --output" in err
