"""Lazy module attributes: a package names where each public object lives and imports it on
first use, so importing the package stays cheap (no numba, Altair or ipywidgets on import).

Usage in a package's ``__init__``::

    __getattr__, __dir__, __all__ = lazy_exports(__name__, {"Name": "package.module"})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module

__all__ = ["lazy_exports"]


def lazy_exports(package: str, homes: Mapping[str, str]
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """(``__getattr__``, ``__dir__``, ``__all__``) for ``package``, whose public names
    ``homes`` maps to the modules defining them."""
    public = list(homes)

    def __getattr__(name: str):
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(homes[name]), name)

    def __dir__() -> list[str]:
        return sorted({*import_module(package).__dict__, *public})

    return __getattr__, __dir__, public
