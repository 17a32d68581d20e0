"""Input checks shared by the one-class estimators: each error names the argument and the fix.

Scalar hyper-parameters are declared constraints (:data:`SPHERE_CONSTRAINTS`, scikit-learn's
``Interval``), checked by each estimator's ``fit`` before any work; ``check_labels`` is
:func:`milab_widgets.data.arrays.as_oneclass_labels`, re-exported.
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from milab_widgets._sklearn_private import Interval
from milab_widgets.data.arrays import as_oneclass_labels as check_labels  # re-exported
from milab_widgets.exceptions import InputError

__all__ = ["DEFAULT_C", "POSITIVE", "SPHERE_CONSTRAINTS", "check_C", "check_labels",
           "check_sample_weight", "resolve_C"]

#: A finite number > 0 (scikit-learn's ``Interval``; NaN, inf and strings are refused).
POSITIVE = Interval(Real, 0, None, closed="neither")
#: The declared constraints of the sphere parameters every SVDD estimator shares
#: (``_parameter_constraints``, checked by scikit-learn's ``_fit_context`` before any work).
SPHERE_CONSTRAINTS = {
    "C": [POSITIVE, None],
    "nu": [Interval(Real, 0, 1, closed="right"), None],
    "gamma": [POSITIVE],
    "tol": [POSITIVE],
}

#: The dual bound used when neither C nor nu is given: no slack is worth paying for, so the
#: sphere holds every training sample (the hard-margin SVDD).
DEFAULT_C = 1.0


def check_sample_weight(sample_weight, n_samples: int) -> np.ndarray:
    """Non-negative finite weights, one per sample, not all zero (None: all ones)."""
    if sample_weight is None:
        return np.ones(n_samples)
    weights = np.asarray(sample_weight)
    if weights.dtype.kind == "c":
        raise InputError("sample_weight holds complex numbers; pass real weights.")
    try:
        weights = weights.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError("sample_weight must hold numbers, one weight per sample; got "
                         f"{type(sample_weight).__name__} that does not convert.") from None
    if weights.shape != (n_samples,):
        raise InputError(
            f"sample_weight has shape {weights.shape}; pass one weight per sample ({n_samples})."
        )
    if not np.isfinite(weights).all() or (weights < 0).any() or weights.sum() <= 0:
        raise InputError("sample_weight must be finite, non-negative and not all zero.")
    return weights


def check_C(C, sample_weight: np.ndarray) -> float:
    """C (> 0) as a float with C * sum(sample_weight) >= 1: the duals sum to 1, a_i <= C w_i."""
    value = float(C)
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

    C (> 0) and nu (in (0, 1]) are declared constraints of the estimators, checked before
    this is called. nu in (0, 1] is LIBSVM's one-class ``-n`` (scikit-learn's OneClassSVM ``nu``): an upper
    bound on the fraction of training samples outside the sphere and a lower bound on the
    fraction of support vectors. It is the same model with C = 1 / (nu n), n the weighted
    training size sum(sample_weight) (Tax & Duin 2004; Schoelkopf et al. 2001).
    """
    if C is not None and nu is not None:
        raise InputError(f"C={C!r} and nu={nu!r} were both given; they are two scales of one "
                         "parameter (C = 1 / (nu n)): pass exactly one of them.")
    if nu is None:
        return check_C(DEFAULT_C if C is None else C, sample_weight)
    return 1.0 / (float(nu) * float(sample_weight.sum()))
