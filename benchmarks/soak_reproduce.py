"""Soak run of the papers' panel cells, executed the way `milab reproduce` runs notebooks,
counting stalls: a cell still running with its kernel idle (no CPU) past a deadline.

Each round executes every chosen paper's real notebook in quick mode, ``--jobs`` papers at
a time, with the notebook's last cell (the paper's panel) repeated ``--panel-repeats``
times, on a machine kept busy by ``--load`` spinning processes. Two routes:

* ``threads`` -- the route `milab reproduce` took up to issue 20: ``papermill.execute_notebook``
  in threads of this one process, no execution timeout. A monitor thread watches every
  running cell; on a stall it records the evidence (py-spy dumps of this process and of the
  kernel, whether the reply waits unread in the client's shell socket, whether iopub said
  idle, whether the kernel answers a second client) and then kills the kernel so that the
  round goes on.
* ``runner`` -- the route `milab reproduce` takes now (:mod:`milab_widgets.reproduce`): one
  worker process per paper, each cell's reply awaited by the watchdog. Each round runs the
  `milab reproduce` command itself; stalls are read from the run records it writes
  (``run.json``: every intervention of the watchdog).

Usage (outside the test suite; it runs for a long time)::

    MILAB_DATA_HOME=../shared/data python -m benchmarks.soak_reproduce --route threads \\
        --rounds 10 --panel-repeats 5 --load 1 --out soak-threads
    python -m benchmarks.soak_reproduce --route runner --rounds 10 --out soak-runner

It prints one line per notebook run and a summary (panel-cell executions, stalls, rate with
its 95 % Clopper-Pearson interval), and writes ``summary.json`` and the stall evidence under
``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
from scipy.stats import beta

from milab_widgets.papers import PAPERS, notebooks_dir

#: Seconds a running cell's kernel may use no CPU before the cell counts as stalled.
IDLE_DEADLINE = 45.0


#: The cells of the ``--cells output-widget`` experiment: no paper, only what nbclient does
#: for an ipywidgets Output widget (it answers every captured output with a comm_msg
#: "update" sent on the shell socket, while the cell's execute_reply is awaited there).
OUTPUT_WIDGET_PARAMETERS = "quick, seed, output_dir = True, 0, '.'"
OUTPUT_WIDGET_CELL = """import ipywidgets as widgets
from IPython.display import display
output = widgets.Output()
display(output)
for line in range(40):
    with output:
        print(line)
