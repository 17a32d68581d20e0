"""Array checks every estimator shares: one place for the messages that name the argument
and the fix.

Estimators validate their feature matrix with :func:`check_features`, i.e. scikit-learn's
own ``validate_data``: it sets ``n_features_in_`` (and ``feature_names_in_`` for a
DataFrame) at fit and checks both at predict, so reordered DataFrame columns, a wrong
feature count, complex, empty, 1-D, NaN or infinite input get scikit-learn's errors.
:func:`as_feature_matrix` is the same contract for the data containers (no estimator).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from milab_widgets.exceptions import InputError

__all__ = ["MAX_ABS_VALUE", "as_feature_matrix", "as_oneclass_labels", "check_bounded",
           "check_features", "holds_text"]

#: Largest |value| accepted in a feature matrix or in bag instances. Squared distances sum d
#: terms up to (2 x bound)^2, so below 1.8e308 / (4 d 1e300) ~ 4e7 features they cannot
#: overflow; a value of ~1e154 would (its square is inf, and the BLAS expansion
#: ||a||^2 + ||b||^2 - 2 a.b then gives inf - inf = NaN).
MAX_ABS_VALUE = 1e150


def check_features(estimator, X, *, reset: bool, sparse: bool = False, min_samples: int = 1):
    """``X`` validated for ``estimator`` by scikit-learn's ``validate_data``: finite float64,
    2-D, at least one sample and one feature, no value beyond :data:`MAX_ABS_VALUE`; a CSR matrix in canonical format when
    ``sparse`` (any scipy.sparse input is converted), else C-contiguous dense (sparse input is refused with
    scikit-learn's message: convert with ``X.toarray()``).

    ``reset=True`` (fit) records ``n_features_in_`` / ``feature_names_in_`` and requires
    ``min_samples`` rows; ``reset=False`` (predict, transform) first raises
    ``NotFittedError`` on an unfitted estimator, then checks the features against the fit.
    """
    # Imported here: the data containers share this module and must not pull in
    # scikit-learn on `import milab_widgets.data` (tests/test_lazy.py).
    from sklearn.utils.validation import check_is_fitted, validate_data

    if not reset:
        check_is_fitted(estimator)
    X = validate_data(estimator, X, reset=reset, accept_sparse="csr" if sparse else False,
                      dtype=np.float64, order=None if sparse else "C",
                      ensure_min_samples=min_samples if reset else 1)
    check_bounded(X.data if scipy.sparse.issparse(X) else X, "X")
    if sparse and scipy.sparse.issparse(X) and not X.has_canonical_format:
        X = X.copy()  # repeated entries summed, indices sorted: one stored value per cell
        X.sum_duplicates()
    return X


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
    check_bounded(matrix, name)
    return matrix


def check_bounded(values: np.ndarray, name: str) -> None:
    """Refuse NaN, infinity and values beyond :data:`MAX_ABS_VALUE` (whose squared distances
    overflow) in the array ``values``, naming ``name``, the rows and the fix."""
    finite = np.isfinite(values)
    if not finite.all():
        raise InputError(f"NaN or infinity in {name} (rows {_rows(~finite)}); impute or drop "
                         "those values first.")
    large = np.abs(values) > MAX_ABS_VALUE
    if large.any():
        raise InputError(
            f"values beyond +-{MAX_ABS_VALUE:g} in {name} (rows {_rows(large)}), whose squared "
            "distances would overflow float64; rescale (e.g. divide by the largest absolute "
            "value) or drop those values first.")


def _rows(mask: np.ndarray) -> str:
    rows = np.unique(np.nonzero(mask)[0])
    return f"{rows[:5].tolist()}{'...' if len(rows) > 5 else ''}"


def as_oneclass_labels(y, n_samples: int, name: str = "y") -> np.ndarray:
    """One-class labels as int64: +1 (normal) or -1 (outlier), one per sample, or an
    InputError naming ``name`` (values are checked before the cast, so 1.7 is refused)."""
    labels = np.asarray(y)
    if labels.shape != (n_samples,):
        raise InputError(
            f"{name} has shape {labels.shape}; pass one label per sample ({n_samples}).")
    values = set(np.unique(labels).tolist())
    if not values <= {-1, 1}:
        raise InputError(f"{name} must hold +1 (normal) and -1 (outlier); got {sorted(values)}.")
    return labels.astype(np.int64)


def holds_text(array: np.ndarray) -> bool:
    """Whether ``array`` holds strings or bytes (its dtype, or any element of an object
    array): numpy's ``astype(float)`` would read '1.5' as 1.5 without a word."""
    if array.dtype.kind in "US":
        return True
    if array.dtype.kind != "O":
        return False
    element_types = set(map(type, array.flat))  # one pass in C; the check then runs per type
    return any(issubclass(kind, (str, bytes)) for kind in element_types)
