"""The live charts share one copy of Vega (milab_widgets/widgets/live.py): the kernel's
charts hold a reference to one library widget whose module is vl-convert's bundle, and each
chart's own module is Altair's chart code awaiting that library. Drawn in Chromium, saved
and reopened: tests/browser/test_saved_state.py (one bundle in the saved state) and the lab
tour (every panel's clicks)."""

import re

import altair as alt
import pandas as pd
from altair.jupyter.jupyter_chart import load_js_src
from ipywidgets.embed import dependency_state

from milab_widgets.widgets.live import LiveChart, SharedVegaChart, VegaLibrary, vega_library

POINTS = pd.DataFrame({"a": [1, 2, 3], "b": [3, 1, 2]})


def two_live_charts() -> list[LiveChart]:
    charts = [LiveChart(), LiveChart()]
    charts[0].show(alt.Chart(POINTS).mark_point().encode(x="a:Q", y="b:Q"))
    charts[1].show(alt.Chart(POINTS).mark_bar().encode(x="a:O", y="b:Q"))
    return charts


def page_key(module: str) -> str:
    """The page-wide key under which a module finds (or leaves) Vega."""
    keys = set(re.findall(r'Symbol\.for\("([^"]+)"\)', module))
    assert len(keys) == 1, keys
    return keys.pop()


def test_the_charts_of_a_kernel_share_one_library():
    first, second = (chart.widget for chart in two_live_charts())
    library = vega_library()
    assert isinstance(library, VegaLibrary)
    assert first.library is second.library is library
    assert first.get_state()["library"] == second.get_state()["library"] == (
        f"IPY_MODEL_{library.model_id}")


def test_a_charts_module_is_altairs_chart_code_without_vega():
    chart = two_live_charts()[0].widget
    assert isinstance(chart, SharedVegaChart) and isinstance(chart, alt.JupyterChart)
    body = load_js_src().split("async function render", 1)[1]
    assert body in chart._esm  # Altair's own code, unchanged
    assert "https://" not in chart._esm  # no CDN import: offline
    assert "await sharedVega().libraries" in chart._esm
    assert len(chart._esm) < 20_000 < 800_000 < len(vega_library()._esm)


def test_the_charts_await_the_key_the_library_resolves():
    chart, library = two_live_charts()[0].widget._esm, vega_library()._esm
    assert page_key(chart) == page_key(library)
    assert "vl-convert" in page_key(library)
    assert ".resolve({vegaEmbed:" in library and "export{" in library


def test_a_charts_saved_state_carries_the_library_once():
    """What an embedded or saved page needs for two charts: the library once."""
    charts = [chart.widget for chart in two_live_charts()]
    state = {}
    for chart in charts:
        state.update(dependency_state(chart))
    library = vega_library()
    assert library.model_id in state
    modules = [model["state"]["_esm"] for model in state.values() if "_esm" in model["state"]]
    assert sum(len(module) > 100_000 for module in modules) == 1
    assert sum(map(len, modules)) < len(library._esm) + 2 * 20_000


def test_a_closed_library_is_made_again_for_new_charts():
    closed = vega_library()
    closed.close()  # as Widget.close_all() does
    chart = two_live_charts()[0].widget
    assert chart.library is vega_library() is not closed
    assert chart.library.comm is not None
