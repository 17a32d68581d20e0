"""The code base is lint-clean under ``[tool.ruff]`` of pyproject.toml (pyflakes,
pycodestyle, bugbear, simplifications, pyupgrade to 3.11, sorted imports): run by the
README's test command and so by CI."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ruff from the ``test`` extra, in the interpreter that runs the tests.
RUFF = [sys.executable, "-m", "ruff"]


def test_ruff_finds_nothing():
    result = subprocess.run([*RUFF, "check", "--no-cache", str(ROOT)], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_reads_the_project_settings(tmp_path):
    """A control: the same command fails on a file that breaks a selected rule (B905, a
    ``zip`` without ``strict=``), so the clean run above is not a run that checks nothing."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "bad.py").write_text("pairs = list(zip([1], [2]))\n")
    result = subprocess.run([*RUFF, "check", "--no-cache", str(tmp_path)], cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1 and "B905" in result.stdout, result.stdout + result.stderr
