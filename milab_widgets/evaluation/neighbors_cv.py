"""The intH paper's protocol for neighbour bag classifiers: nested cross-validation.

Outer k-fold cross-validation (10 folds in the paper) estimates accuracy; inside each outer
training fold, an inner k-fold cross-validation (5 folds) picks the number of references /
neighbours K from ``k_grid`` and, for the integrated distance, the NCA bandwidth sigma from
``sigma_grid`` (alpha is tuned by NCA + golden-section search on each training part, once
per sigma, and shared by every K). Folds are stratified and shuffled with ``seed``.

The alternative that needs no NCA, choosing alpha by the same inner cross-validation over a
grid of alphas (:data:`ALPHA_GRID`) jointly with K, is :func:`alpha_by_cv_grid`: the
comparator of the paper's claim that NCA + golden-section search finds alpha quickly
(:mod:`milab_widgets.claims.inth`, ``alpha-search-fast``).

Everything works on precomputed bag-distance matrices over all bags, so no instance
distance is computed twice. A fold only says which bags train and which are tested; one
numba pass (:func:`~milab_widgets.core.neighbor_votes.fold_accuracies`) scans the matrix
rows for each test bag's references and each training bag's citation radius, without
slicing or sorting. The votes equal those of :class:`~milab_widgets.mil.CitationKNN` /
:class:`~milab_widgets.mil.BagKNN` fitted on each training part (tested); ties among
references go to the lower bag index, as the estimators' stable ranking does when training
indices ascend (every splitter here returns them so).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
import pandas as pd

from milab_widgets.core.neighbor_votes import fold_accuracies
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.evaluation.splits import stratified_folds, stratified_splits, subset
from milab_widgets.mil.distances import METRIC_INPUTS, metric_distance
from milab_widgets.mil.nca import tune_alpha_nca
from milab_widgets.mil.neighbors import CITERS_BEYOND_REFERENCES, CLASSIFIERS
from milab_widgets.mil.validation import check_choice

__all__ = [
    "grid_accuracies", "training_bags", "nca_alphas", "alpha_by_cv_grid",
    "fixed_alpha_accuracy", "inner_folds_of", "select_parameters", "nested_cv",
    "nested_cv_tasks", "fold_table",
]

#: The paper's grids (the intH paper, §2).
K_GRID = (1, 3, 5, 7)
SIGMA_GRID = (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)
#: The comparator's alphas (:func:`alpha_by_cv_grid`): 0, 0.1, ..., 1, the resolution of the
#: coarse grid that :func:`~milab_widgets.mil.tune_alpha_nca` evaluates before its search.
ALPHA_GRID = tuple(np.round(np.linspace(0.0, 1.0, 11), 1).tolist())

MatrixSource = Callable[[np.ndarray], dict]

#: Columns of a parameter-search score table (:func:`grid_accuracies`).
SCORE_COLUMNS = ["split", "k", "sigma", "alpha", "accuracy"]


def grid_accuracies(
    classifier: str,
    metric: str,
    matrices: dict,
    y: np.ndarray,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
    k_grid: Sequence[int] = K_GRID,
    sigma_grid: Sequence[float] = SIGMA_GRID,
) -> pd.DataFrame:
    """Accuracy of every (split, K, sigma) with alpha tuned on each split's training part.

    Returns one row per split and parameter pair: split, k, sigma, alpha, accuracy.
    ``sigma`` and ``alpha`` are NaN for metrics other than "integrated"; a K above a split's
    number of training bags has no row. The votes are those of ``make_bag_classifier``'s
    estimators fitted on each training part (a test checks it), computed by
    :func:`~milab_widgets.core.neighbor_votes.fold_accuracies`; ties among references go
    to the lower bag index.
    """
    voter = _Voter(classifier, metric, matrices, y)
    ks, sigmas = voter.grid_axes(k_grid, sigma_grid)
    rows = []
    for number, (train, test) in enumerate(splits):
        accuracies, alphas = voter.grid(_one_split(len(voter.labels), train, test), [0], ks,
                                        sigmas)
        rows.extend((number, int(k), sigma, alphas[0, j], float(accuracies[0, j, i]))
                    for j, sigma in enumerate(sigmas) for i, k in enumerate(ks)
                    if not np.isnan(accuracies[0, j, i]))
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


def _one_split(n_bags: int, train, test) -> np.ndarray:
    """``fold_of`` (see :meth:`_Voter.grid`) of one split: its test bags fold 0, its
    training bags fold 1, every other bag -1."""
    fold_of = np.full(n_bags, -1)
    fold_of[train], fold_of[test] = 1, 0
    return fold_of


class _Voter:
    """One classifier and metric over precomputed matrices of all bags, ready to vote on folds.

    The metric's query and training matrices are built once (for "integrated", once per
    tuned alpha); a fold costs one scan of its rows.
    """

    def __init__(self, classifier: str, metric: str, matrices: dict, y):
        check_choice(classifier, CLASSIFIERS, "classifier")
        check_choice(metric, METRIC_INPUTS, "metric")
        self.classifier, self.metric, self.matrices = classifier, metric, matrices
        self.labels = np.asarray(y, dtype=np.int64)
        self._fixed = None if metric == "integrated" else self._voting(None)

    def grid_axes(self, k_grid, sigma_grid) -> tuple[np.ndarray, np.ndarray]:
        """The K and sigma axes of :meth:`grid` (sigma: one NaN unless "integrated")."""
        sigmas = sigma_grid if self.metric == "integrated" else [np.nan]
        return np.asarray(k_grid, dtype=np.int64), np.asarray(sigmas, dtype=float)

    def grid(self, fold_of, folds, ks, sigmas) -> tuple[np.ndarray, np.ndarray]:
        """accuracy[fold, sigma, K] (NaN: K above the fold's training bags) and
        alpha[fold, sigma] (NaN unless "integrated") for each fold of ``folds``; see
        :func:`~milab_widgets.core.neighbor_votes.fold_accuracies` for ``fold_of``."""
        citers = self._citers(ks)
        folds = np.asarray(folds, dtype=np.int64)
        alphas = np.full((len(folds), len(sigmas)), np.nan)
        if self._fixed is not None:
            accuracies = fold_accuracies(*self._fixed, self.labels, fold_of, folds, ks, citers)
            return accuracies[:, np.newaxis, :], alphas
        accuracies = np.empty((len(folds), len(sigmas), len(ks)))
        for at, fold in enumerate(folds):
            alphas[at] = nca_alphas(self.matrices, self.labels, training_bags(fold_of, fold),
                                    sigmas)
            for j, alpha in enumerate(alphas[at]):
                accuracies[at, j] = fold_accuracies(*self._voting(alpha), self.labels,
                                                    fold_of, folds[at : at + 1], ks, citers)[0]
        return accuracies, alphas

    def alpha_grid(self, fold_of, folds, ks, alphas) -> np.ndarray:
        """accuracy[fold, alpha, K] of the integrated metric at each fixed alpha of
        ``alphas`` (NaN: K above the fold's training bags), for each fold of ``folds``."""
        folds = np.asarray(folds, dtype=np.int64)
        return np.stack([fold_accuracies(*self._voting(alpha), self.labels, fold_of, folds, ks,
                                         self._citers(ks)) for alpha in alphas], axis=1)

    def _citers(self, ks):
        """Citation-KNN's citers for each references count of ``ks`` (none for KNN)."""
        return ks + CITERS_BEYOND_REFERENCES if self.classifier == "citation-knn" else ks[:0]

    def _voting(self, alpha):
        """(query matrix, training matrix) over all bags: the rows that pick a test bag's
        references and a training bag's citation radius."""
        query = np.ascontiguousarray(
            metric_distance(self.matrices, self.metric, alpha=alpha, labels=self.labels),
            dtype=np.float64)
        if self.metric != "adapted":
            return query, query
        return query, np.ascontiguousarray(query.T)  # a training bag's own label decides


def training_bags(fold_of, fold: int) -> np.ndarray:
    """The bags that train when ``fold`` is tested: those of every other fold (``fold_of``
    as in :meth:`_Voter.grid`: a bag's fold, -1 for bags outside the cross-validation)."""
    fold_of = np.asarray(fold_of)
    return np.flatnonzero((fold_of >= 0) & (fold_of != fold))


def nca_alphas(matrices: dict, y, train, sigmas) -> np.ndarray:
    """alpha tuned by NCA + golden-section search on the bags ``train``, one per sigma.

    The protocol's step for the integrated distance (the intH paper, §1.2): for each
    candidate sigma, alpha* = argmax_alpha f(alpha) over the training bags, by
    :func:`~milab_widgets.mil.tune_alpha_nca` (an 11-point grid, then golden-section search).

    Parameters
    ----------
    matrices : dict
        Holding the "min" and "max" bag-distance matrices over all bags.
    y : (n_bags,) array
        0/1 labels of all bags.
    train : array of int
        The training bags' indices.
    sigmas : sequence of float
        The NCA bandwidths.

    Returns
    -------
    ndarray of shape (len(sigmas),)
        alpha* for each sigma.
    """
    y = np.asarray(y)
    part = subset({kind: matrices[kind] for kind in ("min", "max")}, train, train)
    return np.array([tune_alpha_nca(part["min"], part["max"], y[train], sigma)[0]
                     for sigma in sigmas])


def alpha_by_cv_grid(classifier: str, matrices: dict, y, fold_of, folds,
                     k_grid: Sequence[int] = K_GRID,
                     alpha_grid: Sequence[float] = ALPHA_GRID) -> dict:
    """alpha chosen without NCA: the (K, alpha) of highest mean cross-validated accuracy.

    The comparator of the intH paper's "NCA + golden-section search optimises alpha
    quickly": what a researcher would do without NCA, cross-validate the classifier with
    d_intH = alpha d_minH + (1 - alpha) d_maxH over a grid of alphas, on the inner folds the
    protocol already uses for K, jointly with K (no sigma: it exists only in NCA's model).
    Each alpha costs one combination of the matrices and one scan per fold of the rows
    (:func:`~milab_widgets.core.neighbor_votes.fold_accuracies`, every K at once). Ties (within
    :data:`TIE_TOLERANCE`) go to the smaller K, then the smaller alpha.

    Parameters
    ----------
    classifier : {"citation-knn", "knn"}
    matrices : dict
        Holding the "min" and "max" bag-distance matrices over all bags.
    y : (n_bags,) array
        0/1 labels of all bags.
    fold_of : (n_bags,) array of int
        Each bag's inner fold, -1 for bags outside the training set (:func:`inner_folds_of`).
    folds : sequence of int
        The folds to test.
    k_grid, alpha_grid : sequences
        References / K, and the alphas (default :data:`ALPHA_GRID`).

    Returns
    -------
    dict
        ``k``, ``alpha`` and ``inner_accuracy`` (the mean accuracy over ``folds`` there).
    """
    voter = _Voter(classifier, "integrated", matrices, y)
    ks, alphas = np.asarray(k_grid, dtype=np.int64), np.asarray(alpha_grid, dtype=float)
    means = _mean_over_folds(voter.alpha_grid(fold_of, folds, ks, alphas))
    return _best_parameters(ks, alphas, means.T, name="alpha")


def fixed_alpha_accuracy(classifier: str, matrices: dict, y, train, test, k: int,
                         alpha: float) -> float:
    """Accuracy on the bags ``test`` of ``classifier`` with ``k`` references / neighbours
    among the bags ``train`` and the integrated distance at a fixed ``alpha``."""
    voter = _Voter(classifier, "integrated", matrices, y)
    return float(voter.alpha_grid(_one_split(len(voter.labels), train, test), [0],
                                  np.array([k], dtype=np.int64), [alpha])[0, 0, 0])


def inner_folds_of(y, train, inner_folds: int, seed: int) -> np.ndarray:
    """Each bag's inner fold within the outer training bags ``train`` (-1 for the others):
    the stratified, shuffled folds on which the protocol selects its parameters."""
    labels = np.asarray(y)
    fold_of = np.full(len(labels), -1)
    fold_of[train] = stratified_folds(labels[train], inner_folds, seed)
    return fold_of


def select_parameters(scores) -> dict:
    """The (K, sigma) of highest mean accuracy; ties go to the smaller K, then smaller sigma.

    ``scores``: a table with columns k, sigma, accuracy (a DataFrame or a mapping of
    columns), e.g. :func:`grid_accuracies` over inner folds. A NaN sigma (metrics other
    than "integrated") is one group.
    """
    sigma = np.asarray(scores["sigma"], dtype=float)
    ks, k_at = np.unique(np.asarray(scores["k"], dtype=np.int64), return_inverse=True)
    sigmas, sigma_at = np.unique(np.where(np.isnan(sigma), np.inf, sigma), return_inverse=True)
    cell = k_at.ravel() * len(sigmas) + sigma_at.ravel()
    size = len(ks) * len(sigmas)
    totals = np.bincount(cell, np.asarray(scores["accuracy"], dtype=float), minlength=size)
    counts = np.bincount(cell, minlength=size)
    with np.errstate(invalid="ignore"):
        means = (totals / counts).reshape(len(ks), len(sigmas))
    return _best_parameters(ks, np.where(sigmas == np.inf, np.nan, sigmas), means)


#: Mean accuracies closer than this are tied. Means of fold accuracies that are equal as
#: fractions can differ in their last bit, depending on the order of summation; without
#: the tolerance such a tie went to whichever K's rounding came out higher.
TIE_TOLERANCE = 1e-9


def _best_parameters(ks, sigmas, means, name: str = "sigma") -> dict:
    """The (K, sigma) of highest ``means[K, sigma]`` (NaN: not evaluated); ties (within
    :data:`TIE_TOLERANCE`) go to the smaller K, then the smaller sigma (a NaN sigma last).
    ``name``: the second parameter's key in the result (alpha for the comparator's grid)."""
    k_order = np.argsort(ks, kind="stable")
    sigma_order = np.argsort(np.where(np.isnan(sigmas), np.inf, sigmas), kind="stable")
    ordered = means[np.ix_(k_order, sigma_order)]
    best = ordered >= np.nanmax(ordered) - TIE_TOLERANCE  # NaN compares False
    i, j = np.unravel_index(np.argmax(best), ordered.shape)  # the first of the best
    return {"k": int(ks[k_order[i]]), name: float(sigmas[sigma_order[j]]),
            "inner_accuracy": float(ordered[i, j])}


def nested_cv(
    classifier: str,
    metric: str,
    matrix_source: MatrixSource,
    y,
    *,
    outer_folds: int = 10,
    inner_folds: int = 5,
    k_grid: Sequence[int] = K_GRID,
    sigma_grid: Sequence[float] = SIGMA_GRID,
    seed: int = 0,
    cache: ResultCache | None = None,
    cache_parts: dict | None = None,
    progress: bool = False,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """Outer-fold accuracies of one method under the paper's nested cross-validation.

    Parameters
    ----------
    classifier : {"citation-knn", "knn"}
    metric : {"min", "max", "average", "adapted", "integrated"}
    matrix_source : callable
        ``matrix_source(outer_train_indices)`` -> dict kind -> (n_bags, n_bags) matrix over
        ALL bags. It receives the outer training indices so that a feature scaling fitted on
        them (never on the test fold) can be applied before computing distances.
    y : (n_bags,) 0/1 labels.
    cache, cache_parts
        Each outer fold's record is cached under ``cache_parts`` plus this call's settings,
        so a rerun after an interruption recomputes only unfinished folds.
    n_jobs
        The outer folds run through joblib (`milab_widgets.evaluation.grid.run_grid`).

    Returns
    -------
    DataFrame, one row per outer fold: classifier, metric, fold, k, sigma, alpha,
    inner_accuracy, accuracy, n_test, seconds.
    """
    tasks = nested_cv_tasks(classifier, metric, matrix_source, y, outer_folds=outer_folds,
                            inner_folds=inner_folds, k_grid=k_grid, sigma_grid=sigma_grid,
                            seed=seed, cache_parts=cache_parts)
    records = run_grid(tasks, cache or ResultCache(None), n_jobs, progress,
                       desc=f"{classifier}+{metric}")
    return fold_table(tasks, records)


def nested_cv_tasks(classifier: str, metric: str, matrix_source: MatrixSource, y, *,
                    outer_folds: int = 10, inner_folds: int = 5,
                    k_grid: Sequence[int] = K_GRID, sigma_grid: Sequence[float] = SIGMA_GRID,
                    seed: int = 0, cache_parts: dict | None = None) -> list[GridTask]:
    """`nested_cv`'s grid: one task per outer fold, keyed by the method's settings + fold."""
    y = np.asarray(y)
    settings = dict(
        classifier=classifier, metric=metric, outer_folds=outer_folds, inner_folds=inner_folds,
        k_grid=list(k_grid), sigma_grid=list(sigma_grid), seed=seed, **(cache_parts or {}),
    )
    return [GridTask({**settings, "fold": fold},
                     partial(_outer_fold_from_source, classifier, metric, matrix_source, y, train,
                             test, inner_folds, k_grid, sigma_grid, seed))
            for fold, (train, test) in enumerate(stratified_splits(y, outer_folds, seed))]


def fold_table(tasks: Sequence[GridTask], records: Sequence[dict]) -> pd.DataFrame:
    """One row per outer-fold task: its classifier, metric and fold, then its record."""
    return pd.DataFrame.from_records([
        {key: task.parts[key] for key in ("classifier", "metric", "fold")} | record
        for task, record in zip(tasks, records, strict=True)
    ])


def _outer_fold_from_source(classifier, metric, matrix_source, y, train, test, *args) -> dict:
    return _outer_fold(classifier, metric, matrix_source(train), y, train, test, *args)


def _outer_fold(classifier, metric, matrices, y, train, test, inner_folds, k_grid, sigma_grid,
                seed) -> dict:
    started = time.perf_counter()
    voter = _Voter(classifier, metric, matrices, y)
    ks, sigmas = voter.grid_axes(k_grid, sigma_grid)
    inner = inner_folds_of(voter.labels, train, inner_folds, seed)
    inner_accuracies, _ = voter.grid(inner, np.arange(inner_folds), ks, sigmas)
    best = _best_parameters(ks, sigmas, _mean_over_folds(inner_accuracies).T)
    accuracy, alpha = voter.grid(_one_split(len(voter.labels), train, test), [0], np.array([best["k"]]), np.array([best["sigma"]]))
    return {
        "k": best["k"],
        "sigma": best["sigma"],
        "alpha": float(alpha[0, 0]),
        "inner_accuracy": best["inner_accuracy"],
        "accuracy": float(accuracy[0, 0, 0]),
        "n_test": int(len(test)),
        "seconds": time.perf_counter() - started,
    }


def _mean_over_folds(accuracies: np.ndarray) -> np.ndarray:
    """Mean over axis 0 of the folds that evaluated each cell (NaN where none did)."""
    evaluated = ~np.isnan(accuracies)
    with np.errstate(invalid="ignore"):
        return np.where(evaluated, accuracies, 0.0).sum(axis=0) / evaluated.sum(axis=0)
