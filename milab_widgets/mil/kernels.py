"""Multi-instance kernels: a bag is mapped to one vector phi(B), and K(B, B') = k(phi(B), phi(B')).

The TwoViewMIC paper (Cai & Liu 2021, §2.3) embeds two such kernels in its two-view model:

* Mixture-model kernel (Ker1; Wang, Yang & Zha, "Adaptive p-posterior mixture-model kernels
  for multiple instance learning", ICML 2008): a Gaussian mixture {(Lambda_j, omega_j)}_{j<=K}
  is fitted on all instances of a view, and

      phi(B) = sum_{b in B} ( omega_j pr(b | Lambda_j) / sum_k omega_k pr(b | Lambda_k) )_{j=1..K}
      K(B_s, B_t) = <phi(B_s), phi(B_t)>                                   (the paper's eqs. 18-19)

  the bag's summed posterior responsibilities, K = 100 components by default.

* Minimax kernel (Ker2; Gärtner, Flach, Kowalczyk & Smola, "Multi-instance kernels", ICML
  2002): phi(B) = (min_{b in B} b_1, ..., min_{b in B} b_d, max_{b in B} b_1, ..., max_{b in B} b_d)
  and K(B_s, B_t) = (gamma <phi(B_s), phi(B_t)> + 1)^p, p = 5          (the paper's eqs. 20-22)

  on features min-max scaled to [0, 1] over the view's instances, with gamma = 1 / (2d)
  (scikit-learn's default gamma for a polynomial kernel on 2d features), so every entry lies
  in [1, 2^p]: no overflow, and K >= 0 entrywise, which the multiplicative updates of
  :class:`~milab_widgets.mil.twoview.TwoViewMIClustering` need.

Both Gram matrices are phi-products, hence positive semi-definite, and non-negative.

``normalize=True`` (the default) divides K(B_s, B_t) by sqrt(K(B_s, B_s) K(B_t, B_t)): every
bag's image in feature space gets unit length. The paper does not normalise; we do because
concept factorisation normalises every data point to unit length (Xu & Gong, SIGIR 2004),
because otherwise a view's weight in the two-view sum is its kernel's arbitrary scale
(a 9-instance patch bag's posterior sum is ~5x longer than a 4-segment bag's), and because it
gives alpha and beta one meaning on every dataset. ``normalize=False`` is the paper's literal
kernel. Normalising keeps K PSD (D^-1/2 K D^-1/2) and non-negative.
The bag maps are segment reductions over the instance matrix (``np.add.reduceat`` and
friends over the BagDataset offsets): no Python loop over bags.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.metrics.pairwise import polynomial_kernel
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.utils.validation import check_is_fitted

from milab_widgets._sklearn_private import Interval, StrOptions, fit_context, validate_params
from milab_widgets.core.parallel import within_free_cores
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_bags, check_fitted_features

__all__ = ["KERNELS", "MinimaxKernel", "MixtureModelKernel", "bag_kernel_factors",
           "bag_kernel_matrices", "check_views"]

#: Kernel names accepted by :func:`bag_kernel_matrices` and TwoViewMIClustering.
KERNELS = ("mixture", "minimax")
COVARIANCE_TYPES = ("full", "tied", "diag", "spherical")
_AT_LEAST_ONE = Interval(Integral, 1, None, closed="left")


class _BagKernel(TransformerMixin, BaseEstimator):
    """fit(bags) learns from a view's instances; transform(bags) gives phi (bags x dims);
    gram(X, Y=None) gives the kernel matrix between the bags of X and Y."""

    @within_free_cores
    def transform(self, bags) -> np.ndarray:
        """The bags' feature map phi, whose inner products are the kernel.

        Parameters
        ----------
        bags : BagDataset
            Bags with the fitted view's features.

        Returns
        -------
        ndarray of shape (n_bags, n_dims)
            One row per bag.
        """
        check_is_fitted(self, "n_features_in_")
        bags = check_bags(bags)
        check_fitted_features(self.n_features_in_, getattr(self, "feature_names_in_", None), bags,
                              "the kernel was fitted on")
        return self._bag_map(bags)

    def _record_features(self, bags: BagDataset) -> None:
        """``n_features_in_`` and, for bags with column names, ``feature_names_in_`` (as
        scikit-learn's estimators record them), checked again by ``transform``."""
        self.n_features_in_ = bags.n_features
        if bags.feature_names is not None:
            self.feature_names_in_ = bags.feature_names
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_

    @within_free_cores
    def gram(self, X: BagDataset, Y: BagDataset | None = None) -> np.ndarray:
        """The kernel matrix K[s, t] = K(X_s, Y_t), normalised if ``normalize``.

        Parameters
        ----------
        X : BagDataset
            Row bags.
        Y : BagDataset, default=None
            Column bags; None means Y = X.

        Returns
        -------
        ndarray of shape (len(X), len(Y))
            The kernel values.
        """
        phi_x = self.transform(X)
        phi_y = phi_x if Y is None else self.transform(Y)
        gram = self._from_maps(phi_x, phi_y)
        if not self.normalize:
            return gram
        scale_x = np.sqrt(self._self_products(phi_x))
        scale_y = scale_x if Y is None else np.sqrt(self._self_products(phi_y))
        return gram / np.outer(scale_x, scale_y)


class MixtureModelKernel(_BagKernel):
    """Ker1: summed Gaussian-mixture posteriors per bag, K = phi phi^T (the paper's eqs. 18-19).

    Parameters
    ----------
    n_components : int, default 100
        K, the number of mixture components (the paper's setting).
    covariance_type : {"diag", "full", "tied", "spherical"}, default "diag"
        Of the mixture. The paper does not say; diagonal covariances keep 100 components
        well-posed on a few thousand instances of a few dozen features.
    standardize : bool, default True
        Fit the mixture on standardised instances (scikit-learn's ``reg_covar`` is an
        absolute floor, so the features' units would otherwise matter).
    max_iter : int, default 100
        EM iterations of the mixture.
    random_state : int, RandomState or None
        Seeds the mixture's k-means initialisation.
    normalize : bool, default True
        Cosine-normalise the Gram matrix (module docstring).

    Attributes
    ----------
    mixture_ : sklearn.mixture.GaussianMixture
        The fitted mixture (on scaled instances when ``standardize``).
    scaler_ : StandardScaler or None
    n_features_in_ : int

    Examples
    --------
    >>> bags = BagDataset.from_bags([[[0.0], [0.1]], [[5.0]], [[5.1], [4.9]]])
    >>> kernel = MixtureModelKernel(n_components=2, random_state=0).fit(bags)
    >>> kernel.transform(bags).sum(axis=1).round(6).tolist()   # posteriors sum to bag sizes
    [2.0, 1.0, 2.0]

    See Also
    --------
    MinimaxKernel : the other kernel of the TwoViewMIC paper.
    bag_kernel_factors : one factor per view, for the two-view model.
    sklearn.mixture.GaussianMixture : the mixture fitted on the instances.
    """

    _parameter_constraints: dict = {
        "n_components": [_AT_LEAST_ONE],
        "covariance_type": [StrOptions(set(COVARIANCE_TYPES))],
        "standardize": ["boolean"],
        "max_iter": [_AT_LEAST_ONE],
        "random_state": ["random_state"],
        "normalize": ["boolean"],
    }

    def __init__(self, n_components: int = 100, covariance_type: str = "diag",
                 standardize: bool = True, max_iter: int = 100, random_state=None,
                 normalize: bool = True):
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.standardize = standardize
        self.max_iter = max_iter
        self.random_state = random_state
        self.normalize = normalize

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, bags, y=None):
        """Fit the mixture on every instance of the bags.

        Parameters
        ----------
        bags : BagDataset
            One view's bags.
        y : None
            Ignored.

        Returns
        -------
        self : MixtureModelKernel
            The fitted kernel.
        """
        bags = check_bags(bags)
        if self.n_components > bags.n_instances:
            raise InputError(
                f"n_components={self.n_components} exceeds the {bags.n_instances} instances; "
                "use fewer mixture components."
            )
        from sklearn.mixture import GaussianMixture  # here: importing it costs ~0.2 s

        self.scaler_ = StandardScaler().fit(bags.instances) if self.standardize else None
        self.mixture_ = GaussianMixture(
            self.n_components, covariance_type=self.covariance_type, max_iter=self.max_iter,
            random_state=self.random_state,
        ).fit(self._scaled(bags.instances))
        self._record_features(bags)
        return self

    def posteriors(self, bags) -> np.ndarray:
        """Posterior of each mixture component for each instance.

        omega_j pr(b | Lambda_j) / sum_k omega_k pr(b | Lambda_k), per instance.

        Parameters
        ----------
        bags : BagDataset
            Bags with the fitted view's features.

        Returns
        -------
        ndarray of shape (n_instances, n_components)
            Rows summing to 1.
        """
        check_is_fitted(self, "mixture_")
        return self.mixture_.predict_proba(self._scaled(check_bags(bags).instances))

    def _scaled(self, instances: np.ndarray) -> np.ndarray:
        return instances if self.scaler_ is None else self.scaler_.transform(instances)

    def _bag_map(self, bags: BagDataset) -> np.ndarray:
        return np.add.reduceat(self.posteriors(bags), bags.offsets[:-1], axis=0)

    def factor(self, bags) -> np.ndarray:
        """The factor F with K = F F^T: phi, each row scaled to unit length if ``normalize``.

        n_bags x n_components and non-negative: the two-view model multiplies by K as
        F (F^T X), O(m K c) instead of O(m^2 c), and never stores an m x m matrix.

        Parameters
        ----------
        bags : BagDataset
            Bags with the fitted view's features.

        Returns
        -------
        ndarray of shape (n_bags, n_components)
            F.
        """
        phi = self.transform(bags)
        return phi / np.linalg.norm(phi, axis=1, keepdims=True) if self.normalize else phi

    @staticmethod
    def _from_maps(phi_x: np.ndarray, phi_y: np.ndarray) -> np.ndarray:
        return phi_x @ phi_y.T

    @staticmethod
    def _self_products(phi: np.ndarray) -> np.ndarray:
        return np.einsum("ij,ij->i", phi, phi)


