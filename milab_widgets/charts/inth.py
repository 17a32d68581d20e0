"""Charts of the intH paper's experiments, built from :mod:`milab_widgets.experiments.inth` tables."""

from __future__ import annotations

import altair as alt
import pandas as pd

from milab_widgets.papers.inth import SPEC

__all__ = ["accuracy_chart", "sweep_chart"]

CLASSIFIERS = SPEC.vocabulary["classifier"]
METRICS = SPEC.vocabulary["distance"]
#: Display order of the distances, minH ... adaH, as in the paper's tables.
METRIC_ORDER = list(METRICS.values())
#: Dataset panels per row: three 190 px panels and the legend fit a 960 px notebook output.
FACET_COLUMNS = 3


def accuracy_chart(summary: pd.DataFrame, title: str = "Accuracy by distance") -> alt.Chart:
    """Tables 3-4 as a chart: mean ± std accuracy of every method, one panel per dataset."""
    data = _with_labels(summary).assign(
        low=lambda t: t["mean"] - t["std"].fillna(0), high=lambda t: t["mean"] + t["std"].fillna(0)
    )
    base = alt.Chart(data).encode(
        x=alt.X("distance:N", sort=METRIC_ORDER, title=None),
        xOffset=alt.XOffset("classifier_name:N"),
        color=alt.Color("classifier_name:N", title="classifier"),
    )
    bars = base.mark_point(filled=True, size=70).encode(
        y=alt.Y("mean:Q", title="accuracy", scale=alt.Scale(zero=False)),
        tooltip=["method", alt.Tooltip("mean:Q", format=".3f"), alt.Tooltip("std:Q", format=".3f"),
                 "folds"],
    )
    whiskers = base.mark_rule().encode(y="low:Q", y2="high:Q")
    in_run_order = list(dict.fromkeys(data["dataset"]))
    return (whiskers + bars).properties(width=190, height=200).facet(
        facet=alt.Facet("dataset:N", title=None, sort=in_run_order), columns=FACET_COLUMNS,
    ).properties(title=title).resolve_scale(y="independent")


def sweep_chart(curves: pd.DataFrame, vary: str, title: str) -> alt.Chart:
    """Figs. 1-4: accuracy of <classifier>+intH as references/K (vary="k") or sigma changes."""
    fixed = "fixed_sigma" if vary == "k" else "fixed_k"
    x_title = "references / K" if vary == "k" else "sigma"
    x_scale = alt.Scale(type="log") if vary == "sigma" else alt.Scale(zero=False)
    return alt.Chart(_with_labels(curves)).mark_line(point=True).encode(
        x=alt.X(f"{vary}:Q", title=x_title, scale=x_scale),
        y=alt.Y("mean:Q", title="accuracy", scale=alt.Scale(zero=False)),
        color=alt.Color("dataset:N"),
        tooltip=["dataset", vary, fixed, alt.Tooltip("mean:Q", format=".3f")],
    ).properties(width=260, height=200).facet(
        column=alt.Column("classifier_name:N", title=None)
    ).properties(title=title)


def _with_labels(table: pd.DataFrame) -> pd.DataFrame:
    labelled = table.assign(classifier_name=table["classifier"].map(CLASSIFIERS))
    if "metric" in table:
        labelled = labelled.assign(distance=table["metric"].map(METRICS))
    return labelled
