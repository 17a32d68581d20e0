"""Regenerate the papers' experiments: `milab reproduce`, which always finishes.

Each paper's notebook (``notebooks/<paper>.ipynb``) takes its parameters (``quick``,
``seed``, ``output_dir``) from papermill, writes its tables and charts into
``<output>/<paper>/`` and the executed notebook beside them. Papers run ``jobs`` at a time,
each in a worker process of its own (:mod:`milab_widgets.notebook_run`) with its own kernel,
started in the paper's own folder.

What can go wrong, and what happens then:

* a cell whose reply is lost (issue 20): the worker's watchdog recovers it or re-runs the
  notebook (:mod:`milab_widgets.kernel_watch`); its events are in the run record;
* a paper that fails or whose kernel dies: reported with the executed notebook and the
  kernel's log (``<paper>/kernel.log``); the other papers go on;
* a paper still running after ``timeout`` seconds: its worker and kernel are stopped, and
  the line printed names the paper, the cell that was running and the kernel's log;
* Ctrl-C or SIGTERM: every worker and kernel is stopped (no orphan process), unfinished
  papers are recorded as interrupted, and the report marks their output as partial;
* a second `milab reproduce` into the same folder: refused, naming the first;
* an output folder that cannot be written: refused before any work.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from milab_widgets.atomic import write_text_atomically
from milab_widgets.evaluation.cluster import SCHEDULER_VARIABLE, THREAD_VARIABLES, cluster_address
from milab_widgets.exceptions import InputError
from milab_widgets.papers import (
    GRID_LOG,
    GRID_LOG_VARIABLE,
    KERNEL_LOG,
    KERNEL_PID,
    PAPERS,
    RUN_RECORD,
    WORKER_LOG,
    paper_names,
    read_json,
    read_run_record,
    read_settings,
)

__all__ = [
    "PaperRun", "available_cores", "default_jobs", "reproduce", "on_scheduler", "run_all",
    "mode_arguments",
    "run_paper", "wait_until", "stop_worker", "kill_leftover_kernel", "record_stopped",
    "timeout_message", "running_cell", "RunInterrupted", "StopFlag", "stop_on_signals",
    "check_writable", "output_lock", "worker_environment", "refuse_to_overwrite_full_run",
    "skipped_datasets", "how_to_get",
]

#: Default limit per paper, in minutes: the quick protocol takes a few minutes per paper on
#: 2 cores; the papers' own protocols take hours (LSkMDDM's, TwoViewMIC's).
DEFAULT_TIMEOUT_MINUTES = {True: 30, False: 24 * 60}

#: Seconds a stopped worker gets to shut its kernel down before it is killed.
STOP_GRACE_SECONDS = 10.0

#: How the error of a paper stopped by Ctrl-C / SIGTERM begins (:attr:`PaperRun.interrupted`).
INTERRUPTED = "interrupted"
#: The lock file that keeps two runs out of one output folder.
LOCK_FILE = ".milab-reproduce.lock"

#: The worker each paper runs in (a command line; tests give their own).
WORKER = (sys.executable, "-m", "milab_widgets.notebook_run")


@dataclass(frozen=True)
class PaperRun:
    """One paper's run: where its executed notebook is, how long it took, why it failed
    (None when it did not) and the watchdog's interventions."""

    paper: str
    notebook: Path
    seconds: float
    error: str | None = None
    stalls: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def interrupted(self) -> bool:
        """Stopped by Ctrl-C / SIGTERM: its output is partial, not a failure of its own."""
        return bool(self.error) and self.error.startswith(INTERRUPTED)


def available_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def default_jobs(n_papers: int) -> int:
    """Papers to run at once: the available cores, at most ``n_papers``."""
    return max(1, min(available_cores(), n_papers))


