"""Scalar parameter checks shared by every estimator."""

import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_non_negative_float


def test_non_negative_float_accepts_zero_and_rejects_negative_nan_and_text():
    assert check_non_negative_float(0, "eta") == 0.0 and check_non_negative_float("2.5", "eta") == 2.5
    for bad in (-1e-9, float("nan"), float("inf"), "x", None):
        with pytest.raises(InputError, match="eta must be a"):
            check_non_negative_float(bad, "eta")
