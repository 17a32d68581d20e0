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

One PNG per panel (``lab-<tab>.png``: the lab widget with that tab open, after the action)
goes to ``--out``. The kernel sees the caller's environment: set ``MILAB_DATA_HOME`` to a
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
    status: texts.find(t => /^(ready|working: |done: |failed: )/.test(t)) || '',
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


def labelled(panel, kind: str, description: str):
    """The ipywidget of CSS class ``kind`` whose description label reads ``description``."""
    label = panel.page.locator("label.widget-label",
                               has_text=re.compile(f"^{re.escape(description)}$"))
    return panel.locator(kind).filter(has=label)


def click_button(text: str) -> Callable:
    """Action: click the button reading ``text``."""
    return lambda panel: panel.locator("button.widget-button", has_text=text).click()


def set_slider(description: str, value: str) -> Callable:
    """Action: type ``value`` into the readout of the slider ``description``, then Enter."""

    def operate(panel) -> None:
        readout = labelled(panel, ".widget-slider", description).locator(".widget-readout")
        readout.fill(value)
        readout.press("Enter")

    return operate


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
class PanelStep:
    """One tab of the lab: the control to operate, the charts to find, and one click in a
    live chart with the text it must bring into the panel.

    ``vega`` and ``images`` count the live and PNG charts the panel shows after the action;
    ``redrawn`` how many of them the action draws anew.
    """

    tab: str
    control: str
    operate: Callable
    vega: int
    images: int
    redrawn: int
    click: str = ""
    clicking: Callable | None = None
    shows: str = ""

    @property
    def slug(self) -> str:
        """The tab's short name: "intH", "CDVSE", ... (screenshot lab-<slug>.png)."""
        return self.tab.split()[0]


#: One step per tab, in the lab's order (milab_widgets.widgets.lab.LAB_PANELS).
STEPS = (
    # The same setting again draws the same charts (nothing to redraw): change the distance.
    PanelStep("intH", "distance = minimal, then Run (CV, f(α), heatmap of d_minH)",
              in_turn(choose_option("distance", 0), click_button("Run")),
              vega=2, images=0, redrawn=1,
              click="a click on a heatmap cell (classifies that row's bag)",
              clicking=click_mark(1, "g.mark-rect path", 2000),
              shows="done: classifying bag"),
    PanelStep("CDVSE", "slider M = 10 (refits SVDD and CDVSE)",
              set_slider("M", "10"), vega=3, images=0, redrawn=3,
              click="a click in the CDVSE plot (the nearest sample's distances)",
              clicking=click_chart(0, 0.8, 0.5), shows="kept spheres"),
    PanelStep("MFSEF", "slider 'how many' experts = 6 (redraws the expert view)",
              set_slider("how many", "6"), vega=1, images=1, redrawn=1,
              click="a click on a point of the metric curves (that method's features)",
              clicking=click_mark(0, "g.mark-symbol path", 2), shows="features it selects"),
    # Run refits the model and every baseline; 10 iterations instead of 300 keep it short.
    PanelStep("TwoViewMIC", "slider max iterations = 10, then Run (refits)",
              in_turn(set_slider("max iterations", "10"), click_button("Run")),
              vega=2, images=0, redrawn=2,
              click="a click on a confusion-matrix cell (its bags)",
              clicking=click_mark(1, "g.mark-rect path", 0), shows="bag(s) of class"),
    PanelStep("LSkMDDM", "dropdown 'colour by' = 2nd label (redraws the scatter)",
              choose_option("colour by", 1), vega=1, images=0, redrawn=1,
              click="a brush over the scatter (label statistics of the rows inside)",
              clicking=brush_chart(0, (0.15, 0.25), (0.4, 0.55)),
              shows="held-out rows brushed"),
)


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


def click_in_chart(page, index: int, step: PanelStep, timeout_ms: float) -> list[str]:
    """Click in the panel's live chart; wait until the panel shows ``step.shows``."""
    lab = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab").first
    panel = lab.locator(".widget-tab-contents").first.locator(":scope > *").nth(index)
    step.clicking(panel)
    state = wait_panel(page, index, f"s => {SETTLED} && s.text.includes({step.shows!r})",
                       timeout_ms)
    print(f"lab_tour: {step.slug}: {step.click}: {state['status']!r}")
    problems = [f"error shown: {error}" for error in state["errors"]]
    if step.shows not in state["text"]:
        problems.append(f"{step.click} did not show {step.shows!r}")
    return [f"{step.slug} panel: {p}" for p in problems]


def tour_panel(page, index: int, step: PanelStep, out: Path, timeout_ms: float) -> list[str]:
    """Open tab ``index``, operate its control, click in its live chart, check the panel,
    screenshot the lab."""
    state, problems = open_tab(page, index, step, timeout_ms)
    if state and missing_data(state) and os.environ.get("MILAB_REQUIRE_DATA") != "1":
        print(f"lab_tour: {step.slug}: not operated, data unavailable: {state['errors'][0]}")
        problems = missing_data_problems(step, state)
    elif not problems:
        problems = operate(page, index, step, timeout_ms)
        if not problems and step.clicking is not None:
            problems = click_in_chart(page, index, step, timeout_ms)
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
