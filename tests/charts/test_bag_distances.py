import re

import numpy as np
import pytest
import vl_convert

from milab_widgets.charts.bag_distances import distance_heatmap_chart, nca_curve_chart
from milab_widgets.exceptions import InputError


def layer_with_mark(chart, mark_type):
    spec = chart.to_dict()
    matches = [layer for layer in spec["layer"] if _mark_type(layer) == mark_type]
    assert len(matches) == 1, f"expected one {mark_type} layer"
    return matches[0], spec["datasets"][matches[0]["data"]["name"]]


def _mark_type(layer):
    mark = layer["mark"]
    return mark if isinstance(mark, str) else mark["type"]


def heatmap_rows(chart):
    return layer_with_mark(chart, "rect")[1]


def symmetric_matrix(n, seed=0):
    rng = np.random.default_rng(seed)
    matrix = rng.random((n, n))
    matrix = matrix + matrix.T
    np.fill_diagonal(matrix, 0.0)
    return matrix


# -- nca_curve_chart ---------------------------------------------------------------------------
def test_curve_chart_holds_the_curve_and_marks_the_chosen_point():
    alphas = np.linspace(0, 1, 11)
    values = 40 - (alphas - 0.3) ** 2
    chart = nca_curve_chart(alphas, values, 0.25, 39.9975, sigma=2.0, chosen_label="NCA-tuned α")

    _, curve = layer_with_mark(chart, "line")
    assert [row["alpha"] for row in curve] == pytest.approx(alphas)
    assert [row["f"] for row in curve] == pytest.approx(values)
    point_layer, point = chosen_point_layer(chart)
    assert point == [{"alpha": 0.25, "f": 39.9975, "what": "NCA-tuned α"}]
    assert point_layer["encoding"]["x"]["field"] == "alpha"
    assert point_layer["encoding"]["y"]["field"] == "f"
    rule_layer, rule = layer_with_mark(chart, "rule")
    assert rule[0]["alpha"] == 0.25 and rule_layer["encoding"]["x"]["field"] == "alpha"
    title = chart.to_dict()["title"]
    assert "σ = 2" in title and "0.250" in title


def chosen_point_layer(chart):
    """The point layer marking the chosen alpha (the other point layer draws the curve)."""
    spec = chart.to_dict()
    (layer,) = [layer for layer in spec["layer"]
                if _mark_type(layer) == "point" and "what" in str(layer["encoding"])]
    return layer, spec["datasets"][layer["data"]["name"]]


def test_curve_click_selects_on_the_points_so_vega_can_find_the_nearest():
    """Vega's nearest-point lookup (a voronoi layer) works for point marks only: the
    compiled chart must put the click selection on the curve's points, and draw their
    voronoi cells over the points' data (on a line it warned and never drew them)."""
    alphas = np.linspace(0, 1, 11)
    chart = nca_curve_chart(alphas, alphas**2, 0.5, 0.25, sigma=1.0, select="alpha_pick")
    spec = chart.to_dict()
    (param,) = spec["params"]
    assert param["name"] == "alpha_pick" and param["select"]["nearest"]
    selecting = [layer for layer in spec["layer"] if layer.get("name") in param["views"]]
    assert [_mark_type(layer) for layer in selecting] == ["point"]
    assert [row["alpha"] for row in spec["datasets"][selecting[0]["data"]["name"]]] == \
        pytest.approx(alphas)
    marks = {mark["name"]: mark for mark in vl_convert.vegalite_to_vega(spec)["marks"]}
    (voronoi,) = [mark for mark in marks.values() if mark["name"].endswith("_voronoi")]
    assert marks[voronoi["from"]["data"]]["type"] == "symbol"


def test_curve_chart_rejects_mismatched_arrays():
    with pytest.raises(InputError, match="same"):
        nca_curve_chart([0.0, 0.5, 1.0], [1.0, 2.0], 0.5, 2.0, sigma=1.0)


# -- distance_heatmap_chart --------------------------------------------------------------------
def test_heatmap_orders_bags_by_label_and_keeps_every_distance():
    matrix = symmetric_matrix(6)
    labels = np.array([1, 0, 1, 0, 0, 1])
    rows = heatmap_rows(distance_heatmap_chart(matrix, labels, "d"))

    order = [1, 3, 4, 0, 2, 5]  # negatives, then positives, each in original order
    assert [row["row_bag"] for row in rows] == order
    assert [row["row_label"] for row in rows] == [0, 0, 0, 1, 1, 1]
    for position, row in enumerate(rows):
        assert row["row"] == position
        assert row["col_bag"] == order
        assert row["distance"] == pytest.approx(matrix[order[position], order])


def test_the_heatmap_legend_runs_from_the_smallest_to_the_largest_distance_shown():
    matrix = symmetric_matrix(6) * 2433.2  # Vega's nice ticks stopped at 2,000 here
    legend = distance_heatmap_chart(matrix, np.array([0, 0, 0, 1, 1, 1]), "d").to_dict()[
        "layer"][0]["encoding"]["color"]["legend"]
    assert legend["values"][0] == matrix.min() and legend["values"][-1] == matrix.max()
    assert len(legend["values"]) == 5 and legend["values"] == sorted(legend["values"])