def reproduce(papers: Iterable[str], *, quick: bool = True, seed: int = 0,
              output="milab-output", jobs: int | None = None, timeout: float | None = None,
              on_start: Callable[[str], None] | None = None,
              on_done: Callable[[PaperRun], None] | None = None,
              worker: Sequence[str] | None = None,
              scheduler: str | None = None) -> list[PaperRun]:
    """Execute the notebooks of ``papers``, ``jobs`` at a time (default: :func:`default_jobs`),
    each within ``timeout`` seconds (default: :data:`DEFAULT_TIMEOUT_MINUTES`), each in a
    ``worker`` process (a command line; default :data:`WORKER`).

    ``scheduler``: every grid's tasks run on this Dask scheduler (``tcp://host:8786``) or on
    a local cluster of N worker processes (``local:N``, started and closed here); the
    notebooks, tables and report stay here (`milab_widgets.evaluation.cluster`).

    Returns one PaperRun per paper, in PAPERS order; ``on_start(paper)`` is called as each
    one starts and ``on_done(run)`` as each one finishes. A failing paper does not stop the others. Raises InputError, before running
    anything, for an unknown paper, an output folder that cannot be written or that another
    run is writing into, a quick run that would overwrite a full one, or a scheduler that
    does not answer. Ctrl-C / SIGTERM
    stops every paper and raises :class:`RunInterrupted` carrying the runs so far.
    """
    papers = paper_names(papers)
    jobs = default_jobs(len(papers)) if jobs is None else jobs
    if jobs < 1:
        raise InputError(f"jobs={jobs}: give at least 1 paper to run at a time.")
    timeout = DEFAULT_TIMEOUT_MINUTES[quick] * 60 if timeout is None else timeout
    output = Path(output).resolve()
    check_writable(output)
    with output_lock(output):
        folders = {paper: output / paper for paper in papers}
        if quick:
            for folder in folders.values():
                refuse_to_overwrite_full_run(folder)
        environment = worker_environment(max(1, available_cores() // jobs))
        with on_scheduler(scheduler, environment), stop_on_signals() as stop:
            command = [*(worker or WORKER), *mode_arguments(quick, seed)]
            runs = run_all(papers, folders, command,
                           environment, jobs, timeout, stop, on_start, on_done)
        if stop.signal_name:
            raise RunInterrupted(stop.signal_name, [runs[paper] for paper in papers])
    return [runs[paper] for paper in papers]


@contextmanager
def on_scheduler(scheduler: str | None, environment: dict) -> Iterator[None]:
    """``environment`` naming ``scheduler``'s address (:data:`SCHEDULER_VARIABLE`) while the
    block runs, ``local:N``'s cluster running; unchanged for None."""
    if scheduler is None:
        yield
        return
    with cluster_address(scheduler, available_cores()) as address:
        environment[SCHEDULER_VARIABLE] = address
        yield


def run_all(papers, folders, command, environment, jobs, timeout, stop, on_start,
            on_done) -> dict:
    runs = {}

    def started(paper: str) -> PaperRun:
        if on_start and not stop.is_set():
            on_start(paper)
        return run_paper(paper, folders[paper], command, environment, timeout, stop)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(started, paper) for paper in papers]
        for future in as_completed(futures):
            run = future.result()
            runs[run.paper] = run
            if on_done:
                on_done(run)
    return runs


def mode_arguments(quick: bool, seed: int) -> list[str]:
    return [*([] if quick else ["--full"]), "--seed", str(seed)]


# -- one paper -------------------------------------------------------------------------------
def run_paper(paper: str, folder: Path, command: Sequence[str], environment: dict,
              timeout: float, stop: StopFlag) -> PaperRun:
    """Run ``paper``'s worker until it ends, ``timeout`` passes or ``stop`` is set."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RUN_RECORD).unlink(missing_ok=True)
    (folder / GRID_LOG).unlink(missing_ok=True)
    started = time.monotonic()
    if stop.is_set():
        return record_stopped(paper, folder, 0.0,
                              f"{INTERRUPTED} ({stop.signal_name}) before it started")
    with open(folder / WORKER_LOG, "ab") as log:
        process = subprocess.Popen([*command, "--paper", paper, "--folder", str(folder)],
                                   stdout=log, stderr=subprocess.STDOUT,
                                   env={**environment, GRID_LOG_VARIABLE: str(folder / GRID_LOG)},
                                   start_new_session=True)  # Ctrl-C reaches only the runner
    why_stopped = None
    try:
        if not wait_until(process, started + timeout, stop):
            why_stopped = (f"{INTERRUPTED} ({stop.signal_name}): partial output" if stop.is_set()
                           else timeout_message(folder, timeout))  # read before stopping
    finally:
        if process.poll() is None:
            stop_worker(process)
        kill_leftover_kernel(folder)
    seconds = time.monotonic() - started
    if why_stopped:
        return record_stopped(paper, folder, seconds, why_stopped)
    record = read_run_record(folder)
    if not record:
        return record_stopped(paper, folder, seconds,
                              f"the worker exited with status {process.returncode} and no "
                              f"run record; its log: {folder / WORKER_LOG}")
    return PaperRun(paper, folder / PAPERS[paper], seconds, record.get("error"),
                    record.get("watchdog", []))


def wait_until(process: subprocess.Popen, deadline: float, stop: StopFlag) -> bool:
    """Whether ``process`` ended before ``deadline`` without ``stop`` being set."""
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        try:
            process.wait(timeout=min(1.0, remaining))
            return True
        except subprocess.TimeoutExpired:
            continue
    return False


def stop_worker(process: subprocess.Popen) -> None:
    """SIGTERM (the worker shuts its kernel down), then SIGKILL after the grace period."""
    for signum, grace in ((signal.SIGTERM, STOP_GRACE_SECONDS), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, signum)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def kill_leftover_kernel(folder: Path) -> None:
    """Kill the paper's kernel if it outlived its worker (its pid is in ``kernel.pid``;
    checked to still be an ipykernel, so a reused pid is left alone); the pid file goes
    with it, so no finished folder keeps one."""
    import psutil

    try:
        pid = int((folder / KERNEL_PID).read_text())
        kernel = psutil.Process(pid)
        if any("ipykernel" in part for part in kernel.cmdline()):
            kernel.kill()
            kernel.wait(timeout=10)
    except (OSError, ValueError, psutil.Error):
        pass
    (folder / KERNEL_PID).unlink(missing_ok=True)


def record_stopped(paper: str, folder: Path, seconds: float, error: str) -> PaperRun:
    """The run record of a worker that did not finish, written in its place."""
    previous = read_run_record(folder)
    record = {**previous, "paper": paper, "status": "interrupted", "error": error,
              "seconds": round(seconds, 1)}
    write_text_atomically(folder / RUN_RECORD, json.dumps(record, indent=1))
    return PaperRun(paper, folder / PAPERS[paper], seconds, error, previous.get("watchdog", []))


def timeout_message(folder: Path, timeout: float) -> str:
    cell = (running_cell(read_json(folder / PAPERS[folder.name]).get("cells", []))
            if folder.name in PAPERS else None)
    where = f"cell {cell[0]} ({cell[1]!r}) was still running" if cell else "no cell had started"
    return (f"gave up after {timeout / 60:.0f} min (--timeout): {where}; the kernel's log: "
            f"{folder / KERNEL_LOG}; re-run with a longer --timeout (finished results are "
            "cached)")


def running_cell(cells: list[dict]) -> tuple[int, str] | None:
    """The index and last line of the cell (of a notebook's ``cells``, as JSON) that
    papermill marked as running, if any."""
    for index, cell in enumerate(cells):
        if cell.get("metadata", {}).get("papermill", {}).get("status") == "running":
            source = "".join(cell.get("source", "")).strip().splitlines()
            return index, (source[-1] if source else "")[:80]
    return None


# -- the whole run ---------------------------------------------------------------------------
class RunInterrupted(Exception):
    """Ctrl-C or SIGTERM stopped the run; ``runs`` holds every paper's run (unfinished
    ones with an "interrupted" error)."""

    def __init__(self, signal_name: str, runs: list[PaperRun]):
        super().__init__(f"stopped by {signal_name}")
        self.signal_name, self.runs = signal_name, runs


class StopFlag(threading.Event):
    """Set by the first SIGINT or SIGTERM; remembers which."""

    signal_name: str | None = None


@contextmanager
def stop_on_signals() -> Iterator[StopFlag]:
    """While running: SIGINT and SIGTERM set the returned flag instead of killing the
    runner mid-way (only in the main thread, where Python delivers signals)."""
    stop = StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handle(signum, frame):
        stop.signal_name = stop.signal_name or signal.Signals(signum).name
        stop.set()

    previous = {signum: signal.signal(signum, handle) for signum in (signal.SIGINT,
                                                                       signal.SIGTERM)}
    try:
        yield stop
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


#: Why an output folder cannot be written, in words, by the OS error's errno.
UNWRITABLE_BECAUSE = {
    errno.EEXIST: "a file (not a folder) is in the way of it or of a folder above it",
    errno.ENOTDIR: "a file (not a folder) is in the way of it or of a folder above it",
    errno.EACCES: "you have no permission to write there",
    errno.EPERM: "you have no permission to write there",
    errno.EROFS: "it is on a read-only file system",
    errno.ENOSPC: "the disk is full",
}


def check_writable(output: Path) -> None:
    """Raise InputError, in a sentence, unless files can be created in ``output`` (made if
    missing)."""
    try:
        output.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=output, prefix=".milab-write-check-"):
            pass
    except OSError as error:
        because = UNWRITABLE_BECAUSE.get(error.errno, error.strerror or str(error))
        raise InputError(f"cannot write into the output folder {output}: {because}. "
                         "Choose another --output, or make this one writable.") from error


@contextmanager
def output_lock(output: Path) -> Iterator[None]:
    """Hold ``output``'s lock for the run, or raise InputError naming the run holding it.
    The kernel releases the lock when the process ends, however it ends; a run that ends
    normally also removes the lock file, so a finished folder holds only results."""
    path = output / LOCK_FILE
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = read_json(path)
            raise InputError(
                f"another `milab reproduce` is writing into {output} (pid {holder.get('pid')}, "
                f"started {holder.get('started')}: {holder.get('command')}); wait for it to "
                "finish, or choose another --output.") from None
        os.ftruncate(handle, 0)
        os.write(handle, json.dumps({
            "pid": os.getpid(), "command": " ".join(["milab", *sys.argv[1:]]),
            "started": datetime.now(UTC).isoformat(timespec="seconds")}).encode())
        yield
        path.unlink(missing_ok=True)  # still held: no other run can be inside it now
    finally:
        os.close(handle)


def worker_environment(threads: int) -> dict:
    """The environment of the workers and their kernels: ``threads`` numba/BLAS threads
    each (unless the user set them), and this very milab_widgets importable when it runs
    from a source checkout."""
    environment = dict(os.environ)
    for variable in THREAD_VARIABLES:
        environment.setdefault(variable, str(threads))
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file():
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(checkout), os.environ.get("PYTHONPATH")]))
    return environment


def refuse_to_overwrite_full_run(folder: Path) -> None:
    """Raise InputError if ``folder`` holds a full run (its executed notebook ran with
    quick=False), which a quick run would overwrite."""
    notebook = folder / PAPERS.get(folder.name, "")
    if not notebook.is_file():
        return
    papermill = read_json(notebook).get("metadata", {}).get("papermill", {})
    if papermill.get("parameters", {}).get("quick") is False:
        raise InputError(f"{folder} holds a full run that a quick run would overwrite; add "
                         "--full, choose another --output, or delete that folder first.")


# -- what a run skipped ----------------------------------------------------------------------
def skipped_datasets(output, papers: Iterable[str]) -> dict[str, dict[str, str]]:
    """Per paper, the datasets its run skipped (from its ``settings.json``), each with what
    to do: the `milab fetch` command when the registry can download it, else why it cannot
    be fetched and how to get it."""
    return {paper: {name: how_to_get(name, reason) for name, reason in
                    read_settings(Path(output) / paper).get("skipped", {}).items()}
            for paper in papers}


def how_to_get(name: str, reason: str) -> str:
    """`milab fetch NAME` for a registered dataset with download URLs; otherwise the
    registry's instructions (or, for an unregistered one, the run's ``reason``)."""
    from milab_widgets.data.registry import REGISTRY

    spec = REGISTRY.get(name)
    if spec is None:
        return f"cannot be fetched: {reason}"
    if all(data_file.url for data_file in spec.files):
        return f"run `milab fetch {name}`"
    return f"cannot be fetched (no download URL): {spec.how_to_get or spec.source_url}"
