"""Real-browser checks: JupyterLab in headless Chromium draws the lab's charts and widgets.

Runs ``python -m tests.browser.check_jupyterlab`` and ``python -m tests.browser.lab_tour``
exactly as a developer would from the project root (the lab tour's kernel sees this
process's ``MILAB_DATA_HOME``; a panel whose dataset is missing there is not operated but
checked for what a user sees -- the missing dataset named, how to fetch it, no traceback --
unless ``MILAB_REQUIRE_DATA=1``, where it fails).
Skipped when Debian's chromium or the playwright package is missing (failed instead under
``MILAB_REQUIRE_BROWSER=1``, for CI); failed when they are present and the notebook does not
render.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from milab_widgets.data.home import locate
from milab_widgets.data.registry import get_spec
from milab_widgets.exceptions import DatasetUnavailableError
from tests.browser.lab_tour import (
    INTERACTIONS,
    STEPS,
    missing_data,
    missing_data_problems,
    panel_problems,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PROBE = HERE / "fixtures" / "render_probe.ipynb"
PNG = b"\x89PNG\r\n\x1a\n"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("require_browser")]


def run_module(module: str, *arguments: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``python -m tests.browser.<module> *arguments`` from the project root; return the
    finished process."""
    return subprocess.run([sys.executable, "-m", f"tests.browser.{module}", *arguments],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)


def run_check(notebook: Path, out: Path, *options: str) -> subprocess.CompletedProcess:
    """Run the browser check on ``notebook`` and return the finished process."""
    return run_module("check_jupyterlab", str(notebook), "--out", str(out), *options)


