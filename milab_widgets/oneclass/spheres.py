"""A set of SVDD spheres fitted to one training set, evaluated together.

Every base SVDD of an ensemble is fitted to (a weighting of) the same training rows, so the
ensemble keeps one matrix of duals over the union of their support vectors: column k holds
the k-th sphere's duals. The squared distances of n query points to all M centres then take
one kernel block and one matrix product,

    d_k(x)^2 = 1 - 2 sum_i A_ik K(x, s_i) + sum_ij A_ik A_jk K(s_i, s_j)   (the paper's eq. 15).

A bootstrap sample is a weighting too: the SVDD of a sample drawn with replacement equals
the SVDD of the distinct rows drawn with bounds C_i = C * (times row i was drawn), since
copies of a point share one constraint; solving on distinct rows avoids a singular kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel

from milab_widgets.oneclass.svdd import DualSolution, solve_svdd_dual

__all__ = ["Spheres", "bootstrap_counts", "fit_sphere"]


@dataclass(frozen=True)
class Spheres:
    """M spheres: ``duals`` (n_support x M) over ``support_vectors``, their squared radii
    and centre norms ||a_k||^2, for the RBF kernel of width ``gamma``."""

    support_vectors: np.ndarray
    duals: np.ndarray
    radii_sq: np.ndarray
    center_sq_norms: np.ndarray
    gamma: float

    @classmethod
    def from_solutions(cls, X: np.ndarray, solutions: list[DualSolution], gamma: float) -> Spheres:
        """Keep the training rows that support at least one sphere."""
        duals = np.column_stack([solution.alpha for solution in solutions])
        support = np.flatnonzero((duals > 0).any(axis=1))
        return cls(
            X[support], np.ascontiguousarray(duals[support]),
            np.array([solution.radius_sq for solution in solutions]),
            np.array([solution.center_sq_norm for solution in solutions]), float(gamma),
        )

    def __len__(self) -> int:
        return self.duals.shape[1]

    @property
    def radii(self) -> np.ndarray:
        return np.sqrt(np.maximum(self.radii_sq, 0.0))

    def squared_distances(self, X: np.ndarray) -> np.ndarray:
        """(n, M): ||phi(x) - a_k||^2 of each row of X to each centre."""
        cross = rbf_kernel(X, self.support_vectors, gamma=self.gamma) @ self.duals
        return np.maximum(1.0 - 2.0 * cross + self.center_sq_norms, 0.0)

    def distances(self, X: np.ndarray) -> np.ndarray:
        """(n, M): d_k(x) = ||phi(x) - a_k|| (the paper's eq. 15)."""
        return np.sqrt(self.squared_distances(X))

    def inside(self, X: np.ndarray) -> np.ndarray:
        """(n, M) booleans: x within (or on) sphere k."""
        return self.squared_distances(X) <= self.radii_sq

    def subset(self, keep) -> Spheres:
        """The spheres ``keep`` (indices or mask), in that order."""
        duals = self.duals[:, keep]
        rows = np.flatnonzero((duals > 0).any(axis=1))
        return Spheres(self.support_vectors[rows], np.ascontiguousarray(duals[rows]),
                       self.radii_sq[keep], self.center_sq_norms[keep], self.gamma)


def fit_sphere(X: np.ndarray, gamma: float, C: float, weights: np.ndarray,
               tol: float) -> DualSolution:
    """One SVDD on the rows with positive weight (bounds C * weight); duals over all rows."""
    rows = np.flatnonzero(weights > 0)
    solution = solve_svdd_dual(X[rows], gamma, C, weights[rows], tol)
    alpha = np.zeros(len(X))
    alpha[rows] = solution.alpha
    return DualSolution(alpha, solution.radius_sq, solution.center_sq_norm, solution.n_iter,
                        solution.converged)


def bootstrap_counts(n: int, n_draws: int, rng: np.random.Generator) -> np.ndarray:
    """(n_draws, n): how often each row is drawn in each of ``n_draws`` bootstrap samples
    of size n (drawn with replacement)."""
    return np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(n_draws)]
                    ).astype(np.float64)
