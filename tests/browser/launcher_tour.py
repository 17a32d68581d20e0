"""Drive milab's JupyterLab front end in headless Chromium, offline, as a user does.

Usage (from the project root)::

    python -m tests.browser.launcher_tour [--out DIR] [--jupyter PYTHON] [--plain]

Starts JupyterLab (127.0.0.1, free port, random token) in an empty temporary folder, with
the milab extensions named on its command line (``milab jupyterlab``'s arguments: an
editable install has no data files), or with ``--plain`` as a plain ``jupyter lab`` of the
interpreter ``--jupyter`` (a fresh venv with the wheel installed, where JupyterLab must find
them by itself). Every request outside 127.0.0.1 is blocked. Steps, each checked on the
page:

1. ``tiles``: the launcher has a "milab" section with "Lab", one tile per registered paper
   and "Reproduce the papers"; the "milab" menu and the palette's milab commands exist.
2. ``lab``: a click on "Lab" opens ``milab/lab.ipynb``, runs it, the lab's tab bar shows
   every paper and the first tab's panel is built (its "loading" note goes).
3. ``paper``: from a new launcher, a click on the CDVSE tile opens ``milab/CDVSE.ipynb``,
   runs it, and CDVSE's panel shows (its header cites the paper's authors) and fits.
4. ``reproduce``: the palette command "Reproduce intH (quick)" opens the reproduction panel,
   whose intH row reads "running" and then "done"; when the run ends its REPORT.html opens
   in a tab, and "Open the report" is live.
5. ``reload``: Start (intH, quick) again from the panel; once running, the page is reloaded
   and the restored panel shows the same run still running.
6. ``stop``: Stop ends it: the run reads "stopped", intH's row "interrupted", and neither
   the paper's worker nor its kernel is alive.
7. ``token``: the routes answer with the server's token and refuse without it (403).

With ``--only tiles`` the tour ends after step 1 (the fresh-wheel check). Prints one JSON
line per step ({"step", "ok", "problems", "seconds"}); exits 1 if a step failed.
Screenshots in ``--out`` (default reports/browser/): ``launcher.png``, ``launcher-lab.png``,
``launcher-paper.png``, ``launcher-reproduce.png``; when a step fails, also the JupyterLab
server's log (``launcher-jupyterlab.log``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

from milab_widgets.papers import registered
from milab_widgets.server.launch import jupyterlab_arguments
from tests.browser.check_jupyterlab import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DEFAULT_OUT,
    VIEWPORT,
    block_outside_requests,
    jupyter_lab,
    lab_environment,
)

MILAB_CARD = '.jp-LauncherCard[data-category="milab"]'
#: The ipywidgets Tab of the lab, inside the notebook shown.
LAB_TABS = ".jp-NotebookPanel:not(.lm-mod-hidden) .widget-tab .lm-TabBar-tabLabel"
SHOWN_NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
PANEL = "#milab-reproduce-main"
STEP_TIMEOUT_MS = 240_000


def jupyterlab(root: Path, python: str | None, plain: bool, log_path: Path):
    """JupyterLab on ``root`` (:func:`~tests.browser.check_jupyterlab.jupyter_lab`), with the
    milab extensions on its command line, or ``plain`` from ``python``'s own install: a
    context manager yielding (base URL, token)."""
    env = lab_environment(root.parent / "lab-env")
    if plain:  # the interpreter's own install, not this checkout
        env.pop("PYTHONPATH", None)

    def launch(options: list[str]) -> list[str]:
        if plain:
            return [python or sys.executable, "-m", "jupyterlab", *options]
        return jupyterlab_arguments(options)

    return jupyter_lab(root, env, log_path, timeout=120, launch=launch)


def within(action) -> bool:
    """Whether ``action()`` (a Playwright wait) finished before its timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        action()
    except PlaywrightTimeout:
        return False
    return True


def card(page, label: str):
    return page.locator(MILAB_CARD).filter(has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))


