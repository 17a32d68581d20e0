"""Regenerate the papers' experiments by executing their notebooks with papermill.

Each paper's notebook (``notebooks/<paper>.ipynb``) takes its parameters (``quick``,
``seed``, ``output_dir``) from papermill, writes its tables and charts into
``<output>/<paper>/`` and the executed notebook beside them. Papers run in parallel, each
notebook in its own kernel (a separate process); a paper that fails is reported with the
executed notebook that holds its traceback, and the others go on.

A kernel's own log lines (ipykernel's "Kernel is running over TCP without encryption"
warning, the "KeyboardInterrupt caught in kernel" line of its shutdown) go to
``<output>/<paper>/kernel.log``, not to the terminal; a notebook's errors still reach the
user, through the executed notebook and the one-line failure this module reports.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from milab_widgets.exceptions import InputError, MilabError

#: Paper short name -> notebook file name, in the order `milab reproduce` runs them.
PAPERS = {"intH": "intH.ipynb", "CDVSE": "CDVSE.ipynb", "MFSEF": "MFSEF.ipynb",
          "LSkMDDM": "LSkMDDM.ipynb", "TwoViewMIC": "TwoViewMIC.ipynb"}

#: The file in each paper's folder that receives its kernel's log lines.
KERNEL_LOG = "kernel.log"

#: Thread-pool sizes of numba and the BLAS libraries, shared out among parallel kernels.
THREAD_VARIABLES = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS")


@dataclass(frozen=True)
class PaperRun:
    """One paper's run: where its executed notebook is, how long it took, and why it failed
    (None when it did not)."""

    paper: str
    notebook: Path
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def notebooks_dir() -> Path:
    """The papers' notebooks folder: $MILAB_NOTEBOOKS if set, else the installed package's
    (a wheel ships notebooks/ as milab_widgets/notebooks), else the source checkout's."""
    package = Path(__file__).resolve().parent
    if "MILAB_NOTEBOOKS" in os.environ:
        candidates = [Path(os.environ["MILAB_NOTEBOOKS"])]
    else:
        candidates = [package / "notebooks", package.parent / "notebooks"]
    for folder in candidates:
        if folder.is_dir():
            return folder
    raise MilabError(
        f"no notebooks folder at {' or '.join(map(str, candidates))}; reinstall milab-widgets "
        "(its wheel ships them), install a source checkout (pip install -e .), or set "
        "MILAB_NOTEBOOKS to the folder holding the notebooks."
    )


def paper_names(names: Iterable[str]) -> list[str]:
    """``names`` as PAPERS spells them (matched case-insensitively), in PAPERS order."""
    spelled = {paper.lower(): paper for paper in PAPERS}
    unknown = [name for name in names if name.lower() not in spelled]
    if unknown:
        raise InputError(f"unknown paper(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(PAPERS)} (any case), or --all.")
    wanted = {spelled[name.lower()] for name in names}
    return [paper for paper in PAPERS if paper in wanted]


def available_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def default_jobs(n_papers: int) -> int:
    """Papers to run at once: the available cores, at most ``n_papers``."""
    return max(1, min(available_cores(), n_papers))


def reproduce(papers: Iterable[str], *, quick: bool = True, seed: int = 0,
              output="milab-output", jobs: int | None = None,
              on_done: Callable[[PaperRun], None] | None = None) -> list[PaperRun]:
    """Execute the notebooks of ``papers``, ``jobs`` at a time (default: :func:`default_jobs`).

    Returns one PaperRun per paper, in PAPERS order; ``on_done(run)`` is called as each one
    finishes. A failing paper does not stop the others. Raises InputError, before running
    anything, for an unknown paper or a quick run that would overwrite a full one.
    """
    papers = paper_names(papers)
    jobs = default_jobs(len(papers)) if jobs is None else jobs
    if jobs < 1:
        raise InputError(f"jobs={jobs}: give at least 1 paper to run at a time.")
    folders = {paper: Path(output).resolve() / paper for paper in papers}
    if quick:
        for folder in folders.values():
            refuse_to_overwrite_full_run(folder)
    runs = {}
    with kernel_environment(max(1, available_cores() // jobs)), \
            ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_paper, paper, folders[paper], quick, seed) for paper in papers]
        for future in as_completed(futures):
            run = future.result()
            runs[run.paper] = run
            if on_done:
                on_done(run)
    return [runs[paper] for paper in papers]


