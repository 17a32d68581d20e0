"""Cross-validation splits and the slicing of precomputed bag-distance matrices by a split."""

from __future__ import annotations

import threading
import warnings

import numpy as np

from milab_widgets.exceptions import InputError

__all__ = ["stratified_splits", "stratified_folds", "subset"]


def stratified_splits(y, n_folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Stratified, shuffled (train, test) index pairs, both ascending (see
    :func:`stratified_folds`)."""
    fold_of = stratified_folds(y, n_folds, seed)
    in_test = fold_of == np.arange(n_folds)[:, np.newaxis]
    return [(np.flatnonzero(~row), np.flatnonzero(row)) for row in in_test]


def stratified_folds(y, n_folds: int, seed: int) -> np.ndarray:
    """Each sample's test fold (0 ... n_folds - 1) under stratified, shuffled k-fold.

    The folds are those of scikit-learn's ``StratifiedKFold(n_folds, shuffle=True,
    random_state=seed)`` (a test checks it), dealt here in a few numpy calls: a nested
    cross-validation deals 11 sets of folds per method and dataset, and scikit-learn's
    general splitter (target-type checks, per-call validation) cost more than the rest of
    Citation-KNN's nested CV on Musk1.

    The dealing rule: number the classes by first appearance and sort the labels by that
    number; sorted position p belongs to fold p mod n_folds. Each class thus owes each fold
    the count of its sorted positions congruent to the fold. Per class (in order of first
    appearance) that list of fold numbers, fold after fold, is shuffled by one
    ``np.random.RandomState(seed)`` and handed to the class's samples in index order.
    """
    y = np.asarray(y)
    n_folds = int(n_folds)
    if not 2 <= n_folds <= len(y):
        raise InputError(f"n_folds={n_folds} must lie between 2 and the {len(y)} samples.")
    _, first_seen, codes = np.unique(y, return_index=True, return_inverse=True)
    codes = np.argsort(np.argsort(first_seen))[codes.ravel()]  # classes by first appearance
    counts = np.bincount(codes)
    _check_class_sizes(counts, n_folds)
    starts = np.cumsum(counts) - counts
    random = _seeded(seed)
    fold_of = np.empty(len(y), dtype=np.int64)
    for cls, (start, count) in enumerate(zip(starts, counts, strict=True)):
        owed = np.bincount(np.arange(start, start + count) % n_folds, minlength=n_folds)
        folds = np.repeat(np.arange(n_folds), owed)
        random.shuffle(folds)
        fold_of[codes == cls] = folds
    return fold_of


_generators = threading.local()


def _seeded(seed) -> np.random.RandomState:
    """This thread's RandomState, reseeded: the stream of ``RandomState(seed)`` without its
    construction, which draws OS entropy first (160 us, more than the whole dealing)."""
    if not hasattr(_generators, "random"):
        _generators.random = np.random.RandomState()
    _generators.random.seed(seed)
    return _generators.random


def _check_class_sizes(counts: np.ndarray, n_folds: int) -> None:
    if n_folds > counts.max():
        raise InputError(
            f"n_folds={n_folds} exceeds the size of every class ({counts.tolist()}); "
            "use fewer folds.")
    if n_folds > counts.min():
        warnings.warn(f"the smallest class has {counts.min()} members, fewer than "
                      f"n_folds={n_folds}: some test folds lack it.", UserWarning, stacklevel=3)


def subset(matrices: dict, rows, cols) -> dict:
    """The (rows x cols) block of every matrix."""
    index = np.ix_(rows, cols)
    return {kind: matrix[index] for kind, matrix in matrices.items()}
