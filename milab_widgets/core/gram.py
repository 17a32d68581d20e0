"""Gram blocks written into one reused buffer.

Allocating a fresh tens-of-MiB block per tile makes the kernel fault in (and zero) new pages
every time; writing every tile into one buffer keeps the cost at the BLAS product.
"""

import numpy as np

__all__ = ["product_into"]


def product_into(a: np.ndarray, b: np.ndarray, scratch: list) -> np.ndarray:
    """a @ b.T written into the buffer ``scratch[0]`` (replaced by a larger one when too
    small); returns the (len(a), len(b)) view. Start with ``scratch = [np.empty(0, dtype)]``."""
    size = len(a) * len(b)
    if scratch[0].size < size:
        scratch[0] = np.empty(size, dtype=a.dtype)
    return np.matmul(a, b.T, out=scratch[0][:size].reshape(len(a), len(b)))
