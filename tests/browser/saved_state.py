"""A notebook with the lab, saved in JupyterLab with saved widget state on, and reopened.

Usage (from the project root)::

    python -m tests.browser.saved_state [--out DIR] [--timeout S]

JupyterLab (127.0.0.1, every other request blocked) runs with the widget manager's
"Save Jupyter widget state in notebooks" on -- what ``binder/postBuild`` sets for Binder and
docs/lab.md tells a user to set -- through the user-settings file a user would write. A
notebook holding ``lab()`` is run, its first panel (intH on the shipped Musk1) drawn and
refitted, every other tab opened, 50 cells of intH's heatmap clicked (each redraws the bag's
table), and saved with Ctrl+S. Then:

* the saved file holds the widget state, with the model the lab cell displays, and one copy
  of Vega that the live charts share; no model that is off screen (none a replaced view
  left behind); at most 5 MB;
* its kernel is shut down, and the notebook is opened again in a new page: JupyterLab starts
  a new kernel, and the lab shows from the saved state -- its five tabs and the intH
  panel's two charts drawn, no "Error displaying widget" / "Loading widget" -- under the
  lab's note that it is not live and how to bring it back; its "copy as code" says the
  kernel has not answered (``saved-lab-new-kernel.png``);
* the same notebook without its widget state (as JupyterLab saves it with the setting off,
  its default), reopened with a new kernel: "Error displaying widget: model not found",
  and above it the lab's note on how to bring it back (``saved-lab-no-state.png``);
* the saved notebook opened with every kernel request blocked: the note shows, with the
  snapshot of all five panels, the intH panel as it was saved -- after a refit (distance = minimal, Run) and
  a click on a heatmap cell made before the save -- its two charts as images carried in the
  page and every headline text and dropdown value of the live panel
  (``saved-lab-no-kernel.png``);
* a copy of the saved notebook made untrusted (its signature removed from the server's
  trust database, as for a notebook received from someone else), opened with no kernel:
  JupyterLab sanitises its HTML (the note's style rule is gone) and still shows the note and
  the same snapshot, and nothing is requested outside 127.0.0.1
  (``saved-lab-untrusted.png``);
* the saved notebook rendered by nbconvert's HTML exporter (what nbviewer uses) and opened
  in Chromium with every outside request blocked (the page's require.js, MathJax and
  widget manager from CDNs, printed): the note and the same snapshot show
  (``saved-lab-nbconvert.png``).

Before the save, while the lab is live, the note must be hidden. And an executed report
notebook (``reports/intH/intH.ipynb``, written by ``milab reproduce``), trusted and opened
with a kernel, draws its intH panel from the widget state stored in it (its two live
charts; ``report-intH-trusted.png``).

The live widgets cannot draw with no kernel at all (hence the snapshot): JupyterLab's widget
manager (@jupyter-widgets/jupyterlab-manager 5.0) reads a notebook's saved state only after
a kernel has connected (its ``restoreWidgets`` awaits the session, asks the kernel for its
widgets, and skips the notebook's state when that fails), so with no kernel every widget
cell shows "Loading widget..." for good -- upstream: jupyter-widgets/ipywidgets#3773,
jupyterlab/jupyterlab#15361. docs/lab.md says so.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
import tempfile
import urllib.request
from pathlib import Path
from urllib.parse import quote

import nbformat

from milab_widgets.widgets.lab import LAB_PANELS
from milab_widgets.widgets.revive import revive_note
from tests.browser.check_jupyterlab import (
    BAD_OUTPUT_TEXT,
    CHROMIUM,
    CHROMIUM_ARGS,
    DEFAULT_OUT,
    ROOT,
    SHOWN_CELL,
    VIEWPORT,
    Expect,
    block_outside_requests,
    copy_cleared,
    dismiss_kernel_dialogs,
    jupyter_lab,
    lab_environment,
    run_all_cells,
    save_notebook,
    screenshot_notebook,
    state_problems,
    wait_until_done,
)
from tests.browser.copying import ANSWER
from tests.browser.lab_tour import (
    STEPS,
    choose_option,
    click_button,
    click_mark,
    in_turn,
    missing_data_problems,
    open_tab,
    unavailable,
)

WIDGET_MANAGER = "@jupyter-widgets/jupyterlab-manager/plugin"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: An executed report notebook (milab reproduce) whose panel cell holds its stored state.
REPORT = ROOT / "reports" / "intH" / "intH.ipynb"
TABS = tuple(LAB_PANELS)  # the lab's tabs, one per registered paper
#: More characters than any module but vl-convert's Vega bundle (0.9 MB).
BUNDLE_SIZE = 100_000
#: Clicks on intH's heatmap before the save, each redrawing the clicked bag's table.
REDRAWS = 50
#: Heatmap cells apart between two clicks: more than Musk1's 92 bags, so each click lands on
#: another row, another bag (a click on the bag shown changes nothing, redraws nothing).
CELL_STRIDE = 97
#: The largest saved lab accepted (issue 33: 11.25 MB, growing with each redraw).
MAX_SAVED_BYTES = 5_000_000
#: After Run All: the lab and its intH panel with its two live charts.
AFTER_RUN = Expect(charts=2, widgets=10, widget_charts=2)

#: The notebook's state in the page (``ROOT``: the element holding the notebook's cells).
NOTEBOOK_STATE_JS = r"""() => {
  const nb = document.querySelector('ROOT');
  if (!nb) return null;
  const drawn = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const lab = nb.querySelector('.widget-tab');
  const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
  return {
    kernel: indicator ? indicator.getAttribute('data-status') : 'unknown',
    tabs: lab ? [...lab.querySelector('.widget-tab-bar').querySelectorAll('.lm-TabBar-tab')]
                  .map(t => t.innerText.trim()) : [],
    charts: [...nb.querySelectorAll('.jupyter-widgets .vega-embed svg.marks')].filter(drawn).length,
    bad: BAD.filter(b => nb.innerText.includes(b)),
    text: lab ? lab.innerText : '',
    notes: [...nb.querySelectorAll('.milab-revive-text')].filter(drawn).map(n => n.innerText.trim()),
    snapshots: [...nb.querySelectorAll('.milab-snapshot')].filter(drawn).map(n => ({
      text: n.innerText.replace(/\s+/g, ' '),
      images: [...n.querySelectorAll('img')].filter(i => i.naturalWidth > 0 && drawn(i)).length,
      sizes: [...n.querySelectorAll('img')].map(i => [i.naturalWidth, i.naturalHeight]),
      remote: [...n.querySelectorAll('img')].filter(i => !i.src.startsWith('data:')).length})),
    styles: [...nb.querySelectorAll('.jp-OutputArea-output style')].length,
    controls: lab ? [...lab.querySelectorAll('.widget-dropdown')].filter(drawn).map(d =>
      `${d.querySelector('.widget-label').innerText.trim()}: ${d.querySelector('select')
        .selectedOptions[0].text}`.replace(/\s+/g, ' ')) : [],
    saved: [...nb.querySelectorAll('.milab-snapshot')].map(n => n.textContent).join(' '),
    headlines: lab ? [...lab.querySelectorAll('.widget-html-content')].filter(drawn)
      .map(n => n.innerText.replace(/\s+/g, ' ').trim()).filter(t => /[0-9]/.test(t)) : [],
    modelNotFound: nb.innerText.includes('Error displaying widget: model not found'),
  };
}""".replace("BAD", json.dumps(BAD_OUTPUT_TEXT))
REOPENED_JS = NOTEBOOK_STATE_JS.replace("ROOT",
                                        ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
#: The same in a page nbconvert's HTML exporter wrote (its body holds the cells).
EXPORTED_JS = NOTEBOOK_STATE_JS.replace("ROOT", "body")


def lab_notebook(folder: Path) -> Path:
    """A user's notebook: one cell, ``lab()``."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("from milab_widgets import lab\n\nlab()")]
    path = folder / "my-lab.ipynb"
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return copy_cleared(path, folder)


