"""numba kernels: arrays in, arrays out; no classes, no validation, no I/O."""
