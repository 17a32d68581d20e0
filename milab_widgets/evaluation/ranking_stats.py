"""Comparing k methods over N datasets by their ranks: Friedman test and Nemenyi CD.

Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7,
1-30.

* Ranks: on each dataset the best method gets rank 1; tied methods share the average of the
  ranks they span.
* Friedman: chi2_F = 12 N / (k (k+1)) [sum_j R_j^2 - k (k+1)^2 / 4] with R_j the average
  ranks, divided by the tie correction 1 - sum(t^3 - t) / (N k (k^2 - 1)) (as
  ``scipy.stats.friedmanchisquare``; without ties it is Demšar's formula), referred to
  chi-square with k - 1 degrees of freedom; Iman & Davenport's
  F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F) to F(k - 1, (k - 1)(N - 1)).
* Nemenyi: two methods differ significantly when their average ranks differ by more than
  CD = q_alpha sqrt(k (k+1) / (6 N)), q_alpha the studentized range quantile at 1 - alpha
  for k groups and infinite degrees of freedom, divided by sqrt(2).
  For k = 6, N = 7, alpha = 0.05: q = 2.850 and CD = 2.850 (the MFSEF paper, Fig. 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
import pandas as pd
from scipy import stats

from milab_widgets._sklearn_private import Interval, validate_params
from milab_widgets.exceptions import InputError

__all__ = ["FriedmanResult", "friedman_test", "nemenyi_cd", "nemenyi_cliques", "nemenyi_q",
           "rank_methods"]


@dataclass(frozen=True)
class FriedmanResult:
    """The Friedman test's statistics and the methods' average ranks (1 = best)."""

    statistic: float
    pvalue: float
    iman_davenport: float
    iman_davenport_pvalue: float
    average_ranks: pd.Series
    n_datasets: int


def rank_methods(scores, lower_is_better: bool = False) -> pd.DataFrame:
    """Rank the methods (columns) on every dataset (row); 1 = best, ties averaged."""
    table = _as_table(scores)
    return table.rank(axis=1, ascending=lower_is_better, method="average")


def friedman_test(scores, lower_is_better: bool = False) -> FriedmanResult:
    r"""Friedman's test that all methods (columns) perform alike over the data sets (rows).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_datasets, n_methods)
        One metric; no missing cell.
    lower_is_better : bool, default=False
        Rank the smallest value first (losses).

    Returns
    -------
    FriedmanResult
        ``statistic`` (chi-square, corrected for ties) and its ``pvalue``, Iman and
        Davenport's F (``iman_davenport``, ``iman_davenport_pvalue``), the methods'
        ``average_ranks`` (1 = best) and ``n_datasets``.

    See Also
    --------
    nemenyi_cd : the critical difference of the post-hoc test.
    scipy.stats.friedmanchisquare : the same chi-square statistic.

    Notes
    -----
    With R_j the average rank of method j over N data sets and k methods,
    :math:`\chi^2_F = \frac{12N}{k(k+1)} \big(\sum_j R_j^2 - \frac{k(k+1)^2}{4}\big)` and
    :math:`F_F = \frac{(N-1)\chi^2_F}{N(k-1) - \chi^2_F}` (Demšar, "Statistical comparisons of
    classifiers over multiple data sets", JMLR 7:1-30, 2006).

    Examples
    --------
    >>> import pandas as pd
    >>> from milab_widgets.evaluation import friedman_test, nemenyi_cd
    >>> scores = pd.DataFrame({"A": [0.81, 0.77, 0.90, 0.65, 0.70],
    ...                        "B": [0.79, 0.75, 0.88, 0.66, 0.69],
    ...                        "C": [0.70, 0.71, 0.80, 0.60, 0.62]})   # 5 data sets x 3 methods
    >>> result = friedman_test(scores)
    >>> round(result.statistic, 4), round(result.pvalue, 4), result.average_ranks.tolist()
    (8.4, 0.015, [1.2, 1.8, 3.0])
    """
    ranks = rank_methods(scores, lower_is_better).to_numpy()
    n, k = ranks.shape
    if n < 2 or k < 2:
        raise InputError(f"friedman_test needs at least 2 datasets and 2 methods, got {n} x {k}.")
    average = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(average**2) - k * (k + 1) ** 2 / 4.0)
    ties = sum(np.sum(c**3 - c) for c in (np.unique(row, return_counts=True)[1] for row in ranks))
    correction = 1.0 - ties / (n * k * (k**2 - 1))
    chi2 = chi2 / correction if correction > 0 else 0.0
    denominator = n * (k - 1) - chi2
    f_stat = (n - 1) * chi2 / denominator if denominator > 0 else np.inf
    return FriedmanResult(
        statistic=float(chi2), pvalue=float(stats.chi2.sf(chi2, k - 1)),
        iman_davenport=float(f_stat),
        iman_davenport_pvalue=float(stats.f.sf(f_stat, k - 1, (k - 1) * (n - 1))),
        average_ranks=pd.Series(average, index=_as_table(scores).columns, name="average rank"),
        n_datasets=n,
    )


#: Declared arguments of the Nemenyi functions (scikit-learn's ``validate_params``): a bad
#: value is refused naming the argument and its range.
METHODS = Interval(Integral, 2, None, closed="left")
LEVEL = Interval(Real, 0, 1, closed="neither")


@validate_params({"k": [METHODS], "alpha": [LEVEL]}, prefer_skip_nested_validation=True)
def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """q_alpha of the Nemenyi test: studentized range quantile (k groups, df = inf) / sqrt(2)."""
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


@validate_params({"k": [METHODS], "n": [Interval(Integral, 1, None, closed="left")],
                  "alpha": [LEVEL]}, prefer_skip_nested_validation=True)
def nemenyi_cd(k: int, n: int, alpha: float = 0.05) -> float:
    r"""Nemenyi critical difference of average ranks for k methods over n data sets.

    Parameters
    ----------
    k : int
        Number of methods (at least 2).
    n : int
        Number of data sets (at least 1).
    alpha : float, default=0.05
        Significance level.

    Returns
    -------
    float
        Two methods differ significantly when their average ranks differ by more.

    See Also
    --------
    friedman_test : the omnibus test and the average ranks.

    Notes
    -----
    :math:`CD = q_\alpha \sqrt{k(k+1)/(6n)}`, q_alpha the studentised range statistic
    divided by sqrt(2) (Demšar, "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7:1-30, 2006).

    Examples
    --------
    >>> from milab_widgets.evaluation import nemenyi_cd
    >>> round(nemenyi_cd(3, 5), 3)   # q_0.05 = 2.343 for three methods
    1.482
    """
    return nemenyi_q(k, alpha) * float(np.sqrt(k * (k + 1) / (6.0 * n)))


def nemenyi_cliques(average_ranks: pd.Series, cd: float) -> list[list[str]]:
    """Maximal groups of methods whose average ranks all lie within ``cd`` of each other
    (drawn as one bar in a CD diagram), best-ranked group first; singletons are left out."""
    ordered = average_ranks.sort_values(kind="stable")
    names, ranks = list(ordered.index), ordered.to_numpy()
    cliques, last_end = [], -1
    for start in range(len(ranks)):
        end = int(np.searchsorted(ranks, ranks[start] + cd, side="right")) - 1
        if end > start and end > last_end:
            cliques.append(names[start : end + 1])
            last_end = end
    return cliques


def _as_table(scores) -> pd.DataFrame:
    """``scores`` as a float DataFrame (datasets x methods); InputError naming what is wrong
    (not 2-D, a missing cell, a cell that is no number)."""
    if not isinstance(scores, pd.DataFrame):
        array = np.asarray(scores)
        if array.ndim != 2:
            raise InputError(f"scores has shape {array.shape}; pass one metric as a 2-D "
                             "datasets x methods table (a DataFrame or a 2-D array).")
        scores = pd.DataFrame(array)
    if scores.isna().to_numpy().any():
        raise InputError("scores must be a complete datasets x methods table (no missing cell).")
    text = [value for value in scores.to_numpy().ravel() if isinstance(value, (str, bytes))]
    if text:
        raise InputError(f"scores holds text such as {text[0]!r}; pass numbers (one metric's "
                         "values), e.g. table.astype(float) after fixing that cell.")
    return scores.astype(float)
