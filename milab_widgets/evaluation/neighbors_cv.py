"""The intH paper's protocol for neighbour bag classifiers: nested cross-validation.

Outer k-fold cross-validation (10 folds in the paper) estimates accuracy; inside each outer
training fold, an inner k-fold cross-validation (5 folds) picks the number of references /
neighbours K from ``k_grid`` and, for the integrated distance, the NCA bandwidth sigma from
``sigma_grid`` (alpha is tuned by NCA + golden-section search on each training part, once
per sigma, and shared by every K). Folds are stratified and shuffled with ``seed``.

Everything works on precomputed bag-distance matrices over all bags: a fold only slices
them, so no instance distance is computed twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
import pandas as pd

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.evaluation.splits import stratified_splits, subset
from milab_widgets.mil.distances import METRIC_INPUTS
from milab_widgets.mil.nca import tune_alpha_nca
from milab_widgets.mil.neighbors import make_bag_classifier

#: The paper's grids (the intH paper, §2).
K_GRID = (1, 3, 5, 7)
SIGMA_GRID = (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)

MatrixSource = Callable[[np.ndarray], dict]


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
    ``sigma`` and ``alpha`` are NaN for metrics other than "integrated".
    """
    sigmas = sigma_grid if metric == "integrated" else (np.nan,)
    needed = METRIC_INPUTS[metric]
    rows = []
    for split_number, (train, test) in enumerate(splits):
        base = {kind: matrices[kind] for kind in needed}
        train_part, query_part = subset(base, train, train), subset(base, test, train)
        ks = [k for k in k_grid if k <= len(train)]
        for sigma in sigmas:
            alpha = _alpha_for(metric, train_part, y[train], sigma)
            if not ks:
                continue
            # one fit and one ranking serve every K (decision_function_grid)
            model = make_bag_classifier(classifier, max(ks), metric=metric, alpha=alpha)
            votes = model.fit(train_part, y[train]).decision_function_grid(query_part, ks)
            accuracies = ((votes > 0) == (y[test] == 1)).mean(axis=1)
            rows.extend((split_number, k, sigma, np.nan if alpha is None else alpha, float(accuracy))
                        for k, accuracy in zip(ks, accuracies))
    return pd.DataFrame(rows, columns=["split", "k", "sigma", "alpha", "accuracy"])


def _alpha_for(metric: str, train_part: dict, y_train: np.ndarray, sigma: float):
    """NCA-tuned alpha for the integrated distance; None for every other metric."""
    if metric != "integrated":
        return None
    alpha, _ = tune_alpha_nca(train_part["min"], train_part["max"], y_train, sigma)
    return float(alpha)


def select_parameters(scores: pd.DataFrame) -> dict:
    """The (K, sigma) of highest mean accuracy; ties go to the smaller K, then smaller sigma.

    (A NaN sigma, metrics other than "integrated", is one group, ranked last.) numpy: this
    runs once per outer fold, where a pandas groupby cost a third of Musk1's nested CV.
    """
    sigma = scores["sigma"].to_numpy(float)
    keys = np.column_stack([scores["k"].to_numpy(float), np.where(np.isnan(sigma), np.inf, sigma)])
    pairs, group = np.unique(keys, axis=0, return_inverse=True)  # sorted by K, then sigma
    group = group.ravel()
    means = np.bincount(group, scores["accuracy"].to_numpy(float)) / np.bincount(group)
    best = int(np.argmax(means))  # the first maximum: smallest K, then smallest sigma
    k, best_sigma = pairs[best]
    return {"k": int(k), "sigma": float(np.nan if best_sigma == np.inf else best_sigma),
            "inner_accuracy": float(means[best])}


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
        for task, record in zip(tasks, records)
    ])


def _outer_fold_from_source(classifier, metric, matrix_source, y, train, test, *args) -> dict:
    return _outer_fold(classifier, metric, matrix_source(train), y, train, test, *args)


def _outer_fold(classifier, metric, matrices, y, train, test, inner_folds, k_grid, sigma_grid,
                seed) -> dict:
    started = time.perf_counter()
    inner = [(train[a], train[b]) for a, b in stratified_splits(y[train], inner_folds, seed)]
    best = select_parameters(grid_accuracies(classifier, metric, matrices, y, inner, k_grid, sigma_grid))
    final = grid_accuracies(classifier, metric, matrices, y, [(train, test)], [best["k"]],
                            [best["sigma"]])
    return {
        "k": best["k"],
        "sigma": best["sigma"],
        "alpha": float(final["alpha"].iloc[0]),
        "inner_accuracy": best["inner_accuracy"],
        "accuracy": float(final["accuracy"].iloc[0]),
        "n_test": int(len(test)),
        "seconds": time.perf_counter() - started,
    }
