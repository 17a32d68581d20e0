"""The stability of a feature selector: how little its selected subset changes when the
training data are resampled, by Nogueira, Sechidis & Brown's estimator.

A selector is run on M resamples of one data set (bootstrap samples, say) and keeps a subset
s_i of the d features on each; Z is the M x d 0/1 matrix with z_if = 1 when feature f is in
s_i. With k_i = |s_i|, k̄ their mean and p̂_f = (1/M) Σ_i z_if the share of the runs that
keep f, the estimate is (Nogueira, Sechidis & Brown 2018, "On the Stability of Feature
Selection Algorithms", JMLR 18(174):1-54, Definition 4)

    Φ̂ = 1 - [(1/d) Σ_f s_f²] / [(k̄/d)(1 - k̄/d)],   s_f² = M/(M - 1) p̂_f (1 - p̂_f),

the mean unbiased variance of the features' selection indicators, against the same for
subsets of size k̄ drawn at random. Written over pairs of runs it is the mean pairwise
similarity

    Φ̂ = 1/(M(M - 1)) Σ_{i ≠ j} [1 - |s_i Δ s_j| / (2 k̄ (1 - k̄/d))],

since the unbiased variance of a sample is half the mean squared difference of its distinct
pairs; with a fixed size k each term is Kuncheva's consistency index
(|s_i ∩ s_j| - k²/d) / (k - k²/d). Properties the tests check: Φ̂ = 1 exactly when every run
keeps the same subset; Φ̂ → 0 for subsets of a fixed size drawn at random; and
-1/(M - 1) <= Φ̂ <= 1 (the lower bound from (1/d) Σ_f p̂_f (1 - p̂_f) <= π (1 - π),
π = k̄/d, by Jensen's inequality).

**Interval.** Φ̂ is asymptotically normal in M, with the variance estimate (the paper's
interval is its Corollary 9)

    v(Φ̂) = (4/M²) Σ_i (Φ̂_i - Φ̄)²,   Φ̄ = (1/M) Σ_i Φ̂_i,
    Φ̂_i = (p_{a,i} - p_{e,i}) / (1 - p_e),   p_e = 1 - 2π(1 - π),
    p_{a,i} = 1 - k_i/d - π + (2/d) Σ_f z_if p̂_f   (= (1/M) Σ_j (1 - |s_i Δ s_j| / d)),
    p_{e,i} = (1 - Φ̂) (π k_i/d + (1 - π)(1 - k_i/d)),

Φ̂_i being run i's term in the first-order (Hájek and delta-method) expansion of Φ̂: p_{a,i}
is its mean agreement with the runs, and p_{e,i} carries its size's share in π (the tests
check v(Φ̂) against the jackknife's variance, which needs no expansion). The (1 - α)
interval is Φ̂ ± z_{1-α/2} sqrt(v(Φ̂)). It covers the resampling noise of the M runs of one
data set, for the population of resamples that generated them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from milab_widgets.exceptions import InputError

__all__ = ["StabilityEstimate", "nogueira_stability", "selection_matrix"]


@dataclass(frozen=True)
class StabilityEstimate:
    """Nogueira's Φ̂ of M selected subsets, its variance estimate v(Φ̂), the normal
    interval at ``confidence``, M (``n_subsets``) and the mean subset size k̄."""

    stability: float
    variance: float
    ci_low: float
    ci_high: float
    confidence: float
    n_subsets: int
    mean_size: float


def selection_matrix(selections: Iterable, n_features: int) -> np.ndarray:
    """The M x d 0/1 matrix Z of M selected subsets, each a sequence of distinct feature
    indices in 0 ... ``n_features`` - 1 (row i has z_if = 1 for f in subset i)."""
    n_features = int(n_features)
    if n_features < 1:
        raise InputError(f"n_features must be at least 1, got {n_features}.")
    rows = [np.asarray(subset, dtype=np.int64).ravel() for subset in selections]
    Z = np.zeros((len(rows), n_features), dtype=np.int8)
    for number, subset in enumerate(rows):
        if subset.size and (subset.min() < 0 or subset.max() >= n_features):
            raise InputError(f"subset {number} holds feature indices outside 0 ... "
                             f"{n_features - 1}: {subset.tolist()}.")
        if np.unique(subset).size != subset.size:
            raise InputError(f"subset {number} names a feature twice: {subset.tolist()}.")
        Z[number, subset] = 1
    return Z


def nogueira_stability(Z, confidence: float = 0.95) -> StabilityEstimate:
    """Nogueira, Sechidis & Brown's stability Φ̂ of the subsets in ``Z`` (M x d, 0/1; see
    the module notes for the formulas) with its asymptotic variance and interval.

    Parameters
    ----------
    Z : array of shape (M, d)
        Row i marks the features kept on run i (:func:`selection_matrix` builds it from
        index lists). M >= 2; the mean subset size must lie strictly between 0 and d.
    confidence : float
        Level of the normal interval Φ̂ ± z sqrt(v(Φ̂)).

    Returns
    -------
    StabilityEstimate

    See Also
    --------
    selection_matrix : Z from the selected feature indices of each run.
    milab_widgets.experiments.mfsef.stability_estimates : the MFSEF paper's selectors on
        bootstrap samples of each training set.

    References
    ----------
    S. Nogueira, K. Sechidis and G. Brown, "On the Stability of Feature Selection
    Algorithms", Journal of Machine Learning Research 18(174):1-54, 2018.

    Examples
    --------
    >>> nogueira_stability([[1, 1, 0], [1, 1, 0], [1, 1, 0]]).stability
    1.0
    >>> nogueira_stability([[1, 1, 0], [0, 1, 1], [1, 0, 1]]).stability  # -1/(M - 1)
    -0.5
    """
    Z = _checked_matrix(Z)
    if not 0 < confidence < 1:
        raise InputError(f"confidence must lie in (0, 1), got {confidence!r}.")
    M, d = Z.shape
    sizes = Z.sum(axis=1)
    share = sizes.mean() / d  # π = k̄ / d
    kept = Z.mean(axis=0)  # p̂_f
    chance = share * (1 - share)
    stability = float(1 - (M / (M - 1)) * np.mean(kept * (1 - kept)) / chance)
    agreement = 1 - sizes / d - share + (2 / d) * (Z @ kept)  # p_{a,i}
    expected = (1 - stability) * (share * sizes / d + (1 - share) * (1 - sizes / d))
    terms = (agreement - expected) / (2 * chance)  # (p_{a,i} - p_{e,i}) / (1 - p_e)
    variance = float(4 / M**2 * np.sum((terms - terms.mean()) ** 2))
    half = stats.norm.ppf(0.5 + confidence / 2) * np.sqrt(variance)
    return StabilityEstimate(stability, variance, stability - half, stability + half,
                             confidence, M, float(sizes.mean()))


def _checked_matrix(Z) -> np.ndarray:
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[0] < 2 or Z.shape[1] < 1:
        raise InputError(f"Z must be an M x d matrix with M >= 2 subsets, got shape {Z.shape}.")
    if not np.isin(Z, (0.0, 1.0)).all():
        raise InputError("Z must hold only 0 and 1 (1: the feature was selected).")
    mean_size = Z.sum(axis=1).mean()
    if not 0 < mean_size < Z.shape[1]:
        raise InputError(f"the mean subset size is {mean_size:g} of d = {Z.shape[1]}: "
                         "stability is undefined when every run keeps no feature or all.")
    return Z
