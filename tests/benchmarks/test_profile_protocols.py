"""profile_protocols: a paper's stages read from its executed notebook and grids.jsonl, and
every grid of a kernel logged by run_grid when `milab reproduce` names the log."""

from __future__ import annotations

import importlib
import json
from functools import partial
from pathlib import Path

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.papers import GRID_LOG, GRID_LOG_VARIABLE, PAPERS

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def test_run_grid_logs_its_tasks_computed_and_seconds(tmp_path, monkeypatch):
    log = tmp_path / GRID_LOG
    monkeypatch.setenv(GRID_LOG_VARIABLE, str(log))
    tasks = [GridTask({"value": v}, partial(dict, value=v)) for v in range(4)]
    cache = ResultCache(tmp_path / "cache")
    run_grid(tasks[:1], cache, desc="first")
    run_grid(tasks, cache, desc="second")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(line["grid"], line["tasks"], line["computed"]) for line in lines] == [
        ("first", 1, 1), ("second", 4, 3)]
    assert all(line["seconds"] >= 0 for line in lines)


def test_a_papers_profile_holds_its_cells_and_grids(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    profile = importlib.import_module("profile_protocols")
    folder = tmp_path / "intH"
    folder.mkdir()
    cells = [{"cell_type": "markdown", "source": "# intH", "metadata": {}},
             {"cell_type": "code", "source": ["\n", "# the protocol\n", "run()\n"],
              "metadata": {"papermill": {"duration": 2.5}}},
             {"cell_type": "code", "source": "charts()", "metadata": {"papermill": {}}}]
    (folder / PAPERS["intH"]).write_text(json.dumps({"cells": cells}))
    (folder / GRID_LOG).write_text(json.dumps(
        {"grid": "musk1", "tasks": 100, "computed": 100, "seconds": 2.0}) + "\n")
    result = profile.paper_profile(folder, "intH")
    assert result["seconds"] == 2.5
    assert result["cells"] == [{"cell": 1, "label": "the protocol", "seconds": 2.5}]
    assert result["grids"][0]["grid"] == "musk1"
    table = profile.markdown({"cold": {"papers": {"intH": result}}})
    assert "| all 1 grids | | 2.00 |" in table
    assert "| grid: musk1 | 100 (100) | 2.00 |" in table
    assert "| cell 1: `the protocol` | | 2.50 |" in table
