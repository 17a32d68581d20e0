"""Charts of the MFSEF paper's experiments, built from :mod:`milab_widgets.experiments.mfsef` tables.

* :func:`metric_curves_chart` -- Fig. 4, each metric against the number of selected features;
* :func:`cd_diagram` / :func:`cd_diagrams` -- Fig. 5, Nemenyi critical-difference diagrams;
* :func:`ranks_by_size_chart` -- average ranks at every size, to judge the tables' 10 % rule;
* :func:`waterfall_chart`, :func:`waterfall_overview_chart` -- Figs. 1-2, feature values of
  two samples / of all samples;
* :func:`expert_view_chart` -- relevance of every feature over the overview, experts marked
  (the panel's aid for choosing experts by hand);
* :func:`stability_chart` -- each selector's Nogueira stability with its interval, per data
  set.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from milab_widgets.charts.theme import PALETTE
from milab_widgets.evaluation.ranking_stats import nemenyi_cliques
from milab_widgets.multilabel.metrics import LOWER_IS_BETTER
from milab_widgets.papers.mfsef import METHODS, METRIC_NAMES, TABLE_METRICS

__all__ = [
    "method_scale", "metric_curves_chart", "ranks_by_size_chart", "cd_diagram", "cd_diagrams",
    "waterfall_chart", "waterfall_overview_chart", "expert_view_chart", "stability_chart",
]

_METHOD_SCALE = alt.Scale(domain=list(METHODS))
#: Okabe-Ito: vermillion for the critical difference; experts orange over blue features.
CD_COLOUR = PALETTE[3]
ROLE_SCALE = alt.Scale(domain=["expert", "other"], range=[PALETTE[1], PALETTE[0]])


def method_scale(shown) -> alt.Scale:
    """The colour scale of the methods in ``shown`` only (the legend lists what ran: issue
    33, six methods listed when two ran), each in the colour it has in every other chart
    (its place in METHODS)."""
    present = [method for method in METHODS if method in set(shown)]
    return alt.Scale(domain=present,
                     range=[PALETTE[METHODS.index(m) % len(PALETTE)] for m in present])


def metric_curves_chart(curve: pd.DataFrame, title: str, metrics=TABLE_METRICS, *,
                        select: str | None = None, width: int = 230) -> alt.Chart:
    """Fig. 4: metric vs number of selected features, one panel per metric; Original (all
    features) is the dashed level, and the legend draws it dashed too.

    ``select`` names a click selection of a method (its line, or its legend entry), for a
    live chart; the other methods then fade."""
    data = curve[curve.metric.isin(metrics)].assign(
        metric_name=lambda t: t.metric.map(_metric_title),
        features=lambda t: np.where(t.method == "Original", "all (Original)", "selected"))
    pick = alt.selection_point(name=select or "method_pick", fields=["method"], on="click",
                               bind="legend")
    base = alt.Chart(data).encode(
        x=alt.X("n_features:Q", title="selected features", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("value:Q", title=None, scale=alt.Scale(zero=False)),
        color=alt.Color("method:N", scale=method_scale(data.method), title="method",
                        legend=alt.Legend(symbolType="stroke", symbolStrokeWidth=3)),
        strokeDash=alt.StrokeDash("features:N", title="features",
                                  scale=alt.Scale(domain=["selected", "all (Original)"],
                                                  range=[[1, 0], [5, 4]]),
                                  legend=alt.Legend(symbolType="stroke", symbolStrokeWidth=2,
                                                    symbolSize=300)),
        tooltip=["method", "n_features", alt.Tooltip("value:Q", format=".4f")],
    )
    if select:
        base = base.encode(opacity=alt.condition(pick, alt.value(1.0), alt.value(0.25)))
    lines = base.mark_line(point=True)
    if select:
        lines = lines.add_params(pick)
    return lines.properties(width=width, height=170).facet(
        facet=alt.Facet("metric_name:N", title=None, sort=[_metric_title(m) for m in metrics]),
        columns=2,
    ).properties(title=title).resolve_scale(y="independent")


def ranks_by_size_chart(ranks: pd.DataFrame) -> alt.Chart:
    """Average rank (1 = best) of every method against the fraction of features kept, one
    panel per metric (from :func:`~milab_widgets.experiments.mfsef.ranks_by_size`)."""
    data = ranks.assign(metric_name=lambda t: t.metric.map(_metric_title))
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("fraction:Q", title="selected features (fraction of d)",
                axis=alt.Axis(format="%")),
        y=alt.Y("average_rank:Q", title="average rank",
                scale=alt.Scale(reverse=True, domain=[1, ranks.method.nunique()])),
        color=alt.Color("method:N", scale=_METHOD_SCALE, title="method"),
        tooltip=["method", alt.Tooltip("fraction:Q", format=".0%"),
                 alt.Tooltip("average_rank:Q", format=".2f")],
    ).properties(width=230, height=160).facet(
        facet=alt.Facet("metric_name:N", title=None,
                        sort=[_metric_title(m) for m in TABLE_METRICS]), columns=2,
    ).properties(title="Average rank over the datasets at every size (1 = best)")


def cd_diagram(average_ranks: pd.Series, cd: float, title: str) -> alt.LayerChart:
    """A critical-difference diagram: methods on the average-rank axis (1 = best, left),
    bars joining methods whose ranks differ by at most ``cd``, and the CD itself on top."""
    k = len(average_ranks)
    ordered = average_ranks.sort_values(kind="stable")
    methods = pd.DataFrame({"method": ordered.index, "rank": ordered.to_numpy(),
                            "level": -1.0 - np.arange(k) * 0.55})
    methods["label"] = [f"{m} ({r:.2f})"
                        for m, r in zip(methods.method, methods["rank"], strict=True)]
    cliques = pd.DataFrame([
        {"start": ordered[group].min(), "end": ordered[group].max(), "level": -0.25 - 0.15 * i}
        for i, group in enumerate(nemenyi_cliques(average_ranks, cd))
    ], columns=["start", "end", "level"])
    cd_bar = pd.DataFrame({"start": [1.0], "end": [1.0 + cd], "level": [0.6],
                           "text": [f"CD = {cd:.3f}"]})
    x = alt.X("rank:Q", scale=alt.Scale(domain=[1, k]), title="average rank",
              axis=alt.Axis(orient="top", tickMinStep=1, grid=False))
    y = alt.Y("level:Q", axis=None, scale=alt.Scale(domain=[methods.level.min() - 0.4, 1.0]))
    stems = alt.Chart(methods).mark_rule(color="#555555").encode(
        x=x, y=alt.Y("zero:Q", axis=None), y2="level:Q").transform_calculate(zero="0")
    labels = alt.Chart(methods).mark_text(align="left", dx=4, fontSize=12).encode(
        x="rank:Q", y=y, text="label:N", color=alt.Color("method:N", scale=_METHOD_SCALE,
                                                          legend=None))
    bars = alt.Chart(cliques).mark_rule(strokeWidth=4, color="#333333").encode(
        x="start:Q", x2="end:Q", y="level:Q")
    cd_rule = alt.Chart(cd_bar).mark_rule(strokeWidth=2, color=CD_COLOUR).encode(
        x="start:Q", x2="end:Q", y="level:Q")
    cd_text = alt.Chart(cd_bar).mark_text(dy=-8, color=CD_COLOUR).encode(
        x="end:Q", y="level:Q", text="text:N")
    return alt.layer(stems, labels, bars, cd_rule, cd_text).properties(
        width=360, height=40 + 26 * k, title=title)


def cd_diagrams(summary: pd.DataFrame, metrics=TABLE_METRICS) -> alt.VConcatChart:
    """Fig. 5: one CD diagram per metric from :func:`~milab_widgets.experiments.mfsef.rank_summary`."""
    panels = []
    for metric in metrics:
        rows = summary[summary.metric == metric]
        ranks = pd.Series(rows.average_rank.to_numpy(), index=rows.method)
        panels.append(cd_diagram(ranks, float(rows.cd.iloc[0]),
                                 f"{_metric_title(metric)} (N = {int(rows.n_datasets.iloc[0])})"))
    rows_of_two = [alt.hconcat(*panels[i : i + 2]) for i in range(0, len(panels), 2)]
    return alt.vconcat(*rows_of_two).properties(
        title="Fig. 5: Nemenyi critical-difference diagrams (alpha = 0.05)")


def waterfall_chart(samples: pd.DataFrame, title: str) -> alt.Chart:
    """Fig. 1: each sample's value of every feature, one strip per sample."""
    return alt.Chart(samples).mark_area(opacity=0.85, interpolate="step").encode(
        x=alt.X("feature:Q", title="feature index",
                scale=alt.Scale(domain=[0, int(samples.feature.max())], nice=False)),
        y=alt.Y("value:Q", title="value"),
        color=alt.Color("sample:N", title="sample"),
        row=alt.Row("sample:N", title=None, header=alt.Header(labelExpr="'sample ' + datum.value")),
        tooltip=["sample", "feature", alt.Tooltip("value:Q", format=".3f")],
    ).properties(width=560, height=90, title=title)


