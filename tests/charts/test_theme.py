"""The lab theme, the notebook renderer and static export (milab_widgets.charts.theme)."""

import base64
import re
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET

import altair as alt
import nbformat
import pandas as pd
import pytest
from IPython.core.formatters import DisplayFormatter
from nbclient import NotebookClient

from milab_widgets.charts import PALETTE, THEME_NAME, save_chart, use_lab_charts

SVG = "image/svg+xml"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def lab_charts():
    """Enable the lab charts for one test, then restore Altair's previous theme/renderer."""
    theme, renderer = alt.theme.active, alt.renderers.active
    use_lab_charts()
    yield
    alt.theme.enable(theme)
    alt.renderers.enable(renderer)


@pytest.fixture
def no_network(monkeypatch):
    """Make any Python-level connection attempt fail the test."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def bar_chart() -> alt.Chart:
    """A tiny bar chart over inline data."""
    data = pd.DataFrame({"method": ["a", "b", "c"], "accuracy": [0.8, 0.9, 0.7]})
    return alt.Chart(data).mark_bar().encode(x="method:N", y="accuracy:Q")


def test_import_registers_theme_without_enabling_it():
    code = ("import altair as alt, milab_widgets.charts; "
            f"print(alt.theme.active, alt.renderers.active, '{THEME_NAME}' in alt.theme.names())")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.split() == ["default", "default", "True"]


def test_use_lab_charts_displays_static_svg_offline(lab_charts, no_network):
    data, metadata = DisplayFormatter().format(bar_chart())
    assert SVG in data
    png = base64.b64decode(data["image/png"])  # what an untrusted notebook shows
    assert png.startswith(PNG_SIGNATURE)
    width = int(ET.fromstring(data[SVG]).get("width"))
    assert metadata["image/png"]["width"] == width  # shown at the SVG's size, not doubled
    assert int.from_bytes(png[16:20], "big") == 2 * width
    assert "text/html" not in data  # no CDN-loading HTML: it is blank offline
    assert not any("vegalite" in mimetype for mimetype in data)  # nbformat rejects v6's
    root = ET.fromstring(data[SVG])
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert PALETTE[0].lower() in data[SVG].lower()  # the theme reached the image


def test_theme_config_is_in_the_chart_spec(lab_charts):
    config = bar_chart().to_dict()["config"]
    assert alt.theme.active == THEME_NAME
    assert config["range"]["category"] == list(PALETTE)
    assert config["mark"]["color"] == PALETTE[0]


def test_palette_is_distinct_hex_colours():
    assert len(set(PALETTE)) == len(PALETTE) == 8
    assert all(re.fullmatch(r"#[0-9A-F]{6}", c) for c in PALETTE)


def test_save_chart_writes_svg_and_png_offline(lab_charts, no_network, tmp_path):
    paths = save_chart(bar_chart(), tmp_path / "figs" / "accuracy")
    assert paths == [tmp_path / "figs" / "accuracy.svg", tmp_path / "figs" / "accuracy.png"]
    root = ET.parse(paths[0]).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert PALETTE[0].lower() in paths[0].read_text().lower()  # the theme reached the file
    assert paths[1].read_bytes().startswith(PNG_SIGNATURE)


@pytest.mark.parametrize("formats", [(), ("svg", "gif"), ("SVG",)])
def test_save_chart_rejects_unknown_formats(tmp_path, formats):
    with pytest.raises(ValueError, match="formats="):
        save_chart(bar_chart(), tmp_path / "x", formats)
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_chart_cells_execute_and_validate_under_nbclient():
    """A chart cell runs in a kernel, validates, and its saved output is an SVG image."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import altair as alt, pandas as pd\n"
            "from milab_widgets.charts import use_lab_charts\n"
            "use_lab_charts()\n"
            "alt.Chart(pd.DataFrame({'a': ['x', 'y'], 'b': [1, 2]}))"
            ".mark_bar().encode(x='a:N', y='b:Q')"
        ),
    ]
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    nbformat.validate(nb)
    chart_output, = nb.cells[0].outputs
    assert chart_output.output_type == "execute_result"
    assert chart_output.data[SVG].lstrip().startswith("<svg")
