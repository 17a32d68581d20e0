"""The lab's cell shows a note on how to bring it back, hidden by a style rule while the lab
is live (milab_widgets/widgets/revive.py). The rule's effect in JupyterLab -- hidden while
live, shown when the model is gone or restored disconnected -- is checked in a browser by
tests/browser/test_saved_state.py; here, what the kernel sends."""

import re

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from milab_widgets.widgets.lab import Lab
from milab_widgets.widgets.revive import LIVE_CLASS, NOTE_CLASS, revive_note

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def shell():
    return InteractiveShell.instance()


def test_the_lab_displays_the_note_then_itself(shell):
    lab = Lab(when_shown=True)  # no panel built: nothing but the display is exercised
    with capture_output() as captured:
        shell.display_formatter.format(lab)
    note, widget = captured.outputs
    assert widget.data[WIDGET_VIEW]["model_id"] == lab.model_id
    assert LIVE_CLASS in lab._dom_classes
    assert note.data["text/plain"] == revive_note("the lab")
    assert WIDGET_VIEW not in note.data
    page = note.data["text/html"]
    assert f'class="{NOTE_CLASS}"' in page and revive_note("the lab") in page
    rule = re.search(r"<style>(.*)</style>", page)[1]
    assert f".{LIVE_CLASS}:not(.jupyter-widgets-disconnected)" in rule
    assert rule.endswith(f".{NOTE_CLASS} {{ display: none; }}")


def test_the_note_says_how_to_bring_it_back():
    note = revive_note("the lab")
    assert note.startswith("The lab is not live here")
    assert "Run this cell (Shift+Enter) with a kernel" in note
