"""TwoViewPanel driven without a browser: set widget values, press Run, read the results."""

import numpy as np
import pytest

from milab_widgets.evaluation.clustering_scores import clustering_accuracy
from milab_widgets.exceptions import DataFormatError
from milab_widgets.experiments import twoview as experiment
from milab_widgets.widgets import TwoViewPanel
from tests.widgets.frontend import click


@pytest.fixture(scope="module")
def panel():
    panel = TwoViewPanel("synthetic", run=False)
    panel.max_iter.value = 40
    panel.run_button.click()
    return panel


def assert_ok(panel):
    assert panel.error.value == "", panel.last_error
    assert panel.status.value.startswith("done:")


def test_run_scores_the_model_and_every_baseline(panel):
    assert_ok(panel)
    labels = experiment.load_problem("synthetic").labels
    assert panel.accuracy_value == clustering_accuracy(labels, panel.model.labels_)
    assert f"{panel.accuracy_value:.1%}" in panel.accuracy.value
    assert np.trace(panel.confusion.to_numpy()) == round(panel.accuracy_value * len(labels))
    assert list(panel.baseline_scores.method) == ["BAMIC1", "BAMIC2", "BAMIC3", "BAMIC-intH",
                                                  "unKer1", "Ker1 (this run)"]
    assert panel.curve_chart is not None and panel.confusion_chart is not None


def test_the_panel_fits_what_the_library_fits(panel):
    problem = experiment.ProblemCache(experiment.load_problem("synthetic"), experiment.Settings())
    y_partial = experiment.partial_labels(problem.data.labels, panel.fraction.value, panel.seed.value)
    model = experiment.fit_method("Ker1", problem, panel.generator.value, y_partial,
                                  experiment.Settings(), panel.seed.value, max_iter=40)
    np.testing.assert_allclose(panel.model.objective_, model.objective_, rtol=1e-10)


def test_controls_reach_the_model(panel):
    panel.kernel.value, panel.beta.value, panel.views.value = "minimax", 1.0, "first"
    panel.run()
    assert_ok(panel)
    assert panel.model.beta == 1.0 and len(panel.model.W_) == 1
    assert "Ker2 (this run)" in list(panel.baseline_scores.method)
    panel.fraction.value = 0.0
    panel.run()
    assert_ok(panel)
    assert panel.model.unsupervised and "BAMIC-intH" not in list(panel.baseline_scores.method)
    panel.kernel.value, panel.beta.value, panel.views.value, panel.fraction.value = (
        "mixture", 0.01, "both", 0.05)


def test_errors_stay_in_the_panel(tmp_path):
    panel = TwoViewPanel(str(tmp_path / "not-there"), run=False)
    assert isinstance(panel.last_error, DataFormatError)
    assert "neither a dataset" in panel.error.value
    panel.dataset.value = "synthetic"
    assert panel.error.value == "" and panel.generator.options == ("synthetic",)


def test_clicking_a_confusion_cell_lists_its_bags(panel):
    panel.run()
    labels = experiment.load_problem("synthetic").labels
    table = panel.confusion
    column = table.columns[0]  # the cluster matched to the first class
    cluster = int(column.split()[1])
    click(panel.confusion_view, "cell_pick", **{"class": str(table.index[0]), "cluster": column})
    assert_ok(panel)
    expected = np.flatnonzero((labels == table.index[0]) & (panel.model.labels_ == cluster))
    assert panel.cell_bags.index.tolist() == expected.tolist()
    assert len(expected) == table.iloc[0, 0]  # the cell's count


def test_a_changed_setting_marks_the_results_stale_and_a_bad_seed_is_named(panel):
    panel.run()
    assert panel.stale.value == ""
    panel.seed.value = -3
    assert panel.seed.value == -3 and "seed = -3 is out of range" in panel.error.value
    assert "earlier settings" in panel.stale.value
    accuracy = panel.accuracy_value
    panel.run()
    assert panel.status.value.startswith("failed") and panel.accuracy_value == accuracy
    panel.seed.value = 0
    panel.run()
    assert_ok(panel)
    assert panel.stale.value == ""


def test_while_it_clusters_the_panel_says_so_not_press_run(panel, monkeypatch):
    said = []
    fit = type(panel)._fit
    monkeypatch.setattr(panel, "_fit", lambda *args, **kwargs: said.append(
        panel.accuracy.value) or fit(panel, *args, **kwargs))
    panel.run_button.click()
    assert_ok(panel)
    assert said and said[0].startswith("Clustering with the current setting")
    assert "Press" not in said[0] and not panel.run_button.disabled