def step_tiles(page, context) -> list[str]:
    page.goto(f"{context['base']}/lab?token={context['token']}")
    page.wait_for_selector(MILAB_CARD, timeout=120_000)
    labels = [text.strip() for text in page.locator(MILAB_CARD).all_inner_texts()]
    expected = ["Lab", *registered(), "Reproduce the papers"]
    problems = [] if labels == expected else [f"milab tiles {labels}, expected {expected}"]
    page.screenshot(path=str(context["out"] / "launcher.png"))
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^milab$")).click()
    items = page.locator(".lm-Menu-itemLabel").all_inner_texts()
    page.keyboard.press("Escape")
    for wanted in ("Lab", "Reproduce the papers", "Reproduce intH (quick)",
                   "Open the last report"):
        if wanted not in items:
            problems.append(f"the milab menu lacks {wanted!r} (it has {items})")
    return problems


def run_tile(page, label: str) -> None:
    """Click a milab tile (from a new launcher when none is shown)."""
    if not card(page, label).first.is_visible():
        page.locator(".lm-DockPanel-tabBar .lm-TabBar-addButton").first.click()  # the "+"
    card(page, label).first.click()


def step_lab(page, context) -> list[str]:
    run_tile(page, "Lab")
    expected = list(registered())
    within(lambda: page.wait_for_function(
        "([selector, n]) => document.querySelectorAll(selector).length >= n",
        arg=[LAB_TABS, len(expected)], timeout=STEP_TIMEOUT_MS))
    tabs = [text.strip() for text in page.locator(LAB_TABS).all_inner_texts()]
    loading = page.locator(SHOWN_NOTEBOOK).get_by_text(f"loading {expected[0]}")
    first_panel = within(lambda: loading.wait_for(state="detached", timeout=STEP_TIMEOUT_MS))
    page.wait_for_timeout(2000)
    page.screenshot(path=str(context["out"] / "launcher-lab.png"))
    title = page.locator(".jp-mod-current .lm-TabBar-tabLabel").first.inner_text()
    problems = [] if tabs == expected else [f"the lab's tabs are {tabs}, expected {expected}"]
    if not first_panel:
        problems.append(f"the lab's first tab still says 'loading {expected[0]}'")
    if title != "lab.ipynb":
        problems.append(f"the Lab tile opened {title!r}, not lab.ipynb")
    return problems


def step_paper(page, context) -> list[str]:
    run_tile(page, "CDVSE")
    authors = registered()["CDVSE"].authors
    # the panel's header cites the paper (the notebook's Markdown does too); a saved lab's
    # snapshot, hidden while the panel is live, holds the same text
    header = page.locator(f"{SHOWN_NOTEBOOK} .jp-OutputArea").get_by_text(authors).filter(
        visible=True)
    done = page.locator(f"{SHOWN_NOTEBOOK} .jp-OutputArea").get_by_text(
        "done: fitting").filter(visible=True)
    if not within(lambda: (header.first.wait_for(timeout=STEP_TIMEOUT_MS),
                           done.first.wait_for(timeout=STEP_TIMEOUT_MS))):
        page.screenshot(path=str(context["out"] / "launcher-failed-paper.png"))
        return [f"the CDVSE tile's notebook shows no fitted CDVSE panel (header citing "
                f"{authors}, then 'done: fitting')"]
    page.wait_for_timeout(3000)
    page.screenshot(path=str(context["out"] / "launcher-paper.png"))
    title = page.locator(".jp-mod-current .lm-TabBar-tabLabel").first.inner_text()
    return [] if title == "CDVSE.ipynb" else [f"the CDVSE tile opened {title!r}"]


def row_status(page, paper: str) -> str | None:
    row = page.locator(f'{PANEL} tr[data-paper="{paper}"]')
    return row.get_attribute("data-status") if row.count() else None


def wait_row(page, paper: str, statuses: tuple[str, ...], timeout_ms: float) -> str | None:
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        status = row_status(page, paper)
        if status in statuses:
            return status
        page.wait_for_timeout(500)
    return row_status(page, paper)


