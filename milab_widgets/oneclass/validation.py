"""Input checks shared by the one-class estimators: each error names the argument and the fix.

Scalar checks (positive numbers and integers, choices) are the multi-instance ones, reused;
``check_labels`` is :func:`milab_widgets.data.arrays.as_oneclass_labels`, re-exported.
"""

from __future__ import annotations

import numpy as np

from milab_widgets.data.arrays import as_oneclass_labels as check_labels  # re-exported
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_positive_float, check_positive_int

__all__ = ["DEFAULT_C", "check_C", "check_labels", "check_positive_float",
           "check_positive_int", "check_sample_weight", "resolve_C"]

#: The dual bound used when neither C nor nu is given: no slack is worth paying for, so the
#: sphere holds every training sample (the hard-margin SVDD).
DEFAULT_C = 1.0


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


def resolve_C(C, nu, sample_weight: np.ndarray) -> float:
    """The dual bound from exactly one of C and nu (neither: :data:`DEFAULT_C`).

    nu in (0, 1] is LIBSVM's one-class ``-n`` (scikit-learn's OneClassSVM ``nu``): an upper
    bound on the fraction of training samples outside the sphere and a lower bound on the
    fraction of support vectors. It is the same model with C = 1 / (nu n), n the weighted
    training size sum(sample_weight) (Tax & Duin 2004; Schoelkopf et al. 2001).
    """
    if C is not None and nu is not None:
        raise InputError(f"C={C!r} and nu={nu!r} were both given; they are two scales of one "
                         "parameter (C = 1 / (nu n)): pass exactly one of them.")
    if nu is None:
        return check_C(DEFAULT_C if C is None else C, sample_weight)
    value = check_positive_float(nu, "nu")
    if value > 1.0:
        raise InputError(f"nu={nu!r} is above 1: nu is a fraction of the training samples; "
                         "use 0 < nu <= 1.")
    return 1.0 / (value * float(sample_weight.sum()))
