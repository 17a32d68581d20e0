"""Bad input over every public callable (issue 25): what each kind of bad input gets.

The issue's input kinds (NaN, inf, 1e308 and 1e154, empty, one sample, identical rows,
constant or all-zero labels, wrong label values and types, wrong shapes, complex, strings,
negative or fractional hyper-parameters, unknown options, reordered DataFrame columns,
predict before fit, sparse formats, read-only arrays, truncated and empty files) are fed to
every public estimator (found from the packages' exports, so a new one is swept too), the
bag containers, the distance and NCA functions, the multi-label metrics, the statistics and
the file readers. Each outcome is classified:

* ``clear error``: an exception whose message names the argument or the problem
  (and not a wrong one, e.g. "contains NaN" for 1e308, or gamma_l1 for identical rows);
* ``handled correctly``: a valid input accepted with a right result (checked against an
  oracle where there is one), or a degenerate problem answered with a warning naming it;
* ``silent wrong result``: a bad input accepted without a word, or a wrong/NaN result;
* ``obscure error``: an exception that does not say what is wrong (KeyError, IndexError,
  ZeroDivisionError, numpy's "could not convert", ...);
* ``hang``: no answer within ``--timeout`` seconds (the worker is killed and replaced);
* ``valid input refused``: an input that should work raised.

Cases run in a few worker processes (``--workers``, each a fresh interpreter answering case
after case on a pipe; a hung case costs its worker, which is restarted), niced, so the
sweep stays cheap on a loaded machine. Each worker first runs the valid-input cases once,
unjudged, so that numba's compilation (up to a minute on a fresh checkout at load 14) does
not count against a case's timeout. Writes benchmarks/results/bad_input_sweep.json
(counts by outcome and by input kind, and every case's outcome and message).

Run: nice -n 5 python benchmarks/bad_input_sweep.py [--workers 2] [--timeout 60]
To sweep an older commit, point PYTHONPATH at a worktree of it:
    git worktree add /tmp/sweep-before 33aeed7
    PYTHONPATH=/tmp/sweep-before python benchmarks/bad_input_sweep.py --output before.json
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).parent / "results" / "bad_input_sweep.json"
OUTCOMES = ("clear error", "handled correctly", "silent wrong result", "obscure error", "hang",
            "valid input refused")
#: Exception types that never say what is wrong with the input, whatever their message.
#: (Matched by exact type: their subclasses, e.g. NotFittedError, say more.)
BARE_ERRORS = (KeyError, IndexError, AttributeError, ZeroDivisionError, UnboundLocalError,
               NameError, RecursionError, OSError)

# What a case expects: a refusal; a refusal or a warning (a degenerate problem); a correct
# result; a refusal or a correct result (e.g. 1e308: refused above a stated bound, or finite).
REFUSE, WARN, ACCEPT, EITHER = "refuse", "warn", "accept", "either"


@dataclass
class Case:
    target: str                 # the callable, e.g. "SVDD.fit"
    kind: str                   # the input kind, e.g. "1e308"
    expect: str                 # REFUSE, WARN, ACCEPT or EITHER
    run: object                 # () -> result
    names: tuple = ()           # words a clear message contains (any one, case-insensitive)
    wrong: tuple = ()           # words that would make the message misleading
    check: object = None        # result -> bool, for ACCEPT / EITHER (default: finite)

    @property
    def id(self) -> str:
        return f"{self.target} [{self.kind}]"


# -- data ---------------------------------------------------------------------------------------
def _rng(seed=0):
    return np.random.default_rng(seed)


def array_data():
    """(X, Y): 30 samples, 12 features, 3 varying labels."""
    X = _rng().normal(size=(30, 12))
    return X, np.c_[X[:, 0] > 0, X[:, 1] > 0, X[:, 2] > 0].astype(np.int64)


def bag_list(seed=0, n=12):
    rng = _rng(seed)
    return [rng.normal(size=(2 + i % 2, 2)) + 3 * (i % 2) for i in range(n)]


def bags(seed=0):
    from milab_widgets.data import BagDataset
    return BagDataset.from_bags(bag_list(seed), labels=np.arange(12) % 2)


def finite(result) -> bool:
    """Every number in ``result`` (arrays, tuples, dicts, estimators' outputs) is finite."""
    if isinstance(result, dict):
        return all(finite(v) for v in result.values())
    if isinstance(result, (tuple, list)):
        return all(finite(v) for v in result)
    try:
        values = np.asarray(result, dtype=np.complex128)
    except (TypeError, ValueError):
        return True
    return bool(np.isfinite(values).all())


# -- estimators ---------------------------------------------------------------------------------
#: Constructor arguments without a default, and smaller mixtures than the default 100
#: components (the sweep's bags hold 30 instances).
REQUIRED = {"BAMIC": {"n_clusters": 2}, "TwoViewMIClustering": {"n_clusters": 2, "n_components": 3},
            "MixtureModelKernel": {"n_components": 3}}
#: The method each family is used through after fit.
QUERY_METHODS = ("decision_function", "transform", "predict_proba", "predict", "gram", "factor")


def public_estimators() -> list[type]:
    from sklearn.base import BaseEstimator

    import milab_widgets.mil as mil
    import milab_widgets.multilabel as multilabel
    import milab_widgets.oneclass as oneclass
    from milab_widgets.multilabel.kcca import LeastSquaresKCCA
    exported = [getattr(p, n) for p in (mil, multilabel, oneclass) for n in p.__all__]
    classes = {c for c in exported if isinstance(c, type) and issubclass(c, BaseEstimator)}
    return sorted(classes | {LeastSquaresKCCA}, key=lambda c: c.__name__)


def family(cls) -> str:
    if cls.__name__ == "TwoViewMIClustering":
        return "twoview"
    return cls.__module__.split(".")[1]          # mil, multilabel, oneclass


def make(cls, **params):
    return cls(**{**REQUIRED.get(cls.__name__, {}), **params})


def query_method(cls):
    return next((m for m in QUERY_METHODS if hasattr(cls, m)), None)


def fit_then_query(cls, X, Y=None, query=None, **params):
    """Fit ``cls`` on (X, Y) and return its query method's output on ``query`` (default X)
    (the labels of a clustering, the selection of a selector)."""
    estimator = make(cls, **params)
    fitted = estimator.fit(X, Y) if Y is not None else estimator.fit(X)
    method = query_method(cls)
    if method is None:
        return getattr(fitted, "labels_", getattr(fitted, "selected_", None))
    return getattr(fitted, method)(X if query is None else query)


def fit_args(cls):
    """Valid (X, Y) for ``cls``."""
    kind = family(cls)
    if kind == "twoview":
        data = bags()
        return [data, data], None
    if kind == "mil":
        data = bags()
        return data, (data.labels if cls.__name__ in ("BagKNN", "CitationKNN") else None)
    X, Y = array_data()
    return X, (Y if kind == "multilabel" and cls.__name__ != "Discretizer" else None)


def hyperparameter_cases(cls) -> list[Case]:
    """A string, NaN, -1 and (for integer parameters) 2.5 for every parameter; an unknown
    option for every string parameter."""
    X, Y = fit_args(cls)
    cases = []
    for name, param in inspect.signature(cls).parameters.items():
        default = param.default
        values = {"string": "abc", "NaN": np.nan, "negative": -1}
        if isinstance(default, int) and not isinstance(default, bool):
            values["fractional"] = 2.5
        if isinstance(default, str):
            values = {"unknown option": "no-such-option", "NaN": np.nan}
        for kind, value in values.items():
            cases.append(Case(f"{cls.__name__}({name}=)", f"hyper-parameter {kind}", REFUSE,
                              lambda n=name, v=value: fit_then_query(cls, X, Y, **{n: v}),
                              names=(f"'{name}'", f"{name}=", f"{name} ")))
    return cases


def _with_value(X, value, at=(0, 0)):
    X = np.array(X, dtype=np.result_type(X, type(value)) if not isinstance(value, str) else object)
    X[at] = value
    return X


def array_estimator_cases(cls) -> list[Case]:
    """Feature-matrix and label kinds for the estimators on arrays (one-class, multi-label)."""
    X, Y = fit_args(cls)
    name = cls.__name__
    multilabel = Y is not None
    selector = hasattr(cls, "selection")
    fit = lambda X_, Y_=Y, **kw: fit_then_query(cls, X_, Y_, **kw)  # noqa: E731
    overflow_names = ("1e+150", "overflow", "beyond", "too large")
    cases = [
        Case(f"{name}.fit", "NaN", REFUSE, lambda: fit(_with_value(X, np.nan)), names=("NaN",)),
        Case(f"{name}.fit", "inf", REFUSE, lambda: fit(_with_value(X, np.inf)),
             names=("infinity", "inf")),
        Case(f"{name}.fit", "1e308", EITHER, lambda: fit(_with_value(X, 1e308)),
             names=overflow_names, wrong=("contains NaN", "gamma_l1")),
        Case(f"{name}.fit", "1e154", EITHER, lambda: fit(_with_value(X, 1e154)),
             names=overflow_names, wrong=("contains NaN", "gamma_l1")),
        Case(f"{name}.query", "1e308 at query", EITHER,
             lambda: fit_then_query(cls, X, Y, query=_with_value(X[:5], 1e308)),
             names=overflow_names, wrong=("contains NaN",)),
        Case(f"{name}.fit", "complex", REFUSE, lambda: fit(_with_value(X, 1 + 2j)),
             names=("complex",)),
        Case(f"{name}.fit", "string", REFUSE, lambda: fit(_with_value(X, "a")),
             names=("string", "convert", "numeric", "dtype")),
        Case(f"{name}.fit", "empty", REFUSE,
             lambda: fit(X[:0], None if Y is None else Y[:0]), names=("0 sample", "empty")),
        Case(f"{name}.fit", "1-D X", REFUSE, lambda: fit(X[:, 0]),
             names=("2D", "2-D", "reshape")),
        Case(f"{name}.fit", "read-only", ACCEPT, lambda: fit(_readonly(X), _readonly(Y))),
        Case(f"{name}.fit", "sparse X", EITHER, lambda: fit(_sparse(X)),
             names=("sparse", "toarray")),
        Case(f"{name}.query", "reordered DataFrame columns", REFUSE,
             lambda: _reordered_columns(cls, X, Y),
             names=("feature names", "same order", "column")),
        Case(f"{name}.query", "before fit", REFUSE,
             lambda: getattr(make(cls), query_method(cls) or "selection")(
                 *( (2,) if query_method(cls) is None else (X,))),
             names=("not fitted",)),
    ]
    degenerate_names = ("sample", "identical", "no information", "constant", "same for every",
                        "all 0", "all zero", "undefined", "varies", "vary", "no positive")
    if multilabel:
        cases += [
            Case(f"{name}.fit", "one sample", WARN, lambda: fit(X[:1], Y[:1]),
                 names=degenerate_names),
            Case(f"{name}.fit", "identical rows", WARN, lambda: fit(np.ones_like(X), Y),
                 names=degenerate_names, wrong=("division",)),
            Case(f"{name}.fit", "Y all zeros", WARN, lambda: fit(X, np.zeros_like(Y)),
                 names=degenerate_names),
            Case(f"{name}.fit", "Y 3-D", REFUSE, lambda: fit(X, Y[:, :, None]),
                 names=("2-D", "dimension"), wrong=("Unknown label type",)),
            Case(f"{name}.fit", "Y values 0/2", REFUSE, lambda: fit(X, 2 * Y),
                 names=("Y", "0/1", "binary")),
            Case(f"{name}.fit", "Y strings", REFUSE, lambda: fit(X, Y.astype(str)),
                 names=("Y", "0/1", "numeric", "string")),
            Case(f"{name}.fit", "Y wrong rows", REFUSE, lambda: fit(X, Y[:-1]),
                 names=("Y", "samples", "rows", "inconsistent")),
            Case(f"{name}.fit", "sparse Y", ACCEPT, lambda: fit(X, _sparse(Y)),
                 check=lambda r, Y=Y: _same_as_dense(cls, X, Y, r)),
        ]
    else:
        one_class_degenerate = EITHER
        cases += [
            Case(f"{name}.fit", "one sample", one_class_degenerate, lambda: fit(X[:1]),
                 names=("sample", "n_samples")),
            Case(f"{name}.fit", "identical rows", one_class_degenerate,
                 lambda: fit(np.ones_like(X)), names=("identical", "sample"),
                 wrong=("gamma_l1", "division")),
        ]
    if name == "SVDD":
        cases.append(Case(f"{name}.fit", "sample_weight strings", REFUSE,
                          lambda: make(cls).fit(X, sample_weight=["a"] * len(X)),
                          names=("sample_weight",)))
    if name == "AdaBoostSVDD":
        cases.append(Case(f"{name}.fit", "y all -1", REFUSE,
                          lambda: make(cls).fit(X, -np.ones(len(X), int)), names=("y",)))
    if name == "CDVSESVDD":
        cases.append(Case(f"{name}.fit", "spheres fitted on other data", REFUSE,
                          lambda: make(cls, n_estimators=5).fit(X, spheres=make(
                              cls, n_estimators=5).fit(X[:, :3] + 10).spheres_),
                          names=("spheres",)))
    if name in ("KernelMDDM", "LeastSquaresKCCA"):
        cases.append(Case(f"{name}.fit", "kernel_width=0", REFUSE,
                          lambda: fit(X, kernel_width=0.0), names=("kernel_width",)))
    if selector:
        cases.append(Case(f"{name}.selection", "string size", REFUSE,
                          lambda: make(cls).fit(X, Y).selection("2"), names=("n_features",)))
    return cases


def _readonly(A):
    if A is None:
        return None
    A = np.array(A)
    A.flags.writeable = False
    return A


def _sparse(A):
    import scipy.sparse
    return scipy.sparse.csr_matrix(A)


def _same_as_dense(cls, X, Y, result) -> bool:
    dense = fit_then_query(cls, X, Y)
    return np.allclose(np.asarray(result), np.asarray(dense), equal_nan=False)


def _reordered_columns(cls, X, Y):
    import pandas as pd
    columns = [f"f{j}" for j in range(X.shape[1])]
    frame = pd.DataFrame(X, columns=columns)
    estimator = make(cls)
    estimator.fit(frame, Y) if Y is not None else estimator.fit(frame)
    method = query_method(cls)
    return getattr(estimator, method)(frame[columns[::-1]])


# -- bag estimators -----------------------------------------------------------------------------
def _bags_changed(value):
    data = bags()
    data.instances[3, 1] = value
    return data


def _frame_bags(reverse=False):
    import pandas as pd

    from milab_widgets.data import BagDataset
    columns = ["a", "b"]
    frames = [pd.DataFrame(b, columns=columns) for b in bag_list()]
    if reverse:
        frames = [f[columns[::-1]] for f in frames]
    return BagDataset.from_bags(frames, labels=np.arange(12) % 2)


def bag_estimator_cases(cls) -> list[Case]:
    name = cls.__name__
    twoview = family(cls) == "twoview"

    def fit_on(data):
        X = [data, data] if twoview else data
        y = data.labels if name in ("BagKNN", "CitationKNN") else None
        return fit_then_query(cls, X, y)

    def reordered():
        train, query = _frame_bags(), _frame_bags(reverse=True)
        estimator = make(cls)
        if name in ("BagKNN", "CitationKNN"):
            return estimator.fit(train, train.labels).predict(query)
        return getattr(estimator.fit(train), query_method(cls) or "fit")(query)

    cases = [
        Case(f"{name}.fit", f"{label} in instances after construction", REFUSE,
             lambda v=value: fit_on(_bags_changed(v)), names=("instances",))
        for label, value in (("NaN", np.nan), ("inf", np.inf), ("1e308", 1e308),
                             ("1e154", 1e154))
    ]
    cases.append(Case(f"{name}.fit", "read-only instances", ACCEPT,
                      lambda: fit_on(_readonly_bags())))
    cases.append(Case(f"{name}.fit", "array instead of bags", REFUSE,
                      lambda: make(cls).fit(*([np.ones((4, 2))] + ([[0, 1, 0, 1]] if name in
                                              ("BagKNN", "CitationKNN") else []))),
                      names=("BagDataset", "bags", "views")))
    if not twoview and query_method(cls):
        cases.append(Case(f"{name}.query", "reordered DataFrame columns", REFUSE, reordered,
                          names=("feature names", "column", "same order")))
    if name in ("BagKNN", "CitationKNN"):
        cases += [
            Case(f"{name}.predict", "before fit", REFUSE,
                 lambda: make(cls).predict(bags()), names=("not fitted",)),
            Case(f"{name}.fit", "y one class", REFUSE,
                 lambda: make(cls).fit(bags(), np.zeros(12, int)), names=("y", "class")),
            Case(f"{name}.fit", "y strings", REFUSE,
                 lambda: make(cls).fit(bags(), np.array(["a", "b"] * 6)), names=("y",)),
        ]
    return cases


def _readonly_bags():
    data = bags()
    data.instances.flags.writeable = False
    return data


# -- functions ----------------------------------------------------------------------------------
D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])


