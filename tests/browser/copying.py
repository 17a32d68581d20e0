"""Clicking a panel's "copy as code" in the browser and reading the clipboard, for the
JupyterLab test (test_copy_as_code.py) and the app tour (app_tour.py). The button and its
answer line: milab_widgets/widgets/clipboard.py."""

from __future__ import annotations

import contextlib

from milab_widgets.widgets.as_code import CODE_CLASS

#: The text area showing the panel's code.
CODE_AREA = f".{CODE_CLASS} textarea"
#: The line beside the button saying whether the code was copied.
ANSWER = ".milab-copy .milab-copy-answer"
#: The clipboard's text (through the Clipboard API kept aside when a test removes it).
READ_CLIPBOARD_JS = "() => (window.realClipboard || navigator.clipboard).readText()"
CLIPBOARD_PERMISSIONS = ["clipboard-read", "clipboard-write"]


def click_copy(scope, timeout_ms: float) -> dict:
    """Click "copy as code" under ``scope`` (a page or a panel's locator) and wait for the
    line beside it to answer; its outcome ("copied" or "refused") and text.

    The click handler marks the line "waiting" while it runs, so an earlier click's answer
    cannot satisfy the wait."""
    scope.locator("button", has_text="copy as code").click()
    answered = scope.locator(f"{ANSWER}[data-outcome=copied], {ANSWER}[data-outcome=refused]")
    answered.wait_for(state="visible", timeout=timeout_ms)
    return {"outcome": answered.get_attribute("data-outcome"), "text": answered.inner_text()}


def shown_code(scope, expected: str, timeout_ms: float) -> str:
    """The text of the code area under ``scope`` once it reads ``expected`` (or at the
    timeout): the kernel fills it in the same answer as the clipboard's text, and its view
    may update a frame after the clipboard was written."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    area = scope.locator(CODE_AREA)
    with contextlib.suppress(PlaywrightTimeout):
        area.page.wait_for_function("([area, text]) => area.value === text",
                                    arg=[area.element_handle(timeout=timeout_ms), expected],
                                    timeout=timeout_ms)
    return area.input_value()
