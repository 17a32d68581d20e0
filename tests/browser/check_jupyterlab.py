"""Prove in a real browser that a notebook's charts and widgets render in JupyterLab.

Usage::

    python -m tests.browser.check_jupyterlab NOTEBOOK [--out DIR]

(from the project root; ``python -m tests.browser.lab_tour`` runs it on the lab's index
notebook and then operates every panel, see :mod:`tests.browser.lab_tour`).

Starts ``jupyter lab`` (127.0.0.1, free port, random token, no browser) in a temporary folder
holding a copy of the notebook with its outputs cleared (so whatever renders was produced by
this run; the kernel imports ``milab_widgets`` from this checkout and sees the caller's
environment, e.g. ``MILAB_DATA_HOME``), opens the notebook in Debian's headless Chromium
(Playwright launches it with a fresh temporary profile), runs all cells from the Run menu,
waits for the kernel to go idle, and then checks the page:

* every code cell ran, and none raised (read from the notebook as JupyterLab saved it);
* at least ``--min-charts`` Vega charts were drawn (an ``svg.marks`` / ``canvas.marks`` of
  non-zero size inside ``.vega-embed``), ``--min-widget-charts`` of them inside widgets;
* at least ``--min-widgets`` ipywidgets views were drawn (not a text repr, not the
  "Loading widget..." placeholder);
* no output says "Error displaying widget", "Loading widget..." or "Javascript Error", and
  the browser logged no JavaScript error (uncaught exception or console error) and no Vega
  warning (Vega's logger writes "WARN ..." to the console: a chart that drew may still be
  broken, e.g. a click selection on a mark Vega cannot search for the nearest point);
* nothing was fetched from outside 127.0.0.1: every other request is blocked (and named as
  a failure), so whatever drew, drew offline;
* with ``--reload-without-kernel N``: after saving, the page is reloaded with every kernel
  and session request blocked, and the saved notebook must still show at least N static
  charts (SVG/PNG outputs) and no widget repr text (a panel shows its one-line note).

A full-page PNG of the notebook goes to ``--out`` (default ``reports/browser/``). Exits 0 when
everything rendered, 1 with a list of what failed otherwise, 2 when it could not run.
Needs the Debian package ``chromium`` and the pip package ``playwright`` (no browser
download: Playwright drives /usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import nbformat

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--no-first-run", "--disable-quic", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "reports" / "browser"
VIEWPORT = {"width": 1400, "height": 900}
MAX_SCREENSHOT_HEIGHT = 12000
BAD_OUTPUT_TEXT = ("Error displaying widget", "Loading widget", "Javascript Error")
#: A cell of the notebook shown. JupyterLab restores the notebooks a server's earlier pages
#: opened (its workspace) as hidden tabs: their cells match ".jp-NotebookPanel .jp-Cell"
#: too, and waiting for the first one to be visible can wait for a hidden tab forever.
SHOWN_CELL = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell"

# JupyterLab user settings for a deterministic page: every cell attached to the DOM (no
# windowing), no news/update requests and no toast notifications over the notebook.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {
        "fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True,
    },
}

# Reads the notebook's state from the DOM; used both to wait and to report.
PAGE_STATE_JS = """
() => {
  const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  if (!nb) return null;
  const drawn = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const chartMarks = '.vega-embed svg.marks, .vega-embed canvas.marks';
  const prompts = [...nb.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
    .map(p => p.textContent.trim());
  const outputs = [...nb.querySelectorAll('.jp-OutputArea-output')];
  const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
  const kernelName = document.querySelector('.jp-NotebookPanel [data-jp-item-name=kernelName]');
  const dialog = document.querySelector('.jp-Dialog');
  return {
    codeCells: prompts.length,
    executed: prompts.filter(p => /\\[\\d+\\]/.test(p)).length,
    running: prompts.filter(p => p.includes('*')).length,
    kernel: indicator ? indicator.getAttribute('data-status') : 'unknown',
    kernelName: kernelName ? kernelName.innerText.trim() : '',
    dialog: dialog ? dialog.innerText.trim().replace(/\\s+/g, ' ') : '',
    charts: [...nb.querySelectorAll(chartMarks)].filter(drawn).length,
    widgetCharts: [...nb.querySelectorAll('.jupyter-widgets :is(' + chartMarks + ')')]
      .filter(drawn).length,
    widgets: [...nb.querySelectorAll('.jupyter-widgets[class*="widget-"]')].filter(drawn).length,
    badOutputs: outputs.map(o => o.innerText.trim())
      .filter(t => BAD.some(b => t.includes(b))).map(t => t.slice(0, 300)),
  };
}
""".replace("BAD", json.dumps(BAD_OUTPUT_TEXT))


@dataclass(frozen=True)
class Expect:
    """Minimum numbers of rendered things the notebook must show."""

    charts: int = 1
    widgets: int = 1
    widget_charts: int = 0


class CheckError(RuntimeError):
    """The check could not run (missing browser, JupyterLab did not start, ...)."""


#: How Vega's logger (used by Vega-Lite and vega-embed too) starts a warning in the console
#: ("WARN The "nearest" transform is not supported for line marks.").
VEGA_WARNING = re.compile(r"^(WARN|ERROR)\b")


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def copy_cleared(notebook: Path, folder: Path) -> Path:
    """Write ``notebook`` into ``folder`` without outputs or execution counts; return it."""
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata.setdefault(
        "kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"}
    )
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / notebook.name
    nbformat.write(nb, copy)
    return copy


def lab_environment(tmp: Path) -> dict[str, str]:
    """Environment for a JupyterLab isolated from the user's config, settings, workspaces,
    whose kernels import ``milab_widgets`` from this checkout."""
    settings = tmp / "settings"
    for plugin, values in LAB_SETTINGS.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )


@contextmanager
def jupyter_lab(root: Path, env: dict[str, str], log_path: Path, timeout: float = 90,
                launch=None):
    """Run ``jupyter lab`` on ``root``; yield ``(base_url, token)``; shut it down after.
    ``launch(options)`` gives the command for JupyterLab's options (default: this
    interpreter's ``python -m jupyterlab``)."""
    port, token = free_port(), secrets.token_hex(16)
    options = ["--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={root}"]
    cmd = (launch or (lambda given: [sys.executable, "-m", "jupyterlab", *given]))(options)
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_server(proc, base, token, log_path, timeout)
            yield base, token
        finally:
            stop_server(proc, base, token)


def wait_for_server(proc, base: str, token: str, log_path: Path, timeout: float) -> None:
    """Poll the server's status API until it answers; raise with its log if it died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise CheckError(f"jupyter lab exited with {proc.returncode}:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.25)
    raise CheckError(f"jupyter lab did not answer within {timeout}s:\n{log_path.read_text()}")


def stop_server(proc, base: str, token: str, timeout: float = 30) -> None:
    """Ask the server to shut down (it stops its kernels); terminate it if it does not."""
    request = urllib.request.Request(
        f"{base}/api/shutdown", method="POST", headers={"Authorization": f"token {token}"}
    )
    try:
        urllib.request.urlopen(request, timeout=5).close()
        proc.wait(timeout=timeout)
    except (urllib.error.URLError, ConnectionError, subprocess.TimeoutExpired):
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_all_cells(page, url: str, timeout_ms: float) -> None:
    """Open the notebook, wait for its kernel, and run all cells from the Run menu."""
    page.goto(url)
    page.wait_for_selector(SHOWN_CELL, timeout=timeout_ms)
    # The execution indicator reads "idle" before any kernel exists; wait for the kernel's
    # name (a Run All with no kernel yet opens the "Select Kernel" dialog instead).
    wait_for_state(page, "s => s.kernelName && s.kernelName !== 'No Kernel' && s.kernel === 'idle'",
                   timeout_ms)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()


def wait_for_state(page, predicate_js: str, timeout_ms: float) -> bool:
    """Wait until ``predicate_js(state)`` holds for the page state; False on timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            f"() => {{ const s = ({PAGE_STATE_JS})(); return s !== null && ({predicate_js})(s); }}",
            timeout=timeout_ms, polling=250,
        )
        return True
    except PlaywrightTimeout:
        return False