def _D_with(value):
    matrix = D.astype(np.result_type(D, type(value)))
    matrix[0, 1] = matrix[1, 0] = value
    return matrix


def mil_function_cases() -> list[Case]:
    from milab_widgets import mil
    from milab_widgets.data import BagDataset
    y3 = [0, 1, 0]
    cases = []
    for label, value in (("NaN", np.nan), ("inf", np.inf), ("negative", -1.0),
                         ("complex", 1 + 1j)):
        cases += [
            Case("integrated_distance", label, REFUSE,
                 lambda v=value: mil.integrated_distance(_D_with(v), D, 0.5), names=("d_min",)),
            Case("adapted_distance", label, REFUSE,
                 lambda v=value: mil.adapted_distance(_D_with(v), D, y3), names=("d_min",)),
            Case("nca_objective", label, REFUSE,
                 lambda v=value: mil.nca_objective(_D_with(v), y3, 1.0), names=("distances",)),
            Case("tune_alpha_nca", label, REFUSE,
                 lambda v=value: mil.tune_alpha_nca(D, _D_with(v), y3, 1.0), names=("d_max",)),
        ]
    for label, value in (("zero", 0.0), ("negative", -1.0), ("string", "1"), ("NaN", np.nan)):
        cases.append(Case("nca_objective", f"sigma {label}", REFUSE,
                          lambda v=value: mil.nca_objective(D, y3, v), names=("sigma",)))
    for label, value in (("zero", 0), ("negative", -1), ("string", "1e-4")):
        cases += [
            Case("golden_section_maximize", f"tol {label}", REFUSE,
                 lambda v=value: mil.golden_section_maximize(np.sin, 0, 1, tol=v),
                 names=("tol",)),
            Case("tune_alpha_nca", f"tol {label}", REFUSE,
                 lambda v=value: mil.tune_alpha_nca(D, D, y3, 1.0, tol=v), names=("tol",)),
        ]
    cases += [
        Case("golden_section_maximize", "NaN objective", REFUSE,
             lambda: mil.golden_section_maximize(lambda a: np.nan, 0.0, 1.0), names=("NaN",)),
        Case("adapted_distance", "labels 1/2", REFUSE,
             lambda: mil.adapted_distance(D, D, [1, 2, 1]), names=("labels",)),
        Case("adapted_distance", "labels strings", REFUSE,
             lambda: mil.adapted_distance(D, D, ["a", "b", "a"]), names=("labels",)),
        Case("integrated_distance", "mismatched shapes", REFUSE,
             lambda: mil.integrated_distance(D, D[:, :2], 0.5), names=("shape",)),
        Case("nca_objective", "continuous labels", REFUSE,
             lambda: mil.nca_objective(D, [0.2, 0.7, 0.4], 1.0), names=("y",)),
        Case("metric_distance", "unknown metric", REFUSE,
             lambda: mil.metric_distance({"min": D}, "euclid"), names=("metric",)),
        Case("metric_distance", "list instead of dict", REFUSE,
             lambda: mil.metric_distance([D], "min"), names=("matrices",)),
        Case("metric_distance", "missing kind", REFUSE,
             lambda: mil.metric_distance({"max": D}, "min"), names=("matrices", "min")),
        Case("metric_distance", "alpha string", REFUSE,
             lambda: mil.metric_distance({"min": D, "max": D}, "integrated", alpha="0.5"),
             names=("alpha",)),
        Case("bag_distances", "1e308 after construction", REFUSE,
             lambda: mil.bag_distances(_bags_changed(1e308)), names=("instances",)),
        Case("bag_distances", "read-only", ACCEPT, lambda: mil.bag_distances(_readonly_bags())),
        Case("bag_distances", "unknown kind", REFUSE,
             lambda: mil.bag_distances(bags(), kinds=("median",)), names=("kinds", "median")),
        Case("nearest_bags", "n_neighbors string", REFUSE,
             lambda: mil.nearest_bags(bags(), n_neighbors="3"), names=("n_neighbors",)),
        Case("nearest_bags", "n_neighbors beyond bags", REFUSE,
             lambda: mil.nearest_bags(bags(), n_neighbors=50), names=("n_neighbors",)),
        Case("bag_kernel_matrices", "unknown kernel", REFUSE,
             lambda: mil.bag_kernel_matrices([bags()], "rbf"), names=("kernel",)),
        Case("BagDataset.from_bags", "complex", REFUSE,
             lambda: BagDataset.from_bags([[[0.0, 1.0]], [[1 + 2j, 1.0]]]), names=("complex",)),
        Case("BagDataset.from_bags", "sparse bag", EITHER,
             lambda: BagDataset.from_bags([_sparse(np.eye(2)), _sparse(np.ones((1, 2)))]),
             names=("sparse",), check=lambda d: np.allclose(d.instances, [[1, 0], [0, 1],
                                                                            [1, 1]])),
        Case("BagDataset.from_bags", "strings", REFUSE,
             lambda: BagDataset.from_bags([[["a", "b"]]]), names=("bag 0",)),
        Case("BagDataset.from_bags", "empty list", REFUSE,
             lambda: BagDataset.from_bags([]), names=("no bags",)),
        Case("BagDataset.from_bags", "empty bag", REFUSE,
             lambda: BagDataset.from_bags([np.ones((1, 2)), np.ones((0, 2))]), names=("empty",)),
        Case("BagDataset.from_bags", "1e308", REFUSE,
             lambda: BagDataset.from_bags([[[0.0, 1e308]]]), names=("beyond",)),
        Case("BagDataset.from_bags", "labels 0.5", REFUSE,
             lambda: BagDataset.from_bags([[[0.0]], [[1.0]]], labels=[0.5, 1]),
             names=("labels",)),
        Case("BagDataset.from_bags", "mixed column orders", REFUSE,
             lambda: _mixed_frames(), names=("column",)),
    ]
    from milab_widgets.data import image_bags
    images = _rng().random((2, 8, 8))
    for label, value in (("string", "3"), ("zero", 0), ("fractional", 2.5)):
        cases += [
            Case("patch_bags", f"size {label}", REFUSE,
                 lambda v=value: image_bags.patch_bags(images, size=v), names=("size",)),
            Case("lbp_bags", f"stride {label}", REFUSE,
                 lambda v=value: image_bags.lbp_bags(images, stride=v), names=("stride",)),
            Case("kmeans_segment_bags", f"n_segments {label}", REFUSE,
                 lambda v=value: image_bags.kmeans_segment_bags(images, n_segments=v),
                 names=("n_segments",)),
        ]
    return cases