def turn_on_saved_state(env: dict) -> None:
    """Write the user setting a user would write (Settings > Jupyter Widgets)."""
    path = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / f"{WIDGET_MANAGER}.jupyterlab-settings"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"saveState": True}))


def saved_state_problems(path: Path) -> tuple[list[str], int]:
    """What the saved file lacks (widget state, the lab's model in it) or holds twice (the
    charts' Vega bundle: one copy, shared, see milab_widgets/widgets/live.py); its state's
    size."""
    notebook = nbformat.read(path, as_version=4)
    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    size = len(json.dumps(state))
    shown = [output["data"][WIDGET_VIEW]["model_id"] for output in notebook.cells[0].outputs
             if WIDGET_VIEW in output.get("data", {})]
    problems = [] if state else ["the saved notebook holds no widget state"]
    if not shown:
        problems.append("the saved lab cell has no widget view output")
    problems += [f"the lab's model {model} is not in the saved state" for model in shown
                 if model not in state]
    off_screen = off_screen_models(state, shown)
    names = sorted({state[model].get("model_name", "?") for model in off_screen})
    print(f"saved_state: {len(state)} saved models, {len(off_screen)} off screen {names}")
    if off_screen:
        problems.append(f"the saved state holds {len(off_screen)} model(s) no longer on "
                        f"screen: {names}")
    if path.stat().st_size > MAX_SAVED_BYTES:
        problems.append(f"the saved lab is {path.stat().st_size / 1e6:.2f} MB after "
                        f"{REDRAWS} redraws, more than {MAX_SAVED_BYTES / 1e6:.0f} MB")
    modules = sorted((len(model["state"]["_esm"]) for model in state.values()
                      if "_esm" in model.get("state", {})), reverse=True)
    print(f"saved_state: the saved state's ES modules (anywidget), in characters: {modules}")
    if sum(length > BUNDLE_SIZE for length in modules) != 1:
        problems.append(f"the saved state holds {sum(length > BUNDLE_SIZE for length in modules)}"
                        " Vega bundles, expected one shared by the charts")
    return problems, size


