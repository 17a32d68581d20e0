"""CDVSEPanel without a browser: opens with results, refits on slider moves, shows errors
in the panel, runs the UCI table view."""

import re

import numpy as np
import pandas as pd
import pytest

from milab_widgets.widgets import CDVSEPanel, base
from milab_widgets.widgets.cdvse import parameter_display
from tests.widgets.frontend import click


@pytest.fixture(scope="module")
def panel():
    return CDVSEPanel()


def test_panel_opens_with_both_models_fitted(panel):
    assert panel.status.value.startswith("done") and panel.error.value == ""
    assert set(panel.result.scores.method) == {"svdd", "cdvse"}
    assert len(panel.result.weights) == panel.M.value == 20
    assert "SVDDs kept" in panel.scores.value and panel.boundary is not None


def test_moving_a_slider_refits(panel):
    panel.M.value = 6
    assert len(panel.result.weights) == 6 and panel.status.value.startswith("done")
    panel.dataset.value = "square_noise"
    assert (panel.result.points.role == "training").sum() == 140


@pytest.mark.realdata
def test_errors_show_in_the_panel_and_the_uci_view_runs(panel, require_dataset):
    require_dataset("hepatitis")
    panel.dataset.value = "hepatitis"  # 86 training samples: C = 0.01 < 1/86 has no SVDD
    panel.C.value = 0.01
    assert panel.status.value.startswith("failed") and "below 1/n" in panel.error.value
    panel.C.value = 0.5
    assert panel.error.value == "" and panel.status.value.startswith("done")
    panel.uci_dataset.value = "thyroid"
    panel.repetitions.value = 1  # one repetition has no std: refused, not shown as "± nan"
    panel.run_uci()
    assert "from 2 to 20" in panel.uci.error.value and panel.uci_table is None
    assert panel.error.value == ""  # the playground's view is not the UCI tab's
    panel.repetitions.value = 2
    panel.run_uci()
    assert list(panel.uci_table.index) == ["thyroid"]
    cells = panel.uci_table.loc["thyroid"].dropna()
    assert len(cells) and not cells.str.contains("nan").any(), cells
    table2 = panel.parameters
    assert list(table2.columns[:5]) == ["dataset", "C", "ν", "ζ", "σ"]
    assert table2["dataset"].tolist() == ["thyroid"]
    # numbers as written: the protocol's grid values, never "10.0000"
    for column in ("C", "ζ", "σ"):
        assert float(table2[column].iloc[0]) > 0 and not table2[column].iloc[0].endswith("00")
    assert re.fullmatch(r"\d+\.\d ± \d+\.\d", table2["SVDDs kept"].iloc[0])


def test_uci_dropdown_lists_every_oneclass_set():
    from milab_widgets.data import list_datasets

    table = list_datasets()
    names = set(table.loc[table["kind"] == "oneclass", "name"])
    panel = CDVSEPanel(update=False)
    assert {value for _, value in panel.uci_dataset.options} == names
    assert panel.uci_dataset.value in names


def test_run_protocol_skips_the_synthetic_sets_and_reports_an_unavailable_set(monkeypatch):
    from milab_widgets.experiments import cdvse

    calls = []

    def fake_run(datasets, **kwargs):
        calls.append(kwargs)
        return cdvse.Results(None, None, None, None, None, {datasets[0]: "not fetched"})

    monkeypatch.setattr(cdvse, "run", fake_run)
    panel = CDVSEPanel(update=False)
    panel.run_uci()
    assert calls[0]["synthetic"] is False and calls[0]["quick"] is True
    assert panel.uci_table is None and panel.uci.status.value.startswith("failed")
    assert "not fetched" in panel.uci.error.value and panel.error.value == ""


def test_clicking_a_sample_lists_its_distance_to_each_kept_sphere(panel):
    panel.dataset.value = "sine_noise"
    sample = panel.result.points.iloc[5]
    click(panel.boundary_view, "sample_pick", x=float(sample.x), y=float(sample.y))
    assert panel.error.value == "", panel.last_error
    ensemble = panel.result.ensemble
    table = panel.sample_distances
    assert list(table.index) == list(ensemble.selected_)
    # oracle: ||phi(x) - a_k||^2 = K(x,x) - 2 sum_i a_ik K(x, s_i) + ||a_k||^2, K(x,x) = 1
    spheres = ensemble.spheres_
    point = np.array([[sample.x, sample.y]])
    kernel = np.exp(-spheres.gamma * ((spheres.support_vectors - point) ** 2).sum(axis=1))
    squared = 1 - 2 * kernel @ spheres.duals + spheres.center_sq_norms
    expected = np.sqrt(np.maximum(squared, 0))[ensemble.selected_]
    assert table["distance d_k(x)"].to_numpy() == pytest.approx(expected)
    inside = (squared <= spheres.radii_sq)[ensemble.selected_]
    assert table["inside"].tolist() == inside.tolist()
    assert f"inside {inside.sum()} of {len(inside)} kept spheres" in panel.sample_info.value
    decision = np.sum(table["weight w_k"] * (table["radius r_k"] - table["distance d_k(x)"]))
    assert f"{decision:.4f}" in panel.sample_info.value


