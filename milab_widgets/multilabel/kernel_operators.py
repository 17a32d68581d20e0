"""Gaussian-kernel operators for kernel MDDM: the dense kernel and a Nystrom low-rank one.

Kernel MDDM (../../papers/LSkMDDM.md) uses the Gaussian kernel

    k(x, z) = exp(-||x - z||^2 / (2 w^2)),   w = the median pairwise Euclidean distance

of the training points. The solvers only need the kernel as an operator V -> K V on an
n x c block (one BLAS-3 pass per product), so two interchangeable operators are offered:

* :class:`DenseKernel` holds the n x n matrix (n^2 doubles: 200 MB at n = 5000);
* :class:`NystroemKernel` keeps K ~ C W^+ C^T = F F^T with C = K(X, Z) for m landmark points
  Z (Williams & Seeger 2001), F = C U Lambda^(-1/2) from the eigen-decomposition
  W = U Lambda U^T. A product costs O(n m c) and memory O(n m): the n x n kernel is never
  formed, which is what lets the least-squares solvers reach training sizes whose dense
  kernel no longer fits in memory.

Both carry a per-row ``scale`` s (the square roots of duplicate-point multiplicities, see
:mod:`milab_widgets.multilabel.kernel_mddm`): the operator is diag(s) K diag(s).
New points are embedded by ``gaussian_kernel(X_new, support) @ coef`` (:meth:`embedding`).
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics.pairwise import euclidean_distances

from milab_widgets.exceptions import InputError

__all__ = [
    "MEDIAN_MAX_POINTS",
    "DenseKernel",
    "NystroemKernel",
    "gaussian_kernel",
    "kernel_from_squared",
    "median_distance",
    "median_from_squared",
]

#: The median pairwise distance is exact up to this many points, else taken on a random
#: subset of this size (12.5 million pairs at 5000 points: the estimate's error is tiny).
MEDIAN_MAX_POINTS = 5000


def median_distance(X: np.ndarray, random_state=None) -> float:
    """Median Euclidean distance over all pairs i < j of the rows of ``X`` (exact up to
    :data:`MEDIAN_MAX_POINTS` rows, else over a random subset of that many rows)."""
    if X.shape[0] > MEDIAN_MAX_POINTS:
        rows = np.random.default_rng(random_state).choice(X.shape[0], MEDIAN_MAX_POINTS, replace=False)
        X = X[rows]
    return median_from_squared(euclidean_distances(X, squared=True))


def median_from_squared(squared: np.ndarray) -> float:
    """Median of sqrt(squared_ij) over the pairs i < j of a symmetric squared-distance matrix.

    The strict upper triangle is selected by a boolean mask (n^2 bytes, no index arrays) and
    only the middle order statistics are found (``np.partition``); as the square root is
    monotone, only those one or two values are rooted (equal to ``np.median`` of the roots).
    """
    if len(squared) < 2:
        raise InputError(f"the median kernel width needs at least 2 training points "
                         f"(n_samples={len(squared)}); pass more rows of X or set kernel_width.")
    upper = squared[~np.tri(len(squared), dtype=bool)]
    middle = sorted({(upper.size - 1) // 2, upper.size // 2})
    median = float(np.mean(np.sqrt(np.partition(upper, middle)[middle])))
    if median == 0.0:
        raise InputError("the median distance between training points is 0 (at least half of "
                         "the pairs of rows of X are identical), so it gives no kernel width; "
                         "drop duplicate rows or pass kernel_width > 0.")
    return median


def gaussian_kernel(A: np.ndarray, B: np.ndarray, width: float) -> np.ndarray:
    """K_ij = exp(-||a_i - b_j||^2 / (2 width^2)); squared distances by BLAS, in place."""
    return kernel_from_squared(euclidean_distances(A, B, squared=True), width)


def kernel_from_squared(squared: np.ndarray, width: float) -> np.ndarray:
    """The Gaussian kernel from squared distances, overwriting ``squared``."""
    squared *= -0.5 / width**2
    return np.exp(squared, out=squared)


class DenseKernel:
    """diag(s) K diag(s) held as a dense n x n matrix.

    Parameters
    ----------
    X : (n, d) training points; width : kernel width w; scale : (n,) row scale s.
    squared : (n, n) or None
        X's squared pairwise distances if already computed (consumed: the kernel is built in
        place); None computes them.
    """

    def __init__(self, X: np.ndarray, width: float, scale: np.ndarray,
                 squared: np.ndarray | None = None):
        self.X, self.width, self.scale = X, width, scale
        self.matrix = (gaussian_kernel(X, X, width) if squared is None
                       else kernel_from_squared(squared, width))
        self.matrix *= scale[:, None]
        self.matrix *= scale[None, :]

    def matmat(self, V: np.ndarray) -> np.ndarray:
        """K V for an n x c block: one BLAS-3 product."""
        return self.matrix @ V

    def embedding(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(support, coef) with K(x, X) diag(s) Y = gaussian_kernel(x, support) @ coef."""
        return self.X, self.scale[:, None] * Y


class NystroemKernel:
    """diag(s) F F^T diag(s), the Nystrom approximation with ``n_landmarks`` points drawn
    uniformly at random (without replacement) from the rows of X.

    Landmark kernel eigenvalues below ``rcond`` times the largest are dropped (a duplicated
    or near-duplicated landmark adds nothing), so F has r <= m columns.
    """

    def __init__(self, X: np.ndarray, width: float, scale: np.ndarray, n_landmarks: int,
                 random_state=None, rcond: float = 1e-10):
        self.X, self.width, self.scale = X, width, scale
        m = min(n_landmarks, X.shape[0])
        chosen = np.sort(np.random.default_rng(random_state).choice(X.shape[0], m, replace=False))
        self.landmarks = X[chosen]
        values, vectors = np.linalg.eigh(gaussian_kernel(self.landmarks, self.landmarks, width))
        keep = values > rcond * values[-1]
        #: Maps k(x, Z) to the feature f(x) = Lambda^(-1/2) U^T k(Z, x); (m, r).
        self.feature_map = vectors[:, keep] / np.sqrt(values[keep])
        self.factor = scale[:, None] * (gaussian_kernel(X, self.landmarks, width) @ self.feature_map)

    def matmat(self, V: np.ndarray) -> np.ndarray:
        """F (F^T V): two skinny products, O(n r c), never the n x n kernel."""
        return self.factor @ (self.factor.T @ V)

    def embedding(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(landmarks, coef): f(x)^T F^T Y = k(x, Z) @ (feature_map @ (F^T Y))."""
        return self.landmarks, self.feature_map @ (self.factor.T @ Y)
