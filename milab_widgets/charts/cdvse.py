"""Charts of the CDVSE paper's experiments, built from :mod:`milab_widgets.experiments.cdvse` tables."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from milab_widgets.charts.theme import PALETTE
from milab_widgets.papers.cdvse import METHODS

__all__ = [
    "boundary_cells", "boundary_chart", "scores_chart", "kept_chart", "weights_chart",
    "objective_chart", "compactness_chart", "diversity_chart", "sensitivity_chart",
]

METHOD_NAMES = list(METHODS.values())
ROLE_COLOURS = alt.Scale(domain=["training", "test normal", "outlier"],
                         range=[PALETTE[0], PALETTE[5], PALETTE[3]])
KEPT_COLOURS = alt.Scale(domain=["kept", "dropped"], range=[PALETTE[2], "#bbbbbb"])


def boundary_cells(boundaries: pd.DataFrame) -> pd.DataFrame:
    """The grid cells on a description's boundary: inside (decision >= 0) with a 4-neighbour
    outside. ``boundaries`` holds one method's full square grid (x, y, decision)."""
    grid = boundaries.pivot(index="y", columns="x", values="decision")
    inside = grid.to_numpy() >= 0
    padded = np.pad(inside, 1, constant_values=False)
    neighbours_out = ~(padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:])
    rows, cols = np.nonzero(inside & neighbours_out)
    return pd.DataFrame({"x": grid.columns.to_numpy()[cols], "y": grid.index.to_numpy()[rows]})


def boundary_chart(boundaries: pd.DataFrame, points: pd.DataFrame, scores: pd.DataFrame,
                   title: str, *, select: str | None = None, size: int = 260) -> alt.Chart:
    """Figs. 2-3: samples by role and the decision boundary (black) of SVDD and CDVSE,
    side by side, each titled with its test g-mean; the axes span [0, 3] and whatever of the
    samples and the grid lies outside it.

    ``select`` names a click selection of the sample nearest the pointer in the CDVSE plot
    (its ``x`` and ``y``), for a live chart; ``size`` is each plot's width and height."""
    panels = []
    extent = pd.concat([points[["x", "y"]], boundaries[["x", "y"]]])
    domains = {axis: [min(0.0, float(extent[axis].min())), max(3.0, float(extent[axis].max()))]
               for axis in ("x", "y")}
    for method in ("svdd", "cdvse"):
        row = scores[scores.method == method].iloc[0]
        kept = f", {int(row['kept'])} SVDDs kept" if method == "cdvse" else ""
        heading = f"{METHODS[method]}: g = {row['g_mean']:.3f}{kept}"
        edge = boundary_cells(boundaries[boundaries.method == method])
        dots = alt.Chart(points).mark_point(filled=True, size=28, opacity=0.85).encode(
            x=alt.X("x:Q", scale=alt.Scale(domain=domains["x"], nice=False), title="x"),
            y=alt.Y("y:Q", scale=alt.Scale(domain=domains["y"], nice=False), title="y"),
            color=alt.Color("role:N", scale=ROLE_COLOURS, title=None),
            shape=alt.Shape("role:N", scale=alt.Scale(domain=ROLE_COLOURS.domain), title=None))
        line = alt.Chart(edge).mark_square(size=9, color="black").encode(x="x:Q", y="y:Q")
        if select and method == "cdvse":
            dots = _ringed_when_picked(dots, select)
        panels.append((line + dots).properties(width=size, height=size, title=heading))
    return alt.hconcat(*panels).properties(title=title)


#: The outline of the clicked sample: its stroke width (none on the other samples).
PICKED_STROKE_WIDTH = 3


