"""The forest plot draws every row's effect and finite interval, coloured by verdict."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.charts.verdicts import KIND_SHAPES, VERDICT_COLOURS, forest_chart
from milab_widgets.evaluation.claim_summary import EXACT_TEST
from milab_widgets.exceptions import InputError


def claims_table():
    return pd.DataFrame({
        "claim": ["A beats B", "A beats C", "A beats D"], "effect": [0.05, -0.01, 0.2],
        "ci_low": [0.01, -0.04, -np.inf], "ci_high": [0.09, 0.02, np.inf],
        "p_value": [0.01, 0.5, 0.06], "verdict": ["supported", "inconclusive", "inconclusive"],
        "test": "wilcoxon", "n": 7, "metric": ["AP", "AP", "HL"]})


def drawn_rows(spec):
    rows = [row for data in spec["datasets"].values() for row in data]
    return {row["row"]: row for row in rows if "row" in row}


def test_forest_chart_draws_effects_and_only_finite_intervals():
    spec = forest_chart(claims_table(), title="claims").to_dict()
    rows = drawn_rows(spec)
    assert list(rows) == ["A beats B", "A beats C", "A beats D"]
    assert (rows["A beats B"]["low"], rows["A beats B"]["high"]) == (0.01, 0.09)
    assert rows["A beats D"]["low"] is None and rows["A beats D"]["interval"].startswith("unbounded")
    colour = next(layer["encoding"]["color"] for layer in spec["layer"] if "color" in
                  layer.get("encoding", {}))
    assert colour["scale"]["range"] == list(VERDICT_COLOURS.values())
    assert {row["null"] for row in rows.values()} == {0.0}
    assert any(layer.get("encoding", {}).get("x", {}).get("field") == "null"
               for layer in spec["layer"])


def test_forest_chart_draws_each_rows_null_or_the_one_given():
    table = claims_table().assign(test=["wilcoxon", "paired t on log time ratios",
                                        "Welch t on log times"])
    rows = drawn_rows(forest_chart(table).to_dict())
    assert [rows[c]["null"] for c in ("A beats B", "A beats C", "A beats D")] == [0, 1, 1]
    spec = forest_chart(claims_table(), facet="metric", null=1.0).to_dict()
    assert spec["facet"]["row"]["field"] == "metric"
    assert {row["null"] for row in drawn_rows(spec).values()} == {1.0}


def test_forest_chart_names_missing_columns():
    with pytest.raises(InputError, match="verdict"):
        forest_chart(claims_table().drop(columns="verdict"))


def test_forest_chart_draws_exact_checks_as_diamonds_without_an_interval():
    table = claims_table().assign(test=["wilcoxon", f"{EXACT_TEST}: worst of 3 cases",
                                        "wilcoxon"],
                                  ci_low=[0.01, np.nan, -np.inf], ci_high=[0.09, np.nan, np.inf])
    spec = forest_chart(table).to_dict()
    rows = drawn_rows(spec)
    assert rows["A beats C"]["kind"] == "exact check" and rows["A beats C"]["low"] is None
    assert rows["A beats C"]["interval"] == "— (exact check, no sampling)"
    assert {rows[c]["kind"] for c in ("A beats B", "A beats D")} == {"statistical test"}
    shape = next(layer["encoding"]["shape"] for layer in spec["layer"]
                 if "shape" in layer.get("encoding", {}))
    assert shape["scale"]["range"] == list(KIND_SHAPES.values())


def test_a_catalogue_table_gives_each_row_its_own_null_and_ratios_read_as_x():
    table = claims_table().assign(
        null=[0.0, 1.0, 0.75], scope=["every case", "faster", "above threshold"],
        effect=[0.05, 0.0711, 0.52], ci_low=[0.01, 0.05, 0.49], ci_high=[0.09, 0.1, 0.55])
    rows = drawn_rows(forest_chart(table).to_dict())
    assert [rows[c]["null"] for c in ("A beats B", "A beats C", "A beats D")] == [0, 1, 0.75]
    assert rows["A beats C"]["effect_text"] == "0.0711x"  # not "+0.0711"
    assert rows["A beats C"]["interval"] == "[0.05x, 0.1x]"
    assert rows["A beats B"]["effect_text"] == "+0.05"
    missing = table.assign(ci_low=np.nan, ci_high=np.nan)
    assert drawn_rows(forest_chart(missing).to_dict())["A beats B"]["interval"] != "[, ]"
    # the null is a tick on each row's own line, not one rule across the panel
    spec = forest_chart(table).to_dict()
    ticks = [layer for layer in spec["layer"] if layer["mark"]["type"] == "tick"]
    assert ticks and ticks[0]["encoding"]["x"]["field"] == "null"
    assert ticks[0]["encoding"]["y"]["field"] == "row"
