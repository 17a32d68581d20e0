"""The frame every panel of the lab shares: title, controls, status line, errors, outputs.

A panel wires controls to library functions and shows what they return. Its actions run
inside :meth:`Panel.working`, which reports progress in the status line and turns any
exception into a red message in the panel: the kernel keeps running, the panel stays usable
and no control value is touched, so nothing the user set is lost.
"""

from __future__ import annotations

import html
import time
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import ipywidgets as widgets
import vl_convert
from IPython.display import display

__all__ = ["Panel", "dataset_choices", "show_chart", "show_chart_image", "show_objects"]

_ERROR_STYLE = "color:#b00020"


class Panel(widgets.VBox):
    """A vertical panel: title header, controls, status line, error area, outputs.

    Parameters
    ----------
    title : str
        Shown as the header.
    controls : sequence of widgets
        The inputs (dropdowns, sliders, buttons), top to bottom.
    outputs : sequence of widgets
        Where results go (``ipywidgets.Output``, ``HTML``, ...), top to bottom.

    Attributes
    ----------
    header, status, error : ipywidgets.HTML
        The title, the one-line status ("working: ...", "done: ... (1.2 s)", "failed: ..."),
        and the last error (empty when the last action succeeded).
    controls, outputs : ipywidgets.VBox
        Containers of the widgets given.
    last_error : Exception or None
        The exception the last action raised, kept for inspection.

    Examples
    --------
    >>> panel = Panel("Demo")
    >>> with panel.working("dividing"):
    ...     1 / 0
    >>> panel.status.value, type(panel.last_error).__name__
    ('failed: dividing', 'ZeroDivisionError')
    """

    def __init__(self, title: str, controls: Sequence = (), outputs: Sequence = (), **kwargs):
        self.header = widgets.HTML(f"<h3>{html.escape(title)}</h3>")
        self.controls = widgets.VBox(list(controls))
        self.status = widgets.HTML("ready")
        self.error = widgets.HTML("")
        self.outputs = widgets.VBox(list(outputs))
        self.last_error: Exception | None = None
        self._depth = 0
        super().__init__(
            [self.header, self.controls, self.status, self.error, self.outputs], **kwargs
        )

    @contextmanager
    def working(self, what: str) -> Iterator[None]:
        """Run the ``with`` block as the action ``what``, reporting it in the status line.

        The outermost block clears the previous error, and on any exception shows it in the
        error area instead of raising. Nested blocks only update the status line and let
        exceptions reach the outermost one, so a failed step stops the whole action.
        """
        outermost = self._depth == 0
        if outermost:
            self.error.value, self.last_error = "", None
        self.status.value = f"working: {html.escape(what)}..."
        started = time.perf_counter()
        self._depth += 1
        try:
            yield
        except Exception as error:
            if not outermost:
                raise
            self.show_error(error)
            self.status.value = f"failed: {html.escape(what)}"
        else:
            if outermost:
                seconds = time.perf_counter() - started
                self.status.value = f"done: {html.escape(what)} ({seconds:.1f} s)"
        finally:
            self._depth -= 1

    def show_error(self, error: Exception) -> None:
        """Show ``error``'s type and message in red, with its traceback folded below."""
        self.last_error = error
        trace = "".join(traceback.format_exception(error))
        self.error.value = (
            f'<div style="{_ERROR_STYLE}"><b>{type(error).__name__}</b>: '
            f'<span style="white-space:pre-wrap">{html.escape(str(error))}</span>'
            f"<details><summary>traceback</summary><pre>{html.escape(trace)}</pre></details></div>"
        )


def dataset_choices(table, preferred: Sequence[str] = ()) -> tuple[list[tuple[str, str]], str]:
    """Dropdown options for the datasets of ``table`` (rows of ``list_datasets()``): (label,
    name) pairs, unavailable ones labelled "(missing)" so a user sees what a fetch would
    add; and the default: the first available of ``preferred``, else the first available,
    else the first dataset."""
    options = [(name if available else f"{name} (missing)", name)
               for name, available in zip(table["name"], table["available"])]
    available = list(table.loc[table["available"], "name"])
    default = next((name for name in preferred if name in available), None)
    return options, default or (available[0] if available else table["name"].iloc[0])


def show_objects(output: widgets.Output, *objects) -> None:
    """Replace what ``output`` shows with ``objects`` (charts, DataFrames, HTML, ...)."""
    output.clear_output(wait=True)
    with output:
        for item in objects:
            display(item)


def show_chart(output: widgets.Output, chart) -> None:
    """Replace what ``output`` shows with ``chart`` (drawn by the renderer that
    :func:`milab_widgets.charts.use_lab_charts` enables)."""
    show_objects(output, chart)


def show_chart_image(output: widgets.Output, chart) -> None:
    """Replace what ``output`` shows with ``chart`` rendered to a PNG image (vl-convert).

    For charts with many marks (a bag-distance heatmap has n^2 cells): a live Vega-Lite
    chart of that size inside an Output widget stalls nbclient, so a notebook holding the
    panel never finishes under papermill (seen with nbclient 0.11 / ipykernel 7.4); an
    image is also lighter for the browser.
    """
    png = vl_convert.vegalite_to_png(_without_tooltips(chart.to_dict()), scale=1.5)
    show_objects(output, widgets.Image(value=png, format="png"))


def _without_tooltips(spec):
    """``spec`` without the tooltips of its encodings and marks: an image cannot show them,
    yet Vega formats one per mark (a quarter of the time of a 100 x 100 bag heatmap).
    Data (``data``, ``datasets``) is kept as is."""
    if isinstance(spec, list):
        return [_without_tooltips(item) for item in spec]
    if not isinstance(spec, dict):
        return spec
    kept = {}
    for key, value in spec.items():
        if key not in ("data", "datasets"):
            value = _without_tooltips(value)
            if key in ("encoding", "mark") and isinstance(value, dict):
                value = {name: item for name, item in value.items() if name != "tooltip"}
        kept[key] = value
    return kept
