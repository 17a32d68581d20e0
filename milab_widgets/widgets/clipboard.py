"""A button that puts text the kernel computes on the user's clipboard, in one click.

An ipywidgets ``Button`` runs no JavaScript of its own, so it cannot reach the browser's
clipboard. :class:`ClipboardButton` is a small anywidget (its ES module is the string
:data:`ESM`, no bundler): a click asks the kernel for the text (a custom message
``{"event": "copy"}``; the kernel answers ``{"text": ...}``, or ``{"error": ...}`` when the
text could not be made) and copies it, trying in turn:

1. the Async Clipboard API, ``navigator.clipboard.write`` with a ``ClipboardItem`` whose
   blob is a promise of the kernel's answer: the write is asked for inside the click, so
   the click's user activation covers it although the text arrives later (with
   ``writeText`` the text would have to be in the page before the click, i.e. recomputed
   in the kernel after every change of the panel);
   browsers without ``ClipboardItem`` get ``writeText`` once the text has arrived;
2. when the page has no Clipboard API (it is not a secure context: a server reached by
   plain http on another host than localhost) or the browser refuses it,
   ``document.execCommand("copy")`` on a hidden text area holding the text;
3. when both are refused, the text is selected in the text area named by ``select``
   (a CSS selector looked up from the button's closest ``.milab-copy-scope``), for the
   user's Ctrl+C.

Beside the button a line says what happened: ``copied to the clipboard (N lines)``, or
``could not copy (why): the code is selected below, press Ctrl+C``, or, while the kernel has
not answered for 5 s, that it is busy or gone (a saved notebook reopened: its widgets are
drawn from the saved state but no kernel holds them); the line carries
``data-outcome`` = ``copied`` / ``refused`` / ``waiting`` (the browser test reads it).
Tested in Chromium in tests/browser/test_copy_as_code.py (each of the three ways), the
kernel's side in tests/widgets/test_clipboard.py.
"""

from __future__ import annotations

from collections.abc import Callable

import anywidget
import traitlets

__all__ = ["SCOPE_CLASS", "ClipboardButton"]

#: DOM class of the widget around a :class:`ClipboardButton` and the text area it selects
#: when the clipboard is refused.
SCOPE_CLASS = "milab-copy-scope"

