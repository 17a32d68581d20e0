"""The frame every panel of the lab shares: title, controls, status line, errors, outputs.

A panel wires controls to library functions and shows what they return. Its actions run
inside :meth:`Panel.working`, which reports progress in the status line and turns any
exception into a red message in the panel: the kernel keeps running, the panel stays usable
and no control value is touched, so nothing the user set is lost.

Under a storm of input (tests/widgets/test_input_storm.py: 200 changes in a row) a panel
ends in the state of its last input. Short actions run synchronously -- ipykernel handles
one comm message at a time, so a change is handled to its end before the next one is seen
and no older computation can complete after a newer one. A long action (a button given to
:func:`on_press` with its view) runs in a background thread when a kernel runs it, so that
its Stop can be clicked (:mod:`milab_widgets.widgets.progress`); while it runs, every
control of its view is greyed, so no input can change what it computes on and still no
generation counter is needed. What a panel must get right is what it says about the
results it still shows: a stale note per result area (:meth:`Panel.mark_stale`,
:meth:`Panel.mark_kept`), and an out-of-range message that stays while any number box is
out of range (:meth:`StatusArea.check_range`) -- each in its own view: a sub-tab that
computes apart has its own status line, stale note and error (:meth:`Panel.add_view`).
"""

from __future__ import annotations

import html
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from weakref import WeakKeyDictionary

import ipywidgets as widgets
from IPython import get_ipython
from IPython.core.formatters import DisplayFormatter

from milab_widgets.charts.theme import chart_image, without_tooltips
from milab_widgets.exceptions import InputError
from milab_widgets.widgets.entries import NumberBox, typed_sliders
from milab_widgets.widgets.papers import paper_header
from milab_widgets.widgets.progress import Progress, Stopped

__all__ = ["Panel", "StatusArea", "clear_shown", "close_tree", "dataset_choices", "on_press",
           "ranged_int", "show_chart_image", "show_objects", "show_table", "shown_widgets",
           "styled", "widget_note"]

_ERROR_STYLE = "color:#b00020"
_STALE_STYLE = "color:#8a5a00;background:#fff4d6;padding:2px 6px"
_SHOWN: WeakKeyDictionary = WeakKeyDictionary()  # an Output -> the widgets show_objects put in it
_PLAIN_FORMATTER = DisplayFormatter()


