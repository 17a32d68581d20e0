"""Typed values that are never changed without a word: number boxes and slider entries.

ipywidgets' own boxes and slider readouts fix a typed value in the browser, before Python
sees it: a slider readout clamps (η typed as -5 became 0.001, 1e9 became 100, a dimension of
100000 became 6) and a cleared or unreadable number box silently shows its previous value
again, even an invalid one (issue 22). The kernel never learns what was typed, so no panel
could say so. Here the typed text reaches Python as text, and the panel answers beside the
control with what it refused, the allowed range and what it used:

* :class:`NumberBox` -- a whole-number box (CV folds, seed, ...). A whole number outside its
  range is kept as typed and reported by the panel (:meth:`StatusArea.checked
  <milab_widgets.widgets.base.StatusArea.checked>`); text that is not a whole number (or
  nothing) is refused and the box says which value stays in use.
* :func:`with_entry` -- a slider whose readout is a text entry: a value outside the slider's
  range is refused, the nearest end is used, and the note beside says both; a value between
  two steps is put on the nearer, and the note says so; a percentage slider reads what is
  typed in percent, as its entry shows it ("7" and "7%" are both 7 %).
* :func:`tell` -- a note beside either, for a panel that changes a value itself (a dataset
  switch that resets a feature count says which and why).

>>> box = NumberBox("CV folds", 10, 2, 20)
>>> box.entry.value = ""
>>> box.value, "still using 10" in box.note.value
(10, True)
"""

from __future__ import annotations

import html
import math
import re

import ipywidgets as widgets
import traitlets

__all__ = ["NumberBox", "readout_text", "tell", "typed_sliders", "with_entry"]

_NOTE_STYLE = "color:#8a5a00"
#: Sliders whose readout becomes a text entry (selection sliders have no typed value).
TYPED_SLIDERS = (widgets.IntSlider, widgets.FloatSlider, widgets.FloatLogSlider)
#: A number whose commas group thousands: "1,000", "-12,345.5".
THOUSANDS = re.compile(r"[-+]?\d{1,3}(,\d{3})+(\.\d*)?")


def tell(control, text: str) -> None:
    """Show ``text`` (HTML) beside ``control`` (a :class:`NumberBox` or a slider given an
    entry by :func:`with_entry`); the next change of its value clears it."""
    control.note.value = f'<small style="{_NOTE_STYLE}">{text}</small>' if text else ""


class NumberBox(widgets.HBox):
    """A whole-number box allowed from ``low`` to ``high``, with a note beside it.

    ``value`` (an int, observable like any widget value) changes only to a whole number
    typed in ``entry``; it may lie outside ``allowed`` -- kept as typed, the panel reports
    it, never clamped. Text that is no whole number (or an emptied box) is refused: the box
    shows the value still in use again and ``note`` says so.

    Attributes
    ----------
    entry : ipywidgets.Text
        Where the user types.
    note : ipywidgets.HTML
        What happened to the last typed text (empty when it was used as typed).
    allowed : (int, int)
        The allowed range, inclusive.
    """

    value = traitlets.Int()
    description = traitlets.Unicode()
    disabled = traitlets.Bool(False)

    def __init__(self, description: str, value: int, low: int, high: int, **kwargs):
        self.allowed = (low, high)
        self.entry = widgets.Text(value=str(value), description=description,
                                  continuous_update=False, **kwargs)
        self.note = widgets.HTML()
        super().__init__([self.entry, self.note])
        self.description, self.value = description, value
        self._restoring = False
        traitlets.dlink((self, "disabled"), (self.entry, "disabled"))
        traitlets.dlink((self, "description"), (self.entry, "description"))
        self.entry.observe(self._on_typed, "value")
        self.observe(self._on_value, "value")

    def _on_typed(self, change) -> None:
        if self._restoring:
            return
        number = _whole_number(change["new"])
        if number is None:
            low, high = self.allowed
            typed = change["new"].strip()
            what = f"'{html.escape(typed)}' is not a whole number" if typed else "box emptied"
            self._show(self.value)
            tell(self, f"{what}: still using {self.value} (enter a whole number from {low} "
                       f"to {high}).")
        elif number != self.value:
            self.value = number
        else:
            self._show(number)  # e.g. "010" or "10.0": show it as the number used
            tell(self, "")

    def _on_value(self, change) -> None:
        tell(self, "")
        if _whole_number(self.entry.value) != change["new"]:
            self._show(change["new"])

    def _show(self, value: int) -> None:
        self._restoring = True
        try:
            self.entry.value = str(value)
        finally:
            self._restoring = False


def _whole_number(text: str) -> int | None:
    """``text`` as a whole number ("12", " 12 ", "1e3", "12.0", "1,000"), else None."""
    number = _typed_number(text)
    return int(number) if number is not None and number.is_integer() else None


def typed_sliders(root) -> None:
    """Give every slider under ``root`` a text entry instead of its readout
    (:func:`with_entry`), in place: each is replaced in its container by its row."""
    children = list(getattr(root, "children", ()))
    rows = [with_entry(child) if isinstance(child, TYPED_SLIDERS) else child
            for child in children]
    if any(row is not child for row, child in zip(rows, children, strict=True)):
        root.children = rows
    for row in rows:
        if not isinstance(row, _SliderRow):
            typed_sliders(row)


