"""Seed 002's experiment module: split protocol, a small run end to end, tables, cache."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.data.synthetic_oneclass import square_noise
from milab_widgets.experiments import cdvse


def test_split_takes_70_percent_of_normals_and_half_a_percent_of_outliers():
    y = np.r_[np.ones(444), -np.ones(239)].astype(int)
    train, test = cdvse.split_train_test(y, np.random.default_rng(0))
    assert (y[train] == 1).sum() == round(0.7 * 444) and (y[train] == -1).sum() == 1
    assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == len(y)
    train2, _ = cdvse.split_train_test(y, np.random.default_rng(0))
    np.testing.assert_array_equal(train, train2)


def test_paper_tables_are_complete():
    assert len(cdvse.PAPER_TABLE2) == 13
    test = cdvse.PAPER_SCORES[cdvse.PAPER_SCORES.split == "test"]
    assert len(test) == 13 * 4
    row = test[(test.dataset == "sonar") & (test.method == "cdvse")].iloc[0]
    assert (row.paper_mean, row.paper_std) == pytest.approx((0.6064, 0.0469))


@pytest.mark.realdata
def test_small_run_end_to_end(require_dataset, tmp_path):
    require_dataset("thyroid")
    results = cdvse.run(["thyroid", "flare_solar"], quick=True, repetitions=1,
                        cache_dir=tmp_path / "cache")
    assert set(results.skipped) == {"flare_solar"}
    assert set(results.runs.method) == set(cdvse.METHODS) and len(results.runs) == 4
    assert results.runs[["train", "test"]].apply(lambda c: c.between(0, 1)).all().all()
    summary = results.summary
    assert summary["paper_mean"].notna().all()
    table = cdvse.score_table(summary, "test")
    assert list(table.index) == ["thyroid"] and "CDVSE (paper)" in table.columns
    assert table.loc["thyroid", "CDVSE (paper)"] == "94.23 ± 1.81"
    parameters = cdvse.parameter_table(results.runs)
    assert parameters.loc[0, "paper_kept"] == 31
    claims = results.claims
    assert set(claims.claim.str[:5]) == {"CDVSE"} and claims.holds.dtype == bool
    written = cdvse.save_tables(results, tmp_path / "out")
    assert all(path.exists() for path in written)
    again = cdvse.run(["thyroid"], quick=True, repetitions=1, cache_dir=tmp_path / "cache")
    pd.testing.assert_frame_equal(again.runs, results.runs)


def test_playground_fits_both_models_on_a_2d_set():
    result = cdvse.playground(square_noise(seed=0), C=0.2, zeta=3.0, n_estimators=8,
                              seed=0, grid_size=20)
    assert list(result.scores.method) == ["svdd", "cdvse"]
    assert len(result.weights) == 8 and len(result.objective) == 21
    assert len(result.boundaries) == 2 * 20 * 20
    assert set(result.points.role) == {"training", "test normal", "outlier"}
    assert (result.points.role == "training").sum() == 140


def test_run_without_the_synthetic_sets_gives_empty_tables_with_columns():
    results = cdvse.run([], quick=True, repetitions=1, synthetic=False)
    for table, columns in ((results.synthetic, cdvse.SYNTHETIC_COLUMNS),
                           (results.boundaries, cdvse.BOUNDARY_COLUMNS),
                           (results.points, cdvse.POINT_COLUMNS)):
        assert table.empty and list(table.columns) == list(columns)
    assert results.claims.empty and results.runs.empty


def test_synthetic_columns_match_the_experiment():
    settings = cdvse.Settings.for_mode(True, repetitions=1)
    tables = cdvse.synthetic_experiment(settings, grid_size=5)
    columns = (cdvse.SYNTHETIC_COLUMNS, cdvse.BOUNDARY_COLUMNS, cdvse.POINT_COLUMNS)
    for table, expected in zip(tables, columns):
        assert list(table.columns) == list(expected)


def test_cache_key_ignores_the_number_of_repetitions(monkeypatch, tmp_path):
    def record(name, data, repetition, settings):
        return {"rows": [{"dataset": name, "repetition": repetition, "method": "svdd"}]}

    monkeypatch.setattr(cdvse, "repetition_record", record)
    cache = cdvse.ResultCache(tmp_path)
    cdvse.uci_runs({"toy": None}, cdvse.Settings.for_mode(True, repetitions=2), cache)
    runs = cdvse.uci_runs({"toy": None}, cdvse.Settings.for_mode(True, repetitions=3), cache)
    assert (cache.hits, cache.misses) == (2, 3) and list(runs.repetition) == [0, 1, 2]
    cdvse.uci_runs({"toy": None}, cdvse.Settings.for_mode(True, seed=1, repetitions=1), cache)
    assert cache.misses == 4  # the seed still is part of the key
