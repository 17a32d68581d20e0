"""A paper's claim as a statistical statement: an effect, its 95 % interval, a p-value and a
verdict read from the interval alone.

Every effect is *oriented*: a value above the null (0 for differences, 1 for speed-ups)
favours the claim; callers flip lower-is-better metrics before calling. The verdict is

* ``supported``: the interval lies wholly above the null;
* ``contradicted``: it lies wholly below;
* ``inconclusive``: it covers the null, or could not be computed (NaN bounds).

The tests follow Demšar (2006), "Statistical comparisons of classifiers over multiple data
sets", JMLR 7:1-30, and Nadeau & Bengio (2003), "Inference for the generalization error",
Machine Learning 52:239-281. scipy.stats does the tests; this module adds what it lacks:

* :func:`paired_case`, one claim on one dataset from paired differences d_1..d_n:

  - ``"t"``: the paired t-test (repetitions on independent test sets):
    mean(d) ± t_{n-1, 1-a/2} s / sqrt(n) (``scipy.stats.ttest_1samp``).
  - ``"corrected_t"``: Nadeau & Bengio's corrected resampled t-test for (repeated) k-fold
    cross-validation, whose training sets overlap: the variance s^2 / n is replaced by
    (1/n + n_test/n_train) s^2, t = mean(d) / sqrt((1/n + n_test/n_train) s^2) on n - 1
    degrees of freedom; for k-fold CV n_test/n_train = 1/(k - 1).
  - ``"bootstrap"``: the percentile interval of the mean from ``scipy.stats.bootstrap``
    and the p-value that inverts it, p = min(1, 2 min(P*(mean* <= 0), P*(mean* >= 0)))
    with P* the bootstrap distribution's fractions, each as (count + 1) / (B + 1); so the
    interval excludes 0 exactly when p < 1 - confidence (up to the +1 smoothing).

  Degenerate samples get a defined, conservative answer: one difference, or differences
  that are all equal, carry no estimate of the noise, so the interval and p-value are NaN
  and the verdict ``inconclusive``; the one exception is all differences exactly 0 (the
  methods agree everywhere), reported as the interval [0, 0] with p = 1.

* :func:`ratio_case`, a timing claim "A is faster than B": the geometric-mean speed-up
  exp(mean(log t_B) - mean(log t_A)) with the t interval of the log ratio exponentiated
  (paired t when the timings are paired, Welch's t otherwise); null 1.

* :func:`rank_gap_case`, "A ranks better than B" among k methods over N datasets (Demšar
  2006, §3.2.2): the gap of average ranks R_B - R_A with the interval gap ± CD, CD the
  Nemenyi critical difference q_a sqrt(k (k + 1) / (6 N)), and the p-value
  P(Q_k > sqrt(2) |gap| / sqrt(k (k + 1) / (6 N))), Q_k the studentized range of k groups
  (infinite degrees of freedom); the interval excludes 0 exactly when p < a.

* :func:`across_datasets`, one claim over N datasets from per-dataset effects e_1..e_N:
  Wilcoxon's signed-rank test (``scipy.stats.wilcoxon``) and the Hodges-Lehmann estimate,
  the median of the N (N + 1) / 2 Walsh averages (e_i + e_j) / 2, i <= j, with the
  distribution-free interval [W_(k), W_(M + 1 - k)] that inverts the signed-rank test
  (Hollander & Wolfe, Nonparametric Statistical Methods, §3.2): W_(.) the sorted Walsh
  averages, M their number and k the largest integer with P(T+ <= k - 1) <= a/2 under the
  null distribution of the signed-rank statistic T+ (exact for N <= 50, counted here as the
  number of subsets of the ranks 1..N with each sum; above, its normal approximation with
  continuity correction). The interval uses every effect; the p-value drops zero effects
  (scipy's default), so the two can disagree only when some effect is exactly 0.
  When no such k exists (N <= 5 at 95 %) the interval is unbounded (-inf, inf): so few
  datasets cannot reject the null at that level.

How a paper's cases combine into one row per claim, and how claims are counted (exact
checks apart from these statistical verdicts), is :mod:`milab_widgets.evaluation.claim_summary`.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from milab_widgets.evaluation.ranking_stats import nemenyi_cd
from milab_widgets.exceptions import InputError

__all__ = ["CLAIM_COLUMNS", "VERDICTS", "RATIO_TESTS", "across_datasets", "null_of",
           "paired_case", "rank_gap_case", "ratio_case", "verdict", "walsh_averages"]

#: The columns of every ``claims.csv`` and per-case table, in this order (first).
CLAIM_COLUMNS = ["claim", "effect", "ci_low", "ci_high", "p_value", "verdict", "test", "n"]
VERDICTS = ("supported", "contradicted", "inconclusive")
METHODS = ("t", "corrected_t", "bootstrap")
#: The ``test`` of :func:`ratio_case`'s rows, whose null is 1 (equally fast), not 0.
RATIO_TESTS = ("paired t on log time ratios", "Welch t on log times")
#: Above this many datasets the signed-rank null distribution is taken as normal.
EXACT_WILCOXON_MAX = 50


def verdict(ci_low, ci_high, null: float = 0.0) -> str:
    """``"supported"`` if the interval lies above ``null``, ``"contradicted"`` if below,
    ``"inconclusive"`` otherwise (also when a bound is NaN)."""
    if ci_low > null:  # NaN compares False
        return "supported"
    if ci_high < null:
        return "contradicted"
    return "inconclusive"


def paired_case(differences, *, method: str = "t", test_train_ratio: float | None = None,
                confidence: float = 0.95, random_state=0) -> dict:
    """Effect (mean difference), interval, p-value and verdict of one claim on one dataset
    from paired differences (oriented: positive favours the claim); see the module notes
    for each ``method`` and for degenerate samples. ``test_train_ratio`` (n_test / n_train
    of one fold) is required by, and only used by, ``"corrected_t"``."""
    d = _finite_sample(differences, "differences")
    _check_confidence(confidence)
    if method not in METHODS:
        raise InputError(f"method={method!r} is not one of {list(METHODS)}.")
    if method == "corrected_t":
        if test_train_ratio is None or not np.isfinite(test_train_ratio) or test_train_ratio <= 0:
            raise InputError("method='corrected_t' needs test_train_ratio = n_test / n_train "
                             f"> 0 (1 / (k - 1) for k-fold CV), got {test_train_ratio!r}.")
    elif test_train_ratio is not None:
        raise InputError(f"test_train_ratio applies only to method='corrected_t', not "
                         f"{method!r}; leave it out.")
    test = {"t": "paired t", "corrected_t": "corrected resampled t (Nadeau-Bengio)",
            "bootstrap": "bootstrap (percentile)"}[method]
    effect = float(d.mean())
    if len(d) < 2 or np.ptp(d) == 0:
        return _degenerate(effect, d, test)
    if method == "bootstrap":
        low, high, p = _bootstrap(d, confidence, random_state)
    else:
        factor = 1.0 / len(d) + (test_train_ratio if method == "corrected_t" else 0.0)
        low, high, p = _t_interval(effect, np.sqrt(factor * d.var(ddof=1)), len(d) - 1,
                                   confidence)
    return _case(effect, low, high, p, test, len(d))


def ratio_case(times_a, times_b, *, confidence: float = 0.95, paired: bool | None = None
               ) -> dict:
    """"A is faster than B" from repeated timings (seconds > 0): effect = the geometric-mean
    speed-up t_B / t_A, its interval from a t interval on the log ratios, verdict against
    1. ``paired`` (default: when both have the same length) pairs the i-th timings (the
    same data and repetition); otherwise Welch's t on the two samples of log times."""
    a = np.log(_positive_sample(times_a, "times_a"))
    b = np.log(_positive_sample(times_b, "times_b"))
    _check_confidence(confidence)
    paired = len(a) == len(b) if paired is None else paired
    if paired:
        if len(a) != len(b):
            raise InputError(f"paired timings need equal lengths, got {len(a)} and {len(b)}.")
        case = paired_case(b - a, confidence=confidence)
        test = RATIO_TESTS[0]
    else:
        case = _welch(b, a, confidence)
        test = RATIO_TESTS[1]
    bounds = {key: float(np.exp(case[key])) for key in ("effect", "ci_low", "ci_high")}
    return _case(bounds["effect"], bounds["ci_low"], bounds["ci_high"], case["p_value"], test,
                 case["n"], null=1.0)


