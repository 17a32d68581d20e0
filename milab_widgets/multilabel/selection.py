"""What the multi-label feature selectors share: validation, the label statistics the
information measures need, and ``transform``.

Every selector is fitted on training data ``(X, Y)`` and exposes ``selected_``: feature
indices in selection order (the first ``n_features``). :meth:`FeatureSelector.selection`
gives the selection for any other size from the same fit, so a curve over many sizes costs
one fit.

The selectors are scikit-learn transformers on (X, Y) with Y a 0/1 label matrix (see
:mod:`~milab_widgets.multilabel.validation`); X may be scipy.sparse, and ``transform`` then
returns the selected columns as CSR.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted

from milab_widgets._sklearn_private import check_feature_names_in, fit_context, validate_params
from milab_widgets.core.information import label_joint_entropies
from milab_widgets.core.parallel import within_free_cores
from milab_widgets.data.arrays import check_features
from milab_widgets.data.multilabel import as_label_matrix
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_positive_int
from milab_widgets.multilabel.discretize import Discretizer
from milab_widgets.multilabel.validation import (
    AT_LEAST_ONE,
    AT_LEAST_TWO,
    MultiLabelMixin,
    check_multilabel_data,
)

__all__ = ["FeatureSelector", "LabelEntropies", "label_relevance", "top_features"]


@dataclass(frozen=True)
class LabelEntropies:
    """The label matrix in the form the information kernels read, with H(l) per label.

    ``entropies(codes, n_states)`` returns H(Z_j) and H(Z_j, l) for every row Z_j of the
    feature-major code matrix (variables x samples).
    """

    indptr: np.ndarray
    indices: np.ndarray
    totals: np.ndarray
    label_entropy: np.ndarray

    @classmethod
    def of(cls, Y: np.ndarray) -> LabelEntropies:
        csr = scipy.sparse.csr_matrix(Y)
        totals = Y.sum(axis=0).astype(np.int64)
        p = totals / len(Y)
        with np.errstate(divide="ignore", invalid="ignore"):
            h = -np.nan_to_num(p * np.log(p)) - np.nan_to_num((1 - p) * np.log(1 - p))
        return cls(csr.indptr.astype(np.int64), csr.indices.astype(np.int64), totals, h)

    def entropies(self, codes: np.ndarray, n_states: np.ndarray):
        return label_joint_entropies(np.ascontiguousarray(codes, dtype=np.int64),
                                     np.asarray(n_states, dtype=np.int64), self.indptr,
                                     self.indices, self.totals)

    def mutual_information(self, codes: np.ndarray, n_states: np.ndarray) -> np.ndarray:
        """I(Z_j; l) = H(Z_j) + H(l) - H(Z_j, l), shape (d, L)."""
        h_single, h_joint = self.entropies(codes, n_states)
        return h_single[:, None] + self.label_entropy[None, :] - h_joint


class FeatureSelector(MultiLabelMixin, TransformerMixin, BaseEstimator):
    """Base of the selectors: subclasses implement ``_fit(X, Y)`` (learn the criterion) and
    ``selection(n_features)`` (the first ``n_features`` indices in selection order), and
    extend ``_parameter_constraints`` with their own parameters."""

    _parameter_constraints: dict = {"n_features": [AT_LEAST_ONE]}

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y) -> FeatureSelector:
        """Validate the data, fit the selector's criterion and set ``selected_``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Training features.
        Y : array-like or sparse matrix of shape (n_samples, n_labels)
            0/1 label matrix.

        Returns
        -------
        self
            The fitted selector.
        """
        n_features = int(self.n_features)
        X, Y = check_multilabel_data(self, X, Y)
        if n_features > X.shape[1]:
            raise InputError(
                f"n_features={n_features} exceeds the {X.shape[1]} features of X; ask for at "
                "most that many."
            )
        self._fit(X, Y)
        self.selected_ = self.selection(n_features)
        return self

    def transform(self, X):
        """The selected columns, in selection order.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples with the training features.

        Returns
        -------
        ndarray or sparse matrix of shape (n_samples, n_selected)
            CSR when X is sparse.
        """
        return check_features(self, X, reset=False, sparse=True)[:, self.selected_]

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Names of the selected features, in selection order.

        Parameters
        ----------
        input_features : array-like of str, default=None
            Names of the input features; None means the fitted DataFrame's column names, or
            ``x0, x1, ...``.

        Returns
        -------
        ndarray of str
            One name per selected feature.
        """
        check_is_fitted(self, "selected_")
        return check_feature_names_in(self, input_features)[self.selected_]

    def _check_size(self, n_features: int, available: int) -> int:
        """``n_features`` of ``selection``, at most ``available``."""
        n_features = check_positive_int(n_features, "n_features")
        if n_features > available:
            raise InputError(
                f"n_features={n_features} exceeds the {available} features this fit can rank; "
                "refit with a larger n_features."
            )
        return n_features


def discretize(X: np.ndarray, n_bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Equal-width codes of the training data, feature-major (d, n), binned once and read by
    every information measure, and each feature's number of states."""
    discretizer = Discretizer(n_bins).fit(X)
    return np.ascontiguousarray(discretizer.transform(X).T), discretizer.n_states_


@validate_params({"X": ["array-like", "sparse matrix"], "Y": ["array-like", "sparse matrix"],
                  "n_bins": [AT_LEAST_TWO]}, prefer_skip_nested_validation=True)
def label_relevance(X, Y, n_bins: int = 2) -> np.ndarray:
    """FMI(f; L) = sum_l I(f; l) of every feature, after equal-width discretisation (the
    ranking that picks MFSEF's automatic experts)."""
    X = check_array(X, accept_sparse="csr", dtype=np.float64, input_name="X")
    codes, states = discretize(X, n_bins)
    labels = LabelEntropies.of(as_label_matrix(Y, X.shape[0], "Y"))
    return labels.mutual_information(codes, states).sum(axis=1)


def top_features(relevance: np.ndarray, n: int) -> np.ndarray:
    """The ``n`` most relevant features, most relevant first (ties: lower index first); the
    rule of MFSEF's automatic experts."""
    return np.argsort(-np.asarray(relevance), kind="stable")[:n].astype(np.int64)