class MinimaxKernel(_BagKernel):
    """Ker2: (gamma <phi, phi'> + 1)^p over per-bag feature minima and maxima (the paper's eqs. 20-22).

    Parameters
    ----------
    degree : int, default 5
        p (the paper's setting, after Gärtner et al. 2002).
    normalize : bool, default True
        Cosine-normalise the Gram matrix (module docstring).

    Attributes
    ----------
    scaler_ : MinMaxScaler
        Maps each instance feature to [0, 1] over the fitted view's instances.
    gamma_ : float
        1 / (2 d).
    n_features_in_ : int

    Examples
    --------
    >>> bags = BagDataset.from_bags([[[0.0], [2.0]], [[1.0]]])
    >>> MinimaxKernel(degree=1).fit(bags).transform(bags).tolist()   # (min, max), scaled
    [[0.0, 1.0], [0.5, 0.5]]

    See Also
    --------
    MixtureModelKernel : the other kernel of the TwoViewMIC paper.
    bag_kernel_matrices : one kernel matrix per view.
    TwoViewMIClustering : clusters bags with these kernels.
    """

    _parameter_constraints: dict = {"degree": [_AT_LEAST_ONE], "normalize": ["boolean"]}

    def __init__(self, degree: int = 5, normalize: bool = True):
        self.degree = degree
        self.normalize = normalize

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, bags, y=None):
        """Learn the [0, 1] scaling of the features from the bags' instances.

        Parameters
        ----------
        bags : BagDataset
            One view's bags.
        y : None
            Ignored.

        Returns
        -------
        self : MinimaxKernel
            The fitted kernel.
        """
        bags = check_bags(bags)
        self.scaler_ = MinMaxScaler().fit(bags.instances)
        self.gamma_ = 1.0 / (2 * bags.n_features)
        self._record_features(bags)
        return self

    def _bag_map(self, bags: BagDataset) -> np.ndarray:
        scaled = np.clip(self.scaler_.transform(bags.instances), 0.0, 1.0)
        starts = bags.offsets[:-1]
        return np.hstack([np.minimum.reduceat(scaled, starts, axis=0),
                          np.maximum.reduceat(scaled, starts, axis=0)])

    def _from_maps(self, phi_x: np.ndarray, phi_y: np.ndarray) -> np.ndarray:
        return polynomial_kernel(phi_x, phi_y, degree=self.degree, gamma=self.gamma_, coef0=1.0)

    def _self_products(self, phi: np.ndarray) -> np.ndarray:
        return (self.gamma_ * np.einsum("ij,ij->i", phi, phi) + 1.0) ** self.degree