def waterfall_overview_chart(overview: pd.DataFrame, title: str) -> alt.Chart:
    """Fig. 2: mean feature values of consecutive sample blocks (rows) for every feature.

    The table has blocks x features rows (over Altair's 5000-row guard, which exists to keep
    notebooks light): it is passed as inline values on purpose; show it as an image.
    """
    data = alt.InlineData(values=overview.to_dict("records"))
    return alt.Chart(data).mark_rect().encode(
        x=alt.X("feature:O", title="feature index",
                axis=alt.Axis(values=list(range(0, int(overview.feature.max()) + 1, 50)))),
        y=alt.Y("block:O", title="training samples (blocks)", axis=alt.Axis(labels=False)),
        color=alt.Color("value:Q", title="mean value", scale=alt.Scale(scheme="viridis")),
        tooltip=["samples:N", "feature:O", alt.Tooltip("value:Q", format=".3f")],
    ).properties(width=560, height=220, title=title)


def expert_view_chart(relevance: np.ndarray, experts, overview: pd.DataFrame,
                      title: str) -> alt.VConcatChart:
    """Relevance FMI(f; L) of every feature (experts in orange) above the Fig. 2 overview."""
    bars = pd.DataFrame({"feature": np.arange(len(relevance)), "FMI": relevance,
                         "role": np.where(np.isin(np.arange(len(relevance)), list(experts)),
                                          "expert", "other")})
    top = alt.Chart(bars).mark_bar().encode(
        x=alt.X("feature:O", title=None, axis=alt.Axis(labels=False, ticks=False)),
        y=alt.Y("FMI:Q", title="sum_l I(f; l) (nats)"),
        color=alt.Color("role:N", scale=ROLE_SCALE),
        tooltip=["feature", alt.Tooltip("FMI:Q", format=".4f"), "role"],
    ).properties(width=560, height=120)
    return alt.vconcat(top, waterfall_overview_chart(overview, "")).properties(title=title)


