"""A relative $MILAB_DATA_HOME names the same folder in processes started elsewhere."""

import os
from pathlib import Path

import pytest

from milab_widgets import app, notebook_run
from milab_widgets.data.home import ENV_DATA_HOME, data_home, pin_data_home


@pytest.fixture
def relative_data_home(tmp_path, monkeypatch):
    """$MILAB_DATA_HOME=../data seen from tmp_path/work; the folder it names."""
    (tmp_path / "work").mkdir()
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv(ENV_DATA_HOME, "../data")
    return (tmp_path / "data").resolve()


def test_pin_writes_the_absolute_folder(relative_data_home):
    pin_data_home()
    assert os.environ[ENV_DATA_HOME] == str(relative_data_home)
    os.chdir(relative_data_home.parent)  # another folder: the pinned value still names it
    assert data_home() == relative_data_home


def test_pin_leaves_an_unset_home_unset(monkeypatch):
    monkeypatch.delenv(ENV_DATA_HOME, raising=False)
    pin_data_home()
    assert ENV_DATA_HOME not in os.environ


def test_a_papers_kernel_gets_the_absolute_home(relative_data_home, monkeypatch, tmp_path):
    import papermill

    seen = {}

    def record(*args, cwd, **kwargs):
        seen["home"] = os.environ[ENV_DATA_HOME]
        seen["cwd"] = cwd

    monkeypatch.setattr(papermill, "execute_notebook", record)
    notebook_run.execute("intH", tmp_path / "out", True, 0)
    assert Path(seen["cwd"]) != relative_data_home.parent / "work"  # the kernel's own folder
    assert seen["home"] == str(relative_data_home)


def test_the_apps_kernels_get_the_absolute_home(relative_data_home, monkeypatch):
    from voila.app import Voila

    seen = {}
    monkeypatch.setattr(app, "check_port", lambda port: None)
    monkeypatch.setattr(Voila, "launch_instance",
                        lambda argv: seen.setdefault("home", os.environ[ENV_DATA_HOME]))
    app.serve(8899)
    assert seen["home"] == str(relative_data_home)
