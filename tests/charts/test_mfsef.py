"""The MFSEF paper's charts: the data they draw and the critical difference they show."""

import numpy as np
import pandas as pd

from milab_widgets.charts import mfsef as charts
from milab_widgets.charts.theme import PALETTE
from milab_widgets.evaluation.ranking_stats import nemenyi_cliques
from milab_widgets.experiments import mfsef


def chart_rows(spec):
    """Every inline dataset of a Vega-Lite spec, as a list of row lists."""
    return list(spec.get("datasets", {}).values())


def summary_for(ranks, metric="AP", cd=2.85):
    return pd.DataFrame({"metric": metric, "method": list(ranks), "average_rank": list(ranks.values()),
                         "cd": cd, "n_datasets": 7})


def test_cd_diagram_shows_the_cd_and_one_bar_per_clique():
    ranks = pd.Series({"MFSEF": 1.4, "MFSLS": 2.6, "PMU": 3.1, "MDDMproj": 4.0,
                       "MDDMspc": 5.2, "Original": 4.7})
    spec = charts.cd_diagram(ranks, 2.85, "AP").to_dict()
    rows = chart_rows(spec)
    texts = [row["text"] for data in rows for row in data if "text" in row]
    assert texts == ["CD = 2.850"]
    bars = [data for data in rows if data and set(data[0]) == {"start", "end", "level"}]
    expected = nemenyi_cliques(ranks, 2.85)
    assert len(bars[0]) == len(expected) == 2
    assert [(bar["start"], bar["end"]) for bar in bars[0]] == [
        (ranks[g].min(), ranks[g].max()) for g in expected]
    labels = [row["label"] for data in rows for row in data if "label" in row]
    assert labels[0] == "MFSEF (1.40)" and len(labels) == 6


def test_cd_diagrams_draw_every_metric():
    ranks = dict(zip(mfsef.METHODS, np.arange(1.0, 7.0), strict=True))
    summary = pd.concat([summary_for(ranks, metric)
                         for metric in mfsef.TABLE_METRICS])
    spec = charts.cd_diagrams(summary).to_dict()
    titles = [panel["title"] for row in spec["vconcat"] for panel in row["hconcat"]]
    assert titles == ["Average precision ↑ (N = 7)", "Hamming loss ↓ (N = 7)",
                      "Ranking loss ↓ (N = 7)", "One-error ↓ (N = 7)"]


def test_curves_chart_draws_every_method_and_the_original_level():
    rows = [{"dataset": "arts", "method": m, "n_features": n, "metric": "AP",
             "value": 0.1 * i + n / 100, "in_table": n == 10}
            for i, m in enumerate(mfsef.SELECTORS) for n in (5, 10)]
    rows.append({"dataset": "arts", "method": "Original", "n_features": 462, "metric": "AP",
                 "value": 0.5, "in_table": True})
    curve = mfsef.curves(pd.DataFrame(rows), "arts")
    original = curve[curve.method == "Original"]
    assert sorted(original.n_features) == [5, 10] and set(original.value) == {0.5}
    spec = charts.metric_curves_chart(curve, "Fig. 4").to_dict()
    drawn = pd.DataFrame(chart_rows(spec)[0])
    assert set(drawn.method) == set(mfsef.METHODS) and len(drawn) == len(curve)


def test_the_curves_legend_lists_the_methods_that_ran_in_their_usual_colours():
    rows = [{"dataset": "arts", "method": m, "n_features": n, "metric": "AP", "value": 0.5,
             "in_table": True} for m in ("MFSLS", "MFSEF") for n in (5, 10)]
    rows.append({"dataset": "arts", "method": "Original", "n_features": 462, "metric": "AP",
                 "value": 0.5, "in_table": True})
    spec = charts.metric_curves_chart(mfsef.curves(pd.DataFrame(rows), "arts"), "Fig. 4")
    scale = spec.to_dict()["spec"]["encoding"]["color"]["scale"]
    assert scale["domain"] == ["Original", "MFSLS", "MFSEF"]
    assert scale["range"] == [PALETTE[list(mfsef.METHODS).index(m)] for m in scale["domain"]]


def test_waterfall_and_expert_views_carry_their_data():
    samples = pd.DataFrame({"sample": [600] * 3 + [601] * 3, "feature": [0, 1, 2] * 2,
                            "value": [0.1, 0.0, 0.3, 0.2, 0.2, 0.0]})
    spec = charts.waterfall_chart(samples, "Fig. 1").to_dict()
    assert pd.DataFrame(chart_rows(spec)[0])["value"].tolist() == samples.value.tolist()
    overview = pd.DataFrame({"samples": "1-2", "block": 0, "feature": [0, 1, 2],
                             "value": [0.5, 0.1, 0.0]})
    view = charts.expert_view_chart(np.array([0.3, 0.1, 0.2]), [0, 2], overview, "experts")
    datasets = chart_rows(view.to_dict())
    roles = [row["role"] for data in datasets for row in data if "role" in row]
    assert roles == ["expert", "other", "expert"]
    cells = [row["value"] for data in datasets for row in data if "block" in row]
    assert cells == overview.value.tolist()


def test_stability_chart_draws_each_estimate_and_interval_per_data_set():
    stability = pd.DataFrame({"dataset": ["arts", "arts", "business"], "n_features": 46,
                              "d": 462, "resamples": 30, "method": ["MFSEF", "PMU", "MFSEF"],
                              "stability": [0.8, 0.6, 0.7], "variance": 0.001,
                              "ci_low": [0.75, 0.5, 0.6], "ci_high": [0.85, 0.7, 0.8]})
    spec = charts.stability_chart(stability).to_dict()
    (rows,) = chart_rows(spec)
    assert [(r["dataset"], r["method"], r["stability"]) for r in rows] == [
        ("arts", "MFSEF", 0.8), ("arts", "PMU", 0.6), ("business", "MFSEF", 0.7)]
    assert spec["facet"]["row"]["sort"] == ["arts", "business"]
    marks = [layer["mark"]["type"] for layer in spec["spec"]["layer"]]
    assert marks == ["rule", "point"]
    assert "30 bootstrap samples" in spec["title"]
