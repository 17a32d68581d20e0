"""Charts of the LSkMDDM paper's experiments, built from :mod:`milab_widgets.experiments.lskmddm` tables."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from milab_widgets.charts.theme import PALETTE
from milab_widgets.claims.lskmddm import fig4_exponents
from milab_widgets.papers.lskmddm import METHODS

__all__ = [
    "methods_chart", "table2_chart", "dimensions_chart", "timing_chart", "accuracy_chart",
    "claims_chart", "embedding_chart",
]


#: The three metrics of Table 2 and Figs. 1-3, with display titles.
FIGURE_METRICS = {"macroAUC": "macro AUC", "macroF1": "macro-F1", "microF1": "micro-F1"}
#: Fig. 4's legend: long solver names.
_LEGEND = alt.Legend(labelLimit=360)
#: The embedding scatter's two classes of points and their colours.
HAS_LABEL = alt.Scale(domain=["has label", "no label"], range=[PALETTE[0], PALETTE[1]])


def methods_chart(summary: pd.DataFrame, metric_names, title: str) -> alt.Chart:
    """Tables 3-7 as a chart: mean ± std of each method, one row per metric, one column per
    dataset."""
    data = summary[summary.metric.isin(list(metric_names))].assign(
        low=lambda t: t["mean"] - t["std"].fillna(0), high=lambda t: t["mean"] + t["std"].fillna(0))
    base = alt.Chart(data).encode(
        x=alt.X("method:N", sort=list(METHODS), title=None),
        color=alt.Color("method:N", sort=list(METHODS), legend=None))
    points = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("mean:Q", title=None, scale=alt.Scale(zero=False)),
        tooltip=["dataset", "method", "metric", alt.Tooltip("mean:Q", format=".4f"),
                 alt.Tooltip("std:Q", format=".4f"), "runs"])
    whiskers = base.mark_rule().encode(y="low:Q", y2="high:Q")
    return (whiskers + points).properties(width=120, height=110).facet(
        row=alt.Row("metric:N", title=None, sort=list(metric_names)),
        column=alt.Column("dataset:N", title=None),
    ).resolve_scale(y="independent").properties(title=title)


def table2_chart(table2: pd.DataFrame) -> alt.Chart:
    """Table 2: kMDDM vs LSkMDDM (AUC, macro-F1, micro-F1) per dataset and partition."""
    long = table2.melt(id_vars=["dataset", "rep", "method"], value_vars=list(FIGURE_METRICS),
                       var_name="metric", value_name="value")
    return alt.Chart(long).mark_point(filled=True, size=70, opacity=0.8).encode(
        x=alt.X("value:Q", scale=alt.Scale(zero=False), title=None),
        y=alt.Y("method:N", title=None),
        color=alt.Color("method:N", legend=None),
        tooltip=["dataset", "rep", "method", "metric", alt.Tooltip("value:Q", format=".4f")],
    ).properties(width=170, height=80).facet(
        row=alt.Row("dataset:N", title=None), column=alt.Column("metric:N", title=None),
    ).resolve_scale(x="independent").properties(
        title="Table 2: kMDDM and LSkMDDM agree (scene, yeast)")


def dimensions_chart(dimensions: pd.DataFrame, metric: str) -> alt.Chart:
    """Figs. 1-3: ``metric`` vs embedding dimension, one panel per dataset."""
    data = dimensions.groupby(["dataset", "method", "dimension"], as_index=False)[metric].mean()
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("dimension:Q", title="embedding dimension"),
        y=alt.Y(f"{metric}:Q", title=FIGURE_METRICS.get(metric, metric), scale=alt.Scale(zero=False)),
        color=alt.Color("method:N", sort=list(METHODS)),
        tooltip=["dataset", "method", "dimension", alt.Tooltip(f"{metric}:Q", format=".4f")],
    ).properties(width=190, height=150).facet(column=alt.Column("dataset:N", title=None)).properties(
        title=f"{FIGURE_METRICS.get(metric, metric)} vs embedding dimension")


def timing_chart(timing: pd.DataFrame) -> alt.Chart:
    """Fig. 4: fit time vs training size, log-log, each solver labelled with its exponent
    on the claims' basis (:func:`~milab_widgets.claims.lskmddm.fig4_exponents`: the paper's
    sizes 500-2000, converged fits only; mean over the datasets), or "did not converge"."""
    exponents = fig4_exponents(timing.drop(columns="cpu_seconds", errors="ignore"))
    labels = (exponents.groupby("solver").exponent.mean() if len(exponents)
              else pd.Series(dtype=float))
    data = timing.assign(solver_label=[
        solver if solver not in labels else
        f"{solver} (did not converge)" if np.isnan(labels[solver]) else
        f"{solver} (n^{labels[solver]:.2f})" for solver in timing.solver])
    return _size_lines(data, "seconds:Q", "fit time (s)", "solver_label:N", "solver (scaling)",
                       ["dataset", "solver", "n", alt.Tooltip("seconds:Q", format=".3f"),
                        "iterations", "converged", alt.Tooltip("angle:Q", format=".2e")]
                       ).properties(title="Fig. 4: fit time vs training size (log-log)")


def accuracy_chart(timing: pd.DataFrame) -> alt.Chart:
    """Fig. 4's accuracy: largest principal angle of each solver's held-out embedding to its
    reference solver's (log scale; exact agreement is floored at 1e-16); hollow points:
    the solver did not converge."""
    data = timing[timing.solver != timing.reference].assign(
        angle_floor=lambda t: np.maximum(t["angle"], 1e-16))
    return _size_lines(data, "angle_floor:Q", "largest principal angle (rad)", "solver:N",
                       "solver", ["dataset", "solver", "reference", "n",
                                  alt.Tooltip("angle:Q", format=".2e"), "converged"],
                       filled="converged:N").properties(
        title="Fig. 4 (accuracy): angle to the exact solution of the same problem")


def _size_lines(data: pd.DataFrame, y: str, y_title: str, series: str, series_title: str,
                tooltip: list, filled: str | None = None) -> alt.FacetChart:
    """Log-log lines of ``y`` against the training size n, one per ``series``, one panel per
    dataset, ticks at the measured sizes (1k, 2k, ...). One legend: colours from a
    ten-colour scheme (Fig. 4 has nine solvers, more than the lab palette's eight; a
    second, shape legend of the same solvers read as a double legend). ``filled``: a boolean
    field; its false points are drawn as crosses."""
    sizes = sorted(int(n) for n in data["n"].unique())
    x = alt.X("n:Q", title="training size n",
              scale=alt.Scale(type="log", domain=[sizes[0], sizes[-1]], nice=False) if sizes
              else alt.Scale(type="log"),
              axis=alt.Axis(values=sizes, format="~s", labelOverlap=True))
    point = alt.OverlayMarkDef(size=50, filled=True)
    chart = alt.Chart(data).mark_line(point=point).encode(
        x=x, y=alt.Y(y, scale=alt.Scale(type="log"), title=y_title),
        color=alt.Color(series, title=series_title, legend=_LEGEND,
                        scale=alt.Scale(scheme="tableau10")),
        tooltip=tooltip)
    if filled:
        chart = chart.encode(shape=alt.Shape(
            filled, title="converged", scale=alt.Scale(domain=[True, False],
                                                       range=["circle", "cross"])))
    return chart.properties(width=210, height=170).facet(
        column=alt.Column("dataset:N", title=None))


def claims_chart(claims: pd.DataFrame) -> alt.Chart:
    """The paper's claims: one mark per dataset and claim, green where it holds."""
    return alt.Chart(claims).mark_square(size=160).encode(
        x=alt.X("dataset:N", title=None), y=alt.Y("claim:N", title=None),
        color=alt.Color("holds:N", scale=alt.Scale(domain=[True, False],
                                                   range=["#009E73", "#D55E00"])),
        tooltip=["dataset", "claim", "holds", "detail"],
    ).properties(title="The LSkMDDM paper's claims on our runs")


def embedding_chart(embedding: np.ndarray, has_label: np.ndarray, label_name: str,
                    method: str, *, select: str | None = None) -> alt.Chart:
    """The panel's scatter: rows in the first two embedding coordinates, coloured by whether
    they carry the label ``label_name`` (``has_label``: 0/1 per row); rows with the label
    are drawn on top (they are usually the fewer). ``select`` names an interval selection
    (a brush over both coordinates), for a live chart."""
    frame = pd.DataFrame({"coordinate 1": embedding[:, 0], "coordinate 2": embedding[:, 1],
                          "label": np.where(has_label == 1, "has label", "no label"),
                          "on_top": np.asarray(has_label, dtype=int)})
    chart = alt.Chart(frame).mark_circle(size=25, opacity=0.7).encode(
        x="coordinate 1:Q", y="coordinate 2:Q",
        color=alt.Color("label:N", title=label_name, scale=HAS_LABEL),
        order=alt.Order("on_top:Q", sort="ascending"),
    ).properties(width=330, height=260, title=f"{method}: held-out rows, first two coordinates")
    if select:
        chart = chart.add_params(alt.selection_interval(name=select,
                                                        encodings=["x", "y"]))
    return chart
