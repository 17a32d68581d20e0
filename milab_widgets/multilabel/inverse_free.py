"""kMDDM-ifp: the inverse-free preconditioned Krylov subspace method on kMDDM's pencil.

The LSkMDDM paper times kMDDM's generalised eigenproblem solved by "the inverse-free
preconditioned Krylov subspace method" (seed 004, Fig. 4; Golub & Ye, SIAM J. Sci. Comput.
24(1), 2002, "An inverse free preconditioned Krylov subspace method for symmetric generalized
eigenvalue problems"). For the pencil of kernel MDDM (papers/LSkMDDM.md)

    A p = lambda B p,     A = K Q Q^T K,   B = K K,   Q = H Y,

Golub & Ye's outer iteration, written for the largest eigenvalues, is: with the current
Ritz vector x (x^T B x = 1) and Ritz value rho, build the Krylov subspace

    K_m(C, x) = span{x, C x, ..., C^m x},     C = rho B - A,

and take the new x as the best Ritz vector of the pencil in that subspace (Rayleigh-Ritz).
Only products with A and B are used: no factorisation of B or of A - sigma B. For the k
leading eigenpairs we use the block form of Quillen & Ye (J. Comput. Appl. Math. 233(5),
2010): every Ritz pair (x_j, rho_j) contributes its own shifted Krylov blocks, all Ritz
vectors are extracted together from the union, and the previous Ritz block is kept in the
subspace (Golub & Ye's acceleration by x_k - x_{k-1}). No preconditioner is used: the paper
names none.

Cheap Rayleigh-Ritz. With the basis Z and its kernel image K Z = U S V^T (thin SVD), the
vectors Y = Z V S^(-1) are B-orthonormal (K Y = U), and the projected pencil is
(U^T Q)(U^T Q)^T w = theta w: its Ritz vectors are the left singular vectors of U^T Q, as in
the dense solver. So each basis vector costs one kernel product, and C z = K(rho K z - Q Q^T
K z) one more.

Stopping rule (the same meaning as the least-squares solvers' ``tol``). Since K is
nonsingular, A x = lambda B x  <=>  Q Q^T u = lambda u  with u = K x, the training embedding.
For the orthonormal Ritz block U_X = K X with Ritz values Theta, Davis & Kahan's sin-theta
theorem bounds the largest principal angle between span(K X) and the exact embedding
span(b_1 .. b_k) (Lemma 1's eigenvectors) by

    sin angle <= ||Q Q^T U_X - U_X Theta||_2 / (theta_k - s_(k+1)),

s_(k+1) the next eigenvalue of Q Q^T (0 when k is its rank). The iteration stops when this
bound is below ``tol`` radians; its value is reported as ``angle_bound``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg

__all__ = ["InverseFreeResult", "solve_inverse_free"]

#: Krylov blocks C X, C^2 X, ... added to the subspace per outer iteration (Golub & Ye's m).
#: On Arts (Fig. 4's first set, median-width kernel) m = 8 reached 0.01 rad at n = 1000 in
#: 341 outer iterations where m = 1, 2 and 4 had not within 400; at n = 500 every m converged
#: (29 iterations at m = 8, 194 at m = 1).
KRYLOV_BLOCKS = 8


@dataclass
class InverseFreeResult:
    """``solution`` (n x k, p^T K K p = 1), ``values`` (the k Ritz values, descending),
    ``iterations`` (outer iterations), ``passes`` (kernel products of an n x k block),
    ``angle_bound`` (radians, at the end) and ``converged``."""

    solution: np.ndarray
    values: np.ndarray
    iterations: int
    passes: int
    angle_bound: float
    converged: bool


def solve_inverse_free(matmat, Q: np.ndarray, start: np.ndarray, label_values: np.ndarray,
                       tol: float = 1e-2, max_iter: int = 200,
                       krylov_blocks: int = KRYLOV_BLOCKS) -> InverseFreeResult:
    """The k leading eigenpairs of (K Q Q^T K, K K) by the block inverse-free Krylov method.

    Parameters
    ----------
    matmat : callable
        ``matmat(V)`` returns K V for an n x j block (K symmetric positive definite).
    Q : ndarray of shape (n, c)
        The centred labels H Y.
    start : ndarray of shape (n, k)
        The first subspace (the caller passes Lemma 1's eigenvectors B: a label-informed
        guess of the coefficients, as for LOBPCG).
    label_values : ndarray
        Every eigenvalue of Q Q^T that Lemma 1 found, descending (at least k): the gap of the
        stopping bound is theta_k - label_values[k] (0 past the rank).
    tol : float
        Bound (radians) on the largest principal angle between the training embedding K P and
        the exact one.
    max_iter : int
        Outer iterations at most.
    krylov_blocks : int
        Krylov blocks per outer iteration (Golub & Ye's m).

    Returns
    -------
    InverseFreeResult
    """
    k = start.shape[1]
    following = float(label_values[k]) if len(label_values) > k else 0.0
    X, KX, values = _rayleigh_ritz(start, matmat(start), Q, k)
    passes, previous, bound = 1, None, np.pi / 2
    for iteration in range(max_iter + 1):
        residual = Q @ (Q.T @ KX) - KX * values
        bound = _angle_bound(residual, values[-1] - following)
        if bound <= tol or iteration == max_iter:
            break
        basis, images = [X], [KX]
        if previous is not None:
            basis.append(previous[0])
            images.append(previous[1])
        block = residual
        for _ in range(krylov_blocks):
            W = _orthonormal_against(matmat(block), np.hstack(basis))
            KW = matmat(W)
            passes += 2
            basis.append(W)
            images.append(KW)
            block = Q @ (Q.T @ KW) - KW * values
        previous = (X, KX)
        X, KX, values = _rayleigh_ritz(np.hstack(basis), np.hstack(images), Q, k)
    return InverseFreeResult(X, values, iteration, passes, float(bound), bool(bound <= tol))


def _rayleigh_ritz(Z: np.ndarray, KZ: np.ndarray, Q: np.ndarray, k: int):
    """The k leading Ritz pairs of (K Q Q^T K, K K) in span Z: (X, K X, values).

    K Z = U S V^T; directions with S below n eps S_max are dependent to working precision
    and dropped. Y = Z V S^(-1) is B-orthonormal with K Y = U, and the projected problem's
    eigenvectors are the left singular vectors L of U^T Q: X = Y L_k, K X = U L_k."""
    left, singular, right_t = scipy.linalg.svd(KZ, full_matrices=False)
    keep = singular > max(KZ.shape) * np.finfo(np.float64).eps * singular[0]
    left, singular, right_t = left[:, keep], singular[keep], right_t[keep]
    ritz, label_singular, _ = scipy.linalg.svd(left.T @ Q, full_matrices=False)
    ritz = ritz[:, :k]
    X = Z @ (right_t.T @ (ritz / singular[:, None]))
    return X, left @ ritz, label_singular[:k] ** 2


def _orthonormal_against(W: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """W's columns made orthonormal and orthogonal to span(basis) (Euclidean; twice
    projected, which is enough in floating point)."""
    ortho = scipy.linalg.qr(basis, mode="economic")[0]
    for _ in range(2):
        W = W - ortho @ (ortho.T @ W)
    return scipy.linalg.qr(W, mode="economic")[0]


def _angle_bound(residual: np.ndarray, gap: float) -> float:
    """Davis-Kahan: sin(largest principal angle) <= ||residual||_2 / gap (pi/2 when the
    bound says nothing)."""
    if gap <= 0:
        return float(np.pi / 2)
    sine = float(np.linalg.norm(residual, 2)) / gap
    return float(np.arcsin(sine)) if sine < 1 else float(np.pi / 2)
