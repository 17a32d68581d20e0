"""Live, clickable charts in the panels: offline Altair ``JupyterChart`` widgets.

A :class:`LiveChart` is one slot of a panel that shows an Altair chart as an
``alt.JupyterChart`` (an anywidget). Its JavaScript is the bundle vl-convert builds
(``alt.JupyterChart.enable_offline()``, once per process), so the chart draws without
network access; ``JupyterChart(chart, offline=True)`` would be ignored and load Vega from a
CDN (measured, DESIGN.md "Charts in JupyterLab").

A chart's selection parameters sync back to Python: :meth:`LiveChart.on_select` registers
a reaction to a named selection, called with the selection's value whenever the user
clicks or brushes (``PointSelection.value``: a list of dicts of the selected fields;
``IntervalSelection.value``: a dict of field -> [low, high]). The slot keeps one
JupyterChart and swaps its chart, so the ~0.9 MB JavaScript bundle is sent once per slot.

>>> import altair as alt, pandas as pd
>>> slot = LiveChart()
>>> pick = alt.selection_point(name="pick", fields=["a"])
>>> slot.show(alt.Chart(pd.DataFrame({"a": [1, 2]})).mark_point().encode(x="a:Q")
...           .add_params(pick))                    # doctest: +SKIP
>>> slot.on_select("pick", print)                   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable

import altair as alt
import ipywidgets as widgets

__all__ = ["LiveChart", "enable_offline_charts"]

#: vega-embed options: SVG marks (each mark a DOM element: crisp, and a browser test can
#: click one) and no "..." actions menu (its export links would point at a web editor).
EMBED_OPTIONS = {"renderer": "svg", "actions": False}


def enable_offline_charts() -> None:
    """Make every JupyterChart load its JavaScript from vl-convert's bundle (no CDN).

    Idempotent; the first call bundles the JavaScript (about 1.5 s)."""
    alt.JupyterChart.enable_offline()


class LiveChart(widgets.Box):
    """A panel slot showing one live Altair chart whose selections call back into Python.

    Attributes
    ----------
    widget : alt.JupyterChart or None
        The chart widget (None until the first :meth:`show`); tests and the front end set
        its selections.
    chart : alt.TopLevelMixin or None
        The chart shown (None when cleared).
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("layout", widgets.Layout(max_width="100%", overflow="auto"))
        super().__init__(**kwargs)
        self.widget: alt.JupyterChart | None = None
        self._reactions: dict[str, Callable] = {}
        self._watched = None  # (selections object, names) observed

    @property
    def chart(self):
        return self.widget.chart if self.widget is not None and self.children else None

    def show(self, chart) -> None:
        """Show ``chart`` (replacing the one shown; its selections start empty)."""
        if self.widget is None:
            enable_offline_charts()
            self.widget = alt.JupyterChart(chart, embed_options=EMBED_OPTIONS)
        else:
            self.widget.chart = chart
        self.children = (self.widget,)
        self._watch()

    def clear(self) -> None:
        """Show nothing (the chart of a stale result is removed at once)."""
        self.children = ()

    def on_select(self, name: str, reaction: Callable) -> None:
        """Call ``reaction(value)`` whenever the user changes the selection ``name``."""
        self._reactions[name] = reaction
        self._watch()

    def _watch(self) -> None:
        """Observe the named selections of the current chart (a new chart brings a new
        ``selections`` object, so this runs after every :meth:`show`)."""
        if self.widget is None:
            return
        selections = self.widget.selections
        if self._watched is not None and self._watched[0] is selections:
            selections.unobserve(self._on_change, names=self._watched[1])
        names = [name for name in self._reactions if selections.has_trait(name)]
        selections.observe(self._on_change, names=names)
        self._watched = (selections, names)

    def _on_change(self, change) -> None:
        self._reactions[change["name"]](change["new"].value)
