"""The lab's one Altair theme, the notebook renderer, and static export.

Every chart in milab-widgets looks the same: Okabe-Ito categorical colours (safe for the
common forms of colour blindness), viridis for ordered data, a plain sans-serif font, light
grid lines and no frame around the plot.

Charts reach the user two ways (measured with Altair 6.3 and JupyterLab 4.6 offline; see
DESIGN.md, "Charts in JupyterLab"):

* in notebooks and reports, as static images rendered by vl-convert (:func:`use_lab_charts`
  enables the "milab-static" renderer: SVG and PNG of each chart): an executed notebook
  shows every chart without a kernel, in JupyterLab, on GitHub and in the documentation,
  and nbformat accepts the output. Both formats, because JupyterLab does not render SVG
  in an untrusted notebook (any notebook papermill executed, until the user trusts it):
  there it shows the PNG; a trusted one shows the sharper SVG;
* in the lab's panels, as live ``alt.JupyterChart`` widgets loaded offline
  (:mod:`milab_widgets.widgets.live`), whose selections drive the panel.

Importing this module registers the theme (a dictionary entry) and changes nothing else;
call :func:`use_lab_charts` to switch it on.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from pathlib import Path

import altair as alt

from milab_widgets.atomic import atomic_path

__all__ = ["THEME_NAME", "PALETTE", "SYMBOL_LEGEND", "chart_image", "lab_theme",
           "use_lab_charts", "save_chart", "vega_lite_version", "without_tooltips"]

THEME_NAME = "milab"

#: Okabe & Ito (2008) "Color Universal Design" palette, ordered so that the first colours
#: are the most distinct on white; yellow (low contrast) and black come last.
PALETTE = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
)

#: Legend of a continuous colour scale in a live chart: values as symbols, not a gradient.
#: Vega numbers SVG gradients gradient_0, gradient_1, ... per copy of Vega; when each live
#: chart (a JupyterChart) loaded its own copy, two gradient legends on one page shared the
#: id ``gradient_0``: the second showed the first one's colours, or nothing when that chart
#: sat in a hidden tab (seen: TwoViewMIC's legend blank beside intH's heatmap). A kernel's
#: charts now share one copy (widgets/live.py), but a page may hold two kernels' charts.
SYMBOL_LEGEND = alt.Legend(type="symbol", symbolType="square")

_FONT = "Helvetica Neue, Helvetica, Arial, Liberation Sans, DejaVu Sans, sans-serif"
_SAVE_FORMATS = ("svg", "png", "pdf", "html", "json")


@alt.theme.register(THEME_NAME, enable=False)
def lab_theme() -> alt.theme.ThemeConfig:
    """Return the lab theme: palette, fonts, sizes and axis style for every chart.

    Returns
    -------
    dict
        An Altair theme configuration (``alt.theme.ThemeConfig``).

    See Also
    --------
    use_lab_charts : enables this theme for the process.
    altair.Chart : the charts it styles.

    Examples
    --------
    >>> from milab_widgets.charts import PALETTE, lab_theme
    >>> theme = lab_theme()
    >>> theme["config"]["range"]["category"] == list(PALETTE)
    True
    """
    label = {"labelFontSize": 12, "titleFontSize": 13, "titleFontWeight": "normal"}
    return alt.theme.ThemeConfig(
        config={
            "font": _FONT,
            "background": "white",
            "view": {"continuousWidth": 360, "continuousHeight": 240, "stroke": None},
            "range": {
                "category": list(PALETTE),
                "ordinal": {"scheme": "viridis"},
                "ramp": {"scheme": "viridis"},
                "heatmap": {"scheme": "viridis"},
                "diverging": {"scheme": "blueorange"},
            },
            "axis": {**label, "gridColor": "#e6e6e6", "domainColor": "#888888",
                     "tickColor": "#888888", "labelColor": "#333333"},
            "legend": {**label, "symbolSize": 80},
            "header": {"labelFontSize": 13, "titleFontSize": 14},
            "title": {"fontSize": 15, "anchor": "start", "fontWeight": "bold"},
            "mark": {"color": PALETTE[0]},
            "line": {"strokeWidth": 2},
            "point": {"size": 50, "filled": True},
        }
    )


def chart_image(spec: dict, fmt: str, **options) -> bytes | str:
    """The Vega-Lite ``spec`` drawn by vl-convert (no browser, no network) at the Vega-Lite
    version Altair writes: ``fmt`` "svg" (text), "png" or "jpeg" (bytes); ``options`` are
    vl-convert's (``scale``, ``quality``...)."""
    import vl_convert

    draw = getattr(vl_convert, f"vegalite_to_{fmt}")
    return draw(spec, vl_version=vega_lite_version(), **options)


