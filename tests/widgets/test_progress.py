"""Progress and Stop of long actions (issue 33): the bar, the cooperative Stop, the grid's
callback, and a panel run in a background thread as a kernel runs it, stopped mid-run."""

import threading
from functools import partial

import ipywidgets as widgets
import pytest

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.widgets import base
from milab_widgets.widgets.base import Panel, on_press
from milab_widgets.widgets.progress import Progress, Stopped


def test_the_bar_shows_its_step_and_stop_raises_at_the_next_one():
    progress = Progress()
    assert progress.layout.display == "none"  # nothing runs
    progress.begin()
    progress.step(2, 5, "repetitions")
    assert (progress.bar.value, progress.bar.max) == (2, 5)
    assert progress.label.value == "repetitions: 2 of 5" and progress.layout.display == "flex"
    progress.request_stop()
    assert progress.stop_button.disabled and "stopping after this step" in progress.label.value
    with pytest.raises(Stopped, match="stopped after repetitions: 2 of 5"):
        progress.step(3, 5, "repetitions")
    progress.end()
    assert progress.layout.display == "none" and progress.label.value == ""
    progress.begin()  # a new action: the old Stop does not stop it
    progress.step(1, 5, "repetitions")


def _record(value: int) -> dict:
    return {"value": value}


def test_the_grid_reports_each_computed_task_and_a_stop_keeps_what_was_computed(tmp_path):
    cache = ResultCache(tmp_path)
    tasks = [GridTask({"task": index}, partial(_record, index)) for index in range(4)]
    seen = []

    def progress(done, total, what):
        seen.append((done, total, what))
        if done == 2:
            raise Stopped("stopped after tasks: 2 of 4")

    with pytest.raises(Stopped):
        run_grid(tasks, cache, progress=progress, desc="tasks")
    assert seen == [(0, 4, "tasks"), (1, 4, "tasks"), (2, 4, "tasks")]
    assert [cache.get({"task": index}) for index in range(4)] == [
        {"value": 0}, {"value": 1}, None, None]
    seen.clear()
    records = run_grid(tasks, cache, progress=lambda *step: seen.append(step), desc="tasks")
    assert records == [{"value": index} for index in range(4)]
    assert seen == [(0, 2, "tasks"), (1, 2, "tasks"), (2, 2, "tasks")]  # only the rest


def test_a_stopped_action_says_so_keeps_no_error_and_ends_its_progress():
    panel = Panel("Demo")
    with panel.working("counting"):
        panel.step(1, 3, "steps")
        panel.status_area.progress.request_stop()
        panel.step(2, 3, "steps")
    assert panel.status.value.startswith("stopped: counting (stopped after steps: 1 of 3)")
    assert "the last complete ones" in panel.status.value
    assert panel.error.value == "" and panel.last_error is None
    assert panel.status_area.progress.layout.display == "none"


def test_a_long_action_runs_in_the_background_in_a_kernel_with_its_view_greyed(monkeypatch):
    monkeypatch.setattr(base, "_kernel_runs", lambda: True)
    choice, button = widgets.Dropdown(options=["a", "b"]), widgets.Button(description="Run")
    panel = Panel("Demo", controls=[choice, button])
    during, threads = [], []

    def action():
        threads.append(threading.current_thread().name)
        during.append((button.disabled, choice.disabled))

    on_press(button, action, panel.status_area)
    button.click()
    _join(button)
    assert threads == ["milab: Run"] and during == [(True, True)]
    assert not button.disabled and not choice.disabled  # given back when it ended


def test_stop_mid_run_puts_back_the_last_complete_twoview_results(monkeypatch):
    """Stop pressed at iteration 3 of a refit (as the Stop button does, from the kernel's
    thread while the fit runs in its own): the fit ends at iteration 4, the first run's
    model, curve and accuracy stay, the status says stopped."""
    from milab_widgets.widgets.twoview import TwoViewPanel

    monkeypatch.setattr(base, "_kernel_runs", lambda: True)
    panel = TwoViewPanel(run=False)
    panel.max_iter.value = 5
    _click_and_wait(panel, panel.run_button)
    first_model, first_curve, first_text = panel.model, panel.curve_chart, panel.accuracy.value
    assert first_model is not None and panel.status.value.startswith("done")
    panel.alpha.value = 0.1
    panel.max_iter.value = 50
    progress = panel.status_area.progress
    reached = []

    def stop_at_the_third_iteration(change):
        if change["new"].startswith("Ker") and ": iterations: 3 of" in change["new"]:
            progress.stop_button.click()
        reached.append(change["new"])

    progress.label.observe(stop_at_the_third_iteration, "value")
    _click_and_wait(panel, panel.run_button)
    assert panel.status.value.startswith("stopped: clustering")
    assert not any(": iterations: 5 of" in label for label in reached)
    assert panel.model is first_model and panel.curve_chart is first_curve
    assert panel.accuracy.value == first_text and panel.curve_view.chart is first_curve
    assert "earlier settings" in panel.stale.value  # α changed: still said
    assert not panel.run_button.disabled and not panel.dataset.disabled


def _click_and_wait(panel, button) -> None:
    button.click()
    _join(button)


def _join(button, timeout: float = 120) -> None:
    """Wait for the background run that ``button`` started."""
    for thread in threading.enumerate():
        if thread.name == f"milab: {button.description}":
            thread.join(timeout)
    assert not button.disabled, f"{button.description} still running after {timeout} s"


def test_the_two_view_kernels_report_one_step_per_view_and_stop_between_views():
    from milab_widgets.widgets.twoview import TwoViewPanel

    panel = TwoViewPanel(run=False)
    problem, generator = panel._problem(), panel.generator.value
    seen = []
    problem.kernels(generator, "minimax", "both", progress=lambda *step: seen.append(step))
    assert seen == [(done, 2, "kernels of the views") for done in range(3)]

    def stop_after_the_first(done, total, what):
        if done == 1:
            raise Stopped("stopped after kernels of the views: 1 of 2")

    with pytest.raises(Stopped):
        problem.kernels(generator, "mixture", "both", progress=stop_after_the_first)
    assert ("first", "mixture") in problem._kernels and (generator, "mixture") not in \
        problem._kernels  # the second view's kernel was never computed
