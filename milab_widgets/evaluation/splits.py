"""Cross-validation splits and the slicing of precomputed bag-distance matrices by a split."""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import StratifiedKFold


def stratified_splits(y, n_folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Stratified, shuffled (train, test) index pairs."""
    folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return list(folds.split(np.zeros(len(y)), y))


def subset(matrices: dict, rows, cols) -> dict:
    """The (rows x cols) block of every matrix."""
    index = np.ix_(rows, cols)
    return {kind: matrix[index] for kind, matrix in matrices.items()}