def wait_until_done(page, expect: Expect, timeout_ms: float) -> dict:
    """Wait for Run All to finish and the kernel to idle, then for the expected renders.

    Run All marks every queued cell ``[*]`` and, when a cell raises, unqueues the rest: it
    is over when some cell ran, none is queued, and the kernel is idle.
    """
    wait_for_state(
        page, "s => s.dialog || (s.executed > 0 && s.running === 0 && s.kernel === 'idle')",
        timeout_ms)
    state = page.evaluate(PAGE_STATE_JS)
    if state["dialog"]:
        return state
    # Drawing the widgets sends the kernel comm messages, so it goes busy again for a
    # moment after Run All: the page is read when everything is drawn *and* the kernel is
    # idle (a snapshot taken after the renders alone once caught it busy and failed the
    # saved-lab test, with every cell run and both charts drawn).
    wait_for_state(
        page, f"s => s.charts >= {expect.charts} && s.widgets >= {expect.widgets} "
              f"&& s.widgetCharts >= {expect.widget_charts} && s.badOutputs.length === 0 "
              "&& s.running === 0 && s.kernel === 'idle'",
        min(timeout_ms, 30_000))
    return page.evaluate(PAGE_STATE_JS) or {}


def save_notebook(page, timeout_ms: float) -> None:
    """Save the open notebook (Ctrl+S) and wait until its tab is no longer dirty."""
    page.locator(".jp-NotebookPanel .jp-Notebook").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")
    page.wait_for_selector(".lm-TabBar-tab.jp-mod-current.jp-mod-dirty",
                           state="detached", timeout=timeout_ms)


