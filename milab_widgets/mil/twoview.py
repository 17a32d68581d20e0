"""Semi-supervised two-view multi-instance clustering by kernel concept factorisation (the TwoViewMIC paper).

Cai & Liu, "A semi-supervised two-view multiple-instance clustering model", Journal of
Guangdong University of Technology 38(3):22-28, 2021 (restated in papers/TwoViewMIC.md).
m bags seen in views v = 1..V (the paper: V = 2), kernel matrices K^v = phi(B^v)^T phi(B^v),
c clusters, W^v (m x c) >= 0, H (m x c) >= 0. The objective (the paper's eqs. 8-9) is

    O = sum_v [tr K^v - 2 tr((W^v)^T K^v H) + tr((W^v)^T K^v W^v H^T H)]     reconstruction
        + alpha (sum_v ||(W^v)^T||_{2,1} + ||H||_{2,1})                      sparsity
        + beta ||P o (H H^T - Q)||_F^2                                        label similarity

with ||(W^v)^T||_{2,1} the sum of the norms of W^v's columns, ||H||_{2,1} the sum of the
norms of H's rows, Q_ij = 1 if i = j or bags i and j are labelled alike, P_ij = 1 if i = j or
both are labelled (eqs. 6-7; the paper labels the first l bags, here any subset).
Clusters = argmax of H's rows. ``unsupervised=True`` gives unKer: P = Q = I.

Gradient (re-derived; the paper's eq. 12 carries a cancelling pair of 8 beta terms):

    dO/dW^v = 2 (N^v_+ - N^v_-),  N^v_+ = K^v W^v H^T H + alpha W^v D_1^v,  N^v_- = K^v H
    dO/dH   = 2 (A + 2 B - Y),    A = sum_v H (W^v)^T K^v W^v + alpha D_2 H,
                                  B = beta (P o H H^T) H,  Y = sum_v K^v W^v + 2 beta (P o Q) H

with D_1^v = diag(1 / (2 ||column_k of W^v||)) (c x c, on the right) and D_2 = diag(1 /
(2 ||row_i of H||)) (m x m, on the left). Multiplicative updates (the paper's eqs. 16-17):

    W^v <- W^v o N^v_- / N^v_+
    H   <- H o t,  "paper":    t = Y / (A + 2 B)
                   "monotone": t solves 2 B t^3 + A t = Y  (entrywise, t > 0)

Both rules have the same fixed points (t = 1 iff Y = A + 2 B: the KKT conditions, eq. 15).
The W rule never increases O (Lee & Seung's auxiliary function, with Nie et al.'s bound
||w|| <= ||w||^2 / (2 ||w'||) + ||w'|| / 2 for the l2,1 term; K^v >= 0 entrywise). For H the
quartic term beta ||P o H H^T||^2 needs more: bounding each of its degree-4 monomials by the
arithmetic-geometric mean inequality, the convex term -2 beta tr(H^T (P o Q) H) by its tangent
(P o Q is positive semi-definite) and the rest as for W gives an auxiliary function whose exact
minimiser is the "monotone" rule, so O never increases under it. The "paper" rule minimises
it only when B is negligible; with beta >= 1 it can increase O (tested, and shown in the
notebook), so "monotone" is the default.

P and Q are never formed: with L the labelled bags and Y_L their one-hot labels,
(P o Q) H = Y_L (Y_L^T H_L) on L and H elsewhere; (P o H H^T) H = H_L (H_L^T H_L) on L and
||h_i||^2 h_i elsewhere; each update costs two m x m x c products per view (BLAS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils import check_random_state

from milab_widgets._sklearn_private import Interval, StrOptions, fit_context
from milab_widgets.core.parallel import within_free_cores
from milab_widgets.core.symmetry import symmetric_to_rounding
from milab_widgets.exceptions import InputError
from milab_widgets.mil.kernels import (
    COVARIANCE_TYPES,
    KERNELS,
    bag_kernel_factors,
    bag_kernel_matrices,
)

__all__ = ["KernelOperator", "LabelStructure", "TwoViewMIClustering", "objective",
           "objective_gradient"]

UPDATES = ("monotone", "paper")
#: Floor of a norm inside D_1, D_2 (the l2,1 term's gradient at a zero row/column).
NORM_FLOOR = 1e-12
_TINY = np.finfo(np.float64).tiny


@dataclass(frozen=True)
class LabelStructure:
    """P and Q of the paper's eqs. 6-7, held as the labelled bags and their one-hot labels.

    ``labelled`` are indices into the m bags, ``onehot`` (l x n_labels) their labels.
    No labelled bag means P = Q = I (the unsupervised unKer).
    """

    n_bags: int
    labelled: np.ndarray
    onehot: np.ndarray

    @classmethod
    def from_partial(cls, y_partial, n_bags: int) -> LabelStructure:
        """From labels with -1 for every unlabelled bag (any other integer is a label)."""
        y = np.asarray(y_partial)
        if y.shape != (n_bags,):
            raise InputError(
                f"y_partial has shape {y.shape}; pass one entry per bag ({n_bags}), "
                "-1 for the unlabelled ones."
            )
        if not np.issubdtype(y.dtype, np.integer):
            raise InputError("y_partial must hold integer labels (-1 = unlabelled).")
        labelled = np.flatnonzero(y != -1)
        _, codes = np.unique(y[labelled], return_inverse=True)
        return cls(n_bags, labelled, np.eye(codes.max() + 1 if len(codes) else 0)[codes])

    @classmethod
    def unsupervised(cls, n_bags: int) -> LabelStructure:
        return cls(n_bags, np.zeros(0, dtype=np.int64), np.zeros((0, 0)))

    def dense(self) -> tuple[np.ndarray, np.ndarray]:
        """(P, Q) as m x m matrices, exactly as eqs. 6-7 define them (for checks and demos)."""
        p, q = np.eye(self.n_bags), np.eye(self.n_bags)
        block = np.ix_(self.labelled, self.labelled)
        p[block] = 1.0
        q[block] = self.onehot @ self.onehot.T  # 1 on the diagonal too: one-hot rows
        return p, q

    def similarity_product(self, H: np.ndarray) -> np.ndarray:
        """(P o Q) H."""
        out = H.copy()
        out[self.labelled] = self.onehot @ (self.onehot.T @ H[self.labelled])
        return out

    def gram_product(self, H: np.ndarray) -> np.ndarray:
        """(P o H H^T) H."""
        out = H * np.einsum("ij,ij->i", H, H)[:, None]
        H_l = H[self.labelled]
        out[self.labelled] = H_l @ (H_l.T @ H_l)
        return out

    def penalty(self, H: np.ndarray) -> float:
        """||P o (H H^T - Q)||_F^2
        = ||H_L H_L^T - Y_L Y_L^T||^2 + sum_{i not in L} (||h_i||^2 - 1)^2."""
        unlabelled = np.ones(self.n_bags, dtype=bool)
        unlabelled[self.labelled] = False
        squares = np.einsum("ij,ij->i", H[unlabelled], H[unlabelled])
        H_l = H[self.labelled]
        labelled = (np.sum((H_l.T @ H_l) ** 2) - 2 * np.sum((self.onehot.T @ H_l) ** 2)
                    + np.sum((self.onehot.T @ self.onehot) ** 2))
        return float(labelled + np.sum((squares - 1.0) ** 2))


class KernelOperator:
    """One view's kernel as the updates use it: K @ X and tr K, from K itself or from a
    non-negative factor F with K = F F^T (then K @ X = F (F^T X), O(m r c), no m x m array)."""

    def __init__(self, matrix: np.ndarray | None = None, factor: np.ndarray | None = None):
        self.matrix, self.factor = matrix, factor
        self.trace = float(np.trace(matrix)) if factor is None else float(np.sum(factor**2))
        self.n_bags = len(matrix if factor is None else factor)

    def __matmul__(self, X: np.ndarray) -> np.ndarray:
        return self.matrix @ X if self.factor is None else self.factor @ (self.factor.T @ X)


def objective(kernels: Sequence[np.ndarray], Ws: Sequence[np.ndarray], H: np.ndarray,
              alpha: float, beta: float, labels: LabelStructure) -> float:
    """O(W^1..W^V, H) of the paper's eq. 9 (module docstring), for m x m kernel matrices."""
    operators = [KernelOperator(np.asarray(K)) for K in kernels]
    products = [K @ W for K, W in zip(operators, Ws, strict=True)]
    return _objective_from_products(operators, products, Ws, H, alpha, beta, labels)


