"""OLSkMDDM: least squares on the Stiefel manifold,  min ||K P - B||_F^2  s.t.  P^T P = I.

The paper solves this "unbalanced Procrustes" problem with a feasible method for
orthogonality constraints (its ref. [21]); we use Wen & Yin's (Math. Program. 142, 2013)
curvilinear search along the Cayley transform, with Barzilai-Borwein step sizes and a
*monotone* Armijo backtracking (so the objective never increases):

    G = 2 K (K P - B)                    Euclidean gradient
    A = G P^T - P G^T                    skew-symmetric; the Riemannian gradient is A P
    P(tau) = (I + tau/2 A)^(-1) (I - tau/2 A) P                    stays on the manifold
           = P - tau U (I + tau/2 V^T U)^(-1) V^T P,   U = [G, P], V = [P, -G]   (2k x 2k solve)
    d/dtau f(P(tau)) at 0 = -||A||_F^2 / 2.

K P(tau) = K P - tau [K G, K P] (I + tau/2 V^T U)^(-1) V^T P, so a trial step costs no
kernel pass: one iteration costs two passes (K R for G, then K G), whatever the number of
backtracking steps. K P is recomputed exactly every ``REFRESH`` iterations so rounding does
not accumulate. Start: the polar factor of K B (maximiser of tr(P^T K B)).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["StiefelResult", "stiefel_least_squares"]

ARMIJO = 1e-4
REFRESH = 25
MAX_BACKTRACKS = 40
#: Iterations over which the relative decrease is measured for the stopping test.
WINDOW = 10


@dataclass
class StiefelResult:
    """``solution`` (n x k, orthonormal columns), ``objective_history`` (f per accepted
    iterate, first = start), ``iterations``, ``passes`` and ``converged``."""

    solution: np.ndarray
    objective_history: list = field(default_factory=list)
    iterations: int = 0
    passes: int = 0
    converged: bool = False


def stiefel_least_squares(matmat, B: np.ndarray, tol: float = 1e-3,
                          max_iter: int = 500) -> StiefelResult:
    """Minimise ||K P - B||_F^2 over P^T P = I; stop when ``WINDOW`` iterations lower f by
    less than ``tol`` f (relative), when the Riemannian gradient vanishes or no Armijo step
    lowers f (rounding level), or after ``max_iter`` iterations."""
    P = _polar(matmat(B))
    KP = matmat(P)
    result = StiefelResult(P, [_objective(KP, B)], passes=2)
    history = result.objective_history
    previous, tau = None, None
    for iteration in range(1, max_iter + 1):
        G = 2.0 * matmat(KP - B)
        KG = matmat(G)
        result.passes += 2
        gradient = G - P @ (G.T @ P)  # A P
        norm2 = float(np.sum(G * G) - np.trace((G.T @ P) @ (G.T @ P)))  # ||A||_F^2 / 2
        tau = _bb_step(P, gradient, previous, tau, history[-1] / max(norm2, 1e-300))
        step = None if norm2 <= 0 else _armijo(P, KP, G, KG, B, tau, norm2, history[-1])
        if step is None:
            result.converged = True
            break
        tau, P_next, KP = step
        previous, P = (P, gradient), P_next
        if iteration % REFRESH == 0:
            KP = matmat(P)
            result.passes += 1
        history.append(_objective(KP, B))
        result.iterations = iteration
        if len(history) > WINDOW and history[-WINDOW - 1] - history[-1] <= tol * history[-1]:
            result.converged = True
            break
    result.solution = P
    return result


def _armijo(P, KP, G, KG, B, tau, norm2, value):
    """Backtrack tau until f(P(tau)) <= f - ARMIJO tau ||A||^2 / 2; (tau, P, K P) or None."""
    U, V = np.hstack([G, P]), np.hstack([P, -G])
    KU = np.hstack([KG, KP])
    VU, VP = V.T @ U, V.T @ P
    identity = np.eye(len(VU))
    for _ in range(MAX_BACKTRACKS):
        inner = np.linalg.solve(identity + 0.5 * tau * VU, VP)
        KP_trial = KP - tau * (KU @ inner)
        trial = _objective(KP_trial, B)
        if trial <= value - ARMIJO * tau * norm2:
            return tau, P - tau * (U @ inner), KP_trial
        tau *= 0.5
    return None


def _bb_step(P, gradient, previous, tau, first) -> float:
    """Barzilai-Borwein step |<S, S>| / |<S, Z>| (S = P - P_prev, Z = grad - grad_prev);
    the first step is ``first`` / 10 (f / (||A||^2 / 2): a tenth of f by the linear model)."""
    if previous is None:
        return 0.1 * first
    S, Z = P - previous[0], gradient - previous[1]
    sz = abs(float(np.sum(S * Z)))
    return float(np.sum(S * S)) / sz if sz > 0 else 2.0 * tau


def _objective(KP, B) -> float:
    return float(np.sum((KP - B) ** 2))


def _polar(M: np.ndarray) -> np.ndarray:
    """The orthonormal polar factor U V^T of M = U S V^T."""
    left, _, right = np.linalg.svd(M, full_matrices=False)
    return left @ right
