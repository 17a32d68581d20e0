"""IntHPanel driven without a browser: set widget values, press Run, read the results."""

import re
import statistics

import numpy as np
import pytest

from milab_widgets.data import load_dataset
from milab_widgets.data.bags import BagDataset
from milab_widgets.evaluation.fixed_params import fold_accuracies
from milab_widgets.evaluation.neighbors_cv import grid_accuracies
from milab_widgets.evaluation.splits import stratified_splits
from milab_widgets.exceptions import DatasetUnavailableError
from milab_widgets.experiments import inth as experiment
from milab_widgets.mil import CitationKNN, bag_distances, nca_alpha_curve
from milab_widgets.widgets import IntHPanel, inth
from tests.widgets.frontend import click


@pytest.fixture(scope="module")
def musk1():
    bags = load_dataset("musk1")
    return bags, bag_distances(bags)


@pytest.fixture
def panel():
    panel = IntHPanel("musk1")
    panel.folds.value = 3
    return panel


def chosen_point(panel):
    spec = panel.curve_chart.to_dict()
    point = next(layer for layer in spec["layer"]  # the marker (the curve has points too)
                 if layer["mark"]["type"] == "point" and "what" in str(layer["encoding"]))
    return spec["datasets"][point["data"]["name"]][0]


def assert_ok(panel):
    assert panel.error.value == "", panel.last_error
    assert panel.status.value.startswith("done:")


def test_run_shows_the_cross_validated_accuracy(panel, musk1):
    panel.run_button.click()
    assert_ok(panel)
    assert len(panel.fold_scores) == 3
    assert np.all((panel.fold_scores >= 0) & (panel.fold_scores <= 1))
    mean, std = map(float, re.search(r"([\d.]+)% ± ([\d.]+)%", panel.accuracy.value).groups())
    assert 0 <= mean <= 100 and mean == pytest.approx(100 * panel.fold_scores.mean(), abs=0.05)
    # the sample std (ddof = 1), as the experiments' Tables 3-4
    assert std == pytest.approx(100 * statistics.stdev(panel.fold_scores), abs=0.05)
    # NCA mode follows the experiments' protocol: alpha tuned on each training fold.
    bags, matrices = musk1
    splits = stratified_splits(bags.labels, 3, inth.CV_SEED)
    grid = grid_accuracies("citation-knn", "integrated", matrices, bags.labels, splits, [2],
                           [panel.sigma.value])
    assert panel.fold_scores == pytest.approx(grid["accuracy"])
    assert panel.curve_chart is not None and panel.heatmap_chart is not None
    assert panel.held_out is not None


def test_alpha_by_hand_uses_the_slider_value(panel, musk1):
    panel.run()
    assert panel.alpha.disabled
    tuned = chosen_point(panel)["alpha"]
    assert panel.alpha.value == pytest.approx(tuned)

    panel.alpha_mode.value = "hand"
    assert not panel.alpha.disabled
    panel.alpha.value = 0.9
    panel.run()
    assert_ok(panel)
    bags, matrices = musk1
    point = chosen_point(panel)
    assert point["alpha"] == pytest.approx(0.9) != pytest.approx(tuned)
    expected_f = nca_alpha_curve(matrices["min"], matrices["max"], bags.labels,
                                 panel.sigma.value, [0.9])[0]
    assert point["f"] == pytest.approx(expected_f)
    fixed = CitationKNN(references=2, citers=4, metric="integrated", alpha=0.9)
    splits = stratified_splits(bags.labels, 3, inth.CV_SEED)
    expected = fold_accuracies(fixed, matrices, bags.labels, splits)
    assert panel.fold_scores == pytest.approx(expected)
    assert "α = 0.900 by hand" in panel.accuracy.value


def test_an_unavailable_dataset_shows_its_error_and_keeps_the_controls(panel, monkeypatch):
    def load_or_fail(name):
        if name == "fox":
            raise DatasetUnavailableError("Dataset 'fox' is not available; run `milab fetch fox`.")
        return load_dataset(name)

    monkeypatch.setattr(inth, "load_dataset", load_or_fail)
    panel.distance.value, panel.k.value, panel.sigma.value = "max", 5, 10
    settings = {name: getattr(panel, name).value
                for name in ("scaling", "distance", "classifier", "k", "citers", "sigma",
                             "alpha_mode", "alpha", "folds", "bag")}

    panel.dataset.value = "fox"  # must not raise
    assert "DatasetUnavailableError" in panel.error.value
    assert "milab fetch fox" in panel.error.value
    assert panel.status.value.startswith("failed:")
    assert panel.dataset.value == "fox"
    assert {name: getattr(panel, name).value for name in settings} == settings

    panel.dataset.value = "musk1"
    panel.run()
    assert_ok(panel)


