"""binder/postBuild turns on JupyterLab's saved widget state for the Binder's users: run as
repo2docker runs it (from the repository root, NB_PYTHON_PREFIX set to the environment), it
writes an overrides.json that JupyterLab's own settings code reads as saveState = true for
the widget manager, a setting the installed manager's schema declares."""

import json
import os
import subprocess
import sys
from pathlib import Path

from jupyterlab_server.settings_utils import get_settings

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "@jupyter-widgets/jupyterlab-manager:plugin"
SCHEMAS = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas"
LABEXTENSIONS = Path(sys.prefix) / "share" / "jupyter" / "labextensions"


def run_post_build(prefix: Path) -> None:
    subprocess.run(["bash", "binder/postBuild"], cwd=ROOT, check=True, timeout=60,
                   env=dict(os.environ, NB_PYTHON_PREFIX=str(prefix)))


def widget_manager_settings(app_settings_dir: Path, user_settings_dir: Path) -> dict:
    """The widget manager's settings as JupyterLab composes them (schema defaults, then
    overrides.json, then the user's settings)."""
    settings, _warnings = get_settings(
        str(app_settings_dir), str(SCHEMAS), str(user_settings_dir), schema_name=PLUGIN,
        labextensions_path=[str(LABEXTENSIONS)])
    return settings


def test_post_build_turns_on_saved_widget_state(tmp_path):
    app_settings = tmp_path / "share" / "jupyter" / "lab" / "settings"
    before = widget_manager_settings(app_settings, tmp_path / "user")
    assert before["schema"]["properties"]["saveState"]["default"] is False
    assert before["settings"].get("saveState") is None and before["raw"] == "{}"

    run_post_build(tmp_path)

    overrides = json.loads((app_settings / "overrides.json").read_text())
    assert overrides == {PLUGIN: {"saveState": True}}
    after = widget_manager_settings(app_settings, tmp_path / "user")
    assert after["schema"]["properties"]["saveState"]["default"] is True


def test_post_build_keeps_other_overrides(tmp_path):
    app_settings = tmp_path / "share" / "jupyter" / "lab" / "settings"
    app_settings.mkdir(parents=True)
    other = {"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}
    (app_settings / "overrides.json").write_text(json.dumps(other))
    run_post_build(tmp_path)
    assert json.loads((app_settings / "overrides.json").read_text()) == {
        **other, PLUGIN: {"saveState": True}}
