"""Nothing a panel replaces stays alive: every widget shown in an output is closed when it is
replaced or cleared, so redraws do not grow the kernel's widgets nor a saved notebook's
widget state (issue 33: 183 stale models, 7.4 MB, in a saved lab)."""

import ipywidgets as widgets
import pytest

from milab_widgets.widgets.base import (
    clear_shown,
    close_tree,
    show_chart_image,
    show_objects,
    show_table,
)
from milab_widgets.widgets.lab import LAB_PANELS, Lab
from milab_widgets.widgets.snapshot import open_widgets

REDRAWS = 50


def live(widget) -> bool:
    """Open in the kernel (closing drops the comm and the model from the open widgets)."""
    return widget.comm is not None and widget.model_id in open_widgets()


def test_close_tree_closes_children_layouts_and_styles():
    inner = widgets.HTML("inner")
    box = widgets.VBox([inner, widgets.Image(value=b"", format="png")])
    held = [box, inner, inner.layout, inner.style, box.layout, *box.children]
    close_tree(box)
    assert not any(live(widget) for widget in held)


def test_showing_new_objects_closes_the_ones_replaced_but_not_the_output():
    output = widgets.Output()
    first = widgets.HTML("first")
    show_objects(output, first, "plain text")
    second = widgets.HTML("second")
    show_objects(output, second)
    assert not live(first) and not live(first.layout) and live(second) and live(output)
    clear_shown(output)
    assert not live(second) and live(output)


def test_a_table_and_a_chart_image_leave_no_widget_behind_after_fifty_redraws():
    import altair as alt
    import pandas as pd

    output = widgets.Output()
    chart = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x")
    show_table(output, pd.DataFrame({"a": [1.0]}), caption="<b>c</b>", legend="l")
    before = len(open_widgets())
    for _ in range(REDRAWS):
        show_table(output, pd.DataFrame({"a": [1.0]}), caption="<b>c</b>", legend="l")
    show_chart_image(output, chart)
    assert len(open_widgets()) == before - 4  # caption and legend (each with layout, style) gone,
    # the image (with its layout) shown instead


def redraw_every_panel(lab: Lab) -> None:
    """One redraw of each panel, as its buttons and clicks do them."""
    panels = lab.panels
    panels["intH"].show_bag()
    panels["CDVSE"].show_sample(0.1, 0.1)
    panels["MFSEF"].run()
    panels["TwoViewMIC"].show_cell(0, 0)
    panels["LSkMDDM"].run()
    panels["LSkMDDM"]._on_brush({"coordinate 1": [-10, 10]})


@pytest.mark.slow
def test_fifty_redraws_of_every_panel_keep_the_number_of_live_widgets(require_dataset):
    require_dataset("yeast")
    lab = Lab()
    for index in range(len(LAB_PANELS)):
        lab.selected_index = index
    mfsef = lab.panels["MFSEF"]
    mfsef.methods.value, mfsef.max_features.value, mfsef.steps.value = ("MFSEF",), 8, 2
    redraw_every_panel(lab)
    before = len(open_widgets())
    for _ in range(REDRAWS):
        redraw_every_panel(lab)
    assert [panel.last_error for panel in lab.panels.values()] == [None] * len(LAB_PANELS)
    assert len(open_widgets()) == before
