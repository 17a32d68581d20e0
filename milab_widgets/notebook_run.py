"""One paper's notebook, executed in a process of its own (``python -m
milab_widgets.notebook_run``): the worker that :func:`milab_widgets.reproduce.reproduce`
starts for each paper.

A process per paper, not a thread: papermill's ``cwd`` is a process-wide ``os.chdir``, so
papers run in threads of one process could start their kernels in each other's folders
(seen in issue 20); a process also gives each paper its own event loop and sockets, and can
be stopped (its kernel with it) without touching the others.

The worker executes the notebook through the watched engine
(:mod:`milab_widgets.kernel_watch`); when the watchdog finds a cell whose reply and outputs
were lost, it restarts the kernel and runs the notebook again (up to :data:`ATTEMPTS`
times; finished results come from the experiment's cache). It writes, atomically, the run
record ``<folder>/run.json``: status (``ok``, ``failed``, ``interrupted``), the error line,
seconds, attempts and the watchdog's events. SIGTERM stops it cleanly: the kernel is shut
down and the record says ``interrupted``.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path

from milab_widgets.atomic import write_text_atomically
from milab_widgets.data.home import pin_data_home
from milab_widgets.papers import (
    KERNEL_LOG,
    KERNEL_PID,
    PAPERS,
    RUN_RECORD,
    WATCHDOG_LOG,
    notebook_source,
)

__all__ = [
    "Interrupted", "run_notebook", "execute", "logging_kernel_manager", "describe_failure",
    "read_events", "stop_on_sigterm", "main",
]

#: Executions of a notebook whose outputs a lost message may have cut short.
ATTEMPTS = 3



class Interrupted(BaseException):
    """SIGTERM reached the worker (raised in the main thread by the signal handler)."""


def run_notebook(paper: str, folder: Path, quick: bool, seed: int) -> dict:
    """Execute ``paper``'s notebook into ``folder``; returns the run record (also written
    to ``folder/run.json``)."""
    from milab_widgets.kernel_watch import LostReplyError

    folder.mkdir(parents=True, exist_ok=True)
    (folder / WATCHDOG_LOG).unlink(missing_ok=True)
    started = time.perf_counter()
    record = {"paper": paper, "quick": quick, "seed": seed, "status": "ok", "error": None}
    for attempt in range(1, ATTEMPTS + 1):
        record["attempts"] = attempt
        try:
            execute(paper, folder, quick, seed)
            record.update(status="ok", error=None)
            break
        except LostReplyError as error:
            record.update(status="failed", error=f"LostReplyError: {error}")
        except Interrupted:
            record.update(status="interrupted", error="interrupted (SIGTERM): partial output")
            break
        except Exception as error:  # noqa: BLE001 -- the notebook's failure, reported
            record.update(status="failed", error=describe_failure(error))
            break
    record["seconds"] = round(time.perf_counter() - started, 1)
    record["watchdog"] = read_events(folder / WATCHDOG_LOG)
    write_text_atomically(folder / RUN_RECORD, json.dumps(record, indent=1))
    return record


def execute(paper: str, folder: Path, quick: bool, seed: int) -> None:
    import papermill

    from milab_widgets.kernel_watch import ENGINE_NAME

    pin_data_home()  # the kernel starts in the output folder
    papermill.execute_notebook(
        str(notebook_source(paper)), str(folder / PAPERS[paper]),
        parameters={"quick": quick, "seed": seed, "output_dir": str(folder)},
        cwd=str(folder), progress_bar=False, kernel_name="python3", engine_name=ENGINE_NAME,
        kernel_manager_class=logging_kernel_manager(folder / KERNEL_LOG, folder / KERNEL_PID),
        event_log=str(folder / WATCHDOG_LOG),
    )


def logging_kernel_manager(log: Path, pid_file: Path):
    """A jupyter_client kernel manager class whose kernels write their stderr (log lines,
    warnings, shutdown noise) to ``log`` instead of the terminal, and whose kernel's process
    id is written to ``pid_file`` (so that the runner can make sure it is gone). Its kernels
    listen on Unix sockets (:class:`milab_widgets.kernel_sockets.UnixSocketKernelManager`)."""
    from milab_widgets.kernel_sockets import UnixSocketKernelManager

    class LoggingKernelManager(UnixSocketKernelManager):
        async def _async_launch_kernel(self, kernel_cmd, **kw):
            with open(log, "ab") as stream:  # the kernel keeps its own copy of the handle
                kw["stderr"] = stream
                launched = await super()._async_launch_kernel(kernel_cmd, **kw)
            process = getattr(self.provisioner, "process", None)
            if process is not None:
                write_text_atomically(pid_file, str(process.pid))
            return launched

    return LoggingKernelManager


def describe_failure(error: Exception) -> str:
    """One line: the notebook's exception and cell for a failed cell, else the error."""
    from papermill.exceptions import PapermillExecutionError

    if isinstance(error, PapermillExecutionError):
        return f"{error.ename}: {error.evalue} (In [{error.exec_count}])"
    return f"{type(error).__name__}: {error}"


def read_events(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def stop_on_sigterm(signum, frame) -> None:
    raise Interrupted


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m milab_widgets.notebook_run",
                                     description="Execute one paper's notebook.")
    parser.add_argument("--paper", required=True, choices=list(PAPERS))
    parser.add_argument("--folder", required=True, type=Path)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    record = run_notebook(args.paper, args.folder, not args.full, args.seed)
    return 0 if record["status"] == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
