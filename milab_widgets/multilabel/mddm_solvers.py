"""Solvers of kernel MDDM's generalised eigenproblem and of its least-squares form.

kMDDM (../../papers/LSkMDDM.md; Zhang & Zhou's MDDM in feature space) finds coefficient
vectors p (w = Phi p) maximising the HSIC term with the uncorrelation constraint:

    K Q Q^T K p = lambda K K p,     p^T K K p = 1,     Q = H Y  (H = I - 11^T / n).

* Theorem 1: if Q Q^T b = lambda b and K p = b, then p solves the generalised problem with
  the same lambda. So kMDDM = (1) the eigenvectors B of Q Q^T, (2) the systems K P = B.
* Lemma 1: if Q^T Q v = s v, ||v|| = 1, then u = Q v / sqrt(s) is a unit eigenvector of
  Q Q^T with eigenvalue s: the n x n eigenproblem costs O(n c^2 + c^3).

Every solver here takes the kernel as an operator (``matmat``; see ``kernel_operators``)
or, for the dense ones, the matrix, and returns the n x k coefficient block P:
:func:`solve_eig` (dense reference), :func:`solve_lobpcg` (inversion-free iterative
eigen-solver), :func:`solve_direct` (Theorem 1 with a dense or low-rank factorisation).
The iterative least-squares solvers are in ``block_krylov``, the orthogonal one in
``stiefel``.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from scipy.sparse.linalg import LinearOperator, lobpcg
from sklearn.utils.extmath import svd_flip

from milab_widgets.exceptions import InputError

__all__ = ["label_eigenvectors", "solve_direct", "solve_eig", "solve_lobpcg", "solve_low_rank"]

#: Eigenvalues of K below this fraction of the largest count as zero (``solve_low_rank``).
RANK_RTOL = 1e-10
#: Singular values of a label matrix below this fraction of the largest count as zero.
LABEL_RANK_RTOL = float(np.sqrt(np.finfo(np.float64).eps))


def label_eigenvectors(Q: np.ndarray, n_components: int | None = None):
    """Lemma 1 by an SVD: the top eigenpairs (s, B) of Q Q^T without forming an n x n matrix.

    The LSkMDDM paper, Lemma 1 (papers/LSkMDDM.md): if Q^T Q v = s v, ||v|| = 1, then u = Q v / sqrt(s)
    is a unit eigenvector of Q Q^T with eigenvalue s. With the thin SVD Q = U diag(sigma) V^T
    this is u_j = Q v_j / sigma_j = U[:, j] and s_j = sigma_j^2, so one SVD of the n x c Q
    (O(n c^2)) gives both, without forming Q^T Q (which squares the condition number).

    Rank tolerance: sigma_j > sqrt(eps) sigma_1 (:data:`LABEL_RANK_RTOL`), i.e. eigenvalues
    s_j > eps s_1: smaller ones are zero to working precision as eigenvalues of Q Q^T, and
    the tolerance stays above the rounding of Q itself (sums over n rows, e.g. X^T H Y, err
    by ~n eps). Only those directions carry label information (H Y has rank c - 1 when every
    instance has exactly one label, less with duplicated labels).

    Used for kMDDM's targets (Q = H Y), KCCA's whitened targets (Q = Y: U spans
    Y (Y^T Y)^(-1/2)) and MDDM's projection (Q = X^T H Y, S = Q Q^T).

    Signs: the largest entry of each v_j is positive, so B does not depend on the order of
    Q's rows. Returns s (k,) descending and B (n x k, orthonormal columns): k is
    ``n_components``, or the rank when None; ``n_components`` outside [1, rank] is an
    InputError.
    """
    left, singular, right = scipy.linalg.svd(Q, full_matrices=False)
    left, _ = svd_flip(left, right, u_based_decision=False)
    rank = int(np.sum(singular > LABEL_RANK_RTOL * singular[0])) if singular.size else 0
    if n_components is not None and not 1 <= n_components <= rank:
        raise InputError(
            f"n_components={n_components} but the label matrix has rank {rank}: only {rank} "
            f"directions carry label information; use n_components in [1, {rank}]."
        )
    k = rank if n_components is None else int(n_components)
    return singular[:k] ** 2, left[:, :k]


def solve_eig(K: np.ndarray, Q: np.ndarray, k: int, rcond: float | None = None):
    """kMDDM by a dense eigen-decomposition (the reference, O(n^3)).

    With K = U diag(l) U^T (eigenvalues below ``rcond`` l_max dropped; default n eps) and
    p = U diag(l)^(-1) w, the pencil becomes  (U^T Q)(U^T Q)^T w = lambda w,  w^T w = 1:
    the w are the left singular vectors of the r x c matrix U^T Q and lambda their squared
    singular values. This solves the generalised problem densely (the simultaneous
    diagonalisation of the pencil) and, unlike ``scipy.linalg.eigh(A, K K)``, stays defined
    on the range of a numerically singular K. Returns (P (n x k), lambda (k,)).
    """
    rcond = len(K) * np.finfo(np.float64).eps if rcond is None else rcond
    values, vectors = scipy.linalg.eigh(K, driver="evd")
    keep = values > rcond * values[-1]
    values, vectors = values[keep], vectors[:, keep]
    left, singular, _ = scipy.linalg.svd(vectors.T @ Q, full_matrices=False)
    return vectors @ (left[:, :k] / values[:, None]), singular[:k] ** 2


def solve_lobpcg(matmat, Q: np.ndarray, B: np.ndarray, tol: float, max_iter: int):
    """kMDDM-ifp: the pencil (K Q Q^T K, K K) by LOBPCG (Knyazev 2001), inversion-free.

    Only products with K are used: A V = K Q Q^T K V, B V = K K V (four kernel passes per
    iteration). The start block is Lemma 1's B (a cheap, label-informed guess). LOBPCG
    needs K K positive definite and well conditioned; on Gaussian kernels cond(K K) is
    ~1e10 or worse, so it often stalls before ``tol``: the caller reports the accuracy it
    reached. Returns (P (n x k) with p^T K K p = 1, lambda (k,), iterations, converged).
    """
    n = B.shape[0]
    pencil_a = LinearOperator((n, n), matvec=lambda v: matmat(Q @ (Q.T @ matmat(v))),
                              matmat=lambda V: matmat(Q @ (Q.T @ matmat(V))), dtype=np.float64)
    pencil_b = LinearOperator((n, n), matvec=lambda v: matmat(matmat(v)),
                              matmat=lambda V: matmat(matmat(V)), dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "did not reach the tolerance"
        values, P, history = lobpcg(pencil_a, B.copy(), B=pencil_b, largest=True, tol=tol,
                                    maxiter=max_iter, retResidualNormsHistory=True)
    order = np.argsort(values)[::-1]
    converged = bool(np.max(history[-1]) <= tol) if history else False
    return P[:, order], values[order], len(history), converged


def solve_direct(K: np.ndarray, B: np.ndarray, ridge: float = 0.0) -> np.ndarray:
    """Theorem 1 with a dense Cholesky factorisation instead of LSQR.

    ridge = 0: K P = B (K positive definite once duplicate points are merged), n^3 / 3 flops.
    ridge > 0: the rLSkMDDM closed form P = (K^T K + ridge I)^(-1) K^T B, with K^T K formed by
    a symmetric rank-k update (n^3 flops) and a Cholesky factorisation.
    """
    try:
        if ridge == 0:
            return scipy.linalg.cho_solve(scipy.linalg.cho_factor(K), B)
        normal = scipy.linalg.blas.dsyrk(1.0, K, trans=1)  # upper triangle of K^T K
        normal[np.diag_indices_from(normal)] += ridge
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(normal, lower=False), K @ B)
    except np.linalg.LinAlgError as error:
        raise InputError(
            "the kernel matrix is numerically singular (near-duplicate training points), so "
            "K p = b has no stable solution; use ridge > 0 (rLSkMDDM) or solver='eig', which "
            "works on the range of K."
        ) from error


def solve_low_rank(factor: np.ndarray, B: np.ndarray, ridge: float = 0.0) -> np.ndarray:
    """Exact (ridge) least-squares solution for the low-rank operator K = F F^T in O(n r^2).

    With the thin SVD F = U diag(s) V^T, K = U diag(s^2) U^T, and
    argmin ||K P - B||^2 + ridge ||P||^2 (minimum norm) = U diag(g(s^2)) U^T B with
    g(l) = l / (l^2 + ridge) (g(l) = 1 / l on l > RANK_RTOL l_max when ridge = 0).
    """
    left, singular, _ = scipy.linalg.svd(factor, full_matrices=False)
    values = singular**2
    if ridge > 0:
        gain = values / (values**2 + ridge)
    else:
        kept = values > RANK_RTOL * values[0]
        gain = np.divide(1.0, values, out=np.zeros_like(values), where=kept)
    return left @ (gain[:, None] * (left.T @ B))
