"""The lab's ipywidgets panels: one per algorithm, on the shared :class:`Panel` frame.

Panels are imported on first use, so ``import milab_widgets.widgets`` stays cheap.
"""

from milab_widgets.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    "Panel": "milab_widgets.widgets.base",
    "IntHPanel": "milab_widgets.widgets.inth",
    "CDVSEPanel": "milab_widgets.widgets.cdvse",
    "MFSEFPanel": "milab_widgets.widgets.mfsef",
    "TwoViewPanel": "milab_widgets.widgets.twoview",
    "LSkMDDMPanel": "milab_widgets.widgets.lskmddm",
    "Lab": "milab_widgets.widgets.lab",
})
