"""Operate every panel of the lab in a real browser, as a user would.

Usage (from the project root)::

    MILAB_DATA_HOME=/path/to/data python -m tests.browser.lab_tour [--out DIR] [--timeout S]

Runs ``notebooks/index.ipynb`` in JupyterLab in headless Chromium with
:mod:`tests.browser.check_jupyterlab` (Run All; the first tab's panel and its chart must
render), then, for each tab of the lab in turn: clicks the tab, waits for its panel to be
built and drawn, operates one control (a button, a slider or a dropdown, chosen to be cheap
and to redraw at least one chart; in TwoViewMIC, Run after lowering its iterations), waits
for the kernel to finish and the redrawn charts to appear, and checks the panel in the page:

* its status line reads "done: ..." and no error box (red type and message with a folded
  traceback) or error output is shown;
* its ipywidgets views were drawn (no "Loading widget..." / "Error displaying widget");
* its Altair charts were drawn: live Vega charts (``svg.marks`` / ``canvas.marks`` of
  non-zero size inside ``.vega-embed``) and PNG charts (a loaded ``img`` of an
  ``ipywidgets.Image``), as many as the panel shows, and the control redrew the expected
  number of them (new DOM nodes).

Then each of the panel's interactions (:data:`STEPS`, listed in :data:`INTERACTIONS`) is
done as a user does it -- playwright's mouse on a drawn SVG mark or a brush across a chart,
the keyboard in a box, a sub-tab or a dataset switch -- and the panel must answer: show a
given text and no longer show another (its visible text, so one sub-tab's message must not
show on another), with no error box but the one the interaction is meant to bring up, and
no SVG id shared by two charts. Each prints ``lab_tour: <tab>: <what>: ok`` (or FAILED).
Any Vega warning in the browser console fails the tour (check_jupyterlab).

Two PNGs per panel go to ``--out``: ``lab-<tab>.png``, the lab widget with that tab open
after its first interaction (a click or brush in a chart), and ``lab-<tab>-end.png`` after
the last. The kernel sees the caller's environment: set ``MILAB_DATA_HOME`` to a
data home holding the datasets. A panel whose data is missing shows a
DatasetUnavailableError; unless ``MILAB_REQUIRE_DATA=1`` (where it fails, as the data tests
do) it is not operated, and what a user sees there is checked instead (a fresh install on an
empty data home):

* its status line reads "failed: ...", the kernel is idle, and its one error box holds a
  DatasetUnavailableError that names the dataset and says how to get it
  (``milab fetch NAME``), with no traceback shown (folded or none; no error output);
* the named dataset really is missing from the data home (so a panel failing to find data
  that is there is not let through), and the panel's dataset dropdown reads "NAME (missing)";
* its ipywidgets views were drawn and none shows "Loading widget..." / "Error displaying
  widget"; the tour then goes on to the next tab, whose panel must still work.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from milab_widgets.charts.cdvse import PICKED_STROKE_WIDTH
from milab_widgets.widgets.progress import PROGRESS_CLASS
from tests.browser.check_jupyterlab import (
    BAD_OUTPUT_TEXT,
    DEFAULT_OUT,
    ROOT,
    VIEWPORT,
    Expect,
    check_and_report,
    grow_viewport,
)

INDEX = ROOT / "notebooks" / "index.ipynb"
#: After Run All the lab shows its first tab (intH): its f(alpha) curve and bag heatmap are
#: live charts (the panel is built once JupyterLab has drawn the lab).
AFTER_RUN_ALL = Expect(charts=2, widgets=10, widget_charts=2)
MISSING_DATA = "DatasetUnavailableError"

LAB_JS = "document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab')"
#: The lab's panel of tab ``index`` (its outermost Tab; a panel may hold a Tab of its own).
PANEL_JS = f"index => {LAB_JS}.querySelector(':scope > .widget-tab-contents').children[index]"
CHARTS_JS = """panel => {
  const drawn = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  return {
    vega: [...panel.querySelectorAll('.vega-embed :is(svg.marks, canvas.marks)')].filter(drawn),
    images: [...panel.querySelectorAll('img.widget-image')]
      .filter(img => drawn(img) && img.complete && img.naturalWidth > 0),
  };
}"""
# Reads one panel from the DOM. The status line is the Panel's HTML reading "ready",
# "working: ...", "done: ..." or "failed: ..."; an error box is the Panel's red <div> with a
# folded <details> traceback; charts drawn before the action carry data-milab-seen.
PANEL_STATE_JS = f"""
index => {{
  if (!{LAB_JS}) return null;
  const panel = ({PANEL_JS})(index);
  const charts = ({CHARTS_JS})(panel);
  const all = [...charts.vega, ...charts.images];
  const texts = [...panel.querySelectorAll('.widget-html-content')].map(e => e.innerText.trim());
  const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
  const boxes = [...panel.querySelectorAll('.widget-html-content div:has(> details)')];
  const tracebacks = [...panel.querySelectorAll(
    '[data-mime-type="application/vnd.jupyter.error"]')];
  const datasets = [...panel.querySelectorAll('.widget-dropdown')].filter(d =>
    [...d.querySelectorAll('label.widget-label')].some(l => l.innerText.trim() === 'dataset'));
  const chosen = datasets.length ? datasets[0].querySelector('select').selectedOptions[0] : null;
  return {{
    kernel: indicator ? indicator.getAttribute('data-status') : 'unknown',
    status: texts.find(t => /^(ready|working: |done: |failed: |stopped: )/.test(t)) || '',
    errors: [...boxes.map(b => [...b.querySelectorAll(':scope > b, :scope > span')]
                         .map(e => e.innerText).join(': ')),
             ...tracebacks.map(t => t.innerText.trim().split('\\n').pop())],
    bad: BAD.filter(b => panel.innerText.includes(b)),
    tracebacksShown: tracebacks.length + panel.querySelectorAll('details[open]').length
      + (panel.innerText.includes('Traceback (most recent call last)') ? 1 : 0),
    dataset: chosen ? chosen.text.replace(/\\s+/g, ' ').trim() : '',
    widgets: [...panel.querySelectorAll('.jupyter-widgets')].filter(el => {{
      const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; }}).length,
    vega: charts.vega.length,
    images: charts.images.length,
    redrawn: all.filter(el => !el.hasAttribute('data-milab-seen')).length,
    text: panel.innerText,
  }};
}}
""".replace("BAD", repr(list(BAD_OUTPUT_TEXT)))
MARK_CHARTS_JS = f"""index => {{
  const charts = ({CHARTS_JS})(({PANEL_JS})(index));
  [...charts.vega, ...charts.images].forEach(el => el.setAttribute('data-milab-seen', ''));
}}"""
SETTLED = "s.kernel === 'idle' && /^(done|failed): /.test(s.status)"
#: A typed value that the panel refuses or reports leaves the status "ready" or "failed".
SETTLED_OR_READY = "s.kernel === 'idle' && /^(ready|done: |failed: |stopped: )/.test(s.status)"


def labelled(panel, kind: str, description: str):
    """The ipywidget of CSS class ``kind`` whose description label reads ``description``."""
    label = panel.page.locator("label.widget-label",
                               has_text=re.compile(f"^{re.escape(description)}$"))
    return panel.locator(kind).filter(has=label)


def click_button(text: str) -> Callable:
    """Action: click the button reading ``text``."""
    return lambda panel: panel.locator("button.widget-button", has_text=text).click()


def see_in_panel(condition_js: str, timeout_ms: float = 10_000) -> Callable:
    """Action: wait until ``condition_js(panel element)`` holds in the page (fails the
    interaction when it does not within ``timeout_ms``)."""
    return lambda panel: panel.page.wait_for_function(
        condition_js, arg=panel.element_handle(), timeout=timeout_ms, polling=100)


#: Exactly one sample of CDVSE's plot is outlined (milab_widgets.charts.cdvse: the clicked one).
ONE_OUTLINED_JS = f"""p => [...p.querySelectorAll('.vega-embed g.mark-symbol path')]
  .filter(e => e.getAttribute('stroke-width') === '{PICKED_STROKE_WIDTH}').length === 1"""


def press_toggle(text: str) -> Callable:
    """Action: press the toggle button reading ``text`` (a ToggleButtons choice)."""
    return lambda panel: panel.locator("button.widget-toggle-button", has_text=text).click()


def click_while_running(text: str, clicks: int = 3) -> Callable:
    """Action: click the button reading ``text``, see it greyed while its run goes, and
    click it ``clicks - 1`` more times meanwhile (a disabled button takes no click, so the
    run is not queued again: issue 33, three clicks ran CDVSE's protocol three times)."""

    def operate(panel) -> None:
        button = panel.locator("button.widget-button", has_text=text).first
        button.evaluate(WATCH_DISABLED_JS)
        button.click()
        panel.page.wait_for_function("b => b.milabWasDisabled", arg=button.element_handle(),
                                     timeout=10_000, polling=50)
        for _ in range(clicks - 1):
            if button.is_disabled():  # a run that already ended (a missing dataset) would
                button.click(force=True)  # start again: click only while it is greyed

    return operate


def stop_while_running(text: str, stage: str) -> Callable:
    """Action: click the button reading ``text``, wait for the view's progress row to show
    ``stage`` (its bar, the step it is on, Stop), click Stop there, and wait for the status
    line to read "stopped: " within :data:`STOP_SECONDS` (issue 33: "a Stop that ends the
    computation within a second or two"). A PNG of the progress row goes to the temporary
    folder (``progress-<stage>.png``) when the run lasts long enough to take it. A run that fails at once for missing data (a fresh
    install) has nothing to stop: the interaction's check then sees that error."""

    def operate(panel) -> None:
        panel.locator("button.widget-button", has_text=text).first.click()
        rows = panel.locator(f".{PROGRESS_CLASS}:visible")
        try:
            rows.filter(has_text=stage).first.wait_for(state="visible", timeout=60_000)
        except PlaywrightTimeout:
            if os.environ.get("MILAB_REQUIRE_DATA") == "1":  # with the data it must run
                raise
            return  # the run failed at once for missing data: the check sees its error
        with suppress(PlaywrightTimeout):  # the picture only: the run may end meanwhile
            rows.first.screenshot(path=str(Path(tempfile.gettempdir()) / f"progress-{stage}.png"),
                                  timeout=2000)
        started = time.monotonic()
        rows.locator("button", has_text="Stop").first.click()  # the step may have moved on
        panel.page.wait_for_function(STOPPED_JS, arg=panel.element_handle(),
                                     timeout=STOP_SECONDS * 1000, polling=50)
        print(f"lab_tour: Stop during {stage!r} ended the run in "
              f"{time.monotonic() - started:.2f} s")

    return operate


#: The longest a Stop may take to end a run: one step of the run (a grid task, a solver,
#: one view's kernel) and the page's round trip.
STOP_SECONDS = 5
STOPPED_JS = "p => /(^|\\n)stopped: /.test(p.innerText)"


#: Notes on the button element whether its ``disabled`` attribute was ever set or removed:
#: a run that fails at once (a dataset missing on a fresh install) greys the button for a
#: few milliseconds, shorter than any polling.
WATCH_DISABLED_JS = """b => {
  b.milabWasDisabled = false;
  new MutationObserver(records => {
    if (records.some(r => r.attributeName === 'disabled')) b.milabWasDisabled = true;
  }).observe(b, {attributes: true, attributeFilter: ['disabled']});
}"""


def set_slider(description: str, value: str) -> Callable:
    """Action: type ``value`` into the entry of the slider ``description`` (the panels'
    text entry beside each slider, milab_widgets.widgets.entries), then Enter."""

    def operate(panel) -> None:
        label = panel.page.locator("label.widget-label",
                                   has_text=re.compile(f"^{re.escape(description)}$"))
        slider = panel.page.locator(".widget-slider").filter(has=label)  # relative to the row
        entry = panel.locator(".milab-slider-row").filter(has=slider).locator(
            ".widget-text input")
        entry.fill(value)
        entry.press("Enter")

    return operate


def type_into(description: str, value: str) -> Callable:
    """Action: type ``value`` into the text box ``description`` (a number box or a text
    field), then Enter."""

    def operate(panel) -> None:
        entry = labelled(panel, ".widget-text", description).locator("input")
        entry.fill(value)
        entry.press("Enter")

    return operate


def open_sub_tab(title: str) -> Callable:
    """Action: click the panel's own sub-tab ``title`` (CDVSE's "UCI table")."""
    return lambda panel: panel.locator(".lm-TabBar-tab", has_text=title).first.click()


def choose_option(description: str, index: int) -> Callable:
    """Action: choose option number ``index`` of the dropdown ``description``."""
    return lambda panel: (labelled(panel, ".widget-dropdown", description).locator("select")
                          .select_option(index=index))


def in_turn(*actions: Callable) -> Callable:
    """Action: the ``actions`` one after the other."""

    def operate(panel) -> None:
        for action in actions:
            action(panel)

    return operate


def chart_box(panel, chart: int):
    """The drawn plot (``svg.marks``) of live chart number ``chart`` of the panel."""
    return panel.locator(".vega-embed svg.marks").nth(chart)


def click_chart(chart: int, x: float, y: float) -> Callable:
    """Click: a click at (x, y), fractions of the width and height of live chart ``chart``."""

    def operate(panel) -> None:
        box = chart_box(panel, chart).bounding_box()
        panel.page.mouse.click(box["x"] + x * box["width"], box["y"] + y * box["height"])

    return operate


def click_mark(chart: int, selector: str, index: int = 0) -> Callable:
    """Click: the ``index``-th SVG element matching ``selector`` in live chart ``chart``."""
    return lambda panel: chart_box(panel, chart).locator(selector).nth(index).click(force=True)


def brush_chart(chart: int, start: tuple, end: tuple) -> Callable:
    """Click: drag a brush from ``start`` to ``end`` (fractions) in live chart ``chart``."""

    def operate(panel) -> None:
        box = chart_box(panel, chart).bounding_box()
        at = [(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
              for fx, fy in (start, end)]
        panel.page.mouse.move(*at[0])
        panel.page.mouse.down()
        panel.page.mouse.move(*at[1], steps=8)
        panel.page.mouse.up()

    return operate


@dataclass(frozen=True)
class Interaction:
    """What a user does in a panel (a click or brush in a live chart, a typed value, a
    dataset switch) and the panel's answer: text it must then show (``shows``) and text it
    must no longer show (``hides``) -- in the panel's visible text, so a sub-tab's message
    must not show on another sub-tab. An error box other than one holding ``error`` is a
    problem."""

    what: str
    act: Callable
    shows: str = ""
    hides: str = ""
    error: str = ""  # text of an error the interaction is meant to bring up


@dataclass(frozen=True)
class PanelStep:
    """One tab of the lab: the control to operate, the charts to find, then the
    interactions, in order, each with the answer the panel must give.

    ``vega`` and ``images`` count the live and PNG charts the panel shows after the action;
    ``redrawn`` how many of them the action draws anew.
    """

    tab: str
    control: str
    operate: Callable
    vega: int
    images: int
    redrawn: int
    interactions: tuple = ()

    @property
    def click(self) -> str:
        """The first interaction (a click or brush in a live chart), as other tours use it."""
        return self.interactions[0].what if self.interactions else ""

    @property
    def clicking(self) -> Callable | None:
        return self.interactions[0].act if self.interactions else None

    @property
    def shows(self) -> str:
        return self.interactions[0].shows if self.interactions else ""

    @property
    def slug(self) -> str:
        """The tab's short name: "intH", "CDVSE", ... (screenshot lab-<slug>.png)."""
        return self.tab.split()[0]


#: One step per tab, in the lab's order (milab_widgets.widgets.lab.LAB_PANELS).
STEPS = (
    # The same setting again draws the same charts (nothing to redraw): change the distance.
    PanelStep("intH", "distance = minimal, then Run (CV, f(α), heatmap of d_minH)",
              in_turn(choose_option("distance", 0), click_button("Run")),
              vega=2, images=0, redrawn=1, interactions=(
                  Interaction("a click on a heatmap cell (classifies that row's bag)",
                              click_mark(1, "g.mark-rect path", 2000), "done: classifying bag"),
                  Interaction("a click on a point of the f(α) curve (sets α by hand there)",
                              click_mark(0, "g.mark-symbol path", 8), "done: α = "),
                  Interaction("emptying the CV folds box (says which value stays)",
                              type_into("CV folds", ""), "box emptied: still using"),
              )),
    PanelStep("CDVSE", "slider M = 10 (refits SVDD and CDVSE)",
              set_slider("M", "10"), vega=3, images=0, redrawn=3, interactions=(
                  Interaction("a click in the CDVSE plot (the nearest sample outlined, its "
                              "distances listed)",
                              in_turn(click_chart(0, 0.8, 0.5), see_in_panel(ONE_OUTLINED_JS)),
                              "kept spheres"),
                  Interaction("typing ζ = 1e9 (refused, the largest ζ used, said beside)",
                              set_slider("ζ (kernel)", "1e9"), "refused: allowed 0.01 to"),
                  Interaction("a bad seed (the old plots stay, under a note)",
                              type_into("seed", "-3"), "below are of an earlier setting",
                              error="seed = -3 is out of range"),
                  Interaction("the seed fixed (the note goes)", type_into("seed", "0"),
                              "done: fitting", hides="earlier setting"),
                  Interaction("repetitions = 100 in the UCI tab (its own error)",
                              in_turn(open_sub_tab("UCI table"),
                                      type_into("repetitions", "100")),
                              "repetitions = 100 is out of range",
                              error="repetitions = 100 is out of range"),
                  Interaction("back on the playground (the UCI tab's error is not shown)",
                              open_sub_tab("2-D playground"), "done: fitting",
                              hides="repetitions = 100", error="repetitions = 100"),
                  Interaction("in the UCI tab, repetitions = 2 and Run protocol clicked three "
                              "times (greyed while it runs, so it runs once)",
                              in_turn(open_sub_tab("UCI table"), type_into("repetitions", "2"),
                                      click_while_running("Run protocol")),
                              "protocol on", error="is unavailable"),
                  Interaction("Run protocol again, Stop during its repetitions (ends within "
                              "seconds, the table stays)",
                              stop_while_running("Run protocol", "UCI repetitions"),
                              "protocol on", error="is unavailable"),
              )),
    PanelStep("MFSEF", "slider 'how many' experts = 6 (redraws the expert view)",
              set_slider("how many", "6"), vega=1, images=1, redrawn=1, interactions=(
                  Interaction("a click on a point of the metric curves (that method's features)",
                              click_mark(0, "g.mark-symbol path", 2), "features it selects"),
                  Interaction("subspace ratios 'abc' (reported when typed)",
                              type_into("subspace ratios", "abc"), "subspace ratios 'abc'",
                              error="subspace ratios 'abc'"),
                  Interaction("subspace ratios fixed (the error goes)",
                              type_into("subspace ratios", "0.6, 0.3, 0.1"), "ready",
                              hides="subspace ratios 'abc'"),
                  Interaction("dataset = 2nd (the feature count changes, said beside)",
                              choose_option("dataset", 1), "10% of its"),
                  Interaction("Run, Stop while the selectors are fitted",
                              stop_while_running("Run", "selectors on"),
                              "stopped: comparing selectors"),
              )),
    # Run refits the model and every baseline; 10 iterations instead of 300 keep it short.
    PanelStep("TwoViewMIC", "slider max iterations = 10, then Run (refits)",
              in_turn(set_slider("max iterations", "10"), click_button("Run")),
              vega=2, images=0, redrawn=2, interactions=(
                  Interaction("a click on a confusion-matrix cell (its bags)",
                              click_mark(1, "g.mark-rect path", 0), "bag(s) of class"),
                  Interaction("300 iterations, the other kernel, Run, Stop during the updates "
                              "(the last results stay)",
                              in_turn(set_slider("max iterations", "300"),
                                      press_toggle("minimax (Ker2)"),
                                      stop_while_running("Run", "iterations")),
                              "stopped: clustering", hides="Clustering with the current"),
                  Interaction("kernel and iterations set back to those of the results shown "
                              "(the stale note goes)",
                              in_turn(press_toggle("mixture (Ker1)"),
                                      set_slider("max iterations", "10")),
                              "ACC", hides="for earlier settings"),
              )),
    PanelStep("LSkMDDM", "dropdown 'colour by' = 2nd label (redraws the scatter)",
              choose_option("colour by", 1), vega=1, images=0, redrawn=1, interactions=(
                  Interaction("a brush over the scatter (label statistics of the rows inside)",
                              brush_chart(0, (0.15, 0.25), (0.4, 0.55)),
                              "held-out rows brushed"),
                  Interaction("colour by = 3rd label (the brush and its table go)",
                              choose_option("colour by", 2), "done: ",
                              hides="held-out rows brushed"),
                  Interaction("typing η = -5 (refused, 0.001 used, said beside)",
                              set_slider("η (ridge)", "-5"),
                              "η (ridge) = -5 refused: allowed 0.001 to 100; used 0.001."),
                  Interaction("typing dimension = 100000 (refused, the largest used)",
                              set_slider("dimension", "100000"),
                              "dimension = 100000 refused: allowed 2 to"),
                  Interaction("dataset = 1st (press Run; the dimension change said)",
                              choose_option("dataset", 0), "Press Run to embed"),
                  Interaction("time every solver, Stop after its first solver",
                              stop_while_running("Time solvers", "solvers"),
                              "stopped: timing every solver"),
              )),
)

#: Each interaction's name in the tour's output and the tests: "<tab>: <what>".
INTERACTIONS = tuple(f"{step.slug}: {act.what}" for step in STEPS for act in step.interactions)


def wait_panel(page, index: int, predicate_js: str, timeout_ms: float) -> dict:
    """Wait (up to ``timeout_ms``) until ``predicate_js(state)`` holds for panel ``index``;
    return the state that satisfied it (the kernel may turn busy again a moment later, on
    the widgets' own messages), or the state at the timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return page.wait_for_function(
            f"index => {{ const s = ({PANEL_STATE_JS})(index); "
            f"return s !== null && ({predicate_js})(s) && s; }}",
            arg=index, timeout=timeout_ms, polling=250).json_value()
    except PlaywrightTimeout:
        return page.evaluate(PANEL_STATE_JS, index)


def panel_problems(step: PanelStep, state: dict, after_action: bool) -> list[str]:
    """What is wrong with the panel's state, each prefixed with the tab's name."""
    if not state:
        return [f"{step.slug} panel: the lab widget is not in the page"]
    problems = [f"error shown: {error}" for error in state["errors"]]
    if not state["status"].startswith("done: ") or state["kernel"] != "idle":
        problems.append(f"status {state['status']!r}, kernel {state['kernel']!r}")
    problems += [f"widget output shows {text!r}" for text in state["bad"]]
    if state["widgets"] < 5:
        problems.append(f"{state['widgets']} ipywidgets views drawn, expected at least 5")
    for found, wanted, label in ((state["vega"], step.vega, "Vega charts"),
                                 (state["images"], step.images, "PNG charts")):
        if found < wanted:
            problems.append(f"{label}: {found} drawn, expected {wanted}")
    if after_action and state["redrawn"] < step.redrawn:
        problems.append(f"{step.control} redrew {state['redrawn']} chart(s), "
                        f"expected {step.redrawn}")
    return [f"{step.slug} panel: {p}" for p in problems]


def missing_data(state: dict) -> bool:
    """The panel only failed because a dataset is not in the data home."""
    return bool(state["errors"]) and all(MISSING_DATA in e for e in state["errors"])


def dataset_missing(name: str) -> bool:
    """Whether dataset ``name`` is registered and absent from this process's data home
    (the kernel's: it sees the same ``MILAB_DATA_HOME``)."""
    from milab_widgets.data.home import locate
    from milab_widgets.data.registry import get_spec
    from milab_widgets.exceptions import DatasetUnavailableError

    try:
        locate(get_spec(name))
    except DatasetUnavailableError:
        return True
    except Exception:  # noqa: BLE001 -- an unknown name is not "missing data"
        return False
    return False


def missing_data_problems(step: PanelStep, state: dict) -> list[str]:
    """What is wrong with what a user sees in a panel whose dataset is missing (see the
    module docstring), each prefixed with the tab's name."""
    problems = []
    if not state["status"].startswith("failed: ") or state["kernel"] != "idle":
        problems.append(f"status {state['status']!r}, kernel {state['kernel']!r}")
    if len(state["errors"]) != 1:
        problems.append(f"{len(state['errors'])} errors shown, expected one: {state['errors']}")
    message = state["errors"][0] if state["errors"] else ""
    named = re.search(r"Dataset '([^']+)' is not available", message)
    if not named:
        problems.append(f"the message does not name the missing dataset: {message!r}")
    else:
        name = named[1]
        if f"milab fetch {name}" not in message:
            problems.append(f"the message does not say `milab fetch {name}`: {message!r}")
        if not dataset_missing(name):
            problems.append(f"says dataset {name!r} is missing, but the data home holds it")
        if state["dataset"] != f"{name} (missing)":
            problems.append(f"the dataset dropdown reads {state['dataset']!r}, expected "
                            f"{name + ' (missing)'!r}")
    if state["tracebacksShown"]:
        problems.append(f"a traceback is shown ({state['tracebacksShown']})")
    problems += [f"widget output shows {text!r}" for text in state["bad"]]
    if state["widgets"] < 5:
        problems.append(f"{state['widgets']} ipywidgets views drawn, expected at least 5")
    return [f"{step.slug} panel (data missing): {p}" for p in problems]


def screenshot_lab(page, path: Path) -> None:
    """One PNG of the whole lab widget (tab bar and open panel)."""
    lab = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab").first
    hidden = lab.evaluate(
        "el => { el.scrollIntoView({block: 'start'});"
        " const s = el.closest('.jp-WindowedPanel-outer');"
        " return el.getBoundingClientRect().bottom - s.getBoundingClientRect().bottom; }")
    grow_viewport(page, hidden)
    lab.screenshot(path=str(path))
    page.set_viewport_size(VIEWPORT)


def drawn_js(step: PanelStep) -> str:
    """JavaScript condition: the panel shows all the charts of ``step``."""
    return f"s.vega >= {step.vega} && s.images >= {step.images}"


def open_tab(page, index: int, step: PanelStep, timeout_ms: float) -> tuple[dict, list[str]]:
    """Click tab ``index`` and wait until its panel is built and drawn (or shows an error);
    return the panel's state and what is wrong with it."""
    lab = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab").first
    tab = lab.locator(".widget-tab-bar").first.locator(".lm-TabBar-tab").nth(index)
    title = tab.inner_text().strip()
    if title != step.tab:
        return {}, [f"tab {index} reads {title!r}, the tour expects {step.tab!r}"]
    tab.click()
    state = wait_panel(page, index, f"s => {SETTLED} && (s.errors.length > 0 || "
                       f"{drawn_js(step)})", timeout_ms)
    return state, panel_problems(step, state, after_action=False)


def operate(page, index: int, step: PanelStep, timeout_ms: float) -> list[str]:
    """Operate the step's control in panel ``index``; wait for its charts to be redrawn;
    return what is wrong with the panel afterwards."""
    page.evaluate(MARK_CHARTS_JS, index)
    lab = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab").first
    step.operate(lab.locator(".widget-tab-contents").first.locator(":scope > *").nth(index))
    state = wait_panel(page, index, f"s => {SETTLED} && (s.errors.length > 0 || "
                       f"({drawn_js(step)} && s.redrawn >= {step.redrawn}))", timeout_ms)
    print(f"lab_tour: {step.slug}: {step.control}: {state['status']!r}; "
          f"{state['vega']} Vega + {state['images']} PNG chart(s), "
          f"{state['redrawn']} redrawn, {state['widgets']} widget views")
    return panel_problems(step, state, after_action=True)


def interact(page, index: int, step: PanelStep, act: Interaction,
             timeout_ms: float) -> list[str]:
    """Do ``act`` in panel ``index``; wait until the panel shows ``act.shows`` and no longer
    ``act.hides``; print "lab_tour: <tab>: <what>: ok" or its problems."""
    lab = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab").first
    panel = lab.locator(".widget-tab-contents").first.locator(":scope > *").nth(index)
    act.act(panel)
    hidden = f"!s.text.includes({act.hides!r})" if act.hides else "true"
    answered = f"s.text.includes({act.shows!r}) && {hidden}"
    state = wait_panel(page, index, f"s => {SETTLED_OR_READY} && {answered}", timeout_ms)
    problems = [f"error shown: {error}" for error in state["errors"]
                if not (act.error and act.error in error)]
    if act.shows not in state["text"]:
        problems.append(f"{act.what}: the panel did not show {act.shows!r}")
    if act.hides and act.hides in state["text"]:
        problems.append(f"{act.what}: the panel still shows {act.hides!r}")
    problems += duplicate_svg_ids(page)
    print(f"lab_tour: {step.slug}: {act.what}: "
          f"{'ok' if not problems else 'FAILED'} ({state['status']!r})")
    return [f"{step.slug} panel: {p}" for p in problems]


def duplicate_svg_ids(page) -> list[str]:
    """Element ids used more than once in the page's charts (url(#id) then paints with
    another chart's gradient or clip path: TwoViewMIC's legend was blank)."""
    duplicates = page.evaluate("""() => {
      const ids = [...document.querySelectorAll('.vega-embed svg [id]')].map(e => e.id);
      return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    }""")
    return [f"SVG id {name!r} is used by more than one chart element" for name in duplicates]


def unavailable(state: dict) -> bool:
    """The panel only failed for missing data, and this run allows that (a fresh install;
    not CI, where ``MILAB_REQUIRE_DATA=1``)."""
    return bool(state) and missing_data(state) and os.environ.get("MILAB_REQUIRE_DATA") != "1"


def tour_panel(page, index: int, step: PanelStep, out: Path, timeout_ms: float) -> list[str]:
    """Open tab ``index``, operate its control, do its interactions, check the panel;
    screenshot the lab after the first interaction (``lab-<tab>.png``, or at the end when
    it was not reached) and after the last (``lab-<tab>-end.png``)."""
    state, problems = open_tab(page, index, step, timeout_ms)
    shot = False
    if unavailable(state):
        print(f"lab_tour: {step.slug}: not operated, data unavailable: {state['errors'][0]}")
        problems = missing_data_problems(step, state)
    elif not problems:
        problems = operate(page, index, step, timeout_ms)
        for number, act in enumerate(step.interactions):
            if problems:
                break
            problems = interact(page, index, step, act, timeout_ms)
            if number == 0 and not problems:  # the documentation's picture: after the
                screenshot_lab(page, out / f"lab-{step.slug}.png")  # first click or brush
                shot = True
        if len(step.interactions) > 1:
            screenshot_lab(page, out / f"lab-{step.slug}-end.png")  # after all of them
    if not shot:
        screenshot_lab(page, out / f"lab-{step.slug}.png")
    return problems


def tour_lab(page, out: Path, timeout_ms: float) -> list[str]:
    """Operate every panel of the lab open in ``page`` (see the module docstring)."""
    problems = []
    for index, step in enumerate(STEPS):
        problems += tour_panel(page, index, step, out, timeout_ms)
    return problems


def main(argv: list[str] | None = None) -> int:
    """Run the tour from the command line; return the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="folder for the screenshots (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds to wait for each step (default: %(default)s)")
    args = parser.parse_args(argv)
    return check_and_report(INDEX, args.out, AFTER_RUN_ALL, args.timeout, tour=tour_lab)


if __name__ == "__main__":
    sys.exit(main())
