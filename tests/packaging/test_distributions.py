"""The distributions a release would upload. ``python -m build`` makes an sdist and a wheel
that pass ``twine check``; the wheel ships the papers' notebooks; and installed from that
wheel into a fresh virtual environment -- no source checkout anywhere on the path -- the
``milab reproduce`` command runs a paper on an empty data home and names the skipped data.
"""

import json
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from setuptools import find_packages

from milab_widgets import papers
from milab_widgets.exceptions import MilabError
from tests.notebooks.test_notebooks import FRESH_INSTALL_MISSING
from tests.packaging.fresh_env import REPO, run

#: Run in the fresh environment: where milab_widgets and its notebooks are imported from.
WHERE = ("import json, milab_widgets\n"
         "from milab_widgets.papers import notebooks_dir\n"
         "print(json.dumps({'package': milab_widgets.__file__, 'notebooks': str(notebooks_dir())}))")


# -- configuration (fast) --------------------------------------------------------------------
def test_the_package_list_names_every_package_of_the_source_tree():
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = find_packages(where=str(REPO), include=["milab_widgets", "milab_widgets.*"])
    assert sorted(setuptools["packages"]) == sorted([*found, "milab_widgets.notebooks"])
    assert setuptools["package-dir"] == {"milab_widgets.notebooks": "notebooks"}


def test_notebooks_dir_prefers_the_variable_then_the_package_then_the_checkout(
        tmp_path, monkeypatch):
    checkout = tmp_path.resolve() / "checkout"
    module = checkout / "milab_widgets" / "papers" / "__init__.py"
    module.parent.mkdir(parents=True)
    monkeypatch.setattr(papers, "__file__", str(module))
    monkeypatch.delenv("MILAB_NOTEBOOKS", raising=False)
    with pytest.raises(MilabError, match="no notebooks folder.*MILAB_NOTEBOOKS"):
        papers.notebooks_dir()
    (checkout / "notebooks").mkdir()
    assert papers.notebooks_dir() == checkout / "notebooks"
    (checkout / "milab_widgets" / "notebooks").mkdir()
    assert papers.notebooks_dir() == checkout / "milab_widgets" / "notebooks"
    monkeypatch.setenv("MILAB_NOTEBOOKS", str(checkout / "elsewhere"))
    with pytest.raises(MilabError, match="elsewhere"):
        papers.notebooks_dir()
    (checkout / "elsewhere").mkdir()
    assert papers.notebooks_dir() == checkout / "elsewhere"


