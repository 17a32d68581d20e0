"""SMO working-set solver for the SVDD dual on the RBF kernel (Tax & Duin 2004).

The SVDD dual with K(x, y) = exp(-gamma ||x - y||^2), hence K(x, x) = 1, is

    min_a  a^T K a - sum_i a_i K_ii   s.t.  sum_i a_i = 1,  0 <= a_i <= C_i,

and since sum_i a_i K_ii = 1 is constant it is min 1/2 a^T K a. The solver works in the
scaled variables b = a / C (as LIBSVM's one-class solver does, Chang & Lin 2011): bounds
0 <= b_i <= u_i = C_i / C, sum_i b_i = 1 / C, gradient G = K b. Its optimality gap is

    m(b) - M(b) = max_{t: b_t < u_t} (-G_t) + max_{t: b_t > 0} G_t,

and it stops when the gap falls below ``tol``: the same quantity in the same units as
scikit-learn's OneClassSVM(tol=...), so both stop at the same accuracy.

Each iteration moves mass from j to i (b_i += t, b_j -= t). i maximises -G over the
variables that can grow; j is chosen by the second-order rule (Fan, Chen & Lin 2005, WSS 2):
among the variables that can shrink with G_j > G_i, the one whose exact line search gains
most, b^2 / a with b = G_j - G_i and a = K_ii + K_jj - 2 K_ij = 2 - 2 K_ij.

Kernel rows are computed on demand (n * d flops and n exponentials each) and kept in a
row cache with first-in-first-out replacement; a cache with one slot per sample holds the
whole kernel matrix, and passing a precomputed matrix as a full cache skips computing.
"""

import numpy as np
from numba import njit

__all__ = ["fill_rbf_row", "cached_row", "feasible_start", "smo_svdd"]

#: Curvature used when two samples coincide (K_ij = 1 gives a = 0), as in LIBSVM.
TAU = 1e-12


@njit(cache=True)
def fill_rbf_row(X, sq_norms, gamma, i, out):
    """out[j] = exp(-gamma ||X_i - X_j||^2) for every row j, via ||a||^2 + ||b||^2 - 2 a.b."""
    n, d = X.shape
    for j in range(n):
        dot = 0.0
        for k in range(d):
            dot += X[i, k] * X[j, k]
        sq = sq_norms[i] + sq_norms[j] - 2.0 * dot
        out[j] = np.exp(-gamma * max(sq, 0.0))
    out[i] = 1.0


@njit(cache=True)
def cached_row(i, keep, X, sq_norms, gamma, cache, slot_of, owner, clock):
    """Kernel row i from the cache, computing it into the oldest slot when absent.

    ``slot_of[i]`` is row i's slot (-1: not cached), ``owner[s]`` the row in slot s (-1:
    empty), ``clock[0]`` counts slot fills (first in, first out). The slot holding row
    ``keep`` is never reused here, so two rows fetched in turn are both valid.
    """
    slot = slot_of[i]
    if slot >= 0:
        return cache[slot]
    n_slots = cache.shape[0]
    slot = clock[0] % n_slots
    if keep >= 0 and owner[slot] == keep:
        clock[0] += 1
        slot = clock[0] % n_slots
    clock[0] += 1
    if owner[slot] >= 0:
        slot_of[owner[slot]] = -1
    fill_rbf_row(X, sq_norms, gamma, i, cache[slot])
    owner[slot] = i
    slot_of[i] = slot
    return cache[slot]


@njit(cache=True)
def feasible_start(upper, total):
    """The first samples filled to their bounds, in order, until the sum reaches ``total``."""
    beta = np.zeros(len(upper))
    remaining = total
    for i in range(len(upper)):
        if remaining <= 0.0:
            break
        beta[i] = min(upper[i], remaining)
        remaining -= beta[i]
    return beta


@njit(cache=True)
def smo_svdd(X, sq_norms, gamma, upper, total, tol, max_iter, cache, slot_of, owner):
    """Solve min 1/2 b^T K b s.t. 0 <= b <= upper, sum b = total (K: RBF of X's rows).

    Parameters are arrays prepared by the caller: ``sq_norms`` = row norms of X squared,
    ``cache`` (n_slots >= 2, n) with ``slot_of`` (n,) and ``owner`` (n_slots,) describing it
    (see :func:`cached_row`). Returns (b, G = K b, iterations, converged).
    """
    n = len(upper)
    clock = np.zeros(1, dtype=np.int64)
    beta = feasible_start(upper, total)
    grad = np.zeros(n)
    for i in range(n):
        if beta[i] > 0.0:
            row = cached_row(i, -1, X, sq_norms, gamma, cache, slot_of, owner, clock)
            for k in range(n):
                grad[k] += beta[i] * row[k]
    for iteration in range(max_iter):
        i = -1
        g_up = -np.inf
        for t in range(n):
            if beta[t] < upper[t] and -grad[t] >= g_up:
                g_up = -grad[t]
                i = t
        if i < 0:
            return beta, grad, iteration, True
        row_i = cached_row(i, -1, X, sq_norms, gamma, cache, slot_of, owner, clock)
        j = -1
        g_low = -np.inf
        best_gain = 0.0
        for t in range(n):
            if beta[t] > 0.0:
                g_low = max(g_low, grad[t])
                diff = g_up + grad[t]
                if diff > 0.0:
                    curvature = max(2.0 - 2.0 * row_i[t], TAU)
                    gain = diff * diff / curvature
                    if gain >= best_gain:
                        best_gain = gain
                        j = t
        if g_up + g_low < tol or j < 0:
            return beta, grad, iteration, True
        row_j = cached_row(j, i, X, sq_norms, gamma, cache, slot_of, owner, clock)
        step = (grad[j] - grad[i]) / max(2.0 - 2.0 * row_i[j], TAU)
        step = min(step, upper[i] - beta[i], beta[j])
        beta[i] = upper[i] if step >= upper[i] - beta[i] else beta[i] + step
        beta[j] = 0.0 if step >= beta[j] else beta[j] - step
        for k in range(n):
            grad[k] += step * (row_i[k] - row_j[k])
    return beta, grad, max_iter, False
