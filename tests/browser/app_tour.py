"""Drive ``milab app`` (the lab served by Voilà) in headless Chromium, offline.

Usage (from the project root)::

    MILAB_DATA_HOME=/path/to/data python -m tests.browser.app_tour [--out DIR] [--timeout S]

Starts ``milab app --port N`` (a free port), opens ``http://127.0.0.1:N/`` in Debian's
headless Chromium with every request outside 127.0.0.1 blocked, and checks what a visitor
sees: the lab's five tabs, no code cell, no Python traceback, and not the note a saved lab
shows when it is not live (:mod:`milab_widgets.widgets.revive`). Then, for each tab, the same
steps as the JupyterLab tour (:data:`tests.browser.lab_tour.STEPS`): open the tab, operate
its control, make its click or brush in a live chart, and check the panel's answer
(``step.shows``) and charts with the JupyterLab tour's own checks; last, its "copy as code"
puts the code shown in its text area on the clipboard, and its "download chart and table"
gives links whose first reaches the browser as a PNG download. Nothing may be written in
the installed package's folder (where Voilà's kernel runs) by the whole tour. A panel whose dataset is missing is
checked as the JupyterLab tour checks it (unless ``MILAB_REQUIRE_DATA=1``).

Voilà's page has no kernel indicator: a panel is settled when its status line reads
"done: ..." or "failed: ..." (set when the action has ended).

No request may fail: Voilà's "lab" template links two Font Awesome stylesheets from a CDN,
which the app's page template leaves out (milab_widgets/app_template; the same icons are in
Voilà's own JavaScript), so a blocked request is a problem like any other. Screenshots: ``app.png`` (the page after the
tour's first panel) and ``app-<tab>.png`` per panel, in ``--out``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from milab_widgets.widgets.as_code import DOWNLOAD_CLASS
from milab_widgets.widgets.revive import NOTE_CLASS
from tests.browser import lab_tour
from tests.browser.check_jupyterlab import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DEFAULT_OUT,
    ROOT,
    VIEWPORT,
    block_outside_requests,
    free_port,
    grow_viewport,
)
from tests.browser.copying import CLIPBOARD_PERMISSIONS, READ_CLIPBOARD_JS, click_copy, shown_code

#: The lab widget in Voilà's page (JupyterLab's tour looks inside a notebook panel).
LAB_SELECTOR = "#rendered_cells .widget-tab"
#: A line of the app notebook's code cell, which the page must not show.
APP_CODE = "from milab_widgets import lab"
TAB_TITLES = tuple(step.tab for step in lab_tour.STEPS)
SETTLED = "/^(done|failed): /.test(s.status)"
PNG = b"\x89PNG\r\n\x1a\n"


#: JupyterLab's lab and kernel status in the tour's scripts -> Voilà's (module docstring).
IN_VOILA = {
    ".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab": LAB_SELECTOR,
    "indicator ? indicator.getAttribute('data-status') : 'unknown'": "'idle'",
}


def voila_js(script: str, replaced: tuple[str, ...] = tuple(IN_VOILA)) -> str:
    """The JupyterLab tour's ``script`` for Voilà's page (:data:`IN_VOILA`); fails loudly
    if the tour's script no longer holds one of the ``replaced`` texts."""
    for old in replaced:
        if old not in script:
            raise AssertionError(f"the lab tour's script no longer contains {old!r}")
        script = script.replace(old, IN_VOILA[old])
    return script


PANEL_STATE_JS = voila_js(lab_tour.PANEL_STATE_JS)
MARK_CHARTS_JS = voila_js(lab_tour.MARK_CHARTS_JS, replaced=tuple(IN_VOILA)[:1])
PAGE_JS = """() => {
  const lab = document.querySelector('LAB');
  return {
    tabs: lab ? [...lab.querySelector('.widget-tab-bar').querySelectorAll('.lm-TabBar-tab')]
                  .map(t => t.innerText.trim()) : [],
    code: document.body.innerText.includes(CODE),
    notes: [...document.querySelectorAll('.NOTE')].filter(n => {
      const r = n.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).length,
    text: document.body.innerText,
  };
}""".replace("LAB", LAB_SELECTOR).replace("CODE", repr(APP_CODE)).replace(
    "NOTE", NOTE_CLASS)