def vega_lite_version() -> str:
    """The Vega-Lite version Altair writes, as vl-convert names it. Read through Altair's
    private ``altair.utils._importers`` (this is the one module that imports it;
    pyproject.toml bounds Altair to the major series it is known in)."""
    from altair.utils._importers import vl_version_for_vl_convert

    return vl_version_for_vl_convert()


def without_tooltips(spec):
    """``spec`` without the tooltips of its encodings and marks: an image cannot show them,
    yet Vega formats one per mark (a quarter of the time of a 100 x 100 bag heatmap).
    Data (``data``, ``datasets``) is kept as is."""
    if isinstance(spec, list):
        return [without_tooltips(item) for item in spec]
    if not isinstance(spec, dict):
        return spec
    kept = {}
    for key, value in spec.items():
        if key not in ("data", "datasets"):
            value = without_tooltips(value)
            if key in ("encoding", "mark") and isinstance(value, dict):
                value = {name: item for name, item in value.items() if name != "tooltip"}
        kept[key] = value
    return kept


def static_images(spec: dict, **metadata) -> tuple[dict, dict]:
    """Altair renderer: the chart as ``image/svg+xml`` and ``image/png`` (vl-convert, no
    browser, no network). JupyterLab shows the SVG in a trusted notebook and the PNG in an
    untrusted one (SVG can carry scripts, so untrusted notebooks do not render it)."""
    png = chart_image(spec, "png", scale=PNG_SCALE)
    width = int.from_bytes(png[16:20], "big")  # the PNG header's IHDR width, in pixels
    bundle = {"image/svg+xml": chart_image(spec, "svg"),
              "image/png": base64.b64encode(png).decode("ascii")}
    # shown at the chart's own size (the PNG has PNG_SCALE pixels per point)
    return bundle, {"image/png": {"width": round(width / PNG_SCALE)}}


STATIC_RENDERER = "milab-static"
#: Resolution of the notebooks' PNG charts (2: sharp on high-density screens).
PNG_SCALE = 2.0
alt.renderers.register(STATIC_RENDERER, static_images)


def use_lab_charts() -> None:
    """Enable the lab theme and the static image renderer for this process.

    Call once at the top of a notebook (the lab's panels and notebooks do). A displayed
    chart is then an SVG + PNG output rendered by vl-convert (:func:`static_images`): kept
    in the saved notebook and drawn wherever it is opened, with no kernel. The panels'
    live charts do not depend on the renderer (they are widgets).

    See Also
    --------
    lab_theme : the theme.
    save_chart : writes a chart as SVG/PNG files.

    Examples
    --------
    >>> import altair as alt
    >>> from milab_widgets.charts import THEME_NAME, use_lab_charts
    >>> use_lab_charts()
    >>> alt.theme.active == THEME_NAME
    True
    """
    alt.theme.enable(THEME_NAME)
    alt.renderers.enable(STATIC_RENDERER)


def save_chart(
    chart: alt.TopLevelMixin,
    path_without_suffix: str | Path,
    formats: Iterable[str] = ("svg", "png"),
    *,
    scale_factor: float = 2.0,
) -> list[Path]:
    """Write ``chart`` to ``<path_without_suffix>.<format>`` for each format; no network.

    Static formats are rendered by vl-convert (bundled Vega, no browser). The lab theme is
    applied when it is the enabled theme (see :func:`use_lab_charts`). Parent folders are
    created. ``scale_factor`` multiplies the PNG resolution (2 gives sharp figures).

    Returns the paths written, in the order of ``formats``.

    Parameters
    ----------
    chart : altair.Chart or another top-level Altair chart
        The chart to write.
    path_without_suffix : str or Path
        The files' path without the format's suffix.
    formats : iterable of {"svg", "png", "pdf", "json", "html"}, default=("svg", "png")
        One file per format.
    scale_factor : float, default=2.0
        Multiplies the PNG resolution.

    Returns
    -------
    list of Path
        The files written, in the order of ``formats``.

    See Also
    --------
    use_lab_charts : the theme and renderer of the notebooks.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import altair as alt
    >>> import pandas as pd
    >>> from milab_widgets.charts import save_chart
    >>> chart = alt.Chart(pd.DataFrame({"x": [1, 2], "y": [3, 4]})).mark_line().encode(x="x", y="y")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_chart(chart, Path(folder) / "line", formats=("svg",))
    ...     [path.name for path in written], written[0].read_text().startswith("<svg")
    (['line.svg'], True)
    """
    formats = tuple(formats)
    unknown = [f for f in formats if f not in _SAVE_FORMATS]
    if unknown or not formats:
        raise ValueError(
            f"formats={formats!r}: give one or more of {', '.join(_SAVE_FORMATS)}"
        )
    base = Path(path_without_suffix)
    base.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = base.with_name(f"{base.name}.{fmt}")
        with atomic_path(path) as temporary:
            chart.save(temporary, format=fmt, scale_factor=scale_factor)
        paths.append(path)
    return paths
