"""The lab launcher: every paper's panel in one tabbed widget.

A panel loads data and fits models when it is built, so each tab builds its panel the first
time it is opened; switching back shows the same panel, with everything the user set still
in place. :func:`lab` returns at once, importing nothing beyond ipywidgets and the papers' records: the first tab
says it is loading and its panel is built when JupyterLab has drawn the lab (the front end
reports the new view, the kernel then builds the panel), so the lab is on screen before
Altair, numba or any dataset is loaded.

>>> from milab_widgets import lab
>>> lab()          # doctest: +SKIP
"""

from __future__ import annotations

import html
import sys
from importlib import import_module

import ipywidgets as widgets

from milab_widgets.papers import registered

__all__ = ["LAB_PANELS", "Lab", "lab", "in_jupyter_kernel"]

#: Tab title -> (module, panel class), one per registered paper in its order (its record's
#: ``panel``; :mod:`milab_widgets.papers`). Titles are the papers' short names (longer ones
#: are cut off in JupyterLab's tab bar); each panel's header names the paper.
LAB_PANELS = {short: paper.panel_class() for short, paper in registered().items()}

#: What ``lab()`` prints outside a Jupyter kernel (one line, no widget repr).
NOT_IN_JUPYTER = ("milab lab(): the lab is a set of Jupyter widgets and needs a Jupyter front "
                  "end; run `jupyter lab`, open notebooks/index.ipynb (or a new notebook) and "
                  "run `from milab_widgets import lab; lab()` there.")


class Lab(widgets.Tab):
    """One tab per paper; a tab's panel is built when the tab is first selected.

    Parameters
    ----------
    when_shown : bool
        False (default): build the first tab's panel now. True: show "loading" in the
        first tab and build its panel once a front end displays the lab (what :func:`lab`
        does, so the lab appears before the panel's imports and computations).
    downloads : bool
        Each panel's save control offers its files as browser downloads
        (:meth:`~milab_widgets.widgets.as_code.CodeBar.use_downloads`; ``milab app``).
    **kwargs
        Passed to ``ipywidgets.Tab``.

    Attributes
    ----------
    panels : dict of str to Panel
        The panels built so far, by tab title.

    See Also
    --------
    lab : builds the lab for a Jupyter front end.
    Panel : the panels it holds.

    Examples
    --------
    >>> from milab_widgets.widgets import Lab
    >>> lab = Lab(when_shown=True)    # no panel built until a front end shows it
    >>> lab.panels
    {}
    """

    def __init__(self, when_shown: bool = False, downloads: bool = False, **kwargs):
        self.panels: dict = {}
        self.downloads = downloads
        super().__init__(children=[widgets.VBox() for _ in LAB_PANELS], titles=tuple(LAB_PANELS),
                         **kwargs)
        self.observe(self._on_select, names="selected_index")
        if when_shown:
            first = self.titles[0]
            self.children[0].children = [widgets.HTML(
                f"<b>loading {html.escape(first)}:</b> its panel appears here in a few seconds "
                "(the first panel imports Altair and the numeric core, loads its dataset and "
                "runs its default setting).")]
            self._view_count = 0  # the front end counts the views it draws
            self.observe(self._on_view, names="_view_count")
        else:
            self._build(0)

    def _repr_mimebundle_(self, **kwargs):
        """The widget view, with one plain-text line instead of the widget repr."""
        from milab_widgets.widgets.base import widget_note

        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = widget_note(f"the lab ({', '.join(LAB_PANELS)})")
        return bundle

    def _ipython_display_(self) -> None:
        """A note on how to bring the lab back with a snapshot of its built panels, shown only
        while the lab is not live (a saved notebook reopened:
        :mod:`milab_widgets.widgets.snapshot`), then the lab."""
        from milab_widgets.widgets.snapshot import display_with_snapshot

        self.snapshot = display_with_snapshot(self, "the lab", self._shown_for_snapshot)

    def _shown_for_snapshot(self) -> list[tuple]:
        """(title, panel) of every tab whose panel is built, in tab order; the selected
        tab's title with None while none is."""
        built = [(title, self.panels[title]) for title in self.titles if title in self.panels]
        return built or [(self.titles[self.selected_index or 0], None)]

    def _on_view(self, change) -> None:
        if change["new"]:
            self._build(self.selected_index or 0)

    def _on_select(self, change) -> None:
        if change["new"] is not None:
            self._build(change["new"])

    def _build(self, index: int) -> None:
        """Build the panel of tab ``index`` once, in place of its loading note (closed)."""
        from milab_widgets.widgets.base import close_tree

        title = self.titles[index]
        if title in self.panels:
            return
        module, name = LAB_PANELS[title]
        placeholders = self.children[index].children or (widgets.HTML(f"loading {title} ..."),)
        self.children[index].children = placeholders
        panel = getattr(import_module(module), name)()
        panel.code_bar.use_downloads(self.downloads)
        self.panels[title] = panel
        self.children[index].children = [panel]
        for placeholder in placeholders:
            close_tree(placeholder)

    def shown_panel(self):
        """The panel of the selected tab (built if it is not yet).

        Returns
        -------
        Panel
            That panel.
        """
        index = self.selected_index or 0
        self._build(index)
        return self.panels[self.titles[index]]

    def code(self) -> str:
        """The Python reproducing what the selected tab's panel shows.

        Returns
        -------
        str
            The panel's ``code()``.
        """
        return self.shown_panel().code()

    def save(self, folder) -> list:
        """Write the selected tab's charts and tables to ``folder``.

        Parameters
        ----------
        folder : str or Path
            Where to write (created if needed).

        Returns
        -------
        list of Path
            The files written (its panel's ``save``).
        """
        return self.shown_panel().save(folder)


def in_jupyter_kernel() -> bool:
    """Whether this code runs in a Jupyter kernel (ipykernel), where widgets can show."""
    shell = sys.modules.get("IPython") and sys.modules["IPython"].get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def lab(downloads: bool = False) -> Lab | None:
    """The lab: every paper's panel in one tabbed widget (each built when first opened).

    In a Jupyter kernel, returns the lab at once; its first panel fills in when the lab is
    on screen. Elsewhere (plain Python, a terminal), prints one line saying where to run it
    and returns None.

    Parameters
    ----------
    downloads : bool, default=False
        Each panel's "save chart and table" becomes "download chart and table": the files
        go to the browser as downloads and nothing is written on the server (``milab app``
        sets it: Voilà's kernel runs in the installed package's folder).

    Returns
    -------
    Lab or None
        The lab in a Jupyter kernel, None elsewhere.

    See Also
    --------
    Lab : the widget itself, to build the panels from code.

    Examples
    --------
    >>> import milab_widgets
    >>> milab_widgets.lab() is None   # not in a Jupyter kernel: says so on stderr
    True
    """
    if not in_jupyter_kernel():
        print(NOT_IN_JUPYTER, file=sys.stderr)
        return None
    return Lab(when_shown=True, downloads=downloads)