"""


def soak_notebook(paper: str, panel_repeats: int, folder: Path, cells: str = "papers") -> Path:
    """``paper``'s notebook with its last cell (the panel) repeated ``panel_repeats`` times;
    with ``cells="output-widget"`` a notebook of ``panel_repeats`` Output-widget cells."""
    if cells == "output-widget":
        notebook = nbformat.v4.new_notebook(metadata={"kernelspec": {
            "name": "python3", "display_name": "Python 3", "language": "python"}})
        notebook.cells = [nbformat.v4.new_code_cell(OUTPUT_WIDGET_PARAMETERS,
                                                    metadata={"tags": ["parameters"]})]
        notebook.cells += [nbformat.v4.new_code_cell(OUTPUT_WIDGET_CELL)
                           for _ in range(panel_repeats)]
    else:
        notebook = nbformat.read(notebooks_dir() / PAPERS[paper], as_version=4)
        panel = notebook.cells[-1]
        assert "Panel" in panel.source, f"{paper}: the last cell is not the panel cell"
        notebook.cells.extend(nbformat.v4.new_code_cell(panel.source)
                              for _ in range(panel_repeats - 1))
    path = folder / PAPERS[paper]
    nbformat.write(notebook, path)
    return path


def panel_cells_executed(executed: Path, panel_repeats: int) -> int:
    """How many of the notebook's trailing panel cells were executed (sent to the kernel,
    which numbered them), a stalled one included; read right after the run, as the next
    round overwrites the notebook. papermill marks every cell "completed" at the end, even
    after a dead kernel, so the execution count is what tells."""
    if not executed.is_file():
        return 0
    cells = nbformat.read(executed, as_version=4).cells[-panel_repeats:]
    return sum(cell.get("execution_count") is not None for cell in cells)


# -- the threads route, with its stall monitor -----------------------------------------------
class Watched:
    """What the monitor knows of one running notebook (filled in by the recording client)."""

    def __init__(self, paper: str, round_: int):
        self.paper, self.round = paper, round_
        self.client = None
        self.cell_index = None
        self.cell_started = None
        self.iopub_idle = False


WATCHED: dict[int, Watched] = {}  # thread id -> what it runs


def recording_engine():
    """papermill's nbclient engine whose client tells the monitor which cell runs; it
    changes nothing in how cells execute."""
    from jupyter_core.utils import run_sync
    from papermill.clientwrap import PapermillNotebookClient
    from papermill.engines import NBClientEngine, papermill_engines

    class RecordingClient(PapermillNotebookClient):
        # nbclient binds execute_cell to its own coroutine: rebind it to this override
        def execute_cell(self, *args, **kwargs):
            return run_sync(self.async_execute_cell)(*args, **kwargs)

        async def async_execute_cell(self, cell, cell_index, execution_count=None,
                                     store_history=True):
            watched = WATCHED[threading.get_ident()]
            watched.client, watched.cell_index = self, cell_index
            watched.cell_started, watched.iopub_idle = time.monotonic(), False
            try:
                return await super().async_execute_cell(cell, cell_index, execution_count,
                                                        store_history)
            finally:
                watched.cell_index = None

        def process_message(self, msg, cell, cell_index):
            if (msg["msg_type"] == "status"
                    and msg["content"].get("execution_state") == "idle"):
                WATCHED[threading.get_ident()].iopub_idle = True
            return super().process_message(msg, cell, cell_index)

    import papermill.engines as engines

    engines.PapermillNotebookClient = RecordingClient  # this soak process only
    papermill_engines.register("soak-recording", NBClientEngine)
    return "soak-recording"


def run_threads_route(paper: str, source: Path, folder: Path, round_: int, engine: str,
                      panel_repeats: int) -> dict:
    """One notebook through papermill in this thread, as `milab reproduce` did."""
    import papermill

    from milab_widgets.notebook_run import logging_kernel_manager

    folder.mkdir(parents=True, exist_ok=True)
    WATCHED[threading.get_ident()] = Watched(paper, round_)
    started = time.perf_counter()
    error = None
    try:
        papermill.execute_notebook(
            str(source), str(folder / PAPERS[paper]),
            parameters={"quick": True, "seed": 0, "output_dir": str(folder)},
            cwd=str(folder), progress_bar=False, kernel_name="python3", engine_name=engine,
            kernel_manager_class=logging_kernel_manager(folder / "kernel.log",
                                                        folder / "kernel.pid"))
    except Exception as failure:  # noqa: BLE001 -- a stalled (killed) kernel lands here
        error = f"{type(failure).__name__}: {failure}"[:300]
    finally:
        WATCHED.pop(threading.get_ident(), None)
    return {"paper": paper, "round": round_, "seconds": round(time.perf_counter() - started, 1),
            "error": error,
            "executions": panel_cells_executed(folder / PAPERS[paper], panel_repeats)}


def cpu_seconds(pid: int) -> float:
    import psutil

    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def monitor(out: Path, stalls: list, stop: threading.Event, idle_deadline: float) -> None:
    """Every 5 s: a cell whose kernel used no CPU for ``idle_deadline`` seconds is a stall;
    record the evidence, then kill the kernel so the round can go on."""
    last_cpu: dict[int, tuple[float, float]] = {}  # kernel pid -> (cpu seconds, since)
    while not stop.wait(min(5.0, idle_deadline / 3)):
        for watched in list(WATCHED.values()):
            client = watched.client
            if client is None or watched.cell_index is None or client.km is None:
                continue
            try:
                pid = client.km.provisioner.process.pid
                used = cpu_seconds(pid)
            except Exception:  # noqa: BLE001 -- kernel gone between two looks
                continue
            now = time.monotonic()
            previous = last_cpu.get(pid)
            if previous is None or used - previous[0] > 0.05:
                last_cpu[pid] = (used, now)
                continue
            if now - previous[1] >= idle_deadline and now - watched.cell_started >= idle_deadline:
                stalls.append(record_stall(watched, pid, out / f"stall-{len(stalls) + 1}"))
                last_cpu.pop(pid, None)


def record_stall(watched: Watched, kernel_pid: int, folder: Path) -> dict:
    """The evidence of one stall, then the kernel killed."""
    import zmq

    folder.mkdir(parents=True, exist_ok=True)
    client = watched.client
    evidence = {"paper": watched.paper, "round": watched.round, "cell": watched.cell_index,
                "seconds_in_cell": round(time.monotonic() - watched.cell_started, 1),
                "iopub_idle_seen": watched.iopub_idle,
                "cell_source": client.nb.cells[watched.cell_index].source[:200]}
    for name, pid in (("client", os.getpid()), ("kernel", kernel_pid)):
        dump = subprocess.run(["py-spy", "dump", "--pid", str(pid), "--locals"],
                              capture_output=True, text=True, timeout=60)
        (folder / f"py-spy-{name}.txt").write_text(dump.stdout + dump.stderr)
    # Is the reply sitting unread in the client's own shell socket (a missed wake-up on
    # the client side), or was it never sent?  (Read while the owner thread sleeps in epoll.)
    for channel in ("shell", "iopub"):
        socket = getattr(client.kc, f"{channel}_channel").socket
        evidence[f"client_{channel}"] = watched_by_loop(socket)
        evidence[f"client_{channel}"]["readable"] = bool(
            socket.getsockopt(zmq.EVENTS) & zmq.POLLIN)
    evidence["second_client"] = ask_kernel_info(client.km.connection_file)
    time.sleep(15)
    evidence["client_moved_on_after_probe"] = watched.cell_index is None
    (folder / "evidence.json").write_text(json.dumps(evidence, indent=1))
    if watched.cell_index is not None:
        os.kill(kernel_pid, 9)
    print(f"STALL {json.dumps(evidence)}", flush=True)
    return evidence


def watched_by_loop(socket) -> dict:
    """Whether the socket's file descriptor is registered with its event loop (asyncio's
    table) and in that loop's epoll interest list (/proc/self/fdinfo of the epoll fd): a
    socket missing from either can never wake its waiter."""
    import zmq

    fd = socket.getsockopt(zmq.FD)
    loop = getattr(socket, "_current_loop", None)
    selector = getattr(loop, "_selector", None)
    if selector is None:
        return {"fd": fd, "loop": repr(loop)}
    epoll_fd = selector._selector.fileno()
    interest = [int(line.split()[1]) for line in
                Path(f"/proc/self/fdinfo/{epoll_fd}").read_text().splitlines()
                if line.startswith("tfd:")]
    return {"fd": fd, "in_asyncio_table": fd in selector._fd_to_key,
            "asyncio_table": sorted(selector._fd_to_key), "in_epoll_interest_list": fd in interest,
            "epoll_interest_list": sorted(interest)}


def ask_kernel_info(connection_file: str) -> str:
    """Whether a second client on the same connection file gets a kernel_info reply."""
    from jupyter_client import BlockingKernelClient

    second = BlockingKernelClient(connection_file=connection_file)
    second.load_connection_file()
    second.start_channels()
    try:
        second.kernel_info_reply = second.kernel_info(reply=True, timeout=10)
        return "replied"
    except Exception as error:  # noqa: BLE001
        return f"no reply: {type(error).__name__}"
    finally:
        second.stop_channels()


def soak_threads(papers, rounds, panel_repeats, jobs, out: Path, cells: str,
                 idle_deadline: float) -> tuple[list, list]:
    engine = recording_engine()
    sources = out / "notebooks"
    sources.mkdir(parents=True, exist_ok=True)
    notebooks = {paper: soak_notebook(paper, panel_repeats, sources, cells) for paper in papers}
    stalls, runs, stop = [], [], threading.Event()
    watcher = threading.Thread(target=monitor, args=(out, stalls, stop, idle_deadline),
                               daemon=True)
    watcher.start()
    try:
        for round_ in range(rounds):
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                futures = [pool.submit(run_threads_route, paper, notebooks[paper],
                                       out / "output" / paper, round_, engine, panel_repeats)
                           for paper in papers]
                for future in futures:
                    runs.append(future.result())
                    print(f"RUN {json.dumps(runs[-1])}", flush=True)
    finally:
        stop.set()
    return runs, stalls


# -- the runner route ------------------------------------------------------------------------
def soak_runner(papers, rounds, panel_repeats, jobs, out: Path, cells: str,
                idle_deadline: float) -> tuple[list, list]:
    """Each round is one `milab reproduce PAPERS --jobs N` (the command a user types), run
    on the soak notebooks; stalls are the watchdog's interventions in the run records."""
    from milab_widgets.papers import read_run_record

    sources = out / "notebooks"
    sources.mkdir(parents=True, exist_ok=True)
    for paper in papers:
        soak_notebook(paper, panel_repeats, sources, cells)
    environment = {**os.environ, "MILAB_NOTEBOOKS": str(sources)}
    runs, stalls = [], []
    for round_ in range(rounds):
        command = ["milab", "reproduce", *papers, "--jobs", str(jobs), "--output",
                   str(out / "output")]
        finished = subprocess.run(command, env=environment, capture_output=True, text=True)
        (out / f"round-{round_}.log").write_text(finished.stdout + finished.stderr)
        for paper in papers:
            record = read_run_record(out / "output" / paper)
            events = record.get("watchdog", [])
            runs.append({"paper": paper, "round": round_, "seconds": record.get("seconds"),
                         "error": record.get("error"), "interventions": len(events),
                         "exit": finished.returncode,
                         "executions": panel_cells_executed(
                             out / "output" / paper / PAPERS[paper], panel_repeats)})
            stalls.extend({"paper": paper, "round": round_, **event} for event in events)
            print(f"RUN {json.dumps(runs[-1])}", flush=True)
    return runs, stalls


