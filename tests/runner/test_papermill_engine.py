"""papermill's `milab-watched` engine (an entry point of the package): it loads whichever
module is imported first, and executes a notebook from papermill's own command line."""

from __future__ import annotations

import subprocess
import sys

import nbformat
import pytest

from tests.runner.notebooks import notebook


@pytest.mark.parametrize("first", ["milab_widgets.kernel_watch", "papermill",
                                   "milab_widgets.notebook_run"])
def test_the_engine_loads_whatever_is_imported_first(first):
    check = (f"import {first}\nfrom papermill.engines import papermill_engines\n"
             "print(papermill_engines.get_engine('milab-watched').__name__)")
    finished = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                              timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "WatchedEngine"


@pytest.mark.slow
def test_papermill_executes_a_notebook_with_the_watched_engine_on_unix_sockets(tmp_path):
    source, executed = tmp_path / "in.ipynb", tmp_path / "out.ipynb"
    nbformat.write(notebook("from ipykernel.kernelapp import IPKernelApp\n"
                            "print(6 * 7, IPKernelApp.instance().transport)"), source)
    finished = subprocess.run(
        [sys.executable, "-m", "papermill", str(source), str(executed), "--engine",
         "milab-watched", "--no-progress-bar", "-p", "quick", "False"],
        capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    outputs = nbformat.read(executed, as_version=4).cells[-1].outputs
    assert outputs[0].text == "42 ipc\n"  # on Unix sockets (milab_widgets.kernel_sockets)
