"""milab inside JupyterLab, clicked through in Chromium, offline
(:mod:`tests.browser.launcher_tour`): the launcher's milab tiles and menu, the Lab tile
showing every paper's tab, a paper's tile showing its panel, a palette command running a
quick reproduction whose progress the panel shows and whose report opens, the panel
reattaching after a page reload, Stop leaving no worker or kernel alive, and the routes
refusing requests without the server's token. Skipped without chromium/playwright (failed
under ``MILAB_REQUIRE_BROWSER=1``)."""

import json

import pytest

from tests.browser.launcher_tour import STEPS
from tests.browser.test_browser import run_module

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("require_browser")]


@pytest.mark.timeout(1500)
def test_launcher_tiles_commands_reproduction_panel_and_stop_in_chromium(tmp_path):
    result = run_module("launcher_tour", "--out", str(tmp_path), timeout=1400)
    steps = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [step["step"] for step in steps] == [name for name, _ in STEPS], (
        result.stdout + result.stderr)
    failed = [step for step in steps if not step["ok"]]
    assert not failed, json.dumps(failed, indent=1)
    assert result.returncode == 0
    for shot in ("launcher", "launcher-lab", "launcher-paper", "launcher-reproduce"):
        assert (tmp_path / f"{shot}.png").stat().st_size > 10_000, f"{shot}.png is blank"
