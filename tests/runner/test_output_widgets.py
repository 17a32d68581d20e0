"""Output widgets under the batch runner (issue 20): their outputs are kept in the executed
notebook's widget state, and nothing is echoed to the kernel on the shell socket while a
cell's reply is awaited there (the echo was what lost the replies)."""

from __future__ import annotations

import json

import pytest

from benchmarks.soak_reproduce import OUTPUT_WIDGET_CELL  # the cell the soak stalled on
from milab_widgets.notebook_run import run_notebook
from milab_widgets.papers import PAPERS
from tests.runner.notebooks import cell_stdout, write_notebooks


@pytest.mark.slow
def test_output_widget_outputs_are_saved_in_the_notebook_and_not_echoed_to_the_kernel(
        tmp_path, monkeypatch):
    notebooks = write_notebooks(tmp_path / "notebooks", {"intH": [
        *[OUTPUT_WIDGET_CELL] * 10, "print('echoed to the kernel:', len(output.outputs))"]})
    monkeypatch.setenv("MILAB_NOTEBOOKS", str(notebooks))
    folder = tmp_path / "out" / "intH"
    record = run_notebook("intH", folder, True, 0)
    assert record["status"] == "ok" and record["watchdog"] == [], record
    executed = json.loads((folder / PAPERS["intH"]).read_text())
    states = executed["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    outputs = [model["state"]["outputs"] for model in states.values()
               if model["model_name"] == "OutputModel"]
    assert len(outputs) == 10
    assert all("".join(out["text"] for out in widget) == "".join(f"{i}\n" for i in range(40))
               for widget in outputs)
    assert cell_stdout(executed["cells"][-1]) == "echoed to the kernel: 0\n"
