import ipywidgets as widgets
import pandas as pd
import pytest

from milab_widgets.widgets import Panel
from milab_widgets.widgets import base
from milab_widgets.widgets.base import dataset_choices


@pytest.fixture
def panel():
    return Panel("Demo <panel>", controls=[widgets.IntSlider(value=3, description="k")],
                 outputs=[widgets.Output()])


def test_layout_has_header_controls_status_error_and_outputs(panel):
    assert panel.children == (panel.header, panel.controls, panel.status, panel.error,
                              panel.outputs)
    assert "Demo &lt;panel&gt;" in panel.header.value
    assert panel.status.value == "ready" and panel.error.value == ""


def test_a_successful_action_reports_done(panel):
    with panel.working("adding"):
        assert panel.status.value == "working: adding..."
    assert panel.status.value.startswith("done: adding (")
    assert panel.error.value == "" and panel.last_error is None


def test_an_exception_is_shown_in_red_not_raised_and_controls_keep_their_values(panel):
    slider = panel.controls.children[0]
    slider.value = 7
    with panel.working("failing"):
        raise ValueError("k must be <= 5; lower k")
    assert panel.status.value == "failed: failing"
    assert "ValueError" in panel.error.value
    assert "k must be &lt;= 5; lower k" in panel.error.value  # escaped, not markup
    assert "color:#b00020" in panel.error.value
    assert isinstance(panel.last_error, ValueError)
    assert slider.value == 7


def test_the_panel_works_after_an_error_and_clears_it(panel):
    with panel.working("failing"):
        raise RuntimeError("boom")
    with panel.working("recovering"):
        pass
    assert panel.error.value == "" and panel.last_error is None
    assert panel.status.value.startswith("done: recovering")


def test_a_failed_nested_step_stops_the_whole_action(panel):
    reached = []
    with panel.working("outer"):
        with panel.working("inner step"):
            raise KeyError("missing")
        reached.append("after inner")  # pragma: no cover - must not run
    assert reached == []
    assert panel.status.value == "failed: outer"
    assert "KeyError" in panel.error.value


def test_an_interrupt_is_not_swallowed(panel):
    with pytest.raises(KeyboardInterrupt):
        with panel.working("long"):
            raise KeyboardInterrupt
    with panel.working("next"):  # the nesting depth was restored
        raise ValueError("shown")
    assert "ValueError" in panel.error.value


def test_show_chart_replaces_the_output_content(monkeypatch):
    output = widgets.Output()
    shown, cleared = [], []
    monkeypatch.setattr(base, "display", shown.append)
    monkeypatch.setattr(output, "clear_output", lambda wait=False: cleared.append(wait))
    base.show_chart(output, "chart")
    base.show_objects(output, "table", "note")
    assert shown == ["chart", "table", "note"]
    assert cleared == [True, True]


def test_show_chart_image_shows_a_png_of_the_chart(monkeypatch):
    import altair as alt

    shown = []
    monkeypatch.setattr(base, "show_objects", lambda output, *items: shown.append((output, items)))
    output = widgets.Output()
    chart = alt.Chart(pd.DataFrame({"a": [1, 2, 3]})).mark_bar().encode(x="a:Q")
    base.show_chart_image(output, chart)
    [(target, (image,))] = shown
    assert target is output and isinstance(image, widgets.Image)
    assert image.value[:8] == b"\x89PNG\r\n\x1a\n"


def test_dataset_choices_label_missing_data_and_prefer_what_is_available():
    table = pd.DataFrame({"name": ["a", "b", "c"], "available": [False, True, True]})
    options, default = dataset_choices(table, preferred=("a", "c"))
    assert options == [("a (missing)", "a"), ("b", "b"), ("c", "c")] and default == "c"
    assert dataset_choices(table)[1] == "b"
    nothing = table.assign(available=False)
    assert dataset_choices(nothing, preferred=("c",))[1] == "a"