def _ringed_when_picked(dots: alt.Chart, select: str) -> alt.Chart:
    """``dots`` with a click selection ``select`` of the sample nearest the pointer, drawn
    larger with a black outline as the click lands (the panel lists that sample's
    distances; issue 33: the sample was not marked). No sample is outlined before a click."""
    pick = alt.selection_point(name=select, fields=["x", "y"], on="click", nearest=True,
                               empty=False)
    return dots.add_params(pick).encode(
        stroke=alt.value("black"),
        strokeWidth=alt.condition(pick, alt.value(PICKED_STROKE_WIDTH), alt.value(0)),
        size=alt.condition(pick, alt.value(110), alt.value(28)))


def scores_chart(summary: pd.DataFrame, split: str = "test") -> alt.Chart:
    """Tables 3-4 as a chart: our mean ± std g-mean per method and dataset (dots, whiskers)
    and the paper's mean (black ticks)."""
    data = summary[summary.split == split].assign(
        method_name=lambda t: t["method"].map(METHODS),
        low=lambda t: t["mean"] - t["std"].fillna(0), high=lambda t: t["mean"] + t["std"].fillna(0))
    base = alt.Chart(data).encode(
        x=alt.X("method_name:N", sort=METHOD_NAMES, title=None, axis=alt.Axis(labelAngle=-45)),
        color=alt.Color("method_name:N", sort=METHOD_NAMES, title="method"))
    ours = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("mean:Q", title=f"{split} g-mean", scale=alt.Scale(zero=False)),
        tooltip=["dataset", "method_name", alt.Tooltip("mean:Q", format=".3f"),
                 alt.Tooltip("std:Q", format=".3f"), alt.Tooltip("paper_mean:Q", format=".3f")])
    whiskers = base.mark_rule().encode(y="low:Q", y2="high:Q")
    paper = base.mark_tick(thickness=2, size=14).encode(y="paper_mean:Q",
                                                        color=alt.value("black"))
    order = list(dict.fromkeys(data["dataset"]))
    return (whiskers + ours + paper).properties(width=110, height=150).facet(
        facet=alt.Facet("dataset:N", sort=order, title=None), columns=6,
    ).resolve_scale(y="independent").properties(
        title=f"{split.capitalize()} g-mean: ours (mean ± std) and the paper's (black tick)")


def kept_chart(parameters: pd.DataFrame, *, n_estimators: int | None = None) -> alt.Chart:
    """Table 2's last column: SVDDs CDVSE keeps (ours: mean ± std) against the paper's.

    ``n_estimators`` (M, the base SVDDs before selection) goes into the axis title; None
    leaves it out.
    """
    of_m = f" (of M = {n_estimators})" if n_estimators is not None else ""
    data = pd.concat([
        parameters.assign(source="ours", kept=parameters["kept_mean"]),
        parameters.assign(source="seed", kept=parameters["paper_kept"], kept_std=0.0),
    ])[["dataset", "source", "kept", "kept_std"]]
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("dataset:N", sort=list(parameters["dataset"]), title=None),
        xOffset="source:N", y=alt.Y("kept:Q", title=f"SVDDs kept{of_m}"),
        color=alt.Color("source:N", title=None),
        tooltip=["dataset", "source", alt.Tooltip("kept:Q", format=".1f"),
                 alt.Tooltip("kept_std:Q", format=".1f")],
    ).properties(width=520, height=200, title="Table 2: SVDDs kept by CDVSE")


def weights_chart(weights: np.ndarray, selected: np.ndarray) -> alt.Chart:
    """CDVSE's weight of each base SVDD, kept (w_k >= 1/M) or dropped, with the 1/M line."""
    status = np.full(len(weights), "dropped", dtype=object)
    status[selected] = "kept"
    data = pd.DataFrame({"svdd": np.arange(len(weights)), "weight": weights, "status": status})
    bars = alt.Chart(data).mark_bar().encode(
        x=alt.X("svdd:O", title="base SVDD"), y=alt.Y("weight:Q", title="w_k"),
        color=alt.Color("status:N", scale=KEPT_COLOURS, title=None),
        tooltip=["svdd", alt.Tooltip("weight:Q", format=".4f"), "status"])
    threshold = alt.Chart(pd.DataFrame({"t": [1.0 / len(weights)]})).mark_rule(
        strokeDash=[4, 3], color="black").encode(y="t:Q")
    return (bars + threshold).properties(width=360, height=160,
                                         title="CDVSE weights (dashed: 1/M)")


