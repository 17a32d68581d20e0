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

import warnings
from collections.abc import Callable
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_array

from milab_widgets._sklearn_private import Interval, validate_params
from milab_widgets.core.nca import nca_objective_mixed
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_class_labels, check_distance_matrix

__all__ = [
    "nca_objective", "nca_alpha_objective", "golden_section_maximize", "tune_alpha_nca",
    "nca_alpha_curve",
]

#: (sqrt(5) - 1) / 2: the fraction of the bracket kept at each golden-section step.
GOLDEN = (np.sqrt(5.0) - 1.0) / 2.0

#: Declared argument constraints shared by the NCA functions (scikit-learn's ``validate_params``).
_POSITIVE = Interval(Real, 0, None, closed="neither")
_PROBLEM = {"d_min": ["array-like"], "d_max": ["array-like"], "y": ["array-like"],
            "sigma": [_POSITIVE]}


@validate_params({"distances": ["array-like"], "y": ["array-like"], "sigma": [_POSITIVE]},
                 prefer_skip_nested_validation=True)
def nca_objective(distances, y, sigma: float) -> float:
    r"""f = sum_i sum_{j != i, y_j = y_i} p_ij for one bag-distance matrix (the paper's eq. 7).

    p_ij is computed with the log-sum-exp shift, so raw distances in the hundreds with
    sigma = 0.1 neither underflow nor divide 0 by 0. ``distances`` must be finite and
    non-negative, ``y`` one class label per bag, ``sigma`` > 0.

    Parameters
    ----------
    distances : ndarray of shape (n_bags, n_bags)
        Bag distances between the training bags (finite, non-negative).
    y : array-like of shape (n_bags,)
        One class label per bag: integers or strings (only which bags share a label
        matters, so ``["pos", "neg"]`` gives what ``[1, 0]`` gives).
    sigma : float
        Bandwidth of p_ij (> 0).

    Returns
    -------
    float
        f, the expected number of bags whose stochastic nearest neighbour shares their label.

    See Also
    --------
    tune_alpha_nca : maximises this over the alpha of the integrated distance.
    sklearn.neighbors.NeighborhoodComponentsAnalysis : NCA for instance features.

    Notes
    -----
    With p_ij = exp(-d_ij / sigma) / sum_(k != i) exp(-d_ik / sigma), the intH paper's eq. 7
    is :math:`f = \sum_i \sum_{j \ne i,\, y_j = y_i} p_{ij}` (Goldberger et al.,
    Neighbourhood components analysis, NIPS 2004).

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_distances
    >>> bags = BagDataset.from_bags([[[0.0], [1.0]], [[0.5], [4.0]], [[9.0], [10.0]]],
    ...                             labels=[1, 1, 0])
    >>> d = bag_distances(bags)
    >>> from milab_widgets.mil import nca_objective
    >>> round(nca_objective(d["min"], bags.labels, sigma=1.0), 4)
    1.9885
    """
    labels = check_class_labels(y, "y")
    distances = _checked_matrix(distances, len(labels), "distances")
    return float(nca_objective_mixed(distances, distances, 1.0, labels, float(sigma)))


@validate_params({**_PROBLEM, "alpha": [Interval(Real, 0, 1, closed="both")]},
                 prefer_skip_nested_validation=True)
def nca_alpha_objective(d_min, d_max, y, sigma: float, alpha: float) -> float:
    """f(alpha): the NCA objective of d_intH = alpha d_minH + (1 - alpha) d_maxH."""
    return _alpha_objective(d_min, d_max, y, sigma)(alpha)


def _alpha_objective(d_min, d_max, y, sigma: float) -> Callable[[float], float]:
    """alpha -> f(alpha), the inputs validated once (a search calls it ~30 times)."""
    labels = check_class_labels(y, "y")
    d_min = _checked_matrix(d_min, len(labels), "d_min")
    d_max = _checked_matrix(d_max, len(labels), "d_max")
    sigma = float(sigma)

    def objective(alpha: float) -> float:
        if not 0.0 <= alpha <= 1.0:  # also rejects NaN
            raise InputError(f"alpha must lie in [0, 1], got {alpha!r}.")
        return float(nca_objective_mixed(d_min, d_max, float(alpha), labels, sigma))

    return objective


def _checked_matrix(matrix, n: int, name: str) -> np.ndarray:
    """A finite, non-negative n x n distance matrix (n >= 2 bags), C-contiguous float64."""
    if n < 2:
        raise InputError("the NCA objective needs at least two bags; y holds "
                         f"{n} label{'s' if n != 1 else ''}.")
    if np.shape(matrix) != (n, n):
        raise InputError(
            f"{name} of shape {np.shape(matrix)} does not match the {n} labels of y; pass "
            "square train x train distance matrices, one label per bag."
        )
    return np.ascontiguousarray(check_distance_matrix(matrix, n, n, name))