def grow_viewport(page, hidden_px: float) -> None:
    """Make the viewport ``hidden_px`` taller (capped) and wait for JupyterLab's layout."""
    total = min(VIEWPORT["height"] + max(round(hidden_px) + 40, 0), MAX_SCREENSHOT_HEIGHT)
    page.set_viewport_size({"width": VIEWPORT["width"], "height": total})
    # JupyterLab lays out on the next animation frame after a resize.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def screenshot_notebook(page, path: Path) -> None:
    """Grow the viewport until the whole notebook shows and take one PNG of the page."""
    hidden = page.evaluate(
        "() => { const s = document.querySelector('.jp-NotebookPanel .jp-WindowedPanel-outer');"
        " const cells = document.querySelectorAll('.jp-NotebookPanel .jp-Cell');"
        " s.scrollTop = 0;"
        " return cells[cells.length - 1].getBoundingClientRect().bottom"
        " - s.getBoundingClientRect().bottom; }"
    )
    grow_viewport(page, hidden)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(VIEWPORT)


def executed_notebook_problems(path: Path) -> list[str]:
    """List cells of the saved notebook that did not run or raised an error."""
    problems = []
    nb = nbformat.read(path, as_version=4)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if cell.execution_count is None:
            problems.append(f"cell {index} did not run")
        for out in cell.outputs:
            if out.output_type == "error":
                problems.append(f"cell {index} raised {out.ename}: {out.evalue}")
    return problems


def state_problems(state: dict, expect: Expect) -> list[str]:
    """Compare the page state with the expectations; list what is missing or wrong."""
    if not state:
        return ["the notebook never appeared in JupyterLab"]
    problems = [f"JupyterLab showed a dialog: {state['dialog']!r}"] if state["dialog"] else []
    if state["running"] or state["kernel"] != "idle":
        problems.append(f"kernel still busy ({state['running']} cell(s) running, status "
                        f"{state['kernel']!r})")
    for found, wanted, label in (
        (state["charts"], expect.charts, "Vega charts"),
        (state["widgets"], expect.widgets, "ipywidgets views"),
        (state["widgetCharts"], expect.widget_charts, "Vega charts inside widgets"),
    ):
        if found < wanted:
            problems.append(f"{label}: {found} rendered, expected at least {wanted}")
    problems += [f"output shows an error: {text!r}" for text in state["badOutputs"]]
    return problems


def block_outside_requests(page, problems: list[str]) -> None:
    """Abort every request that does not go to 127.0.0.1 (or stay in the page: data:,
    blob:), recording each as a problem."""

    def route(route) -> None:
        url = route.request.url
        if url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            route.continue_()
        else:
            problems.append(f"blocked a request outside 127.0.0.1: {url[:120]}")
            route.abort()

    page.route("**/*", route)


RELOADED_JS = """
() => {
  const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
  if (!nb) return null;
  const drawn = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const text = nb.innerText;
  return {
    cells: nb.querySelectorAll('.jp-Cell').length,
    static: [...nb.querySelectorAll('.jp-RenderedSVG, .jp-RenderedImage')].filter(drawn).length,
    reprs: (text.match(/\\w+Panel\\(children=|Lab\\(children=/g) || []).length,
    notes: (text.match(/\\[milab lab: /g) || []).length,
  };
}
"""


