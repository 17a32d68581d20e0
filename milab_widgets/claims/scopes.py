"""Tests that match a claim's *scope*: what the paper asserts, not only which numbers.

A claim's cases (one claim on one dataset, generator, solver...) are first tested one by
one with the test that fits how their numbers were obtained
(:mod:`milab_widgets.evaluation.claim_tests`: the paired t on distinct test sets, Nadeau &
Bengio's corrected resampled t on re-splits or folds, a paired bootstrap over test
instances, ratios of timings). This module combines them as the claim's wording demands:

* **every case** ("best on every data set", "beats every baseline"): the
  *intersection-union* rule (Berger 1982, "Multiparameter hypothesis testing and acceptance
  sampling", Technometrics 24:295-300). The claim is supported only if every case is
  (each case's 95 % interval above its null; no multiplicity correction is needed, as all
  must hold), and its p-value is the largest case p-value. It is contradicted if any case
  is contradicted after Holm's correction within the claim (the p-values of the cases that
  go against it, adjusted over all the claim's cases). The row's effect and interval are
  those of the worst case (the smallest effect).
* **on average** ("better on average over the data sets"): Wilcoxon's signed-rank test
  with the Hodges-Lehmann interval over one effect per data set (Demšar 2006, JMLR 7:1-30;
  :func:`~milab_widgets.evaluation.claim_tests.across_datasets`).
* **best rank** ("the best average rank", "ranks first"): Friedman's test, then Nemenyi's
  pairwise comparisons of the claimant with each rival (Demšar 2006, §3.2.2). Supported
  when Friedman rejects and the claimant out-ranks every rival by more than the critical
  difference; contradicted when Friedman rejects and some rival out-ranks the claimant by
  more than it. The effect is the smallest rank gap (rival's average rank minus the
  claimant's; positive favours the claim) with the interval gap ± CD.
* **equivalent** ("similar", "the same as", "as accurate as"): two one-sided tests
  (Schuirmann 1987, J. Pharmacokinet. Biopharm. 15:657-680) within a margin stated beside
  the claim, on the mean of the differences with a t interval. Supported when the 95 %
  interval lies inside (-margin, margin) (so each one-sided test is at 2.5 %: a
  conservative TOST, chosen so that every row's interval is a 95 % one); contradicted when
  it lies wholly outside [-margin, margin]. The p-value is that of the test behind the
  verdict, so that Holm's correction can confirm either: TOST's (the larger one-sided p)
  unless the interval lies beyond the margin, where it is the one-sided p that the mean
  difference lies beyond the margin on its side (below 2.5 % exactly then).
* **faster**: one value per data set, the geometric mean of that data set's repeated time
  ratios t_B / t_A; over the data sets a t interval on the log ratios, exponentiated
  (null 1). Repeats of one timing are never pooled as if they were independent data sets;
  with one data set the repeats are all there is, and the row's ``test`` says so.

:func:`holm` adjusts the p-values of a family (Holm 1979, "A simple sequentially rejective
multiple test procedure", Scand. J. Statist. 6:65-70). Every function returns a dict with
the keys of :data:`~milab_widgets.evaluation.claim_tests.CLAIM_COLUMNS` after ``claim``
(``effect``, ``ci_low``, ``ci_high``, ``p_value``, ``verdict``, ``test``, ``n``) and ``null``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from milab_widgets.evaluation.claim_tests import (
    across_datasets,
    paired_case,
    rank_gap_case,
    verdict,
)
from milab_widgets.evaluation.ranking_stats import friedman_test, nemenyi_cd
from milab_widgets.exceptions import InputError

__all__ = ["ALPHA", "best_rank", "equivalent", "every_case", "exponent_gap", "faster", "holm",
           "on_average"]

#: The level of every verdict (two-sided 95 % intervals).
ALPHA = 0.05


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values: sorted ascending, p_(i) times (m - i + 1), made
    non-decreasing, capped at 1. NaN p-values (no test) stay NaN and do not count in m."""
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    tested = np.flatnonzero(~np.isnan(p))
    if tested.size == 0:
        return adjusted
    if np.any((p[tested] < 0) | (p[tested] > 1)):
        raise InputError(f"p-values must lie in [0, 1], got {p[tested]}.")
    order = tested[np.argsort(p[tested], kind="stable")]
    factors = np.arange(order.size, 0, -1)
    adjusted[order] = np.minimum(np.maximum.accumulate(p[order] * factors), 1.0)
    return adjusted


