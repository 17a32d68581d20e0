"""CDVSEPanel without a browser: opens with results, refits on slider moves, shows errors
in the panel, runs the UCI table view."""

import pytest

from milab_widgets.widgets import CDVSEPanel


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
    panel.repetitions.value = 1
    panel.run_uci()
    assert list(panel.uci_table.index) == ["thyroid"]
