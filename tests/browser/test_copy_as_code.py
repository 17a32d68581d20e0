"""In headless Chromium, a user clicks a panel's "copy as code" and has the code on the
clipboard.

A notebook showing the CDVSE panel (synthetic data: no data home needed) runs in JupyterLab
with every request outside 127.0.0.1 blocked (the harness of check_jupyterlab.py), the
clipboard permissions granted to the page. The tour clicks "copy as code" three times, as
three browsers would answer (milab_widgets/widgets/clipboard.py):

1. the Clipboard API allowed: the line beside the button says "copied to the clipboard" and
   the clipboard (``navigator.clipboard.readText()``) holds exactly what
   ``CDVSEPanel().code()`` returns here (same default state, same data home);
   screenshot ``copy-as-code.png``;
2. no Clipboard API (as in a page that is not a secure context): copied all the same, by
   ``document.execCommand("copy")``;
3. no Clipboard API and the copy command refused: the line says it could not copy and the
   code is selected in the text area below; the clipboard is untouched, and the user's
   Ctrl+C then copies the code; screenshot ``copy-refused.png``.
"""

from pathlib import Path

import nbformat
import pytest

from tests.browser.check_jupyterlab import Expect, check_notebook
from tests.browser.copying import (
    CLIPBOARD_PERMISSIONS,
    CODE_AREA,
    READ_CLIPBOARD_JS,
    click_copy,
    shown_code,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("require_browser")]

#: What the clipboard holds before each click that must not copy.
SENTINEL = "clipboard before the click"
WRITE_CLIPBOARD_JS = "text => (window.realClipboard || navigator.clipboard).writeText(text)"
#: As in a page that is not a secure context: no ``navigator.clipboard``.
NO_CLIPBOARD_API_JS = """() => {
  window.realClipboard = navigator.clipboard;
  Object.defineProperty(navigator, 'clipboard', {value: undefined, configurable: true});
}"""
COPY_COMMAND_REFUSED_JS = "() => { document.execCommand = () => false; }"
#: Whether the code area has the focus with all its text selected.
CODE_SELECTED_JS = f"""() => {{
  const area = document.querySelector('{CODE_AREA}');
  return document.activeElement === area && area.selectionStart === 0
    && area.selectionEnd === area.value.length && area.value.length > 0;
}}"""


def copy_as_code_tour(found: dict):
    """A tour step for :func:`check_notebook`: the three clicks of the module docstring."""

    def tour(page, out: Path, timeout_ms: float) -> list[str]:
        button = page.locator("button", has_text="copy as code")
        if button.count() != 1:
            return [f"expected one 'copy as code' button, found {button.count()}"]
        page.context.grant_permissions(CLIPBOARD_PERMISSIONS)
        page.evaluate(WRITE_CLIPBOARD_JS, SENTINEL)
        found["api"] = click_copy(page, timeout_ms)
        found["api"]["clipboard"] = page.evaluate(READ_CLIPBOARD_JS)
        found["api"]["shown"] = shown_code(page, found["api"]["clipboard"], timeout_ms)
        page.locator(CODE_AREA).scroll_into_view_if_needed()
        page.screenshot(path=str(out / "copy-as-code.png"), full_page=False)

        page.evaluate(NO_CLIPBOARD_API_JS)
        page.evaluate(WRITE_CLIPBOARD_JS, SENTINEL)
        found["command"] = click_copy(page, timeout_ms)
        found["command"]["clipboard"] = page.evaluate(READ_CLIPBOARD_JS)

        page.evaluate(COPY_COMMAND_REFUSED_JS)
        page.evaluate(WRITE_CLIPBOARD_JS, SENTINEL)
        found["refused"] = click_copy(page, timeout_ms)
        found["refused"]["selected"] = page.evaluate(CODE_SELECTED_JS)
        found["refused"]["clipboard"] = page.evaluate(READ_CLIPBOARD_JS)
        page.screenshot(path=str(out / "copy-refused.png"), full_page=False)
        page.keyboard.press("Control+c")
        found["refused"]["after_ctrl_c"] = page.evaluate(READ_CLIPBOARD_JS)
        return []

    return tour


def test_copy_as_code_puts_the_panels_code_on_the_clipboard(tmp_path):
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
    code = CDVSEPanel().code()
    assert "cdvse.playground(data, C=1.0" in code
    lines = len(code.splitlines())

    api = found["api"]
    assert (api["outcome"], api["text"]) == ("copied", f"copied to the clipboard ({lines} lines)")
    assert api["clipboard"] == code
    assert api["shown"] == code

    command = found["command"]
    assert (command["outcome"], command["clipboard"]) == ("copied", code)

    refused = found["refused"]
    assert refused["outcome"] == "refused"
    assert refused["text"] == ("could not copy (this page has no clipboard access (not a secure "
                               "context)): the code is selected below, press Ctrl+C")
    assert refused["selected"]
    assert refused["clipboard"] == SENTINEL
    assert refused["after_ctrl_c"] == code
    for name in ("copy-as-code", "copy-refused"):
        assert (tmp_path / "out" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
