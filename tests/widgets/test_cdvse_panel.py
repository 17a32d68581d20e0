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
    assert panel.uci_table is None and panel.status.value.startswith("failed")
    assert "not fetched" in panel.error.value