def step_reproduce(page, context) -> list[str]:
    """The palette command opens the panel, whose first state request goes out before the
    command's Start: that request's reply (no job yet) is held back here until Start's reply
    has arrived, as a loaded server can deliver them (CI saw it once), and must not wipe the
    run from the panel."""
    held = []

    def hold_first_state(route) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))  # the state before Start, delivered later
        else:
            route.fallback()

    state_route = re.compile(r"/milab/api/reproduce(\?|$)")  # JupyterLab may add a query
    page.route(state_route, hold_first_state)
    page.keyboard.press("Control+Shift+C")
    palette = page.locator(".lm-CommandPalette-input")
    palette.fill("Reproduce intH (quick)")
    with page.expect_response(lambda reply: reply.request.method == "POST"
                              and state_route.search(reply.url) is not None):
        page.locator(".lm-CommandPalette-item", has_text="Reproduce intH (quick)").first.click()
    problems = [] if held else ["the panel asked for no state before its Start"]
    for route, stale in held:
        page.wait_for_timeout(300)  # Start's reply is shown first
        route.fulfill(response=stale)
    page.unroute(state_route, hold_first_state)
    seen = wait_row(page, "intH", ("running", "done"), 60_000)
    if seen not in ("running", "done"):
        status = page.locator(f"{PANEL} .milab-status")
        said = status.inner_text() if status.count() else "no panel"
        page.screenshot(path=str(context["out"] / "launcher-failed-reproduce.png"))
        return [f"intH's row never read running (it reads {seen!r}; the panel says {said!r})"]
    final = wait_row(page, "intH", ("done", "failed", "interrupted"), STEP_TIMEOUT_MS)
    if final != "done":
        detail = page.locator(f'{PANEL} tr[data-paper="intH"]').inner_text()
        return [f"intH's quick run ended {final!r}: {detail}"]
    status = page.locator(f"{PANEL} .milab-status")
    if not within(lambda: page.wait_for_function(  # the report is written after the paper
            "el => el.dataset.state === 'ended'", arg=status.element_handle(), timeout=60_000)):
        problems.append(f"the run did not end after intH was done ({status.inner_text()})")
    chosen = [box.get_attribute("value") for box in
              page.locator(f"{PANEL} .milab-papers input:checked").all()]
    if chosen != ["intH"]:
        problems.append(f"the panel's papers show {chosen} for a run of intH")
    tab = page.locator(".lm-TabBar-tabLabel", has_text="REPORT.html")
    if not within(lambda: tab.first.wait_for(timeout=30_000)):  # opened when the run ends
        problems.append("the finished run's REPORT.html did not open")
    page.locator(".lm-TabBar-tabLabel", has_text="milab: reproduce").first.click()
    page.screenshot(path=str(context["out"] / "launcher-reproduce.png"))
    report = page.locator(f"{PANEL} button.milab-report")
    if report.is_disabled():
        problems.append("'Open the report' is greyed after the run wrote its report")
    return problems


def step_reload(page, context) -> list[str]:
    page.locator(".lm-TabBar-tabLabel", has_text="milab: reproduce").first.click()
    for box in page.locator(f"{PANEL} .milab-papers input").all():
        box.set_checked(box.get_attribute("value") == "intH")
    page.locator(f"{PANEL} button.milab-start").click()
    if wait_row(page, "intH", ("running",), 60_000) != "running":
        return ["Start did not start an intH run"]
    context["kernel_pid"] = wait_for_file(context["root"] / "milab-output" / "intH" /
                                          "kernel.pid", 90)
    page.reload()
    page.wait_for_selector(PANEL, timeout=120_000)
    status = wait_row(page, "intH", ("running",), 30_000)
    return [] if status == "running" else [f"after a reload the panel shows intH {status!r}"]


def wait_for_file(path: Path, seconds: float) -> int | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.is_file() and path.read_text().strip():
            return int(path.read_text().split()[0])
        time.sleep(0.25)
    return None


