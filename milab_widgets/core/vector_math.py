"""An exp that LLVM vectorises, for the NCA objective's weights.

numba lowers ``np.exp`` to a call of the C library's scalar exp, which no loop around it
can vectorise (llvmlite ships without Intel's SVML). The NCA objective spends nearly all its
time there: one exp per bag pair and alpha, 15,000 objectives in a nested CV of Musk1.

:func:`exp_nonpositive` computes exp(t) for t <= 0 the textbook way (Cody & Waite's range
reduction; J.-M. Muller, "Elementary Functions", 3rd ed., 2016, ch. 11): t = k ln2 + r with
k = round(t / ln2) and |r| <= ln2 / 2, ln2 split in two parts so k ln2 is exact to 2^-53;
exp(r) by its Taylor polynomial of degree 13 (truncation below 1e-17 relative on that
interval); 2^k by writing k + 1023 into the exponent bits of a float64. Every step is
arithmetic over arrays, so LLVM turns the loops into SIMD code. Measured against np.exp:
relative error below 1e-13 on [-708, 0]; t below -708 gives exp(-708) (about 3e-308), which
for a weight next to exp(0) = 1 is zero to double precision.
"""

import math

import numpy as np
from numba import njit

__all__ = ["exp_nonpositive"]

_LOG2_E = 1.4426950408889634
#: ln 2 = _LN2_HIGH + _LN2_LOW; _LN2_HIGH has 11 zero low-order bits, so k * _LN2_HIGH is
#: exact for |k| < 2^11.
_LN2_HIGH = 6.93145751953125e-1
_LN2_LOW = 1.42860682030941723212e-6
#: 1/n! for n = 13, 12, ..., 0: the Taylor polynomial of exp, highest power first (Horner).
_TAYLOR = tuple(1.0 / math.factorial(n) for n in range(13, -1, -1))
_LOWEST = -708.0
_EXPONENT_BIAS = 1023
_MANTISSA_BITS = 52


@njit(cache=True, fastmath={"nsz", "contract"})
def exp_nonpositive(t, out, exponents):
    """out[i] = exp(t[i]) for t[i] <= 0 (max(t[i], -708) is used); ``exponents`` is int64
    scratch of the same length."""
    for i in range(len(t)):
        x = max(t[i], _LOWEST)
        k = np.floor(x * _LOG2_E + 0.5)
        r = (x - k * _LN2_HIGH) - k * _LN2_LOW
        polynomial = 0.0
        for coefficient in _TAYLOR:
            polynomial = polynomial * r + coefficient
        out[i] = polynomial
        exponents[i] = (np.int64(k) + _EXPONENT_BIAS) << _MANTISSA_BITS
    powers_of_two = exponents.view(np.float64)
    for i in range(len(t)):
        out[i] *= powers_of_two[i]