def run_paper(paper: str, folder: Path, quick: bool, seed: int) -> PaperRun:
    """Execute ``paper``'s notebook into ``folder``; a failure is returned, not raised."""
    import papermill  # imported here: it is slow to import and only this command needs it

    folder.mkdir(parents=True, exist_ok=True)
    notebook = folder / PAPERS[paper]
    started = time.perf_counter()
    try:
        papermill.execute_notebook(
            str(notebooks_dir() / PAPERS[paper]), str(notebook),
            parameters={"quick": quick, "seed": seed, "output_dir": str(folder)},
            cwd=str(folder), progress_bar=False, kernel_name="python3",
            kernel_manager_class=quiet_kernel_manager(folder / KERNEL_LOG),
        )
    except Exception as error:  # noqa: BLE001 -- any failure is this paper's, reported
        return PaperRun(paper, notebook, time.perf_counter() - started, describe_failure(error))
    return PaperRun(paper, notebook, time.perf_counter() - started)


def quiet_kernel_manager(log: Path):
    """A jupyter_client kernel manager class whose kernels write their stderr (log lines,
    warnings, shutdown noise) to ``log`` instead of this process's terminal."""
    from jupyter_client.manager import AsyncKernelManager

    class QuietKernelManager(AsyncKernelManager):
        async def _async_launch_kernel(self, kernel_cmd, **kw):
            with open(log, "ab") as stream:  # the kernel keeps its own copy of the handle
                kw["stderr"] = stream
                return await super()._async_launch_kernel(kernel_cmd, **kw)

    return QuietKernelManager


def skipped_datasets(output, papers: Iterable[str]) -> dict[str, dict[str, str]]:
    """Per paper, the datasets its run skipped (from its ``settings.json``), each with what
    to do: the `milab fetch` command when the registry can download it, else why it cannot
    be fetched and how to get it."""
    from milab_widgets.report import read_settings

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


def describe_failure(error: Exception) -> str:
    """One line: the notebook's exception and cell for a failed cell, else the error."""
    from papermill.exceptions import PapermillExecutionError

    if isinstance(error, PapermillExecutionError):
        return f"{error.ename}: {error.evalue} (In [{error.exec_count}])"
    return f"{type(error).__name__}: {error}"


def refuse_to_overwrite_full_run(folder: Path) -> None:
    """Raise InputError if ``folder`` holds a full run (its executed notebook ran with
    quick=False), which a quick run would overwrite."""
    notebook = folder / PAPERS.get(folder.name, "")
    if not notebook.is_file():
        return
    papermill = json.loads(notebook.read_text())["metadata"].get("papermill", {})
    if papermill.get("parameters", {}).get("quick") is False:
        raise InputError(f"{folder} holds a full run that a quick run would overwrite; add "
                         "--full, choose another --output, or delete that folder first.")


@contextmanager
def kernel_environment(threads: int) -> Iterator[None]:
    """While papers run: give each kernel ``threads`` numba/BLAS threads (unless the user
    set them), and let kernels import this very milab_widgets when it runs from a source
    checkout. Kernels inherit this process's environment when they start."""
    saved = {variable: os.environ.get(variable) for variable in (*THREAD_VARIABLES, "PYTHONPATH")}
    for variable in THREAD_VARIABLES:
        os.environ.setdefault(variable, str(threads))
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file():
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(checkout), saved["PYTHONPATH"]]))
    try:
        yield
    finally:
        for variable, value in saved.items():
            if value is None:
                os.environ.pop(variable, None)
            else:
                os.environ[variable] = value
