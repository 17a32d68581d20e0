"""The papers (each a :class:`~milab_widgets.papers.spec.Paper` record, registered through
entry points: :mod:`milab_widgets.papers.registry`) and the layout of a paper's output folder.

Both the runner (:mod:`milab_widgets.reproduce`) and the report (:mod:`milab_widgets.report`)
read these; they sit below both, so neither imports the other for them.

A paper's folder, ``<output>/<paper>/``, holds what its notebook wrote (tables, charts,
``settings.json``, ``verdict.md``), the executed notebook, the kernel's log lines
(:data:`KERNEL_LOG`) and the runner's record of the run (:data:`RUN_RECORD`: status, error,
the watchdog's interventions).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from milab_widgets.exceptions import InputError, MilabError
from milab_widgets.papers.registry import registered
from milab_widgets.papers.spec import Paper

__all__ = ["PAPERS", "Paper", "notebook_source", "notebooks_dir", "paper_names", "read_json",
           "read_settings", "read_run_record", "registered"]

#: Paper short name -> notebook file name, for every registered paper in its order (the
#: order of the lab's tabs, of `milab reproduce`'s runs and of the report).
PAPERS = {short: paper.notebook for short, paper in registered().items()}

#: The file in each paper's folder that receives its kernel's log lines.
KERNEL_LOG = "kernel.log"

#: The runner's record of a paper's run (JSON), written atomically when the run ends.
RUN_RECORD = "run.json"

#: The paper's kernel's process id (so that the runner can make sure it is gone).
KERNEL_PID = "kernel.pid"

#: The watchdog's interventions, one JSON line each (copied into the run record).
WATCHDOG_LOG = "watchdog.jsonl"

#: The worker process's own log (its stdout and stderr).
WORKER_LOG = "runner.log"

#: One JSON line per experiment grid the paper's kernel ran: its tasks, how many were
#: computed (not cached) and its seconds (`milab_widgets.evaluation.grid.log_grid`).
GRID_LOG = "grids.jsonl"
#: The environment variable that names, in a paper's kernel, its :data:`GRID_LOG`.
GRID_LOG_VARIABLE = "MILAB_GRID_LOG"


def notebooks_dir() -> Path:
    """The papers' notebooks folder: $MILAB_NOTEBOOKS if set, else the installed package's
    (a wheel ships notebooks/ as milab_widgets/notebooks), else the source checkout's."""
    package = Path(__file__).resolve().parents[1]  # milab_widgets/
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


def notebook_source(paper: str) -> Path:
    """The notebook ``milab reproduce`` runs for ``paper``: in the project's notebooks folder
    (:func:`notebooks_dir`), or in a plugin's own package (``Paper.notebook_package``)."""
    spec = registered()[paper]
    if spec.notebook_package is None:
        return notebooks_dir() / spec.notebook
    return Path(str(resources.files(spec.notebook_package) / spec.notebook))


def paper_names(names: Iterable[str]) -> list[str]:
    """``names`` as PAPERS spells them (matched case-insensitively), in PAPERS order."""
    spelled = {paper.lower(): paper for paper in PAPERS}
    unknown = [name for name in names if name.lower() not in spelled]
    if unknown:
        raise InputError(f"unknown paper(s) {', '.join(unknown)}; choose from "
                         f"{', '.join(PAPERS)} (any case), or --all.")
    wanted = {spelled[name.lower()] for name in names}
    return [paper for paper in PAPERS if paper in wanted]


def read_json(path: Path) -> dict:
    """A JSON object file, or {} when it is missing or unreadable (a run killed before it
    wrote the file completely leaves no half record: records are written atomically)."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def read_settings(folder: Path) -> dict:
    """The settings a paper's notebook ran with (``settings.json``: mode, seed, skipped
    datasets), or {} when it wrote none."""
    return read_json(Path(folder) / "settings.json")


def read_run_record(folder: Path) -> dict:
    """The runner's record of the paper's last run (:data:`RUN_RECORD`), or {}."""
    return read_json(Path(folder) / RUN_RECORD)
