"""Forest plot of claim tests: each claim's (or case's) effect with its 95 % interval,
coloured by its verdict, the null drawn as a vertical rule.

Reads the tables of :mod:`milab_widgets.evaluation.claim_tests` (columns ``claim``,
``effect``, ``ci_low``, ``ci_high``, ``p_value``, ``verdict``, ``test``, ``n``). An
unbounded interval (too few datasets for the signed-rank test at 95 %) is drawn as its
effect only, and its tooltip says so. An exact check
(:func:`~milab_widgets.evaluation.claim_summary.is_exact`: a margin measured without
sampling, no interval) is drawn as a diamond, not a dot.
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from milab_widgets.evaluation.claim_summary import is_exact
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, VERDICTS, null_of
from milab_widgets.exceptions import InputError

#: Verdict colours from the lab palette: green, vermillion, grey.
VERDICT_COLOURS = {"supported": "#009E73", "contradicted": "#D55E00", "inconclusive": "#999999"}
#: The mark of a statistical test's row and of an exact check's.
KIND_SHAPES = {"statistical test": "circle", "exact check": "diamond"}


def forest_chart(table: pd.DataFrame, *, label: str = "claim", null: float | None = None,
                 effect_title: str = "effect (favours the claim →)", title: str = "",
                 facet: str | None = None, width: int = 360) -> alt.Chart:
    """Effect and interval per row of ``table``, one line per ``label`` value (e.g.
    ``"claim"``, or a case column); ``facet`` (a column) splits rows into panels with their
    own x scales, for effects in different units. The dashed rule marks ``null``, by default
    each row's own (1 for timing ratios, 0 otherwise: see ``claim_tests.null_of``)."""
    missing = [c for c in CLAIM_COLUMNS[1:6] + [label] + ([facet] if facet else [])
               if c not in table.columns]
    if missing:
        raise InputError(f"forest_chart needs the columns {missing}; pass a claims table "
                         "(see milab_widgets.evaluation.claim_tests.CLAIM_COLUMNS).")
    data = _plotted(table, label).assign(
        null=table.test.map(null_of) if null is None else float(null))
    base = alt.Chart().encode(
        y=alt.Y("row:N", sort=list(dict.fromkeys(data["row"])), title=None,
                axis=alt.Axis(labelLimit=420)),
        color=alt.Color("verdict:N", scale=alt.Scale(domain=list(VERDICTS),
                                                     range=[VERDICT_COLOURS[v] for v in VERDICTS]),
                        title="verdict"),
        tooltip=["row", "verdict", alt.Tooltip("effect:Q", format="+.4g"), "interval",
                 alt.Tooltip("p_value:Q", format=".3g"), "test", "n"],
    )
    x = alt.X("effect:Q", title=effect_title, scale=alt.Scale(zero=False))
    intervals = base.mark_rule(strokeWidth=2).encode(x=alt.X("low:Q", title=effect_title),
                                                     x2="high:Q")
    points = base.mark_point(filled=True, size=70).encode(
        x=x, shape=alt.Shape("kind:N", scale=alt.Scale(domain=list(KIND_SHAPES),
                                                       range=list(KIND_SHAPES.values())),
                             title="kind"))
    zero = alt.Chart().mark_rule(color="#555555", strokeDash=[4, 3]).encode(x="null:Q")
    height = 22 * max(1, data.groupby(facet).size().max() if facet else len(data))
    layered = alt.layer(zero, intervals, points, data=data).properties(width=width,
                                                                         height=height)
    if facet:
        layered = layered.facet(row=alt.Row(f"{facet}:N", title=None,
                                            sort=list(dict.fromkeys(data[facet])),
                                            header=alt.Header(labelAngle=0, labelAlign="left"))
                                ).resolve_scale(x="independent", y="independent")
    return layered.properties(title=title) if title else layered


def _plotted(table: pd.DataFrame, label: str) -> pd.DataFrame:
    """The rows to draw: finite bounds as ``low``/``high``, the interval as text, the kind
    of row (statistical test or exact check)."""
    finite = np.isfinite(table.ci_low) & np.isfinite(table.ci_high)
    exact = is_exact(table)
    interval = [f"[{low:.4g}, {high:.4g}]" if ok
                else "none: exact check (no sampling)" if check else "unbounded or not computed"
                for low, high, ok, check in zip(table.ci_low, table.ci_high, finite, exact)]
    return table.assign(row=table[label].astype(str), interval=interval,
                        low=table.ci_low.where(finite), high=table.ci_high.where(finite),
                        kind=np.where(exact, "exact check", "statistical test"))
