"""The lab's ipywidgets panels: one per algorithm, on the shared :class:`Panel` frame.

Panels are imported on first use, so ``import milab_widgets.widgets`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module

_HOMES = {
    "Panel": "milab_widgets.widgets.base",
    "IntHPanel": "milab_widgets.widgets.inth",
    "CDVSEPanel": "milab_widgets.widgets.cdvse",
    "MFSEFPanel": "milab_widgets.widgets.mfsef",
    "TwoViewPanel": "milab_widgets.widgets.twoview",
    "LSkMDDMPanel": "milab_widgets.widgets.lskmddm",
}
__all__ = list(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'milab_widgets.widgets' has no attribute {name!r}")
    return getattr(import_module(_HOMES[name]), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
