"""Progress and Stop for a view's long actions (issue 33).

A long action (CDVSE's UCI protocol, TwoViewMIC's multiplicative updates, LSkMDDM's solver
timings, MFSEF's selector grid) reports each step it finishes through
:meth:`Progress.step`, which the experiment code receives as its ``progress`` callback
(``progress(done, total, what)``; :func:`milab_widgets.evaluation.grid.run_grid` calls it
after each task). The bar, the step it is on and a Stop button show from the first step
on. Stop is cooperative: it sets an event, and the next call of ``step`` raises
:class:`Stopped`, so the action ends at the next step boundary (a grid task, a solver, an
iteration) and nothing half-computed is shown; the view's ``working`` block reports it as
stopped, not failed, and keeps the last complete results on screen.

Stop can only be pressed while the kernel is free to read the click, so a long action runs
in a background thread when a kernel runs it (:func:`milab_widgets.widgets.base.on_press`).
"""

from __future__ import annotations

import html
import threading

import ipywidgets as widgets

__all__ = ["PROGRESS_CLASS", "Progress", "Stopped"]

#: The CSS class of every progress row (browser tests find the bar and its Stop by it).
PROGRESS_CLASS = "milab-progress"


class Stopped(Exception):
    """The user pressed Stop: raised at the next step of the action they stopped."""


class Progress(widgets.HBox):
    """A progress bar, the step it is on and a Stop button; hidden while nothing runs.

    Attributes
    ----------
    bar : ipywidgets.IntProgress
        Steps done of the current stage.
    label : ipywidgets.HTML
        "stage: done of total".
    stop_button : ipywidgets.Button
        Asks the action to stop at its next step.

    Examples
    --------
    >>> progress = Progress()
    >>> progress.begin()
    >>> progress.step(1, 4, "UCI repetitions")
    >>> progress.label.value
    'UCI repetitions: 1 of 4'
    >>> progress.request_stop()
    >>> progress.step(2, 4, "UCI repetitions")
    Traceback (most recent call last):
    ...
    milab_widgets.widgets.progress.Stopped: stopped after UCI repetitions: 1 of 4
    """

    def __init__(self):
        self.bar = widgets.IntProgress(value=0, min=0, max=1,
                                       layout=widgets.Layout(width="180px"))
        self.label = widgets.HTML("")
        self.stop_button = widgets.Button(
            description="Stop", icon="stop", button_style="warning",
            tooltip="end this computation after its current step; the results shown stay",
            layout=widgets.Layout(width="auto"))
        self.stop_button.on_click(lambda _button: self.request_stop())
        self._stop = threading.Event()
        self._last_step = ""
        super().__init__([self.bar, self.label, self.stop_button],
                         layout=widgets.Layout(display="none", align_items="center",
                                               grid_gap="8px"))
        self.add_class(PROGRESS_CLASS)

    def begin(self) -> None:
        """A new action starts: no Stop pending, nothing shown until its first step."""
        self._stop.clear()
        self._last_step = ""

    def step(self, done: int, total: int, what: str = "") -> None:
        """Show that ``done`` of ``total`` steps of ``what`` are finished.

        Raises
        ------
        Stopped
            When Stop was pressed since the action began.
        """
        if self._stop.is_set():
            raise Stopped(f"stopped after {self._last_step or 'its first step'}")
        self._last_step = f"{what}: {done} of {total}" if what else f"{done} of {total}"
        self.bar.max, self.bar.value = max(total, 1), min(done, total)
        self.label.value = html.escape(self._last_step)
        self.stop_button.disabled = False
        self.layout.display = "flex"

    def request_stop(self) -> None:
        """Stop the action at its next step (the Stop button's action)."""
        self._stop.set()
        self.stop_button.disabled = True
        self.label.value = f"{html.escape(self._last_step)} — stopping after this step"

    def end(self) -> None:
        """The action is over: hide the row, empty (nothing of it left to read or save)."""
        self.layout.display = "none"
        self.bar.value, self.label.value = 0, ""
