"""The kernel's side of "copy as code" (milab_widgets/widgets/clipboard.py): a click in the
page is the message ``{"event": "copy"}``; the kernel must answer with exactly the panel's
code, and show it in the panel's text area, which the page selects when the browser refuses
the clipboard. The page's side (the clipboard itself) is tested in Chromium:
tests/browser/test_copy_as_code.py."""

import pytest

from milab_widgets.widgets import CDVSEPanel
from milab_widgets.widgets.as_code import CODE_CLASS
from milab_widgets.widgets.clipboard import SCOPE_CLASS, ClipboardButton


def sent_by(button: ClipboardButton) -> list:
    """Record what ``button`` sends to the page."""
    sent: list = []
    button.send = lambda content, buffers=None: sent.append(content)
    return sent


def click_in_the_page(button: ClipboardButton) -> None:
    """What the page's click handler sends to the kernel."""
    button._handle_custom_msg({"event": "copy"}, [])


def test_a_click_sends_the_panels_code_and_shows_it_in_the_text_area():
    panel = CDVSEPanel()
    panel.C.value = 0.5
    button = panel.code_bar.copy_button
    sent = sent_by(button)
    click_in_the_page(button)
    code = panel.code()
    assert sent == [{"text": code}]
    assert "cdvse.playground(data, C=0.5" in code
    assert panel.code_bar.code_area.value == code
    assert panel.code_bar.code_area.layout.display is None


def test_each_click_answers_with_the_code_of_the_panel_as_it_is_then():
    panel = CDVSEPanel()
    sent = sent_by(panel.code_bar.copy_button)
    click_in_the_page(panel.code_bar.copy_button)
    panel.C.value = 0.25
    click_in_the_page(panel.code_bar.copy_button)
    assert [message["text"] for message in sent] == [CDVSEPanel().code(), panel.code()]
    assert sent[0] != sent[1]


def test_the_page_finds_the_text_area_to_select_under_the_bar():
    bar = CDVSEPanel().code_bar
    assert SCOPE_CLASS in bar._dom_classes
    assert CODE_CLASS in bar.code_area._dom_classes
    assert bar.copy_button.select == f".{CODE_CLASS} textarea"


def test_other_messages_are_ignored():
    button = ClipboardButton(lambda: "text")
    sent = sent_by(button)
    for content in ({"event": "paste"}, {}, "copy", None):
        button._handle_custom_msg(content, [])
    assert sent == []


def test_a_failure_to_make_the_text_is_sent_to_the_page_and_raised():
    button = ClipboardButton(lambda: 1 / 0)
    sent = sent_by(button)
    click_in_the_page(button)  # ipywidgets logs the callback's exception
    with pytest.raises(ZeroDivisionError):
        button.click()
    assert sent == 2 * [{"error": "the kernel failed to make the text (ZeroDivisionError: "
                                  "division by zero)"}]
