"""Soak run of kernel starts: how often does a kernel die at start because another process
took one of its ports?

jupyter_client's TCP transport picks a kernel's five ports in the client (a socket bound to
port 0, read, closed) and hands them to the kernel, which binds them once it has imported
ipykernel -- a second or more later on a loaded machine. A port picked that way is an
ephemeral port, so any other process's outgoing connection or bind(0) in that window can
take it, and the kernel dies with ``ZMQError: Address already in use``; nbclient then
reports ``Kernel died before replying to kernel_info``. `milab reproduce` met this beside
the test suite (a paper failed after 12 s). The IPC transport (Unix sockets at paths of the
manager's choosing) has no ports to lose.

Each round starts ``--workers`` processes that each start and shut down ``--starts``
kernels, one at a time, with the chosen route's kernel manager, while ``--churn``
processes open and close loopback TCP connections as fast as they can (the ephemeral-port
traffic of a test suite, a browser and Jupyter servers beside the run) and ``--load``
processes spin:

* ``tcp`` -- jupyter_client's ``AsyncKernelManager`` as nbclient uses it by default;
* ``milab`` -- the manager `milab reproduce` uses (``notebook_run.logging_kernel_manager``).

Usage (outside the test suite)::

    python -m benchmarks.soak_kernel_starts --route tcp --workers 4 --starts 50 --churn 2
    python -m benchmarks.soak_kernel_starts --route milab --workers 4 --starts 50 --churn 2

It prints the starts, the failures by error and the failure rate with its 95 %
Clopper-Pearson interval, and writes the same to ``--out`` as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import socket
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks.soak_reproduce import clopper_pearson, spin_processes
from milab_widgets.kernel_sockets import wait_for_kernel_info


def manager_class(route: str, folder: Path):
    if route == "tcp":
        from jupyter_client.manager import AsyncKernelManager

        return AsyncKernelManager
    from milab_widgets.notebook_run import logging_kernel_manager

    return logging_kernel_manager(folder / "kernel.log", folder / "kernel.pid")


async def start_and_stop(manager_cls) -> str | None:
    """One kernel started, asked for kernel_info, shut down; the error's name, or None."""
    manager = manager_cls(kernel_name="python3")
    try:
        await manager.start_kernel()
        await wait_for_kernel_info(manager)
        return None
    except Exception as error:  # noqa: BLE001 -- counted and reported
        return f"{type(error).__name__}: {str(error)[:80]}"
    finally:
        await manager.shutdown_kernel(now=True)


def worker(route: str, starts: int, results) -> None:
    folder = Path(tempfile.mkdtemp(prefix="milab-soak-"))
    manager_cls = manager_class(route, folder)
    for _ in range(starts):
        results.put(asyncio.run(start_and_stop(manager_cls)))


def churn() -> None:
    """Open and close loopback TCP connections for ever: ephemeral ports in use."""
    server = socket.create_server(("127.0.0.1", 0))
    address = server.getsockname()
    server.setblocking(False)
    while True:
        with socket.create_connection(address), contextlib.suppress(BlockingIOError):
            server.accept()[0].close()


def soak(route: str, workers: int, starts: int, churners: int) -> Counter:
    results = multiprocessing.Queue()
    noise = [multiprocessing.Process(target=churn, daemon=True) for _ in range(churners)]
    runs = [multiprocessing.Process(target=worker, args=(route, starts, results))
            for _ in range(workers)]
    for process in noise + runs:
        process.start()
    outcomes = Counter(results.get() or "ok" for _ in range(workers * starts))
    for process in runs:
        process.join()
    for process in noise:
        process.terminate()
    return outcomes


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--route", choices=("tcp", "milab"), default="milab")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--starts", type=int, default=50, help="kernel starts per worker")
    parser.add_argument("--churn", type=int, default=2, help="processes churning TCP ports")
    parser.add_argument("--load", type=int, default=0, help="busy processes beside the soak")
    parser.add_argument("--out", type=Path, default=Path("soak-kernel-starts.json"))
    args = parser.parse_args(argv)
    spinners = spin_processes(args.load)
    try:
        outcomes = soak(args.route, args.workers, args.starts, args.churn)
    finally:
        for process in spinners:
            process.kill()
    trials = sum(outcomes.values())
    failures = trials - outcomes["ok"]
    low, high = clopper_pearson(failures, trials)
    summary = {"route": args.route, "workers": args.workers, "churn": args.churn,
               "load": args.load, "starts": trials, "failures": failures,
               "rate": failures / trials, "rate_95": [low, high], "outcomes": dict(outcomes)}
    args.out.write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    sys.exit(0)


if __name__ == "__main__":
    main()