def test_a_new_fit_clears_the_clicked_sample_and_a_bad_seed_is_reported(panel):
    sample = panel.result.points.iloc[0]
    click(panel.boundary_view, "sample_pick", x=float(sample.x), y=float(sample.y))
    assert panel.sample_distances is not None
    panel.zeta.value = 1.0
    assert panel.sample_distances is None and "Click a sample" in panel.sample_info.value
    panel.seed.value = -3
    assert panel.seed.value == -3 and "seed = -3 is out of range" in panel.error.value
    # the plots stay, under a note that they are not of this seed
    assert "2-D playground below are of an earlier setting" in panel.stale.value
    panel.seed.value = 0
    assert panel.error.value == "" and panel.stale.value == ""


def test_each_sub_tab_has_its_own_status_error_and_stale_note(panel):
    """The repetitions error shows in the UCI tab only and stays through playground refits;
    the UCI tab's "press Run protocol" never sits above fresh playground results."""
    tabs = panel.controls.children[0]
    playground, uci = tabs.children
    assert playground.children[:4] == tuple(panel.status_area.parts())
    assert uci.children[:4] == (panel.uci.status, panel.uci.progress, panel.uci.stale,
                                panel.uci.error)
    assert panel.status not in panel.children and panel.error not in panel.children
    panel.repetitions.value = 100
    assert "repetitions = 100 is out of range" in panel.uci.error.value
    assert panel.error.value == ""
    panel.M.value = 5  # a playground refit
    assert panel.status.value.startswith("done") and panel.error.value == ""
    assert "repetitions = 100 is out of range" in panel.uci.error.value
    panel.uci_table = pd.DataFrame({"g": [1]})  # as after a protocol run
    panel.repetitions.value = 3
    assert "press <b>Run protocol</b>" in panel.uci.stale.value and panel.stale.value == ""
    assert panel.uci.error.value == ""
    panel.M.value = 6
    assert "Run protocol" in panel.uci.stale.value and "Run protocol" not in panel.stale.value
    panel.uci_dataset.value = next(v for _, v in panel.uci_dataset.options
                                   if v != panel.uci_dataset.value)
    assert panel.uci_table is None and panel.uci.stale.value == ""  # a switch clears them


@pytest.mark.realdata
def test_the_uci_table_says_its_repetitions_and_a_fixed_failure_stops_pointing_at_an_error(
        panel, require_dataset):
    require_dataset("sonar")
    panel.uci_dataset.value, panel.repetitions.value = "sonar", 2
    panel.run_uci()
    caption = "Test g-mean (%)</b> on sonar: ours, mean ± std over 2 repetitions"
    assert panel.uci_table is not None and caption in repr(panel.uci_output.outputs) + "".join(
        getattr(item, "value", "") for item in base.shown_widgets(panel.uci_output))
    panel.repetitions.value = 1  # refused by the protocol: the table kept, the note says why
    panel.run_uci()
    assert "see the error above" in panel.uci.stale.value and panel.uci.error.value
    panel.repetitions.value = 2  # fixed: the error goes, the note no longer points at it
    assert panel.uci.error.value == "" and "see the error above" not in panel.uci.stale.value
    assert "The UCI tables below are of an earlier setting" in panel.uci.stale.value


def test_table_2_has_titled_columns_no_index_and_numbers_as_written():
    table = pd.DataFrame({"dataset": ["cancer"], "C": [10.0], "nu": [0.0025], "zeta": [0.5],
                          "sigma": [0.05], "kept_mean": [6.5], "kept_std": [0.70710678],
                          "paper_nu": [0.07], "paper_zeta": [0.1], "paper_sigma": [0.01],
                          "paper_kept": [2]})
    shown = parameter_display(table)
    assert shown.to_dict("records") == [{
        "dataset": "cancer", "C": "10", "ν": "0.0025", "ζ": "0.5", "σ": "0.05",
        "SVDDs kept": "6.5 ± 0.7", "paper ν": "0.07", "paper ζ": "0.1", "paper σ": "0.01",
        "paper SVDDs kept": "2"}]
    missing = parameter_display(table.assign(kept_std=np.nan, paper_nu=np.nan))
    assert missing.loc[0, "SVDDs kept"] == "6.5" and missing.loc[0, "paper ν"] == "—"