@contextmanager
def milab_app(port: int, log: Path, timeout: float = 120):
    """Run ``milab app --port port`` (this checkout, the caller's environment); yield its
    root URL once it answers; stop it (Ctrl+C, as a user would) after."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    url = f"http://127.0.0.1:{port}/"
    with open(log, "w") as stream:
        proc = subprocess.Popen([sys.executable, "-m", "milab_widgets.cli", "app",
                                 "--port", str(port)], cwd=log.parent, env=env,
                                stdout=stream, stderr=subprocess.STDOUT)
        try:
            wait_for_app(proc, url, log, timeout)
            yield url
        finally:
            stop_app(proc)


def wait_for_app(proc, url: str, log: Path, timeout: float) -> None:
    """Poll ``url`` until it answers; RuntimeError with the app's log if it exits or never
    answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"milab app exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=60):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.5)
    raise RuntimeError(f"milab app did not answer within {timeout} s:\n{log.read_text()}")


def stop_app(proc) -> None:
    """Interrupt the app (Voilà shuts its kernels down), killing it if it does not stop."""
    import signal

    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def lab_locator(page):
    return page.locator(LAB_SELECTOR).first


def panel_locator(page, index: int):
    return lab_locator(page).locator(".widget-tab-contents").first.locator(":scope > *").nth(index)


def wait_panel(page, index: int, predicate_js: str, timeout_ms: float) -> dict:
    """The panel's state once ``predicate_js(state)`` holds (or at the timeout)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return page.wait_for_function(
            f"index => {{ const s = ({PANEL_STATE_JS})(index); "
            f"return s !== null && ({predicate_js})(s) && s; }}",
            arg=index, timeout=timeout_ms, polling=250).json_value()
    except PlaywrightTimeout:
        return page.evaluate(PANEL_STATE_JS, index)


def screenshot(page, path: Path) -> None:
    """One PNG of the whole page, grown to show the lab."""
    bottom = lab_locator(page).evaluate("el => el.getBoundingClientRect().bottom")
    grow_viewport(page, bottom - VIEWPORT["height"])
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(VIEWPORT)


def page_problems(page) -> list[str]:
    """What is wrong with the page as a whole: the lab's tabs, code shown, tracebacks."""
    state = page.evaluate(PAGE_JS)
    problems = []
    if tuple(state["tabs"]) != TAB_TITLES:
        problems.append(f"the lab's tabs read {state['tabs']}, expected {list(TAB_TITLES)}")
    if state["code"]:
        problems.append(f"the notebook's code ({APP_CODE!r}) is shown: Voilà must strip it")
    if state["notes"]:
        problems.append("the live lab shows the note meant for a saved one (how to bring it "
                        "back)")
    if "Traceback" in state["text"]:
        problems.append("a Python traceback is shown")
    return problems


def tour_panel(page, index: int, step, out: Path, timeout_ms: float) -> list[str]:
    """Open tab ``index``, operate its control, click or brush in its chart; the JupyterLab
    tour's checks on each state; screenshot ``app-<tab>.png``."""
    lab_locator(page).locator(".widget-tab-bar").first.locator(".lm-TabBar-tab").nth(index).click()
    drawn = lab_tour.drawn_js(step)
    state = wait_panel(page, index, f"s => {SETTLED} && (s.errors.length > 0 || {drawn})",
                       timeout_ms)
    if state and lab_tour.missing_data(state) and os.environ.get("MILAB_REQUIRE_DATA") != "1":
        print(f"app_tour: {step.slug}: not operated, data unavailable: {state['errors'][0]}")
        problems = lab_tour.missing_data_problems(step, state)
    else:
        problems = lab_tour.panel_problems(step, state, after_action=False)
    if not problems and not lab_tour.missing_data(state):
        problems = operate_and_click(page, index, step, timeout_ms)
    screenshot(page, out / f"app-{step.slug}.png")
    problems += copy_problems(page, index, step, timeout_ms)
    if not lab_tour.missing_data(state):
        problems += download_problems(page, index, step, out, timeout_ms)
    return problems


def download_problems(page, index: int, step, out: Path, timeout_ms: float) -> list[str]:
    """Click the panel's "download chart and table", then its first link: the browser must
    receive that file (a PNG), named as the link says; screenshot ``app-<tab>-download.png``."""
    panel = panel_locator(page, index)
    panel.locator("button", has_text="download chart and table").first.click()
    link = panel.locator(f"a.{DOWNLOAD_CLASS}").first
    link.wait_for(state="visible", timeout=timeout_ms)
    with page.expect_download(timeout=timeout_ms) as started:
        link.click()
    download = started.value
    content = Path(download.path()).read_bytes()
    screenshot(page, out / f"app-{step.slug}-download.png")
    count = panel.locator(f"a.{DOWNLOAD_CLASS}").count()
    print(f"app_tour: {step.slug}: download: {count} links; {download.suggested_filename} "
          f"({len(content)} bytes) reached the browser")
    if download.suggested_filename != link.inner_text().strip() or not content.startswith(PNG):
        return [f"{step.slug} panel: the download gave {download.suggested_filename!r} "
                f"starting {content[:8]!r}, expected the PNG {link.inner_text()!r}"]
    return []


