"""The LSkMDDM paper's charts build valid Vega-Lite from tables shaped like the experiment's."""

import numpy as np
import pandas as pd

from milab_widgets.charts import lskmddm as charts
from milab_widgets.experiments import lskmddm


def metric_rows(keys):
    return [{**keys, **{m: 0.5 for m in lskmddm.SEED_METRICS}}]


def test_every_chart_builds():
    runs = pd.DataFrame([{**row, "rep": rep} for rep in range(2) for method in lskmddm.METHODS
                         for row in metric_rows({"dataset": "arts", "method": method})])
    summary = lskmddm.summarise(runs)
    table2 = pd.DataFrame([{**row, "rep": 0} for method in ("kMDDM (eig)", "LSkMDDM (block CG)")
                           for row in metric_rows({"dataset": "scene", "method": method})])
    dims = pd.DataFrame([{**row, "rep": 0, "dimension": d} for d in (2, 5) for row in
                         metric_rows({"dataset": "arts", "method": "KPCA"})])
    timing = pd.DataFrame({"dataset": "arts", "solver": ["a", "a", "b", "b"],
                           "reference": ["b", "b", "b", "b"], "n": [1000, 2000, 1000, 2000],
                           "seconds": [1.0, 8.0, 1.0, 4.0], "angle": [1e-3, 2e-3, 0, 0],
                           "iterations": np.nan, "converged": True})
    claims = pd.DataFrame({"dataset": ["arts"], "claim": ["c"], "holds": [True], "detail": [""]})
    built = [charts.methods_chart(summary, lskmddm.SEED_METRICS[:3], "t"),
             charts.table2_chart(table2), charts.dimensions_chart(dims, "microF1"),
             charts.timing_chart(timing), charts.accuracy_chart(timing), charts.claims_chart(claims)]
    for chart in built:
        assert "$schema" in chart.to_dict()
    assert "(n^3.00)" in str(charts.timing_chart(timing).to_dict())


def test_embedding_chart_encodes_the_first_two_coordinates_and_the_label():
    embedding = np.arange(12.0).reshape(4, 3)
    spec = charts.embedding_chart(embedding, np.array([1, 0, 0, 1]), "Beach.x", "KCCA").to_dict()
    encoding = spec["encoding"]
    assert (encoding["x"]["field"], encoding["y"]["field"]) == ("coordinate 1", "coordinate 2")
    assert encoding["color"]["field"] == "label" and encoding["color"]["title"] == "Beach.x"
    assert encoding["color"]["scale"]["domain"] == ["has label", "no label"]
    rows = next(iter(spec["datasets"].values()))
    assert [(r["coordinate 1"], r["coordinate 2"], r["label"]) for r in rows] == [
        (0.0, 1.0, "has label"), (3.0, 4.0, "no label"), (6.0, 7.0, "no label"),
        (9.0, 10.0, "has label")]
    assert spec["title"] == "KCCA: held-out rows, first two coordinates"