class _SliderRow(widgets.VBox):
    """A slider and its entry, with its note below them (made by :func:`with_entry`)."""


#: A slider's note wraps within the width of the slider and its entry: beside them, a long
#: note squeezed LSkMDDM's η slider to ~30 px (issue 33).
NOTE_WIDTH = "380px"


def with_entry(slider) -> widgets.VBox:
    """``slider`` beside a text entry that replaces its readout, and a note below them.

    The entry shows the value (in the slider's readout format); a typed value inside the
    slider's range is used (the note says so if the slider rounds it), one outside or text
    that is no number is refused, the nearest allowed value (or the value in use) taken,
    and the note names the refused text, the range and the value used. A value set by
    dragging or by code shows in the entry and clears the note. The slider gets ``entry``
    and ``note`` attributes."""
    slider.entry = widgets.Text(value=readout_text(slider, slider.value), continuous_update=False,
                                layout={"width": "80px"})
    slider.note = widgets.HTML(layout={"max_width": NOTE_WIDTH})
    slider.readout = False
    traitlets.dlink((slider, "disabled"), (slider.entry, "disabled"))
    state = {"typing": False}

    def on_typed(change) -> None:
        if state["typing"]:
            return
        state["typing"] = True
        try:
            note = _use_typed(slider, change["new"])
            slider.entry.value = readout_text(slider, slider.value)
            tell(slider, note)
        finally:
            state["typing"] = False

    def on_value(change) -> None:
        if not state["typing"]:
            state["typing"] = True
            try:
                slider.entry.value = readout_text(slider, change["new"])
                tell(slider, "")
            finally:
                state["typing"] = False

    slider.entry.observe(on_typed, "value")
    slider.observe(on_value, "value")
    row = _SliderRow([widgets.HBox([slider, slider.entry]), slider.note])
    row.add_class("milab-slider-row")  # how a browser test finds a slider's entry
    return row


def slider_range(slider) -> tuple[float, float]:
    """The lowest and highest value ``slider`` takes (a log slider's are base ** min/max)."""
    if isinstance(slider, widgets.FloatLogSlider):
        return slider.base ** slider.min, slider.base ** slider.max
    return slider.min, slider.max


def _use_typed(slider, text: str) -> str:
    """Set ``slider`` from the typed ``text``; the note to show ('' if used as typed)."""
    low, high = slider_range(slider)
    name = html.escape(slider.description)
    allowed = f"allowed {readout_text(slider, low)} to {readout_text(slider, high)}"
    number = _typed_number(text, percent=slider.readout_format.endswith("%"))
    shown = html.escape(text.strip())
    if number is None or (isinstance(slider, widgets.IntSlider) and not number.is_integer()):
        kind = "a whole number" if isinstance(slider, widgets.IntSlider) else "a number"
        return (f"{name} = '{shown}' refused: not {kind} ({allowed}); still using "
                f"{readout_text(slider, slider.value)}.")
    used = min(max(number, low), high)
    slider.value = int(used) if isinstance(slider, widgets.IntSlider) else _on_step(slider, used)
    if used != number:
        return f"{name} = {shown} refused: {allowed}; used {readout_text(slider, slider.value)}."
    if not math.isclose(slider.value, number, rel_tol=1e-9, abs_tol=1e-12):
        return f"{name} = {shown}: the slider's step gives {readout_text(slider, slider.value)}."
    return ""


def _on_step(slider, value: float) -> float:
    """``value`` on the grid of a linear float slider's steps from its minimum (what a drag
    could give, and what its readout can show: 12.5 % on a 1 % step is 12 %, said in the
    note); a log slider's value as given."""
    if isinstance(slider, widgets.FloatLogSlider) or not slider.step:
        return value
    steps = round((value - slider.min) / slider.step)
    return min(round(slider.min + steps * slider.step, 12), slider.max)


def _typed_number(text: str, percent: bool = False) -> float | None:
    """``text`` as a finite number, else None. Commas are read only as thousands separators
    ("1,000" or "12,345.5"; "0,5" is refused, not read as 5). Where ``percent`` (the slider
    shows percentages, e.g. "5%") the number is read as the entry shows it, in percent,
    with or without the % sign: "7" is 7 % (issue 33: it was read as 700 % and refused)."""
    text = text.strip()
    scale = 0.01 if percent else 1.0
    if percent and text.endswith("%"):
        text = text[:-1]
    if "," in text:
        if not THOUSANDS.fullmatch(text):
            return None
        text = text.replace(",", "")
    try:
        number = float(text) * scale
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def readout_text(widget, value) -> str:
    """``value`` as ``widget``'s readout shows it (a percentage slider: "5%"); without a
    readout format, a float to four significant digits and anything else as ``str``."""
    try:
        return format(value, widget.readout_format)
    except (AttributeError, TypeError, ValueError):
        return f"{value:.4g}" if isinstance(value, float) else str(value)
