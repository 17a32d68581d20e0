"""LSkMDDMPanel without a browser: runs, times solvers, keeps errors inside the panel."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.experiments.lskmddm import SEED_METRICS
from milab_widgets.widgets import base
from milab_widgets.widgets import lskmddm as panel_module
from tests.widgets.frontend import brush


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
    fast = {name: spec for name, spec in panel_module.PANEL_SOLVERS.items() if "ifp" not in name}
    monkeypatch.setattr(panel_module, "PANEL_SOLVERS", fast)
    panel.time()
    assert panel.last_error is None, panel.error.value
    assert list(panel.solver_times.solver) == list(fast)


def test_errors_stay_in_the_panel(panel, monkeypatch):
    def broken(*args, **kwargs):
        raise InputError("ridge must be > 0")

    monkeypatch.setattr(panel_module, "embed", broken)
    panel.run()
    assert isinstance(panel.last_error, InputError)
    assert "ridge must be" in panel.error.value and panel.status.value.startswith("failed")


def brush_box(panel, low1, high1, low2, high2):
    """Brush the scatter as the front end does (the second corner may come first)."""
    brush(panel.scatter_view, "brush", **{"coordinate 1": [high1, low1],
                                          "coordinate 2": [low2, high2]})
    assert panel.error.value == "", panel.last_error


@pytest.fixture
def shown(monkeypatch):
    """What the panel displays, as HTML text: captions, legends and rendered tables."""
    items = []
    monkeypatch.setattr(base, "_display_output", lambda item: (items.append(item), {})[1])
    return lambda: "\n".join(item.to_html() if hasattr(item, "to_html") else item.value
                              for item in items)


def test_brushing_the_scatter_counts_the_labels_of_the_rows_inside(panel, shown):
    embedding = panel.embedding
    low1, high1 = np.quantile(embedding[:, 0], [0.2, 0.7])
    low2, high2 = np.quantile(embedding[:, 1], [0.1, 0.9])
    brush_box(panel, low1, high1, low2, high2)
    inside = ((embedding[:, 0] >= low1) & (embedding[:, 0] <= high1)
              & (embedding[:, 1] >= low2) & (embedding[:, 1] <= high2))
    Y_test = panel._data[3]
    stats = panel.selection_stats
    assert list(stats["rows inside"]) == sorted(stats["rows inside"], reverse=True)
    assert stats["rows inside"].sum() == Y_test[inside].sum()
    for j, name in enumerate(panel._label_names):
        assert stats.loc[name, "rows inside"] == Y_test[inside, j].sum()
        assert stats.loc[name, "share inside"] == pytest.approx(Y_test[inside, j].mean())
        assert stats.loc[name, "share of all rows"] == pytest.approx(Y_test[:, j].mean())
        assert stats.loc[name, "lift"] == pytest.approx(Y_test[inside, j].mean()
                                                        / Y_test[:, j].mean())
    assert f"{inside.sum()} of {len(inside)} held-out rows brushed" in shown()
    brush(panel.scatter_view, "brush")  # a click outside the brush empties it
    assert panel.selection_stats is None


def test_a_label_absent_from_the_held_out_rows_has_no_lift_not_nan(panel, shown):
    Y_test = panel._data[3]
    Y_test[:, 0] = 0  # as if no held-out row carried the first label
    low, high = panel.embedding.min(axis=0), panel.embedding.max(axis=0)
    brush_box(panel, low[0], high[0], low[1], high[1])  # every row
    stats = panel.selection_stats
    absent = panel._label_names[0]
    assert stats.loc[absent, "rows inside"] == 0 and stats.loc[absent, "lift"] is pd.NA
    assert (stats.drop(index=absent)["lift"] == 1.0).all()
    text = shown()
    assert "never occurs among the" in text and "—" in text
    assert "nan" not in text.lower() and "inf" not in text.lower()


def test_an_empty_brush_says_so_instead_of_showing_zeros(panel, shown):
    top = panel.embedding[:, 0].max()
    brush_box(panel, top + 1.0, top + 2.0, -1e9, 1e9)  # right of every point
    stats = panel.selection_stats
    assert (stats["rows inside"] == 0).all()
    assert stats["share inside"].isna().all() and stats["lift"].isna().all()
    text = shown()
    assert "0 of" in text and "no point inside the brush" in text
    assert "nan" not in text.lower() and "inf" not in text.lower()


def test_switching_the_dataset_clears_every_result_at_once(panel, require_dataset, monkeypatch):
    require_dataset("yeast")
    monkeypatch.setattr(panel_module, "PANEL_SOLVERS", {
        name: spec for name, spec in panel_module.PANEL_SOLVERS.items() if "ifp" not in name})
    panel.time()
    assert panel.solver_times is not None and panel.scatter_view.chart is not None
    panel.dataset.value = "yeast"
    assert panel.scores is None and panel.embedding is None and panel.solver_times is None
    assert panel.scatter_view.chart is None
    assert [base.shown_widgets(panel.metrics_output)[0].value] == [panel_module.PRESS_RUN]
    assert not panel.times_output.outputs
    panel.run()
    assert panel.embedding.shape == (len(panel._data[2]), panel.dimension.value)


def test_a_changed_method_marks_the_results_stale(panel):
    assert panel.stale.value == ""
    panel.method.value = "KPCA"
    assert "earlier settings" in panel.stale.value
    panel.run()
    assert panel.stale.value == ""


def test_a_new_colour_drops_the_brushed_rows_table_with_the_brush(panel, shown):
    """Recolouring draws a new scatter, without the brush: its rows' table goes too (it
    said "324 of 1000 rows brushed" under a chart with no brush)."""
    low, high = panel.embedding.min(axis=0), panel.embedding.max(axis=0)
    brush_box(panel, low[0], high[0], low[1], high[1])
    assert panel.selection_stats is not None
    before = panel.scatter_view.chart
    panel.label.value = 1
    assert panel.scatter_view.chart is not before and panel.selection_stats is None
    assert panel.scatter_view.widget.selections.brush.value in ({}, None)


def test_a_dataset_switch_says_press_run_and_why_the_dimension_changed(panel, shown,
                                                                        require_dataset):
    require_dataset("yeast")
    panel.dimension.value = 3
    panel.dataset.value = "yeast"
    assert panel.scatter_view.chart is None and panel.scores is None
    assert "Press <b>Run</b>" in shown().split("\n")[-1]  # where the results were
    rank = panel_module.embedding_dimension(panel._data[1])  # the oracle: rank(H Y)
    assert panel.dimension.value == panel.dimension.max == rank
    note = panel.dimension.note.value
    assert f"set to {rank} for yeast" in note and "(was 3)" in note
    panel.dimension.value = 2  # the user's own change clears the note
    assert panel.dimension.note.value == ""


def test_a_typed_out_of_range_eta_is_reported_with_the_value_used(panel):
    panel.eta.entry.value = "-5"
    assert panel.eta.value == pytest.approx(0.001)
    assert "η (ridge) = -5 refused: allowed 0.001 to 100; used 0.001." in panel.eta.note.value
    panel.dimension.entry.value = "100000"
    assert panel.dimension.value == panel.dimension.max
    assert f"used {panel.dimension.max}" in panel.dimension.note.value
