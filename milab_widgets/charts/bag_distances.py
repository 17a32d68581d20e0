"""Charts for the integrated-Hausdorff paper (the intH paper): the NCA objective and bag distances.

Pure builders: arrays in, an Altair chart out, nothing displayed and no global state changed.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from milab_widgets.charts.theme import PALETTE, SYMBOL_LEGEND
from milab_widgets.exceptions import InputError

__all__ = ["nca_curve_chart", "distance_heatmap_chart"]


def nca_curve_chart(
    alphas, values, chosen_alpha: float, chosen_value: float, sigma: float,
    *, chosen_label: str = "chosen α", select: str | None = None,
) -> alt.LayerChart:
    """The NCA objective f(alpha) as a line, the chosen alpha as a marked point and a rule.

    f(alpha) = sum_i sum_{j: y_j = y_i} p_ij is the expected number of bags a stochastic
    leave-one-out neighbour classifies correctly under d_intH = alpha d_minH + (1 - alpha)
    d_maxH (the intH paper, eqs. 6-8); NCA + golden-section search picks its maximiser.

    Parameters
    ----------
    alphas, values : 1-D arrays of equal length
        The curve: f at each alpha.
    chosen_alpha, chosen_value : float
        The point to mark (the NCA-tuned alpha, or one set by hand) and f there.
    sigma : float
        The bandwidth the curve was computed with (shown in the title).
    chosen_label : str
        What the marked point is (e.g. "NCA-tuned α", "α by hand"): shown next to it,
        in its tooltip and in the title.
    select : str, optional
        Name of a click selection on the curve's points: a click anywhere in the plot takes
        the nearest point's ``alpha`` (for a live chart whose clicks choose alpha).
    """
    alphas, values = _curve_arrays(alphas, values)
    curve = pd.DataFrame({"alpha": alphas, "f": values})
    chosen = pd.DataFrame({"alpha": [float(chosen_alpha)], "f": [float(chosen_value)],
                           "what": [chosen_label]})
    alpha_axis = alt.X("alpha:Q", title="α (weight of d_minH)", scale=alt.Scale(domain=[0, 1]))
    f_axis = alt.Y("f:Q", title="f(α): expected correct leave-one-out bags",
                   scale=alt.Scale(zero=False))
    tooltip = [alt.Tooltip("alpha:Q", format=".3f"), alt.Tooltip("f:Q", format=".3f")]
    line = alt.Chart(curve).mark_line().encode(x=alpha_axis, y=f_axis)
    points = alt.Chart(curve).mark_point(size=12, opacity=0.5).encode(
        x=alpha_axis, y=f_axis, tooltip=tooltip)
    if select:  # on the points: Vega's "nearest" (a voronoi layer) works for points, not lines
        points = points.add_params(alt.selection_point(name=select, fields=["alpha"],
                                                       on="click", nearest=True))
    marker = alt.Chart(chosen)
    rule = marker.mark_rule(color=PALETTE[3], strokeDash=[4, 3]).encode(x="alpha:Q")
    point = marker.mark_point(color=PALETTE[3], size=120, filled=True).encode(
        x="alpha:Q", y="f:Q", tooltip=["what:N", *tooltip]
    )
    text = marker.mark_text(align="left", dx=8, dy=-8, color=PALETTE[3]).encode(
        x="alpha:Q", y="f:Q", text=alt.Text("what:N")
    )
    return alt.layer(line, points, rule, point, text).properties(
        title=f"NCA objective f(α), σ = {sigma:g}; {chosen_label} = {float(chosen_alpha):.3f}"
    )


def distance_heatmap_chart(matrix, labels, title: str, max_bags: int = 120, *,
                           select: str | None = None, size: int = 360,
                           bag_ids=None) -> alt.Chart:
    """A bag x bag distance heatmap, bags ordered by label so class blocks show.

    Negative bags come first, then positive ones (each in their original order); rules mark
    the boundary between the blocks. With more than ``max_bags`` bags, an evenly spaced
    subset of the label-ordered bags is drawn (class proportions kept) and the title says so.

    The data holds one row per drawn bag with that bag's distances as a list, unpacked by a
    Vega-Lite ``flatten`` transform in the browser: the chart carries ``max_bags`` rows, not
    ``max_bags ** 2``, so it stays under Altair's row limit without touching global settings.

    Parameters
    ----------
    matrix : (n, n) array
        Bag distances, e.g. d_minH, d_maxH or d_intH (the intH paper, eqs. 1-5).
    labels : (n,) array of 0/1
        Bag labels.
    title : str
        Chart title (the subset note is appended).
    max_bags : int
        Most bags drawn per axis.
    select : str, optional
        Name of a click selection of a cell (its ``row_bag`` and ``col_bag``, indices into
        ``labels``), for a live chart whose clicks choose a bag.
    size : int
        Width and height of the plot in pixels.
    bag_ids : (n,) sequence, optional
        The bags' names, shown in the tooltip (default: their indices), so that the tooltip
        names a bag as the panel does.

    The colour legend lists values as symbols, not a gradient: each copy of Vega numbers
    its SVG gradients ``gradient_0``, ``gradient_1``, ..., so two live charts on one page
    with a copy each both define ``gradient_0`` and the second legend shows the first one's
    gradient, or nothing when that chart is in a hidden tab (see ``SYMBOL_LEGEND``).
    """
    matrix, labels = _heatmap_arrays(matrix, labels, max_bags)
    bag_ids = np.arange(len(labels)) if bag_ids is None else np.asarray(bag_ids)
    if bag_ids.shape != labels.shape:
        raise InputError(f"bag_ids {bag_ids.shape} and labels {labels.shape} do not match: "
                         "pass one id per bag, or none.")
    shown = _label_ordered_subset(labels, max_bags)
    shown_distances = matrix[np.ix_(shown, shown)]
    n_shown, n_negative = len(shown), int((labels[shown] == 0).sum())
    if n_shown < len(labels):
        title = f"{title} ({n_shown} of {len(labels)} bags, evenly spaced)"
    position = alt.Scale(domain=[0, n_shown], nice=False)
    cells = (
        alt.Chart(_heatmap_rows(shown_distances, labels, shown, bag_ids))
        .transform_flatten(["distance", "col", "col_bag", "col_id", "col_label"])
        .transform_calculate(col_end="datum.col + 1", row_end="datum.row + 1")
        .mark_rect()
        .encode(
            x=alt.X("col:Q", title=_blocks_title(n_negative, n_shown), scale=position),
            x2="col_end:Q",
            y=alt.Y("row:Q", title=None, scale=alt.Scale(domain=[0, n_shown], nice=False,
                                                          reverse=True)),
            y2="row_end:Q",
            color=alt.Color("distance:Q", title="distance",
                            legend=_extent_legend(shown_distances)),
            tooltip=[alt.Tooltip("row_id:N", title="row bag"),
                     alt.Tooltip("row_label:Q", title="row bag's label"),
                     alt.Tooltip("col_id:N", title="column bag"),
                     alt.Tooltip("col_label:Q", title="column bag's label"),
                     alt.Tooltip("distance:Q", format=".3f")],
        )
    )
    if select:
        cells = cells.add_params(alt.selection_point(name=select, fields=["row_bag", "col_bag"],
                                                     on="click"))
    boundary = alt.Chart(pd.DataFrame({"at": [n_negative]})).mark_rule(
        color=PALETTE[3], strokeWidth=1.5
    )
    return alt.layer(
        cells, boundary.encode(x="at:Q"), boundary.encode(y="at:Q")
    ).properties(title=title, width=size, height=size)


def _heatmap_rows(shown_distances: np.ndarray, labels: np.ndarray, shown: np.ndarray,
                  bag_ids: np.ndarray) -> pd.DataFrame:
    """One row per shown bag: its position, index, id, label, and its distances to the
    shown bags (``shown_distances``, the shown rows and columns) as lists (with their
    positions, indices, ids and labels) for ``flatten``."""
    n_shown = len(shown)
    ids = [str(bag_id) for bag_id in bag_ids[shown]]
    columns = {"col": list(range(n_shown)), "col_bag": shown.tolist(), "col_id": ids,
               "col_label": labels[shown].tolist()}
    return pd.DataFrame({
        "row": np.arange(n_shown),
        "row_bag": shown,
        "row_id": ids,
        "row_label": labels[shown],
        "distance": shown_distances.tolist(),
        **{name: [values] * n_shown for name, values in columns.items()},
    })


def _extent_legend(distances: np.ndarray, n_values: int = 5) -> alt.Legend:
    """The symbol legend (``SYMBOL_LEGEND``) at ``n_values`` evenly spaced values from the
    smallest to the largest distance shown: Vega's own nice ticks stopped at 2,000 under a
    heatmap reaching 2,433 (issue 33)."""
    finite = distances[np.isfinite(distances)]
    if finite.size == 0:
        return SYMBOL_LEGEND
    values = np.unique(np.linspace(finite.min(), finite.max(), n_values))
    return alt.Legend(type="symbol", symbolType="square", values=values.tolist(),
                      format=",.4~g")


def _blocks_title(n_negative: int, n_shown: int) -> str:
    """Axis title naming the position ranges of the negative and positive blocks."""
    blocks = [f"{first}-{last}: {name}" for first, last, name in
              ((0, n_negative - 1, "negative"), (n_negative, n_shown - 1, "positive"))
              if first <= last]
    return f"bag, by label ({', '.join(blocks)})"


def _label_ordered_subset(labels: np.ndarray, max_bags: int) -> np.ndarray:
    """Bag indices ordered by label (stable), thinned to ``max_bags`` evenly spaced ones."""
    order = np.argsort(labels, kind="stable")
    if len(order) <= max_bags:
        return order
    return order[np.arange(max_bags) * len(order) // max_bags]


def _curve_arrays(alphas, values) -> tuple[np.ndarray, np.ndarray]:
    alphas = np.asarray(alphas, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    if alphas.ndim != 1 or alphas.shape != values.shape or len(alphas) == 0:
        raise InputError(
            f"alphas {alphas.shape} and values {values.shape} must be 1-D arrays of the same, "
            "non-zero length: one f value per alpha."
        )
    return alphas, values


def _heatmap_arrays(matrix, labels, max_bags: int) -> tuple[np.ndarray, np.ndarray]:
    matrix = np.asarray(matrix, dtype=np.float64)
    labels = np.asarray(labels)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or labels.shape != matrix.shape[:1]:
        raise InputError(
            f"matrix {matrix.shape} and labels {labels.shape} do not match: pass a square "
            "bag x bag matrix and one label per bag."
        )
    if int(max_bags) < 2:
        raise InputError(f"max_bags must be at least 2, got {max_bags!r}.")
    return matrix, labels