def _mixed_frames():
    import pandas as pd

    from milab_widgets.data import BagDataset
    return BagDataset.from_bags([pd.DataFrame([[0.0, 1.0]], columns=["a", "b"]),
                                 pd.DataFrame([[0.0, 1.0]], columns=["b", "a"])])


def metric_cases() -> list[Case]:
    from milab_widgets.multilabel import metrics
    Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]])
    S = _rng().random(Y.shape)
    cases = []
    for metric, uses_predictions in metrics.METRICS.values():
        fn = metric.__name__
        second = Y if uses_predictions else S
        other = "Y_pred" if uses_predictions else "scores"
        cases += [
            Case(fn, "empty", REFUSE, lambda m=metric, s=second: m(Y[:0], s[:0]),
                 names=("empty", "no sample", "0 sample", "undefined")),
            Case(fn, "sparse Y_true", EITHER,
                 lambda m=metric, s=second: m(_sparse(Y), s), names=("sparse",),
                 check=lambda r, m=metric, s=second: np.isclose(r, m(Y, s))),
            Case(fn, "3-D Y_true", REFUSE, lambda m=metric, s=second: m(Y[:, :, None], s),
                 names=("Y_true",)),
            Case(fn, "Y_true strings", REFUSE, lambda m=metric, s=second: m(Y.astype(str), s),
                 names=("Y_true",)),
            Case(fn, f"{other} shape", REFUSE, lambda m=metric, s=second: m(Y, s[:, :2]),
                 names=(other, "shape")),
        ]
        if uses_predictions:
            cases.append(Case(fn, "Y_pred 0.5", REFUSE, lambda m=metric: m(Y, Y * 0.5),
                              names=("Y_pred",)))
        else:
            cases += [
                Case(fn, "complex scores", REFUSE, lambda m=metric: m(Y, S + 1j),
                     names=("complex",)),
                Case(fn, "NaN scores", REFUSE, lambda m=metric: m(Y, _with_value(S, np.nan)),
                     names=("NaN",)),
                _undefined_ranking_case(metric, np.zeros_like(Y), S),
            ]
    return cases


