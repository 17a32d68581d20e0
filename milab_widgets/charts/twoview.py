"""Charts of the TwoViewMIC paper's experiments, built from :mod:`milab_widgets.experiments.twoview` tables."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from milab_widgets.charts.theme import PALETTE, SYMBOL_LEGEND
from milab_widgets.papers.twoview import SPEC

__all__ = [
    "accuracy_chart", "grid_heatmap", "convergence_chart", "objective_curve_chart",
    "confusion_chart",
]

#: Rule colours: the paper's H rule vermillion, ours blue.
UPDATE_COLOURS = alt.Scale(domain=["monotone", "paper"], range=[PALETTE[0], PALETTE[3]])


def accuracy_chart(summary: pd.DataFrame, title: str) -> alt.Chart:
    """Tables 1-2 as a chart: mean ± std ACC of every method, one panel per bag generator."""
    data = summary.assign(low=summary["mean"] - summary["std"].fillna(0),
                          high=summary["mean"] + summary["std"].fillna(0),
                          family=["proposed" if m.startswith("Ker") else "baseline"
                                  for m in summary["method"]])
    base = alt.Chart(data).encode(
        x=alt.X("method:N", sort=list(SPEC.vocabulary["method"]), title=None, axis=alt.Axis(labelAngle=-40)),
        color=alt.Color("family:N", title=None, sort=["proposed", "baseline"]),
    )
    points = base.mark_point(filled=True, size=70).encode(
        y=alt.Y("mean:Q", title="clustering accuracy", scale=alt.Scale(zero=False)),
        tooltip=["method", "generator", alt.Tooltip("mean:Q", format=".3f"),
                 alt.Tooltip("std:Q", format=".3f"), "runs"],
    )
    whiskers = base.mark_rule().encode(y="low:Q", y2="high:Q")
    return (whiskers + points).properties(width=210, height=200).facet(
        column=alt.Column("generator:N", title="second-view bag generator",
                          sort=list(dict.fromkeys(data["generator"])))
    ).properties(title=title)


def grid_heatmap(means: pd.DataFrame, method: str, title: str) -> alt.Chart:
    """Figs. 1-2: mean ACC of ``method`` ("Ker1" / "Ker2") over the alpha x beta grid."""
    data = means[means["method"] == method].assign(
        alpha_label=lambda t: t["alpha"].map("{:g}".format),
        beta_label=lambda t: t["beta"].map("{:g}".format))
    order = [f"{v:g}" for v in sorted(data["alpha"].unique())]
    beta_order = [f"{v:g}" for v in sorted(data["beta"].unique())]
    base = alt.Chart(data).encode(
        x=alt.X("beta_label:O", sort=beta_order, title="β", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("alpha_label:O", sort=order[::-1], title="α"),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("accuracy:Q", title="ACC",
                        scale=alt.Scale(scheme="viridis", domain=[0, 1])),
        tooltip=["generator", "alpha", "beta", alt.Tooltip("accuracy:Q", format=".3f")],
    )
    labels = base.mark_text(fontSize=9).encode(
        text=alt.Text("accuracy:Q", format=".2f"),
        color=alt.condition("datum.accuracy > 0.6", alt.value("black"), alt.value("white")),
    )
    return (cells + labels).properties(width=230, height=230).facet(
        column=alt.Column("generator:N", title="second-view bag generator")
    ).properties(title=title)


def convergence_chart(convergence: pd.DataFrame, method: str, title: str) -> alt.Chart:
    """Figs. 3-4: the objective over the iterations of ``method``, both H rules (the paper's
    dashed, drawn over ours where they coincide), one row of panels per beta (log scale: the
    seed's rule can jump by orders of magnitude)."""
    data = convergence[convergence["method"] == method]
    return alt.Chart(data).mark_line().encode(
        x=alt.X("iteration:Q", title="iteration"),
        y=alt.Y("objective:Q", title="objective O", scale=alt.Scale(type="log")),
        color=alt.Color("update:N", title="H rule", scale=UPDATE_COLOURS),
        strokeDash=alt.StrokeDash("update:N", title="H rule", scale=alt.Scale(
            domain=["monotone", "paper"], range=[[1, 0], [5, 3]])),
        tooltip=["generator", "update", "beta", "iteration",
                 alt.Tooltip("objective:Q", format=".6g")],
    ).properties(width=210, height=150).facet(
        row=alt.Row("beta:O", title="β"), column=alt.Column("generator:N", title=None)
    ).resolve_scale(y="independent").properties(title=title)


#: The first update "dominates" the curve when it falls this many times further than all
#: the later ones together (Ker2 on digits-a: 908.6 -> 157.7, then down to 89.5).
FIRST_STEP_DOMINATES = 5.0


def objective_curve_chart(objective, title: str = "objective over the iterations") -> alt.Chart:
    """One run's objective (the panel's live convergence curve).

    When the first update dominates (:data:`FIRST_STEP_DOMINATES`), the y axis spans the
    iterations from 1 on, so their convergence can be read, and iteration 0's value, above
    the axis, is given in the subtitle (issue 33: Ker2's axis was 90 % iteration 0)."""
    values = np.asarray(objective, dtype=float)
    data = pd.DataFrame({"iteration": np.arange(len(values)), "objective": values})
    scale, subtitle = alt.Scale(zero=False), ""
    if _first_step_dominates(values):
        later = values[1:]
        scale = alt.Scale(domain=[float(later.min()), float(later.max())], nice=False)
        subtitle = f"iteration 0 ({values[0]:.6g}) is above the axis"
    return alt.Chart(data).mark_line(point=len(values) < 40, clip=True).encode(
        x=alt.X("iteration:Q", title="iteration"),
        y=alt.Y("objective:Q", title="objective O", scale=scale),
        tooltip=["iteration", alt.Tooltip("objective:Q", format=".6g")],
    ).properties(width=320, height=200,
                 title=alt.TitleParams(title, subtitle=subtitle) if subtitle else title)


def _first_step_dominates(values: np.ndarray) -> bool:
    if len(values) < 3 or not np.isfinite(values).all():
        return False
    later = values[1:]
    return values[0] - later.min() > FIRST_STEP_DOMINATES * (later.max() - later.min()) > 0


def confusion_chart(table: pd.DataFrame, title: str, *, select: str | None = None) -> alt.Chart:
    """A confusion matrix after Hungarian matching (rows = classes, columns = clusters).

    ``select`` names a click selection of a cell (its ``class`` and ``cluster``), for a live
    chart whose clicks list that cell's bags."""
    data = table.reset_index().melt(id_vars=table.index.name or "index", var_name="cluster",
                                    value_name="count").rename(columns={table.index.name: "class"})
    data["class"] = data["class"].astype(str)
    base = alt.Chart(data).encode(
        x=alt.X("cluster:N", sort=list(table.columns), title="cluster (→ matched class)",
                axis=alt.Axis(labelAngle=-40)),
        y=alt.Y("class:N", sort=[str(c) for c in table.index], title="class"),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("count:Q", scale=alt.Scale(scheme="blues"), title="bags",
                        legend=SYMBOL_LEGEND),  # no gradient: its SVG id would clash
        tooltip=["class", "cluster", "count"],
    )
    if select:
        cells = cells.add_params(alt.selection_point(name=select, fields=["class", "cluster"],
                                                     on="click"))
    dark = float(data["count"].max()) / 2  # the "blues" scheme's upper half is dark blue
    counts = base.mark_text(fontSize=11).encode(
        text="count:Q", color=alt.condition(alt.datum.count > dark, alt.value("white"),
                                            alt.value("black")))
    return (cells + counts).properties(width=260, height=220, title=title)
