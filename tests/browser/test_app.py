"""``milab app`` in a real browser, offline: the lab's tabs with no code shown, and in each
panel one control and one click or brush answered (tests/browser/app_tour.py). Skipped
without chromium/playwright (failed under ``MILAB_REQUIRE_BROWSER=1``)."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.lab_tour import STEPS

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("require_browser")]


@pytest.mark.timeout(900)
def test_milab_app_serves_the_lab_and_every_panel_answers_offline(tmp_path):
    result = subprocess.run([sys.executable, "-m", "tests.browser.app_tour", "--out",
                             str(tmp_path), "--timeout", "300"], cwd=ROOT, capture_output=True,
                            text=True, timeout=850, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "app_tour: OK" in result.stdout
    for step in STEPS:
        assert (tmp_path / f"app-{step.slug}.png").read_bytes().startswith(PNG)
        operated = f"app_tour: {step.slug}: {step.click}: " in result.stdout
        assert operated or f"app_tour: {step.slug}: not operated, data unavailable" in result.stdout
    assert (tmp_path / "app.png").read_bytes().startswith(PNG)
