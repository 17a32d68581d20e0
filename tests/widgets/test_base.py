import ipywidgets as widgets
import pandas as pd
import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.widgets import Panel, base
from milab_widgets.widgets.base import dataset_choices


@pytest.fixture
def panel():
    return Panel("Demo <panel>", controls=[widgets.IntSlider(value=3, description="k")],
                 outputs=[widgets.Output()])


def test_layout_puts_status_and_errors_at_the_top(panel):
    assert panel.children == (panel.header, panel.status, panel.status_area.progress,
                              panel.stale, panel.error, panel.controls, panel.outputs)
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
    with pytest.raises(KeyboardInterrupt), panel.working("long"):
        raise KeyboardInterrupt
    with panel.working("next"):  # the nesting depth was restored
        raise ValueError("shown")
    assert "ValueError" in panel.error.value


def test_show_objects_replaces_the_output_content_in_one_step():
    output, note = widgets.Output(), widgets.HTML("note")
    base.show_objects(output, "chart")
    assert [item["data"]["text/plain"] for item in output.outputs] == ["'chart'"]
    base.show_objects(output, "table", note)
    assert [item["output_type"] for item in output.outputs] == ["display_data"] * 2
    assert output.outputs[0]["data"]["text/plain"] == "'table'"
    view = output.outputs[1]["data"]["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == note.model_id and base.shown_widgets(output) == (note,)
    base.clear_shown(output)
    assert output.outputs == () and note.comm is None  # the replaced widget is closed


def test_tables_show_integers_as_integers_and_no_nan():
    frame = pd.DataFrame({"iterations": pd.array([51, None], dtype="Int64"),
                          "seconds": [0.123456, float("nan")]}, index=["a", "b"])
    rendered = base.styled(frame).to_html()
    assert ">51<" in rendered and "51.0" not in rendered
    assert "0.1235" in rendered and "nan" not in rendered.lower() and "—" in rendered


def test_an_out_of_range_number_is_kept_and_reported_with_its_range():
    folds = base.ranged_int("CV folds", 10, 2, 20)
    panel = Panel("Demo", controls=[folds])
    folds.value = 1
    assert folds.value == 1  # not clamped
    assert "CV folds = 1 is out of range" in panel.error.value and "from 2 to 20" in panel.error.value
    assert panel.status.value == "failed: CV folds is out of range"
    with panel.working("using it"):
        panel.checked(folds)
    assert panel.status.value == "failed: using it"
    folds.value = 5
    assert panel.error.value == "" and panel.checked(folds) == 5


def test_results_are_marked_stale_when_an_input_changes():
    k = widgets.IntSlider(value=3, description="k")
    panel = Panel("Demo", controls=[k])
    panel.has_results = lambda: True
    panel.stale_when_changed([k])
    k.value = 4
    assert "earlier settings" in panel.stale.value
    panel.mark_fresh()
    assert panel.stale.value == ""


def test_settings_set_back_to_those_of_the_results_take_the_stale_note_away():
    k, seed = widgets.IntSlider(value=3, description="k"), widgets.IntText(0, description="seed")
    panel = Panel("Demo", controls=[k, seed])
    panel.has_results = lambda: True
    panel.stale_when_changed([k, seed])
    k.value, seed.value = 4, 1
    k.value = 3
    assert "earlier settings" in panel.stale.value  # the seed still differs
    seed.value = 0
    assert panel.stale.value == ""  # back to the results' settings
    k.value = 5
    panel.mark_fresh()  # results made at k = 5: now k = 3 is the change
    k.value = 3
    assert "earlier settings" in panel.stale.value
    k.value = 5
    assert panel.stale.value == ""


def test_a_saved_notebook_shows_one_line_for_a_panel_not_its_repr(panel):
    bundle = panel._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].count("\n") == 0 and "children=" not in bundle["text/plain"]
    assert "run this cell in JupyterLab" in bundle["text/plain"]


def test_a_paper_header_names_authors_title_venue_and_short_name():
    panel = Panel("clustering", paper="TwoViewMIC")
    assert "TwoViewMIC: clustering" in panel.header.value
    assert "Cai Hao, Liu Bo" in panel.header.value and "2021" in panel.header.value
    assert "Journal of Guangdong University of Technology" in panel.header.value


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


def test_an_out_of_range_message_stays_while_any_box_is_out_of_range():
    """Found by the input storm: correcting one box cleared the message of another one still
    out of range (the panel said "ready" with CV folds = 1)."""
    folds, citers = base.ranged_int("CV folds", 10, 2, 20), base.ranged_int("citers", 4, 1, 9)
    panel = Panel("Demo", controls=[folds, citers])
    folds.value, citers.value = 1, 0
    assert "citers = 0 is out of range" in panel.error.value
    citers.value = 3
    assert "CV folds = 1 is out of range" in panel.error.value
    assert panel.status.value == "failed: CV folds is out of range"
    with panel.working("an action that does not use the boxes"):
        pass
    assert panel.status.value.startswith("done") and "CV folds = 1" in panel.error.value
    citers.value, citers.disabled = 0, True  # a disabled box is not held against the user
    folds.value = 5
    assert panel.error.value == "" and panel.status.value == "ready"


def test_each_result_area_keeps_its_own_stale_note():
    panel = Panel("Demo")
    panel.has_results = lambda: True
    panel.mark_stale("Run protocol")
    panel.mark_kept("The plots")
    assert "press <b>Run protocol</b>" in panel.stale.value
    assert "The plots below are of an earlier setting" in panel.stale.value
    panel.mark_fresh("The plots")  # a refit that worked leaves the other area's note
    assert "Run protocol" in panel.stale.value and "The plots" not in panel.stale.value
    panel.mark_kept("The plots")
    panel.mark_fresh()
    assert panel.stale.value == ""


def test_clearing_an_error_about_a_fixed_input_shows_a_box_still_out_of_range():
    folds = base.ranged_int("CV folds", 10, 2, 20)
    panel = base.Panel("Demo", controls=[folds])
    folds.value = 50
    with panel.working("reading ratios"):
        raise InputError("subspace ratios 'abc' must be numbers")
    assert "ratios" in panel.error.value
    panel.status_area.clear_error_about("ratios")
    assert "CV folds = 50 is out of range" in panel.error.value
    assert panel.status.value == "failed: CV folds is out of range"
    panel.status_area.clear_error_about("ratios")  # not about ratios: stays
    assert "CV folds = 50" in panel.error.value
    folds.value = 5
    with panel.working("reading ratios"):
        raise InputError("subspace ratios 'abc' must be numbers")
    panel.status_area.clear_error_about("RATIOS")
    assert panel.error.value == "" and panel.status.value == "ready"


def test_a_pressed_button_is_disabled_while_its_action_runs_and_after_a_failure_enabled():
    button, seen = widgets.Button(description="Run"), []

    def action():
        seen.append(button.disabled)
        if len(seen) == 2:
            raise RuntimeError("the action failed")

    base.on_press(button, action)
    button.click()
    button.click()  # ipywidgets logs the callback's exception and goes on
    assert seen == [True, True] and not button.disabled
