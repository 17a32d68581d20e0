"""Real-browser checks: JupyterLab in headless Chromium draws the lab's charts and widgets.

Runs ``tests/browser/check_jupyterlab.py`` exactly as a developer would from the shell.
Skipped when Debian's chromium or the playwright package is missing (failed instead under
``MILAB_REQUIRE_BROWSER=1``, for CI); failed when they are present and the notebook does not
render.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

HERE = Path(__file__).resolve().parent
CHECK = HERE / "check_jupyterlab.py"
PROBE = HERE / "fixtures" / "render_probe.ipynb"
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(autouse=True)
def require_browser():
    """Skip when chromium or playwright is missing (fail under MILAB_REQUIRE_BROWSER=1)."""
    missing = [why for absent, why in (
        (not CHROMIUM.exists(), f"{CHROMIUM} missing: apt-get install chromium"),
        (importlib.util.find_spec("playwright") is None,
         "playwright missing: pip install playwright"),
    ) if absent]
    if missing and os.environ.get("MILAB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"MILAB_REQUIRE_BROWSER=1 but {'; '.join(missing)}", pytrace=False)
    if missing:
        pytest.skip("; ".join(missing))


def run_check(notebook: Path, out: Path, *options: str) -> subprocess.CompletedProcess:
    """Run the browser check on ``notebook`` and return the finished process."""
    return subprocess.run(
        [sys.executable, str(CHECK), str(notebook), "--out", str(out), *options],
        capture_output=True, text=True, timeout=600,
    )


def test_probe_notebook_renders_charts_and_widgets(tmp_path):
    """Top-level chart, widget panel, and chart inside an Output widget all render."""
    result = run_check(PROBE, tmp_path, "--min-charts", "2", "--min-widgets", "3",
                       "--min-widget-charts", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "render_probe.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_check_fails_on_blank_chart_missing_widgets_and_errors(tmp_path):
    """Altair's default renderer (CDN Vega) draws nothing offline; the check must say so."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import altair as alt, pandas as pd\n"
            "alt.renderers.enable('html')\n"
            "alt.Chart(pd.DataFrame({'a': [1, 2]})).mark_bar().encode(x='a:N')"
        ),
        nbformat.v4.new_code_cell("1 / 0"),
        nbformat.v4.new_code_cell("print('never reached: Run All stops at an error')"),
    ]
    notebook = tmp_path / "nb" / "blank.ipynb"
    notebook.parent.mkdir()
    nbformat.write(nb, notebook)
    result = run_check(notebook, tmp_path, "--timeout", "30")
    assert result.returncode == 1, result.stdout + result.stderr
    for expected in ("Vega charts: 0 rendered", "ipywidgets views: 0 rendered",
                     "cell 1 raised ZeroDivisionError", "cell 2 did not run"):
        assert expected in result.stderr
