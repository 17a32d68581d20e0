"""Every paper notebook runs in quick mode under papermill and writes its outputs."""

import json

import papermill
import pytest

from milab_widgets.reproduce import PAPERS, notebooks_dir


@pytest.mark.slow
@pytest.mark.parametrize("paper", list(PAPERS))
def test_notebook_runs_in_quick_mode(paper, tmp_path):
    output = tmp_path / paper
    executed = tmp_path / f"{paper}.ipynb"
    papermill.execute_notebook(
        str(notebooks_dir() / PAPERS[paper]), str(executed),
        parameters={"quick": True, "output_dir": str(output)}, cwd=str(tmp_path),
        progress_bar=False, kernel_name="python3", execution_timeout=600,
    )
    cells = json.loads(executed.read_text())["cells"]
    errors = [o for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    assert (output / "summary.csv").exists() and (output / "verdict.md").exists()
    assert any(output.glob("*.svg")) and any(output.glob("*.png"))
    charts = [o for c in cells for o in c.get("outputs", [])
              if "application/vnd.vegalite.v5+json" in o.get("data", {})]
    assert charts, "no Altair chart in the executed notebook's outputs"
