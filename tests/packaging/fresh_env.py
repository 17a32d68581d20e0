"""Fresh virtual environments for the tests that install the project as a user would: the
Binder test (tests/binder) and the wheel test (tests/packaging).

Installing the lab's dependencies into a new virtual environment takes about two minutes
on 2 cores, so a test session makes ONE environment per interpreter (the session fixture
``fresh_venvs`` in tests/conftest.py) and each of those tests first installs its own
flavour of milab-widgets into it -- the Binder's editable install of a repository copy, or
the built wheel -- after uninstalling the one installed before; pip then finds the
dependencies (the same pyproject.toml's) already there, so the second install takes seconds.
Commands run with the environment activated, an explicit data home and nothing leaking
in from the test process (PYTHONPATH, user site-packages, user-level Jupyter kernels).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
#: Left out of a repository copy: version control and generated files, which a fresh clone
#: lacks, and the committed full run (reports/, 40 MB), which nothing installed reads.
NOT_COPIED = shutil.ignore_patterns(".git", "reports", "build", "dist", "*.egg-info",
                                    "__pycache__", ".pytest_cache", ".ipynb_checkpoints",
                                    ".benchmarks", "milab-output")
#: Variables of the test process that would reach past the environment under test.
LEAKING = {"PYTHONPATH", "PYTHONHOME", "MILAB_DATA_URL", "MILAB_NOTEBOOKS", "JUPYTER_PATH"}


def tail(output, chars=4000):
    """The last ``chars`` characters of a subprocess's output (str, bytes or None)."""
    if isinstance(output, bytes):
        output = output.decode(errors="replace")
    return (output or "")[-chars:]


def run(command, what, *, timeout, **kwargs):
    """Run ``command``; fail with the tail of its output if it fails or outlasts ``timeout``."""
    try:
        done = subprocess.run([str(part) for part in command], check=False,
                              capture_output=True, text=True, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as hung:
        pytest.fail(f"{what} took over {timeout} s; stderr ends:\n{tail(hung.stderr)}",
                    pytrace=False)
    if done.returncode:
        pytest.fail(f"{what} failed (exit {done.returncode}); stdout ends:\n"
                    f"{tail(done.stdout, 2000)}\nstderr ends:\n{tail(done.stderr)}",
                    pytrace=False)
    return done


def copy_repository(destination: Path) -> Path:
    """Copy the working tree to ``destination`` as a fresh clone has it."""
    shutil.copytree(REPO, destination, ignore=NOT_COPIED)
    return destination


@dataclass(frozen=True)
class FreshVenv:
    """A virtual environment made by ``python -m venv`` in this test session."""

    path: Path

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    def environment(self, data_home: Path) -> dict[str, str]:
        """os.environ with this environment activated, ``data_home`` as the data home, and
        nothing leaking in from the test process."""
        env = {key: value for key, value in os.environ.items() if key not in LEAKING}
        env.update(VIRTUAL_ENV=str(self.path), MILAB_DATA_HOME=str(data_home),
                   PATH=f"{self.path / 'bin'}{os.pathsep}{env.get('PATH', '')}",
                   PYTHONNOUSERSITE="1", JUPYTER_DATA_DIR=str(self.path / "jupyter-data"))
        return env

    def install_project(self, *arguments, env: dict[str, str], cwd: Path | None = None):
        """Uninstall whatever milab-widgets another test installed here, then run
        ``pip install ARGUMENTS`` (fails the test if pip does)."""
        pip = [self.python, "-m", "pip"]
        run([*pip, "uninstall", "--yes", "milab-widgets"], "pip uninstall", env=env, timeout=300)
        return run([*pip, "install", "--no-input", *arguments],
                   f"pip install {' '.join(map(str, arguments))}", cwd=cwd, env=env,
                   timeout=1800)


def make_venv(python: str, path: Path) -> FreshVenv:
    """``python -m venv path``."""
    run([python, "-m", "venv", path], f"{python} -m venv", timeout=300)
    return FreshVenv(path)