class StatusArea:
    """One view's status line, stale note and error, and what it says about its results.

    A panel is one view; a panel with sub-tabs that compute apart (CDVSE's playground and
    its UCI table) has one area per sub-tab, shown in that tab, so an error or a stale note
    of one never shows on, nor is cleared by, the other (issue 22: the repetitions error
    showed on the playground and vanished at its next refit).

    Parameters
    ----------
    root : widget
        The view's controls: the number boxes (:func:`ranged_int`) under it are this area's
        to check (:meth:`checked`, :meth:`check_range`).
    has_results : callable
        Whether the view shows results that inputs can make stale.
    claimed : callable, optional
        The number boxes under ``root`` that other areas own (a panel's main area spans
        its sub-views' controls too).

    Attributes
    ----------
    status, stale, error : ipywidgets.HTML
        The one-line status ("working: ...", "done: ... (1.2 s)", "failed: ..."), a note
        when the results shown no longer match the inputs (empty otherwise), and the last
        error (empty when the last action succeeded).
    last_error : Exception or None
        The exception the last action raised, kept for inspection.
    progress : Progress
        The bar and Stop of the view's long actions (:meth:`step`), under the status line.
    """

    def __init__(self, root, has_results=lambda: False, claimed=lambda: ()):
        self.root, self.has_results, self._claimed = root, has_results, claimed
        self.status = widgets.HTML("ready")
        self.stale = widgets.HTML("")
        self.error = widgets.HTML("")
        self.progress = Progress()
        self.last_error: Exception | None = None
        self._depth = 0
        self._stale_notes: dict[str, tuple] = {}  # result area -> (its note, kept)
        self._watched: dict[str, list] = {}  # action -> the controls its results depend on
        self._fresh_values: dict[str, list] = {}  # action -> their values at the results

    def parts(self) -> list:
        """The status line, progress, stale note and error, top to bottom, to place at the
        top of the view."""
        return [self.status, self.progress, self.stale, self.error]

    def step(self, done: int, total: int, what: str = "") -> None:
        """A long action's progress callback: ``done`` of ``total`` steps of ``what``;
        raises :class:`~milab_widgets.widgets.progress.Stopped` once Stop is pressed."""
        self.progress.step(done, total, what)

    # -- number boxes ---------------------------------------------------------------------------
    def boxes(self) -> list:
        """The number boxes this area checks."""
        claimed = {id(box) for box in self._claimed()}
        return [box for box in _ranged_inputs(self.root) if id(box) not in claimed]

    def checked(self, control) -> int:
        """The value of a number box made by :func:`ranged_int`; InputError naming the
        control and its allowed range when the value is outside it (never clamped)."""
        low, high = control.allowed
        value = control.value
        if not low <= value <= high:
            raise InputError(f"{control.description} = {value} is out of range: enter a whole "
                             f"number from {low} to {high}.")
        return value

    def check_range(self, control) -> None:
        """Show at once that a number box holds an out-of-range value; clear that message
        only when every enabled number box of the area is in range.

        Bringing one box back into range shows the message of another box still out of
        range instead (an input storm found the panel saying "ready" with ``CV folds = 1``
        after ``citers`` had been corrected). Disabled boxes are not held against the
        user: they cannot edit them, and the panel does not use them (e.g. intH's citers
        under KNN)."""
        box, error = self._out_of_range(first=control)
        if error is not None:
            self.show_error(error)
            self.status.value = f"failed: {html.escape(box.description)} is out of range"
        elif self.last_error is not None and "is out of range" in str(self.last_error):
            self._clear_error()
            self.status.value = "ready"

    def clear_error_about(self, subject: str) -> None:
        """The input an error was about is fixed: clear the error shown if its message
        mentions ``subject`` (case-insensitive); a number box still out of range then shows
        its message instead (clearing it too let the panel read "ready" with a box out of
        range, found by an input storm)."""
        if self.last_error is None or subject.lower() not in str(self.last_error).lower():
            return
        self._clear_error()
        self.status.value = "ready"
        box, error = self._out_of_range()
        if error is not None:
            self.check_range(box)

    def _out_of_range(self, first=None) -> tuple:
        """(box, InputError) of the first number box out of range (``first``, then the
        enabled ones), or (None, None)."""
        boxes = [box for box in self.boxes() if box is not first and not box.disabled]
        for box in ([first] if first is not None else []) + boxes:
            try:
                self.checked(box)
            except InputError as error:
                return box, error
        return None, None

    # -- stale results --------------------------------------------------------------------------
    def watch(self, controls: Sequence, action: str = "Run") -> None:
        """A change of any of ``controls`` makes the results stale (:meth:`mark_stale`),
        unless it sets them all back to their values when the results were made (the last
        :meth:`mark_fresh`): then the note goes (issue 33: it stayed)."""
        self._watched[action] = list(controls)
        self._fresh_values[action] = _values(controls)
        for control in controls:
            control.observe(lambda _: self._on_watched(action), "value")

    def _on_watched(self, action: str) -> None:
        if _values(self._watched[action]) == self._fresh_values[action]:
            self.mark_fresh(action)
        else:
            self.mark_stale(action)

    def mark_stale(self, action: str = "Run") -> None:
        """Say, above the results, that they no longer match the inputs (if any are shown)."""
        if self.has_results():
            self._note(action, f"The results below are for earlier settings: press "
                               f"<b>{html.escape(action)}</b> to update them.")

    def mark_kept(self, view: str) -> None:
        """Say, above the results, that ``view`` (e.g. "The plots of the 2-D playground")
        still shows an earlier setting because recomputing it for the current one failed.

        For views that recompute on every change, with no button to press: without this
        note a failed refit left the last good plots on screen looking current (found by an
        input storm), and a later successful action elsewhere in the panel cleared the
        error that explained them. Cleared by ``mark_fresh(view)`` (or ``mark_fresh()``).
        """
        self._note(view, f"{html.escape(view)} below are of an earlier setting (the last one "
                         "that worked)", kept=True)

    def mark_fresh(self, area: str | None = None) -> None:
        """The results shown match the inputs again: all of them, or only those of ``area``
        (the ``action`` of :meth:`mark_stale` or the ``view`` of :meth:`mark_kept`)."""
        if area is None:
            self._stale_notes.clear()
        else:
            self._stale_notes.pop(area, None)
        for action, controls in self._watched.items():
            if area in (None, action):
                self._fresh_values[action] = _values(controls)
        self._show_notes()

    def _note(self, area: str, text: str, kept: bool = False) -> None:
        """Keep one stale note per result area (a view with two must not let one area's
        update clear the other's note); a ``kept`` note ends by pointing at the error while
        one is shown (:meth:`_show_notes`)."""
        self._stale_notes[area] = (text, kept)
        self._show_notes()

    def _show_notes(self) -> None:
        """Render the notes; a kept note says "see the error above" only while an error is
        shown (issue 33: once the input was fixed it pointed at an error no longer there)."""
        ending = ": see the error above." if self.error.value else "."
        self.stale.value = "".join(
            f'<div style="{_STALE_STYLE}">{text}{ending if kept else ""}</div>'
            for text, kept in self._stale_notes.values())

    @contextmanager
    def working(self, what: str) -> Iterator[None]:
        """Run the ``with`` block as the action ``what``, reporting it in the status line.

        The outermost block clears the previous error, and on any exception shows it in the
        error area instead of raising (Stop, :class:`Stopped`, is reported as stopped, not
        as an error); when it succeeds while a number box is out of range, it shows that
        box's message again. Nested blocks only update the status line and let
        exceptions reach the outermost one, so a failed step stops the whole action.
        """
        outermost = self._depth == 0
        if outermost:
            self._clear_error()
            self.progress.begin()
        self.status.value = f"working: {html.escape(what)}..."
        started = time.perf_counter()
        self._depth += 1
        try:
            yield
        except Exception as error:
            if not outermost:
                raise
            if isinstance(error, Stopped):
                self.status.value = (f"stopped: {html.escape(what)} ({error}); the results "
                                     "shown are the last complete ones")
            else:
                self.show_error(error)
                self.status.value = f"failed: {html.escape(what)}"
        else:
            if outermost:
                seconds = time.perf_counter() - started
                self.status.value = f"done: {html.escape(what)} ({seconds:.1f} s)"
                _, out_of_range = self._out_of_range()
                if out_of_range is not None:  # an action that does not use the box keeps
                    self.show_error(out_of_range)  # its message on screen
        finally:
            self._depth -= 1
            if outermost:
                self.progress.end()

    def _clear_error(self) -> None:
        """No error shown; a "kept" note no longer points at one (:meth:`mark_kept`)."""
        self.error.value, self.last_error = "", None
        self._show_notes()

    def show_error(self, error: Exception) -> None:
        """Show ``error``'s type and message in red, with its traceback folded below."""
        self.last_error = error
        trace = "".join(traceback.format_exception(error))
        self.error.value = (
            f'<div style="{_ERROR_STYLE}"><b>{type(error).__name__}</b>: '
            f'<span style="white-space:pre-wrap">{html.escape(str(error))}</span>'
            f"<details><summary>traceback</summary><pre>{html.escape(trace)}</pre></details></div>"
        )