@validate_params(
    {"func": [callable], "low": [Interval(Real, None, None, closed="neither")],
     "high": [Interval(Real, None, None, closed="neither")], "tol": [_POSITIVE],
     "max_iter": [Interval(Integral, 1, None, closed="left")]},
    prefer_skip_nested_validation=True)
def golden_section_maximize(
    func: Callable[[float], float], low: float, high: float, tol: float = 1e-4,
    max_iter: int = 200,
) -> tuple[float, float, int]:
    """Maximise a function of one variable on [low, high] by golden-section search.

    Keeps two interior points splitting the bracket in the golden ratio and drops the part
    beyond the worse one, until the bracket is shorter than ``tol`` (> 0) or after
    ``max_iter`` steps (a ConvergenceWarning then says so: 200 steps shrink the bracket by
    0.618^200 ~ 1e-42, so only a ``tol`` below the floating-point spacing of the bracket
    reaches the cap); returns the bracket's midpoint, the function there, and the number of
    evaluations. Finds the maximum of a unimodal function; for any other function, a local
    maximum. ``func`` must return a real number; NaN is refused (InputError).

    Parameters
    ----------
    func : callable
        ``func(x) -> float``, the function to maximise.
    low, high : float
        The bracket [low, high].
    tol : float, default=1e-4
        Stop when the bracket is shorter than this (> 0).
    max_iter : int, default=200
        The most steps.

    Returns
    -------
    x : float
        The bracket's midpoint at the end.
    value : float
        ``func(x)``.
    n_evaluations : int
        How many times ``func`` was called.

    See Also
    --------
    tune_alpha_nca : its use on the NCA objective over alpha.
    scipy.optimize.minimize_scalar : the same search (method="golden") for minimisation.

    Examples
    --------
    >>> from milab_widgets.mil import golden_section_maximize
    >>> x, value, n = golden_section_maximize(lambda a: -(a - 0.3) ** 2, 0.0, 1.0, tol=1e-6)
    >>> round(float(x), 4), round(float(value), 8)
    (0.3, -0.0)
    """
    if not high > low:
        raise InputError(f"golden_section_maximize needs low < high, got [{low}, {high}].")
    value = _checked_value(func)
    inner_low = high - GOLDEN * (high - low)
    inner_high = low + GOLDEN * (high - low)
    f_low, f_high = value(inner_low), value(inner_high)
    evaluations = 2
    for _ in range(max_iter):
        if not high - low > tol:
            break
        if f_low >= f_high:  # the maximum lies in [low, inner_high]
            high, inner_high, f_high = inner_high, inner_low, f_low
            inner_low = high - GOLDEN * (high - low)
            f_low = value(inner_low)
        else:  # the maximum lies in [inner_low, high]
            low, inner_low, f_low = inner_low, inner_high, f_high
            inner_high = low + GOLDEN * (high - low)
            f_high = value(inner_high)
        evaluations += 1
    else:
        if high - low > tol:
            warnings.warn(f"golden_section_maximize stopped after max_iter={max_iter} steps "
                          f"with a bracket of {high - low:.3g} > tol={tol}; raise tol (the "
                          "bracket cannot shrink below the floating-point spacing).",
                          ConvergenceWarning, stacklevel=3)
    middle = 0.5 * (low + high)
    return middle, value(middle), evaluations + 1


def _checked_value(func: Callable[[float], float]) -> Callable[[float], float]:
    """``func`` returning floats, refusing NaN (a NaN compares false and would steer the
    search to the upper end of the bracket)."""

    def value(x: float) -> float:
        result = float(func(x))
        if np.isnan(result):
            raise InputError(f"func returned NaN at {x:.6g}; golden_section_maximize needs an "
                             "objective that is a number at every point of [low, high].")
        return result

    return value


@validate_params(
    {**_PROBLEM, "grid": [Interval(Integral, 2, None, closed="left"), None],
     "tol": [_POSITIVE]},
    prefer_skip_nested_validation=True)