# -- the summary -----------------------------------------------------------------------------
def clopper_pearson(events: int, trials: int) -> tuple[float, float]:
    low = 0.0 if events == 0 else beta.ppf(0.025, events, trials - events + 1)
    high = 1.0 if events == trials else beta.ppf(0.975, events + 1, trials - events)
    return float(low), float(high)


def spin_processes(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--route", choices=("threads", "runner"), default="runner")
    parser.add_argument("--papers", nargs="*", default=list(PAPERS))
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--panel-repeats", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--load", type=int, default=1, help="busy processes beside the soak")
    parser.add_argument("--out", type=Path, default=Path("soak"))
    parser.add_argument("--cells", choices=("papers", "output-widget"), default="papers",
                        help="the papers' panel cells, or cells writing to an Output widget")
    parser.add_argument("--idle-deadline", type=float, default=IDLE_DEADLINE,
                        help="seconds of kernel CPU idleness that make a running cell a stall")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    spinners = spin_processes(args.load)
    started = time.time()
    try:
        soak = soak_threads if args.route == "threads" else soak_runner
        runs, stalls = soak(args.papers, args.rounds, args.panel_repeats, args.jobs, args.out,
                            args.cells, args.idle_deadline)
    finally:
        for spinner in spinners:
            spinner.kill()
    executions = sum(run["executions"] for run in runs)
    low, high = clopper_pearson(len(stalls), executions)
    summary = {"route": args.route, "cells": args.cells, "papers": args.papers, "rounds": args.rounds,
               "jobs": args.jobs, "load": args.load, "notebook_runs": len(runs),
               "panel_cell_executions": executions, "stalls": len(stalls),
               "stall_rate": len(stalls) / max(1, executions), "rate_95ci": [low, high],
               "failed_runs": sum(run["error"] is not None for run in runs),
               "minutes": round((time.time() - started) / 60, 1), "stall_records": stalls}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1, default=str))
    print(f"{args.route}: {len(stalls)} stalls in {executions} panel-cell executions "
          f"({len(runs)} notebook runs; rate 95 % CI [{low:.3f}, {high:.3f}]) "
          f"in {summary['minutes']} min")


if __name__ == "__main__":
    main()