class Panel(widgets.VBox):
    """A vertical panel: header, status line, stale note, errors, controls, outputs.

    The status line and errors sit at the top, under the header, so progress and failures
    are in sight however long the outputs are. They are the panel's main
    :class:`StatusArea`; a sub-tab that computes apart gets its own (:meth:`add_view`).

    Parameters
    ----------
    title : str
        What the panel does (shown as the header).
    controls : sequence of widgets
        The inputs (dropdowns, sliders, buttons), top to bottom.
    outputs : sequence of widgets
        Where results go (``ipywidgets.Output``, ``HTML``, :class:`LiveChart`, ...).
    paper : str, optional
        The paper's short name (a key of :data:`~milab_widgets.papers.PAPERS`):
        the header then names the paper by authors, title, venue and year.
    **kwargs
        Passed to ``ipywidgets.VBox`` (layout, for example).

    Attributes
    ----------
    header : ipywidgets.HTML
        The title.
    status_area : StatusArea
        The main view's status line, stale note and error (``status``, ``stale``,
        ``error`` and ``last_error`` are its own, as attributes of the panel).
    status_areas : dict of str to StatusArea
        Every view's area: "main" and the sub-views added.
    controls, outputs : ipywidgets.VBox
        Containers of the widgets given.

    Examples
    --------
    >>> panel = Panel("Demo")
    >>> with panel.working("dividing"):
    ...     1 / 0
    >>> panel.status.value, type(panel.last_error).__name__
    ('failed: dividing', 'ZeroDivisionError')

    See Also
    --------
    Lab : the tabbed lab of every paper's panel.
    IntHPanel, CDVSEPanel, MFSEFPanel, TwoViewPanel, LSkMDDMPanel : the papers' panels.
    """

    #: The attributes that hold the panel's shown results: ``has_results`` is True once
    #: one of them is set (each panel names its own).
    result_attributes: tuple[str, ...] = ()

    def __init__(self, title: str, controls: Sequence = (), outputs: Sequence = (),
                 paper: str | None = None, **kwargs):
        self.title = title
        self.header = widgets.HTML(paper_header(paper, title) if paper
                                   else f"<h3>{html.escape(title)}</h3>")
        self.controls = widgets.VBox(list(controls))
        typed_sliders(self.controls)  # typed slider values are reported, never clamped silently
        self.outputs = widgets.VBox(list(outputs))
        self.status_area = StatusArea(self.controls, lambda: self.has_results(), self._claimed_boxes)
        self.status_areas = {"main": self.status_area}
        self.status, self.stale, self.error = self.status_area.status, self.status_area.stale, self.status_area.error
        super().__init__(
            [self.header, *self.status_area.parts(), self.controls, self.outputs], **kwargs)
        for control in _ranged_inputs(self.controls):
            control.observe(lambda change: self.view_of(change["owner"]).check_range(
                change["owner"]), "value")

    def add_view(self, name: str, root, has_results) -> StatusArea:
        """A sub-view (e.g. a sub-tab) with its own status line, stale note and error.

        Place its ``parts()`` at the top of the view; its actions run in its ``working``. The
        number boxes under ``root`` are its own.

        Parameters
        ----------
        name : str
            The view's name (a key of ``status_areas``).
        root : ipywidgets.Widget
            The widget holding the view.
        has_results : callable
            ``has_results() -> bool``: whether the view shows results.

        Returns
        -------
        StatusArea
            The view's area.
        """
        area = StatusArea(root, has_results)
        self.status_areas[name] = area
        return area

    def view_of(self, control) -> StatusArea:
        """The area whose view holds ``control``.

        Parameters
        ----------
        control : ipywidgets.Widget
            A control of this panel.

        Returns
        -------
        StatusArea
            The sub-view's area holding it, or the main one.
        """
        return next((area for name, area in self.status_areas.items() if name != "main"
                     and _holds(area.root, control)), self.status_area)

    def _claimed_boxes(self) -> list:
        return [box for name, area in self.status_areas.items() if name != "main"
                for box in _ranged_inputs(area.root)]

    @property
    def last_error(self) -> Exception | None:
        """The exception the main view's last action raised (None after a success)."""
        return self.status_area.last_error

    @last_error.setter
    def last_error(self, error: Exception | None) -> None:
        self.status_area.last_error = error

    def _repr_mimebundle_(self, **kwargs):
        """The widget view, with a one-line plain-text note instead of the widget repr (what
        a saved notebook opened without a kernel, or a terminal, shows)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = widget_note(self.title)
        return bundle

    def _ipython_display_(self) -> None:
        """Displayed alone, as the lab is: a note on bringing it back with a snapshot of the
        panel, shown only while it is not live (:mod:`milab_widgets.widgets.snapshot`)."""
        from milab_widgets.widgets.snapshot import display_with_snapshot

        self.snapshot = display_with_snapshot(self, "this panel", lambda: [(self.title, self)])

    # -- the main view (see StatusArea) ---------------------------------------------------------
    def checked(self, control) -> int:
        """The value of a number box, or an InputError naming it and its allowed range.

        Parameters
        ----------
        control : ipywidgets.Widget
            A control of this panel.
            A number box made by ``ranged_int``.

        Returns
        -------
        int
            The value (never clamped).
        """
        return self.status_area.checked(control)

    def stale_when_changed(self, controls: Sequence, action: str = "Run",
                           view: StatusArea | None = None) -> None:
        """Mark the results of ``view`` as stale as soon as any of ``controls`` changes,
        and fresh again when they are set back to the values of the results shown.

        Parameters
        ----------
        controls : sequence of ipywidgets.Widget
            The inputs to watch.
        action : str, default="Run"
            The button the stale note asks to press.
        view : StatusArea, default=None
            The view whose results go stale; None means the main one.
        """
        (view or self.status_area).watch(controls, action)

    def mark_stale(self, action: str = "Run") -> None:
        """Say, above the results, that they no longer match the inputs (if any are shown).

        Parameters
        ----------
        action : str, default="Run"
            The button the note asks to press.
        """
        self.status_area.mark_stale(action)

    def mark_kept(self, view: str) -> None:
        """Say, above the results, that ``view`` still shows an earlier setting.

        Parameters
        ----------
        view : str
            What still shows it (e.g. "The plots of the 2-D playground"), because recomputing it
            for the current setting failed.
        """
        self.status_area.mark_kept(view)

    def mark_fresh(self, area: str | None = None) -> None:
        """The results shown match the inputs again: all of them, or those of ``area``.

        Parameters
        ----------
        area : str, default=None
            The ``action`` of :meth:`mark_stale` or the ``view`` of :meth:`mark_kept`; None means
            every note.
        """
        self.status_area.mark_fresh(area)

    def has_results(self) -> bool:
        """Whether the panel shows results that inputs can make stale.

        Returns
        -------
        bool
            True once one of the panel's ``result_attributes`` holds a result.
        """
        return any(getattr(self, name, None) is not None for name in self.result_attributes)

    def working(self, what: str):
        """Run a ``with`` block as the action ``what``, reported in the main status line.

        Parameters
        ----------
        what : str
            The action's name, as the status line shows it.

        Returns
        -------
        context manager
            Shows any exception of the block in the panel instead of raising it.
        """
        return self.status_area.working(what)

    def step(self, done: int, total: int, what: str = "") -> None:
        """Report a long action's progress in the main view (:meth:`StatusArea.step`).

        Parameters
        ----------
        done : int
            Steps finished.
        total : int
            Steps of the stage.
        what : str, default=""
            The stage, as the progress row names it.

        Raises
        ------
        Stopped
            Once the view's Stop was pressed: the action ends at this step.
        """
        self.status_area.step(done, total, what)

    def show_error(self, error: Exception) -> None:
        """Show ``error``'s type and message in red, with its traceback folded below.

        Parameters
        ----------
        error : Exception
            The error to show.
        """
        self.status_area.show_error(error)


def on_press(button: widgets.Button, action: Callable[[], None],
             view: StatusArea | None = None) -> None:
    """Call ``action()`` when ``button`` is pressed, with the button disabled until it has
    finished: the front end greys it at once, so further clicks during a long run do not
    queue the same run again (issue 33: three clicks ran CDVSE's protocol three times).

    With ``view`` (the area of a long action, which reports its steps to ``view.step``):
    while a kernel runs it, ``action`` runs in a background thread so the view's Stop can
    be clicked, and every control of the view is greyed until it ends.
    """

    def pressed(_button) -> None:
        button.disabled = True
        if view is None:
            _run_then_enable(action, [button])
            return
        greyed = [button, *(control for control in _controls(view.root) if not control.disabled)]
        for control in greyed:
            control.disabled = True
        if _kernel_runs():
            threading.Thread(target=_run_then_enable, args=(action, greyed), daemon=True,
                             name=f"milab: {button.description}").start()
        else:  # a script or a test: nothing could click Stop meanwhile
            _run_then_enable(action, greyed)

    button.on_click(pressed)


def _run_then_enable(action: Callable[[], None], controls: list) -> None:
    try:
        action()
    finally:
        for control in controls:
            control.disabled = False


def _kernel_runs() -> bool:
    """Whether a Jupyter kernel (one that can read a click while an action runs) runs us."""
    return getattr(get_ipython(), "kernel", None) is not None


def _controls(root) -> list:
    """The widgets under ``root`` that take input (those with a ``disabled`` trait)."""
    return [widget for widget in _descendants(root)
            if not isinstance(widget, widgets.Box) and widget.has_trait("disabled")]


def dataset_choices(table, preferred: Sequence[str] = ()) -> tuple[list[tuple[str, str]], str]:
    """Dropdown options for the datasets of ``table`` (rows of ``list_datasets()``): (label,
    name) pairs, unavailable ones labelled "(missing)" so a user sees what a fetch would
    add; and the default: the first available of ``preferred``, else the first available,
    else the first dataset."""
    options = [(name if available else f"{name} (missing)", name)
               for name, available in zip(table["name"], table["available"], strict=True)]
    available = list(table.loc[table["available"], "name"])
    default = next((name for name in preferred if name in available), None)
    return options, default or (available[0] if available else table["name"].iloc[0])


def show_objects(output: widgets.Output, *objects) -> None:
    """Replace what ``output`` shows with ``objects`` (charts, DataFrames, HTML, ...).

    The widgets among ``objects`` become the output's own: :func:`clear_shown` (which this
    calls first) closes them when they are replaced, so neither the kernel nor a saved
    notebook keeps widgets that are no longer on screen (issue 33: 183 stale models, 7.4 MB,
    in a saved lab). Pass a new widget each time, never one the panel keeps.
    """
    replaced = _SHOWN.pop(output, ())
    output.outputs = tuple(_display_output(item) for item in objects)
    _SHOWN[output] = [item for item in objects if isinstance(item, widgets.Widget)]
    for item in replaced:
        close_tree(item)


def _display_output(item) -> dict:
    """``item`` as one display output of an Output widget, as ``display`` would make it;
    set as the widget's ``outputs``, it shows from any thread (a ``with output:`` block
    captures only the messages of the cell that runs it)."""
    data, metadata = _formatter().format(item)
    return {"output_type": "display_data", "data": data, "metadata": metadata}


def _formatter() -> DisplayFormatter:
    """The shell's display formatter, or (a script, a test) a formatter of its own: no
    IPython shell is made for it, in whichever thread shows the first output."""
    shell = get_ipython()
    return shell.display_formatter if shell is not None else _PLAIN_FORMATTER


def shown_widgets(output: widgets.Output) -> tuple[widgets.Widget, ...]:
    """The widgets :func:`show_objects` last put in ``output`` (none after a clear)."""
    return tuple(_SHOWN.get(output, ()))


def clear_shown(output: widgets.Output) -> None:
    """Clear ``output`` and close the widgets :func:`show_objects` showed in it (and the
    widgets under them)."""
    show_objects(output)


def close_tree(widget: widgets.Widget) -> None:
    """Close ``widget`` and every widget it holds (children, and its own layout and style,
    which are widget models too), in the kernel and the front end; a closed widget leaves
    the saved widget state."""
    for name in widget.keys:
        value = getattr(widget, name)
        for held in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(held, widgets.Widget) and held.comm is not None:
                close_tree(held)
    widget.close()


def show_table(output: widgets.Output, frame, caption: str = "", legend: str = "",
               digits: int = 4) -> None:
    """Show ``frame`` in ``output``: integers as integers, floats to ``digits`` places,
    missing cells as "—" (never NaN), with an HTML ``caption`` above and a ``legend``
    (e.g. what the abbreviations mean) below."""
    items = [widgets.HTML(caption)] if caption else []
    items.append(styled(frame, digits))
    if legend:
        items.append(widgets.HTML(f"<small>{legend}</small>"))
    show_objects(output, *items)


def styled(frame, digits: int = 4):
    """``frame`` for display: integers as integers, floats to ``digits`` places, missing
    cells as "—" (never NaN)."""
    return frame.style.format(precision=digits, na_rep="—")


def ranged_int(description: str, value: int, low: int, high: int, **kwargs) -> NumberBox:
    """A whole-number box allowed from ``low`` to ``high``: a value outside is kept as typed
    and reported by the panel (:meth:`Panel.checked`), never clamped silently; text that is
    no whole number is refused with a note beside the box (:class:`~milab_widgets.widgets.
    entries.NumberBox`)."""
    return NumberBox(description, value, low, high, **kwargs)


def widget_note(title: str) -> str:
    """The one line a saved notebook (or a terminal) shows for a panel instead of its repr."""
    return (f"[milab lab: {title} -- an interactive panel; run this cell in JupyterLab with a "
            "kernel to use it]")


def _values(controls: Sequence) -> list:
    return [control.value for control in controls]


def _descendants(root) -> Iterator:
    """``root`` and every widget under it (through ``children``), depth first."""
    yield root
    for child in getattr(root, "children", ()):
        yield from _descendants(child)


def _holds(root, widget) -> bool:
    """Whether ``widget`` is ``root`` or under it."""
    return any(held is widget for held in _descendants(root))


def _ranged_inputs(root) -> list:
    """The number boxes made by :func:`ranged_int` under ``root``."""
    return [widget for widget in _descendants(root) if hasattr(widget, "allowed")]


def show_chart_image(output: widgets.Output, chart) -> None:
    """Replace what ``output`` shows with ``chart`` rendered to a PNG image (vl-convert).

    For charts with many marks (a bag-distance heatmap has n^2 cells): a live Vega-Lite
    chart of that size inside an Output widget stalls nbclient, so a notebook holding the
    panel never finishes under papermill (seen with nbclient 0.11 / ipykernel 7.4); an
    image is also lighter for the browser.
    """
    png = chart_image(without_tooltips(chart.to_dict()), "png", scale=1.5)
    show_objects(output, widgets.Image(value=png, format="png"))