_KERNEL_ARGUMENTS = {"views": "no_validation", "n_components": [_AT_LEAST_ONE],
                     "covariance_type": [StrOptions(set(COVARIANCE_TYPES))],
                     "normalize": ["boolean"], "random_state": ["random_state"]}


@validate_params(_KERNEL_ARGUMENTS, prefer_skip_nested_validation=True)
def bag_kernel_factors(views, *, n_components: int = 100, covariance_type: str = "diag",
                       normalize: bool = True, random_state=None) -> list[np.ndarray]:
    """One mixture-model kernel factor F^v per view (K^v = F^v (F^v)^T), each mixture fitted
    on that view's own instances; parameters as in :func:`bag_kernel_matrices`.

    Parameters
    ----------
    views : list of BagDataset
        The same objects seen in each view (equal numbers of bags; features may differ).
    n_components : int, default=100
        Mixture components per view.
    covariance_type : {"diag", "full", "tied", "spherical"}, default="diag"
        Of the mixtures.
    normalize : bool, default=True
        Scale each row of F^v to unit length (cosine-normalised kernel).
    random_state : int, Generator or None, default=None
        Seeds the mixtures.

    Returns
    -------
    list of ndarray of shape (n_bags, n_components)
        The non-negative factors F^v.

    See Also
    --------
    bag_kernel_matrices : the kernel matrices themselves.
    MixtureModelKernel : one view's kernel.

    Examples
    --------
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_kernel_factors, bag_kernel_matrices
    >>> first = BagDataset.from_bags([[[0.0], [0.1]], [[5.0]], [[5.1], [4.9]]])
    >>> second = BagDataset.from_bags([[[1.0, 0.0]], [[0.0, 1.0]], [[0.1, 0.9]]])
    >>> factors = bag_kernel_factors([first, second], n_components=2, random_state=0)
    >>> [factor.shape for factor in factors]
    [(3, 2), (3, 2)]
    """
    return [
        MixtureModelKernel(n_components, covariance_type, random_state=random_state,
                           normalize=normalize).fit(view).factor(view)
        for view in check_views(views)
    ]