def test_probe_notebook_renders_offline_and_its_saved_copy_shows_charts_without_a_kernel(
        tmp_path):
    """A static SVG chart and a panel's live JupyterChart draw with every request outside
    127.0.0.1 blocked; saved and reloaded with kernels blocked, the static chart still shows
    and the panel shows its one-line note, not a repr."""
    result = run_check(PROBE, tmp_path, "--min-charts", "1", "--min-widgets", "3",
                       "--min-widget-charts", "1", "--reload-without-kernel", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "reloaded without a kernel: {" in result.stdout
    assert (tmp_path / "render_probe.png").read_bytes().startswith(PNG)
    assert (tmp_path / "render_probe-no-kernel.png").read_bytes().startswith(PNG)


def test_a_papermill_executed_notebook_shows_its_charts_and_panel_note_without_a_kernel(
        tmp_path):
    """Executed by papermill (so untrusted in JupyterLab, which then hides SVG) and opened
    with kernels blocked: the chart shows (its PNG) and the panel cell its one-line note."""
    import papermill

    from tests.browser.check_jupyterlab import check_saved_notebook

    executed = tmp_path / "executed" / "render_probe.ipynb"
    executed.parent.mkdir()
    papermill.execute_notebook(str(PROBE), str(executed), cwd=str(tmp_path),
                               kernel_name="python3", progress_bar=False)
    problems = check_saved_notebook(executed, tmp_path, static_charts=1, notes=1)
    assert not problems, problems
    assert (tmp_path / "render_probe-no-kernel.png").read_bytes().startswith(PNG)


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


@pytest.fixture(scope="module")
def lab_tour_run(tmp_path_factory):
    """The lab tour, run once for the tests below: (finished process, screenshot folder)."""
    out = tmp_path_factory.mktemp("lab_tour")
    return run_module("lab_tour", "--out", str(out), "--timeout", "300", timeout=1500), out


@pytest.mark.timeout(1600)
def test_lab_tour_operates_one_control_in_every_panel(lab_tour_run):
    """The index notebook's lab, offline: each tab's panel is built, one control redraws its
    live charts, then each of its interactions gets its answer, with no unexpected error
    box and no Vega warning in the console; one screenshot per panel after them.

    On a data home without a panel's dataset (a fresh install), that panel is not operated:
    the tour checks that it names the missing dataset and ``milab fetch NAME`` without a
    traceback, and this test that the dataset really is missing (and that this is not CI's
    ``MILAB_REQUIRE_DATA=1``); every other panel is operated as above."""
    result, out = lab_tour_run
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Vega warning" not in result.stderr
    for step in STEPS:
        assert (out / f"lab-{step.slug}.png").read_bytes().startswith(PNG)
        if f"lab_tour: {step.slug}: {step.click}: " in result.stdout:
            continue
        unavailable = unavailable_data(step, result.stdout)
        assert unavailable, f"{step.slug} was neither operated nor missing data:\n{result.stdout}"
        assert os.environ.get("MILAB_REQUIRE_DATA") != "1", result.stdout
        with pytest.raises(DatasetUnavailableError):
            locate(get_spec(unavailable[1]))


def unavailable_data(step, stdout: str):
    """The tour's line saying ``step``'s panel was not operated for want of data, or None."""
    return re.search(rf"^lab_tour: {re.escape(step.slug)}: not operated, data "
                     r"unavailable: .*Dataset '([^']+)' is not available", stdout, re.MULTILINE)


@pytest.mark.timeout(1600)
@pytest.mark.parametrize("interaction", INTERACTIONS)
def test_each_click_brush_and_typed_value_gets_its_answer_in_chromium(lab_tour_run,
                                                                       interaction):
    """One interaction of the tour, done in Chromium as a user does it (playwright's mouse
    on the drawn SVG mark, or the keyboard in the box), and the panel's answer read from the
    page: it must have printed "ok". Skipped only where the panel's data is missing."""
    result, _ = lab_tour_run
    slug = interaction.split(":")[0]
    step = next(step for step in STEPS if step.slug == slug)
    if unavailable_data(step, result.stdout):
        assert os.environ.get("MILAB_REQUIRE_DATA") != "1", result.stdout
        pytest.skip(f"{slug}: its dataset is not in the data home")
    line = f"lab_tour: {interaction}: "
    assert f"{line}ok" in result.stdout, (
        [row for row in result.stdout.splitlines() if row.startswith(line)]
        or f"not reached:\n{result.stdout}\n{result.stderr}")


def test_tour_flags_errors_missing_and_stale_charts():
    """The tour's verdict on a panel's DOM state: each defect is named, data-only errors
    are recognised as missing data, a complete redrawn panel passes."""
    step = STEPS[1]  # CDVSE: 3 live charts, all 3 redrawn by the slider
    good = {"kernel": "idle", "status": "done: fitting (0.5 s)", "errors": [], "bad": [],
            "widgets": 20, "vega": 3, "images": 0, "redrawn": 3}
    assert panel_problems(step, good, after_action=True) == []
    stale = dict(good, redrawn=2, vega=1, status="working: fitting...")
    problems = "\n".join(panel_problems(step, stale, after_action=True))
    for expected in ("status 'working: fitting...'", "Vega charts: 1 drawn, expected 3",
                     "redrew 2 chart(s), expected 3"):
        assert expected in problems
    assert panel_problems(step, stale, after_action=False) != []
    missing = dict(good, errors=["DatasetUnavailableError: Dataset 'yeast' is not available"])
    broken = dict(good, errors=[*missing["errors"], "TypeError: cannot unpack"])
    assert missing_data(missing) and not missing_data(broken) and not missing_data(good)
    assert any("TypeError" in p for p in panel_problems(step, broken, after_action=False))


def test_tour_checks_what_a_panel_without_its_data_shows(empty_data_home):
    """The tour's verdict on a panel whose dataset is missing: the message must name the
    dataset and ``milab fetch NAME``, that dataset must really be missing, the dropdown must
    say so, and no traceback may show."""
    step = STEPS[2]  # MFSEF
    message = ("DatasetUnavailableError: Dataset 'yeast' is not available: multilabel/yeast/"
               "yeast-train.arff is not in the data home. Fix: run `milab fetch yeast`.")
    shown = {"kernel": "idle", "status": "failed: comparing selectors on yeast",
             "errors": [message], "bad": [], "widgets": 20, "tracebacksShown": 0,
             "dataset": "yeast (missing)"}
    assert missing_data(shown) and missing_data_problems(step, shown) == []
    for defect, expected in (
            ({"tracebacksShown": 1}, "a traceback is shown"),
            ({"errors": [message.replace("run `milab fetch yeast`", "fetch it")]},
             "does not say `milab fetch yeast`"),
            ({"errors": ["DatasetUnavailableError: something is missing"]},
             "does not name the missing dataset"),
            ({"errors": [message, "TypeError: cannot unpack"]}, "2 errors shown"),
            ({"dataset": "yeast"}, "dropdown reads 'yeast'"),
            ({"status": "working: loading yeast...", "kernel": "busy"}, "status 'working"),
            ({"bad": ["Loading widget"], "widgets": 2}, "shows 'Loading widget'"),
            # musk1 ships with the package: a panel claiming it is missing is not let through
            ({"errors": [message.replace("yeast", "musk1")], "dataset": "musk1 (missing)"},
             "says dataset 'musk1' is missing, but the data home holds it")):
        problems = "\n".join(missing_data_problems(step, dict(shown, **defect)))
        assert expected in problems, (defect, problems)
