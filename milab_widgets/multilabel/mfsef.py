"""MFSEF (the MFSEF paper) and MFSLS: mutual-information ranking, then sampling from local subspaces.

MFSEF -- multi-label feature selection with expert features (the MFSEF paper, Algorithm 1):

1. Discretise the training features (equal width, ``n_bins``; seed: 2).
2. Expert features E: given by hand (``experts``), or the ``n_experts`` features with the
   largest FMI(f; L) = sum_j I(f; l_j) (Definition 6; the paper: 4 from waterfall plots plus
   the MI ranking).
3. Every other feature scores sum_j I(f_i, E; l_j), (f_i, e_1..e_k1) taken as one discrete
   variable; sorting by score (descending) gives the sequence S.
4. S is cut into len(ratios) consecutive parts of equal size (the first parts take one more
   feature when it does not divide evenly).
5. In each part, a feature's redundancy is sum of I(f; g) over the other features g of that
   part (Definition 7); the part is ordered by redundancy, ascending.
6. Part m gives its first c_m features, c_m ~ ratios[m] * (k - |E|) (seed: 0.6, 0.3, 0.1).
7. The selection is E followed by the picks of the parts, in order.

MFSLS (Liu Jinghua et al., local-subspace multi-label feature selection) is steps 1 and 3-7
without experts, i.e. the ranking is FMI(f; L).

Rounding of step 6 (the paper does not say): largest remainder -- floor(ratio * n) each, the
leftover features go to the parts with the largest fractional parts (earlier parts win
ties); a part asked for more than it holds gives them all and the excess goes to the parts
with room, first part first, so the counts always add up to k - |E|. Ties in any ordering keep the lower
feature index first. With k <= |E| the selection is the first k experts.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_is_fitted

from milab_widgets._sklearn_private import Interval
from milab_widgets.core.information import joint_codes, pairwise_mutual_information
from milab_widgets.exceptions import InputError
from milab_widgets.multilabel.selection import (
    FeatureSelector,
    LabelEntropies,
    discretize,
    top_features,
)
from milab_widgets.multilabel.validation import AT_LEAST_TWO

__all__ = ["MFSEF", "MFSLS", "sampling_counts"]

DEFAULT_RATIOS = (0.6, 0.3, 0.1)


class _SubspaceSelector(FeatureSelector):
    """Rank by a relevance score, split into parts, sample the least redundant of each."""

    _parameter_constraints: dict = {**FeatureSelector._parameter_constraints,
                                    "ratios": ["array-like"], "n_bins": [AT_LEAST_TWO]}

    def _fit(self, X, Y) -> None:
        self.ratios_ = _check_ratios(self.ratios)
        codes, states = discretize(X, self.n_bins)
        labels = LabelEntropies.of(Y)
        self.relevance_ = labels.mutual_information(codes, states).sum(axis=1)
        self.experts_ = self._experts(X.shape[1])
        rest = np.setdiff1d(np.arange(X.shape[1]), self.experts_)
        self.scores_ = np.full(X.shape[1], np.nan)
        self.scores_[rest] = self._conditioned_scores(codes, states, labels, rest)
        ranked = rest[np.argsort(-self.scores_[rest], kind="stable")]
        self.subspaces_ = [self._by_redundancy(codes, states, part)
                           for part in np.array_split(ranked, len(self.ratios_))]

    def selection(self, n_features: int) -> np.ndarray:
        """Experts, then each subspace's least redundant features, ``n_features`` in all.

        Parameters
        ----------
        n_features : int
            How many features to select (at most the number of features).

        Returns
        -------
        ndarray of int
            Feature indices, in selection order.
        """
        check_is_fitted(self, "subspaces_")
        n_features = self._check_size(n_features, self.n_features_in_)
        experts = self.experts_[:n_features]
        sizes = [len(part) for part in self.subspaces_]
        counts = sampling_counts(n_features - len(experts), self.ratios_, sizes)
        picks = [part[:count] for part, count in zip(self.subspaces_, counts, strict=True)]
        return np.concatenate([experts, *picks]).astype(np.int64)

    def _conditioned_scores(self, codes, states, labels, rest) -> np.ndarray:
        """sum_j I(f, E; l_j) for every feature f in ``rest`` (E as one dense joint code, so
        at most n_samples expert states however many experts)."""
        if len(self.experts_) == 0:
            return self.relevance_[rest]
        expert_code, expert_states = joint_codes(codes[self.experts_].T, states[self.experts_])
        combined = codes[rest] * expert_states + expert_code
        return labels.mutual_information(combined, states[rest] * expert_states).sum(axis=1)

    @staticmethod
    def _by_redundancy(codes, states, part: np.ndarray) -> np.ndarray:
        """``part`` ordered by sum of I(f; g) over its other members, ascending."""
        redundancy = pairwise_mutual_information(codes, states, part).sum(axis=1)
        return part[np.argsort(redundancy, kind="stable")]


class MFSEF(_SubspaceSelector):
    """Multi-label feature selection with expert features (the MFSEF paper).

    Parameters
    ----------
    n_features : int, default 10
        k, the number of features to select (experts included).
    n_experts : int, default 4
        k1, how many experts to take automatically (top FMI) when ``experts`` is None.
    experts : sequence of int or None
        Expert feature indices chosen by hand (e.g. from the waterfall view); overrides
        ``n_experts``.
    ratios : sequence of float, default (0.6, 0.3, 0.1)
        Sampling ratio of each local subspace (positive, summing to 1).
    n_bins : int, default 2
        Equal-width bins of the discretisation (fitted on the training data).

    Attributes
    ----------
    selected_ : int array (n_features,)
        Experts then the subspace picks.
    experts_ : int array
    relevance_ : array (n_features_in_,)
        FMI(f; L) = sum_j I(f; l_j) in nats.
    scores_ : array (n_features_in_,)
        sum_j I(f, E; l_j) (NaN for the experts).
    subspaces_ : list of int arrays
        Each local subspace ordered by redundancy (least redundant first).
    ratios_ : array
        The validated sampling ratios of the fit (one per subspace), used by ``selection``.

    See Also
    --------
    MFSLS : the same local subspaces without expert features.
    PMU, MDDMRanking : the other selectors of the MFSEF paper's comparison.
    MLkNN : the classifier the selected features are evaluated with.

    Notes
    -----
    After k1 expert features E (the highest FMI(f; L) = sum_j I(f; l_j), or chosen by hand),
    every other feature is scored by the conditional relevance sum_j I(f, E; l_j); the
    features, ranked by that score, are cut into local subspaces that contribute their least
    redundant features in the proportions ``ratios`` until k features are chosen.

    References
    ----------
    Cheng, Song, Wang & Qian, "Multi-label feature selection algorithm based on conditional
    mutual information of expert feature", Journal of Computer Applications 40(2), 2020,
    Algorithm 1.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(60, 6))
    >>> Y = np.column_stack([X[:, 0] > 0, X[:, 3] > 0]).astype(int)   # labels from x0, x3
    >>> from milab_widgets.multilabel import MFSEF
    >>> selector = MFSEF(n_features=2, n_experts=1).fit(X, Y)
    >>> selector.selected_.tolist(), selector.transform(X).shape
    ([3, 0], (60, 2))
    """

    _parameter_constraints: dict = {
        **_SubspaceSelector._parameter_constraints,
        "n_experts": [Interval(Integral, 0, None, closed="left")],
        "experts": ["array-like", None],
    }

    def __init__(self, n_features: int = 10, n_experts: int = 4, experts=None,
                 ratios=DEFAULT_RATIOS, n_bins: int = 2):
        self.n_features = n_features
        self.n_experts = n_experts
        self.experts = experts
        self.ratios = ratios
        self.n_bins = n_bins

    def _experts(self, n_features_in: int) -> np.ndarray:
        if self.experts is not None:
            chosen = np.asarray(self.experts).ravel()
            if chosen.dtype.kind not in "iu" or chosen.size == 0 or len(np.unique(chosen)) != chosen.size or \
                    chosen.min() < 0 or chosen.max() >= n_features_in:
                raise InputError(
                    f"experts must be distinct integer feature indices in [0, {n_features_in}), "
                    f"got {chosen.tolist()[:8]}; pass None to pick the top-MI features."
                )
            return chosen.astype(np.int64)
        if self.n_experts >= n_features_in:
            raise InputError(
                f"n_experts must be an integer in [0, {n_features_in}), got {self.n_experts!r}."
            )
        return top_features(self.relevance_, self.n_experts)


class MFSLS(_SubspaceSelector):
    """Local-subspace multi-label feature selection (MFSEF without expert features).

    Features are ranked by FMI(f; L) = sum_j I(f; l_j) and the ranking is cut into local
    subspaces that contribute their least redundant features in the proportions ``ratios``.

    Parameters
    ----------
    n_features : int, default=10
        k, the number of features to select.
    ratios : sequence of float, default=(0.6, 0.3, 0.1)
        Sampling ratio of each local subspace (positive, summing to 1).
    n_bins : int, default=2
        Equal-width bins of the discretisation (fitted on the training data).

    Attributes
    ----------
    selected_ : ndarray of int, shape (n_features,)
        The selected features, in selection order.
    relevance_ : ndarray of shape (n_features_in_,)
        FMI(f; L) in nats.
    subspaces_ : list of ndarray of int
        Each local subspace ordered by redundancy (least redundant first).
    ratios_ : ndarray
        The validated sampling ratios (one per subspace), used by ``selection``.
    n_features_in_ : int
        Number of features seen by ``fit``.

    See Also
    --------
    MFSEF : adds expert features.

    References
    ----------
    Liu Jinghua et al., multi-label feature selection based on local subspace (MFSLS), as
    cited by Cheng, Song, Wang & Qian, "Multi-label feature selection algorithm based on
    conditional mutual information of expert feature", Journal of Computer Applications 40(2),
    2020.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(60, 6))
    >>> Y = np.column_stack([X[:, 0] > 0, X[:, 3] > 0]).astype(int)   # labels from x0, x3
    >>> from milab_widgets.multilabel import MFSLS
    >>> MFSLS(n_features=2).fit(X, Y).selected_.tolist()   # one pick per subspace
    [3, 4]
    """

    def __init__(self, n_features: int = 10, ratios=DEFAULT_RATIOS, n_bins: int = 2):
        self.n_features = n_features
        self.ratios = ratios
        self.n_bins = n_bins

    def _experts(self, n_features_in: int) -> np.ndarray:
        return np.zeros(0, dtype=np.int64)


def sampling_counts(total: int, ratios, sizes) -> list[int]:
    """How many features each part gives: largest-remainder rounding of ratio * total,
    capped by the parts' sizes; any excess goes to the parts with room, first part first."""
    raw = np.asarray(ratios, dtype=np.float64) * total
    counts = np.floor(raw).astype(np.int64)
    leftover = total - counts.sum()
    by_remainder = np.argsort(-(raw - counts), kind="stable")
    counts[by_remainder[:leftover]] += 1
    counts = np.minimum(counts, sizes)
    for part in range(len(sizes)):
        room = min(total - counts.sum(), sizes[part] - counts[part])
        counts[part] += max(room, 0)
    return counts.tolist()


def _check_ratios(ratios) -> np.ndarray:
    values = np.asarray(ratios).ravel()
    if values.dtype.kind not in "iuf" or values.size == 0 or not (values > 0).all() or \
            not np.isclose(values.sum(), 1.0):
        raise InputError(
            f"ratios must be positive numbers summing to 1 (one per local subspace), got "
            f"{values.tolist()}; the paper uses (0.6, 0.3, 0.1)."
        )
    return values.astype(np.float64)
