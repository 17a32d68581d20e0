"""`KernelMDDM`: kernel multi-label dimensionality reduction via dependence maximisation,
solved as a generalised eigenproblem or as least squares (the LSkMDDM paper, LSkMDDM).

kMDDM (Zhang & Zhou 2010, in feature space) projects x to K(x, X_train) P, the coefficients
P (n x k) maximising the HSIC term tr(P^T K H Y Y^T H K P) under P^T K K P = I:

    K Q Q^T K p = lambda K K p,     Q = H Y,  H = I - 11^T / n.

The paper's Theorem 1 and Lemma 1 (see :mod:`~milab_widgets.multilabel.mddm_solvers`) turn
this into the c x c eigenproblem of Q^T Q and the least-squares problems K p = b. Solvers:

=============  ==========================================================================
"eig"          kMDDM: the pencil solved densely (eigen-decomposition of K), O(n^3).
"ifp"          kMDDM-ifp: the paper's inverse-free Krylov method on the pencil (Golub & Ye
               2002, block form), kernel products only; stopped on the same
               embedding-angle bound as "lsqr".
"lobpcg"       LOBPCG on the pencil, inversion-free (kernel products only).
"lsqr"         LSkMDDM: Lemma 1, then block LSQR on K P = B; with ``ridge = eta`` rLSkMDDM,
               min ||K P - B||^2 + eta ||P||^2 (LSQR with damp = sqrt(eta)).
"direct"       Theorem 1 with a Cholesky factorisation instead of LSQR (with ``ridge``: the
               closed form (K^T K + eta I)^(-1) K^T B).
"orthogonal"   OLSkMDDM: min ||K P - B||^2 s.t. P^T P = I on the Stiefel manifold.
=============  ==========================================================================

**Duplicate training points** (the Yahoo sets hold empty documents, for instance) make K
singular. They are merged exactly: with S the n x u indicator of the distinct points, M their
multiplicities and K~ the distinct points' kernel, K = S K~ S^T, and substituting
p = S M^(-1/2) y turns the pencil into the same pencil for K' = M^(1/2) K~ M^(1/2) and
Q' = M^(-1/2) S^T Q, while p^T p = y^T y and ||K p - b|| (b in range S) carry over. So every
solver works on the u distinct points, K' is positive definite, and ``components_`` is
expanded back (equal shares within a group: the minimum-norm coefficients).

**Sparse X** (CSR, e.g. term frequencies) is never densified: duplicates are found from the
rows' stored entries, and the kernel's squared distances come from sparse products
(scikit-learn's ``euclidean_distances``); ``support_`` is then CSR too.

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> X, Y = rng.normal(size=(60, 5)), (rng.random((60, 3)) < 0.4).astype(int)
>>> model = KernelMDDM(solver="direct").fit(X, Y)
>>> model.components_.shape, model.transform(X[:4]).shape
((60, 3), (4, 3))
"""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.metrics.pairwise import euclidean_distances

from milab_widgets._sklearn_private import Interval, StrOptions, fit_context
from milab_widgets.core.parallel import within_free_cores
from milab_widgets.data.arrays import check_features
from milab_widgets.exceptions import InputError
from milab_widgets.multilabel.block_krylov import block_cg, block_lsqr
from milab_widgets.multilabel.inverse_free import solve_inverse_free
from milab_widgets.multilabel.kernel_operators import (
    MEDIAN_MAX_POINTS,
    DenseKernel,
    NystroemKernel,
    gaussian_kernel,
    median_distance,
    median_from_squared,
)
from milab_widgets.multilabel.mddm_solvers import (
    label_eigenvectors,
    solve_direct,
    solve_eig,
    solve_lobpcg,
    solve_low_rank,
)
from milab_widgets.multilabel.stiefel import stiefel_least_squares
from milab_widgets.multilabel.validation import (
    AT_LEAST_ONE,
    POSITIVE,
    MultiLabelMixin,
    check_multilabel_data,
    constant_labels,
)

__all__ = ["SOLVERS", "KernelMDDM", "distinct_rows"]

SOLVERS = ("eig", "ifp", "lobpcg", "lsqr", "direct", "orthogonal")
KRYLOV = ("lsqr", "cg")
#: Solvers that solve least-squares problems, where ``ridge`` and ``kernel_approx`` apply.
LEAST_SQUARES = ("lsqr", "direct")