def copy_problems(page, index: int, step, timeout_ms: float) -> list[str]:
    """Click the panel's "copy as code": the clipboard must hold the code the panel shows
    in its text area (the kernel's ``panel.code()``)."""
    panel = panel_locator(page, index)
    answer = click_copy(panel, timeout_ms)
    copied = page.evaluate(READ_CLIPBOARD_JS)
    shown = shown_code(panel, copied, timeout_ms)
    print(f"app_tour: {step.slug}: copy as code: {answer['text']!r}")
    if answer["outcome"] != "copied":
        return [f"{step.slug} panel: copy as code answered {answer['text']!r}"]
    if copied != shown or not copied.startswith("# The milab-widgets panel"):
        return [f"{step.slug} panel: the clipboard holds {copied[:80]!r}, not the panel's code "
                f"{shown[:80]!r}"]
    return []


def tour_panel_or_failure(page, index: int, step, out: Path, timeout_ms: float) -> list[str]:
    """:func:`tour_panel`, a failed browser step reported as the panel's problem (the tour
    goes on to the next panel)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return tour_panel(page, index, step, out, timeout_ms)
    except PlaywrightError as error:
        screenshot(page, out / f"app-{step.slug}.png")
        return [f"{step.slug} panel: browser step failed: {error.message.splitlines()[0]}"]


def operate_and_click(page, index: int, step, timeout_ms: float) -> list[str]:
    """The step's control, then its click; the panel's problems after each."""
    page.evaluate(MARK_CHARTS_JS, index)
    step.operate(panel_locator(page, index))
    drawn = f"{lab_tour.drawn_js(step)} && s.redrawn >= {step.redrawn}"
    state = wait_panel(page, index, f"s => {SETTLED} && (s.errors.length > 0 || ({drawn}))",
                       timeout_ms)
    print(f"app_tour: {step.slug}: {step.control}: {state['status']!r}; {state['vega']} Vega "
          f"+ {state['images']} PNG chart(s), {state['redrawn']} redrawn")
    problems = lab_tour.panel_problems(step, state, after_action=True)
    if problems or step.clicking is None:
        return problems
    step.clicking(panel_locator(page, index))
    state = wait_panel(page, index, f"s => {SETTLED} && s.text.includes({step.shows!r})",
                       timeout_ms)
    print(f"app_tour: {step.slug}: {step.click}: {state['status']!r}")
    problems = [f"error shown: {error}" for error in state["errors"]]
    if step.shows not in state["text"]:
        problems.append(f"{step.click} did not show {step.shows!r}")
    return [f"{step.slug} panel: {p}" for p in problems]


def tour_app(url: str, out: Path, timeout_ms: float) -> list[str]:
    """Open the app's root URL offline and tour every panel; the problems found."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        page.context.grant_permissions(CLIPBOARD_PERMISSIONS)
        block_outside_requests(page, problems)
        page.on("pageerror", lambda exc: problems.append(f"uncaught JavaScript error: {exc}"))
        try:
            page.goto(url, timeout=timeout_ms)
            page.wait_for_selector(LAB_SELECTOR, timeout=timeout_ms)
            problems += page_problems(page)
            for index, step in enumerate(lab_tour.STEPS):
                problems += tour_panel_or_failure(page, index, step, out, timeout_ms)
                if index == 0:
                    screenshot(page, out / "app.png")
        finally:
            browser.close()
    return problems


def run(out: Path, timeout: float) -> list[str]:
    """Start ``milab app`` on a free port, tour it, stop it; the problems found."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="milab-app-") as tmp:
        log = Path(tmp) / "app.log"
        before = package_files()
        with milab_app(free_port(), log) as url:
            print(f"app_tour: {url}")
            problems = tour_app(url, out, timeout * 1000)
        changed = sorted(set(package_files().items()) ^ set(before.items()))
        print(f"app_tour: files changed in the package's folder: {changed}")
        return problems + [f"the app wrote into the installed package: {path}"
                           for path, _ in changed]


def package_files() -> dict[str, tuple]:
    """Every file in the installed package's folder (where Voilà's kernel runs) with its
    size and modification time; Python's own bytecode caches left out."""
    import milab_widgets

    folder = Path(milab_widgets.__file__).parent
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in folder.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="folder for the screenshots (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds to wait for each step (default: %(default)s)")
    args = parser.parse_args(argv)
    problems = run(args.out, args.timeout)
    if problems:
        print("app_tour: FAILED\n" + "\n".join(f"  - {p}" for p in problems), file=sys.stderr)
        return 1
    print("app_tour: OK: every panel answered in the app")
    return 0


if __name__ == "__main__":
    sys.exit(main())
