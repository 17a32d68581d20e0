"""Two-view charts: built from the experiment's tables, valid Vega-Lite, renderable offline."""

import numpy as np
import pandas as pd
import vl_convert

from milab_widgets.charts import twoview as charts
from milab_widgets.evaluation.clustering_scores import matched_confusion
from milab_widgets.experiments.twoview import METHODS


def summary():
    rows = [{"dataset": "d", "generator": g, "method": m, "mean": 0.5 + 0.01 * i, "std": 0.02, "runs": 3}
            for g in ("lbp", "sift") for i, m in enumerate(METHODS)]
    return pd.DataFrame(rows)


def grid():
    values = (0.01, 1.0, 100.0)
    return pd.DataFrame([{"dataset": "d", "generator": "lbp", "kernel": k, "method": m,
                          "alpha": a, "beta": b, "accuracy": 0.5 + 0.1 * (b < 10)}
                         for k, m in (("mixture", "Ker1"), ("minimax", "Ker2"))
                         for a in values for b in values])


def render(chart):
    spec = chart.to_dict()
    assert vl_convert.vegalite_to_svg(spec).startswith("<svg")
    return spec


def test_accuracy_chart_has_every_method_per_generator():
    spec = render(charts.accuracy_chart(summary(), "Table 1"))
    data = next(iter(spec["datasets"].values()))
    assert len(data) == 2 * len(METHODS) and {"low", "high", "family"} <= set(data[0])


def test_heatmap_shows_only_the_chosen_method():
    spec = render(charts.grid_heatmap(grid(), "Ker2", "Fig. 2"))
    data = next(iter(spec["datasets"].values()))
    assert len(data) == 9 and {row["method"] for row in data} == {"Ker2"}


def test_convergence_and_objective_curves():
    curves = pd.DataFrame([{"dataset": "d", "generator": "lbp", "kernel": "mixture", "method": "Ker1",
                            "beta": b, "update": u, "iteration": i, "objective": 10.0 - i}
                           for b in (0.01, 100.0) for u in ("monotone", "paper") for i in range(5)])
    spec = render(charts.convergence_chart(curves, "Ker1", "Fig. 3"))
    assert spec["spec"]["encoding"]["y"]["scale"]["type"] == "log"
    render(charts.objective_curve_chart(np.linspace(5, 1, 12)))


def test_confusion_chart_cells_are_the_matched_counts():
    table = matched_confusion([0, 0, 1, 1, 1], [1, 1, 0, 0, 1])
    spec = render(charts.confusion_chart(table, "confusion"))
    data = next(iter(spec["datasets"].values()))
    assert sum(row["count"] for row in data) == 5 and len(data) == 4


def test_confusion_counts_are_white_on_the_dark_cells_and_black_on_the_light():
    import re

    table = matched_confusion([0, 0, 0, 0, 1, 1, 1], [0, 0, 0, 0, 1, 1, 0])
    svg = vl_convert.vegalite_to_svg(charts.confusion_chart(table, "confusion").to_dict())
    cell_texts = re.findall(r'<text[^>]*fill="(white|black)"[^>]*>(\d+)</text>', svg)
    assert sorted(cell_texts) == [("black", "0"), ("black", "1"), ("black", "2"),
                                  ("white", "4")]  # 4 of at most 4: the darkest blue


def test_a_first_update_that_dominates_leaves_the_axis_to_the_later_iterations():
    ker2 = np.array([908.6, 157.7, 150.7, 146.1, 120.0, 89.5])  # digits-a, minimax kernel
    spec = charts.objective_curve_chart(ker2, "Ker2").to_dict()
    assert spec["encoding"]["y"]["scale"]["domain"] == [89.5, 157.7]
    assert spec["title"]["subtitle"] == "iteration 0 (908.6) is above the axis"
    assert spec["mark"]["clip"] is True
    render(charts.objective_curve_chart(ker2, "Ker2"))


def test_a_curve_whose_first_update_does_not_dominate_keeps_its_whole_axis():
    ker1 = np.array([2050.0, 1880.0, 1870.0, 1850.0, 1800.0, 1760.0])  # the mixture kernel
    spec = charts.objective_curve_chart(ker1, "Ker1").to_dict()
    assert "domain" not in spec["encoding"]["y"]["scale"] and spec["title"] == "Ker1"
