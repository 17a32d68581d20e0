"""Friedman test and Nemenyi critical difference against scipy and Demšar (2006)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from milab_widgets._sklearn_private import InvalidParameterError
from milab_widgets.evaluation import friedman_test, nemenyi_cd
from milab_widgets.evaluation.ranking_stats import nemenyi_q, rank_methods
from milab_widgets.exceptions import InputError


def test_cd_for_six_methods_on_seven_datasets_is_the_seeds():
    assert nemenyi_cd(6, 7) == pytest.approx(2.850, abs=5e-4)


@pytest.mark.parametrize("k, q", [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (10, 3.164)])
def test_q_alpha_matches_demsars_table(k, q):
    assert nemenyi_q(k) == pytest.approx(q, abs=1e-3)  # the table is truncated, not rounded


def test_cd_shrinks_with_more_datasets():
    assert nemenyi_cd(4, 14) == pytest.approx(nemenyi_q(4) * np.sqrt(4 * 5 / 84))
    assert nemenyi_q(4, 0.10) < nemenyi_q(4, 0.05)


@pytest.mark.parametrize("seed, levels", [(0, 100), (1, 3)])  # 3 levels: many ties
def test_friedman_equals_scipy(seed, levels):
    scores = np.random.default_rng(seed).integers(0, levels, size=(9, 5)).astype(float)
    ours = friedman_test(scores)
    theirs = stats.friedmanchisquare(*scores.T)
    assert ours.statistic == pytest.approx(theirs.statistic)
    assert ours.pvalue == pytest.approx(theirs.pvalue)
    chi2, n, k = ours.statistic, 9, 5
    assert ours.iman_davenport == pytest.approx((n - 1) * chi2 / (n * (k - 1) - chi2))


def test_ranks_put_the_best_first_and_average_ties():
    table = pd.DataFrame({"a": [0.9, 0.5], "b": [0.8, 0.5], "c": [0.7, 0.6]})
    assert rank_methods(table).to_numpy().tolist() == [[1, 2, 3], [2.5, 2.5, 1]]
    losses = rank_methods(table, lower_is_better=True)
    assert losses.loc[0].tolist() == [3, 2, 1]
    assert friedman_test(table).average_ranks.to_dict() == {"a": 1.75, "b": 2.25, "c": 2.0}


@pytest.mark.parametrize("call, name", [
    (lambda: nemenyi_cd(1, 7), "k"),
    (lambda: nemenyi_cd(2.5, 7), "k"),
    (lambda: nemenyi_cd(6, 0), "n"),
    (lambda: nemenyi_cd(6, 7, alpha=1.5), "alpha"),
    (lambda: nemenyi_cd(6, 7, alpha="0.05"), "alpha"),
    (lambda: nemenyi_cd(6, 7, alpha=np.nan), "alpha"),
    (lambda: nemenyi_q(6, alpha=0.0), "alpha"),
])
def test_bad_nemenyi_argument_is_refused_naming_it(call, name):
    with pytest.raises(InvalidParameterError, match=f"The '{name}' parameter of nemenyi_"):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: friedman_test([[1.0, 2.0]]), "at least 2 datasets"),
    (lambda: friedman_test([[1.0, np.nan], [1.0, 2.0]]), "missing"),
])
def test_bad_input_is_named(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_cliques_are_maximal_groups_within_the_cd():
    from milab_widgets.evaluation.ranking_stats import nemenyi_cliques

    ranks = pd.Series({"a": 1.0, "b": 1.5, "c": 3.2, "d": 4.0, "e": 6.0})
    assert nemenyi_cliques(ranks, 2.3) == [["a", "b", "c"], ["c", "d"], ["d", "e"]]  # b-d: 2.5
    assert nemenyi_cliques(ranks, 0.1) == []
    assert nemenyi_cliques(ranks, 5.0) == [list("abcde")]
