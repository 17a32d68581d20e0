"""Regenerate the papers' experiments by executing their notebooks with papermill.

Each paper's notebook (``notebooks/<paper>.ipynb``) takes its parameters (``quick``,
``seed``, ``output_dir``) from papermill, writes its tables and charts into
``<output>/<paper>/`` and the executed notebook beside them.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from milab_widgets.exceptions import InputError, MilabError

#: Paper short name -> notebook file name, in the order `milab reproduce` runs them.
PAPERS = {"intH": "intH.ipynb", "CDVSE": "CDVSE.ipynb", "MFSEF": "MFSEF.ipynb",
          "LSkMDDM": "LSkMDDM.ipynb", "TwoViewMIC": "TwoViewMIC.ipynb"}


@dataclass(frozen=True)
class PaperRun:
    paper: str
    folder: Path
    seconds: float


def notebooks_dir() -> Path:
    """The project's notebooks folder ($MILAB_NOTEBOOKS, else the source checkout's)."""
    folder = Path(os.environ.get("MILAB_NOTEBOOKS", Path(__file__).resolve().parents[1] / "notebooks"))
    if not folder.is_dir():
        raise MilabError(
            f"no notebooks folder at {folder}; run from a source checkout "
            "(pip install -e .) or set MILAB_NOTEBOOKS to the folder holding the notebooks."
        )
    return folder


def reproduce(papers=None, *, quick: bool = True, seed: int = 0, output="milab-output",
              progress: bool = True) -> list[PaperRun]:
    """Execute each paper's notebook; returns where each one wrote its outputs."""
    import papermill  # imported here: it is slow to import and only this command needs it

    papers = list(PAPERS) if not papers else papers
    unknown = [paper for paper in papers if paper not in PAPERS]
    if unknown:
        raise InputError(f"unknown paper(s) {unknown}; choose from {list(PAPERS)}.")
    runs = []
    for paper in papers:
        folder = Path(output).resolve() / paper
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        papermill.execute_notebook(
            str(notebooks_dir() / PAPERS[paper]), str(folder / PAPERS[paper]),
            parameters={"quick": quick, "seed": seed, "output_dir": str(folder)},
            cwd=str(folder), progress_bar=progress, kernel_name="python3",
        )
        runs.append(PaperRun(paper, folder, time.perf_counter() - started))
    return runs


def summary_text(run: PaperRun) -> str:
    """What a paper's run produced: its verdict and the files it wrote."""
    lines = [f"== {run.paper}: {run.folder} ({run.seconds:.0f} s)"]
    verdict = run.folder / "verdict.md"
    if verdict.exists():
        lines.append(f"verdict: {verdict.read_text().strip()}")
    skipped = run.folder / "skipped.txt"
    if skipped.exists() and skipped.read_text().strip():
        lines.append(skipped.read_text().strip())
    files = sorted(p.name for p in run.folder.iterdir() if p.suffix in {".csv", ".svg", ".png"})
    lines.append(f"wrote {len(files)} tables/charts: {', '.join(files)}")
    return "\n".join(lines)
