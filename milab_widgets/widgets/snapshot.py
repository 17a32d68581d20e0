"""A static snapshot of what a panel shows, kept beside the live lab for when it cannot draw.

JupyterLab 4.6's widget manager (@jupyter-widgets/jupyterlab-manager 5.0) reads a
notebook's saved widget state only once a kernel has connected, so a saved lab reopened with
no kernel shows "Loading widget..." for good (upstream: jupyter-widgets/ipywidgets#3773,
jupyterlab/jupyterlab#15361). The lab (and a panel displayed alone) therefore also keeps a
plain-HTML rendering of its panels (every panel the lab has built, in tab order, so a lab
reopened with no kernel shows each tab as last seen) in the output before the widget -- the output that
holds the note on bringing it back (:mod:`milab_widgets.widgets.revive`), hidden by the same
style rule while the widget is live:

* the headline texts and status lines (the panel's HTML widgets, as they read now), the
  controls' values, the tables (as the front end shows them: the Output widgets' outputs),
  only the selected sub-tab of a tabbed view;
* each chart as a JPEG ``<img>`` with a data URI, rendered by vl-convert. An image, not inline
  SVG: JupyterLab's sanitiser of untrusted HTML drops ``<svg>`` and ``<style>`` but keeps
  ``<img src="data:...">`` and style attributes, and an image's SVG ids cannot clash with
  the live charts' (each Vega view numbers its gradients from ``gradient_0``).

The output is displayed with a ``display_id`` and replaced (IPython ``update_display``) a
moment after the last change in the lab (:data:`QUIET_SECONDS`), on the kernel's event loop,
so a run of clicks renders once, after the panel has answered.
"""

from __future__ import annotations

import asyncio
import base64
import html
import time
import uuid
from collections.abc import Callable, Sequence

import ipywidgets as widgets

# The kernel's open widgets by model id: ipywidgets' private registry, read only here
# (open_widgets); pyproject.toml bounds ipywidgets to the major series it is known in.
from ipywidgets.widgets.widget import _instances

from milab_widgets.charts.theme import chart_image, without_tooltips
from milab_widgets.widgets.entries import readout_text
from milab_widgets.widgets.revive import display_with_note, note_bundle

__all__ = ["QUIET_SECONDS", "SNAPSHOT_CLASS", "Snapshot", "display_with_snapshot", "open_widgets",
           "snapshot_html"]

#: Seconds without a change in the lab before its snapshot is rendered again.
QUIET_SECONDS = 1.0
SNAPSHOT_CLASS = "milab-snapshot"
#: JPEG quality of the snapshot's charts.
JPEG_QUALITY = 85
#: Widget traits whose change can change what the shown tab displays.
_WATCHED_TRAITS = ("children", "selected_index", "value", "outputs", "spec", "layout")
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Chart images kept (the charts of the five panels, with room to spare), oldest dropped.
_CACHED_CHARTS = 32
_CHART_IMAGES: dict[int, tuple] = {}  # id(chart) -> (chart, its <img> tag)


def snapshot_html(shown: Sequence[tuple[str, object]], when: str | None = None) -> str:
    """Plain HTML of what each ``(name, panel)`` of ``shown`` shows now, one after another
    (a lab: every panel built, so a saved lab reopened with no kernel shows each tab as
    last seen), under a caption saying it is a snapshot taken at ``when`` (default: now)."""
    when = when or time.strftime("%Y-%m-%d %H:%M")
    names = [name for name, _ in shown]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    caption = (f"snapshot of {html.escape(listed)} as saved, {html.escape(when)}; run the "
               "cell to bring the lab back")
    body = "".join(_panel_html(name, panel, titled=len(shown) > 1) for name, panel in shown)
    return (f'<div class="{SNAPSHOT_CLASS}" style="border:1px dashed #b0b0b0;padding:6px">'
            f'<div class="milab-snapshot-caption" style="color:#666;font-style:italic">'
            f"{caption}</div>{body}</div>")


def _panel_html(name: str, panel, titled: bool) -> str:
    """One panel's part of the snapshot, under its name when the snapshot holds several."""
    if panel is None:
        return f"<p>{html.escape(name)} was not built yet when the notebook was saved.</p>"
    title = (f'<div style="font-weight:bold;border-top:1px solid #ddd;margin-top:6px">'
             f"{html.escape(name)}</div>" if titled else "")
    return title + "".join(_rendered(panel))


def _rendered(widget) -> list[str]:
    """``widget``'s snapshot HTML parts, top to bottom (nothing for a hidden widget)."""
    if getattr(getattr(widget, "layout", None), "display", None) == "none":
        return []
    chart = getattr(widget, "chart", None)
    if chart is not None and hasattr(widget, "on_select"):  # a LiveChart
        return [_chart_image(chart)]
    if isinstance(widget, (widgets.Tab, widgets.Accordion)):
        shown = widget.selected_index
        return [] if shown is None else _rendered(widget.children[shown])
    if isinstance(widget, widgets.Output):
        return [part for output in widget.outputs for part in _output_parts(output)]
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath)):
        return [f"<div>{widget.value}</div>"] if widget.value else []
    if isinstance(widget, widgets.Label):
        return [f"<div>{html.escape(widget.value)}</div>"] if widget.value else []
    if isinstance(widget, widgets.Image):
        return [f'<img src="data:image/{widget.format};base64,'
                f'{base64.b64encode(widget.value).decode("ascii")}">']
    if isinstance(widget, widgets.Box) and not hasattr(widget, "entry"):
        parts = [part for child in widget.children for part in _rendered(child)]
        row = isinstance(widget, widgets.HBox)
        return [f'<div style="display:flex;flex-wrap:wrap;gap:4px 16px">{"".join(parts)}</div>'
                if row else "".join(parts)] if parts else []
    return _control_value(widget)