def objective_gradient(kernels, Ws, H, alpha: float, beta: float, labels: LabelStructure):
    """(list of dO/dW^v, dO/dH) from the very terms the multiplicative updates divide.

    dO/dW^v = 2 (N^v_+ - N^v_-) and dO/dH = 2 (A + 2 B - Y) (module docstring); at a zero
    row or column the l2,1 term uses the floored norm.
    """
    KWs = [K @ W for K, W in zip(kernels, Ws, strict=True)]
    HtH = H.T @ H
    d_Ws = [2 * (_w_denominator(KW, W, HtH, alpha) - K @ H)
            for K, KW, W in zip(kernels, KWs, Ws, strict=True)]
    Y, A, B = _h_terms(KWs, Ws, H, alpha, beta, labels)
    return d_Ws, 2 * (A + 2 * B - Y)


def _objective_from_products(kernels, KWs, Ws, H, alpha, beta, labels) -> float:
    """O from the products K^v W^v the updates already hold (no extra kernel product)."""
    HtH = H.T @ H
    reconstruction = sum(K.trace - 2 * np.sum(KW * H) + np.sum((W.T @ KW) * HtH)
                         for K, KW, W in zip(kernels, KWs, Ws, strict=True))
    sparsity = sum(np.linalg.norm(W, axis=0).sum() for W in Ws) + np.linalg.norm(H, axis=1).sum()
    return float(reconstruction + alpha * sparsity + beta * labels.penalty(H))