def test_missing_datasets_are_listed_as_missing(panel):
    from milab_widgets.data import list_datasets

    table = list_datasets()
    missing = table.loc[(table["kind"] == "mil") & ~table["available"], "name"]
    labels = dict((name, label) for label, name in panel.dataset.options)
    assert all(labels[name] == f"{name} (missing)" for name in missing)
    assert labels["musk1"] == "musk1"


def test_a_nan_alpha_shows_an_error_and_a_later_run_succeeds(panel):
    opened_with = panel.fold_scores  # the panel runs the default setting when it opens
    assert opened_with is not None
    panel.alpha_mode.value = "hand"
    panel.alpha.value = float("nan")
    panel.run()
    assert "ParameterError" in panel.error.value  # scikit-learn's, naming the parameter
    assert "&#x27;alpha&#x27; parameter" in panel.error.value and "[0.0, 1.0]" in panel.error.value
    assert panel.fold_scores is opened_with  # the last good results stay

    panel.alpha.value = 0.4
    panel.run()
    assert_ok(panel)
    assert panel.fold_scores is not None


def test_too_many_references_shows_an_error_and_a_later_run_succeeds(monkeypatch):
    rng = np.random.default_rng(0)
    tiny = BagDataset.from_bags([rng.normal(size=(2, 3)) + 3 * (i % 2) for i in range(12)],
                                labels=np.arange(12) % 2, name="tiny")
    monkeypatch.setattr(inth, "load_dataset", lambda name: tiny)
    panel = IntHPanel("musk1")
    panel.folds.value = 3
    panel.k.value = 15  # only 8 training bags per fold
    panel.run()
    assert "InputError" in panel.error.value
    assert "lower the number of references" in panel.error.value
    assert panel.k.value == 15

    panel.k.value = 3
    panel.run()
    assert_ok(panel)


def test_references_and_citers_of_the_chosen_bag_match_argsort(panel, musk1):
    panel.distance.value = "min"
    panel.k.value, panel.citers.value = 3, 5
    panel.bag.value = 10
    panel.run()
    assert_ok(panel)

    bags, matrices = musk1
    distances = matrices["min"]
    others = np.delete(np.arange(len(bags)), 10)
    references = others[np.argsort(distances[10, others], kind="stable")[:3]]
    within = distances[np.ix_(others, others)]
    np.fill_diagonal(within, np.inf)
    radius = np.sort(within, axis=1)[:, 5 - 1]  # each bag's 5th nearest other training bag
    citers = others[distances[others, 10] <= radius]
    table = panel.held_out.neighbours
    assert set(table.loc[table.role.str.contains("reference"), "bag"]) == set(references)
    assert set(table.loc[table.role.str.contains("citer"), "bag"]) == set(citers)
    assert table["distance"].to_numpy() == pytest.approx(distances[10, table["bag"]])
    verdict = "right" if panel.held_out.prediction == bags.labels[10] else "wrong"
    assert verdict in panel.bag_result.value

    panel.bag.value = 20  # choosing another bag after a run updates the neighbourhood
    assert panel.held_out.bag == 20


def test_knn_lists_only_its_k_references(panel):
    panel.classifier.value = "knn"
    assert panel.citers.disabled and panel.k.description == "K"
    panel.k.value = 5
    panel.run()
    assert_ok(panel)
    assert panel.held_out.neighbours["role"].tolist() == ["reference"] * 5


def test_knn_runs_whatever_the_disabled_citers_box_holds(panel):
    """Found by the input storm: an out-of-range citers value typed under Citation-KNN
    stopped KNN runs, though KNN disables the box (it cannot be corrected) and ignores it."""
    panel.citers.value = 0
    assert "citers = 0 is out of range" in panel.error.value
    panel.classifier.value = "knn"
    panel.run()
    assert_ok(panel)
    panel.classifier.value = "citation-knn"
    panel.run()
    assert panel.status.value.startswith("failed") and "citers = 0" in panel.error.value


