"""A panel's state as code (``panel.code()``) and its charts and tables as files (``save``).

The oracle for code() is the panel itself: each panel is driven to non-default settings
(and through a click that changes its state), its script is run in a fresh interpreter with
the same data home, and the numbers the panel displays -- read from its own HTML and tables,
formatted as the panel formats them -- must be printed by the script. save() is checked
against the files' formats (PNG signature, SVG that parses as XML) and the panel's tables.
"""

import html
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.experiments.lskmddm import SEED_METRICS
from milab_widgets.experiments.mfsef import TABLE_METRICS
from milab_widgets.widgets import (
    CDVSEPanel,
    IntHPanel,
    Lab,
    LSkMDDMPanel,
    MFSEFPanel,
    TwoViewPanel,
)
from milab_widgets.widgets.as_code import python_literal
from tests.widgets.frontend import brush, click

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Runs each script of a JSON list read from stdin in a namespace of its own (the modules
#: imported stay imported; no name of one script is seen by the next); prints a marker after
#: each so that the outputs can be told apart.
RUNNER = """
import json, sys
for source in json.load(sys.stdin):
    exec(compile(source, "<panel code>", "exec"), {"__name__": "__main__"})
    print("=== end of script ===", flush=True)
"""


def run_in_fresh_interpreter(scripts: list[str]) -> list[str]:
    """The standard output of each script, run in one new Python process with this
    process's environment (so the same MILAB_DATA_HOME)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(scripts),
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split("=== end of script ===\n")[:len(scripts)]


def plain(markup: str) -> str:
    """The text a user reads in a panel's HTML."""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())
    return re.sub(r" ([,.;:])", r"\1", text)


def assert_scripts_print(cases: list[tuple[str, list[str]]]) -> None:
    """Run every (script, expected lines) case; each expected text must be in its output."""
    outputs = run_in_fresh_interpreter([script for script, _ in cases])
    for (script, expected), output in zip(cases, outputs, strict=True):
        for text in expected:
            assert text in output, f"{text!r} not printed; output:\n{output}\nscript:\n{script}"


def assert_ok(panel):
    assert panel.last_error is None, panel.last_error
    assert panel.status.value.startswith("done:"), panel.status.value


# -- the literals ---------------------------------------------------------------------------------
def test_literals_read_back_equal_bit_for_bit():
    assert python_literal(np.float64(0.1) + np.float64(0.2)) == "0.30000000000000004"
    assert python_literal(np.int64(3)) == "3"
    assert python_literal((0.6, 0.3, 0.1)) == "(0.6, 0.3, 0.1)"
    assert python_literal({"alpha": None, "k": [np.int32(1), 2]}) == "{'alpha': None, 'k': [1, 2]}"
    assert python_literal(np.array([1.5, 2.0])) == "[1.5, 2.0]"
    assert python_literal("it's") == '"it\'s"'


@pytest.mark.parametrize("value", [float("inf"), -np.inf, np.float64("nan")])
def test_non_finite_numbers_are_written_as_float_calls_that_read_back(value):
    text = python_literal(value)
    assert text.startswith("float(")
    read = eval(text)  # noqa: S307 -- the literal under test
    assert read == value or (np.isnan(read) and np.isnan(value))


@pytest.mark.parametrize("value", [object(), len, pd.Timestamp(0), [float("nan")]])
def test_a_value_with_no_literal_is_refused_by_name(value):
    with pytest.raises(TypeError, match="no Python literal form"):
        python_literal(value)


# -- intH -----------------------------------------------------------------------------------------
def inth_headline(panel) -> list[str]:
    accuracy = re.search(r"[\d.]+% ± [\d.]+%", panel.accuracy.value).group()
    lines = [f"accuracy {accuracy}", plain(panel.bag_result.value)]
    if panel.alpha_mode.value == "nca":
        lines.append(f"): {panel.alpha.value:.3f}")  # the tuned α on the slider
    return lines


def test_inth_code_prints_the_panels_numbers(require_dataset):
    require_dataset("musk1")
    panel = IntHPanel("musk1")
    cases = []
    panel.scaling.value, panel.classifier.value, panel.distance.value = "standard", "knn", "max"
    panel.k.value, panel.folds.value, panel.bag.value = 3, 5, 7
    panel.run_button.click()
    assert_ok(panel)
    cases.append((panel.code(), inth_headline(panel)))
    assert "tunes alpha by NCA" in panel.code() and "by hand" not in panel.code()

    panel.scaling.value, panel.classifier.value, panel.distance.value = "none", "citation-knn", \
        "integrated"
    panel.folds.value, panel.sigma.value = 4, 0.5
    panel.run_button.click()
    click(panel.curve_view, "alpha_pick", alpha=0.25)  # sets α by hand: accuracy now stale
    assert panel.alpha_mode.value == "hand" and panel.alpha.value == 0.25
    stale_code = panel.code()
    assert "NOTE" in stale_code and "earlier settings" in stale_code
    assert "'alpha': 0.25" in stale_code and "alpha set by hand" in stale_code
    assert "tunes alpha by NCA" not in stale_code  # issue 33: it said both
    panel.run_button.click()
    assert_ok(panel)
    assert "NOTE" not in panel.code()
    cases.append((panel.code(), inth_headline(panel)))
    assert_scripts_print(cases)

    assert_saved(panel, {"f-alpha", "heatmap"}, {"bag-voters": panel.bag_table})


# -- CDVSE ----------------------------------------------------------------------------------------
def cdvse_headline(panel) -> list[str]:
    lines = [plain(panel.scores.value).split(" (")[0]]
    if panel.sample_distances is not None:
        lines.append(plain(panel.sample_info.value))
    return lines


def test_cdvse_code_prints_the_panels_numbers(tmp_path):
    panel = CDVSEPanel()
    cases = []
    panel.dataset.value, panel.seed.value = "square_noise", 3
    panel.zeta.value, panel.C.value, panel.M.value, panel.lam.value = 1.0, 0.5, 10, 0.1
    assert_ok(panel)
    cases.append((panel.code(), cdvse_headline(panel)))

    panel.gamma_l1.value, panel.sigma.value = 0.01, 1.0
    point = panel.result.points.iloc[5]
    click(panel.boundary_view, "sample_pick", x=float(point["x"]), y=float(point["y"]))
    assert_ok(panel)
    assert panel.sample_distances is not None
    cases.append((panel.code(), cdvse_headline(panel)))
    assert_scripts_print(cases)

    assert_saved(panel, {"boundaries", "weights", "objective"},
                 {"sample-distances": panel.sample_distances})


# -- MFSEF ----------------------------------------------------------------------------------------
def mfsef_headline(panel) -> list[str]:
    table = panel.score_table[list(TABLE_METRICS)]
    lines = [f"{method} " + " ".join(f"{value:.4f}" for value in row)
             for method, row in zip(table.index, table.to_numpy(), strict=True)]
    if panel.selected is not None:
        lines.append(f"{panel.selected_method} selects features "
                     f"{panel.selected['feature'].tolist()}")
    return lines


def squeezed(output: str) -> str:
    return "\n".join(" ".join(line.split()) for line in output.splitlines())


def test_mfsef_code_prints_the_panels_numbers(require_dataset):
    require_dataset("yeast")
    panel = MFSEFPanel("yeast", run=False)
    cases = []
    panel.k.value, panel.ratios.value, panel.n_experts.value = 5, "0.5, 0.5", 2
    panel.methods.value, panel.steps.value = ("PMU", "MFSEF"), 2
    panel.run_button.click()
    assert_ok(panel)
    cases.append((panel.code(), mfsef_headline(panel)))

    panel.expert_mode.value = "hand"
    panel.experts.value = (3, 7, 11)
    panel.max_features.value = 12
    panel.run_button.click()
    click(panel.curves_view, "method_pick", method="MFSEF")
    assert_ok(panel)
    assert panel.selected_method == "MFSEF"
    cases.append((panel.code(), mfsef_headline(panel)))
    outputs = run_in_fresh_interpreter([script for script, _ in cases])
    for (_, expected), output in zip(cases, outputs, strict=True):
        for text in expected:  # the table's columns are aligned with spaces
            assert text in squeezed(output), f"{text!r} not in\n{output}"

    assert_saved(panel, {"expert-view", "curves"},
                 {"scores": panel.score_table, "selected-features": panel.selected})


# -- TwoViewMIC -----------------------------------------------------------------------------------
def twoview_headline(panel) -> list[str]:
    lines = [re.search(r"ACC [\d.]+%", panel.accuracy.value).group()]
    lines += [f"{method}: ACC {accuracy:.1%}" for method, accuracy
              in zip(panel.baseline_scores["method"], panel.baseline_scores["ACC"], strict=True)
              if "(this run)" not in method]
    return lines


def test_twoview_code_prints_the_panels_numbers():
    panel = TwoViewPanel("synthetic", run=False)
    cases = []
    panel.kernel.value, panel.fraction.value, panel.seed.value = "minimax", 0.1, 2
    panel.alpha.value, panel.beta.value, panel.max_iter.value = 1.0, 0.1, 100
    panel.run_button.click()
    assert_ok(panel)
    cases.append((panel.code(), twoview_headline(panel)))

    panel.fraction.value, panel.views.value = 0.0, "first"
    panel.run_button.click()
    assert_ok(panel)
    cell = panel.confusion.stack().idxmax()  # the fullest cell
    click(panel.confusion_view, "cell_pick", **{"class": int(cell[0]), "cluster": cell[1]})
    assert panel.cell_bags is not None and len(panel.cell_bags) > 0
    assert_ok(panel)
    cases.append((panel.code(), twoview_headline(panel)))
    assert_scripts_print(cases)

    assert_saved(panel, {"objective", "confusion"},
                 {"accuracy": panel.baseline_scores, "confusion": panel.confusion,
                  "cell-bags": panel.cell_bags})


# -- LSkMDDM --------------------------------------------------------------------------------------
def lskmddm_headline(panel) -> list[str]:
    return [f"{metric} {panel.metrics_table.loc[metric, 'value']:.4f}"
            for metric in SEED_METRICS]


def test_lskmddm_code_prints_the_panels_numbers(require_dataset):
    require_dataset("scene")
    panel = LSkMDDMPanel("scene", run=False)
    cases = []
    panel.method.value, panel.eta.value, panel.dimension.value = "KCCA", 0.1, 3
    panel.run_button.click()
    assert_ok(panel)
    cases.append((panel.code(), lskmddm_headline(panel)))

    panel.method.value, panel.dimension.value = "LSkMDDM", 2
    panel.run_button.click()
    brush(panel.scatter_view, "brush", **{"coordinate 1": [-10, 0], "coordinate 2": [-10, 10]})
    assert_ok(panel)
    cases.append((panel.code(), lskmddm_headline(panel)))
    assert_scripts_print(cases)

    assert_saved(panel, {"embedding"}, {"metrics": panel.metrics_table,
                                        "brushed-labels": panel.selection_stats})


# -- save -----------------------------------------------------------------------------------------
def assert_saved(panel, charts: set[str], tables: dict, folder=None) -> None:
    """``panel.save`` writes exactly these charts (PNG + SVG) and tables (CSV), valid and
    equal to the panel's."""
    import tempfile

    with tempfile.TemporaryDirectory() as temporary:
        paths = panel.save(folder or temporary)
        stem = type(panel).__name__.removesuffix("Panel").lower()
        expected = {f"{stem}-{name}.{fmt}" for name in charts for fmt in ("png", "svg")}
        expected |= {f"{stem}-{name}.csv" for name, table in tables.items() if table is not None}
        assert {path.name for path in paths} == expected
        for path in paths:
            if path.suffix == ".png":
                assert path.read_bytes()[:8] == PNG_SIGNATURE
            elif path.suffix == ".svg":
                assert ET.parse(path).getroot().tag.endswith("svg")
            else:
                assert_csv_equals(path, tables[path.stem.removeprefix(f"{stem}-")])


def assert_csv_equals(path, frame: pd.DataFrame) -> None:
    """The CSV at ``path`` holds ``frame``: its index, columns and cells (numbers exactly,
    missing numbers as empty cells, text and booleans as shown)."""
    read = pd.read_csv(path, index_col=0, dtype=str, keep_default_na=False)
    assert list(read.columns) == [str(column) for column in frame.columns]
    assert read.index.tolist() == frame.index.astype(str).tolist()
    for column, theirs in zip(read.columns, frame.columns, strict=True):
        ours, shown = read[column], frame[theirs]
        if pd.api.types.is_bool_dtype(shown) or not pd.api.types.is_numeric_dtype(shown):
            assert ours.tolist() == shown.astype(str).tolist(), column
        else:
            numbers = pd.to_numeric(ours.replace("", np.nan))
            np.testing.assert_array_equal(numbers.to_numpy(float), shown.to_numpy(float))


def test_save_with_nothing_shown_says_so_and_writes_nothing(tmp_path):
    panel = TwoViewPanel("synthetic", run=False)
    with pytest.raises(InputError, match="shows no chart or table to save yet"):
        panel.save(tmp_path / "out")
    assert not (tmp_path / "out").exists()
    panel.code_bar.folder.value = str(tmp_path / "out")
    panel.code_bar.save_button.click()
    assert "nothing saved" in panel.code_bar.message.value


def test_the_save_button_writes_to_the_folder_typed(tmp_path):
    panel = CDVSEPanel()
    panel.code_bar.folder.value = str(tmp_path / "findings")
    panel.code_bar.save_button.click()
    written = sorted(path.name for path in (tmp_path / "findings").iterdir())
    assert written == sorted(f"cdvse-{name}.{fmt}" for name in ("boundaries", "weights",
                                                                 "objective")
                             for fmt in ("png", "svg"))
    assert "saved 6 files" in panel.code_bar.message.value


def test_in_the_app_the_button_offers_downloads_and_writes_nothing(tmp_path, monkeypatch):
    import base64
    import re

    from milab_widgets.widgets.lab import Lab

    monkeypatch.chdir(tmp_path)  # Voila's kernel runs in the package's folder
    lab = Lab(downloads=True)  # what milab app's notebook builds
    assert lab.panels["intH"].code_bar.save_button.description == "download chart and table"
    panel = CDVSEPanel()
    bar = panel.code_bar
    assert bar.save_button.description == "save chart and table"
    bar.use_downloads()
    assert bar.save_button.description == "download chart and table"
    assert bar.folder.layout.display == "none"
    bar.save_button.click()
    links = re.findall(r'<a download="([^"]+)" href="data:([^;]+);base64,([^"]+)"',
                       bar.message.value)
    assert sorted(name for name, _, _ in links) == sorted(
        f"cdvse-{name}.{fmt}" for name in ("boundaries", "weights", "objective")
        for fmt in ("png", "svg"))
    for name, kind, content in links:
        data = base64.b64decode(content)
        assert (kind, data[:4]) == (("image/png", b"\x89PNG") if name.endswith(".png")
                                    else ("image/svg+xml", b"<svg"))
    assert list(tmp_path.iterdir()) == [] and "6 files, click to download" in bar.message.value


# -- the control and the lab ----------------------------------------------------------------------
def test_copy_as_code_shows_the_code_in_a_text_area():
    panel = CDVSEPanel()
    area = panel.code_bar.code_area
    assert area.layout.display == "none" and area.value == ""
    panel.code_bar.copy_button.click()
    assert area.value == panel.code() and area.layout.display is None
    compile(area.value, "<copied>", "exec")


def test_the_lab_gives_the_code_of_the_tab_shown(empty_data_home):
    lab = Lab()
    assert lab.code() == lab.panels["intH"].code()
    lab.selected_index = 1
    assert lab.code() == lab.panels["CDVSE"].code()


# -- a panel without its data ---------------------------------------------------------------------
def test_a_panel_without_its_data_gives_code_with_a_note_not_a_traceback(empty_data_home):
    panel = MFSEFPanel()
    assert panel.last_error is not None  # the dataset is missing on a fresh install
    code = panel.code()
    compile(code, "<copied>", "exec")
    assert "# NOTE: the panel's last action failed (DatasetUnavailableError" in code
    assert "milab fetch" in code
    panel.code_bar.copy_button.click()
    assert panel.code_bar.code_area.value == code
    assert "Traceback" not in panel.code_bar.message.value
    # the script itself stops with the library's message naming the fetch
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=300)
    assert done.returncode != 0 and "milab fetch" in done.stderr


def test_settings_the_panel_refuses_become_a_note(require_dataset):
    require_dataset("yeast")
    panel = MFSEFPanel("yeast", run=False)
    panel.ratios.value = "abc"
    code = panel.code()
    compile(code, "<copied>", "exec")
    assert "cannot be written as code: subspace ratios 'abc'" in code