def _w_denominator(KW, W, HtH, alpha) -> np.ndarray:
    """N_+ = K W H^T H + alpha W D_1."""
    return KW @ HtH + alpha * W / (2 * np.maximum(np.linalg.norm(W, axis=0), NORM_FLOOR))


def _h_terms(KWs, Ws, H, alpha, beta, labels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Y, A, B) of the H update."""
    Y = sum(KWs) + 2 * beta * labels.similarity_product(H)
    row_norms = np.maximum(np.linalg.norm(H, axis=1, keepdims=True), NORM_FLOOR)
    A = H @ sum(W.T @ KW for W, KW in zip(Ws, KWs, strict=True)) + alpha * H / (2 * row_norms)
    B = beta * labels.gram_product(H)
    return Y, A, B


def monotone_step(Y: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """The positive root t of 2 B t^3 + A t = Y, entrywise (Y, A, B >= 0).

    Newton's method from t0 = min(Y / A, (Y / 2B)^(1/3)), which is never left of the root;
    the function is increasing and convex for t > 0, so the iterates fall monotonically onto
    the root (t0 is within 2^(1/3) of it: a handful of steps reach machine precision).
    """
    A = np.maximum(A, _TINY)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        t = np.fmin(Y / A, np.cbrt(Y / (2 * B)))  # fmin: Y = B = 0 gives 0, not NaN
    for _ in range(50):
        step = (2 * B * t**3 + A * t - Y) / (6 * B * t**2 + A)
        t = t - step
        if np.all(np.abs(step) <= 1e-15 * t):
            break
    return np.maximum(t, 0.0)


class TwoViewMIClustering(ClusterMixin, BaseEstimator):
    """Semi-supervised two-view multi-instance clustering (Ker1/Ker2; unKer1/unKer2).

    Parameters
    ----------
    n_clusters : int
        c.
    kernel : {"mixture", "minimax", "precomputed", "factored"}, default "mixture"
        Ker1 (mixture-model kernel, applied through its factor), Ker2 (minimax kernel),
        kernel matrices passed to fit, or kernel factors passed to fit
        (see :mod:`milab_widgets.mil.kernels`).
    alpha, beta : float, default 0.01
        Weights of the l2,1 sparsity and the label-similarity terms (the paper's tables).
    update : {"monotone", "paper"}, default "monotone"
        The H rule (module docstring): "paper" is the paper's eq. 17 as corrected.
    unsupervised : bool, default False
        Ignore the labels: P = Q = I (the paper's unKer baselines).
    max_iter : int, default 300
    tol : float, default 1e-6
        Stop when an iteration lowers O by less than ``tol`` times |O|. ``tol=0`` is accepted
        and runs exactly ``max_iter`` iterations (the experiments' fixed-iteration protocol):
        the iteration cap, not the tolerance, always ends the loop.
    n_components, covariance_type : of the mixture-model kernel (default 100, "diag").
    degree : int, default 5
        p of the minimax kernel.
    normalize : bool, default True
        Cosine-normalise the kernels (see :mod:`milab_widgets.mil.kernels`; the paper's literal
        kernels are ``normalize=False``). Ignored for "precomputed".
    random_state : int, RandomState or None
        Seeds the uniform random initial W^v and H (and the mixture's initialisation).
    callback : callable(n_iter, objective) or None
        Called after every iteration (a panel draws the live convergence curve with it).

    Attributes
    ----------
    labels_ : (m,) int array
        argmax of each row of H.
    H_ : (m, c) array;  W_ : list of (m, c) arrays, one per view.
    objective_ : (n_iter_ + 1,) array
        O at the initial point and after every iteration.
    n_iter_ : int
    converged_ : bool
        True when ``tol`` stopped the iterations before ``max_iter``.

    Examples
    --------
    >>> from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
    >>> data = synthetic_two_view_bags(n_clusters=3, bags_per_cluster=20, seed=0)
    >>> y = data.labels.copy(); y[3:] = -1          # a few labelled bags
    >>> model = TwoViewMIClustering(3, kernel="minimax", random_state=0)
    >>> model.fit(data.views("synthetic"), y).labels_.shape
    (60,)

    See Also
    --------
    BAMIC : the single-view bag k-medoids baseline.
    MixtureModelKernel, MinimaxKernel : the kernels of the views.
    clustering_accuracy : scores a clustering against the classes.
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "kernel": [StrOptions({*KERNELS, "precomputed", "factored"})],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "beta": [Interval(Real, 0, None, closed="left")],
        "update": [StrOptions(set(UPDATES))],
        "unsupervised": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        # 0 runs exactly max_iter iterations: the cap, not tol, ends the loop
        "tol": [Interval(Real, 0, None, closed="left")],
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "covariance_type": [StrOptions(set(COVARIANCE_TYPES))],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "normalize": ["boolean"],
        "random_state": ["random_state"],
        "callback": [callable, None],
    }

    def __init__(self, n_clusters: int, kernel: str = "mixture", alpha: float = 0.01,
                 beta: float = 0.01, update: str = "monotone", unsupervised: bool = False,
                 max_iter: int = 300, tol: float = 1e-6, n_components: int = 100,
                 covariance_type: str = "diag", degree: int = 5, normalize: bool = True,
                 random_state=None, callback: Callable[[int, float], None] | None = None):
        self.n_clusters = n_clusters
        self.kernel = kernel
        self.alpha = alpha
        self.beta = beta
        self.update = update
        self.unsupervised = unsupervised
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.degree = degree
        self.normalize = normalize
        self.random_state = random_state
        self.callback = callback

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, views, y_partial=None):
        """Factorise the views' kernels into a shared clustering.

        Parameters
        ----------
        views : list of BagDataset or of ndarray
            BagDatasets over the same objects (two in the paper); with ``kernel="precomputed"``
            their m x m kernel matrices (symmetric, >= 0); with ``kernel="factored"`` non-negative
            m x r factors F^v, K^v = F^v (F^v)^T.
        y_partial : array-like of shape (m,), default=None
            Labels with -1 for unlabelled bags; None (or ``unsupervised=True``) uses no label.

        Returns
        -------
        self : TwoViewMIClustering
            The fitted model.
        """
        kernels = self._kernel_operators(views)
        m = kernels[0].n_bags
        if self.n_clusters > m:
            raise InputError(f"n_clusters={self.n_clusters} exceeds the {m} bags.")
        if y_partial is None or self.unsupervised:
            labels = LabelStructure.unsupervised(m)
        else:
            labels = LabelStructure.from_partial(y_partial, m)
        rng = check_random_state(self.random_state)
        H = rng.uniform(size=(m, self.n_clusters))
        Ws = [rng.uniform(size=(m, self.n_clusters)) / m for _ in kernels]
        self.W_, self.H_, self.objective_, self.converged_ = self._iterate(kernels, Ws, H, labels)
        self.n_iter_ = len(self.objective_) - 1
        self.labels_ = self.H_.argmax(axis=1)
        return self

    def _iterate(self, kernels, Ws, H, labels):
        """Alternate the W^v and H updates, recording O, until ``tol`` or ``max_iter``."""
        alpha, beta = float(self.alpha), float(self.beta)
        KHs = [K @ H for K in kernels]
        KWs = [K @ W for K, W in zip(kernels, Ws, strict=True)]
        history = [_objective_from_products(kernels, KWs, Ws, H, alpha, beta, labels)]
        for n_iter in range(1, self.max_iter + 1):
            HtH = H.T @ H
            for v, K in enumerate(kernels):
                denominator = _w_denominator(KWs[v], Ws[v], HtH, alpha)
                Ws[v] = Ws[v] * KHs[v] / np.maximum(denominator, _TINY)
                KWs[v] = K @ Ws[v]
            Y, A, B = _h_terms(KWs, Ws, H, alpha, beta, labels)
            if self.update == "paper":
                H = H * Y / np.maximum(A + 2 * B, _TINY)
            else:
                H = H * monotone_step(Y, A, B)
            KHs = [K @ H for K in kernels]
            history.append(_objective_from_products(kernels, KWs, Ws, H, alpha, beta, labels))
            if self.callback is not None:
                self.callback(n_iter, history[-1])
            if abs(history[-2] - history[-1]) < self.tol * abs(history[-2]):
                return Ws, H, np.array(history), True
        return Ws, H, np.array(history), False

    def _kernel_operators(self, views) -> list[KernelOperator]:
        if self.kernel == "mixture":
            factors = bag_kernel_factors(
                views, n_components=self.n_components, covariance_type=self.covariance_type,
                normalize=self.normalize, random_state=self.random_state)
            return [KernelOperator(factor=F) for F in factors]
        if self.kernel == "minimax":
            return [KernelOperator(K) for K in bag_kernel_matrices(
                views, "minimax", degree=self.degree, normalize=self.normalize)]
        if not isinstance(views, (list, tuple)) or not views:
            raise InputError(f"with kernel={self.kernel!r}, pass a list of arrays, one per view.")
        checked = [_checked_array(A, v, self.kernel == "precomputed") for v, A in enumerate(views)]
        if len({len(A) for A in checked}) > 1:
            raise InputError(f"the views' arrays have {[len(A) for A in checked]} rows; every "
                             "view must describe the same m objects.")
        if self.kernel == "precomputed":
            return [KernelOperator(K) for K in checked]
        return [KernelOperator(factor=F) for F in checked]


def _checked_array(A, v: int, square: bool) -> np.ndarray:
    """A kernel matrix (square, symmetric) or a factor: finite and >= 0 entrywise."""
    what = "kernel matrix" if square else "kernel factor"
    A = np.asarray(A, dtype=np.float64)
    if A.ndim != 2 or (square and A.shape[0] != A.shape[1]):
        raise InputError(f"{what} {v} has shape {A.shape}; it must be "
                         f"{'square (m x m)' if square else '2-D (m x r)'}.")
    if not np.isfinite(A).all() or (A < 0).any():
        raise InputError(
            f"{what} {v} must be finite and >= 0 entrywise (the multiplicative updates need "
            "non-negative kernels; the mixture and minimax kernels are)."
        )
    if square and not symmetric_to_rounding(A):
        raise InputError(f"kernel matrix {v} is not symmetric; pass K = phi^T phi.")
    return A
