"""Kernel CCA in its least-squares form (the paper's KCCA / "KLSCCA" baseline).

Sun, Ji & Ye (2008, 2011) show that CCA between data and a label matrix equals a
least-squares regression onto a whitened label target. In feature space, with the centred
Gaussian kernel K_c = H K H and the target T (n x k) = the top k left singular vectors of
the (uncentred) label matrix Y (Y = U S V^T; for k = rank Y, T = Y (Y^T Y)^(-1/2) up to an
orthogonal rotation; ``mddm_solvers.label_eigenvectors``), the coefficients are the ridge solution

    A = argmin ||K_c A - T||_F^2 + eta ||A||_F^2 = (K_c^T K_c + eta I)^(-1) K_c^T T,

and x is embedded as k_c(x)^T A with k_c(x) centred by the training kernel's means
(scikit-learn's KernelCenterer).

**When least-squares KCCA and rLSkMDDM coincide.** rLSkMDDM (``KernelMDDM(solver="direct",
ridge=eta)``) embeds x as k(x)^T P with P = (K^2 + eta I)^(-1) K B, B (n x k) the left
singular vectors of H Y (the whitened, centred labels). Three things separate KCCA from it:

1. *Targets.* K_c = H K H annihilates the constant vector (K_c 1 = 0), so
   K_c T = K_c (H T), and H T = H Y (Y^T Y)^(-1/2) R spans the column space of H Y, which is
   that of B: H T = B M with M an invertible k x k matrix (when rank H Y = rank Y = k;
   with every instance carrying exactly one label H Y loses one rank and T keeps a
   direction B does not have). Hence A = (K_c^2 + eta I)^(-1) K_c B M: the same
   embedding space, in the basis M; M is orthogonal, and distances (ML-kNN's) the same,
   exactly when the targets are B itself.
2. *Centring.* KCCA regresses on K_c and embeds k_c(x) = H (k(x) - K 1 / n); since
   H A = A this is (k(x) - K 1 / n)^T A, a translation of k(x)^T A that a distance-based
   classifier ignores. rLSkMDDM regresses on the uncentred K.
3. *Ridge.* Both use eta (the experiments: eta = 1 for both).

So with targets B, the same kernel centring and the same eta the two are one estimator:
the coefficients (K_c^2 + eta I)^(-1) K_c B are rLSkMDDM's closed form on the centred
kernel, and every embedding and prediction is the same. As implemented they differ only by
the centring of the kernel (a rank-two change of K) and the basis M
(tests/multilabel/test_lskmddm_kcca.py fits both and checks each step); on the paper's
Yahoo sets their per-set mean AUC and F1 differ by at most 0.008, with either sign. A
claim that rLSkMDDM beats this KCCA therefore tests our choice of baseline, not the paper
(the LSkMDDM claims catalogue marks such rows "not discriminable").

A label that is the same for every sample carries no correlation: a constant target
direction T = 1/sqrt(n) is annihilated by the centred kernel (K_c 1 = 0), so its component
embeds every point at (nearly) 0; ``fit`` warns and names the labels to drop. Sparse X (CSR)
is used through sparse products (kernel distances by ``euclidean_distances``).
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.preprocessing import KernelCenterer

from milab_widgets._sklearn_private import fit_context
from milab_widgets.core.parallel import within_free_cores
from milab_widgets.data.arrays import check_features
from milab_widgets.exceptions import InputError
from milab_widgets.multilabel.kernel_operators import gaussian_kernel, median_distance
from milab_widgets.multilabel.mddm_solvers import label_eigenvectors, solve_direct
from milab_widgets.multilabel.validation import (
    AT_LEAST_ONE,
    POSITIVE,
    MultiLabelMixin,
    check_multilabel_data,
    constant_labels,
)

__all__ = ["LeastSquaresKCCA"]


class LeastSquaresKCCA(MultiLabelMixin, TransformerMixin, BaseEstimator):
    """Least-squares kernel CCA with a Gaussian kernel (median width by default).

    Parameters
    ----------
    ridge : float > 0, default 1.0
        eta.
    n_components : int or None
        k (None: the rank of Y).
    kernel_width : float or None

    Attributes
    ----------
    coef_ : array (n_train, n_components_); kernel_width_ : float; n_components_ : int
    X_fit_ : the training features (CSR for sparse input); centerer_ : KernelCenterer
    n_features_in_ : int; feature_names_in_ : array of str (DataFrame input only)
    """

    _parameter_constraints: dict = {
        "ridge": [POSITIVE],  # K_c is singular (H 1 = 0): ridge 0 has no solution
        "n_components": [AT_LEAST_ONE, None],
        "kernel_width": [POSITIVE, None],
    }

    def __init__(self, ridge: float = 1.0, n_components: int | None = None,
                 kernel_width: float | None = None):
        self.ridge = ridge
        self.n_components = n_components
        self.kernel_width = kernel_width

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y) -> LeastSquaresKCCA:
        """Learn the coefficients from training points X and their 0/1 labels Y."""
        X, Y = check_multilabel_data(self, X, Y)
        Y = Y.astype(np.float64)
        if not Y.any():
            raise InputError("Y has no positive label, so there is no target to correlate with; "
                             "pass a label matrix with at least one 1.")
        _warn_constant_labels(Y)
        _, target = label_eigenvectors(Y, self.n_components)
        self.kernel_width_ = (median_distance(X) if self.kernel_width is None
                              else float(self.kernel_width))
        kernel = gaussian_kernel(X, X, self.kernel_width_)
        self.centerer_ = KernelCenterer().fit(kernel)
        self.X_fit_, self.n_components_ = X, target.shape[1]
        self.coef_ = solve_direct(self.centerer_.transform(kernel), target, float(self.ridge))
        return self

    @within_free_cores
    def transform(self, X) -> np.ndarray:
        X = check_features(self, X, reset=False, sparse=True)
        cross = self.centerer_.transform(gaussian_kernel(X, self.X_fit_, self.kernel_width_))
        return cross @ self.coef_


def _warn_constant_labels(Y: np.ndarray) -> None:
    """Warn about labels that are all 0 or all 1 (module docstring: no correlation)."""
    constant = constant_labels(Y)
    if constant:
        warnings.warn(f"{constant}: they carry no correlation, and a component along them "
                      "embeds every point at 0.", UserWarning, stacklevel=3)