def shut_down_sessions(base: str, token: str) -> list[str]:
    """Shut every session (and its kernel) down, as closing the notebook and its kernel
    does; return the kernel ids that were running."""
    headers = {"Authorization": f"token {token}"}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/api/sessions",
                                                       headers=headers)) as answer:
        sessions = json.load(answer)
    for session in sessions:
        urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/sessions/{session['id']}", method="DELETE", headers=headers)).close()
    return [session["kernel"]["id"] for session in sessions]


def reopened_problems(state: dict | None) -> list[str]:
    """What is wrong with the lab reopened from its saved state (tabs, the intH panel's
    charts, bad outputs, the note on how to bring it back)."""
    if not state:
        return ["the reopened notebook never appeared"]
    problems = [f"the reopened notebook shows {text!r}" for text in state["bad"]]
    if tuple(state["tabs"]) != TABS:
        problems.append(f"the reopened lab's tabs read {state['tabs']}, expected {list(TABS)}")
    if state["charts"] < AFTER_RUN.widget_charts:
        problems.append(f"the reopened intH panel draws {state['charts']} chart(s), expected "
                        f"{AFTER_RUN.widget_charts}")
    return problems + note_problems(state, shown=True)


def note_problems(state: dict, shown: bool) -> list[str]:
    """The note on bringing the lab back must show (``shown``) or be hidden."""
    notes = state["notes"]
    if shown and (len(notes) != 1 or revive_note("the lab") != notes[0]):
        return [f"the note on bringing the lab back is not shown: {notes}"]
    if not shown and notes:
        return [f"the live lab shows the note meant for a lab that is not live: {notes}"]
    return []


def trusted_copy(notebook: Path, folder: Path, data_dir: Path) -> Path:
    """``notebook`` copied into ``folder``, signed as trusted (as ``jupyter trust`` does with
    the server's data directory ``data_dir``)."""
    from nbformat.sign import NotebookNotary

    saved = nbformat.read(notebook, as_version=4)
    NotebookNotary(data_dir=str(data_dir)).sign(saved)
    copy = folder / notebook.name
    nbformat.write(saved, copy)
    return copy


