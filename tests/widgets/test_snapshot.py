"""The static snapshot beside the live lab (milab_widgets/widgets/snapshot.py): what it shows
of a panel, that it is displayed with the note under a display id, and that it is re-rendered
once after a burst of changes. Its effect in JupyterLab with no kernel is checked in
Chromium by tests/browser/test_saved_state.py."""

import asyncio
import base64
import re

import altair as alt
import ipywidgets as widgets
import pandas as pd
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from milab_widgets.widgets import snapshot as snapshot_module
from milab_widgets.widgets.base import Panel
from milab_widgets.widgets.lab import Lab
from milab_widgets.widgets.live import LiveChart
from milab_widgets.widgets.revive import NOTE_CLASS, revive_note
from milab_widgets.widgets.snapshot import SNAPSHOT_CLASS, Snapshot, snapshot_html

JPEG = b"\xff\xd8\xff"


def toy_panel() -> Panel:
    """A panel with a headline, a chart, a table (as the front end syncs an Output's
    outputs back), a hidden note, a control and two sub-tabs, the second selected."""
    chart = LiveChart()
    chart.show(alt.Chart(pd.DataFrame({"x": [1, 2, 3], "y": [3, 1, 2]})).mark_line()
               .encode(x="x:Q", y="y:Q"))
    table = widgets.Output()
    table.outputs = ({"output_type": "display_data", "metadata": {},
                      "data": {"text/html": "<table><tr><td>0.9142</td></tr></table>",
                               "text/plain": "0.9142"}},)
    hidden = widgets.HTML("hidden words", layout={"display": "none"})
    tabs = widgets.Tab([widgets.HTML("first tab words"), widgets.HTML("second tab words")],
                       selected_index=1)
    k = widgets.IntSlider(value=7, description="K")
    return Panel("Toy", controls=[k], outputs=[widgets.HTML("<b>accuracy 91.4%</b>"), chart,
                                               table, hidden, tabs])


def test_the_snapshot_shows_what_the_panel_shows():
    page = snapshot_html([("Toy", toy_panel())], when="2025-01-02 03:04")
    assert "snapshot of Toy as saved, 2025-01-02 03:04; run the cell to bring the lab back" in page
    assert "<b>accuracy 91.4%</b>" in page and "<td>0.9142</td>" in page
    assert "<b>K</b>: 7" in page
    assert "second tab words" in page
    assert "first tab words" not in page and "hidden words" not in page
    images = re.findall(r'src="data:image/jpeg;base64,([^"]+)"', page)
    assert len(images) == 1 and base64.b64decode(images[0]).startswith(JPEG)
    assert "<svg" not in page and "<style" not in page  # an untrusted notebook drops them


def test_a_tab_not_built_says_so():
    page = snapshot_html([("CDVSE", None)], when="now")
    assert "CDVSE was not built yet" in page and f'class="{SNAPSHOT_CLASS}"' in page


def test_the_lab_displays_its_snapshot_with_the_note_under_a_display_id():
    lab, shell = Lab(when_shown=True), InteractiveShell.instance()
    with capture_output() as captured:
        shell.display_formatter.format(lab)
    note, widget = captured.outputs
    page = note.data["text/html"]
    assert page.index(revive_note("the lab")) < page.index("snapshot of intH as saved")
    assert page.index(f'class="{NOTE_CLASS}"') < page.index(f'class="{SNAPSHOT_CLASS}"')
    assert lab.snapshot.display_id.startswith("milab-snapshot-")
    assert widget.data["application/vnd.jupyter.widget-view+json"]["model_id"] == lab.model_id


def test_refresh_replaces_the_displayed_snapshot(monkeypatch):
    sent = []
    monkeypatch.setattr("IPython.display.update_display",
                        lambda bundle, raw, display_id: sent.append((bundle, display_id)))
    panel = toy_panel()
    shot = Snapshot("this panel", lambda: [("Toy", panel)])
    panel.outputs.children[0].value = "<b>accuracy 50.0%</b>"
    shot.refresh()
    (bundle, display_id), = sent
    assert display_id == shot.display_id
    assert "accuracy 50.0%" in bundle["text/html"] and revive_note("this panel") in bundle["text/html"]


def test_a_burst_of_changes_renders_once_after_the_quiet_time(monkeypatch):
    # The changes come without a pause (sleep(0) only lets the loop run), so on a loaded
    # machine no quiet time can pass between them; 0.01 s pauses against a 0.05 s quiet
    # time failed there when the loop woke late.
    monkeypatch.setattr(snapshot_module, "QUIET_SECONDS", 0.5)
    panel = toy_panel()
    shot = Snapshot("this panel", lambda: [("Toy", panel)])
    refreshed = []
    monkeypatch.setattr(shot, "refresh", lambda: refreshed.append(panel.status.value))
    shot.watch(panel)
    panel.controls.children[0].value = 3  # outside an event loop: nothing scheduled
    assert refreshed == []

    async def clicks():
        for step in range(5):
            panel.status.value = f"done: step {step}"
            await asyncio.sleep(0)
        await asyncio.sleep(1.5)

    asyncio.run(clicks())
    assert refreshed == ["done: step 4"]


def test_widgets_added_later_are_watched(monkeypatch):
    panel = toy_panel()
    shot = Snapshot("this panel", lambda: [("Toy", panel)])
    scheduled = []
    monkeypatch.setattr(shot, "schedule", lambda _change=None: scheduled.append(1))
    shot.watch(panel)
    later = widgets.HTML("later")
    panel.outputs.children = (*panel.outputs.children, later)
    count = len(scheduled)
    later.value = "changed"
    assert count >= 1 and len(scheduled) == count + 1


def test_a_lab_snapshot_shows_every_built_panel_in_tab_order_under_its_name():
    lab = Lab()
    lab.selected_index = 1  # builds CDVSE too
    page = snapshot_html(lab._shown_for_snapshot(), when="now")
    assert "snapshot of intH and CDVSE as saved, now" in page
    assert page.index(">intH</div>") < page.index(">CDVSE</div>")
    assert lab.panels["intH"].status.value in page and lab.panels["CDVSE"].status.value in page


def test_a_chart_is_rendered_once_however_often_the_snapshot_is(monkeypatch):
    chart = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x:Q")
    renders = []
    real = snapshot_module.chart_image
    monkeypatch.setattr(snapshot_module, "chart_image",
                        lambda *args, **kwargs: renders.append(1) or real(*args, **kwargs))
    first = snapshot_module._chart_image(chart)
    assert snapshot_module._chart_image(chart) == first and len(renders) == 1
    snapshot_module._chart_image(chart.properties(width=90))  # a redraw: a new chart
    assert len(renders) == 2


def test_a_float_control_reads_as_its_readout_not_every_digit():
    from milab_widgets.widgets.snapshot import _control_value

    slider = widgets.FloatSlider(value=0.639896038619753, min=0, max=1, description="α value")
    assert _control_value(slider) == ["<span><b>α value</b>: 0.64</span>"]  # its .2f readout
    labelled = widgets.FloatSlider(value=0.05, max=0.5, readout_format=".0%",
                                   description="labelled")
    assert _control_value(labelled) == ["<span><b>labelled</b>: 5%</span>"]