def step_stop(page, context) -> list[str]:
    page.locator(f"{PANEL} button.milab-stop").click()
    status = page.locator(f"{PANEL} .milab-status")
    if not within(lambda: page.wait_for_function(
            "el => el.dataset.state === 'ended'", arg=status.element_handle(), timeout=60_000)):
        return [f"Stop: the run did not end within 60 s ({status.inner_text()})"]
    problems = []
    if "stopped" not in status.inner_text():
        problems.append(f"after Stop the panel says {status.inner_text()!r}")
    if row_status(page, "intH") != "interrupted":
        problems.append(f"after Stop intH's row reads {row_status(page, 'intH')!r}")
    output = str(context["root"] / "milab-output")
    left = [process.pid for process in psutil.process_iter(["cmdline"])
            if any(output in part for part in process.info["cmdline"] or [])]
    pid = context.get("kernel_pid")
    if pid is not None and psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie":
        left.append(pid)
    if left:
        problems.append(f"processes of the stopped run still alive: {left}")
    if pid is None:
        problems.append("the run wrote no kernel.pid, so its kernel could not be checked")
    return problems


def step_token(page, context) -> list[str]:
    problems = []
    base, token = context["base"], context["token"]
    for method, route in (("GET", "papers"), ("GET", "reproduce"), ("POST", "reproduce"),
                          ("DELETE", "reproduce"), ("POST", "notebooks")):
        request = urllib.request.Request(f"{base}/milab/api/{route}", method=method,
                                          data=b"{}" if method == "POST" else None)
        try:
            urllib.request.urlopen(request, timeout=10)
            problems.append(f"{method} {route} without the token was answered")
        except urllib.error.HTTPError as error:
            if error.code != 403:
                problems.append(f"{method} {route} without the token: {error.code}, not 403")
    with urllib.request.urlopen(f"{base}/milab/api/papers?token={token}", timeout=10) as reply:
        if [paper["short"] for paper in json.load(reply)] != list(registered()):
            problems.append("GET papers with the token does not list the registered papers")
    return problems


STEPS = (("tiles", step_tiles), ("lab", step_lab), ("paper", step_paper),
         ("reproduce", step_reproduce), ("reload", step_reload), ("stop", step_stop),
         ("token", step_token))


def tour(out: Path, python: str | None, plain: bool, only: str | None) -> list[dict]:
    from playwright.sync_api import sync_playwright

    results = []
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "root"
        root.mkdir()
        log = Path(scratch) / "jupyterlab.log"
        with jupyterlab(root, python, plain, log) as (base, token):
            context = {"base": base, "token": token, "root": root, "out": out}
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                     args=CHROMIUM_ARGS)
                page = browser.new_page(viewport=VIEWPORT)
                blocked: list[str] = []
                block_outside_requests(page, blocked)
                page.on("pageerror", lambda error: blocked.append(f"JavaScript error: {error}"))
                for name, step in STEPS:
                    started = time.monotonic()
                    try:
                        problems = step(page, context)
                    except Exception as error:  # any failure of a step is reported as its own
                        problems = [f"{type(error).__name__}: {str(error).splitlines()[0]}"]
                        page.screenshot(path=str(out / f"launcher-failed-{name}.png"))
                    problems += blocked
                    blocked.clear()
                    results.append({"step": name, "ok": not problems, "problems": problems,
                                    "seconds": round(time.monotonic() - started, 1)})
                    print(json.dumps(results[-1]), flush=True)
                    if name == only or problems and name == "tiles":
                        break
                browser.close()
        if not all(result["ok"] for result in results):
            shutil.copy(log, out / "launcher-jupyterlab.log")  # the server's side of it
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--jupyter", help="the Python whose JupyterLab runs (with --plain)")
    parser.add_argument("--plain", action="store_true",
                        help="a plain `jupyter lab`: the extensions must be installed")
    parser.add_argument("--only", choices=[name for name, _ in STEPS],
                        help="end the tour after this step")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    results = tour(args.out, args.jupyter, args.plain, args.only)
    return 0 if results and all(result["ok"] for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