@validate_params({**_KERNEL_ARGUMENTS, "kernel": [StrOptions(set(KERNELS))],
                  "degree": [_AT_LEAST_ONE]}, prefer_skip_nested_validation=True)
def bag_kernel_matrices(views, kernel: str, *, n_components: int = 100, degree: int = 5,
                        covariance_type: str = "diag", normalize: bool = True,
                        random_state=None) -> list[np.ndarray]:
    """One kernel matrix per view, each fitted on that view's own instances.

    Parameters
    ----------
    views : list of BagDataset
        The same objects seen in each view (equal numbers of bags; features may differ).
    kernel : {"mixture", "minimax"}
    n_components, covariance_type, random_state
        Of the mixture-model kernel.
    degree : int
        p of the minimax kernel.
    normalize : bool
        Cosine-normalise each Gram matrix (module docstring).

    Returns
    -------
    list of (n_bags, n_bags) float64 arrays, symmetric, PSD and non-negative.

    See Also
    --------
    bag_kernel_factors : the mixture kernels as factors, without m x m matrices.
    TwoViewMIClustering : clusters with these matrices (``kernel="precomputed"``).

    Examples
    --------
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_kernel_factors, bag_kernel_matrices
    >>> first = BagDataset.from_bags([[[0.0], [0.1]], [[5.0]], [[5.1], [4.9]]])
    >>> second = BagDataset.from_bags([[[1.0, 0.0]], [[0.0, 1.0]], [[0.1, 0.9]]])
    >>> grams = bag_kernel_matrices([first, second], "minimax", degree=1)
    >>> [gram.shape for gram in grams], [gram.diagonal().round(6).tolist() for gram in grams]
    ([(3, 3), (3, 3)], [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    """
    if kernel == "mixture":
        factors = bag_kernel_factors(views, n_components=n_components, normalize=normalize,
                                     covariance_type=covariance_type, random_state=random_state)
        return [factor @ factor.T for factor in factors]
    return [MinimaxKernel(degree, normalize).fit(view).gram(view) for view in check_views(views)]


def check_views(views) -> list[BagDataset]:
    """A non-empty list of BagDatasets over the same number of objects."""
    if isinstance(views, BagDataset) or not isinstance(views, (list, tuple)) or not views:
        raise InputError(
            "views must be a list of BagDatasets, one per view, over the same objects "
            "(e.g. [text_bags, image_bags]); got "
            f"{type(views).__name__}."
        )
    views = [check_bags(view, f"views[{v}]") for v, view in enumerate(views)]
    sizes = [len(view) for view in views]
    if len(set(sizes)) > 1:
        raise InputError(
            f"the views hold {sizes} bags; every view must describe the same objects "
            "in the same order."
        )
    return views