def report_problems(state: dict | None) -> list[str]:
    """What is wrong with the executed report's panel cell shown from its stored state."""
    if not state:
        return ["the executed report notebook never appeared"]
    problems = [f"the trusted report shows {text!r}" for text in state["bad"]]
    if state["charts"] < AFTER_RUN.widget_charts:
        problems.append(f"the trusted report's intH panel draws {state['charts']} chart(s) from "
                        f"its stored state, expected {AFTER_RUN.widget_charts}")
    return problems


def without_saved_state(notebook: Path, data_dir: Path) -> Path:
    """A copy of ``notebook`` as JupyterLab saves it with saved widget state off (its
    default): no widget state in the metadata, trusted as the user's own save is (signed
    with the key in the server's Jupyter data directory ``data_dir``)."""
    from nbformat.sign import NotebookNotary

    copy = notebook.with_name(f"{notebook.stem}-no-state.ipynb")
    saved = nbformat.read(notebook, as_version=4)
    saved.metadata.pop("widgets")
    NotebookNotary(data_dir=str(data_dir)).sign(saved)
    nbformat.write(saved, copy)
    return copy


def run_and_save(page, url: str, notebook: Path, timeout_ms: float, out: Path
                 ) -> tuple[list[str], dict | None]:
    """Run the lab notebook, check its note is hidden while it is live, save it: the
    problems and the live lab's state as saved (its ``headlines`` and ``controls``). When
    Run All does not end with the live lab drawn: what the page showed instead (printed,
    and ``saved-lab-run-failed.png``), no state and no save."""
    run_all_cells(page, url, timeout_ms)
    ran = wait_until_done(page, AFTER_RUN, timeout_ms)
    if failed := state_problems(ran, AFTER_RUN):
        screenshot_notebook(page, out / "saved-lab-run-failed.png")
        print(f"saved_state: Run All failed; page state: {ran}")
        return [f"Run All of the lab: {problem}" for problem in failed], None
    state, problems = refit_and_click(page, timeout_ms)
    problems += note_problems(state, shown=False)
    if state["snapshots"]:
        problems.append("the live lab shows its snapshot")
    save_notebook(page, 30_000)
    saved, size = saved_state_problems(notebook)
    print(f"saved_state: saved widget state {size / 1e6:.2f} MB "
          f"({notebook.stat().st_size / 1e6:.2f} MB file)")
    return problems + saved, state


def refit_and_click(page, timeout_ms: float) -> tuple[dict, list[str]]:
    """In the live lab, as a user: intH's distance = minimal and Run (a refit); every other
    tab opened (its panel built and drawn); back on intH, :data:`REDRAWS` clicks on heatmap
    cells (each classifies its bag and redraws the bag's table); wait until the snapshot
    beside the lab (hidden while live) has caught up with the last click. The lab's state
    then, and what was wrong on the way."""
    lab = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab").first
    in_turn(choose_option("distance", 0), click_button("Run"))(lab)
    wait_reopened(page, "s.text.includes('done: running')", timeout_ms)
    problems = []
    for index in range(1, len(TABS)):
        opened, found = open_tab(page, index, STEPS[index], timeout_ms)
        problems += missing_data_problems(STEPS[index], opened) if unavailable(opened) else found
    lab.locator(".widget-tab-bar").first.locator(".lm-TabBar-tab").nth(0).click()
    for click in range(REDRAWS):
        click_mark(1, "g.mark-rect path", CELL_STRIDE * click)(lab)  # a new bag each time
        page.wait_for_timeout(100)
    state = wait_reopened(page, "s.text.includes('done: classifying bag') && "
                          "s.saved.includes('done: classifying bag') && "
                          f"s.saved.includes({json.dumps(snapshot_of_every_tab())})", timeout_ms)
    return state, problems


def snapshot_of_every_tab() -> str:
    """The caption of a snapshot holding every panel of the lab."""
    return f"snapshot of {', '.join(TABS[:-1])} and {TABS[-1]} as saved"


