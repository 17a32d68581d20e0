"""LSkMDDM's claims catalogue and per-case tests on hand-made runs."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from milab_widgets.claims import SCOPES
from milab_widgets.claims import lskmddm as claims_lskmddm
from milab_widgets.experiments.lskmddm import METHODS, Settings


def test_the_catalogue_holds_every_claim_the_issue_lists_once():
    ids = [claim.id for claim in claims_lskmddm.CATALOGUE]
    assert len(ids) == len(set(ids))
    assert {"microF1-best-everywhere", "macroF1-best-everywhere", "auc-similar",
            "kpca-beats-kcca-auc", "kcca-beats-kpca-macroF1", "tables5-6-best-on-eight",
            "table7-rcv1", "table7-pascal07", "figs1-3-grow-with-dimension",
            "regularisation-helps-microF1", "table2-similar"} <= set(ids)
    rows = {claim.id: claim for claim in claims_lskmddm.CATALOGUE}
    assert rows["microF1-best-everywhere"].scope == "every case"
    assert rows["auc-similar"].scope == "equivalent" and rows["auc-similar"].margin == 0.01
    # the speed claims are the paper's LSQR / CG; the direct solver's is the project's
    assert rows["faster-LSkMDDM (block LSQR)"].origin == "paper"
    assert rows["faster-LSkMDDM (direct)"].origin == "project"
    for claim in claims_lskmddm.CATALOGUE:
        assert claim.source and claim.scope in SCOPES


def runs_table(n_reps, seed=0):
    """Every method's three Table 3 metrics on two data sets: rLSkMDDM 0.02 above the
    others on average, with noise over the partitions."""
    rng = np.random.default_rng(seed)
    rows = []
    for dataset in ("arts", "business"):
        for rep in range(n_reps):
            for method in METHODS:
                lift = 0.02 if method == "rLSkMDDM" else 0.0
                rows.append({"dataset": dataset, "rep": rep, "method": method,
                             **{metric: 0.5 + lift + rng.normal(0, 0.01)
                                for metric in ("macroAUC", "macroF1", "microF1")}})
    return pd.DataFrame(rows)


def test_re_splits_use_the_corrected_resampled_t_and_widen_the_interval():
    runs = runs_table(10)
    settings = Settings()  # 10 partitions of 4000 / 1000 rows
    cases = claims_lskmddm.claim_cases(runs, {}, settings, bootstrap=None)
    case = cases[(cases.claim == "regularisation-helps-microF1")
                 & (cases.dataset == "arts")].iloc[0]
    arts = runs[runs.dataset == "arts"].pivot(index="rep", columns="method", values="microF1")
    d = (arts["rLSkMDDM"] - arts["LSkMDDM"]).to_numpy()
    plain = stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
    factor = np.sqrt(1 + len(d) * 1000 / 4000)  # sqrt(1 + n n_test / n_train) = 1.87
    assert case.effect == pytest.approx(d.mean())
    assert case.ci_high - case.ci_low == pytest.approx(factor * (plain.high - plain.low))
    assert case.test.startswith("corrected resampled t")


def test_one_partition_uses_the_bootstrap_it_is_given():
    calls = []

    def bootstrap(packed, metric, ours, rivals):
        calls.append((metric, ours, rivals))
        return {"effect": 0.01, "ci_low": -0.01, "ci_high": 0.03, "p_value": 0.4,
                "verdict": "inconclusive", "test": "paired bootstrap", "n": 1000}

    runs = runs_table(1)
    outcomes = {(d, 0): {} for d in ("arts", "business")}
    cases = claims_lskmddm.claim_cases(runs, outcomes, Settings(), bootstrap)
    assert set(cases.test) == {"paired bootstrap"}
    # "both" claims test each of our two methods against the better rival, the worse kept
    assert ("microF1", ("LSkMDDM",), ("KPCA", "KCCA")) in calls
    assert len(cases) == 2 * len(claims_lskmddm.METHOD_CLAIMS)