def _undefined_ranking_case(metric, Y_true, scores) -> Case:
    """Y_true without relevant labels: undefined (a warning) except for coverage, which by
    its documented convention is scikit-learn's coverage_error minus 1 (here -1)."""
    kind = "no instance with relevant and irrelevant labels"
    if metric.__name__ == "coverage":
        from sklearn.metrics import coverage_error
        return Case("coverage", kind, ACCEPT, lambda: metric(Y_true, scores),
                    check=lambda r: r == coverage_error(Y_true, scores) - 1)
    return Case(metric.__name__, kind, WARN, lambda: metric(Y_true, scores),
                names=("undefined", "no instance", "no label", "every label"))


def evaluation_cases() -> list[Case]:
    from milab_widgets import evaluation
    cases = []
    for label, value in (("string", "0.05"), ("above 1", 2.0), ("negative", -1.0),
                         ("NaN", np.nan)):
        cases.append(Case("nemenyi_cd", f"alpha {label}", REFUSE,
                          lambda v=value: evaluation.nemenyi_cd(3, 10, v), names=("alpha",)))
    cases += [
        Case("nemenyi_cd", "k string", REFUSE, lambda: evaluation.nemenyi_cd("3", 10),
             names=("'k'", "k ")),
        Case("friedman_test", "NaN cell", REFUSE,
             lambda: evaluation.friedman_test([[1.0, np.nan], [2.0, 1.0]]),
             names=("scores", "missing")),
        Case("friedman_test", "one dataset", EITHER,
             lambda: evaluation.friedman_test([[1.0, 2.0, 3.0]]), names=("dataset",)),
        Case("clustering_accuracy", "empty", REFUSE,
             lambda: evaluation.clustering_accuracy([], []), names=("empty", "y_true")),
        Case("clustering_accuracy", "NaN label", REFUSE,
             lambda: evaluation.clustering_accuracy([0, 1, np.nan], [0, 1, 1]), names=("NaN",)),
        Case("clustering_accuracy", "lengths differ", REFUSE,
             lambda: evaluation.clustering_accuracy([0, 1, 1], [0, 1]), names=("y_pred", "length",
                                                                               "shape")),
        Case("g_mean", "empty", REFUSE, lambda: evaluation.g_mean([], []),
             names=("empty", "y_true")),
        Case("g_mean", "labels 0/1", REFUSE, lambda: evaluation.g_mean([0, 1], [0, 1]),
             names=("y_true", "+1", "-1")),
    ]
    return cases