def across_datasets(effects, *, confidence: float = 0.95) -> dict:
    """One claim over datasets from per-dataset effects (oriented: positive favours it):
    Hodges-Lehmann estimate, its signed-rank interval and Wilcoxon's p-value (two-sided;
    zero effects dropped as in scipy's default "wilcox" treatment); see the module notes."""
    e = _finite_sample(effects, "effects")
    _check_confidence(confidence)
    walsh = np.sort(walsh_averages(e))
    effect = float(np.median(walsh))
    if np.all(e == 0):
        return _case(0.0, 0.0, 0.0, 1.0, "wilcoxon", len(e))
    p = float(stats.wilcoxon(e).pvalue)
    k = _walsh_rank(len(e), 1.0 - confidence)
    low, high = (walsh[k - 1], walsh[len(walsh) - k]) if k >= 1 else (-np.inf, np.inf)
    return _case(effect, float(low), float(high), p, "wilcoxon", len(e))


def rank_gap_case(gap: float, k: int, n: int, *, confidence: float = 0.95) -> dict:
    """Nemenyi's pairwise comparison as a claim test: ``gap`` = the rival's average rank
    minus the claimant's (positive favours the claim, ranks 1 = best) among ``k`` methods
    over ``n`` datasets; see the module notes."""
    _check_confidence(confidence)
    if not np.isfinite(gap):
        raise InputError(f"gap must be a finite difference of average ranks, got {gap!r}.")
    cd = nemenyi_cd(k, n, 1.0 - confidence)
    standard_error = np.sqrt(k * (k + 1) / (6.0 * n))
    p = float(stats.studentized_range.sf(np.sqrt(2.0) * abs(gap) / standard_error, k, np.inf))
    return _case(gap, gap - cd, gap + cd, min(p, 1.0), "nemenyi", n)


