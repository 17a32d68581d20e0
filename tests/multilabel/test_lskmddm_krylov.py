"""Block Krylov solvers: lock-step LSQR equals scipy's LSQR column by column, CG solves SPD
systems, and the stopping bound really bounds the embedding's principal angle."""

import numpy as np
import pytest
import scipy.linalg
from scipy.sparse.linalg import lsqr

from milab_widgets.multilabel.block_krylov import block_cg, block_lsqr


@pytest.fixture(scope="module")
def system():
    rng = np.random.default_rng(3)
    V = np.linalg.qr(rng.normal(size=(80, 80)))[0]
    K = (V * np.geomspace(1e-3, 10, 80)) @ V.T  # SPD, cond 1e4
    B = np.linalg.qr(rng.normal(size=(80, 3)))[0]
    return K, B


@pytest.mark.parametrize("damp", [0.0, 0.3])
def test_lockstep_lsqr_iterates_equal_scipy_lsqr(system, damp):
    K, B = system
    result = block_lsqr(lambda V: K @ V, B, damp=damp, angle_tol=1e-300, max_iter=12)
    for j in range(B.shape[1]):
        expected = lsqr(K, B[:, j], damp=damp, atol=0, btol=0, conlim=0, iter_lim=12)[0]
        np.testing.assert_allclose(result.solution[:, j], expected, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("ridge", [0.0, 0.05])
def test_cg_reaches_the_exact_solution(system, ridge):
    K, B = system
    exact = np.linalg.solve(K @ K + ridge * np.eye(len(K)), K @ B)
    result = block_cg(lambda V: K @ V, B, ridge=ridge, angle_tol=1e-8, max_iter=2000)
    assert result.converged
    np.testing.assert_allclose(K @ result.solution, K @ exact, atol=1e-8)


# Iteration counts where the bound is informative (below pi/2, not yet ~0) on this system:
# LSQR without damping works on cond(K)^2 = 1e8, so it needs far more iterations.
@pytest.mark.parametrize("solver, ridge, counts", [(block_lsqr, 0.0, (150, 200, 300)),
                                                   (block_lsqr, 0.05, (20, 30, 40)),
                                                   (block_cg, 0.0, (60, 80, 100)),
                                                   (block_cg, 0.05, (20, 30, 40))])
def test_angle_bound_is_an_upper_bound(system, solver, ridge, counts):
    K, B = system
    exact = K @ np.linalg.solve(K @ K + ridge * np.eye(len(K)), K @ B)
    extra = {"damp": np.sqrt(ridge)} if solver is block_lsqr else {"ridge": ridge}
    for iterations in counts:
        result = solver(lambda V: K @ V, B, angle_tol=1e-300, max_iter=iterations, **extra)
        assert result.angle_bound < np.pi / 2  # informative: it could fail
        actual = np.max(scipy.linalg.subspace_angles(K @ result.solution, exact))
        assert actual <= result.angle_bound + 1e-9
