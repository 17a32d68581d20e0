"""exp_nonpositive against numpy's exp."""

import numpy as np
import pytest

from milab_widgets.core.vector_math import exp_nonpositive


def _ours(t):
    t = np.asarray(t, dtype=float)
    out = np.empty_like(t)
    exp_nonpositive(t, out, np.empty(len(t), dtype=np.int64))
    return out


def test_equals_numpy_exp_to_the_last_bits_on_minus_708_to_0():
    rng = np.random.default_rng(0)
    t = np.concatenate([-rng.exponential(30.0, 50_000), -rng.random(10_000) * 1e-6,
                        -np.linspace(0, 708, 10_001), [0.0, -5e-324, -0.5 * np.log(2)]])
    expected = np.exp(t)
    np.testing.assert_allclose(_ours(t), expected, rtol=4e-16, atol=0)


def test_exact_at_zero_and_at_the_logarithms_of_powers_of_two():
    assert _ours([0.0, -0.0]).tolist() == [1.0, 1.0]
    powers = 2.0 ** -np.arange(1, 1000, dtype=float)
    np.testing.assert_allclose(_ours(np.log(powers)), np.exp(np.log(powers)), rtol=4e-16, atol=0)


@pytest.mark.parametrize("t", [-708.5, -745.2, -1e6, -np.inf])
def test_below_minus_708_gives_the_smallest_value_it_keeps(t):
    assert _ours([t])[0] == pytest.approx(np.exp(-708.0), rel=4e-16)
    assert _ours([t])[0] > 0.0
