"""LSkMDDM's experiment functions on small real data, and its claims on hand-made tables."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.claims.catalogue import CATALOGUE_COLUMNS
from milab_widgets.claims.lskmddm import CATALOGUE
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.experiments import lskmddm
from milab_widgets.multilabel import metrics


@pytest.fixture(scope="module")
def small_settings():
    return lskmddm.Settings(quick=True, repetitions=1, table2_repetitions=1,
                            table2_max_train=300,
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


def test_timing_repeats_every_solver_interleaved_with_exact_references(require_dataset,
                                                                      small_settings):
    arts = require_dataset("arts")
    timing = lskmddm.timing_runs(arts, small_settings, ResultCache(None))
    assert set(timing.solver) == set(small_settings.timing_solvers)
    counts = timing.groupby(["n", "solver"]).size()
    assert (counts == small_settings.timing_repeats).all()
    names = list(small_settings.timing_solvers)
    first = timing.groupby(["n", "repeat"]).solver.first()  # rows keep the order of the fits
    assert [first[150, r] for r in range(3)] == names[:3]  # rotated by one per repeat
    direct = timing[timing.solver == "LSkMDDM (direct)"]
    assert (direct.angle < 1e-6).all()  # exact (Cholesky) against the exact eigen-solver


def test_outcomes_unpack_to_the_recorded_metrics(require_dataset, small_settings):
    arts = require_dataset("arts")
    result = lskmddm.method_runs([arts], small_settings, ResultCache(None))
    Y, methods = lskmddm.unpack_outcomes(result["outcomes"]["arts", 0])
    recorded = result["runs"].set_index("method")
    for method, (scores, predicted) in methods.items():
        assert metrics.micro_f1(Y, predicted) == recorded.microF1[method]
        # posteriors are stored as float32: near-ties may merge, moving AUC by ~1e-5
        assert metrics.macro_auc(Y, scores) == pytest.approx(recorded.macroAUC[method], abs=1e-4)


def test_scaling_exponent_recovers_a_power_law_on_the_papers_range():
    from milab_widgets.claims.lskmddm import fig4_exponents

    n = np.array([250, 500, 1000, 2000])
    timing = pd.DataFrame({"dataset": "d", "solver": ["cubic"] * 4 + ["square"] * 4,
                           "n": np.tile(n, 2), "converged": True, "angle": 0.0,
                           "seconds": np.r_[1e-9 * n**3.0, 1e-6 * n**2.0]})
    timing.loc[0, "seconds"] = 1.0  # n = 250 lies outside the paper's 500-2000: not used
    exponents = fig4_exponents(timing).set_index("solver")
    assert exponents.exponent["cubic"] == pytest.approx(3.0)
    assert exponents.exponent["square"] == pytest.approx(2.0)
    assert exponents.sizes["cubic"] == "500 1000 2000"


# -- claims on hand-made record tables -----------------------------------------------------
def one_partition(quality: dict, n: int = 400, labels: int = 6, seed: int = 0):
    """A runs table and packed outcomes of one partition: each method's predictions are the
    true labels with a fraction ``1 - quality[method]`` of the entries flipped at random
    (posteriors: the predictions blurred by noise)."""
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, labels)) < 0.3).astype(int)
    outcomes, rows = {}, []
    for method in lskmddm.METHODS:
        flip = rng.random(Y.shape) > quality.get(method, 0.6)
        predicted = np.where(flip, 1 - Y, Y)
        scores = np.clip(0.5 * predicted + 0.25 + rng.normal(0, 0.2, Y.shape), 0, 1)
        outcomes[method] = (scores, predicted)
        rows.append({"dataset": "d", "rep": 0, "method": method,
                     **metrics.evaluate(Y, scores, predicted)})
    return pd.DataFrame(rows), {("d", 0): lskmddm.pack_outcomes(Y, outcomes)}


def method_verdicts(quality, seed=0):
    """The per-set verdicts of the catalogue's method claims on one hand-made partition,
    through the experiment's Results (the paired bootstrap over the test instances)."""
    runs, outcomes = one_partition(quality, seed=seed)
    results = lskmddm.Results(lskmddm.Settings(repetitions=1), pd.DataFrame(), runs,
                              pd.DataFrame(), pd.DataFrame(), outcomes=outcomes)
    cases = results.claim_cases
    assert set(cases.test) == {"paired bootstrap over 400 test instances (1000 resamples)"}
    return cases.set_index("claim").verdict


def test_method_claims_follow_the_bootstrap_interval():
    best = method_verdicts({"rLSkMDDM": 0.95, "OLSkMDDM": 0.95})
    assert (best[["microF1-best-everywhere", "macroF1-best-everywhere",
                  "regularisation-helps-microF1", "regularisation-helps-macroF1"]]
            == "supported").all()
    worst = method_verdicts({"rLSkMDDM": 0.3, "OLSkMDDM": 0.3, "LSkMDDM": 0.3, "KPCA": 0.9,
                             "KCCA": 0.9})
    assert (worst[["microF1-best-everywhere", "macroF1-best-everywhere",
                   "hsic-beats-baselines-microF1", "hsic-beats-baselines-macroF1"]]
            == "contradicted").all()
    tied = method_verdicts(dict.fromkeys(lskmddm.METHODS, 0.7))
    pairs = tied[tied.index.str.startswith(("regularisation", "kpca", "kcca"))]
    assert len(pairs) == 6 and (pairs == "inconclusive").all()
    # against the best of five equal rivals the margin is biased down, never "supported"
    assert tied["microF1-best-everywhere"] != "supported"


