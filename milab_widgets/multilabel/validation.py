"""What the multi-label estimators share with scikit-learn: their tags and the check of a
training pair (X, Y).

scikit-learn's multi-label convention is a 2-D 0/1 indicator matrix Y (n_samples x
n_labels, ``type_of_target`` "multilabel-indicator"); the tags below tell its common checks
(``check_estimator``) that Y is required and two-dimensional, so a single label is a column
of shape (n, 1), and that every label is binary (``classifier_tags.multi_class = False``,
also on the transformers: scikit-learn reads that tag, and only it, to give such estimators
two-class targets). X may be dense or scipy.sparse (converted to CSR); Y may be dense or sparse
and is returned dense: the label matrix is small (n x L) and every estimator counts on it.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse
from sklearn.utils import ClassifierTags
from sklearn.utils.multiclass import type_of_target

from milab_widgets._sklearn_private import Interval, InvalidParameterError
from milab_widgets.data.arrays import check_features
from milab_widgets.data.multilabel import as_label_matrix
from milab_widgets.exceptions import DegenerateInputWarning, InputError

__all__ = ["AT_LEAST_ONE", "AT_LEAST_TWO", "POSITIVE", "MultiLabelMixin",
           "check_multilabel_data", "constant_label_indices", "constant_labels",
           "no_information"]

#: Declared-constraint building blocks (scikit-learn's ``Interval``) of the estimators'
#: ``_parameter_constraints``: an int >= 1, an int >= 2, a finite float > 0.
AT_LEAST_ONE = Interval(Integral, 1, None, closed="left")
AT_LEAST_TWO = Interval(Integral, 2, None, closed="left")
POSITIVE = Interval(Real, 0, None, closed="neither")


class MultiLabelMixin:
    """Tags of an estimator fitted on (X, Y) with a 0/1 label matrix Y and sparse-capable X;
    put it first among the bases (before scikit-learn's mixins and ``BaseEstimator``)."""

    def _validate_params(self):
        """scikit-learn's check of the declared constraints, and: a count given as a bool
        (``MLkNN(k=True)``) is refused -- scikit-learn's ``Interval(Integral, ...)`` takes
        True as the integer 1, and the numeric core then failed with "an integer is
        required"."""
        super()._validate_params()
        for name, constraints in self._parameter_constraints.items():
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)) and any(
                    constraint in (AT_LEAST_ONE, AT_LEAST_TWO) for constraint in constraints):
                raise InvalidParameterError(
                    f"The {name!r} parameter of {type(self).__name__} must be a whole number, "
                    f"got the bool {value}; pass a count such as {name}=10.")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = True
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.classifier_tags = tags.classifier_tags or ClassifierTags()
        tags.classifier_tags.multi_class = False
        return tags


def check_multilabel_data(estimator, X, Y):
    """(X, Y) for fitting ``estimator``: X by :func:`~milab_widgets.data.arrays.check_features`
    (CSR if sparse, records ``n_features_in_``), Y as an int64 0/1 matrix with one row per
    sample; a :class:`~milab_widgets.exceptions.DegenerateInputWarning` when the pair holds
    no information (:func:`no_information`)."""
    X = check_features(estimator, X, reset=True, sparse=True)
    Y = as_label_matrix(_label_values(estimator, Y), X.shape[0], "Y")
    reason = no_information(X, Y)
    if reason:
        warnings.warn(f"{type(estimator).__name__}: {reason}, so (X, Y) holds no information "
                      "to learn or select on and the result is arbitrary.",
                      DegenerateInputWarning, stacklevel=3)
    return X, Y


def no_information(X, Y) -> str:
    """"" when the training pair can inform a fit, else why not: one sample, every row of
    X the same point (dense or CSR), or every label of Y constant."""
    if X.shape[0] < 2:
        return "there is one training sample"
    if scipy.sparse.issparse(X):
        identical = (X.max(axis=0) != X.min(axis=0)).nnz == 0
    else:
        identical = bool((X[0] == X).all())
    if identical:
        return "every row of X is the same point"
    if len(constant_label_indices(Y)) == Y.shape[1]:
        return "every label of Y is the same for all samples (all 0 or all 1)"
    return ""


def constant_labels(Y) -> str:
    """"" when every label of the 0/1 matrix ``Y`` varies, else the start of a message naming
    the labels that are all 0 or all 1 and how to drop them."""
    constant = constant_label_indices(Y)
    if not constant.size:
        return ""
    return (f"labels {constant[:10].tolist()} of Y are the same for every sample (all 0 or all "
            "1); drop them first with Y[:, (Y.sum(0) > 0) & (Y.sum(0) < len(Y))]")


def constant_label_indices(Y) -> np.ndarray:
    """Indices of the labels (columns of the 0/1 matrix ``Y``) that are all 0 or all 1."""
    positives = Y.sum(axis=0)
    return np.flatnonzero((positives == 0) | (positives == len(Y)))


def _label_values(estimator, Y):
    """Y dense, after the checks of its kind that scikit-learn's messages name: missing,
    unknown (object), continuous or multi-class targets are refused."""
    name = type(estimator).__name__
    if Y is None:
        raise InputError(f"{name} requires y to be passed, but the target y is None; pass Y, "
                         "the 0/1 label matrix (samples x labels).")
    if not scipy.sparse.issparse(Y) and np.ndim(Y) > 2:
        raise InputError(f"Y has shape {np.shape(Y)}; {name} needs a 2-D 0/1 label matrix "
                         "(samples x labels); for one label use Y.reshape(-1, 1).")
    kind = type_of_target(Y, input_name="Y", raise_unknown=True)
    if kind.startswith("continuous"):
        raise InputError(f"Y is continuous; {name} needs a 0/1 label matrix (samples x labels).")
    if kind.startswith("multiclass"):
        raise InputError(
            f"Only binary classification is supported: {name} needs a 0/1 label matrix "
            f"(samples x labels), got a {kind} target; one-hot encode classes with "
            "sklearn.preprocessing.MultiLabelBinarizer or LabelBinarizer."
        )
    return Y.toarray() if scipy.sparse.issparse(Y) else Y