def test_a_bag_that_cannot_be_classified_keeps_the_last_one_with_a_note(panel):
    panel.run()
    shown = panel.bag_result.value
    panel.citers.value = 0
    panel.bag.value = 7
    assert panel.status.value.startswith("failed") and "citers = 0" in panel.error.value
    note = "classification and votes below are of an earlier setting"
    assert panel.bag_result.value == shown and note in panel.stale.value
    panel.citers.value = 4
    panel.bag.value = 8
    assert panel.held_out.bag == 8 and note not in panel.stale.value


def test_renaming_references_to_k_drops_the_note_under_the_old_name(panel):
    panel.k.entry.value = "99"
    assert "references = 99 refused" in panel.k.note.value
    panel.classifier.value = "knn"
    assert panel.k.description == "K" and panel.k.note.value == ""
    panel.classifier.value = "citation-knn"


def test_citers_default_to_references_plus_two(panel):
    panel.k.value = 6
    assert panel.citers.value == 8
    assert "set to 8 = references + 2 (the paper's setting)" in panel.citers.note.value
    panel.citers.value = 3  # still editable; the note goes with the change
    assert panel.citers.value == 3 and panel.citers.note.value == ""


def test_changing_controls_does_not_recompute_instance_distances(monkeypatch):
    calls = []

    def counting(bags, *args, **kwargs):
        calls.append(bags.instances.std())
        return bag_distances(bags, *args, **kwargs)

    monkeypatch.setattr(experiment, "bag_distances", counting)
    panel = IntHPanel("musk1")
    panel.folds.value = 3
    panel.run()
    panel.sigma.value, panel.k.value, panel.distance.value = 10, 4, "average"
    panel.alpha_mode.value = "hand"
    panel.classifier.value = "knn"
    panel.run()
    assert_ok(panel)
    assert len(calls) == 1

    panel.scaling.value = "standard"
    panel.run()
    panel.scaling.value = "none"
    panel.run()
    assert_ok(panel)
    assert len(calls) == 2
    assert calls[1] == pytest.approx(1.0, abs=0.05)  # standardised on all instances


def test_clicking_a_heatmap_cell_classifies_that_bag(panel, musk1):
    panel.run()
    shown = panel.heatmap_view.chart.to_dict()
    rows = next(iter(shown["datasets"].values()))
    clicked = rows[7]["row_bag"]  # a bag drawn in the (thinned) heatmap
    click(panel.heatmap_view, "bag_pick", row_bag=clicked, col_bag=rows[3]["row_bag"])
    assert_ok(panel)
    assert panel.bag.value == clicked and panel.held_out.bag == clicked
    bags, _ = musk1
    assert str(bags.bag_ids[clicked]) in panel.bag_result.value


def test_clicking_the_curve_sets_alpha_by_hand_and_marks_the_accuracy_stale(panel, musk1):
    panel.run()
    assert panel.stale.value == ""
    click(panel.curve_view, "alpha_pick", alpha=0.25)
    assert_ok(panel)
    assert panel.alpha_mode.value == "hand" and panel.alpha.value == pytest.approx(0.25)
    assert chosen_point(panel)["alpha"] == pytest.approx(0.25)
    bags, matrices = musk1
    assert chosen_point(panel)["f"] == pytest.approx(nca_alpha_curve(
        matrices["min"], matrices["max"], bags.labels, panel.sigma.value, [0.25])[0])
    assert "press <b>Run</b>" in panel.stale.value  # the CV accuracy is for the old alpha
    panel.run()
    assert panel.stale.value == ""


def test_a_dataset_switch_clears_results_and_the_tuned_alpha(panel, require_dataset):
    require_dataset("musk2")
    panel.run()
    assert panel.alpha.entry.layout.visibility == "visible"
    panel.dataset.value = "musk2"
    assert panel.fold_scores is None and panel.curve_view.chart is None
    assert panel.heatmap_view.chart is None  # the tuned α of musk1 is no longer shown:
    assert panel.alpha.entry.layout.visibility == "hidden"
    assert panel.alpha.description == "α (tuned by Run)"


def test_an_out_of_range_fold_count_is_an_error_naming_the_control(panel):
    panel.run()
    shown = panel.accuracy.value
    panel.folds.value = 50
    assert panel.folds.value == 50  # kept as typed, not clamped
    assert "CV folds = 50 is out of range" in panel.error.value and "from 2 to 20" in panel.error.value
    panel.run()
    assert panel.status.value.startswith("failed") and panel.accuracy.value == shown
    panel.folds.value = 3
    assert panel.error.value == ""