def off_screen_models(state: dict, shown: list[str]) -> list[str]:
    """The saved models that no model on screen holds: not reachable from the lab cell's
    view (``shown``) through a model's references (``IPY_MODEL_<id>``: children, layout,
    style) or an Output's widget views."""
    reached, todo = set(), list(shown)
    while todo:
        model = todo.pop()
        if model in reached or model not in state:
            continue
        reached.add(model)
        text = json.dumps(state[model].get("state", {}))
        todo += re.findall(r"IPY_MODEL_([0-9a-f]{32})", text)
        todo += re.findall(r'"model_id": "([0-9a-f]{32})"', text)
    return sorted(set(state) - reached)


def snapshot_problems(state: dict, live: dict) -> list[str]:
    """The saved lab opened where it cannot draw must show its snapshot: the charts drawn
    as images carried in the page (data URIs), every headline (a text of the live panel with
    a number) and every dropdown's value as the live panel showed them before the save."""
    if len(state["snapshots"]) != 1:
        return [f"the lab opened with no kernel shows {len(state['snapshots'])} snapshots"]
    shown = state["snapshots"][0]
    problems = [f"the snapshot lacks the live panel's {line!r}" for line in live["headlines"]
                if line not in shown["text"]]
    problems += [f"the snapshot lacks the live control {control!r}"
                 for control in live["controls"] if control not in shown["text"]]
    if shown["images"] < AFTER_RUN.widget_charts:
        problems.append(f"the snapshot draws {shown['images']} chart image(s), expected "
                        f"{AFTER_RUN.widget_charts}")
    if shown["remote"]:
        problems.append(f"{shown['remote']} snapshot image(s) are not carried in the page")
    if snapshot_of_every_tab() not in shown["text"]:
        problems.append("the snapshot does not say what it is")
    return problems


def untrusted_copy(notebook: Path, data_dir: Path) -> tuple[Path, list[str]]:
    """A copy of the saved ``notebook`` as one received from someone else: its signature
    removed from the trust database of the server (``data_dir``), so JupyterLab opens it
    untrusted and sanitises its HTML outputs. Also what is wrong with that: the save must
    have been trusted (JupyterLab signs what its own kernel produced), the copy not."""
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary(data_dir=str(data_dir))
    saved = nbformat.read(notebook, as_version=4)
    problems = [] if notary.check_signature(saved) else [
        "the notebook JupyterLab saved is not trusted: the untrusted case proves nothing"]
    notary.unsign(saved)
    copy = notebook.with_name(f"{notebook.stem}-untrusted.ipynb")
    nbformat.write(saved, copy)
    if notary.check_signature(nbformat.read(copy, as_version=4)):
        problems.append("the copy meant to be untrusted is still trusted")
    return copy, problems


def sanitised_problems(state: dict, trusted: bool) -> list[str]:
    """A trusted notebook keeps the note's style rule (which hides it beside a live lab);
    JupyterLab's sanitiser drops it from an untrusted one."""
    if trusted and not state["styles"]:
        return ["the trusted notebook lost the note's style rule"]
    if not trusted and state["styles"]:
        return [f"the untrusted notebook kept {state['styles']} style element(s): it was not "
                "sanitised, so the untrusted case was not tried"]
    return []


def exported_page(notebook: Path) -> Path:
    """``notebook`` rendered by nbconvert's HTML exporter (its default "lab" template: what
    nbviewer renders with), written beside it."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter().from_filename(str(notebook))
    page = notebook.with_suffix(".html")
    page.write_text(body, encoding="utf-8")
    return page


def open_exported(browser, page_file: Path, shot: Path) -> tuple[dict | None, list[str]]:
    """Open nbconvert's page in Chromium with every request outside the page blocked (its
    scripts from CDNs: require.js, MathJax, the widgets' HTML manager); screenshot it. The
    page's state, and the requests blocked."""
    page = browser.new_page(viewport=VIEWPORT)
    blocked: list[str] = []
    block_outside_requests(page, blocked)
    page.set_content(page_file.read_text(encoding="utf-8"), wait_until="load")
    state = page.evaluate(EXPORTED_JS)
    page.screenshot(path=str(shot), full_page=True)
    page.close()
    return state, blocked