def test_heatmap_marks_the_class_boundary():
    labels = np.array([1, 0, 1, 0, 0, 1, 1])
    chart = distance_heatmap_chart(symmetric_matrix(7), labels, "d")
    boundaries = [layer for layer in chart.to_dict()["layer"] if _mark_type(layer) == "rule"]
    assert len(boundaries) == 2
    assert layer_with_mark(chart, "rect")[0]["encoding"]["x"]["title"].startswith(
        "bag, by label (0-2: negative, 3-6: positive)"
    )
    assert {chart.to_dict()["datasets"][b["data"]["name"]][0]["at"] for b in boundaries} == {3}


def test_large_heatmap_shows_an_evenly_spaced_label_ordered_subset():
    n, max_bags = 300, 120
    labels = np.r_[np.ones(90, int), np.zeros(210, int)]
    chart = distance_heatmap_chart(symmetric_matrix(n), labels, "d_minH", max_bags=max_bags)

    rows = heatmap_rows(chart)  # to_dict() also proves Altair's 5000-row check passes
    assert len(rows) == max_bags < 5000 < max_bags**2
    shown = [row["row_bag"] for row in rows]
    assert len(set(shown)) == max_bags
    shown_labels = labels[shown]
    assert np.all(np.diff(shown_labels) >= 0)
    assert shown_labels.sum() == pytest.approx(max_bags * 90 / n, abs=1)
    ranks = np.argsort(np.argsort(labels, kind="stable"))  # bag -> position in label order
    steps = np.diff(ranks[shown])
    assert steps.min() >= 2 and steps.max() <= 3  # evenly spaced: 300 / 120 = 2.5
    assert chart.to_dict()["title"] == "d_minH (120 of 300 bags, evenly spaced)"


def test_small_heatmap_keeps_its_title():
    chart = distance_heatmap_chart(symmetric_matrix(4), [0, 1, 0, 1], "d_maxH", max_bags=4)
    assert chart.to_dict()["title"] == "d_maxH"
    assert len(heatmap_rows(chart)) == 4


def test_heatmap_renders_every_cell_with_its_distance():
    """Vega itself (vl-convert) unpacks the rows into n x n cells at the right places."""
    matrix = np.arange(25.0).reshape(5, 5)
    labels = np.array([1, 0, 1, 0, 0])
    svg = vl_convert.vegalite_to_svg(distance_heatmap_chart(matrix, labels, "d").to_dict())

    cells = re.findall(r'aria-label="[^"]*?: (\d+); row: (\d+);[^"]*?distance: ([\d.]+);'
                       r' row bag: (\w+);[^"]*?column bag: (\w+);', svg)
    assert len(cells) == 25
    for col, row, distance, row_bag, col_bag in cells:
        order = [1, 3, 4, 0, 2]
        assert (int(row_bag), int(col_bag)) == (order[int(row)], order[int(col)])
        assert float(distance) == matrix[int(row_bag), int(col_bag)]


def test_heatmap_tooltip_names_bags_by_their_ids_with_readable_titles():
    """The tooltip says "row bag: b3" -- the name the panel shows for that bag -- never its
    index under a field name (it said "row_bag 58" where the panel said "Bag 59")."""
    matrix = np.arange(9.0).reshape(3, 3)
    svg = vl_convert.vegalite_to_svg(
        distance_heatmap_chart(matrix, [0, 1, 0], "d", bag_ids=["b1", "b2", "b3"]).to_dict())
    cells = re.findall(r"row bag: (b\d); row bag's label: (\d); column bag: (b\d);"
                       r" column bag's label: (\d)", svg)
    ids, labels = ["b1", "b3", "b2"], [0, 0, 1]  # label order
    assert sorted(cells) == sorted((ids[r], str(labels[r]), ids[c], str(labels[c]))
                                   for r in range(3) for c in range(3))
    assert "row_bag" not in svg and "col_bag:" not in svg
    with pytest.raises(InputError, match="one id per bag"):
        distance_heatmap_chart(matrix, [0, 1, 0], "d", bag_ids=["b1"])


def test_live_heatmap_legend_has_no_gradient_whose_id_could_clash():
    svg = vl_convert.vegalite_to_svg(
        distance_heatmap_chart(symmetric_matrix(4), [0, 1, 0, 1], "d", select="pick").to_dict())
    assert "gradient_" not in svg and "<linearGradient" not in svg


@pytest.mark.parametrize(
    "matrix, labels",
    [(np.zeros((3, 4)), [0, 1, 0]), (np.zeros((3, 3)), [0, 1]), (np.zeros(3), [0, 1, 0])],
)
def test_heatmap_rejects_mismatched_inputs(matrix, labels):
    with pytest.raises(InputError, match="one label per bag"):
        distance_heatmap_chart(matrix, labels, "d")


def test_heatmap_of_one_class_names_only_that_block():
    chart = distance_heatmap_chart(symmetric_matrix(3), [1, 1, 1], "d")
    assert layer_with_mark(chart, "rect")[0]["encoding"]["x"]["title"] == (
        "bag, by label (0-2: positive)"
    )