def _control_value(widget) -> list[str]:
    """A control as "description: value" (a button, or a control without a name: nothing)."""
    description = getattr(widget, "description", "")
    if isinstance(widget, widgets.Button) or not description or not widget.has_trait("value"):
        return []
    shown = getattr(widget, "label", None) if widget.has_trait("label") else None
    value = shown if shown is not None else widget.value
    if isinstance(value, float):  # as a slider's readout shows it, not 0.639896038619753
        value = readout_text(widget, value)
    return [f"<span><b>{html.escape(description)}</b>: {html.escape(str(value))}</span>"]


def open_widgets() -> dict:
    """The kernel's open widgets by model id (a closed widget leaves it)."""
    return _instances


def _output_parts(output: dict) -> list[str]:
    """One output of an Output widget (as the front end synced it back) as HTML."""
    data = output.get("data", {})
    if _WIDGET_VIEW in data:
        shown = open_widgets().get(data[_WIDGET_VIEW].get("model_id"))
        return _rendered(shown) if shown is not None else []
    if "text/html" in data:
        return [f"<div>{_text(data['text/html'])}</div>"]
    if "image/png" in data:
        return [f'<img src="data:image/png;base64,{_text(data["image/png"]).strip()}">']
    text = data.get("text/plain") or output.get("text")
    return [f"<pre>{html.escape(_text(text))}</pre>"] if text else []


def _text(value) -> str:
    """A notebook output's text, stored as one string or a list of lines."""
    return "".join(value) if isinstance(value, list) else str(value)


def _chart_image(chart) -> str:
    """``chart`` as a JPEG ``<img>`` at its own size, rendered by vl-convert without its
    tooltips (an image cannot show them). JPEG at scale 1: intH's Musk1 heatmap is 69 kB
    and 0.9 s as JPEG, 234 kB and 1.3 s as PNG, 612 kB as the notebooks' 2x PNG.

    Rendered once per chart object (a redraw makes a new one): a lab snapshot holds every
    panel's charts, and re-rendering all of them after each click would hold the kernel for
    seconds."""
    cached = _CHART_IMAGES.get(id(chart))
    if cached is not None and cached[0] is chart:
        return cached[1]
    image = chart_image(without_tooltips(chart.to_dict()), "jpeg", scale=1,
                        quality=JPEG_QUALITY)
    tag = f'<img src="data:image/jpeg;base64,{base64.b64encode(image).decode("ascii")}">'
    if len(_CHART_IMAGES) >= _CACHED_CHARTS:
        _CHART_IMAGES.pop(next(iter(_CHART_IMAGES)))
    _CHART_IMAGES[id(chart)] = (chart, tag)
    return tag


class Snapshot:
    """One displayed snapshot of a widget's panels, re-rendered after each change.

    Parameters
    ----------
    what : str
        What the widget is, for the note (e.g. "the lab").
    shown : callable
        Returns the ``(name, panel)`` pairs to show (``panel`` None while not built).

    Attributes
    ----------
    display_id : str
        The IPython display id of the output holding the note and the snapshot.
    """

    def __init__(self, what: str, shown: Callable[[], tuple]):
        self.what, self.shown = what, shown
        self.display_id = f"milab-snapshot-{uuid.uuid4().hex}"
        self._pending: asyncio.TimerHandle | None = None
        self._watched: set[int] = set()

    def html(self) -> str:
        """The snapshot of the panels as they show now."""
        return snapshot_html(self.shown())

    def refresh(self) -> None:
        """Render the snapshot now and replace the displayed one."""
        from IPython.display import update_display

        self._pending = None
        update_display(note_bundle(self.what, self.html()), raw=True,
                       display_id=self.display_id)

    def schedule(self, _change=None) -> None:
        """Refresh once the lab has been quiet for :data:`QUIET_SECONDS` (each change
        restarts the wait). With no running event loop (outside a kernel) there is no front
        end to update: nothing is scheduled (call :meth:`refresh`)."""
        if self._pending is not None:
            self._pending.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._pending = loop.call_later(QUIET_SECONDS, self.refresh)

    def watch(self, widget) -> None:
        """Schedule a refresh whenever ``widget`` or a widget under it changes (widgets
        added later included)."""
        if id(widget) in self._watched or not isinstance(widget, widgets.Widget):
            return
        self._watched.add(id(widget))
        names = [name for name in _WATCHED_TRAITS if widget.has_trait(name)]
        widget.observe(self._on_change, names=names)
        for child in _parts(widget):
            self.watch(child)

    def _on_change(self, change) -> None:
        for child in _parts(change["owner"]):
            self.watch(child)
        self.schedule()


def _parts(widget) -> list:
    """The widgets directly under ``widget``: its children, a LiveChart's chart widget."""
    parts = list(getattr(widget, "children", ()))
    chart_widget = getattr(widget, "widget", None)
    return parts + [chart_widget] if isinstance(chart_widget, widgets.Widget) else parts


def display_with_snapshot(widget, what: str, shown: Callable[[], tuple]) -> Snapshot:
    """Display the note on bringing ``widget`` back with a snapshot of its panels
    (``shown`` as in :class:`Snapshot`), then ``widget``; keep the snapshot up to date."""
    snapshot = Snapshot(what, shown)
    display_with_note(widget, what, snapshot.html(), display_id=snapshot.display_id)
    snapshot.watch(widget)
    return snapshot