def objective_chart(history: np.ndarray) -> alt.Chart:
    """J(w) over the half-quadratic iterations (never decreasing)."""
    data = pd.DataFrame({"iteration": np.arange(len(history)), "objective": history})
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("iteration:Q", title="half-quadratic step"),
        y=alt.Y("objective:Q", title="J(w)", scale=alt.Scale(zero=False)),
        tooltip=["iteration", alt.Tooltip("objective:Q", format=".6g")],
    ).properties(width=260, height=160, title="Objective (the paper's eq. 17)")


# -- the mechanism claims (experiments.cdvse_mechanisms tables) ------------------------------
ENSEMBLE_NAMES = {"bagging": "Bagging", "cdvse": "CDVSE (selected λ)", "ablated": "λ = 0"}


def compactness_chart(summary: pd.DataFrame) -> alt.Chart:
    """Advantage (1): per data set, the mean share of the reference sample that Bagging
    and CDVSE accept (``compactness_summary``); lower is a more compact region."""
    data = summary.melt(id_vars=["dataset", "reference"],
                        value_vars=["bagging_accepted", "cdvse_accepted"],
                        var_name="method", value_name="accepted")
    data = data.assign(method=data.method.str.removesuffix("_accepted").map(ENSEMBLE_NAMES))
    return alt.Chart(data).mark_point(filled=True, size=60).encode(
        x=alt.X("dataset:N", sort=list(summary.dataset), title=None),
        y=alt.Y("accepted:Q", title="share of the reference accepted"),
        color=alt.Color("method:N", title=None), shape=alt.Shape("method:N", title=None),
        tooltip=["dataset", "reference", "method", alt.Tooltip("accepted:Q", format=".3f")],
    ).properties(width=520, height=200,
                 title="Compactness: share of a fixed reference sample accepted")


def diversity_chart(summary: pd.DataFrame) -> alt.Chart:
    """Advantage (2): per data set, the mean pairwise disagreement of the members CDVSE
    keeps with the distance-variance term (the selected λ) and without it (λ = 0)."""
    data = summary.assign(ensemble=summary.ensemble.map(ENSEMBLE_NAMES))
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("dataset:N", sort=list(dict.fromkeys(summary.dataset)), title=None),
        xOffset="ensemble:N", y=alt.Y("disagreement:Q", title="pairwise disagreement (test)"),
        color=alt.Color("ensemble:N", title=None),
        tooltip=["dataset", "ensemble", alt.Tooltip("kept:Q", format=".1f"),
                 alt.Tooltip("disagreement:Q", format=".4f"),
                 alt.Tooltip("distance_variance:Q", format=".3g")],
    ).properties(width=520, height=200, title="Diversity of the kept members")


def sensitivity_chart(summary: pd.DataFrame) -> alt.Chart:
    """The conclusions' parameters: CDVSE's mean test g-mean along σ, ζ and C (the other
    two at their selected values), one line per data set, one panel per parameter."""
    order = list(dict.fromkeys(summary.parameter))
    return alt.Chart(summary).mark_line(point=True).encode(
        x=alt.X("value:Q", scale=alt.Scale(type="log"), title="parameter value"),
        y=alt.Y("test:Q", title="test g-mean"),
        color=alt.Color("dataset:N", title=None),
        tooltip=["dataset", "parameter", "value", alt.Tooltip("test:Q", format=".3f"),
                 alt.Tooltip("kept:Q", format=".1f")],
    ).properties(width=200, height=180).facet(
        column=alt.Column("parameter:N", sort=order, title=None),
    ).resolve_scale(x="independent").properties(
        title="Test g-mean along each parameter (the others at their selected values)")
