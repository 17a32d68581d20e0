"""Typed values: number boxes and slider entries refuse or adjust a value only with a note
beside them naming the text, the allowed range and the value used (issue 22)."""

import ipywidgets as widgets
import pytest

from milab_widgets.widgets.base import Panel, ranged_int
from milab_widgets.widgets.entries import NOTE_WIDTH, NumberBox, slider_range, tell, with_entry


# -- number boxes --------------------------------------------------------------------------------
@pytest.mark.parametrize("typed, said", [("", "box emptied"), ("abc", "'abc' is not a whole"),
                                         ("2.5", "'2.5' is not a whole"),
                                         ("nan", "'nan' is not"), ("1e400", "'1e400' is not")])
def test_a_box_refuses_text_that_is_no_whole_number_and_says_what_stays(typed, said):
    box = NumberBox("CV folds", 10, 2, 20)
    changes = []
    box.observe(changes.append, "value")
    box.entry.value = typed
    assert box.value == 10 and changes == []
    assert box.entry.value == "10"  # the box shows the value in use again ...
    assert said in box.note.value  # ... and says so, with the range
    assert "still using 10" in box.note.value and "from 2 to 20" in box.note.value


def test_a_box_keeps_an_invalid_value_in_use_when_emptied_and_says_so():
    """Emptying a box holding an out-of-range value restored it silently in the browser."""
    panel = Panel("Demo", controls=[ranged_int("CV folds", 10, 2, 20)])
    box = panel.controls.children[0]
    box.entry.value = "50"
    assert box.value == 50 and "CV folds = 50 is out of range" in panel.error.value
    box.entry.value = ""
    assert box.value == 50 and "still using 50" in box.note.value
    assert "CV folds = 50 is out of range" in panel.error.value


@pytest.mark.parametrize("typed, number", [("7", 7), (" 12 ", 12), ("1e1", 10), ("3.0", 3),
                                           ("-4", -4), ("1,000", 1000)])
def test_a_box_takes_a_typed_whole_number_as_it_is(typed, number):
    box = NumberBox("seed", 0, 0, 10**6)
    box.entry.value = typed
    assert box.value == number and box.note.value == ""


@pytest.mark.parametrize("typed", ["0,5", "1,00", "1,2,3", "12,3456"])
def test_a_comma_that_does_not_group_thousands_is_refused_not_dropped(typed):
    """A decimal comma ("0,5") read with the comma dropped would be 5, silently."""
    box = NumberBox("seed", 2, 0, 10**6)
    box.entry.value = typed
    assert box.value == 2 and "still using 2" in box.note.value


def test_a_value_set_by_code_shows_in_the_box_and_clears_its_note():
    box = NumberBox("seed", 0, 0, 10)
    box.entry.value = "x"
    assert box.note.value
    box.value = 3
    assert box.entry.value == "3" and box.note.value == ""
    box.disabled = True
    assert box.entry.disabled and box.entry.description == "seed"


# -- slider entries ------------------------------------------------------------------------------
def log_slider():
    return widgets.FloatLogSlider(value=1.0, base=10, min=-3, max=2, description="η (ridge)",
                                  readout_format=".3g")


@pytest.mark.parametrize("typed, used, said", [
    ("-5", 0.001, "η (ridge) = -5 refused: allowed 0.001 to 100; used 0.001."),
    ("1e9", 100.0, "η (ridge) = 1e9 refused: allowed 0.001 to 100; used 100."),
    ("abc", 1.0, "η (ridge) = 'abc' refused: not a number (allowed 0.001 to 100); still using 1."),
    ("inf", 1.0, "'inf' refused"),
])
def test_a_log_slider_entry_refuses_out_of_range_values_and_says_what_was_used(typed, used, said):
    slider = log_slider()
    row = with_entry(slider)
    assert row.children[0].children == (slider, slider.entry) and row.children[1] is slider.note
    assert slider.note.layout.max_width == NOTE_WIDTH and not slider.readout  # note below
    slider.entry.value = typed
    assert slider.value == pytest.approx(used)
    assert said in slider.note.value
    assert slider.entry.value == format(slider.value, ".3g")