def every_case(cases: pd.DataFrame, *, null: float = 0.0) -> dict:
    """The intersection-union test of a claim that must hold on every case. ``cases`` has
    one row per case with ``effect``, ``ci_low``, ``ci_high``, ``p_value`` (two-sided) and
    ``verdict``, each from the test that fits the case; see the module notes."""
    _require_columns(cases, ["effect", "ci_low", "ci_high", "p_value", "verdict"])
    if cases.empty:
        raise InputError("every_case needs at least one case.")
    worst = cases.loc[cases.effect.idxmin()]
    against = (cases.effect < null).to_numpy()
    adjusted = holm(cases.p_value.to_numpy())
    if against.any():
        p = float(np.nanmin(adjusted[against], initial=np.inf))
        p = np.nan if np.isinf(p) else p
        result = "contradicted" if p < ALPHA else "inconclusive"
    else:
        p = float(cases.p_value.max())
        result = "supported" if (cases.verdict == "supported").all() else "inconclusive"
    return {"effect": float(worst.effect), "ci_low": float(worst.ci_low),
            "ci_high": float(worst.ci_high), "p_value": p, "verdict": result,
            "test": f"intersection-union over {len(cases)} case{'s' * (len(cases) != 1)} "
                    "(worst case shown; "
                    "Holm within the claim against it)", "n": len(cases), "null": null}


def on_average(effects) -> dict:
    """A claim on average over data sets: Wilcoxon's signed-rank test and the
    Hodges-Lehmann interval of one effect per data set (oriented: positive favours)."""
    return {**across_datasets(effects), "null": 0.0}


def best_rank(scores: pd.DataFrame, claimant: str, *, lower_is_better: bool = False) -> dict:
    """Friedman + Nemenyi for "``claimant`` has the best average rank" among the columns
    of ``scores`` (data sets x methods, one metric); see the module notes."""
    if claimant not in scores.columns:
        raise InputError(f"{claimant!r} is not one of the methods {list(scores.columns)}.")
    friedman = friedman_test(scores, lower_is_better=lower_is_better)
    ranks = friedman.average_ranks
    k, n = len(ranks), friedman.n_datasets
    gaps = {rival: float(ranks[rival] - ranks[claimant]) for rival in ranks.index
            if rival != claimant}
    rival = min(gaps, key=gaps.get)
    closest = rank_gap_case(gaps[rival], k, n)
    cd = nemenyi_cd(k, n, ALPHA)
    significant = friedman.pvalue < ALPHA
    if significant and all(gap > cd for gap in gaps.values()):
        result = "supported"
    elif significant and gaps[rival] < -cd:
        result = "contradicted"
    else:
        result = "inconclusive"
    return {"effect": gaps[rival], "ci_low": closest["ci_low"], "ci_high": closest["ci_high"],
            "p_value": max(float(friedman.pvalue), closest["p_value"]), "verdict": result,
            "test": f"Friedman (p = {friedman.pvalue:.2g}) + Nemenyi, CD = {cd:.2f}; closest "
                    f"rival {rival}", "n": n, "null": 0.0}


def equivalent(differences, margin: float, *, test_train_ratio: float | None = None) -> dict:
    """"A and B are equivalent within ``margin``" from paired differences (one per data
    set, partition or run, as the design gives them); see the module notes. Differences
    from random re-splits of one data set pass ``test_train_ratio`` = n_test / n_train: the
    standard error is then Nadeau & Bengio's corrected one, sqrt((1/n + n_test/n_train) s^2),
    as in :func:`~milab_widgets.evaluation.claim_tests.paired_case`."""
    d = np.asarray(differences, dtype=float)
    if not np.isfinite(margin) or margin <= 0:
        raise InputError(f"margin must be a positive number, got {margin!r}.")
    if d.ndim != 1 or d.size < 2 or not np.all(np.isfinite(d)):
        raise InputError("equivalent needs at least two finite differences, got "
                         f"{d.tolist()}.")
    if test_train_ratio is not None and not (np.isfinite(test_train_ratio)
                                             and test_train_ratio > 0):
        raise InputError("test_train_ratio must be n_test / n_train > 0, got "
                         f"{test_train_ratio!r}.")
    mean, df = float(d.mean()), d.size - 1
    factor = 1.0 / d.size + (test_train_ratio or 0.0)
    se = float(np.sqrt(factor * d.var(ddof=1)))
    test = (f"two one-sided t-tests (TOST), margin ±{margin:g}"
            + ("" if test_train_ratio is None else ", corrected resampled t"))
    if se == 0:
        inside = abs(mean) < margin
        return {"effect": mean, "ci_low": mean, "ci_high": mean, "p_value": 0.0 if inside
                else 1.0, "verdict": "supported" if inside else "contradicted", "test": test,
                "n": d.size, "null": 0.0}
    half = stats.t.ppf(1 - ALPHA / 2, df) * se
    low, high = mean - half, mean + half
    p = max(stats.t.sf((mean + margin) / se, df), stats.t.cdf((mean - margin) / se, df))
    if -margin < low and high < margin:
        result = "supported"
    elif low > margin or high < -margin:
        result = "contradicted"
        p = stats.t.sf((abs(mean) - margin) / se, df)
    else:
        result = "inconclusive"
    return {"effect": mean, "ci_low": low, "ci_high": high, "p_value": float(p),
            "verdict": result, "test": test, "n": d.size, "null": 0.0}