ESM = r"""
const SCOPE = ".SCOPE_CLASS";
const SLOW_MS = 5000;  // then say the kernel has not answered yet

function say(line, outcome, text) {
  line.dataset.outcome = outcome;
  line.textContent = text;
}

function lines(text) {
  const count = text.replace(/\n$/, "").split("\n").length;
  return `${count} line${count === 1 ? "" : "s"}`;
}

// The text area to select when the clipboard is refused, once it holds `text`
// (the kernel fills it in the same answer; its view may draw a frame later).
async function selectedArea(el, selector, text) {
  const scope = el.closest(SCOPE);
  for (let frame = 0; scope && selector && frame < 120; frame++) {
    const area = scope.querySelector(selector);
    if (area && area.value === text && area.offsetParent !== null) {
      area.focus();
      area.select();
      return true;
    }
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return false;
}

function copiedByCommand(el, text) {
  const hidden = document.createElement("textarea");
  hidden.value = text;
  hidden.setAttribute("readonly", "");
  hidden.style.cssText = "position:fixed;top:0;left:0;opacity:0;pointer-events:none";
  el.append(hidden);
  hidden.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch (error) {
    copied = false;
  }
  hidden.remove();
  return copied;
}

// Copy the text promised by the kernel; resolves to null when copied, else to why not.
async function copy(el, promised) {
  const clipboard = navigator.clipboard;
  let refused = "this page has no clipboard access (not a secure context)";
  if (clipboard) {
    try {
      if (typeof ClipboardItem !== "undefined") {
        const blob = promised.then((text) => new Blob([text], { type: "text/plain" }));
        await clipboard.write([new ClipboardItem({ "text/plain": blob })]);
      } else {
        await clipboard.writeText(await promised);
      }
      return null;
    } catch (error) {
      refused = `the browser refused: ${error.message || error.name}`;
    }
  }
  return copiedByCommand(el, await promised) ? null : refused;
}

function render({ model, el }) {
  const button = document.createElement("button");
  button.className = "jupyter-button widget-button";
  button.title = model.get("tooltip") || "";
  const icon = document.createElement("i");
  icon.className = "fa fa-copy";
  button.append(icon, ` ${model.get("description")}`);
  const line = document.createElement("span");
  line.className = "milab-copy-answer";
  el.classList.add("milab-copy");
  el.append(button, line);

  const waiting = [];  // [resolve, reject] of each click's text, oldest first
  const answered = (message) => {
    if (!waiting.length || !message) return;
    const [resolve, reject] = waiting.shift();
    if (typeof message.text === "string") resolve(message.text);
    else reject(new Error(message.error || "the kernel sent no text"));
  };
  model.on("msg:custom", answered);

  button.addEventListener("click", async () => {
    const promised = new Promise((resolve, reject) => waiting.push([resolve, reject]));
    say(line, "waiting", "asking the kernel for the code...");
    const slow = setTimeout(() => say(line, "waiting", "no answer from the kernel yet: it is "
      + "busy, or gone (then run the cell to bring the panel back)"), SLOW_MS);
    model.send({ event: "copy" });
    let text, refused;
    try {
      refused = await copy(el, promised);
      text = await promised;
    } catch (error) {
      say(line, "refused", `could not copy: ${error.message}`);
      return;
    } finally {
      clearTimeout(slow);
    }
    if (refused === null) {
      say(line, "copied", `copied to the clipboard (${lines(text)})`);
    } else if (await selectedArea(el, model.get("select"), text)) {
      say(line, "refused", `could not copy (${refused}): the code is selected below, press Ctrl+C`);
    } else {
      say(line, "refused", `could not copy (${refused}): select the code below and press Ctrl+C`);
    }
  });
  return () => model.off("msg:custom", answered);
}

export default { render };
""".replace("SCOPE_CLASS", SCOPE_CLASS)

CSS = """
.milab-copy { display: flex; align-items: center; gap: 8px; flex: 0 1 auto; min-width: 0; }
.milab-copy > button { flex: none; }
.milab-copy .milab-copy-answer { font-size: 0.9em; color: #555; min-width: 0; }
.milab-copy .milab-copy-answer[data-outcome="refused"] { color: #8a5a00; }
"""


class ClipboardButton(anywidget.AnyWidget):
    """A button that copies ``text()`` to the user's clipboard in one click.

    Parameters
    ----------
    text : callable
        ``text() -> str``, called in the kernel at each click: what to copy.
    description : str
        The button's label.
    tooltip : str, optional
        Shown when the pointer rests on the button.
    select : str, optional
        CSS selector of the text area (under the closest widget of class
        :data:`SCOPE_CLASS`) that holds the text after a click; it is selected for the
        user's Ctrl+C when the browser refuses the clipboard.

    Examples
    --------
    >>> button = ClipboardButton(lambda: "print('hello')", description="copy")
    >>> button.click()          # the kernel's part of a click in the browser
    "print('hello')"
    """

    _esm = ESM
    _css = CSS
    description = traitlets.Unicode("copy").tag(sync=True)
    select = traitlets.Unicode("").tag(sync=True)

    def __init__(self, text: Callable[[], str], **kwargs):
        super().__init__(**kwargs)
        self._text = text
        self.on_msg(self._on_message)

    def click(self) -> str:
        """The kernel's part of a click: make the text, send it to the page (which copies it)
        and return it. An error making the text is sent to the page (which says it could not
        copy) and raised.

        Returns
        -------
        str
            The text sent.
        """
        try:
            text = self._text()
        except Exception as error:
            self.send({"error": f"the kernel failed to make the text ({type(error).__name__}: "
                                f"{error})"})
            raise
        self.send({"text": text})
        return text

    def _on_message(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "copy":
            self.click()
