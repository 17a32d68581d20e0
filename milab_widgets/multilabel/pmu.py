"""PMU: greedy multi-label feature selection by multivariate mutual information.

Lee, J., & Kim, D.-W. (2013). Feature selection for multi-label classification using
multivariate mutual information. Pattern Recognition Letters 34(3), 349-357.

With S the features selected so far, the next feature maximises

    J(f) = sum_l I(f; l) - sum_{s in S} sum_l V(f; s; l) - sum_{i < j} V(f; l_i; l_j)

where V is Lee & Kim's three-variable (multivariate) mutual information

    V(a; b; c) = H(a) + H(b) + H(c) - H(a,b) - H(a,c) - H(b,c) + H(a,b,c) = I(a; b) - I(a; b | c),

the negative of McGill's interaction information
(:func:`milab_widgets.core.information.interaction_information`). Two notes:

* Only pairs i < j enter the last sum. Since V(f; l; l) = I(f; l), summing over every
  (i, j) including i = j would subtract sum_l I(f; l) and cancel the relevance term (a known
  bug of a public implementation).
* The restatement papers/MFSEF.md writes I(a; b; c) = I(a; b | c) - I(a; b); with that sign
  the i = j terms would double the relevance instead of cancelling it, and a duplicate of a
  selected feature would be rewarded. We follow Lee & Kim's sign.

Features are discretised first (equal width, ``n_bins``, fitted on the training data); the
first selected feature maximises J with S empty; ties go to the lower feature index.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from milab_widgets.multilabel.selection import (
    FeatureSelector,
    LabelEntropies,
    discretize,
)
from milab_widgets.multilabel.validation import AT_LEAST_TWO

__all__ = ["PMU"]


class PMU(FeatureSelector):
    """Pairwise multivariate mutual information feature selection (Lee & Kim 2013).

    Parameters
    ----------
    n_features : int, default 10
        Greedy steps; ``selection(n)`` for any n <= n_features is a prefix of the order.
    n_bins : int, default 2
        Equal-width bins of the discretisation.

    Attributes
    ----------
    selected_ : int array (n_features,)
        Features in the order the greedy search picked them.
    relevance_ : array (n_features_in_,)
        sum_l I(f; l).
    label_interaction_ : array (n_features_in_,)
        sum_{i<j} V(f; l_i; l_j).
    objective_ : array (n_features,)
        J of each selected feature when it was picked.

    See Also
    --------
    MFSEF : expert features and local subspaces.
    MDDMRanking : ranks by a projection's weights instead of mutual information.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(60, 6))
    >>> Y = np.column_stack([X[:, 0] > 0, X[:, 3] > 0]).astype(int)   # labels from x0, x3
    >>> from milab_widgets.multilabel import PMU
    >>> PMU(n_features=2).fit(X, Y).selected_.tolist()
    [3, 0]
    """

    _parameter_constraints: dict = {**FeatureSelector._parameter_constraints,
                                    "n_bins": [AT_LEAST_TWO]}

    def __init__(self, n_features: int = 10, n_bins: int = 2):
        self.n_features = n_features
        self.n_bins = n_bins

    def _fit(self, X, Y) -> None:
        codes, states = discretize(X, self.n_bins)
        labels = LabelEntropies.of(Y)
        h_f, h_fl = labels.entropies(codes, states)
        self.relevance_ = (h_f[:, None] + labels.label_entropy - h_fl).sum(axis=1)
        self.label_interaction_ = _label_interactions(codes, states, Y, labels, h_f, h_fl)
        self._order, self.objective_ = _greedy(codes, states, labels, h_f, h_fl,
                                               self.relevance_ - self.label_interaction_,
                                               self.n_features)

    def selection(self, n_features: int) -> np.ndarray:
        """The first ``n_features`` greedy picks.

        Parameters
        ----------
        n_features : int
            At most the fitted ``n_features``.

        Returns
        -------
        ndarray of int
            Feature indices, in selection order.
        """
        check_is_fitted(self, "_order")
        return self._order[: self._check_size(n_features, len(self._order))].copy()


def _greedy(codes, states, labels, h_f, h_fl, base, steps):
    """Greedy forward search: J = base - accumulated sum_l V(f; s; l) over selected s."""
    redundancy = np.zeros(len(base))
    available = np.ones(len(base), dtype=bool)
    order, objective = [], []
    for _ in range(steps):
        score = np.where(available, base - redundancy, -np.inf)
        chosen = int(np.argmax(score))  # first maximum: lower index wins ties
        order.append(chosen)
        objective.append(score[chosen])
        available[chosen] = False
        redundancy += _feature_interactions(codes, states, labels, h_f, h_fl, chosen)
    return np.array(order, dtype=np.int64), np.array(objective)


def _feature_interactions(codes, states, labels, h_f, h_fl, s: int) -> np.ndarray:
    """sum_l V(f; s; l) for every feature f:
    V = [H(f) + H(s) - H(f,s)] - [H(f,l) + H(s,l) - H(f,s,l) - H(l)]."""
    h_fs, h_fsl = labels.entropies(codes * states[s] + codes[s], states * states[s])
    mutual = h_f + h_f[s] - h_fs
    conditional = h_fl + h_fl[s] - h_fsl - labels.label_entropy
    return (mutual[:, None] - conditional).sum(axis=1)


def _label_interactions(codes, states, Y, labels, h_f, h_fl) -> np.ndarray:
    """sum over label pairs i < j of V(f; l_i; l_j) = I(f; l_i) - I(f; l_i | l_j)."""
    n_labels = Y.shape[1]
    _, h_ll = labels.entropies(Y.T, np.full(n_labels, 2))  # H(l_j, l_i)
    total = np.zeros(len(h_f))
    for j in range(1, n_labels):
        h_fj, h_fji = labels.entropies(codes * 2 + Y[:, j], states * 2)  # H(f,l_j), H(f,l_j,l_i)
        i = np.arange(j)
        mutual = h_f[:, None] + labels.label_entropy[i] - h_fl[:, i]
        conditional = h_fj[:, None] + h_ll[j, i] - h_fji[:, i] - labels.label_entropy[j]
        total += (mutual - conditional).sum(axis=1)
    return total
