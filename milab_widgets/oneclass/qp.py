"""Non-negative quadratic programme: min 1/2 w^T H w - b^T w subject to w >= 0.

Solved exactly by the active-set method of Lawson & Hanson (1974, ch. 23), written on H and
b directly as Bro & De Jong (1997) do, so H need only be symmetric positive semi-definite
(no factor A with H = A^T A is formed). The passive set P holds the free variables; each
outer step frees the variable with the largest negative gradient b - H w, each inner step
solves H_PP z_P = b_P and, when some z_i <= 0, moves from w towards z until the first
variable reaches zero and fixes it there. KKT conditions at the end: w >= 0,
b - H w <= tol where w = 0, and b - H w = 0 (to rounding) where w > 0.

A warm start (``start``, e.g. the previous half-quadratic step's w) seeds P with its
positive entries, shrunk until the optimum on P is positive; the outer loop then proceeds
as usual, so the result is the same optimum with far fewer passive-set solves.
"""

from __future__ import annotations

import numpy as np

__all__ = ["nonnegative_qp"]


def nonnegative_qp(H, b, tol: float = 1e-12, start=None) -> np.ndarray:
    """argmin_{w >= 0} 1/2 w^T H w - b^T w for a symmetric PSD ``H``.

    ``tol`` is relative to the problem's scale (the largest |b_i| or |H_ij|); ``start``
    (optional, length of b) seeds the free set. A singular H_PP is solved by least squares
    (the least-norm optimum on P).
    """
    H = np.asarray(H, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    size = len(b)
    threshold = tol * max(1.0, np.abs(b).max(initial=0.0), np.abs(H).max(initial=0.0))
    w, passive = _warm_start(H, b, start)
    for _ in range(3 * size + 1):
        slope = b - H @ w
        candidates = np.flatnonzero(~passive & (slope > threshold))
        if len(candidates) == 0:
            break
        passive[candidates[np.argmax(slope[candidates])]] = True
        w, passive = _solve_passive(H, b, w, passive)
    return w


def _warm_start(H, b, start):
    """(w, P): the optimum on the largest subset of start's support where it is positive."""
    if start is None:
        return np.zeros(len(b)), np.zeros(len(b), dtype=bool)
    passive = np.asarray(start) > 0
    while passive.any():
        z = _optimum_on(H, b, passive)
        if (z[passive] > 0).all():
            return z, passive
        passive &= z > 0
    return np.zeros(len(b)), passive


def _optimum_on(H, b, passive) -> np.ndarray:
    """z with z_P solving H_PP z_P = b_P and 0 elsewhere."""
    z = np.zeros(len(b))
    index = np.flatnonzero(passive)
    block = H[np.ix_(index, index)]
    try:
        z[index] = np.linalg.solve(block, b[index])
    except np.linalg.LinAlgError:
        z[index] = np.linalg.lstsq(block, b[index], rcond=None)[0]
    return z


def _solve_passive(H, b, w, passive):
    """Inner loop: the unconstrained optimum on P, stepping back while it leaves w >= 0."""
    for _ in range(len(b) + 1):
        z = _optimum_on(H, b, passive)
        blocked = passive & (z <= 0)
        if not blocked.any():
            return z, passive
        gap = np.maximum(w[blocked] - z[blocked], np.finfo(float).tiny)  # w = z = 0: no step
        step = np.min(w[blocked] / gap)
        w = w + step * (z - w)
        passive = passive & (w > 0)
        w[~passive] = 0.0
    return w, passive