def dismiss_kernel_dialogs(page, rounds: int = 3) -> None:
    """Answer JupyterLab's dialogs about the blocked kernel: "No Kernel" when it asks which
    kernel to start, "Close" when it says it cannot reach one."""
    for _ in range(rounds):
        page.wait_for_timeout(1500)
        dialog = page.locator(".jp-Dialog")
        if not dialog.count():
            return
        buttons = dialog.locator("button")
        choice = buttons.filter(has_text="No Kernel")
        (choice if choice.count() else buttons.filter(has_text="Close")).first.click()


def check_saved_notebook(notebook: Path, out: Path, static_charts: int, notes: int = 0,
                         timeout: float = 120) -> list[str]:
    """Open ``notebook`` as it is saved (e.g. executed by papermill: untrusted), with every
    kernel and session request blocked and nothing outside 127.0.0.1 reachable; it must
    show ``static_charts`` static charts, ``notes`` panel notes and no widget repr.
    Screenshot: ``<out>/<stem>-no-kernel.png``. Returns the problems."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="milab-saved-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "root").mkdir()
        copy = tmp / "root" / notebook.name
        copy.write_bytes(notebook.read_bytes())
        with jupyter_lab(copy.parent, lab_environment(tmp), tmp / "jupyter.log") as (base, token):
            url = f"{base}/lab/tree/{quote(copy.name)}?token={token}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                page = browser.new_page(viewport=VIEWPORT)
                block_outside_requests(page, problems)
                problems += reload_without_kernel(page, url, static_charts, out / copy.name,
                                                  timeout * 1000, notes)
                browser.close()
    return [p for p in problems if "net::ERR_FAILED" not in p]


def reload_without_kernel(page, url: str, static_charts: int, shot: Path,
                          timeout_ms: float, notes: int = 0) -> list[str]:
    """Reload the saved notebook with kernels and sessions blocked; check that its static
    charts show and no widget repr does; screenshot it as ``<stem>-no-kernel.png``."""
    page.route("**/api/kernels**", lambda route: route.abort())
    page.route("**/api/sessions**", lambda route: route.abort())
    page.goto(url)
    page.wait_for_selector(SHOWN_CELL, timeout=timeout_ms)
    with contextlib.suppress(Exception):  # reported below from the state
        page.wait_for_function(f"() => {{ const s = ({RELOADED_JS})(); "
                               f"return s && s.static >= {static_charts}; }}",
                               timeout=min(timeout_ms, 60_000), polling=250)
    dismiss_kernel_dialogs(page)
    state = page.evaluate(RELOADED_JS) or {"static": 0, "reprs": 0, "notes": 0}
    screenshot_notebook(page, shot.with_name(f"{shot.stem}-no-kernel.png"))
    print(f"check_jupyterlab: reloaded without a kernel: {state}")
    problems = []
    if state["static"] < static_charts:
        problems.append(f"without a kernel: {state['static']} static chart(s) shown, expected "
                        f"at least {static_charts}")
    if state["reprs"]:
        problems.append(f"without a kernel: {state['reprs']} widget repr(s) shown as text")
    if state["notes"] < notes:
        problems.append(f"without a kernel: {state['notes']} panel note(s) shown, expected "
                        f"{notes}")
    return problems


def drive_browser(url: str, expect: Expect, shot: Path, timeout_ms: float, tour=None,
                  reload_charts: int | None = None):
    """Run the notebook at ``url`` in headless Chromium; screenshot it; save it; then, if
    given, call ``tour(page, folder_of_shot, timeout_ms)`` for more steps in the same page.

    Returns ``(page_state, problems)`` where problems are JavaScript errors, requests
    outside 127.0.0.1, any step that failed in the browser, the problems the tour returns,
    and (``reload_charts``) those of :func:`reload_without_kernel`.
    """
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    problems: list[str] = []

    def on_console(msg) -> None:
        if msg.type == "error":
            problems.append(f"JavaScript console error: {msg.text}")
        elif msg.type == "warning" and VEGA_WARNING.match(msg.text):
            problems.append(f"Vega warning: {msg.text}")

    state: dict = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        block_outside_requests(page, problems)
        page.on("pageerror", lambda exc: problems.append(f"uncaught JavaScript error: {exc}"))
        page.on("console", on_console)
        try:
            run_all_cells(page, url, timeout_ms)
            state = wait_until_done(page, expect, timeout_ms)
            screenshot_notebook(page, shot)
            if not state["dialog"]:
                save_notebook(page, 30_000)
            if tour is not None and not state_problems(state, expect):
                problems += tour(page, shot.parent, timeout_ms)
            if reload_charts is not None and not state["dialog"]:
                before = len(problems)
                reloaded = reload_without_kernel(page, url, reload_charts, shot, timeout_ms)
                # the blocked kernel and session requests fail, as they should
                problems[before:] = [p for p in problems[before:] if "net::ERR_FAILED" not in p]
                problems += reloaded
        except PlaywrightError as exc:
            problems.append(f"browser step failed: {exc.message.splitlines()[0]}")
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    return state, problems


def check_notebook(notebook: Path, out: Path, expect: Expect = Expect(),
                   timeout: float = 180, tour=None,
                   reload_charts: int | None = None) -> tuple[list[str], dict, Path]:
    """Run ``notebook`` in JupyterLab in headless Chromium and check what rendered (then
    run ``tour``, see :func:`drive_browser`).

    Returns ``(problems, page_state, screenshot_path)``; ``problems`` is empty on success.
    Raises :class:`CheckError` when the check itself cannot run.
    """
    if not CHROMIUM.exists():
        raise CheckError(f"{CHROMIUM} not found: apt-get install chromium")
    if importlib.util.find_spec("playwright") is None:
        raise CheckError("playwright is not installed: pip install playwright")
    notebook = notebook.resolve()
    if not notebook.is_file():
        raise CheckError(f"notebook {notebook} does not exist")
    out.mkdir(parents=True, exist_ok=True)
    shot = out / f"{notebook.stem}.png"
    with tempfile.TemporaryDirectory(prefix="milab-lab-") as tmp_name:
        tmp = Path(tmp_name)
        copy = copy_cleared(notebook, tmp / "root")
        with jupyter_lab(copy.parent, lab_environment(tmp), tmp / "jupyter.log") as (base, token):
            url = f"{base}/lab/tree/{quote(copy.name)}?token={token}"
            state, browser_problems = drive_browser(url, expect, shot, timeout * 1000, tour,
                                                    reload_charts)
        problems = executed_notebook_problems(copy)
    return problems + state_problems(state, expect) + browser_problems, state, shot


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line arguments."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="folder for the screenshot (default: %(default)s)")
    parser.add_argument("--min-charts", type=int, default=1)
    parser.add_argument("--min-widgets", type=int, default=1)
    parser.add_argument("--min-widget-charts", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=180,
                        help="seconds to wait for the notebook to run (default: %(default)s)")
    parser.add_argument("--reload-without-kernel", type=int, metavar="N", default=None,
                        help="after saving, reload with no kernel; expect N static charts")
    return parser.parse_args(argv)


def check_and_report(notebook: Path, out: Path, expect: Expect, timeout: float,
                     tour=None, reload_charts: int | None = None) -> int:
    """Run :func:`check_notebook`, print what rendered and what failed; return the exit
    status (0 rendered, 1 failed, 2 could not run)."""
    start = time.monotonic()
    try:
        problems, state, shot = check_notebook(notebook, out, expect, timeout, tour,
                                               reload_charts)
    except CheckError as exc:
        print(f"check_jupyterlab: cannot run: {exc}", file=sys.stderr)
        return 2
    found = {k: state.get(k)
             for k in ("codeCells", "executed", "charts", "widgetCharts", "widgets")}
    print(f"check_jupyterlab: {notebook} in {time.monotonic() - start:.1f}s: {found}")
    print(f"check_jupyterlab: screenshot {shot}")
    if problems:
        print("check_jupyterlab: FAILED\n" + "\n".join(f"  - {p}" for p in problems),
              file=sys.stderr)
        return 1
    print("check_jupyterlab: OK: charts and widgets rendered")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the check from the command line; return the process exit status."""
    args = parse_args(argv)
    expect = Expect(args.min_charts, args.min_widgets, args.min_widget_charts)
    return check_and_report(args.notebook, args.out, expect, args.timeout,
                            reload_charts=args.reload_without_kernel)


if __name__ == "__main__":
    sys.exit(main())
