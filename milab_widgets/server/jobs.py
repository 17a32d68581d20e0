"""The ``milab reproduce`` job that JupyterLab's reproduction panel starts, watches and stops.

The job is the command line a user would type (``milab reproduce PAPERS [--full] --output
DIR``) in a process of its own, so it behaves exactly as in a terminal: each paper in its
own kernel under the watchdog, the report written at the end, and Stop delivered as SIGINT,
which is Ctrl-C (every kernel shut down, unfinished output marked "interrupted (partial)").
Its state is read from what the run writes, per paper (:func:`paper_state`): so a page that
reloads, or a second browser tab, sees the same job.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from milab_widgets.exceptions import InputError
from milab_widgets.papers import PAPERS, RUN_RECORD, paper_names, read_json, read_run_record
from milab_widgets.reproduce import running_cell

__all__ = ["OUTPUT", "ReproduceJob", "paper_state"]

#: The job's output folder, relative to the server's root (the CLI's default too).
OUTPUT = "milab-output"
#: The report the panel opens when the run has written it.
REPORT_HTML = "REPORT.html"
#: Lines of the job's terminal output kept for the panel.
LOG_LINES = 200


@dataclass
class ReproduceJob:
    """One run of ``milab reproduce`` for ``papers`` into ``output``."""

    papers: list[str]
    full: bool
    output: Path
    started: float = field(default_factory=time.time)
    process: subprocess.Popen | None = None
    log: deque = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    stop_requested: bool = False

    @classmethod
    def start(cls, papers, full: bool, root: Path) -> ReproduceJob:
        """Start the run (unknown papers are refused before anything starts)."""
        job = cls(paper_names(papers), bool(full), Path(root) / OUTPUT)
        command = [sys.executable, "-m", "milab_widgets.cli", "reproduce", *job.papers,
                   *(["--full"] if job.full else []), "--output", str(job.output)]
        job.process = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True,
                                       start_new_session=True)
        threading.Thread(target=job._read_output, daemon=True).start()
        return job

    def _read_output(self) -> None:
        for line in self.process.stdout:
            self.log.append(line.rstrip("\n"))

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """Ctrl-C: SIGINT to the runner, which stops every paper's kernel and marks what
        did not finish as interrupted."""
        if not self.running:
            raise InputError("no reproduction is running.")
        self.stop_requested = True
        self.process.send_signal(signal.SIGINT)

    def state(self, root: Path) -> dict:
        """What the panel shows: the job, each paper's state and the report when written."""
        report = self.output / REPORT_HTML
        finished = not self.running
        return {
            "papers": self.papers, "full": self.full, "started": self.started,
            "running": not finished, "stop_requested": self.stop_requested,
            "exit_code": None if not finished else self.process.returncode,
            "per_paper": [paper_state(self.output / paper, paper, self.started, finished)
                          for paper in self.papers],
            "report": (report.relative_to(root).as_posix()
                       if report.is_file() and report.stat().st_mtime >= self.started else None),
            "log": list(self.log)[-20:],
        }


def paper_state(folder: Path, paper: str, since: float, finished: bool) -> dict:
    """One paper's state in a run that started at ``since``: "waiting", "running" (with the
    notebook cell it is on), "done", "failed" or "interrupted" (with the reason, from the
    run record), or "not run" when the run ended before it began; with the data sets it
    skipped."""
    state = {"paper": paper, "status": "not run" if finished else "waiting", "detail": "",
             "skipped": _skipped(folder, since)}
    record_path, notebook = folder / RUN_RECORD, folder / PAPERS[paper]
    if _written_since(record_path, since):
        record = read_run_record(folder)
        status = record.get("status", "failed")
        state.update(status="done" if status == "ok" else status,
                     detail=record.get("error") or "")
    elif _written_since(notebook, since):
        cells = read_json(notebook).get("cells", [])
        cell = running_cell(cells)
        state.update(status="running" if not finished else "interrupted",
                     detail=f"cell {cell[0] + 1} of {len(cells)}: {cell[1]}" if cell else "")
    return state


def _skipped(folder: Path, since: float) -> list[str]:
    path = folder / "skipped.txt"
    if not _written_since(path, since):
        return []
    return [line.removeprefix("skipped ") for line in path.read_text().splitlines() if line]


def _written_since(path: Path, since: float) -> bool:
    return path.is_file() and path.stat().st_mtime >= since
