"""In headless Chromium, a user clicks a panel's "copy as code" and finds the panel's code.

A notebook showing the CDVSE panel (synthetic data: no data home needed) runs in JupyterLab
with every request outside 127.0.0.1 blocked (the harness of check_jupyterlab.py); the tour
clicks the "copy as code" button in the page, waits for the text area to appear and reads
it: it must hold exactly what ``CDVSEPanel().code()`` returns here (the same default state,
the same data home), ready to select and copy. Screenshot: ``copy-as-code.png``.
"""

from pathlib import Path

import nbformat
import pytest

from tests.browser.check_jupyterlab import Expect, check_notebook

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("require_browser")]

CODE_AREA = ".milab-code textarea"


def copy_as_code_tour(found: dict):
    """A tour step for :func:`check_notebook`: click "copy as code", keep the text shown."""

    def tour(page, out: Path, timeout_ms: float) -> list[str]:
        button = page.locator("button", has_text="copy as code")
        if button.count() != 1:
            return [f"expected one 'copy as code' button, found {button.count()}"]
        button.click()
        page.wait_for_selector(CODE_AREA, state="visible", timeout=timeout_ms)
        page.wait_for_function(f"() => document.querySelector('{CODE_AREA}').value.length > 0",
                               timeout=timeout_ms)
        found["code"] = page.locator(CODE_AREA).input_value()
        found["message"] = page.locator(".widget-html-content",
                                        has_text="select it all").inner_text()
        page.locator(CODE_AREA).scroll_into_view_if_needed()
        page.screenshot(path=str(out / "copy-as-code.png"), full_page=False)
        return []

    return tour


def test_clicking_copy_as_code_shows_the_panels_code(tmp_path):
    from milab_widgets.widgets import CDVSEPanel

    notebook = tmp_path / "copy_as_code.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from milab_widgets.widgets import CDVSEPanel\nCDVSEPanel()")]
    nbformat.write(nb, notebook)
    found: dict = {}
    problems, _, _ = check_notebook(notebook, tmp_path / "out",
                                    Expect(charts=1, widgets=5, widget_charts=1), timeout=240,
                                    tour=copy_as_code_tour(found))
    assert not problems, problems
    assert found["code"] == CDVSEPanel().code()
    assert "cdvse.playground(data, C=1.0" in found["code"]
    assert "Ctrl+C" in found["message"]
    assert (tmp_path / "out" / "copy-as-code.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
