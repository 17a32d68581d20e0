"""The Binder configuration builds an environment in which the lab opens without data.

Binder (repo2docker) cannot run here, so this test does with ``binder/`` what repo2docker
does, in a fresh virtual environment: it takes the Python that ``binder/runtime.txt`` names,
runs ``pip install -r binder/requirements.txt`` from the root of a copy of the repository,
then ``binder/postBuild`` if there is one. It then runs ``notebooks/index.ipynb``, the
notebook the Binder link opens, in a kernel of that environment with an empty data home
(a Binder has no benchmark data), and checks that its JupyterLab has the milab front end
and server extension (the launcher tiles the Binder link opens on). The commands come from the files, so changing the
configuration changes what is tested. The environment and the repository copy are the
session's, shared with the wheel test (tests/packaging/fresh_env.py says how).
"""

import json
import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from milab_widgets.papers import PAPERS
from tests.notebooks.test_notebooks import outputs_of_type
from tests.packaging.fresh_env import REPO, run

#: The binder/ files this test reproduces; any other one would change the Binder unseen.
MIRRORED = {"runtime.txt", "requirements.txt", "postBuild"}
KERNEL = "milab-binder"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Appended to the index notebook: tells which Python and which milab_widgets the kernel ran.
PROBE = ("import json, os, sys, milab_widgets\n"
         "print(json.dumps({'prefix': sys.prefix, 'package': milab_widgets.__file__,\n"
         "                  'data_home': os.environ.get('MILAB_DATA_HOME')}))")


def runtime_python(binder):
    """The interpreter that ``runtime.txt`` asks for (``python-X.Y``); skips if absent."""
    runtime = (binder / "runtime.txt").read_text().strip()
    assert runtime.startswith("python-"), f"binder/runtime.txt says {runtime!r}, not python-X.Y"
    version = ".".join(runtime.removeprefix("python-").split(".")[:2])
    if version == "{}.{}".format(*sys.version_info[:2]):
        return sys.executable
    found = shutil.which(f"python{version}")
    if found is None:
        pytest.skip(f"binder/runtime.txt asks for Python {version}, not installed here")
    return found


def build_binder_environment(root, venv, env):
    """Do what repo2docker does with ``root/binder`` in ``venv``."""
    venv.install_project("-r", "binder/requirements.txt", cwd=root, env=env)
    post_build = root / "binder" / "postBuild"
    if post_build.exists():
        post_build.chmod(0o755)
        run(["./binder/postBuild"], "binder/postBuild", cwd=root, env=env, timeout=600)


def execute_index(python, root, env, folder):
    """Run the index notebook (plus the probe cell) under papermill in ``python``'s kernel."""
    run([python, "-m", "ipykernel", "install", "--sys-prefix", "--name", KERNEL],
        "ipykernel install --sys-prefix", env=env, timeout=300)
    notebook = nbformat.read(root / "notebooks" / "index.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    source, executed = folder / "index_with_probe.ipynb", folder / "index_executed.ipynb"
    nbformat.write(notebook, source)
    run([python, "-m", "papermill", source, executed, "--kernel", KERNEL,
         "--cwd", root / "notebooks", "--no-progress-bar", "--execution-timeout", "600",
         "--engine", "milab-watched"],
        "papermill notebooks/index.ipynb", env=env, timeout=900)
    return nbformat.read(executed, as_version=4).cells


@pytest.mark.slow
@pytest.mark.timeout(2700)
def test_binder_environment_opens_the_lab_without_data(tmp_path, repo_copy, fresh_venvs):
    unknown = set(os.listdir(REPO / "binder")) - MIRRORED
    assert not unknown, f"binder/ holds {unknown}, which this test does not reproduce"
    root, data_home = repo_copy, tmp_path / "data_home"
    venv = fresh_venvs(runtime_python(root / "binder"))
    data_home.mkdir()
    env = venv.environment(data_home)
    build_binder_environment(root, venv, env)
    *cells, probe = execute_index(venv.python, root, env, tmp_path)

    assert not outputs_of_type(cells + [probe], "error")
    ran = json.loads(outputs_of_type([probe], "stream")[0]["text"])
    assert Path(ran["prefix"]).resolve() == venv.path.resolve(), "the kernel was not the venv's"
    assert Path(ran["package"]).resolve().is_relative_to(venv.path.resolve())
    assert ran["data_home"] == str(data_home) and not any(data_home.iterdir())
    shown = outputs_of_type(cells, "display_data") + outputs_of_type(cells, "execute_result")
    widgets = [o for o in shown if WIDGET_VIEW in o["data"]]
    assert widgets, "the lab widget was not displayed"
    links = "".join(cells[0].source)
    for notebook in PAPERS.values():
        assert f"({notebook})" in links, f"the index does not link {notebook}"
        assert (root / "notebooks" / notebook).is_file()
    jupyter = venv.path / "bin" / "jupyter"
    lab = run([jupyter, "labextension", "list"], "jupyter labextension list", env=env,
              timeout=300)
    assert re.search(r"milab-widgets-jupyterlab .*enabled.*OK", lab.stdout + lab.stderr), (
        "the Binder's JupyterLab lacks the milab launcher tiles")
    server = run([jupyter, "server", "extension", "list"], "jupyter server extension list",
                 env=env, timeout=300)
    assert re.search(r"milab_widgets\.server.*enabled", server.stdout + server.stderr)