def test_an_int_slider_entry_reports_the_clamped_dimension_and_refuses_fractions():
    slider = widgets.IntSlider(value=2, min=2, max=6, description="dimension")
    with_entry(slider)
    slider.entry.value = "100000"
    assert slider.value == 6 and "dimension = 100000 refused: allowed 2 to 6; used 6." in \
        slider.note.value
    slider.entry.value = "4.5"
    assert slider.value == 6 and "not a whole number" in slider.note.value
    slider.entry.value = "3"
    assert slider.value == 3 and slider.note.value == ""


def test_a_typed_value_the_step_rounds_is_reported_and_dragging_clears_the_note():
    slider = widgets.FloatSlider(value=0.5, min=0, max=1, step=0.01, description="α value",
                                 readout_format=".3f")
    with_entry(slider)
    slider.entry.value = "0.25"
    assert slider.value == 0.25 and slider.note.value == ""
    slider.entry.value = "2"
    assert slider.value == 1.0 and "allowed 0.000 to 1.000" in slider.note.value
    slider.value = 0.4  # a drag
    assert slider.entry.value == "0.400" and slider.note.value == ""


def test_a_slider_entry_reads_commas_as_a_number_box_does():
    slider = widgets.IntSlider(value=5, min=0, max=5000, description="dimension")
    with_entry(slider)
    slider.entry.value = "1,000"
    assert slider.value == 1000 and slider.note.value == ""
    slider.entry.value = "0,5"
    assert slider.value == 1000 and "refused" in slider.note.value


def test_a_percent_slider_takes_percentages():
    slider = widgets.FloatSlider(value=0.05, min=0, max=0.5, step=0.01, description="labelled",
                                 readout_format=".0%")
    with_entry(slider)
    assert slider.entry.value == "5%"
    slider.entry.value = "20%"
    assert slider.value == pytest.approx(0.2) and slider.entry.value == "20%"
    slider.entry.value = "90%"
    assert slider.value == 0.5 and "refused: allowed 0% to 50%; used 50%" in slider.note.value
    slider.entry.value = "7"  # read as the entry shows it: percent, sign or not
    assert slider.value == 0.07 and slider.entry.value == "7%" and slider.note.value == ""
    slider.entry.value = "12.5"  # between two 1 % steps: the nearer, and a note
    assert slider.value == 0.12 and slider.entry.value == "12%"
    assert "labelled = 12.5: the slider's step gives 12%" in slider.note.value


def test_a_typed_value_between_steps_goes_to_the_nearer_step_with_a_note():
    slider = widgets.FloatSlider(value=0.5, min=0.1, max=1.0, step=0.05, description="α")
    with_entry(slider)
    slider.entry.value = "0.33"
    assert slider.value == 0.35 and "the slider's step gives 0.35" in slider.note.value
    slider.entry.value = "0.4"
    assert slider.value == 0.4 and slider.note.value == ""


def test_every_slider_of_a_panel_gets_an_entry_and_selection_sliders_keep_their_readout():
    k = widgets.IntSlider(value=2, min=1, max=15, description="K")
    sigma = widgets.SelectionSlider(options=[1, 2], description="σ")
    panel = Panel("Demo", controls=[widgets.HBox([k, sigma])])
    row = panel.controls.children[0]
    slider_row = row.children[0]
    assert slider_row.children[0].children == (k, k.entry) and slider_row.children[1] is k.note
    assert row.children[1] is sigma
    assert slider_range(k) == (1, 15) and sigma.readout


def test_tell_shows_and_clears_a_note_beside_a_control():
    box = NumberBox("up to (features)", 10, 1, 10)
    tell(box, "set to 29 for scene")
    assert "set to 29 for scene" in box.note.value
    box.value = 5
    assert box.note.value == ""
