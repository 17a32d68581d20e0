"""Live, clickable charts in the panels: offline Altair ``JupyterChart`` widgets sharing one
copy of Vega.

A :class:`LiveChart` is one slot of a panel that shows an Altair chart as a
:class:`SharedVegaChart`, an ``alt.JupyterChart`` (an anywidget) whose JavaScript does not
carry Vega itself. Altair's offline mode (``alt.JupyterChart.enable_offline()``) gives every
chart the whole bundle vl-convert builds (Vega, Vega-Lite, vega-embed: 0.90 MB) as its
ES module, and anywidget keeps each model's module in the model's state, so every chart of
a saved notebook carried its own copy (a lab showing intH: 2.15 MB of widget state, 1.84 MB
of it two copies of the bundle). Here the bundle is the module of one
:class:`VegaLibrary` widget per kernel (never displayed; anywidget runs a model's module
when the model is created), which hands Vega to the page under a key naming the bundle; each
chart's module is Altair's own chart code (Altair's ``index.js`` without its two CDN
imports, as ``enable_offline`` strips them) after one line that awaits the library
(:data:`SHARED_CHART_ESM`). The charts hold a reference to the library, so it is part of any
saved or embedded state that holds a chart. Online, Altair's charts share one Vega the same
way: they all import it from one CDN URL, which the browser loads once.

Everything draws without network access (``JupyterChart(chart, offline=True)`` would be
ignored and load Vega from a CDN: measured, DESIGN.md "Charts in JupyterLab").

A chart's selection parameters sync back to Python: :meth:`LiveChart.on_select` registers
a reaction to a named selection, called with the selection's value whenever the user
clicks or brushes (``PointSelection.value``: a list of dicts of the selected fields;
``IntervalSelection.value``: a dict of field -> [low, high]). The slot keeps one
chart widget and swaps its chart.

>>> import altair as alt, pandas as pd
>>> slot = LiveChart()
>>> pick = alt.selection_point(name="pick", fields=["a"])
>>> slot.show(alt.Chart(pd.DataFrame({"a": [1, 2]})).mark_point().encode(x="a:Q")
...           .add_params(pick))                    # doctest: +SKIP
>>> slot.on_select("pick", print)                   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import altair as alt
import anywidget
import ipywidgets as widgets
import traitlets

from milab_widgets.charts.theme import vega_lite_version

__all__ = ["LiveChart", "SharedVegaChart", "VegaLibrary", "vega_library"]

#: vega-embed options: SVG marks (each mark a DOM element: crisp, and a browser test can
#: click one) and no "..." actions menu (its export links would point at a web editor).
EMBED_OPTIONS = {"renderer": "svg", "actions": False}

#: The page-wide place where the library leaves Vega for the charts, made by whichever
#: module runs first (the charts' models may be created before the library's).
_SHARED_SLOT_JS = """
function sharedVega() {
  const name = Symbol.for("KEY");
  if (!globalThis[name]) {
    let resolve;
    globalThis[name] = {libraries: new Promise((done) => { resolve = done; }), resolve};
  }
  return globalThis[name];
}
"""
#: The library's module (bundled by vl-convert, which provides ``vegaEmbed`` and
#: ``lodashDebounce``, the two names Altair's chart code imports).
_LIBRARY_JS = _SHARED_SLOT_JS + """
sharedVega().resolve({ vegaEmbed, lodashDebounce });
export default {};
"""
#: A chart's module: Altair's chart code once the library has left Vega in the page.
SHARED_CHART_ESM = _SHARED_SLOT_JS + """
const { vegaEmbed, lodashDebounce } = await sharedVega().libraries;
"""


def _without_imports(source: str) -> str:
    """Altair's chart module without its leading imports and comments (what
    ``alt.JupyterChart.enable_offline`` hands vl-convert)."""
    lines = source.split("\n")
    while lines and (not lines[0].strip() or lines[0].startswith(("import", "//"))):
        lines.pop(0)
    return "\n".join(lines)


@cache
def _modules() -> tuple[str, str]:
    """(the library's module, a chart's module). The page-wide key names vl-convert's and
    Vega-Lite's versions, so a page holding charts of two versions gives each its own Vega.
    About 1.5 s (the bundling), once per process."""
    import vl_convert as vlc
    from altair.jupyter.jupyter_chart import load_js_src

    vl_version = vega_lite_version()
    key = f"milab-widgets: vl-convert {vlc.__version__}, Vega-Lite {vl_version}"
    library = vlc.javascript_bundle(_LIBRARY_JS.replace("KEY", key), vl_version=vl_version)
    return library, SHARED_CHART_ESM.replace("KEY", key) + _without_imports(load_js_src())


class VegaLibrary(anywidget.AnyWidget):
    """Vega, Vega-Lite and vega-embed for the page, loaded once for every live chart of the
    kernel (see the module docstring); never displayed. Use :func:`vega_library`."""

    def __init__(self, **kwargs):
        super().__init__(_esm=_modules()[0], **kwargs)


class SharedVegaChart(alt.JupyterChart):
    """An Altair ``JupyterChart`` whose module takes Vega from the kernel's
    :class:`VegaLibrary` instead of carrying it (8 KB of state instead of 0.9 MB).

    Parameters
    ----------
    chart : alt.TopLevelMixin
        The chart to show.
    **kwargs
        Passed to ``alt.JupyterChart`` (``embed_options``, ...).
    """

    library = traitlets.Instance(VegaLibrary).tag(sync=True, **widgets.widget_serialization)

    def __init__(self, chart, **kwargs):
        super().__init__(chart, _esm=_modules()[1], library=vega_library(), **kwargs)


_library: VegaLibrary | None = None


def vega_library() -> VegaLibrary:
    """The kernel's :class:`VegaLibrary`: made at the first live chart, and again when the
    last one was closed (``Widget.close_all()``), so a new chart never refers to a model
    the page no longer has."""
    global _library
    if _library is None or _library.comm is None:
        _library = VegaLibrary()
    return _library


class LiveChart(widgets.Box):
    """A panel slot showing one live Altair chart whose selections call back into Python.

    Attributes
    ----------
    widget : SharedVegaChart or None
        The chart widget (None until the first :meth:`show`); tests and the front end set
        its selections.
    chart : alt.TopLevelMixin or None
        The chart shown (None when cleared).
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("layout", widgets.Layout(max_width="100%", overflow="auto"))
        super().__init__(**kwargs)
        self.widget: SharedVegaChart | None = None
        self._reactions: dict[str, Callable] = {}
        self._watched = None  # (selections object, names) observed

    @property
    def chart(self):
        return self.widget.chart if self.widget is not None and self.children else None

    def show(self, chart) -> None:
        """Show ``chart`` (replacing the one shown; its selections start empty)."""
        if self.widget is None:
            self.widget = SharedVegaChart(chart, embed_options=EMBED_OPTIONS)
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
