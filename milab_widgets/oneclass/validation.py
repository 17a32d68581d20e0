"""Input checks shared by the one-class estimators: each error names the argument and the fix.

Scalar checks (positive numbers and integers, choices) are the multi-instance ones, reused;
``check_labels`` is :func:`milab_widgets.data.arrays.as_oneclass_labels`, re-exported.
"""

from __future__ import annotations

import numpy as np

from milab_widgets.data.arrays import as_oneclass_labels as check_labels  # re-exported
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_positive_float, check_positive_int

__all__ = ["check_C", "check_labels", "check_positive_float",
           "check_positive_int", "check_sample_weight"]


def check_sample_weight(sample_weight, n_samples: int) -> np.ndarray:
    """Non-negative finite weights, one per sample, not all zero (None: all ones)."""
    if sample_weight is None:
        return np.ones(n_samples)
    weights = np.asarray(sample_weight, dtype=np.float64)
    if weights.shape != (n_samples,):
        raise InputError(
            f"sample_weight has shape {weights.shape}; pass one weight per sample ({n_samples})."
        )
    if not np.isfinite(weights).all() or (weights < 0).any() or weights.sum() <= 0:
        raise InputError("sample_weight must be finite, non-negative and not all zero.")
    return weights


def check_C(C, sample_weight: np.ndarray) -> float:
    """C as a float with C * sum(sample_weight) >= 1: the duals sum to 1 and a_i <= C w_i."""
    value = check_positive_float(C, "C")
    total = float(sample_weight.sum())
    if value * total < 1.0 - 1e-12:
        raise InputError(
            f"C={C!r} is below 1/n = {1.0 / total:.6g} (n = {total:g} training samples, "
            "weighted): the SVDD duals sum to 1 with each a_i <= C, so no solution exists. "
            f"Use C >= {1.0 / total:.6g} (C = 1 keeps every sample inside unless forced out)."
        )
    return value