def wait_reopened(page, condition_js: str, timeout_ms: float) -> dict | None:
    """The notebook's state once its kernel is idle and ``condition_js`` holds (or at the
    timeout)."""
    with contextlib.suppress(Exception):  # the caller reports from the state
        page.wait_for_function(
            f"() => {{ const s = ({REOPENED_JS})(); return s && s.kernel === 'idle' "
            f"&& ({condition_js}); }}", timeout=min(timeout_ms, 120_000), polling=250)
    return page.evaluate(REOPENED_JS)


def reopen(browser, url: str, condition_js: str, shot: Path, timeout_ms: float,
           problems: list[str], then=None) -> dict | None:
    """Open ``url`` in a new page (JupyterLab starts a new kernel); when the notebook is
    shown, do ``then(page, timeout_ms)`` (its problems are added); screenshot it."""
    page = browser.new_page(viewport=VIEWPORT)
    block_outside_requests(page, problems)
    page.goto(url)
    state = wait_reopened(page, condition_js, timeout_ms)
    if then is not None and state:
        problems += then(page, timeout_ms)
    screenshot_notebook(page, shot)
    page.close()
    return state


def copy_without_its_kernel(page, timeout_ms: float) -> list[str]:
    """Click "copy as code" in the lab drawn from the saved state: no kernel holds it, so
    the line beside the button must say the kernel has not answered (not wait silently)."""
    lab = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab").first
    lab.locator("button", has_text="copy as code").first.click()
    answer = lab.locator(ANSWER, has_text="no answer from the kernel yet").first
    try:
        answer.wait_for(state="visible", timeout=min(timeout_ms, 60_000))
    except Exception:  # noqa: BLE001 -- reported below
        return ["'copy as code' in the reopened lab, whose kernel is gone, did not say that "
                f"the kernel has not answered: {lab.locator(ANSWER).first.inner_text()!r}"]
    print(f"saved_state: copy as code in the reopened lab: {answer.inner_text()!r}")
    return []


def reopen_without_kernel(browser, url: str, shot: Path, timeout_ms: float,
                          problems: list[str]) -> dict | None:
    """Open ``url`` in a new page with every kernel and session request blocked (no kernel
    can start); screenshot it."""
    page = browser.new_page(viewport=VIEWPORT)
    block_outside_requests(page, problems)
    page.route("**/api/kernels**", lambda route: route.abort())
    page.route("**/api/sessions**", lambda route: route.abort())
    page.goto(url)
    page.wait_for_selector(SHOWN_CELL, timeout=timeout_ms)
    with contextlib.suppress(Exception):  # the caller reports from the state
        page.wait_for_function(f"() => {{ const s = ({REOPENED_JS})(); return s && "
                               f"s.snapshots.length > 0 && s.snapshots[0].images > 0; }}",
                               timeout=min(timeout_ms, 60_000), polling=250)
    for _ in range(4):  # JupyterLab asks again for a kernel after each failed attempt
        dismiss_kernel_dialogs(page)
    state = page.evaluate(REOPENED_JS)
    screenshot_notebook(page, shot)
    page.close()
    return state


