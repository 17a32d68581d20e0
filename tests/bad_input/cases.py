"""The public estimators and the inputs the bad-input tests feed them.

:func:`public_estimators` finds every scikit-learn estimator the packages export (so a new
estimator is checked without being listed here); :data:`REQUIRED` gives the constructor
arguments that have no default, :func:`fit_data` a small valid training set of the kind
the estimator takes (arrays X, Y for the multi-label and one-class estimators, a
BagDataset and bag labels for the multi-instance ones).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator

import milab_widgets.mil as mil
import milab_widgets.multilabel as multilabel
import milab_widgets.oneclass as oneclass
from milab_widgets.data import BagDataset
from milab_widgets.multilabel.kcca import LeastSquaresKCCA

#: Constructor arguments without a default.
REQUIRED = {"BAMIC": {"n_clusters": 2}, "TwoViewMIClustering": {"n_clusters": 2}}


def public_estimators() -> list[type]:
    """Every BaseEstimator subclass exported by milab_widgets.mil, .multilabel, .oneclass
    (plus LeastSquaresKCCA, public in its module)."""
    exported = [getattr(package, name) for package in (mil, multilabel, oneclass)
                for name in package.__all__]
    classes = {cls for cls in exported if isinstance(cls, type) and issubclass(cls, BaseEstimator)}
    return sorted(classes | {LeastSquaresKCCA}, key=lambda cls: cls.__name__)


def make(cls: type, **params) -> BaseEstimator:
    return cls(**{**REQUIRED.get(cls.__name__, {}), **params})


def is_bag_estimator(cls: type) -> bool:
    return cls.__module__.startswith("milab_widgets.mil")


def needs_label_matrix(cls: type) -> bool:
    """A multi-label estimator whose fit requires the 0/1 label matrix Y (its tags say so)."""
    return cls.__module__.startswith("milab_widgets.multilabel") and \
        make(cls).__sklearn_tags__().target_tags.required


def bags(seed: int = 0) -> BagDataset:
    """12 bags of 2-3 instances in 2 features, labels 0/1 alternating."""
    rng = np.random.default_rng(seed)
    return BagDataset.from_bags([rng.normal(size=(2 + i % 2, 2)) + 3 * (i % 2) for i in range(12)],
                                labels=np.arange(12) % 2)


def fit_data(cls: type) -> tuple:
    """(X, y) that fits ``cls`` with its default parameters (small and fast)."""
    if cls.__name__ == "TwoViewMIClustering":
        data = bags()
        return [data, data], data.labels
    if is_bag_estimator(cls):
        data = bags()
        return data, data.labels
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 12))
    Y = np.c_[X[:, 0] > 0, X[:, 1] > 0, X[:, 2] > 0].astype(np.int64)
    if cls.__module__.startswith("milab_widgets.oneclass"):
        return X, None
    return X, Y
