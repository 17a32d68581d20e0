"""The two-view experiment on the synthetic data with a tiny protocol (shapes, protocol); its
claims are tested in tests/claims/test_twoview.py."""

import json

import numpy as np
import pytest

from milab_widgets.claims.twoview import CATALOGUE
from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
from milab_widgets.data.twoview_files import write_two_view_folder
from milab_widgets.evaluation.clustering_scores import clustering_accuracy
from milab_widgets.experiments import twoview as experiment
from milab_widgets.mil import (
    BAMIC,
    TwoViewMIClustering,
    bag_distances,
    bag_kernel_factors,
)

TINY = experiment.Settings(runs=2, max_iter=25, n_components=4, grid=(0.01, 100.0),
                           grid_alphas=None, grid_runs=1, grid_dataset="synthetic",
                           grid_classes=("cluster 0", "cluster 1"), convergence_iter=15,
                           convergence_betas=(0.01, 100.0), timing_repeats=2,
                           timing_iterations=5)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return experiment.run(["synthetic", "no-such-folder"], settings=TINY, cache_dir=cache), cache


def test_tables_cover_every_method_generator_and_run(results):
    res, _ = results
    assert set(res.runs.method) == set(experiment.METHODS)
    assert len(res.runs) == len(experiment.METHODS) * TINY.runs
    table = experiment.accuracy_table(res.summary, "synthetic")
    assert list(table.index) == list(experiment.METHODS) and list(table.columns) == ["synthetic", "Avg"]
    assert "no-such-folder" in res.skipped


def test_grid_and_convergence_have_the_protocol_shape(results):
    res, _ = results
    means = experiment.grid_means(res.grid)
    assert len(means) == 2 * len(TINY.grid) ** 2          # 2 kernels x alpha x beta
    curves = res.convergence.groupby(["method", "beta", "update"]).size()
    assert len(curves) == 2 * 2 * 2 and (curves == TINY.convergence_iter + 1).all()
    claims = res.claims.set_index("id")  # the claims themselves: tests/claims/test_twoview.py
    assert list(claims.index) == [claim.id for claim in CATALOGUE]
    assert claims.verdict["monotone-rule-never-rises"] == "supported"
    timing = res.timing
    assert len(timing) == 2 * TINY.timing_repeats and timing.same_labels.all()


def test_a_table_cell_is_the_estimators_own_result(results):
    """Ker1, run 1: rebuilt from the public API, it must give the recorded accuracy."""
    res, _ = results
    data = experiment.load_problem("synthetic")
    y_partial = experiment.partial_labels(data.labels, TINY.labelled_fraction, TINY.seed + 1)
    factors = bag_kernel_factors(data.views("synthetic"), n_components=TINY.n_components,
                                 random_state=TINY.seed)  # one mixture per view, fixed over runs
    model = TwoViewMIClustering(6, kernel="factored", max_iter=TINY.max_iter, tol=TINY.tol,
                                random_state=TINY.seed + 1).fit(factors, y_partial)
    recorded = res.runs.query("method == 'Ker1' and run == 1").accuracy.item()
    assert recorded == pytest.approx(clustering_accuracy(data.labels, model.labels_))


def test_bamic_sees_both_views_each_scaled_by_its_mean():
    data = synthetic_two_view_bags(n_clusters=2, bags_per_cluster=6, seed=3)
    cache = experiment.ProblemCache(data, TINY)
    combined = cache.distances("synthetic")["average"]
    expected = 0
    for view in data.views("synthetic"):
        d = bag_distances(view)["average"]
        expected = expected + d / (d.sum() / (len(d) * (len(d) - 1)))
    np.testing.assert_allclose(combined, expected)
    model = experiment.fit_method("BAMIC3", cache, "synthetic", None, TINY, 0)
    assert model.labels_.tolist() == BAMIC(2, random_state=0).fit(expected).labels_.tolist()


def test_partial_labels_take_the_fraction_of_every_class():
    y = np.repeat([0, 1, 2], [40, 20, 7])
    partial = experiment.partial_labels(y, 0.05, seed=0)
    assert [(partial == c).sum() for c in range(3)] == [2, 1, 1]
    assert (partial[partial != -1] == y[partial != -1]).all()
    assert not np.array_equal(partial, experiment.partial_labels(y, 0.05, seed=1))


def test_a_user_folder_runs_like_a_builtin_dataset(tmp_path):
    data = synthetic_two_view_bags(n_clusters=2, bags_per_cluster=8, seed=4)
    folder = write_two_view_folder(data, tmp_path / "mine")
    settings = experiment.Settings(runs=1, max_iter=5, n_components=3, grid_dataset=str(folder),
                                   grid=(0.01,), grid_runs=1, convergence_iter=3,
                                   grid_classes=("cluster 0", "cluster 1"))
    res = experiment.run([str(folder)], settings=settings)
    assert set(res.runs.dataset) == {"mine"} and not res.skipped


def test_cache_resumes_and_save_tables_writes_everything(results, tmp_path):
    res, cache = results
    again = experiment.run(["synthetic"], settings=TINY, cache_dir=cache)
    np.testing.assert_array_equal(again.runs.accuracy, res.runs.accuracy)
    written = experiment.save_tables(res, tmp_path)
    names = {path.name for path in written}
    assert {"summary.csv", "table1_synthetic.csv", "grid.csv", "convergence.csv", "claims.csv",
            "claim_cases.csv", "fit_times.csv", "paper_comparison.csv", "settings.json"} <= names
    assert json.loads((tmp_path / "settings.json").read_text())["runs"] == TINY.runs


def test_run_loads_the_grid_dataset_once_and_shares_its_kernels(monkeypatch, tmp_path):
    loads, caches = [], []
    load, cache_init = experiment.load_problem, experiment.ProblemCache.__init__
    monkeypatch.setattr(experiment, "load_problem", lambda name: loads.append(name) or load(name))
    monkeypatch.setattr(experiment.ProblemCache, "__init__", lambda self, *args: (
        caches.append(args[0].name), cache_init(self, *args))[1])
    tiny = experiment.Settings(**{**TINY.__dict__, "runs": 1, "grid": (0.01,)})
    experiment.run(["synthetic"], settings=tiny, cache_dir=tmp_path)
    assert loads == ["synthetic"] and len(caches) == 2   # the table's and the figures'