def test_bootstrap_case_effect_is_the_test_sets_margin():
    runs, outcomes = one_partition({"rLSkMDDM": 0.9}, seed=1)
    case = lskmddm.bootstrap_case(outcomes["d", 0], "microF1", ("rLSkMDDM",), ("KPCA", "KCCA"),
                                  n_resamples=200)
    micro = runs.set_index("method").microF1
    assert case["effect"] == pytest.approx(micro["rLSkMDDM"] - max(micro["KPCA"], micro["KCCA"]))
    assert case["ci_low"] < case["effect"] < case["ci_high"] and 0 < case["p_value"] <= 1


def test_several_partitions_use_the_corrected_t_over_them():
    rows = [{"dataset": "d", "rep": rep, "method": method, "macroAUC": 0.5, "macroF1": 0.5,
             "microF1": 0.5 + (0.1 + 0.01 * rep if method == "rLSkMDDM" else 0)}
            for rep in range(4) for method in lskmddm.METHODS]
    results = lskmddm.Results(lskmddm.Settings(repetitions=4), pd.DataFrame(),
                              pd.DataFrame(rows), pd.DataFrame(), pd.DataFrame())
    best = results.claim_cases.set_index("claim").loc["microF1-best-everywhere"]
    assert best.test.startswith("corrected resampled t") and best.n == 4
    assert best.verdict == "supported" and best.effect == pytest.approx(0.115)


def test_results_write_one_catalogue_row_per_claim(tmp_path):
    """With no data at all every claim still gets its row (untested, with the reason)."""
    results = lskmddm.Results(lskmddm.Settings(), pd.DataFrame(), pd.DataFrame(),
                              pd.DataFrame(), pd.DataFrame())
    saved = {path.name: path for path in lskmddm.save_tables(results, tmp_path)}
    claims = pd.read_csv(saved["claims.csv"])
    assert list(claims.columns) == CATALOGUE_COLUMNS
    assert list(claims.id) == [claim.id for claim in CATALOGUE]
    assert (claims.reproduced == "not tested").all()
    assert pd.read_csv(saved["claim_cases.csv"]).empty


def power_law_timing(seed):
    """Two datasets, two solvers with exponents 3 and 2, log-normal noise (sd 0.05)."""
    rng = np.random.default_rng(seed)
    n = np.repeat([500, 1000, 2000, 4000], 3)
    return pd.DataFrame([{"dataset": d, "solver": solver, "n": size,
                          "seconds": scale * size**power * np.exp(rng.normal(0, 0.05))}
                         for d, scale in (("a", 1.0), ("b", 3.0))
                         for solver, power in (("slow", 3.0), ("fast", 2.0)) for size in n])


def test_exponent_gap_recovers_the_power_laws_with_its_coverage():
    gap = lskmddm.exponent_gap(power_law_timing(0), "slow", "fast")
    assert gap["effect"] == pytest.approx(1.0, abs=0.05) and gap["verdict"] == "supported"
    covered = [lskmddm.exponent_gap(power_law_timing(seed), "slow", "fast")
               for seed in range(200)]
    coverage = np.mean([g["ci_low"] < 1.0 < g["ci_high"] for g in covered])
    assert 0.9 <= coverage <= 0.99  # a 95 % interval
    one = power_law_timing(1).query("dataset == 'a'")  # one dataset: the two separate fits
    slopes = {s: np.polyfit(np.log(g.n), np.log(g.seconds), 1)[0] for s, g in one.groupby("solver")}
    assert lskmddm.exponent_gap(one, "slow", "fast")["effect"] == pytest.approx(
        slopes["slow"] - slopes["fast"])


@pytest.mark.parametrize("metric", ["microF1", "macroF1", "macroAUC"])
def test_resampled_metric_equals_the_metric_on_the_repeated_rows(metric):
    rng = np.random.default_rng(5)
    Y = (rng.random((120, 5)) < 0.2).astype(int)
    Y[:, 2] = 0  # a label without positives: left out of AUC, F1 0
    values = (np.round(rng.random(Y.shape), 1) if metric == "macroAUC"  # ties included
              else (rng.random(Y.shape) < 0.25).astype(int))
    counts = rng.multinomial(len(Y), np.full(len(Y), 1 / len(Y)), size=15)
    function = metrics.METRICS[metric][0]
    expected = [function(np.repeat(Y, c, axis=0), np.repeat(values, c, axis=0)) for c in counts]
    np.testing.assert_allclose(lskmddm.resampled_metric(metric, Y, values, counts), expected,
                               rtol=1e-12)


def test_varying_labels_and_embedding_dimension():
    from milab_widgets.experiments.lskmddm import embedding_dimension, varying_labels

    Y = np.array([[1, 0, 1, 1, 0], [0, 0, 1, 0, 1], [1, 0, 1, 1, 0], [0, 0, 1, 1, 1]])
    np.testing.assert_array_equal(varying_labels(Y), [True, False, False, True, True])
    # centred columns: label 0 and label 4 are opposite (y0 = 1 - y4), label 3 independent
    kept = Y[:, varying_labels(Y)].astype(float)
    assert embedding_dimension(kept) == 2
    # the rank of H Y is the number of nonzero eigenvalues of H Y Y^T H
    centred = kept - kept.mean(axis=0)
    eigenvalues = np.linalg.eigvalsh(centred @ centred.T)
    assert embedding_dimension(kept) == int((eigenvalues > 1e-10).sum())