# -- built distributions (slow) --------------------------------------------------------------
@pytest.fixture(scope="module")
def dists(repo_copy, tmp_path_factory):
    """(sdist, wheel) that ``python -m build`` makes from a fresh copy of the tree (the
    wheel is built from the unpacked sdist, so both must be complete)."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--outdir", out, repo_copy], "python -m build",
        timeout=900)
    (sdist,), (wheel,) = list(out.glob("*.tar.gz")), list(out.glob("*.whl"))
    return sdist, wheel


@pytest.mark.slow
def test_build_makes_an_sdist_and_a_wheel_that_pass_twine_check(dists, repo_copy):
    run([sys.executable, "-m", "twine", "check", "--strict", *dists], "twine check",
        timeout=300)
    sdist, wheel = dists
    notebooks = {path.name: path.read_bytes() for path in (repo_copy / "notebooks").glob("*.ipynb")}
    assert {f"{paper}.ipynb" for paper in papers.PAPERS} < set(notebooks)
    with zipfile.ZipFile(wheel) as archive:
        shipped = {Path(name).name: archive.read(name) for name in archive.namelist()
                   if Path(name).parent == Path("milab_widgets/notebooks")}
    assert shipped == notebooks
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    data = "milab_widgets-0.1.0.data/data/"
    assert f"{data}etc/jupyter/jupyter_server_config.d/milab_widgets.json" in names
    built = REPO / "milab_widgets" / "labextension" / "milab-widgets-jupyterlab"
    for path in built.rglob("*"):
        if path.is_file():
            shipped_as = path.relative_to(built).as_posix()
            assert (f"{data}share/jupyter/labextensions/milab-widgets-jupyterlab/{shipped_as}"
                    in names), f"the wheel lacks the front end's {shipped_as}"
    with tarfile.open(sdist) as archive:
        in_sdist = {Path(name).name for name in archive.getnames()
                    if Path(name).parent.name == "notebooks"}
    assert in_sdist == set(notebooks)


@pytest.mark.slow
@pytest.mark.timeout(2700)
def test_milab_reproduce_runs_from_the_wheel_in_a_fresh_environment_without_data(
        dists, fresh_venvs, tmp_path):
    venv = fresh_venvs(sys.executable)
    data_home, work = tmp_path / "data_home", tmp_path / "work"
    data_home.mkdir()
    work.mkdir()
    env = venv.environment(data_home)
    venv.install_project(dists[1], env=env)
    run([venv.python, "-m", "pip", "check"], "pip check", env=env, timeout=300)

    where = json.loads(run([venv.python, "-c", WHERE], "import milab_widgets", cwd=work,
                           env=env, timeout=300).stdout)
    package = Path(where["package"]).resolve().parent
    assert package.is_relative_to(venv.path.resolve()), f"imported from {package}"
    assert Path(where["notebooks"]).resolve() == package / "notebooks"
    kernels = json.loads(run([venv.path / "bin" / "jupyter", "kernelspec", "list", "--json"],
                             "jupyter kernelspec list", env=env, timeout=300).stdout)
    kernel = Path(kernels["kernelspecs"]["python3"]["resource_dir"]).resolve()
    assert kernel.is_relative_to(venv.path.resolve()), f"the python3 kernel is {kernel}'s"

    done = run([venv.path / "bin" / "milab", "reproduce", "intH", "--output", "out"],
               "milab reproduce intH", cwd=work, env=env, timeout=1800)
    assert "intH: done in" in done.stdout
    output = work / "out"
    for produced in ("REPORT.md", "REPORT.html", "intH/intH.ipynb", "intH/summary.csv",
                     "intH/verdict.md", "intH/table3.png"):
        assert (output / produced).is_file(), f"{produced} is missing"
    skipped = json.loads((output / "intH" / "settings.json").read_text())["skipped"]
    assert FRESH_INSTALL_MISSING["intH"] <= set(skipped)
    report = (output / "REPORT.md").read_text()
    named = skipped_line(done.stdout, "intH")
    for name in FRESH_INSTALL_MISSING["intH"]:
        assert name in named, f"the command does not name {name} as skipped: {named}"
        assert f"milab fetch {name}" in report, f"the report does not say how to get {name}"
    assert not any(data_home.iterdir()), "the run wrote into the data home"


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.usefixtures("require_browser")
@pytest.mark.timeout(1800)
def test_jupyterlab_from_the_wheel_has_the_milab_tiles_commands_and_reproduction_panel(
        dists, fresh_venvs, tmp_path):
    """Installed from the wheel, a plain ``jupyter lab`` has the milab server extension and
    the prebuilt front end (no node on the path is needed: the wheel carries the built
    assets), and the whole launcher tour passes in Chromium against it: tiles and menu, the
    Lab and a paper's tile, a quick reproduction from the palette with its progress and
    report, a page reload, Stop, and the token (tests/browser/launcher_tour.py)."""
    venv = fresh_venvs(sys.executable)
    (tmp_path / "data_home").mkdir()
    env = venv.environment(tmp_path / "data_home")  # a fresh install's: no benchmark data
    venv.install_project(dists[1], env=env)
    jupyter = venv.path / "bin" / "jupyter"
    server = run([jupyter, "server", "extension", "list"], "jupyter server extension list",
                 env=env, timeout=300)
    assert re.search(r"milab_widgets\.server.*enabled", server.stdout + server.stderr)
    lab = run([jupyter, "labextension", "list"], "jupyter labextension list", env=env,
              timeout=300)
    assert re.search(r"milab-widgets-jupyterlab v0\.1\.0 .*enabled.*OK", lab.stdout + lab.stderr)
    tour = subprocess.run([sys.executable, "-m", "tests.browser.launcher_tour", "--plain",
                           "--jupyter", str(venv.python), "--out", str(tmp_path)],
                          cwd=REPO, capture_output=True, text=True, timeout=1500, check=False,
                          env=env)
    assert tour.returncode == 0, tour.stdout + tour.stderr


def skipped_line(stdout: str, paper: str) -> list[str]:
    """The datasets the command's "PAPER: N skipped: a, b" line names (none if no line)."""
    prefix = f"{paper}: "
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith(prefix) and " skipped: " in line:
            return line.split(" skipped: ", 1)[1].split(", ")
    return []