class KernelMDDM(MultiLabelMixin, TransformerMixin, BaseEstimator):
    r"""Kernel MDDM / LSkMDDM / rLSkMDDM / OLSkMDDM as a scikit-learn transformer.

    Parameters
    ----------
    solver : {"eig", "ifp", "lobpcg", "lsqr", "direct", "orthogonal"}, default "eig"
        See the module docstring.
    ridge : float >= 0, default 0.0
        eta of rLSkMDDM (solvers "lsqr" and "direct" only). With ``kernel_approx="nystroem"``
        solver "lsqr" needs ridge > 0: the Nystrom kernel F F^T has rank <= n_landmarks, so
        K P = B has no exact solution.
    n_components : int or None
        Embedding dimension k (None: the rank of H Y, c or c - 1).
    kernel_width : float or None
        Gaussian width w in exp(-||x - z||^2 / (2 w^2)); None: the median pairwise distance
        of the training points (the paper's choice).
    kernel_approx : {None, "nystroem"}, default None
        None: the dense n x n kernel. "nystroem": a rank-``n_landmarks`` Nystrom operator, the
        n x n kernel is never formed (solvers "lsqr" with ridge > 0, "direct", "orthogonal";
        "direct" with ridge = 0 gives the minimum-norm least-squares solution).
    n_landmarks : int, default 1000
    krylov : {"lsqr", "cg"}, default "lsqr"
        Iteration of solver "lsqr": block LSQR (the paper's) or block conjugate gradients
        (K is symmetric positive definite; converges in far fewer kernel passes when
        ridge = 0). Both stop on the same embedding-accuracy bound.
    tol : float, default 1e-2
        "lsqr" and "ifp": bound (radians) on the largest principal angle between the
        training embedding K P and the exact one; "lobpcg": LOBPCG's residual tolerance;
        "orthogonal": relative decrease of the objective over ten iterations.
    max_iter : int or None
        Iteration cap of the iterative solvers (None: 4n for "lsqr", 2n for CG, 500 for
        "orthogonal", 200 for "lobpcg" and "ifp").
    random_state : int or None
        Landmark choice (and the median's subsample for more than 5000 points).

    Attributes
    ----------
    components_ : array (n_train, n_components)
        The coefficient matrix P; the embedding of x is K(x, X_train) P.
    n_components_ : int
    kernel_width_ : float
    eigenvalues_ : array (n_components_,)
        Eigenvalues of Q Q^T (Lemma 1) for the least-squares solvers; of the pencil for
        "eig" and "lobpcg".
    support_, dual_coef_ : arrays
        transform(X) = gaussian_kernel(X, support_, kernel_width_) @ dual_coef_ (the distinct
        training points, or the Nystrom landmarks).
    n_iter_ : int or None
        Iterations of an iterative solver.
    kernel_passes_ : int or None
        Kernel products of an n x k block the iterative solver used.
    angle_bound_ : float or None
        "lsqr" and "ifp": the final bound on the training embedding's principal angle
        (radians).
    converged_ : bool
    objective_history_ : list or None
        "orthogonal": ||K P - B||_F^2 at every accepted iterate (never increases).

    See Also
    --------
    MDDMRanking : linear MDDM's weights as a feature ranking.
    sklearn.decomposition.KernelPCA : the unsupervised baseline of the LSkMDDM experiments.
    MLkNN : the classifier the embeddings are evaluated with.

    Notes
    -----
    Kernel MDDM embeds x as K(x, X_train) P, where the columns of P maximise the
    Hilbert-Schmidt dependence between the embedding and the labels:

    .. math:: K Q Q^\top K p = \lambda K K p, \qquad Q = H Y, \quad
              H = I - \tfrac{1}{n} \mathbf{1}\mathbf{1}^\top .

    The least-squares forms (``solver="lsqr"``, ``"direct"``, ``"orthogonal"``) solve
    K P = B for targets B built from Q instead of the eigenproblem (the LSkMDDM paper;
    Zhang & Zhou, ACM TKDD 4(3), 2010, for MDDM).

    References
    ----------
    Zhang & Zhou (2010), Multilabel dimensionality reduction via dependence maximization,
    ACM TKDD 4(3). The LSkMDDM paper (Qiu, kernel MDDM as a least-squares problem:
    LSkMDDM, rLSkMDDM, OLSkMDDM).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(60, 6))
    >>> Y = np.column_stack([X[:, 0] > 0, X[:, 3] > 0]).astype(int)   # labels from x0, x3
    >>> from milab_widgets.multilabel import KernelMDDM, MLkNN
    >>> embedding = KernelMDDM(n_components=2, kernel_width=1.0).fit(X, Y)
    >>> Z = embedding.transform(X)
    >>> Z.shape
    (60, 2)
    >>> float((MLkNN(k=5).fit(Z, Y).predict(Z) == Y).mean())
    1.0
    """

    _parameter_constraints: dict = {
        "solver": [StrOptions(set(SOLVERS))],
        "ridge": [Interval(Real, 0, None, closed="left")],
        "n_components": [AT_LEAST_ONE, None],
        "kernel_width": [POSITIVE, None],
        "kernel_approx": [StrOptions({"nystroem"}), None],
        "n_landmarks": [AT_LEAST_ONE],
        "krylov": [StrOptions(set(KRYLOV))],
        "tol": [POSITIVE],
        "max_iter": [AT_LEAST_ONE, None],
        "random_state": ["random_state"],
    }

    def __init__(self, solver: str = "eig", ridge: float = 0.0, n_components: int | None = None,
                 kernel_width: float | None = None, kernel_approx: str | None = None,
                 n_landmarks: int = 1000, krylov: str = "lsqr", tol: float = 1e-2,
                 max_iter: int | None = None, random_state=None):
        self.solver = solver
        self.ridge = ridge
        self.n_components = n_components
        self.kernel_width = kernel_width
        self.kernel_approx = kernel_approx
        self.n_landmarks = n_landmarks
        self.krylov = krylov
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state

    # -- fitting -----------------------------------------------------------------------------
    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y) -> KernelMDDM:
        """Learn P from the training points and their labels.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Training features.
        Y : array-like or sparse matrix of shape (n_samples, n_labels)
            0/1 label matrix.

        Returns
        -------
        self : KernelMDDM
            The fitted transformer.
        """
        self._check_params()
        X, Y = self._check_data(X, Y)
        distinct, first, inverse, counts = distinct_rows(X)
        squared = self._fit_width(X, first)
        scale = np.sqrt(counts.astype(np.float64))
        Q = np.zeros((distinct.shape[0], Y.shape[1]))
        np.add.at(Q, inverse, Y - Y.mean(axis=0))  # S^T H Y
        Q /= scale[:, None]
        self.eigenvalues_, B = label_eigenvectors(Q, self.n_components)
        self.n_components_ = B.shape[1]
        operator = self._operator(distinct, scale, squared)
        self.n_iter_ = self.kernel_passes_ = self.angle_bound_ = self.objective_history_ = None
        self.converged_ = True
        solution = self._solve(operator, Q, B)
        self.components_ = solution[inverse] / scale[inverse, None]
        self.support_, self.dual_coef_ = operator.embedding(solution)
        return self

    @within_free_cores
    def transform(self, X) -> np.ndarray:
        """Embed X as K(X, X_train) P.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples with the training features.

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            The embedding.
        """
        X = check_features(self, X, reset=False, sparse=True)
        return gaussian_kernel(X, self.support_, self.kernel_width_) @ self.dual_coef_

    # -- steps -------------------------------------------------------------------------------
    def _solve(self, operator, Q, B) -> np.ndarray:
        ridge = float(self.ridge)
        if self.solver == "eig":
            solution, self.eigenvalues_ = solve_eig(operator.matrix, Q, self.n_components_)
            return solution
        if self.solver == "ifp":
            return self._solve_inverse_free(operator, Q, B)
        if self.solver == "lobpcg":
            iterations = 200 if self.max_iter is None else self.max_iter
            solution, self.eigenvalues_, self.n_iter_, self.converged_ = solve_lobpcg(
                operator.matmat, Q, B, self.tol, iterations)
            self.kernel_passes_ = 4 * self.n_iter_
            return solution
        if self.solver == "direct":
            if isinstance(operator, NystroemKernel):
                return solve_low_rank(operator.factor, B, ridge)
            return solve_direct(operator.matrix, B, ridge)
        if self.solver == "lsqr":
            return self._solve_krylov(operator, B, ridge)
        return self._solve_orthogonal(operator, B)

    def _solve_krylov(self, operator, B, ridge) -> np.ndarray:
        if self.krylov == "lsqr":
            result = block_lsqr(operator.matmat, B, np.sqrt(ridge), self.tol, self.max_iter)
        else:
            result = block_cg(operator.matmat, B, ridge, self.tol, self.max_iter)
        self.n_iter_, self.kernel_passes_ = result.iterations, result.passes
        self.angle_bound_, self.converged_ = result.angle_bound, result.converged
        return result.solution

    def _solve_inverse_free(self, operator, Q, B) -> np.ndarray:
        every_label_value = label_eigenvectors(Q)[0]  # the stopping bound's gap needs s_(k+1)
        result = solve_inverse_free(operator.matmat, Q, B, every_label_value, self.tol,
                                    200 if self.max_iter is None else self.max_iter)
        self.eigenvalues_, self.n_iter_ = result.values, result.iterations
        self.kernel_passes_, self.angle_bound_ = result.passes, result.angle_bound
        self.converged_ = result.converged
        return result.solution

    def _solve_orthogonal(self, operator, B) -> np.ndarray:
        result = stiefel_least_squares(operator.matmat, B, self.tol,
                                       500 if self.max_iter is None else self.max_iter)
        self.n_iter_, self.kernel_passes_ = result.iterations, result.passes
        self.converged_, self.objective_history_ = result.converged, result.objective_history
        return result.solution

    def _fit_width(self, X: np.ndarray, first: np.ndarray) -> np.ndarray | None:
        """Set ``kernel_width_``. The median width and the dense kernel share one pass of
        pairwise distances: returns the distinct points' squared distances (rows ``first`` of
        X's) when the kernel can reuse them, else None."""
        if self.kernel_width is not None:
            self.kernel_width_ = float(self.kernel_width)
            return None
        if X.shape[0] > MEDIAN_MAX_POINTS or self.kernel_approx is not None:
            self.kernel_width_ = median_distance(X, self.random_state)
            return None
        squared = euclidean_distances(X, squared=True)
        self.kernel_width_ = median_from_squared(squared)
        return squared[np.ix_(first, first)]

    def _operator(self, distinct: np.ndarray, scale: np.ndarray, squared: np.ndarray | None):
        if self.kernel_approx == "nystroem":
            return NystroemKernel(distinct, self.kernel_width_, scale, int(self.n_landmarks),
                                  self.random_state)
        return DenseKernel(distinct, self.kernel_width_, scale, squared)

    # -- validation --------------------------------------------------------------------------
    def _check_params(self) -> None:
        """The combinations ``_parameter_constraints`` cannot express (each value alone
        was checked against them)."""
        ridge = float(self.ridge)
        if ridge > 0 and self.solver not in LEAST_SQUARES:
            raise InputError(
                f"ridge={self.ridge} applies to the least-squares solvers {LEAST_SQUARES} "
                f"(rLSkMDDM), not to solver={self.solver!r}; set ridge=0 or solver='lsqr'."
            )
        if self.kernel_approx is not None and self.solver in ("eig", "ifp", "lobpcg"):
            raise InputError(
                f"kernel_approx={self.kernel_approx!r} needs a least-squares solver ('lsqr', "
                "'direct' or 'orthogonal'); the eigen-solvers use the exact kernel."
            )
        if self.kernel_approx == "nystroem" and self.solver == "lsqr" and ridge == 0:
            raise InputError(
                "kernel_approx='nystroem' with solver='lsqr' and ridge=0 has no exact solution: "
                "the Nystroem kernel is singular (rank <= n_landmarks); use ridge > 0 or "
                "solver='direct'."
            )

    def _check_data(self, X, Y) -> tuple:
        X, Y = check_multilabel_data(self, X, Y)
        Y = Y.astype(np.float64)
        n, c = Y.shape
        if n <= c:
            raise InputError(
                f"X has {n} samples but Y has {c} labels; kernel MDDM needs more samples than "
                "labels (H Y would have rank below the number of labels). Use more samples "
                "or fewer labels."
            )
        constant = constant_labels(Y)
        if constant:
            raise InputError(f"{constant}: they carry no dependence to maximise.")
        return X, Y


def distinct_rows(X) -> tuple:
    """(distinct rows, index of each one's first occurrence, group of every row, group
    sizes), the distinct rows in order of first occurrence (so without duplicates they are X
    itself, in its order), dense or CSR as X. CSR rows are keyed by their stored entries
    (after summing duplicates and dropping explicit zeros, so equal rows have equal keys)."""
    if scipy.sparse.issparse(X):
        X = scipy.sparse.csr_matrix(X, copy=True)
        X.sum_duplicates()
        X.eliminate_zeros()
        keys: dict = {}
        inverse = np.array([keys.setdefault((X.indices[a:b].tobytes(), X.data[a:b].tobytes()),
                                            len(keys))
                            for a, b in zip(X.indptr[:-1], X.indptr[1:], strict=True)],
                           dtype=np.int64)
    else:
        inverse = np.unique(X, axis=0, return_inverse=True)[1].ravel()
    groups, first, inverse = np.unique(inverse, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # groups by first occurrence
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    inverse = rank[inverse.ravel()]
    return X[first[order]], first[order], inverse, np.bincount(inverse)