def faster(times_a: dict, times_b: dict) -> dict:
    """"A is faster than B": ``times_a`` and ``times_b`` map each data set to its repeated
    timings (seconds, paired by position); see the module notes."""
    if set(times_a) != set(times_b) or not times_a:
        raise InputError("faster needs the same, non-empty set of data sets for A and B, "
                         f"got {sorted(times_a)} and {sorted(times_b)}.")
    logs = []
    for name in times_a:
        a, b = (np.asarray(times[name], dtype=float) for times in (times_a, times_b))
        if a.shape != b.shape or a.size == 0 or np.any(a <= 0) or np.any(b <= 0):
            raise InputError(f"the timings of {name!r} must be positive and paired, got "
                             f"{a.size} and {b.size} values.")
        logs.append(np.log(b) - np.log(a))
    if len(logs) == 1:
        per_dataset, what = logs[0], "timing repeats of one data set"
    else:
        per_dataset, what = np.array([log.mean() for log in logs]), \
            f"{len(logs)} data sets (geometric mean ratio of each)"
    mean = float(per_dataset.mean())
    test = f"t on log time ratios over {what}"
    if per_dataset.size < 2 or np.ptp(per_dataset) == 0:
        return {"effect": float(np.exp(mean)), "ci_low": np.nan, "ci_high": np.nan,
                "p_value": np.nan, "verdict": "inconclusive", "test": test,
                "n": per_dataset.size, "null": 1.0}
    on_logs = paired_case(per_dataset, confidence=1 - ALPHA)
    return {**on_logs, **{key: float(np.exp(on_logs[key]))
                          for key in ("effect", "ci_low", "ci_high")},
            "test": test, "null": 1.0}


def _require_columns(table: pd.DataFrame, columns) -> None:
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise InputError(f"the cases table lacks the columns {missing}.")


def exponent_gap(timing: pd.DataFrame, slower: str, faster: str,
                 confidence: float = 0.95) -> dict:
    """Claim test of b_slower - b_faster, the gap between two solvers' scaling exponents
    in log(seconds) = a_(dataset, solver) + b_solver log(n) + e, fitted by least squares on
    every repeat (one intercept per dataset and solver, one slope per solver, common
    error variance): t interval and p on N - p degrees of freedom."""
    pair = timing[timing.solver.isin([slower, faster])]
    groups = pd.get_dummies(pair.dataset + " / " + pair.solver).to_numpy(dtype=float)
    log_n = np.log(pair.n.to_numpy(dtype=float))
    design = np.column_stack([groups, log_n * (pair.solver == slower),
                              log_n * (pair.solver == faster)])
    y = np.log(pair.seconds.to_numpy(dtype=float))
    coefficients, _, rank, _ = np.linalg.lstsq(design, y, rcond=None)
    df = len(y) - rank
    contrast = np.zeros(design.shape[1])
    contrast[-2:] = (1.0, -1.0)
    effect = float(contrast @ coefficients)
    test = "t on the exponent gap (least squares, log time on log n)"
    if df < 1 or rank < design.shape[1]:
        return {"effect": effect, "ci_low": np.nan, "ci_high": np.nan, "p_value": np.nan,
                "verdict": verdict(np.nan, np.nan), "test": test, "n": len(y)}
    residual = y - design @ coefficients
    covariance = residual @ residual / df * np.linalg.inv(design.T @ design)
    se = float(np.sqrt(contrast @ covariance @ contrast))
    half = stats.t.ppf(0.5 + confidence / 2, df) * se
    p = float(2 * stats.t.sf(abs(effect) / se, df)) if se > 0 else np.nan
    return {"effect": effect, "ci_low": effect - half, "ci_high": effect + half, "p_value": p,
            "verdict": verdict(effect - half, effect + half), "test": test, "n": len(y)}
