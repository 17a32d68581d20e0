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

from milab_widgets.oneclass.svdd import (
    DualSolution,
    solve_svdd_dual,
    squared_distances_to_centres,
)

__all__ = ["Spheres", "bootstrap_counts", "fit_sphere"]


@dataclass(frozen=True)
class Spheres:
    """M RBF-kernel spheres sharing one set of support vectors (an ensemble's members).

    The ensembles keep their members' spheres in this form so that the distance of a sample
    to every centre is one kernel block: d_k(x)^2 = K(x, x) - 2 sum_i a_ik K(x_i, x) +
    ||a_k||^2 (the CDVSE paper's eq. 15).

    Parameters
    ----------
    support_vectors : ndarray of shape (n_support, n_features)
        The training rows that support at least one sphere.
    duals : ndarray of shape (n_support, M)
        The duals a_ik of each sphere k over those rows.
    radii_sq : ndarray of shape (M,)
        Each sphere's squared radius R_k^2.
    center_sq_norms : ndarray of shape (M,)
        Each centre's squared norm ||a_k||^2 = sum_ij a_ik a_jk K(x_i, x_j).
    gamma : float
        Kernel width zeta in K(x, y) = exp(-zeta ||x - y||^2).

    Attributes
    ----------
    support_vectors, duals, radii_sq, center_sq_norms, gamma
        The parameters, as given (``len(spheres)`` is M).
    radii : ndarray of shape (M,)
        The radii R_k.

    See Also
    --------
    SVDD : one sphere, fitted.
    BaggingSVDD, AdaBoostSVDD, CDVSESVDD : the ensembles that hold their members here.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.oneclass import SVDD, Spheres
    >>> X = np.random.default_rng(0).normal(size=(60, 2))
    >>> one = SVDD(C=1.0, gamma=0.5).fit(X)
    >>> spheres = Spheres(one.support_vectors_, one.dual_coef_[:, None],
    ...                   np.array([one.radius_ ** 2]), np.array([one.center_sq_norm_]), 0.5)
    >>> bool(np.allclose(spheres.squared_distances(X[:3])[:, 0], one.squared_distance(X[:3])))
    True
    >>> bool(spheres.inside(X).all())  # C = 1: a hard sphere holds every training sample
    True
    """

    support_vectors: np.ndarray
    duals: np.ndarray
    radii_sq: np.ndarray
    center_sq_norms: np.ndarray
    gamma: float

    @classmethod
    def from_solutions(cls, X: np.ndarray, solutions: list[DualSolution], gamma: float) -> Spheres:
        """Build the spheres of M dual solutions over the same training rows.

        Only the rows that support at least one sphere are kept.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            The training rows the solutions' duals refer to.
        solutions : list of DualSolution
            One solved SVDD dual per sphere (duals over all of X, R^2, ||a||^2).
        gamma : float
            Kernel width.

        Returns
        -------
        Spheres
            The M spheres.
        """
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
        """Squared distance of each row to each centre, ||phi(x) - a_k||^2.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, M)
            One column per sphere.
        """
        return squared_distances_to_centres(X, self.support_vectors, self.gamma, self.duals,
                                            self.center_sq_norms)

    def distances(self, X: np.ndarray) -> np.ndarray:
        """Distance of each row to each centre, d_k(x) = ||phi(x) - a_k|| (the paper's eq. 15).

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, M)
            One column per sphere.
        """
        return np.sqrt(self.squared_distances(X))

    def inside(self, X: np.ndarray) -> np.ndarray:
        """Whether each row lies within (or on) each sphere.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of bool, shape (n_samples, M)
            True where d_k(x)^2 <= R_k^2.
        """
        return self.squared_distances(X) <= self.radii_sq

    def subset(self, keep) -> Spheres:
        """The spheres ``keep``, in that order (a selective ensemble's members).

        Parameters
        ----------
        keep : array-like of int or bool
            Indices, or a mask of length M.

        Returns
        -------
        Spheres
            The chosen spheres over the same support vectors.
        """
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