def tune_alpha_nca(
    d_min, d_max, y, sigma: float, *, grid: int | None = 11, tol: float = 1e-4
) -> tuple[float, float]:
    r"""alpha* = argmax_{alpha in [0, 1]} f(alpha) (the paper's eq. 8); returns (alpha*, f(alpha*)).

    Parameters
    ----------
    d_min, d_max : (l, l) arrays
        Minimal and maximal Hausdorff distances between the training bags.
    y : (l,) array
        Bag labels: integers or strings (only which bags share a label matters).
    sigma : float
        Bandwidth of p_ij; chosen by cross-validation (seed: 0.1 ... 100).
    grid : int or None
        ``None`` is the paper's pure golden-section search over [0, 1]. An int evaluates f on
        that many evenly spaced alphas first (endpoints included) and refines by golden-section
        search between the best grid point's neighbours; f need not be unimodal, and the grid
        keeps the search from settling on a worse local maximum. Default 11 (step 0.1).
    tol : float > 0
        Golden-section search stops when the bracket is shorter than this (or after
        :func:`golden_section_maximize`'s iteration cap).

    Returns
    -------
    alpha : float
        alpha*, in [0, 1].
    value : float
        f(alpha*).

    See Also
    --------
    nca_objective : f for one distance matrix.
    nca_alpha_curve : f over a list of alphas (to plot).
    golden_section_maximize : the search.

    Notes
    -----
    The intH paper's eq. 8, :math:`\alpha^* = \arg\max_{\alpha \in [0, 1]} f(\alpha)`, with f
    the NCA objective (eq. 7) of the integrated distance
    :math:`\alpha\, d_{minH} + (1 - \alpha)\, d_{maxH}`.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_distances
    >>> bags = BagDataset.from_bags([[[0.0], [1.0]], [[0.5], [4.0]], [[9.0], [10.0]]],
    ...                             labels=[1, 1, 0])
    >>> d = bag_distances(bags)
    >>> from milab_widgets.mil import tune_alpha_nca
    >>> alpha, value = tune_alpha_nca(d["min"], d["max"], bags.labels, sigma=1.0)
    >>> round(alpha, 3), round(value, 4)   # here d_maxH (alpha = 0) separates best
    (0.0, 1.9935)
    """
    if len(np.unique(check_class_labels(y, "y"))) < 2:
        raise InputError("tune_alpha_nca needs bags of both classes in y.")

    objective = _alpha_objective(d_min, d_max, y, sigma)
    if grid is None:
        alpha, value, _ = golden_section_maximize(objective, 0.0, 1.0, tol)
        return float(alpha), value
    alphas = np.linspace(0.0, 1.0, grid)
    values = np.array([objective(a) for a in alphas])
    best = int(np.argmax(values))
    low, high = alphas[max(best - 1, 0)], alphas[min(best + 1, grid - 1)]
    alpha, value, _ = golden_section_maximize(objective, low, high, tol)
    if values[best] > value:  # an endpoint maximum lies outside every interior bracket point
        return float(alphas[best]), float(values[best])
    return float(alpha), value


@validate_params({**_PROBLEM, "alphas": ["array-like"]}, prefer_skip_nested_validation=True)
def nca_alpha_curve(d_min, d_max, y, sigma: float, alphas) -> np.ndarray:
    """f(alpha) at each of ``alphas`` (for plotting the objective the search climbs).

    Parameters
    ----------
    d_min, d_max : ndarray of shape (n_bags, n_bags)
        Minimal and maximal Hausdorff distances between the training bags.
    y : array-like of shape (n_bags,)
        Bag labels.
    sigma : float
        Bandwidth of p_ij (> 0).
    alphas : array-like of float in [0, 1]
        Where to evaluate f.

    Returns
    -------
    ndarray of shape (len(alphas),)
        f(alpha) of :func:`nca_objective` on the integrated distance.

    See Also
    --------
    tune_alpha_nca : finds the maximum of this curve.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_distances
    >>> bags = BagDataset.from_bags([[[0.0], [1.0]], [[0.5], [4.0]], [[9.0], [10.0]]],
    ...                             labels=[1, 1, 0])
    >>> d = bag_distances(bags)
    >>> from milab_widgets.mil import nca_alpha_curve
    >>> nca_alpha_curve(d["min"], d["max"], bags.labels, 1.0, [0.0, 1.0]).round(4).tolist()
    [1.9935, 1.9885]
    """
    objective = _alpha_objective(d_min, d_max, y, sigma)
    return np.array([objective(a) for a in _checked_alphas(alphas)])


def _checked_alphas(alphas) -> np.ndarray:
    """``alphas`` as a 1-D float array in [0, 1] (scikit-learn's ``check_array``, which
    refuses text and non-finite values); InputError naming the problem."""
    message = "alphas must be a list of numbers in [0, 1] (the weight of d_minH); got "
    try:
        values = check_array(alphas, ensure_2d=False, dtype="numeric", input_name="alphas")
    except ValueError as error:
        raise InputError(f"{message}{np.ravel(alphas)[:3].tolist()!r} ({error})") from error
    if values.ndim != 1:
        raise InputError(f"{message}an array of shape {values.shape}.")
    outside = values[(values < 0) | (values > 1)]
    if outside.size:
        raise InputError(f"{message}{float(outside[0])!r}.")
    return values.astype(np.float64)
