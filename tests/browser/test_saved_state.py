"""A lab notebook saved in JupyterLab with saved widget state on, reopened with a new kernel
(the panels as they were, under a note on bringing the lab back), without its state ("model
not found" under the same note), with no kernel (the note and a snapshot of the panel),
untrusted with no kernel, and as nbconvert's HTML page offline (the note and the snapshot
both times); and an executed report notebook, trusted, draws its panel from its stored
state: tests/browser/saved_state.py.
Skipped without chromium/playwright (failed under ``MILAB_REQUIRE_BROWSER=1``)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("require_browser")]


@pytest.mark.timeout(900)
def test_a_saved_lab_shows_again_and_says_how_to_bring_it_back(tmp_path):
    result = subprocess.run([sys.executable, "-m", "tests.browser.saved_state", "--out",
                             str(tmp_path), "--timeout", "300"], cwd=ROOT, capture_output=True,
                            text=True, timeout=850, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "saved_state: OK" in result.stdout
    assert "'modelNotFound': True" in result.stdout.split("reopened without saved state:")[1]
    assert "saved_state: trusted report intH.ipynb: {" in result.stdout
    assert "saved_state: untrusted, with no kernel: {" in result.stdout
    assert "saved_state: nbconvert's page (" in result.stdout
    for name in ("saved-lab-new-kernel", "saved-lab-no-state", "saved-lab-no-kernel",
                 "report-intH-trusted", "saved-lab-untrusted", "saved-lab-nbconvert"):
        assert (tmp_path / f"{name}.png").read_bytes().startswith(PNG)
