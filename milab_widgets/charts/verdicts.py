"""Forest plot of claim tests: each claim's (or case's) effect with its 95 % interval,
coloured by its verdict, the null drawn as a vertical rule.

Reads the tables of :mod:`milab_widgets.evaluation.claim_tests` (columns ``claim``,
``effect``, ``ci_low``, ``ci_high``, ``p_value``, ``verdict``, ``test``, ``n``) and the
catalogue's ``claims.csv`` (:mod:`milab_widgets.claims`), whose ``null`` column gives each
row its own null: 0 for differences, 1 for time ratios, the threshold of an
above-threshold claim. Each row's null is drawn as a dashed tick on its own line, so rows
with different nulls can share a panel. Ratios read as "0.07x", differences as "+0.012".
An unbounded interval (too few datasets for the signed-rank test at 95 %) is drawn as its
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

__all__ = ["forest_chart", "is_ratio", "effect_text", "interval_text"]

#: Verdict colours from the lab palette: green, vermillion, grey.
VERDICT_COLOURS = {"supported": "#009E73", "contradicted": "#D55E00", "inconclusive": "#999999"}
#: The mark of a statistical test's row and of an exact check's.
KIND_SHAPES = {"statistical test": "circle", "exact check": "diamond"}


def forest_chart(table: pd.DataFrame, *, label: str = "claim", null: float | None = None,
                 effect_title: str = "effect (favours the claim →)", title: str = "",
                 facet: str | None = None, width: int = 360) -> alt.Chart:
    """Effect and interval per row of ``table``, one line per ``label`` value (e.g.
    ``"claim"``, or a case column); ``facet`` (a column) splits rows into panels with their
    own x scales, for effects in different units. The dashed tick on each line marks
    ``null``, by default the row's own (the ``null`` column when the table has one, else 1
    for timing ratios and 0 otherwise: see ``claim_tests.null_of``)."""
    missing = [c for c in CLAIM_COLUMNS[1:6] + [label] + ([facet] if facet else [])
               if c not in table.columns]
    if missing:
        raise InputError(f"forest_chart needs the columns {missing}; pass a claims table "
                         "(see milab_widgets.evaluation.claim_tests.CLAIM_COLUMNS).")
    data = _plotted(table, label, _nulls(table, null))
    rows = alt.Y("row:N", sort=list(dict.fromkeys(data["row"])), title=None,
                 axis=alt.Axis(labelLimit=420))
    base = alt.Chart().encode(
        y=rows,
        color=alt.Color("verdict:N", scale=alt.Scale(domain=list(VERDICTS),
                                                     range=[VERDICT_COLOURS[v] for v in VERDICTS]),
                        title="verdict"),
        tooltip=["row", "verdict", alt.Tooltip("effect_text:N", title="effect"),
                 alt.Tooltip("interval:N", title="95 % interval"),
                 alt.Tooltip("null:Q", format=".4g"), alt.Tooltip("p_value:Q", format=".3g"),
                 "test", "n"],
    )
    x = alt.X("effect:Q", title=effect_title, scale=alt.Scale(zero=False))
    intervals = base.mark_rule(strokeWidth=2).encode(x=alt.X("low:Q", title=effect_title),
                                                     x2="high:Q")
    points = base.mark_point(filled=True, size=70).encode(
        x=x, shape=alt.Shape("kind:N", scale=alt.Scale(domain=list(KIND_SHAPES),
                                                       range=list(KIND_SHAPES.values())),
                             title="kind"))
    zero = alt.Chart().mark_tick(color="#555555", thickness=2, size=18,
                                 strokeDash=[3, 2]).encode(x="null:Q", y=rows)
    height = 22 * max(1, data.groupby(facet).size().max() if facet else len(data))
    layered = alt.layer(zero, intervals, points, data=data).properties(width=width,
                                                                         height=height)
    if facet:
        layered = layered.facet(row=alt.Row(f"{facet}:N", title=None,
                                            sort=list(dict.fromkeys(data[facet])),
                                            header=alt.Header(labelAngle=0, labelAlign="left"))
                                ).resolve_scale(x="independent", y="independent")
    return layered.properties(title=title) if title else layered


def _nulls(table: pd.DataFrame, null: float | None) -> pd.Series:
    """Each row's null: ``null`` when given, else the table's ``null`` column, else by the
    row's test (1 for timing ratios, 0 otherwise)."""
    if null is not None:
        return pd.Series(float(null), index=table.index)
    if "null" in table.columns:
        return table["null"].astype(float).fillna(table.test.map(null_of))
    return table.test.map(null_of).astype(float)


def is_ratio(table: pd.DataFrame) -> pd.Series:
    """Rows whose effect is a ratio (a speed-up, null 1): the "faster" scope, or a timing
    test (see ``claim_tests.RATIO_TESTS``)."""
    by_test = table.test.map(null_of) == 1.0
    if "scope" in table.columns:
        return by_test | (table.scope == "faster")
    return by_test


def effect_text(value: float, ratio: bool) -> str:
    """"0.0711x" for a ratio, "+0.0123" for a difference, "—" when missing."""
    if pd.isna(value):
        return "—"
    if np.isinf(value):
        return "+∞" if value > 0 else "-∞"
    return f"{value:.3g}x" if ratio else f"{value:+.4g}"


def interval_text(low: float, high: float, ratio: bool, exact: bool = False) -> str:
    """"[0.5x, 2x]", "[-0.01, +0.03]", "[-∞, +∞]" (unbounded) or "—" (none)."""
    if exact:
        return "— (exact check, no sampling)"
    if pd.isna(low) or pd.isna(high):
        return "—"
    return f"[{effect_text(low, ratio)}, {effect_text(high, ratio)}]"


def _plotted(table: pd.DataFrame, label: str, nulls: pd.Series) -> pd.DataFrame:
    """The rows to draw: finite bounds as ``low``/``high``, effect and interval as text,
    the row's null, the kind of row (statistical test or exact check)."""
    finite = np.isfinite(table.ci_low) & np.isfinite(table.ci_high)
    exact = is_exact(table)
    ratio = is_ratio(table)
    interval = [interval_text(low, high, r, check) if ok or check
                else "unbounded or not computed"
                for low, high, ok, check, r in zip(table.ci_low, table.ci_high, finite, exact,
                                                   ratio, strict=True)]
    return table.assign(row=table[label].astype(str), interval=interval, null=nulls,
                        effect_text=[effect_text(v, r)
                                     for v, r in zip(table.effect, ratio, strict=True)],
                        low=table.ci_low.where(finite), high=table.ci_high.where(finite),
                        kind=np.where(exact, "exact check", "statistical test"))
