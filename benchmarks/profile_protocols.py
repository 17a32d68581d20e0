"""Where each paper's protocol spends its time: `milab reproduce` run twice into one folder,
from an empty cache and then from the warm one, profiled per stage.

A stage is an experiment grid (each `run_grid` call writes a line to the paper's
``grids.jsonl``: its tasks, those computed rather than read from the cache, and its wall
seconds) or a notebook cell (papermill records each cell's duration in the executed
notebook). The table lists, per paper, the run's total, its five longest grids and its five
longest cells, cold and warm; the experiment cell's time minus its grids is the work between
them (loading, distance matrices, summaries), and the other cells are the charts, claims and
panel.

Run:  MILAB_DATA_HOME=<data> python benchmarks/profile_protocols.py [PAPER ...] [--full]
          [--json benchmarks/results/profile.json]
      python benchmarks/profile_protocols.py --from reports   (an existing output folder:
          its cells only, when it has no grids.jsonl)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from milab_widgets.papers import GRID_LOG, PAPERS, read_json

#: Stages listed per paper and run.
TOP = 5


def cell_stages(notebook: Path) -> list[dict]:
    """Each executed code cell's duration (papermill's), labelled by its first line."""
    cells = read_json(notebook).get("cells", [])
    stages = []
    for number, cell in enumerate(cells):
        seconds = cell.get("metadata", {}).get("papermill", {}).get("duration")
        if cell.get("cell_type") != "code" or seconds is None:
            continue
        lines = [line.strip() for line in "".join(cell.get("source", "")).splitlines()]
        label = next((line.lstrip("# ") for line in lines if line), "(empty)")
        stages.append({"cell": number, "label": label[:70], "seconds": round(seconds, 2)})
    return stages


def grid_stages(folder: Path) -> list[dict]:
    """The paper's grids, in the order they ran (its ``grids.jsonl``; empty if absent)."""
    path = folder / GRID_LOG
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def paper_profile(folder: Path, paper: str) -> dict:
    """One paper's run: total notebook seconds, its cells and its grids."""
    notebook = folder / PAPERS[paper]
    if not notebook.is_file():
        return {}
    cells = cell_stages(notebook)
    return {"seconds": round(sum(cell["seconds"] for cell in cells), 1), "cells": cells,
            "grids": grid_stages(folder)}


def reproduce(papers: list[str], output: Path, full: bool) -> float:
    """`milab reproduce` of ``papers`` one at a time into ``output``; its wall seconds."""
    command = [sys.executable, "-m", "milab_widgets.cli", "reproduce", *papers, "--jobs", "1",
               "--output", str(output), *(["--full"] if full else [])]
    started = time.perf_counter()
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def profile_runs(papers: list[str], full: bool) -> dict:
    """Both runs (cold, warm) of ``papers`` into one temporary folder, profiled."""
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder)
        runs = {}
        for run in ("cold", "warm"):
            wall = reproduce(papers, output, full)
            runs[run] = {"wall_seconds": round(wall, 1),
                         "papers": {p: paper_profile(output / p, p) for p in papers}}
    return runs


def top(stages: list[dict], key: str = "seconds") -> list[dict]:
    return sorted(stages, key=lambda stage: -stage[key])[:TOP]


def markdown(runs: dict) -> str:
    """The profile as Markdown: per paper, totals, then its longest grids and cells."""
    lines = []
    papers = next(iter(runs.values()))["papers"]
    for paper in papers:
        profiles = {run: runs[run]["papers"].get(paper) or {} for run in runs}
        totals = ", ".join(f"{run} {profile.get('seconds', 'n/a')} s"
                           for run, profile in profiles.items())
        lines += [f"### {paper} ({totals})", "",
                  "| stage | tasks (computed) | " + " | ".join(f"{run}, s" for run in runs)
                  + " |", "|---|---|" + "---|" * len(runs)]
        first = next(iter(profiles.values()))
        sums = " | ".join(f"{sum(g['seconds'] for g in profile.get('grids', [])):.2f}"
                          for profile in profiles.values())
        lines.append(f"| all {len(first.get('grids', []))} grids | | {sums} |")
        for grid in top(first.get("grids", [])):
            same = [next((g for g in profiles[run].get("grids", []) if g["grid"] == grid["grid"]),
                         None) for run in runs]
            computed = " / ".join(str(g["computed"]) if g else "-" for g in same)
            seconds = " | ".join(f"{g['seconds']:.2f}" if g else "-" for g in same)
            lines.append(f"| grid: {grid['grid']} | {grid['tasks']} ({computed}) | {seconds} |")
        for cell in top(first.get("cells", [])):
            same = [next((c for c in profiles[run].get("cells", []) if c["cell"] == cell["cell"]),
                         None) for run in runs]
            seconds = " | ".join(f"{c['seconds']:.2f}" if c else "-" for c in same)
            lines.append(f"| cell {cell['cell']}: `{cell['label']}` | | {seconds} |")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="*", default=list(PAPERS), metavar="PAPER")
    parser.add_argument("--full", action="store_true", help="the papers' own protocols")
    parser.add_argument("--from", dest="source", type=Path,
                        help="profile this existing output folder instead of running")
    parser.add_argument("--json", type=Path, help="also write the profile here")
    args = parser.parse_args()
    if args.source:
        runs = {"existing": {"papers": {p: paper_profile(args.source / p, p)
                                        for p in args.papers}}}
    else:
        runs = profile_runs(args.papers, args.full)
    result = {"full": args.full, "runs": runs}
    print(markdown(runs))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
