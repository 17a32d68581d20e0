"""LSkMDDMPanel without a browser: runs, times solvers, keeps errors inside the panel."""

import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.experiments.lskmddm import SEED_METRICS
from milab_widgets.widgets import lskmddm as panel_module


@pytest.fixture
def panel(require_dataset):
    require_dataset("scene")
    return panel_module.LSkMDDMPanel(dataset="scene", n_train=200)


def test_panel_opens_with_metrics_and_a_scatter(panel):
    assert panel.last_error is None, panel.error.value
    assert set(SEED_METRICS) <= set(panel.scores)
    assert panel.embedding.shape[1] == panel.dimension.value
    panel.method.value, panel.dimension.value = "KPCA", 3
    panel.run()
    assert panel.last_error is None and panel.embedding.shape[1] == 3


def test_panel_times_every_solver(panel, monkeypatch):
    fast = {name: spec for name, spec in panel_module.PANEL_SOLVERS.items() if "lobpcg" not in name}
    monkeypatch.setattr(panel_module, "PANEL_SOLVERS", fast)
    panel.time()
    assert panel.last_error is None, panel.error.value
    assert list(panel.solver_times.solver) == list(fast)


def test_errors_stay_in_the_panel(panel, monkeypatch):
    def broken(*args):
        raise InputError("ridge must be > 0")

    monkeypatch.setattr(panel_module, "make_method", broken)
    panel.run()
    assert isinstance(panel.last_error, InputError)
    assert "ridge must be" in panel.error.value and panel.status.value.startswith("failed")
