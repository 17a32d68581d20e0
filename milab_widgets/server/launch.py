"""``milab jupyterlab``: JupyterLab with the milab launcher tiles, commands and reproduction
panel, from any install.

A wheel installs the front end into ``share/jupyter/labextensions`` and the config that
enables the server extension, so a plain ``jupyter lab`` has both. An editable install
(``pip install -e .``) installs neither (setuptools does not install data files in editable
mode), so this command names both on JupyterLab's command line: the server extension and
the package's own copy of the built front end.
"""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path

__all__ = ["LABEXTENSIONS", "jupyterlab_arguments"]

#: The folder holding the built front end (``milab-widgets-jupyterlab/``), in the package.
LABEXTENSIONS = Path(str(files("milab_widgets") / "labextension"))


def jupyterlab_arguments(extra: list[str]) -> list[str]:
    """The command that runs JupyterLab with the milab extensions, then ``extra``."""
    return [sys.executable, "-m", "jupyterlab",
            "--ServerApp.jpserver_extensions={'milab_widgets.server': True}",
            f"--LabApp.extra_labextensions_path={LABEXTENSIONS}", *extra]