def walsh_averages(values) -> np.ndarray:
    """(v_i + v_j) / 2 for every i <= j (N (N + 1) / 2 values)."""
    v = np.asarray(values, dtype=float)
    i, j = np.triu_indices(len(v))
    return (v[i] + v[j]) / 2.0


def null_of(test: str) -> float:
    """The null value of a row by its ``test``: 1 for timing ratios, 0 otherwise."""
    return 1.0 if test in RATIO_TESTS else 0.0


# -- pieces ----------------------------------------------------------------------------------
def _case(effect, low, high, p, test, n, null: float = 0.0) -> dict:
    return {"effect": float(effect), "ci_low": float(low), "ci_high": float(high),
            "p_value": float(p), "verdict": verdict(low, high, null), "test": test, "n": int(n)}


def _degenerate(effect, d, test) -> dict:
    if np.all(d == 0):
        return _case(0.0, 0.0, 0.0, 1.0, test, len(d))
    return _case(effect, np.nan, np.nan, np.nan, test, len(d))


def _t_interval(mean, standard_error, df, confidence):
    half = stats.t.ppf(0.5 + confidence / 2.0, df) * standard_error
    p = 2.0 * stats.t.sf(abs(mean) / standard_error, df)
    return mean - half, mean + half, p


def _bootstrap(d, confidence, random_state):
    result = stats.bootstrap((d,), np.mean, confidence_level=confidence, method="percentile",
                             n_resamples=9999, random_state=random_state)
    means = result.bootstrap_distribution
    tail = min(np.sum(means <= 0), np.sum(means >= 0))
    p = min(1.0, 2.0 * (tail + 1) / (len(means) + 1))
    return result.confidence_interval.low, result.confidence_interval.high, p


def _welch(x, y, confidence) -> dict:
    """mean(x) - mean(y) with Welch's interval and p (NaN when a side has < 2 values or
    neither has spread)."""
    effect = float(x.mean() - y.mean())
    if min(len(x), len(y)) < 2 or (np.ptp(x) == 0 and np.ptp(y) == 0):
        return {"effect": effect, "ci_low": np.nan, "ci_high": np.nan, "p_value": np.nan,
                "n": len(x) + len(y)}
    result = stats.ttest_ind(x, y, equal_var=False)
    interval = result.confidence_interval(confidence)
    return {"effect": effect, "ci_low": interval.low, "ci_high": interval.high,
            "p_value": float(result.pvalue), "n": len(x) + len(y)}


def _walsh_rank(n: int, alpha: float) -> int:
    """Largest k with P(T+ <= k - 1) <= alpha / 2 for the signed-rank statistic of n
    values (0 when none)."""
    totals = np.arange(n * (n + 1) // 2 + 1)
    if n <= EXACT_WILCOXON_MAX:
        cdf = _signed_rank_cdf(n, totals)
    else:
        mean, sd = n * (n + 1) / 4.0, np.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)
        cdf = stats.norm.cdf((totals + 0.5 - mean) / sd)
    return int(np.sum(cdf <= alpha / 2.0))


def _signed_rank_cdf(n: int, totals) -> np.ndarray:
    """Exact null cdf of the signed-rank statistic, by counting the subsets of {1..n}
    with each rank sum."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for rank in range(1, n + 1):
        counts[rank:] = counts[rank:] + counts[:-rank].copy()
    return np.cumsum(counts)[totals] / 2.0**n


def _finite_sample(values, name) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size == 0:
        raise InputError(f"{name} must be a non-empty 1-D sequence of numbers, got shape "
                         f"{array.shape}.")
    if not np.all(np.isfinite(array)):
        raise InputError(f"{name} holds NaN or infinite values; drop the cases that could "
                         "not be measured before testing.")
    return array


def _positive_sample(values, name) -> np.ndarray:
    array = _finite_sample(values, name)
    if np.any(array <= 0):
        raise InputError(f"{name} must be positive durations in seconds, got {array.min()}.")
    return array


def _check_confidence(confidence) -> None:
    if not 0.0 < float(confidence) < 1.0:
        raise InputError(f"confidence must lie in (0, 1), got {confidence!r}; e.g. 0.95.")
