"""The lab launcher: every paper's panel in one tabbed widget.

A panel loads data and fits models when it is built, so each tab builds its panel the first
time it is opened (the first tab at once); switching back shows the same panel, with
everything the user set still in place.

>>> from milab_widgets import lab
>>> lab()          # doctest: +SKIP
"""

from __future__ import annotations

from importlib import import_module

import ipywidgets as widgets

__all__ = ["LAB_PANELS", "Lab", "lab"]

#: Tab title -> (module, panel class), in the order the papers appear in the README. Titles
#: are the papers' short names (longer ones are cut off in JupyterLab's tab bar); each
#: panel's header says what it is.
LAB_PANELS = {
    "intH": ("milab_widgets.widgets.inth", "IntHPanel"),
    "CDVSE": ("milab_widgets.widgets.cdvse", "CDVSEPanel"),
    "MFSEF": ("milab_widgets.widgets.mfsef", "MFSEFPanel"),
    "TwoViewMIC": ("milab_widgets.widgets.twoview", "TwoViewPanel"),
    "LSkMDDM": ("milab_widgets.widgets.lskmddm", "LSkMDDMPanel"),
}


class Lab(widgets.Tab):
    """One tab per paper; a tab's panel is built when the tab is first selected.

    Attributes
    ----------
    panels : dict of str to Panel
        The panels built so far, by tab title.
    """

    def __init__(self, **kwargs):
        self.panels: dict = {}
        super().__init__(children=[widgets.VBox() for _ in LAB_PANELS], titles=tuple(LAB_PANELS),
                         **kwargs)
        self.observe(self._on_select, names="selected_index")
        self._build(0)

    def _on_select(self, change) -> None:
        if change["new"] is not None:
            self._build(change["new"])

    def _build(self, index: int) -> None:
        title = self.titles[index]
        if title in self.panels:
            return
        module, name = LAB_PANELS[title]
        self.children[index].children = [widgets.HTML(f"loading {title} ...")]
        panel = getattr(import_module(module), name)()
        self.panels[title] = panel
        self.children[index].children = [panel]


def lab() -> Lab:
    """The lab: every paper's panel in one tabbed widget (each built when first opened)."""
    return Lab()
