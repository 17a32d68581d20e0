"""Seed 004's experiment functions on small real data and on hand-made tables."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.experiments import lskmddm
from milab_widgets.multilabel.kernel_mddm import KernelMDDM


@pytest.fixture(scope="module")
def small_settings():
    return lskmddm.Settings(quick=True, table2_repetitions=1, table2_max_train=300,
                            yahoo_train=300, yahoo_test=200, dimensions=(2, 4),
                            timing_sizes=(150, 300), timing_budget=60.0)


def test_table2_solvers_agree_on_scene(require_dataset, small_settings, tmp_path):
    scene = require_dataset("scene")
    table = lskmddm.table2_runs([scene], small_settings, ResultCache(tmp_path))
    assert set(table.method) == {"kMDDM (eig)", "LSkMDDM (block LSQR)", "LSkMDDM (block CG)"}
    cg = table[table.method == "LSkMDDM (block CG)"].iloc[0]
    eig = table[table.method == "kMDDM (eig)"].iloc[0]
    assert eig.angle_to_eig < 1e-12  # its own reference
    assert cg.angle_to_eig < 1e-3  # table2_runs runs block CG at tol = 1e-3 rad
    for metric in ("macroAUC", "macroF1", "microF1"):
        assert abs(cg[metric] - eig[metric]) < 0.02
    again = lskmddm.table2_runs([scene], small_settings, ResultCache(tmp_path))  # from the cache
    pd.testing.assert_frame_equal(table, again)


def test_method_runs_cover_every_method_and_dimension(require_dataset, small_settings):
    arts = require_dataset("arts")
    result = lskmddm.method_runs([arts], small_settings, ResultCache(None))
    runs, dims = result["runs"], result["dimensions"]
    assert list(runs.method) == list(lskmddm.METHODS)
    assert runs[list(lskmddm.SEED_METRICS)].notna().all().all()
    assert set(dims.dimension) >= {2, 4}
    assert "ML-kNN" not in set(dims.method)


def test_timing_reports_every_solver_and_exact_references(require_dataset, small_settings):
    arts = require_dataset("arts")
    timing = lskmddm.timing_runs(arts, small_settings, ResultCache(None))
    assert set(timing.solver) == set(lskmddm.TIMING_SOLVERS)
    direct = timing[timing.solver == "LSkMDDM (direct)"]
    assert (direct.angle < 1e-6).all()  # exact (Cholesky) against the exact eigen-solver
    params = lskmddm.TIMING_SOLVERS["rLSkMDDM (block LSQR)"][0]
    tol = params.get("tol", KernelMDDM().tol)
    ridge_lsqr = timing[timing.solver == "rLSkMDDM (block LSQR)"]
    assert ridge_lsqr.converged.all() and (ridge_lsqr.angle < tol).all()


def test_scaling_exponent_recovers_a_power_law():
    n = np.array([500, 1000, 2000, 4000])
    timing = pd.DataFrame({"dataset": "d", "solver": ["cubic"] * 4 + ["square"] * 4,
                           "n": np.tile(n, 2), "seconds": np.r_[1e-9 * n**3.0, 1e-6 * n**2.0]})
    exponents = lskmddm.scaling_exponents(timing).set_index("solver").exponent
    assert exponents["cubic"] == pytest.approx(3.0) and exponents["square"] == pytest.approx(2.0)


def test_claims_follow_the_means():
    rows = []
    for method, micro in zip(lskmddm.METHODS, [0.1, 0.2, 0.3, 0.4, 0.6, 0.5]):
        rows += [{"dataset": "d", "method": method, "rep": 0, "macroAUC": micro, "macroF1": micro,
                  "microF1": micro, "RL": 0, "OE": 0, "CV": 0, "AP": 0}]
    claims = lskmddm.check_claims(lskmddm.summarise(pd.DataFrame(rows)), pd.DataFrame(
        columns=["dataset", "solver", "n", "seconds"]))
    assert claims.holds.all() and len(claims) == 4


def test_speed_claim_needs_speed_and_accuracy():
    timing = pd.DataFrame({
        "dataset": "d", "n": [1000, 2000, 1000, 2000, 2000],
        "solver": ["kMDDM (eig)"] * 2 + ["LSkMDDM (direct)"] * 2 + ["LSkMDDM (block LSQR)"],
        "seconds": [1.0, 8.0, 0.5, 1.0, 2.0], "angle": [0, 0, 1e-10, 1e-10, 0.4]})
    empty = pd.DataFrame(columns=["dataset", "method", "rep", *lskmddm.SEED_METRICS])
    claims = lskmddm.check_claims(lskmddm.summarise(empty), timing).set_index("claim").holds
    assert claims["LSkMDDM (direct) faster than kMDDM (eig) at equal accuracy"]
    assert not claims["LSkMDDM (block LSQR) faster than kMDDM (eig) at equal accuracy"]
