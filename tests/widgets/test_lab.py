"""The lab launcher: one tab per paper, each panel built once, on first selection."""

import pytest

import milab_widgets
from milab_widgets.widgets import Panel
from milab_widgets.widgets.lab import LAB_PANELS, Lab


@pytest.fixture
def built_lab():
    return Lab()


def test_the_first_tab_is_built_and_the_others_wait(built_lab):
    assert [built_lab.get_title(i) for i in range(len(LAB_PANELS))] == list(LAB_PANELS)
    first = next(iter(LAB_PANELS))
    assert list(built_lab.panels) == [first]
    assert built_lab.children[0].children == (built_lab.panels[first],)
    assert all(not box.children for box in built_lab.children[1:])


@pytest.mark.slow
def test_every_tab_builds_its_panel_once_even_on_a_fresh_install(empty_data_home):
    tabs = Lab()
    for index, title in enumerate(LAB_PANELS):
        tabs.selected_index = index
        assert isinstance(tabs.panels[title], Panel)
    panels = dict(tabs.panels)
    tabs.selected_index = 0
    tabs.selected_index = len(LAB_PANELS) - 1
    assert tabs.panels == panels


def test_lab_outside_jupyter_prints_one_clear_line(capsys):
    assert milab_widgets.lab() is None
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "jupyter lab" in captured.err and "\x1b[" not in captured.err


def test_in_a_kernel_the_lab_appears_first_and_its_panel_fills_in_once_shown(monkeypatch):
    from milab_widgets.widgets import lab as lab_module

    monkeypatch.setattr(lab_module, "in_jupyter_kernel", lambda: True)
    tabs = milab_widgets.lab()
    assert tabs.panels == {} and "loading intH" in tabs.children[0].children[0].value
    tabs._view_count = 1  # what JupyterLab reports once it has drawn the lab
    assert isinstance(tabs.panels["intH"], Panel)
    assert tabs.children[0].children == (tabs.panels["intH"],)
    assert "children=" not in tabs._repr_mimebundle_()["text/plain"]