# -- readers ------------------------------------------------------------------------------------
def _file(folder, name, content: bytes):
    path = Path(folder) / name
    path.write_bytes(content)
    return path


def _mat_bytes(**arrays) -> bytes:
    import scipy.io
    buffer = io.BytesIO()
    scipy.io.savemat(buffer, arrays)
    return buffer.getvalue()


def reader_cases(folder) -> list[Case]:
    from milab_widgets.data import loaders, multilabel_loaders, twoview_files
    good_mat = _mat_bytes(data=np.ones((4, 2)), targets=np.ones((4, 2)))
    csv = b"1,0,0.5,0.25\n1,0,0.5,0.75\n2,1,1.5,0.25\n"
    arff = b"@relation r\n@attribute x numeric\n@attribute l {0,1}\n@data\n1.0,0\n2.0,1\n"
    xml = b'<?xml version="1.0"?><labels xmlns="http://mulan.sourceforge.net/labels">' \
          b'<label name="l"></label></labels>'
    files = {
        "empty.csv": b"", "truncated.csv": csv[:-7], "empty.mat": b"",
        "truncated.mat": good_mat[: len(good_mat) // 2], "empty.arff": b"",
        "truncated.arff": arff[:40], "labels.xml": xml, "empty.xml": b"",
        "truncated.xml": xml[:30], "good.arff": arff,
    }
    paths = {name: _file(folder, name, content) for name, content in files.items()}
    os.makedirs(Path(folder) / "empty-folder", exist_ok=True)
    clear = lambda name: (name, "empty", "truncated", "could not be read", "cannot")  # noqa: E731
    return [
        Case("read_mil_csv", "empty file", REFUSE,
             lambda: loaders.read_mil_csv(paths["empty.csv"]), names=clear("empty.csv")),
        Case("read_mil_csv", "truncated file", REFUSE,
             lambda: loaders.read_mil_csv(paths["truncated.csv"]), names=("truncated.csv",)),
        Case("read_prtools_mat", "empty file", REFUSE,
             lambda: loaders.read_prtools_mat(paths["empty.mat"]), names=("empty.mat",)),
        Case("read_prtools_mat", "truncated file", REFUSE,
             lambda: loaders.read_prtools_mat(paths["truncated.mat"]), names=("truncated.mat",)),
        Case("read_matlab_multilabel", "empty file", REFUSE,
             lambda: multilabel_loaders.read_matlab_multilabel(paths["empty.mat"]),
             names=("empty.mat",)),
        Case("read_matlab_multilabel", "truncated file", REFUSE,
             lambda: multilabel_loaders.read_matlab_multilabel(paths["truncated.mat"]),
             names=("truncated.mat",)),
        Case("read_mulan", "arff_paths=[]", REFUSE,
             lambda: multilabel_loaders.read_mulan([], paths["labels.xml"]),
             names=("arff_paths",)),
        Case("read_mulan", "empty ARFF", REFUSE,
             lambda: multilabel_loaders.read_mulan([paths["empty.arff"]], paths["labels.xml"]),
             names=("empty.arff",)),
        Case("read_mulan", "truncated ARFF", REFUSE,
             lambda: multilabel_loaders.read_mulan([paths["truncated.arff"]],
                                                   paths["labels.xml"]),
             names=("truncated.arff",)),
        Case("read_mulan_label_names", "empty XML", REFUSE,
             lambda: multilabel_loaders.read_mulan_label_names(paths["empty.xml"]),
             names=("empty.xml",)),
        Case("read_mulan_label_names", "truncated XML", REFUSE,
             lambda: multilabel_loaders.read_mulan_label_names(paths["truncated.xml"]),
             names=("truncated.xml",)),
        Case("read_two_view_folder", "empty folder", REFUSE,
             lambda: twoview_files.read_two_view_folder(Path(folder) / "empty-folder"),
             names=("empty-folder",)),
    ] + uci_recipe_cases(folder)


def uci_recipe_cases(folder) -> list[Case]:
    """Every UCI one-class recipe on an empty file and on one with too few columns."""
    from milab_widgets.data import uci_recipes
    empty = _file(folder, "empty.data", b"")
    short = _file(folder, "short.data", b"1,2,3\n4,5\n")
    loaders = [name for name in dir(uci_recipes) if name.startswith("load_")]
    return [Case(name, kind, REFUSE, lambda n=name, p=path: getattr(uci_recipes, n)([p], n),
                 names=(path.name,))
            for name in loaders for kind, path in (("empty file", empty),
                                                   ("truncated file", short))]


def build_cases(folder) -> list[Case]:
    cases = []
    for cls in public_estimators():
        cases += hyperparameter_cases(cls)
        if family(cls) in ("oneclass", "multilabel"):
            cases += array_estimator_cases(cls)
        else:
            cases += bag_estimator_cases(cls)
    return cases + mil_function_cases() + metric_cases() + evaluation_cases() + \
        reader_cases(folder)


# -- judging ------------------------------------------------------------------------------------
def _mentions(text: str, words) -> bool:
    text = text.lower()
    return any(word.lower() in text for word in words)


def judge(case: Case) -> dict:
    """Run ``case`` and classify what it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = case.run()
        except Exception as error:  # noqa: BLE001 -- every error is classified
            message = f"{type(error).__name__}: {error}"
            return {"outcome": _judge_error(case, error, message), "message": message[:400]}
    said = [str(w.message) for w in caught
            if not issubclass(w.category, (DeprecationWarning, FutureWarning))]
    warned = [m for m in said if _mentions(m, case.names)]
    correct = (case.check or finite)(result)
    if case.expect == ACCEPT or case.expect == EITHER:
        outcome = "handled correctly" if correct else "silent wrong result"
    elif case.expect == WARN and warned:
        outcome = "handled correctly"
    else:
        outcome = "silent wrong result"
    return {"outcome": outcome, "message": ("warned: " + warned[0] if warned else "")[:400]}


def _judge_error(case: Case, error: Exception, message: str) -> str:
    if case.expect == ACCEPT:
        return "valid input refused"
    if type(error) in BARE_ERRORS or not _mentions(message, case.names) or \
            (case.wrong and _mentions(message, case.wrong)):
        return "obscure error"
    return "clear error"


# -- workers ------------------------------------------------------------------------------------
def worker() -> None:
    """Answer case indices read from stdin with one JSON line each on the original stdout
    (the cases' own printing goes to stderr)."""
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    folder = tempfile.mkdtemp(prefix="bad-input-sweep-")
    cases = build_cases(folder)
    warm_up(cases)
    answers.write(json.dumps({"ready": len(cases)}) + "\n")
    answers.flush()
    for line in sys.stdin:
        case = cases[int(line)]
        try:
            answer = judge(case)
        except BaseException:  # noqa: BLE001 -- a broken case must not end the worker
            answer = {"outcome": "obscure error", "message": traceback.format_exc()[-400:]}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def warm_up(cases: list[Case]) -> None:
    """Run the valid-input cases once, unjudged, so that numba compiles its kernels (up to a
    minute on a fresh checkout under load) before any case's timeout starts: a timeout is
    meant to catch a case that does not end, not the first call's compilation."""
    for case in cases:
        if case.expect == ACCEPT:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with contextlib.suppress(Exception):  # judged later, in its turn
                    case.run()


class Worker:
    """One worker process; ``ask`` returns its answer for a case or None after the timeout
    (the process is then killed; the next ``ask`` starts a fresh one)."""

    def __init__(self, startup_timeout: float):
        self.process = None
        self.startup_timeout = startup_timeout

    def _start(self):
        self.process = subprocess.Popen(
            ["nice", "-n", "5", sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        if self._read(self.startup_timeout) is None:
            raise RuntimeError("a sweep worker did not start")

    def _read(self, timeout: float):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        return json.loads(line) if line else None

    def ask(self, index: int, timeout: float):
        if self.process is None or self.process.poll() is not None:
            self._start()
        self.process.stdin.write(f"{index}\n")
        self.process.stdin.flush()
        answer = self._read(timeout)
        if answer is None:
            self.stop()
        return answer

    def stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def run_sweep(cases: list[Case], workers: int, timeout: float) -> list[dict]:
    answers: list[dict | None] = [None] * len(cases)
    chunks = np.array_split(np.arange(len(cases)), workers)

    def serve(indices):
        process = Worker(startup_timeout=600)
        for index in indices:
            start = time.perf_counter()
            answer = process.ask(int(index), timeout)
            if answer is None:
                answer = {"outcome": "hang", "message": f"no answer within {timeout:g} s"}
            answer["seconds"] = round(time.perf_counter() - start, 3)
            answers[index] = answer
        process.stop()

    threads = [threading.Thread(target=serve, args=(chunk,)) for chunk in chunks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def summary(cases: list[Case], answers: list[dict]) -> dict:
    counts = {outcome: 0 for outcome in OUTCOMES}
    by_kind: dict = {}
    for case, answer in zip(cases, answers, strict=True):
        counts[answer["outcome"]] += 1
        kind = by_kind.setdefault(case.kind, {})
        kind[answer["outcome"]] = kind.get(answer["outcome"], 0) + 1
    return {"counts": counts, "by_kind": by_kind}


def comparison(earlier: dict, report: dict) -> dict:
    """The earlier run's label and counts, and every case whose outcome changed since."""
    before = {o["case"]: o["outcome"] for o in earlier["outcomes"]}
    changed = [{"case": o["case"], "before": before.get(o["case"], "not swept"),
                "after": o["outcome"]}
               for o in report["outcomes"] if before.get(o["case"]) != o["outcome"]]
    return {"label": earlier["label"], "cases": earlier["cases"], "counts": earlier["counts"],
            "changed": changed}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--label", default="", help="e.g. the commit swept")
    parser.add_argument("--compare", type=Path,
                        help="an earlier run's JSON: its counts and the cases whose outcome "
                             "changed are written beside this run's")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker()
        return
    with tempfile.TemporaryDirectory() as folder:
        cases = build_cases(folder)
    start = time.time()
    answers = run_sweep(cases, args.workers, args.timeout)
    import milab_widgets
    report = {
        "label": args.label, "package": str(Path(milab_widgets.__file__).parent),
        "cases": len(cases), "wall_seconds": round(time.time() - start, 1),
        "timeout_seconds": args.timeout, "workers": args.workers,
        "load_average": os.getloadavg(), **summary(cases, answers),
        "outcomes": [{"case": c.id, "target": c.target, "kind": c.kind, "expect": c.expect, **a}
                     for c, a in zip(cases, answers, strict=True)],
    }
    if args.compare:
        report["compared_with"] = comparison(json.loads(args.compare.read_text()), report)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: report[k] for k in ("label", "cases", "wall_seconds", "counts")}))


if __name__ == "__main__":
    main()