def run(out: Path, timeout: float) -> list[str]:
    """Save the lab with saved widget state on; reopen it with a new kernel, and its copy
    without the state; the problems found."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    timeout_ms = timeout * 1000
    with tempfile.TemporaryDirectory(prefix="milab-saved-state-") as tmp_name:
        tmp = Path(tmp_name)
        notebook = lab_notebook(tmp / "root")
        data_dir = tmp / "data"
        env = dict(lab_environment(tmp), JUPYTER_DATA_DIR=str(data_dir))
        turn_on_saved_state(env)
        with jupyter_lab(notebook.parent, env, tmp / "jupyter.log") as (base, token):
            url = f"{base}/lab/tree/{{}}?token={token}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                page = browser.new_page(viewport=VIEWPORT)
                block_outside_requests(page, problems)
                saved, live = run_and_save(page, url.format(quote(notebook.name)),
                                           notebook, timeout_ms, out)
                if live is None:
                    return saved
                print(f"saved_state: live headlines: {live['headlines']}; controls: "
                      f"{live['controls']}")
                problems += saved
                page.close()
                first = set(shut_down_sessions(base, token))
                state = reopen(browser, url.format(quote(notebook.name)),
                               "s.tabs.length > 0 && s.charts >= 2",
                               out / "saved-lab-new-kernel.png", timeout_ms, problems,
                               then=copy_without_its_kernel)
                print("saved_state: reopened with its saved state: "
                      f"{dict(state or {}, text='...')}")
                problems += reopened_problems(state)
                if not (new := set(shut_down_sessions(base, token))) or new & first:
                    problems.append("the notebook was not reopened with a new kernel")
                stateless = without_saved_state(notebook, data_dir)
                state = reopen(browser, url.format(quote(stateless.name)), "s.modelNotFound",
                               out / "saved-lab-no-state.png", timeout_ms, problems)
                print(f"saved_state: reopened without saved state: {dict(state or {}, text='...')}")
                problems += note_problems(state, shown=True) if state else [
                    "the notebook saved without state never appeared"]
                report = trusted_copy(REPORT, notebook.parent, data_dir)
                state = reopen(browser, url.format(quote(report.name)), "s.charts >= 2",
                               out / "report-intH-trusted.png", timeout_ms, problems)
                print(f"saved_state: trusted report {REPORT.name}: {dict(state or {}, text='...')}")
                problems += report_problems(state)
                shut_down_sessions(base, token)
                state = reopen_without_kernel(browser, url.format(quote(notebook.name)),
                                              out / "saved-lab-no-kernel.png", timeout_ms,
                                              problems)
                print(f"saved_state: reopened with no kernel: {dict(state or {}, text='...')}")
                problems += (note_problems(state, shown=True) + snapshot_problems(state, live)
                             + sanitised_problems(state, trusted=True)
                             if state else ["the notebook opened with no kernel never appeared"])
                problems += untrusted_problems(browser, url, notebook, data_dir, live, out,
                                               timeout_ms, problems)
                problems += exported_problems(browser, notebook, live, out)
                browser.close()
    return [p for p in problems if "net::ERR_FAILED" not in p]  # the blocked kernel requests


def untrusted_problems(browser, url: str, notebook: Path, data_dir: Path, live: dict,
                       out: Path, timeout_ms: float, problems: list[str]) -> list[str]:
    """The saved lab, untrusted, opened with no kernel (every outside request recorded in
    ``problems``): the note and the snapshot show (``saved-lab-untrusted.png``)."""
    untrusted, found = untrusted_copy(notebook, data_dir)
    state = reopen_without_kernel(browser, url.format(quote(untrusted.name)),
                                  out / "saved-lab-untrusted.png", timeout_ms, problems)
    print(f"saved_state: untrusted, with no kernel: {dict(state or {}, text='...', saved='...')}")
    if not state:
        return found + ["the untrusted notebook opened with no kernel never appeared"]
    return (found + note_problems(state, shown=True) + snapshot_problems(state, live)
            + sanitised_problems(state, trusted=False))


def exported_problems(browser, notebook: Path, live: dict, out: Path) -> list[str]:
    """The saved lab rendered by nbconvert's HTML exporter and opened offline: the note and
    the snapshot show (``saved-lab-nbconvert.png``); the requests blocked are printed."""
    page_file = exported_page(notebook)
    state, blocked = open_exported(browser, page_file, out / "saved-lab-nbconvert.png")
    print(f"saved_state: nbconvert's page ({page_file.stat().st_size / 1e6:.2f} MB), offline: "
          f"{dict(state or {}, text='...', saved='...')}; blocked: {blocked}")
    if not state:
        return ["nbconvert's page of the saved lab shows no notebook"]
    return note_problems(state, shown=True) + snapshot_problems(state, live)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="folder for the screenshot (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds to wait for each step (default: %(default)s)")
    args = parser.parse_args(argv)
    problems = run(args.out, args.timeout)
    if problems:
        print("saved_state: FAILED\n" + "\n".join(f"  - {p}" for p in problems),
              file=sys.stderr)
        return 1
    print("saved_state: OK: the saved lab shows again with a new kernel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