def stability_chart(stability: pd.DataFrame) -> alt.Chart:
    """Nogueira's Φ̂ of every selector (point) and its 95 % interval (rule), one row per data
    set, from :func:`~milab_widgets.experiments.mfsef.stability_estimates`; 1 is a selector
    that keeps the same subset on every resample, 0 one that picks at random."""
    resamples = int(stability.resamples.min())
    base = alt.Chart(stability).encode(
        y=alt.Y("method:N", title=None, sort=list(METHODS)),
        color=alt.Color("method:N", scale=_METHOD_SCALE, title="method", legend=None),
        tooltip=["dataset", "method", alt.Tooltip("stability:Q", format=".3f"),
                 alt.Tooltip("ci_low:Q", format=".3f"), alt.Tooltip("ci_high:Q", format=".3f"),
                 "n_features", "d", "resamples"])
    intervals = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title="Nogueira's stability (95 % interval)"), x2="ci_high:Q")
    points = base.mark_point(filled=True, size=60).encode(x="stability:Q")
    return alt.layer(intervals, points).properties(width=360, height=80).facet(
        row=alt.Row("dataset:N", title=None, sort=list(dict.fromkeys(stability.dataset))),
    ).properties(title=f"Stability of the selected features over {resamples} bootstrap "
                       "samples of each training set")


def _metric_title(metric: str) -> str:
    arrow = "↓" if metric in LOWER_IS_BETTER else "↑"
    return f"{METRIC_NAMES.get(metric, metric)} {arrow}"
