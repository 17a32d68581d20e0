"""Choosing the integrated-Hausdorff weight alpha with the NCA objective (the intH paper, §1.2).

For l training bags with labels y_i, a bandwidth sigma and D = d_intH(alpha):

    p_ij = exp(-D_ij / sigma) / sum_{k != i} exp(-D_ik / sigma)   (i != j),   p_ii = 0
    f(alpha) = sum_i sum_{j: y_j = y_i} p_ij                        (the paper's eqs. 6-7)

f is the expected number of training bags that a stochastic leave-one-out nearest neighbour
classifies correctly (Goldberger, Roweis, Hinton & Salakhutdinov, "Neighbourhood components
analysis", NIPS 2004). alpha* = argmax f over [0, 1] by golden-section search (Press et al.,
Numerical Recipes, 3rd ed., §10.2), optionally after a coarse grid.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from milab_widgets.core.nca import nca_objective_mixed
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_positive_float

#: (sqrt(5) - 1) / 2: the fraction of the bracket kept at each golden-section step.
GOLDEN = (np.sqrt(5.0) - 1.0) / 2.0


def nca_objective(distances, y, sigma: float) -> float:
    """f = sum_i sum_{j != i, y_j = y_i} p_ij for one bag-distance matrix (the paper's eq. 7).

    p_ij is computed with the log-sum-exp shift, so raw distances in the hundreds with
    sigma = 0.1 neither underflow nor divide 0 by 0.
    """
    distances, labels = _checked_problem(distances, distances, y)
    return float(nca_objective_mixed(distances, distances, 1.0, labels, float(sigma)))


def nca_alpha_objective(d_min, d_max, y, sigma: float, alpha: float) -> float:
    """f(alpha): the NCA objective of d_intH = alpha d_minH + (1 - alpha) d_maxH."""
    return _alpha_objective(d_min, d_max, y, sigma)(alpha)


def _alpha_objective(d_min, d_max, y, sigma: float) -> Callable[[float], float]:
    """alpha -> f(alpha), the inputs validated once (a search calls it ~30 times)."""
    d_min, labels = _checked_problem(d_min, d_max, y)
    d_max = np.ascontiguousarray(d_max, dtype=np.float64)
    sigma = float(sigma)

    def objective(alpha: float) -> float:
        if not 0.0 <= alpha <= 1.0:  # also rejects NaN
            raise InputError(f"alpha must lie in [0, 1], got {alpha!r}.")
        return float(nca_objective_mixed(d_min, d_max, float(alpha), labels, sigma))

    return objective


def _checked_problem(d_min, d_max, y):
    d_min = np.ascontiguousarray(d_min, dtype=np.float64)
    labels = np.ascontiguousarray(y, dtype=np.int64)
    n = len(labels)
    if d_min.shape != (n, n) or np.shape(d_max) != (n, n):
        raise InputError(
            f"distance matrices of shape {d_min.shape} and {np.shape(d_max)} do not match "
            f"{n} labels; pass square train x train matrices, one label per bag."
        )
    if n < 2:
        raise InputError("the NCA objective needs at least two bags.")
    return d_min, labels


def golden_section_maximize(
    func: Callable[[float], float], low: float, high: float, tol: float = 1e-4
) -> tuple[float, float, int]:
    """Maximise a function of one variable on [low, high] by golden-section search.

    Keeps two interior points splitting the bracket in the golden ratio and drops the part
    beyond the worse one, until the bracket is shorter than ``tol``; returns the bracket's
    midpoint, the function there, and the number of evaluations. Finds the maximum of a
    unimodal function; for any other function, a local maximum.
    """
    if not high > low:
        raise InputError(f"golden_section_maximize needs low < high, got [{low}, {high}].")
    inner_low = high - GOLDEN * (high - low)
    inner_high = low + GOLDEN * (high - low)
    f_low, f_high = func(inner_low), func(inner_high)
    evaluations = 2
    while high - low > tol:
        if f_low >= f_high:  # the maximum lies in [low, inner_high]
            high, inner_high, f_high = inner_high, inner_low, f_low
            inner_low = high - GOLDEN * (high - low)
            f_low = func(inner_low)
        else:  # the maximum lies in [inner_low, high]
            low, inner_low, f_low = inner_low, inner_high, f_high
            inner_high = low + GOLDEN * (high - low)
            f_high = func(inner_high)
        evaluations += 1
    middle = 0.5 * (low + high)
    return middle, func(middle), evaluations + 1


def tune_alpha_nca(
    d_min, d_max, y, sigma: float, *, grid: int | None = 11, tol: float = 1e-4
) -> tuple[float, float]:
    """alpha* = argmax_{alpha in [0, 1]} f(alpha) (the paper's eq. 8); returns (alpha*, f(alpha*)).

    Parameters
    ----------
    d_min, d_max : (l, l) arrays
        Minimal and maximal Hausdorff distances between the training bags.
    y : (l,) array
        Bag labels.
    sigma : float
        Bandwidth of p_ij; chosen by cross-validation (seed: 0.1 ... 100).
    grid : int or None
        ``None`` is the paper's pure golden-section search over [0, 1]. An int evaluates f on
        that many evenly spaced alphas first (endpoints included) and refines by golden-section
        search between the best grid point's neighbours; f need not be unimodal, and the grid
        keeps the search from settling on a worse local maximum. Default 11 (step 0.1).
    tol : float
        Golden-section search stops when the bracket is shorter than this.
    """
    sigma = check_positive_float(sigma, "sigma")
    y = np.asarray(y)
    if len(np.unique(y)) < 2:
        raise InputError("tune_alpha_nca needs bags of both classes in y.")

    objective = _alpha_objective(d_min, d_max, y, sigma)
    if grid is None:
        alpha, value, _ = golden_section_maximize(objective, 0.0, 1.0, tol)
        return float(alpha), value
    if grid < 2:
        raise InputError(f"grid must be None or at least 2 points, got {grid}.")
    alphas = np.linspace(0.0, 1.0, grid)
    values = np.array([objective(a) for a in alphas])
    best = int(np.argmax(values))
    low, high = alphas[max(best - 1, 0)], alphas[min(best + 1, grid - 1)]
    alpha, value, _ = golden_section_maximize(objective, low, high, tol)
    if values[best] > value:  # an endpoint maximum lies outside every interior bracket point
        return float(alphas[best]), float(values[best])
    return float(alpha), value


def nca_alpha_curve(d_min, d_max, y, sigma: float, alphas) -> np.ndarray:
    """f(alpha) at each of ``alphas`` (for plotting the objective the search climbs)."""
    objective = _alpha_objective(d_min, d_max, y, sigma)
    return np.array([objective(a) for a in alphas])
