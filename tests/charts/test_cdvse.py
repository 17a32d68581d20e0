"""CDVSE charts: the boundary cells against a brute-force neighbour check; every chart
builds a valid Vega-Lite spec, the mechanism charts from the experiment's summaries."""

import numpy as np
import pandas as pd
import pytest
import vl_convert

from milab_widgets.charts.cdvse import (
    PICKED_STROKE_WIDTH,
    boundary_cells,
    boundary_chart,
    compactness_chart,
    diversity_chart,
    kept_chart,
    objective_chart,
    scores_chart,
    sensitivity_chart,
    weights_chart,
)
from milab_widgets.experiments.cdvse_mechanisms import (
    compactness_summary,
    diversity_summary,
    sensitivity_summary,
)


def disc_grid(size=15):
    axis = np.linspace(0, 3, size)
    x, y = np.meshgrid(axis, axis)
    decision = 1.0 - ((x - 1.5) ** 2 + (y - 1.5) ** 2)
    return pd.DataFrame({"x": x.ravel(), "y": y.ravel(), "decision": decision.ravel()})


def test_boundary_cells_are_inside_cells_with_an_outside_neighbour():
    grid = disc_grid()
    cells = set(map(tuple, boundary_cells(grid)[["x", "y"]].to_numpy()))
    axis = np.linspace(0, 3, 15)
    inside = {(x, y) for x, y, d in grid.to_numpy() if d >= 0}
    expected = set()
    for i, x in enumerate(axis):
        for j, y in enumerate(axis):
            neighbours = [(axis[a], axis[b]) if 0 <= a < 15 and 0 <= b < 15 else None
                          for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1))]
            if (x, y) in inside and any(n not in inside for n in neighbours):
                expected.add((x, y))
    assert cells == expected and cells


def test_every_chart_builds():
    grid = disc_grid()
    boundaries = pd.concat([grid.assign(method="svdd"), grid.assign(method="cdvse")])
    points = pd.DataFrame({"x": [1.0, 2.0, 0.1], "y": [1.0, 1.5, 0.2],
                           "role": ["training", "test normal", "outlier"]})
    scores = pd.DataFrame({"method": ["svdd", "cdvse"], "g_mean": [0.7, 0.8], "kept": [1, 3]})
    summary = pd.DataFrame({"dataset": "sonar", "split": "test", "method": ["svdd", "cdvse"],
                            "mean": [0.6, 0.62], "std": [0.05, 0.04], "paper_mean": [0.60, 0.61]})
    parameters = pd.DataFrame({"dataset": ["sonar"], "kept_mean": [10.0], "kept_std": [2.0],
                               "paper_kept": [4]})
    charts = [boundary_chart(boundaries, points, scores, "disc"), scores_chart(summary),
              kept_chart(parameters, n_estimators=50), weights_chart(np.array([0.1, 0.5, 0.0]), np.array([1])),
              objective_chart(np.array([-3.0, -2.0, -1.9]))]
    for chart in charts:
        spec = chart.to_dict()
        assert vl_convert.vegalite_to_svg(spec).startswith("<svg")  # a valid, drawable spec
    assert "g = 0.800, 3 SVDDs kept" in str(charts[0].to_dict())
    assert "SVDDs kept (of M = 50)" in str(charts[2].to_dict())


def test_the_clicked_sample_is_outlined_and_no_sample_is_before_a_click():
    grid = disc_grid()
    boundaries = pd.concat([grid.assign(method="svdd"), grid.assign(method="cdvse")])
    points = pd.DataFrame({"x": [1.0, 2.0], "y": [1.0, 1.5], "role": ["training", "outlier"]})
    scores = pd.DataFrame({"method": ["svdd", "cdvse"], "g_mean": [0.7, 0.8], "kept": [1, 3]})
    spec = boundary_chart(boundaries, points, scores, "disc", select="sample_pick").to_dict()
    svdd_dots, cdvse_dots = (plot["layer"][1]["encoding"] for plot in spec["hconcat"])
    assert "strokeWidth" not in svdd_dots  # the click selects in CDVSE's plot only
    assert cdvse_dots["strokeWidth"] == {  # empty: False, so none before a click
        "condition": {"param": "sample_pick", "value": PICKED_STROKE_WIDTH, "empty": False},
        "value": 0}
    pick = next(param for param in spec["params"] if param["name"] == "sample_pick")
    assert pick["select"]["nearest"] is True and pick["select"]["on"] == "click"
    assert vl_convert.vegalite_to_svg(spec).startswith("<svg")


def test_kept_chart_names_m_only_when_given():
    parameters = pd.DataFrame({"dataset": ["sonar"], "kept_mean": [10.0], "kept_std": [2.0],
                               "paper_kept": [4]})
    assert "of M = 20" in str(kept_chart(parameters, n_estimators=20).to_dict())
    assert "of M" not in str(kept_chart(parameters).to_dict())


def test_the_mechanism_charts_build_from_the_experiments_summaries():
    compactness = pd.DataFrame([{"dataset": d, "repetition": r, "method": m,
                                 "reference": "marginals", "points": 100,
                                 "accepted": 0.4 if m == "bagging" else 0.36,
                                 "normals_accepted": 0.7}
                                for d in ("heart", "sonar") for r in range(2)
                                for m in ("bagging", "cdvse")])
    summary = compactness_summary(compactness)
    assert list(summary.dataset) == ["heart", "sonar"]
    assert summary.cdvse_accepted.to_numpy() == pytest.approx([0.36, 0.36])
    diversity = pd.DataFrame([{"dataset": "heart", "repetition": 0, "ensemble": e, "lam": lam,
                               "kept": k, "disagreement": dis, "distance_variance": 0.01}
                              for e, lam, k, dis in (("cdvse", 1.0, 20, 0.07),
                                                     ("ablated", 0.0, 1, 0.0))])
    sensitivity = pd.DataFrame([{"dataset": "heart", "repetition": 0, "parameter": p,
                                 "value": v, "selected": v == 1.0, "test": 0.5 + 0.01 * v,
                                 "kept": 10} for p in ("sigma", "zeta", "C")
                                for v in (0.1, 1.0, 5.0)])
    charts = [compactness_chart(summary), diversity_chart(diversity_summary(diversity)),
              sensitivity_chart(sensitivity_summary(sensitivity))]
    for chart in charts:
        assert vl_convert.vegalite_to_svg(chart.to_dict()).startswith("<svg")
    assert "CDVSE (selected λ)" in str(charts[1].to_dict()) and "λ = 0" in str(charts[1].to_dict())
