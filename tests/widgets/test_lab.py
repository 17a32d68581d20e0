"""The lab launcher: one tab per paper, each panel built once, on first selection."""

import pytest

import milab_widgets
from milab_widgets.widgets import Panel
from milab_widgets.widgets.lab import LAB_PANELS, Lab


@pytest.fixture
def built_lab():
    return milab_widgets.lab()


def test_the_first_tab_is_built_and_the_others_wait(built_lab):
    assert isinstance(built_lab, Lab)
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
