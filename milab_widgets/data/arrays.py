"""Array checks every estimator shares: one place for the messages that name the argument
and the fix."""

from __future__ import annotations

import numpy as np

from milab_widgets.exceptions import InputError

__all__ = ["as_feature_matrix"]


def as_feature_matrix(X, name: str = "X", n_features: int | None = None) -> np.ndarray:
    """``X`` as a C-contiguous, finite float64 matrix (with ``n_features`` columns when
    given: the count a model was fitted on), or an InputError naming ``name``."""
    try:
        matrix = np.ascontiguousarray(X, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise InputError(f"{name} must be a numeric 2-D array; {error}.") from None
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise InputError(
            f"{name} must be a non-empty 2-D array (samples x features), got shape "
            f"{matrix.shape}; reshape a single feature with X.reshape(-1, 1)."
        )
    if n_features is not None and matrix.shape[1] != n_features:
        raise InputError(
            f"{name} has {matrix.shape[1]} features but the model was fitted on {n_features}; "
            "pass the same features (after the same feature selection)."
        )
    if not np.isfinite(matrix).all():
        rows = np.unique(np.nonzero(~np.isfinite(matrix))[0])
        raise InputError(
            f"{name} contains NaN or infinity (rows {rows[:5].tolist()}); impute or drop "
            "those values first."
        )
    return matrix
