"""numba kernels: arrays in, arrays out; no classes, no validation, no I/O."""

__all__: list[str] = []  # the kernels are used by module path: milab_widgets.core.<module>
